"""TOML text for parsed TOML data (`tomllib`'s tables, arrays, text, numbers, booleans, dates), read back the same.

The standard library reads TOML but writes none; this writes what a scenario with its library cards written in
is stored as (`card_library.with_cards`): keys before sub-tables, `[[arrays of tables]]`, every text quoted.
"""

from __future__ import annotations

import datetime
import math
import re
from collections.abc import Mapping
from typing import Any

_BARE = re.compile(r"[A-Za-z0-9_-]+")  # whole: `$` would take a key ending in a newline
_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\b": "\\b", "\f": "\\f"}


def toml_text(data: Mapping[str, Any]) -> str:
    """`data` as a TOML document: `tomllib.loads(toml_text(data)) == data`."""
    lines: list[str] = []
    _table(lines, (), data, None)
    return "\n".join(lines).lstrip("\n") + "\n"


def _string(text: str) -> str:
    """A basic string: quotes, backslashes and the control characters TOML forbids raw are escaped."""
    out = ['"']
    for char in text:
        if char in _ESCAPES:
            out.append(_ESCAPES[char])
        elif (ord(char) < 0x20 and char != "\t") or ord(char) == 0x7F:
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(char)
    return "".join(out) + '"'


def _key(key: str) -> str:
    return key if _BARE.fullmatch(key) else _string(key)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return ("nan" if math.isnan(value) else "inf" if value > 0 else "-inf") if not math.isfinite(value) else repr(value)
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, (datetime.datetime, datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, list):
        return "[" + ", ".join(_value(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_key(k)} = {_value(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"not a TOML value: {type(value).__name__}")


def _tables(value: Any) -> bool:
    """An array written as `[[name]]` tables: a non-empty list of tables."""
    return isinstance(value, list) and bool(value) and all(isinstance(item, dict) for item in value)


def _table(lines: list[str], path: tuple[str, ...], data: Mapping[str, Any], header: str | None) -> None:
    if header is not None:
        lines += ["", header]
    lines += [f"{_key(k)} = {_value(v)}" for k, v in data.items() if not isinstance(v, dict) and not _tables(v)]
    for key, value in data.items():
        name = ".".join(_key(part) for part in path + (key,))
        if isinstance(value, dict):
            _table(lines, path + (key,), value, f"[{name}]")
        elif _tables(value):
            for item in value:
                _table(lines, path + (key,), item, f"[[{name}]]")
