"""Find the line of a key in TOML text, so that a wrong field is reported where it is written.

`tomllib` reports the line of a syntax error but drops positions once the text is parsed. This
reads the (already valid) text once more, tracking table headers, arrays of tables and
multi-line arrays, and maps every key path to its line:
``("enemies", 1, "attacks", 0, "threshold") -> 42``. Paths use the array index of each
``[[table]]`` and of each element of a multi-line array.
"""

from __future__ import annotations

import re
from collections.abc import Callable

Path = tuple[str | int, ...]

_BARE_KEY = re.compile(r"""^\s*((?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*')(?:\s*\.\s*(?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*'))*)\s*=""")


def _split_key(dotted: str) -> list[str]:
    """Split a dotted TOML key into its parts, unquoting quoted parts."""
    parts: list[str] = []
    for match in re.finditer(r"""[A-Za-z0-9_-]+|"([^"]*)"|'([^']*)'""", dotted):
        quoted = match.group(1) if match.group(1) is not None else match.group(2)
        parts.append(quoted if quoted is not None else match.group(0))
    return parts


class _Scanner:
    """Bracket depth and element starts of a value, across lines, skipping strings and comments."""

    def __init__(self) -> None:
        self.depth = 0
        self.element = -1
        self.expect_element = False
        self.in_multiline: str | None = None

    def feed(self, text: str) -> list[int]:
        """Scan one line's worth of value text; the indices of the array elements starting on it."""
        started: list[int] = []
        i = 0
        while i < len(text):
            if self.in_multiline is not None:
                end = text.find(self.in_multiline, i)
                if end < 0:
                    return started
                i = end + 3
                self.in_multiline = None
                continue
            char = text[i]
            if text.startswith('"""', i) or text.startswith("'''", i):
                self._mark_start(started)
                self.in_multiline = text[i : i + 3]
                i += 3
                continue
            if char in "\"'":
                self._mark_start(started)
                i = self._skip_string(text, i)
                continue
            if char == "#":
                break
            if char in "[{":
                if self.depth >= 1:
                    self._mark_start(started)
                self.depth += 1
                if self.depth == 1 and char == "[":
                    self.expect_element = True
            elif char in "]}":
                self.depth -= 1
                self.expect_element = False
            elif char == "," and self.depth == 1:
                self.expect_element = True
            elif not char.isspace():
                self._mark_start(started)
            i += 1
        return started

    def _mark_start(self, started: list[int]) -> None:
        if self.depth == 1 and self.expect_element:
            self.expect_element = False
            self.element += 1
            started.append(self.element)

    @staticmethod
    def _skip_string(text: str, start: int) -> int:
        quote = text[start]
        i = start + 1
        while i < len(text):
            if quote == '"' and text[i] == "\\":
                i += 2
                continue
            if text[i] == quote:
                return i + 1
            i += 1
        return i


def key_lines(text: str) -> dict[Path, int]:
    """Every key path of a valid TOML document, with the 1-based line where it is written."""
    lines: dict[Path, int] = {}
    arrays_of_tables: dict[Path, int] = {}
    table: Path = ()
    value: _Scanner | None = None
    value_path: Path = ()

    def resolve(parts: list[str]) -> Path:
        path: Path = ()
        for part in parts:
            path = path + (part,)
            if path in arrays_of_tables:
                path = path + (arrays_of_tables[path] - 1,)
        return path

    for number, raw in enumerate((line.removesuffix("\r") for line in text.split("\n")), start=1):  # TOML's line ends only
        if value is not None:
            for element in value.feed(raw):
                lines.setdefault(value_path + (element,), number)
            if value.depth <= 0 and value.in_multiline is None:
                value = None
            continue
        stripped = raw.strip()
        if stripped.startswith("[["):
            parts = _split_key(stripped[2 : stripped.index("]]")])
            _open_parents(lines, parts, resolve, number)
            parent = resolve(parts[:-1])
            name = parent + (parts[-1],)
            arrays_of_tables[name] = arrays_of_tables.get(name, 0) + 1
            table = name + (arrays_of_tables[name] - 1,)
            lines.setdefault(name, number)
            lines[table] = number
            continue
        if stripped.startswith("["):
            parts = _split_key(stripped[1 : stripped.index("]")])
            _open_parents(lines, parts, resolve, number)
            table = resolve(parts)
            lines.setdefault(table, number)
            continue
        match = _BARE_KEY.match(raw)
        if match is None:
            continue
        path = table + tuple(_split_key(match.group(1)))
        lines.setdefault(path, number)
        scanner = _Scanner()
        for element in scanner.feed(raw[match.end() :]):
            lines.setdefault(path + (element,), number)
        if scanner.depth > 0 or scanner.in_multiline is not None:
            value, value_path = scanner, path
    return lines


def _open_parents(lines: dict[Path, int], parts: list[str], resolve: Callable[[list[str]], Path], number: int) -> None:
    """The tables a header opens without a header of their own (`[a.b]` opens `a`): at its line, if none before."""
    for end in range(1, len(parts)):
        lines.setdefault(resolve(parts[:end]), number)


def line_of(lines: dict[Path, int], path: Path) -> int | None:
    """The line of `path`, or of its nearest written ancestor (a table header, an array)."""
    while path:
        if path in lines:
            return lines[path]
        path = path[:-1]
    return None
