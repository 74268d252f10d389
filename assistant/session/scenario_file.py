"""Read a scenario TOML file into an `assistant.rules.scenario.Scenario`, or say what is wrong and where.

The format is documented in `docs/scenario.md`. Every problem found is reported (file, line,
field, what was expected), and nothing is returned unless the whole file is right.
"""

from __future__ import annotations

import difflib
import re
import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

from assistant.rules.scenario import (
    CHARACTERISTICS,
    PRIORITY_FACTORS,
    RANKS,
    AttackKind,
    AttackSpec,
    Characteristic,
    Edition,
    EndTime,
    EnemyGroupSpec,
    HeroSpec,
    HorologiumSetup,
    MissionGoal,
    Rank,
    Scenario,
    TimedEvent,
    TokenPlacement,
)
from assistant.session.errors import Problem, ScenarioError
from assistant.session.toml_lines import Path as KeyPath
from assistant.session.toml_lines import key_lines, line_of

FORMAT = 1
"""The scenario format this reader understands (the optional top-level `format` key)."""

ID_PATTERN = re.compile(r"^[a-z][a-z0-9_-]*$")
T = TypeVar("T")

TOP_KEYS = (
    "format", "edition", "title", "description", "example_values", "victory", "defeat",
    "horologium", "heroes", "enemies", "goals", "events", "end",
)  # fmt: skip

# Hero and enemy fields as each edition's cards name them -> the HeroSpec / EnemyGroupSpec field.
HERO_FIELDS: dict[Edition, dict[str, str]] = {
    "renaissance": {"swiftness": "swiftness", "dexterity": "dexterity", "physique": "physique",
                    "mind": "mind", "health": "health"},
    "classic": {"rapidity": "swiftness", "physical": "physique", "mind": "mind", "wounds": "health"},
}  # fmt: skip
ENEMY_FIELDS: dict[Edition, dict[str, str]] = {
    "renaissance": {"swiftness": "swiftness", "physical_defense": "physical_defense",
                    "psychic_defense": "psychic_defense", "health": "health"},
    "classic": {"rapidity": "swiftness", "physical_defense": "physical_defense",
                "mental_defense": "psychic_defense", "wounds": "health"},
}  # fmt: skip
ATTACK_KIND_NAMES: dict[Edition, dict[str, AttackKind]] = {
    "renaissance": {"physical": "physical", "psychic": "psychic"},
    "classic": {"physical": "physical", "mental": "psychic"},
}
HITS_NAME: dict[Edition, str] = {"renaissance": "hits", "classic": "strikes"}
MASTERY_DICE = {"d6": 6, "d8": 8}


