"""JSON and TOML from text that may be anything (a typed line, a garbled serial line, a file edited by hand)."""

from __future__ import annotations

import json
import sys
from typing import Any


class NotJSON(ValueError):
    """The text is not JSON this program can read; the message says why, and where on the line."""


def loads(text: str | bytes) -> Any:
    """`json.loads`, every way it can fail a NotJSON: not JSON, bytes that are not UTF-8, what Python's
    reader refuses in well-formed text (`beyond_python`), and a string with a lone surrogate ("\\ud800":
    JSON's escapes can write one, but it is no text, and SQLite and UTF-8 refuse it)."""
    try:
        value = json.loads(text)
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except json.JSONDecodeError as bad:
        raise NotJSON(f"{bad.msg.removesuffix(' at')} at column {bad.colno}") from None
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
