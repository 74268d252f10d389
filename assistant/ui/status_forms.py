"""The forms of a game of Nova Lectio: Status (pure): send an Official, the Officials on an Event card, a move on a
track (a Cost, a Gain, an effect), the final count a Faction at a time, and the table of a new game."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Any

from assistant.status import Continent, Faction, StatusGame, resolve_card
from assistant.ui.form import Choice, Form, Number

NEWSPAPER_SPACES = 4
"""The Newspaper spaces offered in Phase II (the book does not number them: a choice, docs/ui.md)."""

SHORT = {Faction.MANO: "Mano", Faction.RAGIONE: "Ragione", Faction.MILIZIA: "Milizia", Faction.PUGNO: "Pugno"}
"""A Faction's short name, where the whole one does not fit (a field's label, a disc's legend)."""


def send_form(state: StatusGame) -> Form:
    """Phase II: the Faction whose turn it is sends an Official to a card or a Newspaper space, face up or down."""
    faction = state.to_play
    assert faction is not None
    free = state.free_values(faction)
    places = [(("card", card), f"Card {card}") for card in state.monitor]
    places += [(("newspaper", space), f"Newspaper {space}") for space in range(1, NEWSPAPER_SPACES + 1)]
    values: list[tuple[Any, str]] = [(None, "? face down")] + [(v, f"{v} face up") for v in free]

    def build(form: Form) -> dict[str, Any]:
        where, number = form.value("place")
        return {"type": "send_official", "faction": str(faction), where: number, "value": form.value("value")}

    sent = sum(1 for o in state.officials if o.faction is faction)
    return Form("send", f"{faction.full_name} sends", [Choice("place", "Place", places), Choice("value", "Official", values)],
                build, apply_label="Send", note=f"Official {sent + 1} of 4; a Cost or a Gain: Fix")  # fmt: skip


def resolve_form(state: StatusGame) -> Form:
    """Phase III: the leftmost card still to resolve. A Faction's Officials sent face down there are set together to
    values it does not show face up (`StatusGame.free_values`: one Official of each value), a row a Faction; the
    Reward (Status points) entered. The note stays as it is: who takes the card is said under the rows (`preview`)."""
    card = state.next_card
    assert card is not None
    placed = state.officials_on(card)
    fields: list[Choice | Number] = []
    for faction in state.factions:
        hidden = sum(1 for o in placed if o.faction is faction and o.value is None)
        if not hidden:
            continue
        options = [(values, " ".join(map(str, values))) for values in combinations(state.free_values(faction), hidden)]
        label = f"{SHORT[faction]} ?" if hidden == 1 else f"{SHORT[faction]} {hidden} ?"
        fields.append(Choice(str(faction), label, options or [(tuple(range(1, hidden + 1)), "?")]))
    fields.append(Number("reward", "Reward", 0, 9, 0, unit=" Status"))

    def build(form: Form) -> dict[str, Any]:
        return {"type": "resolve_card", "card": card, "officials": resolve_values(state, form), "reward": form.value("reward")}

    asked = [f.key for f in fields if isinstance(f, Choice) and len(f.options) > 1]
    note = ("Set the face-down Officials." if asked else "Each face-down value follows from those shown face up."
            if len(fields) > 1 else "Every Official here is face up.")  # fmt: skip
    return Form("resolve", f"Card {card}", fields, build, apply_label="Resolve", start=asked[0] if asked else "reward",
                note=note)  # fmt: skip


def resolve_values(state: StatusGame, form: Form) -> dict[str, list[int]]:
    """The values of the Officials on the card the resolve form is for, by Faction: face up, then as set."""
    officials: dict[str, list[int]] = {}
    for official in state.officials_on(state.next_card or 0):
        if official.value is not None:
            officials.setdefault(str(official.faction), []).append(official.value)
    for item in form.fields:
        if isinstance(item, Choice):
            officials.setdefault(item.key, []).extend(item.value)
    return officials


def preview(state: StatusGame, form: Form) -> str:
    """What Apply would do, said under a form's rows (the resolve form's: who takes the card)."""
    return outcome(state, resolve_values(state, form)) if form.name == "resolve" and state.next_card else ""


def outcome(state: StatusGame, officials: dict[str, list[int]]) -> str:
    """Who takes the card with these Officials, and how a tie is settled ("Phase III", "Military Power" 2)."""
    sums = {Faction(name): sum(values) for name, values in officials.items()}
    if not sums:
        return "Nobody takes it"
    result = resolve_card({Faction(name): values for name, values in officials.items()}, state.track)
    said = ", ".join(f"{SHORT[f]} {n}" for f, n in sums.items())
    if result.tied:
        return (f"{said}: a tie, {result.winner.full_name} takes it (furthest ahead on the Military track, "
                f"it moves back to {result.track[result.winner]})")  # fmt: skip
    return f"{said}: {result.winner.full_name} takes it"


