"""Read a scenario TOML file into an `assistant.rules.scenario.Scenario`, or say what is wrong and where.

The format is documented in `docs/scenario.md`. Every problem found is reported (file, line,
field, what was expected), and nothing is returned unless the whole file is right. The cards
(heroes, enemies, a Prey's deck) are read by `scenario_cards`; this module reads the mission
around them: the Horologium, goals, timed events and their Enemy Drafts, the end, the Stealth track.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from assistant.files import SCENARIO
from assistant.rules.bounds import GROUPS, HEROES
from assistant.rules.draft import deck_of
from assistant.rules.errors import RuleError
from assistant.rules.game import new_game
from assistant.rules.horologium import Clock, first_reached
from assistant.rules.scenario import (
    RANKS,
    DraftOrder,
    Edition,
    EndTime,
    EnemyGroupSpec,
    HeroSpec,
    HorologiumSetup,
    MissionGoal,
    Scenario,
    TimedEvent,
    TokenPlacement,
)
from assistant.session.card_library import SECTIONS, CardLibrary, References, library_for
from assistant.session.errors import Problem, ScenarioError
from assistant.session.scenario_cards import read_enemy, read_hero, read_prey
from assistant.session.toml_lines import Path as KeyPath
from assistant.session.toml_reader import TomlReader, dotted, load_toml, show, toml_file_text
from assistant.session.toml_writer import toml_text

FORMAT = 1
"""The scenario format this reader understands (the optional top-level `format` key)."""

TOP_KEYS = (
    "format", "edition", "title", "description", "example_values", "campaign", "victory", "defeat", "stealth",
    "horologium", "heroes", "enemies", "reserves", "goals", "events", "end", "prey",
)  # fmt: skip


def _suggest(name: str, known: Sequence[str]) -> str:
    hint = difflib.get_close_matches(name, list(known), n=1)
    return f"; did you mean '{hint[0]}'?" if hint else ""


def _sector(value: object) -> bool:
    return not isinstance(value, bool) and isinstance(value, int) and 1 <= value <= 12


def _horologium(r: TomlReader, data: Mapping[str, Any], heroes: Sequence[HeroSpec], enemies: Sequence[EnemyGroupSpec],
                reserves: Sequence[str], unknown: Sequence[str] = ()) -> HorologiumSetup:  # fmt: skip
    """The `[horologium]` table: the hands, and a sector for every hero's and enemy group's token. `unknown`: the
    cards named that the library has not (said at their `card`): a token like one of them is taken for its own."""
    path: KeyPath = ("horologium",)
    table = r.get(data, (), "horologium", dict)
    if table is None:
        return HorologiumSetup(hour=1, minute=12, tokens=())
    r.table(table, path, ("hour", "minute", "tokens", "mystery"))
    sides: dict[str, str] = {h.id: "hero" for h in heroes} | {e.id: "enemy" for e in enemies}
    tokens: list[TokenPlacement] = []
    placed = r.get(table, path, "tokens", dict)
    for token, sector in (placed or {}).items():
        token_path = path + ("tokens", token)
        if token in reserves:
            r.problem(token_path, "a reserve enters through an Enemy Draft: its token is placed then, not at the start")
        elif token not in sides:
            if not difflib.get_close_matches(token, unknown, n=1):
                r.problem(token_path, "no hero or enemy group has this id" + _suggest(token, list(sides)))
        elif not _sector(sector):
            r.problem(token_path, f"expected a sector from 1 to 12, got {show(sector)}")
        else:
            tokens.append(TokenPlacement(token=token, sector=sector, side="hero" if sides[token] == "hero" else "enemy"))
    if placed is not None:
        unknown = [token for token in placed if token not in sides]
        for missing in sides:
            if missing not in placed and not difflib.get_close_matches(missing, unknown, n=1):
                r.problem(path + ("tokens",), f"no sector for the activation token of '{missing}'")
    for index, sector in enumerate(r.get(table, path, "mystery", list, []) or []):
        if not _sector(sector):
            r.problem(path + ("mystery", index), f"expected a sector from 1 to 12, got {show(sector)}")
        else:
            tokens.append(TokenPlacement(token=f"mystery-{index + 1}", sector=sector, side="mystery"))
    return HorologiumSetup(
        hour=r.integer(table, path, "hour", 1, 12),
        minute=r.integer(table, path, "minute", 1, 12, default=12),
        tokens=tuple(tokens),
    )


def _unique(r: TomlReader, items: Sequence[tuple[KeyPath, str]], what: str, seen: dict[str, KeyPath]) -> None:
    for path, ident in items:
        if not ident:
            continue
        if ident in seen:
            r.problem(path + ("id",), f"{what} id '{ident}' is already used at {dotted(seen[ident])}")
        else:
            seen[ident] = path


def _goals(r: TomlReader, data: Mapping[str, Any], enemies: Sequence[tuple[KeyPath, EnemyGroupSpec]]) -> tuple[MissionGoal, ...]:
    """`[[goals]]`, and the check that every enemy's `goal` names one of them."""
    tables = r.tables(data, "goals")
    goals = []
    for path, item in tables:
        r.table(item, path, ("id", "text", "threat"))
        goals.append(MissionGoal(id=r.identifier(item, path), text=r.text(item, path, "text"),
                                 threat=r.optional_integer(item, path, "threat", 0, 30)))  # fmt: skip
    _unique(r, [(p, g.id) for (p, _), g in zip(tables, goals)], "goal", {})
    ids = [g.id for g in goals]
    for path, enemy in enemies:
        if enemy.goal is not None and enemy.goal not in ids:
            r.problem(path + ("goal",), f"no [[goals]] has the id '{enemy.goal}'" + _suggest(enemy.goal, ids))
    return tuple(goals)