class _Reader:
    """Typed access to the parsed TOML that records a Problem (with its line) for each wrong value."""

    def __init__(self, text: str) -> None:
        self.lines = key_lines(text)
        self.problems: list[Problem] = []

    def problem(self, path: KeyPath, message: str) -> None:
        self.problems.append(Problem(line_of(self.lines, path), _dotted(path), message))

    def table(self, data: Mapping[str, Any], path: KeyPath, allowed: Sequence[str]) -> None:
        """Report every key of `data` that is not in `allowed`, with the closest allowed name."""
        for key in data:
            if key not in allowed:
                hint = difflib.get_close_matches(key, allowed, n=1)
                expected = f"did you mean '{hint[0]}'?" if hint else "expected one of " + ", ".join(allowed)
                self.problem(path + (key,), f"unknown field; {expected}")

    def get(self, data: Mapping[str, Any], path: KeyPath, key: str, kind: type[T], default: T | None = None,
            required: bool = True) -> T | None:  # fmt: skip
        if key not in data:
            if required and default is None and not self._misspelt(data, key):
                self.problem(path, f"missing field '{key}'")
            return default
        value = data[key]
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            self.problem(path + (key,), f"expected a whole number, got {_show(value)}")
            return default
        if not isinstance(value, kind):
            self.problem(path + (key,), f"expected {_KIND_NAMES.get(kind, kind.__name__)}, got {_show(value)}")
            return default
        return value

    @staticmethod
    def _misspelt(data: Mapping[str, Any], key: str) -> bool:
        """True if `data` has a key that looks like a typo of `key` (reported as unknown already)."""
        return bool(difflib.get_close_matches(key, [k for k in data if isinstance(k, str)], n=1, cutoff=0.8))

    def integer(self, data: Mapping[str, Any], path: KeyPath, key: str, low: int, high: int,
                default: int | None = None) -> int:  # fmt: skip
        value = self.get(data, path, key, int, default)
        if value is None:
            return low
        if not low <= value <= high:
            self.problem(path + (key,), f"expected a number from {low} to {high}, got {value}")
        return value

    def optional_integer(self, data: Mapping[str, Any], path: KeyPath, key: str, low: int, high: int) -> int | None:
        if key not in data:
            return None
        return self.integer(data, path, key, low, high)

    def text(self, data: Mapping[str, Any], path: KeyPath, key: str, default: str | None = None) -> str:
        value = self.get(data, path, key, str, default)
        if value is None:
            return ""
        if not value.strip() and default is None:
            self.problem(path + (key,), "expected some text, got an empty string")
        return value

    def identifier(self, data: Mapping[str, Any], path: KeyPath, key: str = "id") -> str:
        value = self.text(data, path, key)
        if value and not ID_PATTERN.match(value):
            self.problem(path + (key,), f"expected an id of lower-case letters, digits, '_' or '-', got {_show(value)}")
        return value

    def choice(self, data: Mapping[str, Any], path: KeyPath, key: str, options: Sequence[str],
               default: str | None = None) -> str:  # fmt: skip
        value = self.text(data, path, key, default)
        if value and value not in options:
            self.problem(path + (key,), f"expected {_alternatives(options)}, got {_show(value)}")
        return value

    def texts(self, data: Mapping[str, Any], path: KeyPath, key: str) -> tuple[str, ...]:
        value = self.get(data, path, key, list, [])
        if value is None:
            return ()
        good: list[str] = []
        for index, item in enumerate(value):
            if isinstance(item, str) and item.strip():
                good.append(item)
            else:
                self.problem(path + (key, index), f"expected some text, got {_show(item)}")
        return tuple(good)

    def tables(self, data: Mapping[str, Any], key: str) -> list[tuple[KeyPath, Mapping[str, Any]]]:
        """The `[[key]]` tables, each with its path."""
        value = data.get(key, [])
        if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
            self.problem((key,), f"expected [[{key}]] tables, got {_show(value)}")
            return []
        return [((key, index), item) for index, item in enumerate(value)]


_KIND_NAMES: dict[type, str] = {str: "text in quotes", bool: "true or false", list: "a list [...]", dict: "a table"}


