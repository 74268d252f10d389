"""The table's card library: hero sheets and enemy cards typed once, one TOML file each, that scenarios name by `card`.

Layout (docs/cards.md): `cards/heroes/ID.toml` and `cards/enemies/ID.toml` beside the state file, then the examples
shipped in `assistant/demo/cards/` (a table's card of the same id wins). A card file holds its edition and one
`[hero]` or `[enemy]` table: a scenario's `[[heroes]]` or `[[enemies]]` table less what is the mission's, read by the
same code (`scenario_cards`).
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from assistant.files import CARD
from assistant.rules.scenario import Edition
from assistant.session.errors import Problem, ScenarioError
from assistant.session.scenario_cards import read_enemy, read_hero
from assistant.session.toml_lines import Path as KeyPath
from assistant.session.toml_reader import ID_PATTERN, TomlReader, dotted, load_toml, toml_file_text

FORMAT = 1
FOLDERS: dict[str, str] = {"hero": "heroes", "enemy": "enemies"}  # a card's table -> its folder in the library
SECTIONS: dict[str, str] = {"heroes": "hero", "enemies": "enemy", "reserves": "enemy"}  # a scenario's tables -> the card
TABLES: dict[str, str] = {"hero": "[[heroes]]", "enemy": "[[enemies]] or [[reserves]]"}  # where a scenario names each kind
MISSION_FIELDS: dict[str, tuple[str, ...]] = {"hero": ("threat",), "enemy": ("models", "goal")}  # beside `card`, never on it
EDITIONS: dict[str, str] = {"renaissance": "Renaissance", "classic": "first edition"}
EXAMPLES = Path(__file__).resolve().parent.parent / "demo" / "cards"


def a(kind: str) -> str:
    """ "a hero", "an enemy": a kind of card in a sentence."""
    return f"an {kind}" if kind == "enemy" else f"a {kind}"


class CardFileError(ScenarioError):
    """A card file that cannot be used: every problem listed with its line, as a scenario file's."""


@dataclass(frozen=True)
class Card:
    """A card file read and checked: its kind ("hero" or "enemy"), id, edition and table, and its text as written."""

    kind: str
    id: str
    name: str
    edition: Edition
    example_values: bool
    table: Mapping[str, Any]
    file: str
    text: str


def parse_card(text: str, source: str, file_id: str | None = None, kind: str | None = None) -> Card:
    """Check a card's text whole; CardFileError (FILE:LINE: FIELD: ...) with every problem. `file_id`: the id its
    file's name gives it; `kind`: the kind its folder of the library holds."""
    try:
        data = load_toml(text, source)
    except ScenarioError as error:
        raise CardFileError(source, error.problems) from None
    r = TomlReader(text)
    r.table(data, (), ("format", "edition", "example_values", *FOLDERS))
    version = r.integer(data, (), "format", 1, 1_000_000, default=FORMAT)
    if version > FORMAT:
        r.problem(("format",), f"this card is format {version}; this Nova Table reads format {FORMAT}: update it")
    edition: Edition = "classic" if r.choice(data, (), "edition", tuple(EDITIONS)) == "classic" else "renaissance"
    example = bool(r.get(data, (), "example_values", bool, False))
    kinds = [name for name in FOLDERS if name in data]
    if not kinds:
        r.problem((), "missing; expected a [hero] or an [enemy] table: the card")
        raise CardFileError(source, r.problems)
    found = kinds[-1]
    if len(kinds) > 1:
        r.problem((found,), "a card file holds one card: a [hero] or an [enemy] table, not both")
    if kind is not None and found != kind:
        r.problem((found,), f"{a(found)} card in the {FOLDERS[kind]} folder: move it to {FOLDERS[found]}/")
    table = r.get(data, (), found, dict) or {}
    path: KeyPath = (found,)
    mission = [key for key in MISSION_FIELDS[found] if key in table]
    for key in mission:
        r.problem(path + (key,), "the mission's, not the card's: give it in the scenario, beside `card = ...`")
    table = {key: value for key, value in table.items() if key not in mission}
    spec = (read_hero if found == "hero" else read_enemy)(r, edition, path, table)
    if file_id is not None and spec.id and spec.id != file_id:
        r.problem(path + ("id",), f'"{spec.id}" is not the name of its file ({file_id}.toml): a card file is named '
                                  f"after its card's id ({spec.id}.toml)")  # fmt: skip
    if r.problems:
        raise CardFileError(source, r.problems)
    return Card(kind=found, id=spec.id, name=spec.name, edition=edition, example_values=example, table=table,
                file=source, text=text)  # fmt: skip


def read_card(path: Path, kind: str | None = None) -> Card:
    """A card file read through `assistant.files` and checked; CardFileError says what is wrong and where."""
    return parse_card(toml_file_text(path, CARD, CardFileError), str(path), path.stem, kind)


def card_files(folder: Path, kind: str) -> list[Path]:
    """The card files of `kind` in a library folder, by name (hidden files, as a Mac leaves on a USB stick, passed)."""
    where = folder / FOLDERS[kind]
    if not where.is_dir():
        return []
    return sorted(p for p in where.glob("*.toml") if not p.name.startswith("."))