def _draft(r: TomlReader, path: KeyPath, data: Mapping[str, Any], cards: Sequence[str]) -> DraftOrder:
    """An event's `[events.draft]` table (Renaissance "Enemy Draft")."""
    r.table(data, path, ("faction", "rank", "squares", "place", "exclude", "exclude_skills", "sector"))
    exclude = r.texts(data, path, "exclude")
    for index, card in enumerate(exclude):
        if card not in cards:
            r.problem(path + ("exclude", index), f"no enemy card (in [[enemies]] or [[reserves]]) has the id '{card}'" + _suggest(card, cards))
    rank = r.choice(data, path, "rank", RANKS)
    return DraftOrder(
        faction=r.text(data, path, "faction"),
        rank=next((known for known in RANKS if known == rank), "troop"),
        squares=r.integer(data, path, "squares", 1, 20),
        place=r.text(data, path, "place", default=""),
        exclude=exclude,
        exclude_skills=r.texts(data, path, "exclude_skills"),
        sector=r.optional_integer(data, path, "sector", 1, 12),
    )


def _events(r: TomlReader, data: Mapping[str, Any], cards: Sequence[str], seen: dict[str, KeyPath]) -> tuple[TimedEvent, ...]:
    """`[[events]]`: instructions at a time, each with an optional Enemy Draft; an event's id is its token's, unique
    among the heroes' and enemies' (`seen`)."""
    tables = r.tables(data, "events")
    events = []
    for path, item in tables:
        r.table(item, path, ("id", "hour", "minute", "text", "draft"))
        draft_table = r.get(item, path, "draft", dict, required=False)
        events.append(TimedEvent(
            id=r.identifier(item, path), hour=r.integer(item, path, "hour", 1, 12),
            minute=r.integer(item, path, "minute", 1, 12), text=r.text(item, path, "text"),
            draft=_draft(r, path + ("draft",), draft_table, cards) if draft_table is not None else None,
        ))  # fmt: skip
    _unique(r, [(p, e.id) for (p, _), e in zip(tables, events)], "event", seen)
    return tuple(events)


def _end(r: TomlReader, data: Mapping[str, Any]) -> EndTime | None:
    table = r.get(data, (), "end", dict, required=False)
    if table is None:
        return None
    r.table(table, ("end",), ("hour", "minute"))
    return EndTime(hour=r.integer(table, ("end",), "hour", 1, 12), minute=r.integer(table, ("end",), "minute", 1, 12, default=12))


