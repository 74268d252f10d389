"""The one exception the Status core raises: an event or request the rules refuse."""

from __future__ import annotations

from assistant.rules.errors import RuleError


class StatusError(RuleError):
    """A refusal: `field` names the part of the event at fault, `message` says why in a player's words.

    A RuleError (so a ValueError), as the Nova Aetas core raises: `nova-table resolve` and the journal
    treat both alike."""
