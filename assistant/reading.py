"""JSON and TOML from text that may be anything (a typed line, a garbled serial line, a file edited by hand)."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator, Sequence
from typing import Any, TextIO

ESCAPED_BYTE = re.compile("[\udc80-\udcff]")  # a byte that is not UTF-8, as Python's "surrogateescape" reads it


class NotJSON(ValueError):
    """The text is not JSON this program can read; the message says why, and where on the line."""


class _Twice(ValueError):
    """An object names a key twice (json keeps the last silently)."""


def _once(pairs: Sequence[tuple[str, Any]]) -> dict[str, Any]:
    made: dict[str, Any] = {}
    for key, value in pairs:
        if key in made:
            raise _Twice(key)
        made[key] = value
    return made


def loads(text: str | bytes) -> Any:
    """`json.loads`, every way it can fail a NotJSON: not JSON, bytes that are not UTF-8, what Python's
    reader refuses in well-formed text (`beyond_python`), a key given twice in one object (which value
    is meant is a guess), and a string with a lone surrogate ("\\ud800": JSON's escapes can write one,
    but it is no text, and SQLite and UTF-8 refuse it)."""
    byte = ESCAPED_BYTE.search(text) if isinstance(text, str) else None
    if byte is not None:
        raise NotJSON(f"not UTF-8 text (a byte 0x{ord(byte.group()) - 0xDC00:02X} at column {byte.start() + 1})")
    try:
        value = json.loads(text, object_pairs_hook=_once)
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except json.JSONDecodeError as bad:
        raise NotJSON(f"{bad.msg.removesuffix(' at')} at column {bad.colno}") from None
    except _Twice as twice:
        raise NotJSON(f"the key {json.dumps(str(twice))} twice in one object (which value is meant?)") from None
    except UnicodeDecodeError:
        raise NotJSON("not UTF-8 text") from None
    except UnicodeEncodeError as bad:
        raise NotJSON(f"a lone surrogate ({bad.object[bad.start]!r}) in a string: not text") from None
    except (ValueError, RecursionError) as bad:
        raise NotJSON(beyond_python(bad)) from None
    return value


def beyond_python(error: ValueError | RecursionError) -> str:
    """Why Python's JSON or TOML reader refused text that may be well formed: a number of more digits than
    Python converts (ValueError), or arrays or tables nested deeper than its recursion limit."""
    if isinstance(error, RecursionError):
        return "nested too deeply"
    return f"a number of more than {sys.get_int_max_str_digits()} digits"


def bounded_lines(stream: TextIO, limit: int) -> Iterator[str | None]:
    """The lines of `stream`, none read whole into memory past `limit` characters: None for a line longer than
    that (read on to its newline and dropped), so that the next line is read as usual."""
    while line := stream.readline(limit + 1):
        if len(line) <= limit or line.endswith("\n"):
            yield line
            continue
        while line and not line.endswith("\n"):
            line = stream.readline(limit)
        yield None
