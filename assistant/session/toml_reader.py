"""Typed reading of parsed TOML that records a Problem, with its line, for every wrong value instead of stopping."""

from __future__ import annotations

import difflib
import re
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

from assistant.files import Kind, Refused, read_file
from assistant.reading import beyond_python
from assistant.rules.errors import short
from assistant.session.errors import Problem, ScenarioError
from assistant.session.toml_lines import Path as KeyPath
from assistant.session.toml_lines import key_lines, line_of

ID_PATTERN = re.compile(r"^[a-z][a-z0-9_-]*$")
MYSTERY_ID = re.compile(r"^mystery-[0-9]+$")  # the ids the reader gives the Mystery tokens ("mystery-1", ...)
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")  # no screen can draw them (a NUL stops pygame); tab and line ends pass
T = TypeVar("T")


def load_toml(text: str, source: str) -> dict[str, Any]:
    """The parsed TOML of a scenario or card file; ScenarioError at the line of a syntax error, as `tomllib` says it."""
    try:
        return tomllib.loads(text.removeprefix("\ufeff"))  # a byte-order mark, as some editors save UTF-8: not TOML's, passed over
    except tomllib.TOMLDecodeError as error:
        message = str(error)
        found = re.search(r"\(at line (\d+), column (\d+)\)", message)
        line = int(found.group(1)) if found else None
        message = re.sub(r"\s*\(at line \d+, column \d+\)", "", message) if found else message
        column = f" (column {found.group(2)})" if found else ""
        raise ScenarioError(source, [Problem(line, "", f"not valid TOML: {message}{column}")]) from None
    except (ValueError, RecursionError) as error:  # a number of over 4300 digits, arrays nested thousands deep
        raise ScenarioError(source, [Problem(None, "", f"not valid TOML: {beyond_python(error)}")]) from None