def fix_form(state: StatusGame) -> Form:
    """A move on a track: a Cost paid to send an Official, a Gain, an effect, or a correction."""
    order = state.turn_order or state.factions
    first = state.to_play or order[0]
    factions = Choice("faction", "Faction", [(str(f), f.full_name) for f in order])
    factions.select(str(first))

    def build(form: Form) -> dict[str, Any]:
        what, by, cost = form.value("what"), form.value("by"), form.value("cost")
        if by == 0:
            raise ValueError("By: 0 changes nothing: turn it to + or -")
        key = "steps" if what == "military" else "points"
        return {"type": what, "faction": form.value("faction"), key: by, "cost": cost}

    fields: list[Choice | Number] = [
        Choice("what", "Track", [("military", "Military"), ("status", "Status")]),
        factions,
        Number("by", "By", -9, 9, 1),
        Choice("cost", "A Cost", [(False, "no"), (True, "yes, to send")]),
    ]
    return Form("fix", "A track moves", fields, build, apply_label="Move",
                note="A Cost, a Gain, an effect; a Cost that cannot be paid is refused")  # fmt: skip


def final_form(state: StatusGame, page: int, counted: dict[str, dict[str, int]]) -> Form:
    """End of the Game, the Faction `page` (from 0) of the table: the Assets behind its screen and the Continent
    symbols on its cards. The last page makes the `final_score` event of every Faction's count (`counted`)."""
    factions = state.factions
    faction = factions[page]
    before = counted.get(str(faction), {})
    fields = [Number("assets", "Assets", 0, 99, before.get("assets", 0))]
    fields += [Number(c.value, c.full_name, 0, 20, before.get(c.value, 0)) for c in Continent]

    def build(form: Form) -> dict[str, Any]:
        mine = {key: int(form.value(key)) for key in ["assets", *(c.value for c in Continent)]}
        every = dict(counted, **{str(faction): mine})
        if page < len(factions) - 1:
            return {"type": "_count", "faction": str(faction), "count": mine}  # the next page, nothing journaled yet
        return {"type": "final_score", "assets": {f: every[f]["assets"] for f in every},
                "continents": {f: {c.value: every[f][c.value] for c in Continent} for f in every}}  # fmt: skip

    last = page == len(factions) - 1
    return Form("final", f"{SHORT[faction]}: the count", fields, build, apply_label="Count" if last else "Next",
                note=f"Faction {page + 1} of {len(factions)}: Assets behind the screen, symbols on the cards")  # fmt: skip


SEATS = 4


def new_game_form(kind: str = "mission", factions: Sequence[Faction] = (Faction.MANO, Faction.RAGIONE, Faction.MILIZIA),
                  offers: Sequence[tuple[Any, str, str]] = ()) -> Form:  # fmt: skip
    """The table of a new game: Nova Aetas (its demo skirmish) or Status, and for Status the Factions at the table,
    clockwise, and who holds the Priority token. `offers` (the start screen's: a saved game to resume, a scenario of
    the folder), each (value, words, note), come first in the Game's options; their value is what Start gives."""
    nobody: tuple[Any, str] = (None, "nobody")
    every = [nobody] + [(str(f), f.full_name) for f in Faction]

    def status(form: Form) -> bool:
        return bool(form.value("game") == "status")

    seats = []
    for seat in range(SEATS):
        field = Choice(f"seat{seat}", f"Seat {seat + 1}", list(every), show=status)
        field.select(str(factions[seat]) if seat < len(factions) else None)
        seats.append(field)
    priority = Choice("priority", "Priority", [(str(factions[0]), factions[0].full_name)], show=status)

    def seated(form: Form) -> list[str]:
        return [str(form.value(f"seat{seat}")) for seat in range(SEATS) if form.value(f"seat{seat}") is not None]

    notes = {str(value): note for value, _, note in offers}

    def update(form: Form) -> None:
        form.note = notes.get(str(form.value("game"))) or NOTES.get(str(form.value("game")), "")
        field = form.get("priority")
        assert isinstance(field, Choice)
        chosen = field.value
        names = list(dict.fromkeys(seated(form)))
        field.options = [(name, Faction(name).full_name) for name in names] or [(None, "nobody at the table")]
        field.index = 0
        field.select(chosen)

    def build(form: Form) -> dict[str, Any]:
        if isinstance(form.value("game"), dict):  # an offer of the start screen
            return dict(form.value("game"))
        if form.value("game") != "status":
            return {"game": "mission"}
        chosen = seated(form)
        for index, name in enumerate(chosen):
            if name in chosen[:index]:
                raise ValueError(f"{Faction(name).full_name} is at the table twice")
        if not 2 <= len(chosen) <= 4:
            raise ValueError(f"Status is played by 2 to 4 Factions, not {len(chosen)}")
        return {"game": "status", "factions": chosen, "priority": form.value("priority")}

    plain = [] if offers else [("mission", "Nova Aetas")]  # the start screen offers the demo by its name
    game = Choice("game", "Game", [(value, words) for value, words, _ in offers] + plain + [("status", "Status")])
    game.select(kind if not offers else offers[0][0])
    resumes = any(isinstance(value, dict) and value.get("game") == "resume" for value, _, _ in offers)
    title = "Resume or start a game" if resumes else "A new game"  # named for what it offers
    return Form("new", title, [game, *seats, priority], build, update, apply_label="Start")


NOTES = {"mission": "Nova Aetas: the demo skirmish (another mission: nova-table play --scenario FILE)",
         "status": "Nova Lectio: Status: the Factions clockwise, and who drew the Priority token"}  # fmt: skip