@dataclass
class CardLibrary:
    """The folders cards are found in, the first that has a card's file winning: the table's, then the examples."""

    folders: tuple[tuple[Path, str], ...]
    _read: dict[Path, Card | CardFileError] = field(default_factory=dict)

    @property
    def own(self) -> Path:
        """The table's own folder: where `cards import` writes."""
        return self.folders[0][0]

    def find(self, kind: str, ident: str) -> tuple[Path, str] | None:
        """The file of the card `ident` of `kind` that wins, and where it is from ("table", "examples")."""
        for folder, origin in self.folders:
            path = folder / FOLDERS[kind] / f"{ident}.toml"
            if os.path.lexists(path):
                return path, origin
        return None

    def entries(self) -> list[tuple[str, str, Path, str, list[str]]]:
        """Every card that wins, by kind and id: (kind, id, file, origin, the origins of those it hides)."""
        out: list[tuple[str, str, Path, str, list[str]]] = []
        for kind in FOLDERS:
            seen: dict[str, tuple[str, str, Path, str, list[str]]] = {}
            for folder, origin in self.folders:
                for path in card_files(folder, kind):
                    if path.stem in seen:
                        seen[path.stem][4].append(origin)
                    else:
                        seen[path.stem] = (kind, path.stem, path, origin, [])
            out += [seen[ident] for ident in sorted(seen)]
        return out

    def card(self, kind: str, ident: str) -> Card:
        """The card `ident` of `kind` (KeyError if there is none; CardFileError if its file is wrong), read once."""
        found = self.find(kind, ident)
        if found is None:
            raise KeyError(ident)
        path = found[0]
        if path not in self._read:
            try:
                self._read[path] = read_card(path, kind)
            except CardFileError as error:
                self._read[path] = error
        read = self._read[path]
        if isinstance(read, CardFileError):
            raise read
        return read

    def where(self) -> str:
        return " or ".join(f"{folder}/{{heroes,enemies}}" for folder, _ in self.folders)


def library_for(state: str | os.PathLike[str] | None = None) -> CardLibrary:
    """The card library of a table: `cards/` beside its state file (by default `session.command.default_state`),
    then the shipped examples."""
    if state is None:
        from assistant.session.command import default_state

        state = default_state()
    return CardLibrary(((Path(state).parent / "cards", "table"), (EXAMPLES, "examples")))


@dataclass
class References:
    """The cards a scenario's tables name, resolved while it is read (`scenario_file`), each card's problems said once."""

    reader: TomlReader
    edition: Edition
    library: CardLibrary | None
    used: list[Card] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)
    """The ids named that no card of the library has."""
    _said: set[str] = field(default_factory=set)
    _spares: list[tuple[TomlReader, list[str]]] = field(default_factory=list)

    def settle(self) -> None:
        """Once the tables are read: the problems of the fields given beside a card that could not be used, said
        (not those of the fields the card would have given)."""
        for spare, fields in self._spares:
            self.reader.problems += [problem for problem in spare.problems
                                     if any(problem.field == f or problem.field.startswith((f + ".", f + "[")) for f in fields)]  # fmt: skip
        self._spares.clear()

    def table(self, section: str, path: KeyPath, table: Mapping[str, Any]) -> tuple[TomlReader, Mapping[str, Any]]:
        """What the table at `path` stands for: itself, or the card it names with the fields beside `card` over the
        card's, and the reader to read it with: a spare one where the card cannot be used (that said at `card`)."""
        if "card" not in table:
            return self.reader, table
        r, at = self.reader, path + ("card",)
        ident = r.identifier(table, path, "card")
        given = {key: value for key, value in table.items() if key != "card"}

        def spare() -> tuple[TomlReader, Mapping[str, Any]]:
            """A reader of which only the problems of the fields given beside `card` are said (`settle`), and the id
            the tokens name, for the scenario's other checks."""
            reader = TomlReader("")
            reader.lines = r.lines
            self._spares.append((reader, [dotted(path + (key,)) for key in given]))
            return reader, {"id": ident} | given

        if not ID_PATTERN.match(ident):
            return spare()
        kind = SECTIONS[section]
        if self.library is None:
            r.problem(at, "names a card of the library, in a scenario saved with a game: a game's scenario holds "
                          "its cards whole (written in when it was started)")  # fmt: skip
            return spare()
        try:
            card = self.library.card(kind, ident)
        except KeyError:
            self.unknown.append(ident)
            known = [entry[1] for entry in self.library.entries() if entry[0] == kind]
            hint = difflib.get_close_matches(ident, known, n=1)
            other = "enemy" if kind == "hero" else "hero"
            said = ""
            if hint:
                said = f"; did you mean '{hint[0]}'?"
            elif self.library.find(other, ident):
                said = f'; "{ident}" is {a(other)} card: name it in {TABLES[other]}'
            r.problem(at, f'no {kind} card "{ident}" in the library ({self.library.where()}){said}')
            return spare()
        except CardFileError as error:
            r.problem(at, f'the card "{ident}" cannot be used: {error.path} has mistakes, each said at its line')
            if error.path not in self._said:
                self._said.add(error.path)
                r.problems.extend(replace(problem, file=error.path) for problem in error.problems)
            return spare()
        if card.edition != self.edition:
            r.problem(at, f'"{ident}" is a card of the {EDITIONS[card.edition]} (edition = "{card.edition}"), '
                          f'this scenario is of the {EDITIONS[self.edition]}')  # fmt: skip
            return spare()
        self.used.append(card)
        r.written_at(path, card.table, at)
        return r, {**card.table, **given}
