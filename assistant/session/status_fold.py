"""A game of Nova Lectio: Status in the journal: the fold of its events through `assistant.status`.

A Status game is stored like a mission (kind "status"): its *setup* (the Factions at the table, clockwise,
and who holds the Priority token) is the text saved with the game, where a mission keeps its scenario. That
text is the core's `start` event as JSON; the fold's first state is the table after it, so undo goes back to
the start of round 1 and never unmakes the table, as a mission's undo never unmakes its scenario.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from assistant import __version__
from assistant.reading import NotJSON, loads
from assistant.session.errors import Problem, ScenarioError


def setup_text(factions: Sequence[str], priority: str | None = None) -> str:
    """The saved text of a Status table: `factions` clockwise, `priority` holding the token (default: the first).
    Checked when the game is made (`StatusFold`), like a scenario."""
    names = [name.strip() for name in factions]
    start = {"type": "start", "factions": names, "priority": priority if priority is not None else names[0] if names else ""}
    return json.dumps(start, ensure_ascii=False)


class StatusFold:
    """`new_game()`, then the saved `start` event, then `apply` for each event (`assistant.status`)."""

    def __init__(self, setup: Mapping[str, Any]) -> None:
        from assistant import status

        self._status = status
        self.setup = dict(setup)
        self.tag = f"nova-table {__version__} status"
        self._first = status.apply(status.new_game(), self.setup)  # StatusError (ValueError) if the table is wrong
        self.title = "Status: " + ", ".join(faction.full_name for faction in self._first.factions)
        self.edition: str | None = None

    def initial(self) -> Any:
        return self._first

    def apply(self, state: Any, event: Mapping[str, Any]) -> Any:
        if isinstance(event, Mapping) and event.get("type") == "start":  # the table is the game's, saved with it
            raise self._status.StatusError("type", "the game has already started (its table is saved with it)")
        return self._status.apply(state, event)

    def dump(self, state: Any) -> dict[str, Any]:
        return dict(state.to_dict())

    def load(self, data: Mapping[str, Any]) -> Any:
        return self._status.StatusGame.from_dict(dict(data))


def status_fold(text: str | None, source: str) -> StatusFold:
    """The fold of a Status game from its saved setup; ScenarioError naming `source` and the field at fault."""
    try:
        setup = loads(text or "")
    except NotJSON as error:
        raise ScenarioError(source, [Problem(None, "", f"not a Status table's setup: not JSON ({error})")]) from None
    if not isinstance(setup, dict) or setup.get("type") != "start":
        raise ScenarioError(source, [Problem(None, "", 'not a Status table\'s setup: expected {"type": "start", ...}')])
    try:
        return StatusFold(setup)
    except ValueError as error:
        field = str(getattr(error, "field", "") or "")
        raise ScenarioError(source, [Problem(None, field, str(getattr(error, "message", error)))]) from None
