"""The one exception the rules raise: a request or event the rules refuse."""

from __future__ import annotations


class RuleError(ValueError):
    """A refused request; `field` names the part of the input at fault."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message