def _stealth(r: TomlReader, data: Mapping[str, Any]) -> tuple[int, ...]:
    """Renaissance "Stealth Card": the values of the track's slots above the lowest, bottom to top."""
    values = r.get(data, (), "stealth", list, [])
    good = []
    for index, value in enumerate(values or []):
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 8:
            r.problem(("stealth", index), f"expected a die result from 1 to 8, got {show(value)}")
        else:
            good.append(value)
    return tuple(good)


def _at_most(r: TomlReader, tables: list[tuple[KeyPath, Mapping[str, Any]]], most: int, what: str) -> list[tuple[KeyPath, Mapping[str, Any]]]:
    """The first `most` of `tables`, and a problem at the next one if there are more (`assistant.rules.bounds`)."""
    if len(tables) > most:
        r.problem(tables[most][0], f"at most {most} {what}, not {len(tables)}")
    return tables[:most]


def parse_scenario(text: str, source: str = "<scenario>", cards: CardLibrary | None = None) -> Scenario:
    """Parse scenario TOML text; raise ScenarioError listing every problem with its line. `cards`: the library its
    `card = ...` references are read from (None: a scenario saved with a game, which names none)."""
    return _parse(text, source, cards)[0]


def _parse(text: str, source: str, library: CardLibrary | None) -> tuple[Scenario, dict[str, Any]]:
    """The Scenario, and the parsed TOML with each card a table names written in (`with_cards`)."""
    data = load_toml(text, source)
    r = TomlReader(text)
    r.table(data, (), TOP_KEYS)
    version = r.integer(data, (), "format", 1, 1_000_000, default=FORMAT)
    if version > FORMAT:
        r.problem(("format",), f"this file is format {version}; this Nova Table reads format {FORMAT}: update it")
    edition_name = r.choice(data, (), "edition", ("renaissance", "classic"))
    edition: Edition = "classic" if edition_name == "classic" else "renaissance"
    hero_tables = _at_most(r, r.tables(data, "heroes"), HEROES, "heroes (both editions are played with 4)")
    enemy_tables = _at_most(r, r.tables(data, "enemies"), GROUPS, "enemy groups (Renaissance has 18 Enemy Cards)")
    reserve_tables = _at_most(r, r.tables(data, "reserves"), GROUPS, "reserves (Renaissance has 18 Enemy Cards)")
    named = References(r, edition, library)
    hero_read = [(path, named.table("heroes", path, item)) for path, item in hero_tables]
    enemy_read = [(path, named.table("enemies", path, item)) for path, item in enemy_tables]
    reserve_read = [(path, named.table("reserves", path, item)) for path, item in reserve_tables]
    heroes = tuple(read_hero(reader, edition, path, item) for path, (reader, item) in hero_read)
    enemies = tuple(read_enemy(reader, edition, path, item) for path, (reader, item) in enemy_read)
    reserves = tuple(read_enemy(reader, edition, path, item) for path, (reader, item) in reserve_read)
    named.settle()
    if not heroes:
        r.missing((), "heroes", "[[heroes]] tables: a scenario needs at least one hero")
    seen: dict[str, KeyPath] = {}
    _unique(r, [(p, h.id) for (p, _), h in zip(hero_tables, heroes)], "hero", seen)
    _unique(r, [(p, e.id) for (p, _), e in zip(enemy_tables, enemies)], "enemy group", seen)
    _unique(r, [(p, e.id) for (p, _), e in zip(reserve_tables, reserves)], "reserve", seen)
    cards = [e.id for e in enemies + reserves]
    enemy_paths = [(p, e) for (p, _), e in zip(enemy_tables + reserve_tables, enemies + reserves)]
    scenario = Scenario(
        edition=edition,
        title=r.text(data, (), "title"),
        heroes=heroes,
        enemies=enemies,
        horologium=_horologium(r, data, heroes, enemies, [e.id for e in reserves], named.unknown),
        goals=_goals(r, data, enemy_paths),
        events=_events(r, data, cards, seen),
        end=_end(r, data),
        victory=r.texts(data, (), "victory"),
        defeat=r.texts(data, (), "defeat"),
        example_values=bool(r.get(data, (), "example_values", bool, False)) or any(c.example_values for c in named.used),
        description=r.text(data, (), "description", default=""),
        reserves=reserves,
        stealth=_stealth(r, data),
        prey=read_prey(r, edition, data, [(p, e) for (p, _), e in zip(enemy_tables, enemies)]),
        campaign=bool(r.get(data, (), "campaign", bool, False)),
    )
    if scenario.campaign and edition == "classic":
        r.problem(("campaign",), "the campaign sheet is the Renaissance's: a first-edition mission is none of it")
    if not r.problems:
        _check_times(r, scenario)
    if not r.problems:
        try:
            new_game(scenario)  # what the rules check as they set it up, for every way a scenario arrives
        except RuleError as error:
            r.problem((), f"the rules cannot set up this scenario: {error}")
    if r.problems:
        raise ScenarioError(source, r.problems)
    written = {section: [item for _, (_, item) in tables] for section, tables in
               (("heroes", hero_read), ("enemies", enemy_read), ("reserves", reserve_read)) if section in data}  # fmt: skip
    return scenario, data | written | ({"example_values": True} if scenario.example_values else {})