def _show(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "a list"
    return str(value)


def _alternatives(options: Sequence[str]) -> str:
    quoted = [f'"{option}"' for option in options]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " or " + quoted[-1]


def _dotted(path: KeyPath) -> str:
    out = ""
    for part in path:
        out += f"[{part + 1}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out


def _hero(r: _Reader, edition: Edition, path: KeyPath, data: Mapping[str, Any]) -> HeroSpec:
    fields = HERO_FIELDS[edition]
    extra = ("mastery",) if edition == "classic" else ()
    r.table(data, path, ("id", "name", "class", *fields, *extra, "threat"))
    values = {field: r.integer(data, path, name, 1, 20 if field == "health" else 9) for name, field in fields.items()}
    die = 8
    if edition == "classic":
        mastery = r.choice(data, path, "mastery", tuple(MASTERY_DICE))
        die = MASTERY_DICE.get(mastery, 6)
        values["dexterity"] = values["physique"]  # first edition: Physical covers both (see scenario.py)
    return HeroSpec(
        id=r.identifier(data, path),
        name=r.text(data, path, "name"),
        hero_class=r.text(data, path, "class"),
        swiftness=values["swiftness"],
        dexterity=values["dexterity"],
        physique=values["physique"],
        mind=values["mind"],
        health=values["health"],
        die=die,
        threat=r.integer(data, path, "threat", 0, 30, default=0),
    )


def _attack(r: _Reader, edition: Edition, path: KeyPath, data: Mapping[str, Any]) -> AttackSpec:
    hits_name = HITS_NAME[edition]
    r.table(data, path, ("name", "kind", "ap", "range", "threshold", "defended_with", hits_name,
                         "contrast", "effect_wounds", "traits"))  # fmt: skip
    kinds = ATTACK_KIND_NAMES[edition]
    kind_name = r.choice(data, path, "kind", tuple(kinds))
    kind: AttackKind = kinds.get(kind_name, "physical")
    range_min, range_max = _range(r, path, data)
    hits: int | None = None
    contrast: int | None = None
    if kind_name not in kinds:
        pass  # reported above; which of hits or contrast it needs is unknown
    elif kind == "physical":
        hits = r.integer(data, path, hits_name, 1, 20)
        for wrong in ("contrast", "effect_wounds"):
            if wrong in data:
                r.problem(path + (wrong,), f"a physical attack has no {wrong}; it deals {hits_name}")
    else:
        contrast = r.integer(data, path, "contrast", 1, 12)
        if hits_name in data:
            r.problem(path + (hits_name,), f"a psychic attack has no {hits_name}; it has a contrast")
    default_defence = "physique" if kind == "physical" else "mind"
    defended_with = r.choice(data, path, "defended_with", CHARACTERISTICS, default=default_defence)
    return AttackSpec(
        name=r.text(data, path, "name"),
        kind=kind,
        ap=r.integer(data, path, "ap", 0, 12, default=0 if edition == "classic" else None),
        range_min=range_min,
        range_max=range_max,
        threshold=r.integer(data, path, "threshold", 2, 8),
        defended_with=_as_characteristic(defended_with),
        hits=hits,
        contrast=contrast,
        effect_wounds=r.integer(data, path, "effect_wounds", 0, 20, default=0),
        traits=r.texts(data, path, "traits"),
    )


def _as_characteristic(value: str) -> Characteristic:
    for characteristic in CHARACTERISTICS:
        if characteristic == value:
            return characteristic
    return "physique"


def _as_rank(value: str) -> Rank:
    for rank in RANKS:
        if rank == value:
            return rank
    return "troop"


def _range(r: _Reader, path: KeyPath, data: Mapping[str, Any]) -> tuple[int, int]:
    """`range = 3` (1 to 3) or `range = [2, 6]` (min, max; 0 includes the attacker itself)."""
    value = data.get("range")
    if isinstance(value, int) and not isinstance(value, bool):
        if not 1 <= value <= 30:
            r.problem(path + ("range",), f"expected a range from 1 to 30, got {value}")
        return 1, value
    if isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        low, high = value
        if not 0 <= low <= high <= 30:
            r.problem(path + ("range",), f"expected [min, max] with 0 <= min <= max <= 30, got [{low}, {high}]")
        return low, high
    if value is None:
        r.problem(path, "missing field 'range'")
    else:
        r.problem(path + ("range",), f"expected a number (1 = adjacent) or [min, max], got {_show(value)}")
    return 1, 1


def _enemy(r: _Reader, edition: Edition, path: KeyPath, data: Mapping[str, Any]) -> EnemyGroupSpec:
    fields = ENEMY_FIELDS[edition]
    r.table(data, path, ("id", "name", "rank", "faction", *fields, "control_area", "models", "attacks",
                         "target_priority", "loot", "generic_skills", "immune_to_critical", "goal"))  # fmt: skip
    values = {field: r.integer(data, path, name, 1, 50 if field == "health" else 12) for name, field in fields.items()}
    attacks: tuple[AttackSpec, ...] = ()
    attack_tables = data.get("attacks")
    if attack_tables is None:
        r.problem(path, "missing [[enemies.attacks]]: an enemy needs at least one attack")
    elif not isinstance(attack_tables, list) or not all(isinstance(a, dict) for a in attack_tables):
        r.problem(path + ("attacks",), f"expected [[enemies.attacks]] tables, got {_show(attack_tables)}")
    else:
        attacks = tuple(_attack(r, edition, path + ("attacks", i), a) for i, a in enumerate(attack_tables))
    priority = r.texts(data, path, "target_priority") or ("standard",)
    unknown = [factor for factor in priority if factor not in PRIORITY_FACTORS]
    for index, factor in enumerate(priority):
        if factor in unknown:
            hint = difflib.get_close_matches(factor, PRIORITY_FACTORS, n=1)
            expected = f"did you mean '{hint[0]}'?" if hint else "expected one of " + ", ".join(PRIORITY_FACTORS)
            r.problem(path + ("target_priority", index), f'unknown factor "{factor}"; {expected}')
    if not unknown and (priority[-1] != "standard" or priority.count("standard") != 1):
        r.problem(path + ("target_priority",), 'expected a list that ends with "standard" (and has it once)')
    goal = r.get(data, path, "goal", str, required=False)
    return EnemyGroupSpec(
        id=r.identifier(data, path),
        name=r.text(data, path, "name"),
        rank=_as_rank(r.choice(data, path, "rank", RANKS)),
        faction=r.text(data, path, "faction"),
        swiftness=values["swiftness"],
        control_area=r.integer(data, path, "control_area", 0, 30),
        physical_defense=values["physical_defense"],
        psychic_defense=values["psychic_defense"],
        health=values["health"],
        attacks=attacks,
        models=r.integer(data, path, "models", 1, 20, default=1),
        target_priority=priority,
        loot=r.texts(data, path, "loot"),
        generic_skills=r.texts(data, path, "generic_skills"),
        immune_to_critical=bool(r.get(data, path, "immune_to_critical", bool, False)),
        goal=goal,
    )


def _horologium(r: _Reader, data: Mapping[str, Any], heroes: Sequence[HeroSpec],
                enemies: Sequence[EnemyGroupSpec]) -> HorologiumSetup:  # fmt: skip
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
        if token not in sides:
            hint = difflib.get_close_matches(token, list(sides), n=1)
            r.problem(token_path, "no hero or enemy group has this id" + (f"; did you mean '{hint[0]}'?" if hint else ""))
        elif isinstance(sector, bool) or not isinstance(sector, int) or not 1 <= sector <= 12:
            r.problem(token_path, f"expected a sector from 1 to 12, got {_show(sector)}")
        else:
            tokens.append(TokenPlacement(token=token, sector=sector, side="hero" if sides[token] == "hero" else "enemy"))
    if placed is not None:
        unknown = [token for token in placed if token not in sides]
        for missing in sides:
            if missing not in placed and not difflib.get_close_matches(missing, unknown, n=1):
                r.problem(path + ("tokens",), f"no sector for the activation token of '{missing}'")
    for index, sector in enumerate(r.get(table, path, "mystery", list, []) or []):
        if isinstance(sector, bool) or not isinstance(sector, int) or not 1 <= sector <= 12:
            r.problem(path + ("mystery", index), f"expected a sector from 1 to 12, got {_show(sector)}")
        else:
            tokens.append(TokenPlacement(token=f"mystery-{index + 1}", sector=sector, side="mystery"))
    return HorologiumSetup(
        hour=r.integer(table, path, "hour", 1, 12),
        minute=r.integer(table, path, "minute", 1, 12, default=12),
        tokens=tuple(tokens),
    )


def _unique(r: _Reader, items: Sequence[tuple[KeyPath, str]], what: str, seen: dict[str, KeyPath]) -> None:
    for path, ident in items:
        if not ident:
            continue
        if ident in seen:
            r.problem(path + ("id",), f"{what} id '{ident}' is already used at {_dotted(seen[ident])}")
        else:
            seen[ident] = path


def parse_scenario(text: str, source: str = "<scenario>") -> Scenario:
    """Parse scenario TOML text; raise ScenarioError listing every problem with its line."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        message = str(error)
        found = re.search(r"\(at line (\d+), column (\d+)\)", message)
        line = int(found.group(1)) if found else None
        message = re.sub(r"\s*\(at line \d+, column \d+\)", "", message) if found else message
        column = f" (column {found.group(2)})" if found else ""
        raise ScenarioError(source, [Problem(line, "", f"not valid TOML: {message}{column}")]) from None
    r = _Reader(text)
    r.table(data, (), TOP_KEYS)
    version = r.integer(data, (), "format", 1, 1_000_000, default=FORMAT)
    if version > FORMAT:
        r.problem(("format",), f"this file is format {version}; this Nova Table reads format {FORMAT}: update it")
    edition_name = r.choice(data, (), "edition", ("renaissance", "classic"))
    edition: Edition = "classic" if edition_name == "classic" else "renaissance"
    hero_tables = r.tables(data, "heroes")
    enemy_tables = r.tables(data, "enemies")
    heroes = tuple(_hero(r, edition, path, item) for path, item in hero_tables)
    enemies = tuple(_enemy(r, edition, path, item) for path, item in enemy_tables)
    if not heroes:
        r.problem((), "missing [[heroes]]: a scenario needs at least one hero")
    seen: dict[str, KeyPath] = {}
    _unique(r, [(p, h.id) for (p, _), h in zip(hero_tables, heroes)], "hero", seen)
    _unique(r, [(p, e.id) for (p, _), e in zip(enemy_tables, enemies)], "enemy group", seen)
    goal_tables = r.tables(data, "goals")
    goals = []
    for path, item in goal_tables:
        r.table(item, path, ("id", "text", "threat"))
        goals.append(MissionGoal(id=r.identifier(item, path), text=r.text(item, path, "text"),
                                 threat=r.optional_integer(item, path, "threat", 0, 30)))  # fmt: skip
    goal_ids = [g.id for g in goals]
    _unique(r, [(p, g.id) for (p, _), g in zip(goal_tables, goals)], "goal", {})
    for (path, _), enemy in zip(enemy_tables, enemies):
        if enemy.goal is not None and enemy.goal not in goal_ids:
            hint = difflib.get_close_matches(enemy.goal, goal_ids, n=1)
            r.problem(path + ("goal",), f"no [[goals]] has the id '{enemy.goal}'" + (f"; did you mean '{hint[0]}'?" if hint else ""))
    event_tables = r.tables(data, "events")
    events = []
    for path, item in event_tables:
        r.table(item, path, ("id", "hour", "minute", "text"))
        events.append(TimedEvent(id=r.identifier(item, path), hour=r.integer(item, path, "hour", 1, 12),
                                 minute=r.integer(item, path, "minute", 1, 12), text=r.text(item, path, "text")))  # fmt: skip
    _unique(r, [(p, e.id) for (p, _), e in zip(event_tables, events)], "event", {})
    end = None
    end_table = r.get(data, (), "end", dict, required=False)
    if end_table is not None:
        r.table(end_table, ("end",), ("hour", "minute"))
        end = EndTime(hour=r.integer(end_table, ("end",), "hour", 1, 12),
                      minute=r.integer(end_table, ("end",), "minute", 1, 12, default=12))  # fmt: skip
    scenario = Scenario(
        edition=edition,
        title=r.text(data, (), "title"),
        heroes=heroes,
        enemies=enemies,
        horologium=_horologium(r, data, heroes, enemies),
        goals=tuple(goals),
        events=tuple(events),
        end=end,
        victory=r.texts(data, (), "victory"),
        defeat=r.texts(data, (), "defeat"),
        example_values=bool(r.get(data, (), "example_values", bool, False)),
        description=r.text(data, (), "description", default=""),
    )
    if r.problems:
        raise ScenarioError(source, r.problems)
    return scenario


def read_scenario_text(path: str | Path) -> str:
    """The text of a scenario file; ScenarioError if it cannot be read or is not UTF-8."""
    source = str(path)
    try:
        raw = Path(path).read_bytes()
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
