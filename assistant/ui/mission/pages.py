"""The mission builder's pages (pure): the edition and the Heroes, the enemy groups, the Horologium, the goals and
the end, each a `Form`; and the scenario's TOML tables they make, naming the library's cards (`card = "id"`)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from assistant.rules.scenario import Scenario
from assistant.ui.form import Choice, Form, Number, Text
from assistant.ui.words import roman

if TYPE_CHECKING:
    from assistant.session.campaign import CampaignSheet
    from assistant.session.card_library import CardLibrary

HEROES = 4  # seats: both editions are played with 4 Heroes
GROUPS = 3  # enemy groups a mission card sets up from the library
MYSTERY = 3  # Mystery tokens at most
UPGRADED = 1  # "the improved Characteristic is considered permanently increased by 1 point" (Advanced Class)

# short forms of what a mission card says, picked rather than typed
GOALS: tuple[tuple[str | None, str], ...] = ((None, "none"), ("objective", "Reach the objective"),
                                             ("heroes", "Hunt the Heroes down"), ("escape", "Escape with the loot"))  # fmt: skip
VICTORY = {"Every enemy is defeated.": "All defeated", "A Hero reaches the objective.": "Objective reached",
           "The Heroes hold out to the end.": "Held out"}  # the mission's words: their short form on the screen
DEFEAT = {"At least 3 Heroes are KO.": "3 Heroes KO", "The enemies reach their goal.": "Enemies' goal",
          "The time runs out.": "Time runs out"}
EVENTS: tuple[tuple[str | None, str], ...] = ((None, "none"), ("reinforcements", "Reinforcements arrive"),
                                              ("alarm", "The alarm bells ring"), ("fog", "A fog rises"))  # fmt: skip
STEALTH: tuple[tuple[int, ...], ...] = ((), (4, 5, 6), (3, 5, 6, 7), (5, 6, 7, 8))
DRAFT_SQUARES = 2
DRAFT_PLACE = "at the edge of the battlefield"


@dataclass(frozen=True)
class Pick:
    """A card the builder offers: its kind, id and name, and the fields a mission gives beside `card` (a Hero of the
    campaign: the sheet's name, class and upgraded Characteristic)."""

    kind: str
    id: str
    name: str
    fields: Mapping[str, Any] = field(default_factory=dict)
    campaign: bool = False


def picks(library: CardLibrary, edition: str, kind: str, sheet: CampaignSheet | None = None) -> list[Pick]:
    """The cards of `kind` and `edition` the library has that can be used (a card with mistakes is not offered); for
    Heroes those of the campaign sheet first, at their current values (its Renaissance sheet only)."""
    from assistant.session.card_library import CardFileError

    found: list[Pick] = []
    for entry_kind, ident, _, _, _ in library.entries():
        if entry_kind != kind:
            continue
        try:
            card = library.card(kind, ident)
        except (CardFileError, KeyError):
            continue
        if card.edition == edition:
            found.append(Pick(kind, ident, card.name))
    if kind != "hero" or sheet is None or edition != "renaissance":
        return found
    cards = {pick.id: pick for pick in found}
    ours = [hero for hero in sheet.heroes if hero.id in cards]
    out = []
    for hero in ours:
        table = library.card("hero", hero.id).table
        given: dict[str, Any] = {"name": hero.name, "class": hero.advanced_class or hero.hero_class}
        if hero.upgrade is not None and isinstance(table.get(hero.upgrade), int):
            given[hero.upgrade] = table[hero.upgrade] + UPGRADED
        out.append(Pick("hero", hero.id, hero.name, given, campaign=True))
    return out + [pick for pick in found if pick.id not in {hero.id for hero in ours}]


@dataclass
class Pool:
    """What the pages offer: the library, and the campaign sheet whose Heroes come first (None: no campaign)."""

    library: CardLibrary
    sheet: CampaignSheet | None = None
    _picks: dict[tuple[str, str], list[Pick]] = field(default_factory=dict)

    def picks(self, edition: str, kind: str) -> list[Pick]:
        if (edition, kind) not in self._picks:
            self._picks[(edition, kind)] = picks(self.library, edition, kind, self.sheet)
        return self._picks[(edition, kind)]


def _options(found: Sequence[Pick]) -> list[tuple[Any, str]]:
    return [(None, "nobody" if found and found[0].kind == "hero" else "none")] + [
        (pick, f"{pick.name} (campaign)" if pick.campaign else pick.name) for pick in found]


def mission_page(pool: Pool, edition: str = "renaissance") -> Form:
    """The edition, the title, and the Heroes: those of the campaign sheet already seated."""
    editions = Choice("edition", "Edition", [("renaissance", "Renaissance"), ("classic", "First edition")])
    editions.select(edition)
    sheet = pool.sheet
    title = Text("title", "Title", (sheet.next_mission if sheet is not None and sheet.next_mission else "A new mission"))
    seats = [Choice(f"hero{n}", f"Hero {n + 1}", [(None, "nobody")]) for n in range(HEROES)]
    shown: list[str] = []

    def update(form: Form) -> None:
        chosen = str(form.value("edition"))
        if shown == [chosen]:
            return
        found = pool.picks(chosen, "hero")
        ours = [pick for pick in found if pick.campaign] or found[:1]
        for n, seat in enumerate(seats):
            seat.options, seat.index = _options(found), 0
            if n < len(ours):
                seat.select(ours[n])
        shown[:] = [chosen]

    return Form("mission", "A new mission", [editions, title, *seats], lambda form: {}, update, apply_label="Next",
                note="The Heroes of the campaign sheet are seated at their current values")  # fmt: skip


def _chosen(key: str) -> Callable[[Form], bool]:
    """A field shown once the field `key` has a value."""
    return lambda form: form.value(key) is not None


def _more(key: str, n: int) -> Callable[[Form], bool]:
    """A field shown while the number `key` is above `n`."""
    return lambda form: int(form.value(key)) > n


def enemies_page(pool: Pool, edition: str) -> Form:
    """The enemy groups, each a card of the library with its number of models."""
    found = pool.picks(edition, "enemy")
    fields: list[Choice | Number] = []
    for n in range(GROUPS):
        fields.append(Choice(f"group{n}", f"Group {n + 1}", _options(found)))
        fields.append(Number(f"models{n}", "Models", 1, 20, 1, show=_chosen(f"group{n}")))
    return Form("enemies", "The enemy groups", fields, lambda form: {}, apply_label="Next",
                note="From the card library, as many models as the mission card says")  # fmt: skip


def tokens_of(heroes: Sequence[Pick], groups: Sequence[tuple[Pick, int]]) -> list[tuple[str, str]]:
    """The activation tokens to place: (id, name) of each Hero and enemy group."""
    return [(pick.id, pick.fields.get("name", pick.name)) for pick in heroes] + [(pick.id, pick.name) for pick, _ in groups]


def horologium_page(tokens: Sequence[tuple[str, str]]) -> Form:
    """The hands, each activation token's sector and the Mystery tokens', as the mission card shows them: a turn
    steps a sector, a tap on the dial puts the focused one there."""
    fields: list[Number] = [Number("hour", "Hour hand", 1, 12, 1), Number("minute", "Minute hand", 1, 12, 12)]
    fields += [Number(f"token:{ident}", name, 1, 12, 1 + n % 12) for n, (ident, name) in enumerate(tokens)]
    fields.append(Number("mystery", "Mystery tokens", 0, MYSTERY, 0))
    fields += [Number(f"mystery{n}", f"Mystery {n + 1}", 1, 12, 6, show=_more("mystery", n)) for n in range(MYSTERY)]
    return Form("horologium", "The Horologium", fields, lambda form: {}, apply_label="Next")


def end_page(edition: str) -> Form:
    """Goals, victory, defeat, the end, an event (and its Enemy Draft) and Stealth, from short forms."""
    renaissance = edition == "renaissance"
    fields: list[Choice | Number] = [
        Choice("goal", "Enemies' goal", list(GOALS)),
        Choice("victory", "Victory", list(VICTORY.items())),
        Choice("defeat", "Defeat", list(DEFEAT.items())),
        Choice("end", "End", [(None, "no time limit")] + [(hour, f"hour {hour}, XII") for hour in range(2, 13)]),
        Choice("event", "Event", list(EVENTS)),
        Number("event_hour", "Event at hour", 1, 12, 2, show=lambda form: form.value("event") is not None),
    ]
    if renaissance:
        fields.append(Choice("draft", "Enemy Draft", [(False, "no"), (True, "yes")], show=lambda form: form.value("event") is not None))
        fields.append(Choice("stealth", "Stealth", [(slots, " ".join(map(str, slots)) or "none") for slots in STEALTH]))
    return Form("end", "Goals and the end", fields, lambda form: {}, apply_label="Next")


@dataclass
class Chosen:
    """The pages' answers so far."""

    edition: str = "renaissance"
    title: str = "A new mission"
    heroes: list[Pick] = field(default_factory=list)
    groups: list[tuple[Pick, int]] = field(default_factory=list)
    hands: tuple[int, int] = (1, 12)
    sectors: dict[str, int] = field(default_factory=dict)
    mystery: list[int] = field(default_factory=list)
    ends: dict[str, Any] = field(default_factory=dict)
    factions: dict[str, tuple[str, str]] = field(default_factory=dict)  # an enemy card's id -> (faction, rank)

    def read(self, form: Form) -> None:
        """Take a page's answers."""
        if form.name == "mission":
            self.edition, self.title = str(form.value("edition")), str(form.value("title")) or "A new mission"
            self.heroes = [form.value(f"hero{n}") for n in range(HEROES) if form.value(f"hero{n}") is not None]
        elif form.name == "enemies":
            self.groups = [(form.value(f"group{n}"), int(form.value(f"models{n}"))) for n in range(GROUPS)
                           if form.value(f"group{n}") is not None]  # fmt: skip
        elif form.name == "horologium":
            self.hands = (int(form.value("hour")), int(form.value("minute")))
            self.sectors = {f.key[6:]: int(f.value) for f in form.fields if f.key.startswith("token:") and isinstance(f, Number)}
            self.mystery = [int(form.value(f"mystery{n}")) for n in range(int(form.value("mystery")))]
        elif form.name == "end":
            self.ends = {f.key: form.value(f.key) for _, f in form.visible()}

    def tokens(self) -> list[tuple[str, str]]:
        return tokens_of(self.heroes, self.groups)

    def data(self) -> dict[str, Any]:
        """The scenario's TOML tables: every card named from the library, what is the mission's beside it."""
        ends = self.ends
        goal = ends.get("goal")
        data: dict[str, Any] = {"format": 1, "edition": self.edition, "title": self.title,
                                "victory": [ends.get("victory", next(iter(VICTORY)))], "defeat": [ends.get("defeat", next(iter(DEFEAT)))]}  # fmt: skip
        if any(pick.campaign for pick in self.heroes):  # its end goes onto the campaign sheet
            data["campaign"] = True
        if ends.get("stealth"):
            data["stealth"] = list(ends["stealth"])
        hour, minute = self.hands
        horologium: dict[str, Any] = {"hour": hour, "minute": minute}
        if self.mystery:
            horologium["mystery"] = list(self.mystery)
        horologium["tokens"] = {ident: self.sectors.get(ident, 1) for ident, _ in self.tokens()}
        data["horologium"] = horologium
        data["heroes"] = [{"card": pick.id, **pick.fields} for pick in self.heroes]
        data["enemies"] = [{"card": pick.id, "models": models} | ({"goal": goal} if goal else {}) for pick, models in self.groups]
        if goal:
            data["goals"] = [{"id": goal, "text": dict(GOALS)[goal]}]
        event = ends.get("event")
        if event:
            due: dict[str, Any] = {"id": event, "hour": int(ends.get("event_hour", 2)), "minute": 12, "text": dict(EVENTS)[event]}
            if ends.get("draft") and self.groups:
                first = self.groups[0][0]
                due["draft"] = {"faction": self._enemy(first, "faction"), "rank": self._enemy(first, "rank"),
                                "squares": DRAFT_SQUARES, "place": DRAFT_PLACE}  # fmt: skip
            data["events"] = [due]
        if ends.get("end"):
            data["end"] = {"hour": int(ends["end"]), "minute": 12}
        return data

    def _enemy(self, pick: Pick, key: str) -> str:
        faction, rank = self.factions.get(pick.id, ("", ""))
        return faction if key == "faction" else rank


def file_name(title: str, taken: Sequence[str]) -> str:
    """The scenario's file name in the folder, from its title ("Ponte Sisto!" -> ponte_sisto.toml), one not taken."""
    stem = re.sub(r"[^a-z0-9]+", "_", title.lower()).strip("_") or "mission"
    name, n = f"{stem}.toml", 2
    while name in taken:
        name, n = f"{stem}_{n}.toml", n + 1
    return name


def summary(scenario: Scenario, tokens: Mapping[str, str] | None = None) -> list[str]:
    """The mission whole, in lines of words: what the table reads before it starts."""
    names = {h.id: h.name for h in scenario.heroes} | {e.id: e.name for e in scenario.enemies} | dict(tokens or {})
    lines = [scenario.title + (" (example values)" if scenario.example_values else "")]
    lines.append("Heroes: " + ", ".join(f"{hero.name} ({hero.hero_class})" for hero in scenario.heroes))
    lines.append("Enemies: " + (", ".join(f"{group.models} {group.name}" for group in scenario.enemies) or "none"))
    setup = scenario.horologium
    placed = ", ".join(f"{names.get(t.token, t.token)} {roman(t.sector)}" for t in setup.tokens)
    lines.append(f"Hour {setup.hour}, minute hand at {roman(setup.minute)}: {placed}")
    lines += [f"The enemies' goal: {goal.text}" for goal in scenario.goals]
    lines.append(f"Victory: {' '.join(scenario.victory)} Defeat: {' '.join(scenario.defeat)}")
    for event in scenario.events:
        draft = f"; Enemy Draft: {event.draft.faction} {event.draft.rank}" if event.draft is not None else ""
        lines.append(f"Event at hour {event.hour}, {roman(event.minute)}: {event.text}{draft}")
    if scenario.stealth:
        lines.append("Stealth: " + " ".join(map(str, scenario.stealth)))
    lines.append(f"The end: hour {scenario.end.hour}, {roman(scenario.end.minute)}" if scenario.end else "No time limit")
    return lines
