"""The one exception the rules raise: a request or event the rules refuse; and how its message quotes a value."""

from __future__ import annotations

import reprlib

from assistant.rules.bounds import QUOTED

_REPR = reprlib.Repr()
_REPR.maxstring = _REPR.maxlong = _REPR.maxother = 2 * QUOTED + 8  # its cut (the middle) falls past the prefix kept
_REPR.maxlist = _REPR.maxtuple = _REPR.maxdict = _REPR.maxset = 8
_REPR.maxlevel = 3


def shown(value: object) -> str:
    """`repr(value)` cut to its first `QUOTED` characters and "..." (a 10 MB value is no 10 MB message)."""
    text = _REPR.repr(value)
    return text if len(text) <= QUOTED else text[:QUOTED] + "..."


def short(text: str) -> str:
    """`text` itself (a field name, say), cut like `shown`."""
    return text if len(text) <= QUOTED else text[:QUOTED] + "..."


class RuleError(ValueError):
    """A refused request; `field` names the part of the input at fault."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message
