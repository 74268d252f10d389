"""One JSON value from text that may be anything (a typed line, a garbled serial line, a file edited by hand)."""

from __future__ import annotations

import json
from typing import Any


class NotJSON(ValueError):
    """The text is not JSON this program can read; the message says why, and where on the line."""


def loads(text: str | bytes) -> Any:
    """`json.loads`, every way it can fail a NotJSON: not JSON, a number too long for Python (over 4300 digits),
    arrays or objects nested too deep, bytes that are not UTF-8."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as bad:
        raise NotJSON(f"{bad.msg}, column {bad.colno}") from None
    except UnicodeDecodeError:
        raise NotJSON("not UTF-8 text") from None
    except ValueError:  # int("9" * 5000): Python's limit on the digits of a number
        raise NotJSON("a number too long") from None
    except RecursionError:
        raise NotJSON("nested too deep") from None
