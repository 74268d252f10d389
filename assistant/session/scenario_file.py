"""Read a scenario TOML file into an `assistant.rules.scenario.Scenario`, or say what is wrong and where.

The format is documented in `docs/scenario.md`. Every problem found is reported (file, line,
field, what was expected), and nothing is returned unless the whole file is right. The cards
(heroes, enemies, a Prey's deck) are read by `scenario_cards`; this module reads the mission
around them: the Horologium, goals, timed events and their Enemy Drafts, the end, the Stealth track.
"""

from __future__ import annotations

import difflib
import re
import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from assistant.files import SCENARIO, Refused, read_file
from assistant.reading import beyond_python
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
from assistant.session.errors import Problem, ScenarioError
from assistant.session.scenario_cards import read_enemy, read_hero, read_prey
from assistant.session.toml_lines import Path as KeyPath
from assistant.session.toml_reader import TomlReader, dotted, show

FORMAT = 1
"""The scenario format this reader understands (the optional top-level `format` key)."""

TOP_KEYS = (
    "format", "edition", "title", "description", "example_values", "victory", "defeat", "stealth",
    "horologium", "heroes", "enemies", "reserves", "goals", "events", "end", "prey",
)  # fmt: skip


def _suggest(name: str, known: Sequence[str]) -> str:
    hint = difflib.get_close_matches(name, list(known), n=1)
    return f"; did you mean '{hint[0]}'?" if hint else ""


def _sector(value: object) -> bool:
    return not isinstance(value, bool) and isinstance(value, int) and 1 <= value <= 12


def _horologium(r: TomlReader, data: Mapping[str, Any], heroes: Sequence[HeroSpec],
                enemies: Sequence[EnemyGroupSpec], reserves: Sequence[str]) -> HorologiumSetup:  # fmt: skip
    """The `[horologium]` table: the hands, and a sector for every hero's and enemy group's token."""
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


def parse_scenario(text: str, source: str = "<scenario>") -> Scenario:
    """Parse scenario TOML text; raise ScenarioError listing every problem with its line."""
    try:
        data = tomllib.loads(text.removeprefix("\ufeff"))  # a byte-order mark, as some editors save UTF-8: not TOML's, passed over
    except tomllib.TOMLDecodeError as error:
        message = str(error)
        found = re.search(r"\(at line (\d+), column (\d+)\)", message)
        line = int(found.group(1)) if found else None
        message = re.sub(r"\s*\(at line \d+, column \d+\)", "", message) if found else message
        column = f" (column {found.group(2)})" if found else ""
        raise ScenarioError(source, [Problem(line, "", f"not valid TOML: {message}{column}")]) from None
    except (ValueError, RecursionError) as error:  # a number of over 4300 digits, arrays nested thousands deep
        raise ScenarioError(source, [Problem(None, "", f"not valid TOML: {beyond_python(error)}")]) from None
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
    heroes = tuple(read_hero(r, edition, path, item) for path, item in hero_tables)
    enemies = tuple(read_enemy(r, edition, path, item) for path, item in enemy_tables)
    reserves = tuple(read_enemy(r, edition, path, item) for path, item in reserve_tables)
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
        horologium=_horologium(r, data, heroes, enemies, [e.id for e in reserves]),
        goals=_goals(r, data, enemy_paths),
        events=_events(r, data, cards, seen),
        end=_end(r, data),
        victory=r.texts(data, (), "victory"),
        defeat=r.texts(data, (), "defeat"),
        example_values=bool(r.get(data, (), "example_values", bool, False)),
        description=r.text(data, (), "description", default=""),
        reserves=reserves,
        stealth=_stealth(r, data),
        prey=read_prey(r, edition, data, [(p, e) for (p, _), e in zip(enemy_tables, enemies)]),
    )
    if not r.problems:
        _check_times(r, scenario)
    if not r.problems:
        try:
            new_game(scenario)  # what the rules check as they set it up, for every way a scenario arrives
        except RuleError as error:
            r.problem((), f"the rules cannot set up this scenario: {error}")
    if r.problems:
        raise ScenarioError(source, r.problems)
    return scenario


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


def read_scenario_text(path: str | Path) -> str:
    """The text of a scenario file; ScenarioError if it cannot be read or is not UTF-8."""
    source = str(path)
    if not source:
        raise ScenarioError("''", [Problem(None, "", "no file named (the path is empty)")])
    try:
        raw = read_file(path, SCENARIO)
    except Refused as error:
        raise ScenarioError(source, [Problem(None, "", str(error.strerror))]) from None
    except OSError as error:
        raise ScenarioError(source, [Problem(None, "", f"cannot read the file: {error.strerror}")]) from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        raise ScenarioError(source, [Problem(line, "", "not UTF-8 text (a TOML file must be UTF-8)")]) from None


def load_scenario(path: str | Path) -> tuple[Scenario, str]:
    """Read and check a scenario file: the Scenario and the exact text it was read from."""
    text = read_scenario_text(path)
    return parse_scenario(text, str(path)), text