class TomlReader:
    """Typed access to the parsed TOML that records a Problem (with its line) for each wrong value."""

    def __init__(self, text: str) -> None:
        self.lines = key_lines(text)
        self.problems: list[Problem] = []

    def problem(self, path: KeyPath, message: str) -> None:
        """A problem at `path`, said at its line: its own, its table's header's, or line 1 (the top level)."""
        self.problems.append(Problem(line_of(self.lines, path) or 1, dotted(path), message))

    def written_at(self, path: KeyPath, keys: Iterable[str], at: KeyPath) -> None:
        """The keys of the table at `path` written elsewhere (a card's, named by `card`): said at the line of `at`."""
        line = line_of(self.lines, at)
        if line is not None:
            for key in keys:
                self.lines.setdefault(path + (key,), line)

    def missing(self, path: KeyPath, key: str, expected: str) -> None:
        """`key` is missing from the table at `path`: said at that table's line, naming the field."""
        self.problem(path + (key,), f"missing; expected {expected}")

    def table(self, data: Mapping[str, Any], path: KeyPath, allowed: Sequence[str]) -> None:
        """Report every key of `data` that is not in `allowed`, with the closest allowed name."""
        for key in data:
            if key not in allowed:
                hint = difflib.get_close_matches(key, allowed, n=1)
                expected = f"did you mean '{hint[0]}'?" if hint else "expected one of " + ", ".join(allowed)
                self.problem(path + (key,), f"unknown field; {expected}")

    def get(self, data: Mapping[str, Any], path: KeyPath, key: str, kind: type[T], default: T | None = None,
            required: bool = True, expected: str | None = None) -> T | None:  # fmt: skip
        if key not in data:
            if required and default is None and not self._misspelt(data, key):
                self.missing(path, key, expected or KIND_NAMES.get(kind, kind.__name__))
            return default
        value = data[key]
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            self.problem(path + (key,), f"expected a whole number, got {show(value)}")
            return default
        if not isinstance(value, kind):
            self.problem(path + (key,), f"expected {KIND_NAMES.get(kind, kind.__name__)}, got {show(value)}")
            return default
        return value

    @staticmethod
    def _misspelt(data: Mapping[str, Any], key: str) -> bool:
        """True if `data` has a key that looks like a typo of `key` (reported as unknown already)."""
        return bool(difflib.get_close_matches(key, [k for k in data if isinstance(k, str)], n=1, cutoff=0.8))

    def integer(self, data: Mapping[str, Any], path: KeyPath, key: str, low: int, high: int,
                default: int | None = None) -> int:  # fmt: skip
        value = self.get(data, path, key, int, default, expected=f"a number from {low} to {high}")
        if value is None:
            return low
        if not low <= value <= high:
            self.problem(path + (key,), f"expected a number from {low} to {high}, got {show(value)}")
        return value

    def optional_integer(self, data: Mapping[str, Any], path: KeyPath, key: str, low: int, high: int) -> int | None:
        if key not in data:
            return None
        return self.integer(data, path, key, low, high)

    def text(self, data: Mapping[str, Any], path: KeyPath, key: str, default: str | None = None,
             expected: str | None = None) -> str:  # fmt: skip
        value = self.get(data, path, key, str, default, expected=expected)
        if value is None:
            return ""
        if not value.strip() and default is None:
            self.problem(path + (key,), "expected some text, got an empty string")
        self._printable(path + (key,), value)
        return value

    def _printable(self, path: KeyPath, value: str) -> None:
        found = CONTROL.search(value)
        if found:
            self.problem(path, f"a control character (U+{ord(found.group()):04X}) at character {found.start() + 1}: "
                               "the screen cannot show it")  # fmt: skip

    def identifier(self, data: Mapping[str, Any], path: KeyPath, key: str = "id") -> str:
        value = self.text(data, path, key)
        if value and not ID_PATTERN.match(value):
            self.problem(path + (key,), f"expected an id of lower-case letters, digits, '_' or '-', got {show(value)}")
        elif MYSTERY_ID.match(value):
            self.problem(path + (key,), f"{show(value)} is the id of a Mystery token ([horologium] mystery): choose another")
        return value

    def choice(self, data: Mapping[str, Any], path: KeyPath, key: str, options: Sequence[str],
               default: str | None = None) -> str:  # fmt: skip
        value = self.text(data, path, key, default, expected=alternatives(options))
        if value and value not in options:
            self.problem(path + (key,), f"expected {alternatives(options)}, got {show(value)}")
        return value

    def texts(self, data: Mapping[str, Any], path: KeyPath, key: str) -> tuple[str, ...]:
        value = self.get(data, path, key, list, [])
        if value is None:
            return ()
        good: list[str] = []
        for index, item in enumerate(value):
            if isinstance(item, str) and item.strip():
                good.append(item)
                self._printable(path + (key, index), item)
            else:
                self.problem(path + (key, index), f"expected some text, got {show(item)}")
        return tuple(good)

    def tables(self, data: Mapping[str, Any], key: str, path: KeyPath = ()) -> list[tuple[KeyPath, Mapping[str, Any]]]:
        """The `[[key]]` tables of `data` (found at `path`), each with its own path."""
        value = data.get(key, [])
        if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
            self.problem(path + (key,), f"expected [[{dotted(path + (key,))}]] tables, got {show(value)}")
            return []
        return [(path + (key, index), item) for index, item in enumerate(value)]


KIND_NAMES: dict[type, str] = {str: "text in quotes", bool: "true or false", list: "a list [...]", dict: "a table",
                               int: "a whole number"}  # fmt: skip


def show(value: object) -> str:
    """A TOML value as a message quotes it, cut to its first characters (`assistant.rules.errors.short`)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{short(value)}"'
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "a list"
    return short(str(value))


def alternatives(options: Sequence[str]) -> str:
    quoted = [f'"{option}"' for option in options]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " or " + quoted[-1]


def dotted(path: KeyPath) -> str:
    out = ""
    for part in path:
        out += f"[{part + 1}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out


def toml_file_text(path: str | Path, kind: Kind, error: type[ScenarioError] = ScenarioError) -> str:
    """The UTF-8 text of a TOML file of `kind` (a scenario, a card) read through `assistant.files`, or `error`
    saying why not (the line of a byte that is not UTF-8)."""
    source = str(path)
    try:
        raw = read_file(path, kind)
    except Refused as refused:
        raise error(source, [Problem(None, "", str(refused.strerror))]) from None
    except OSError as failed:
        raise error(source, [Problem(None, "", f"cannot read the file: {failed.strerror}")]) from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as bad:
        line = raw[: bad.start].count(b"\n") + 1
        raise error(source, [Problem(line, "", "not UTF-8 text (a TOML file must be UTF-8)")]) from None