def with_cards(text: str, source: str, cards: CardLibrary) -> str:
    """The scenario text a game keeps: `text` itself where it names no card (or cannot be read: its reading says
    why), else the scenario with each card it names written in whole; ScenarioError (every problem, the scenario's
    and its cards') where it is wrong."""
    try:
        data = load_toml(text, source)
    except ScenarioError:
        return text
    if not _cards_named(data):
        return text
    _, written = _parse(text, source, cards)
    named = sorted({f"{kind} {ident}" for kind, ident in _cards_named(data)})  # ids: no line end can hide in them
    return (f"# The scenario with the library's cards it names written in: {', '.join(named)}.\n"
            "# A game keeps this text, and replays the same whatever becomes of the library.\n\n" + toml_text(written))


def _cards_named(data: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The cards of the library a parsed scenario names: (kind, id) of each `card` of its tables."""
    return [(SECTIONS[section], str(table["card"])) for section in SECTIONS if isinstance(data.get(section), list)
            for table in data[section] if isinstance(table, dict) and "card" in table]  # fmt: skip


def _check_times(r: TomlReader, scenario: Scenario) -> None:
    """The end after the start, each timed event within the mission, and each Enemy Draft with a deck to draw from."""
    start, end = scenario.horologium, scenario.end
    begins = Clock(start.hour, start.minute).absolute
    ends = first_reached(begins, end.hour, end.minute) if end is not None else None  # past XII: on the next round
    if end is not None and ends == begins:
        r.problem(("end",), f"the mission would be over before it starts: the hands start at hour {start.hour}, "
                            f"sector {start.minute} (\"End of a Mission\": it ends when the hands reach this time)")
        return
    for index, event in enumerate(scenario.events):
        at = first_reached(begins, event.hour, event.minute)
        if end is not None and ends is not None and at >= ends:
            r.problem(("events", index), f"at hour {event.hour}, sector {event.minute}: the hands, which start at hour "
                                         f"{start.hour}, sector {start.minute}, reach it only after the mission's end "
                                         f"([end] at hour {end.hour}, sector {end.minute})")
        if event.draft is not None and not deck_of(scenario.enemies + scenario.reserves, event.draft):
            order = event.draft
            r.problem(("events", index, "draft"), f'no [[enemies]] or [[reserves]] card is of faction "{order.faction}" '
                                                  f'and rank "{order.rank}" (less those excluded): the Draft would have no card')


def read_scenario_text(path: str | Path, cards: CardLibrary | None = None) -> str:
    """The text of a scenario file, the cards it names written in from `cards` (by default the library of the
    default state file, `card_library.library_for`); ScenarioError if it cannot be read, is not UTF-8, or names
    a card wrongly."""
    source = str(path)
    if not source:
        raise ScenarioError("''", [Problem(None, "", "no file named (the path is empty)")])
    text = toml_file_text(path, SCENARIO)
    return with_cards(text, source, cards if cards is not None else library_for())


def load_scenario(path: str | Path, cards: CardLibrary | None = None) -> tuple[Scenario, str]:
    """Read and check a scenario file: the Scenario and the text a game keeps (the file's exact text, the cards it
    names written in from `cards` if it names any: `read_scenario_text`)."""
    text = read_scenario_text(path, cards)
    return parse_scenario(text, str(path)), text
