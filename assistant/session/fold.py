"""How a journal turns its events into a state: the Fold protocol and the fold of each kind of game.

The state of a game is `reduce(fold.apply, events, fold.initial())`. A mission folds through
the rules core (`assistant.rules.game`), the campaign sheet through `assistant.session.campaign`,
a game of Nova Lectio: Status through `assistant.status` (`assistant.session.status_fold`).
`fold.tag` names the code that wrote a snapshot: a snapshot with another tag (written before
an update of Nova Table) is not trusted, and the state is replayed from the events instead.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol, TypeVar

from assistant import __version__
from assistant.session.errors import SessionError

S = TypeVar("S")


class Fold(Protocol[S]):
    """A pure left fold over events: `apply` raises ValueError for an event it refuses."""

    tag: str

    def initial(self) -> S: ...

    def apply(self, state: S, event: Mapping[str, Any]) -> S: ...

    def dump(self, state: S) -> dict[str, Any]: ...

    def load(self, data: Mapping[str, Any]) -> S: ...


FoldFactory = Callable[[str, "str | None", str], "Fold[Any]"]
"""Makes the fold of a saved game from its kind ("mission", "campaign", "status"), saved text and source."""


class MissionFold:
    """A mission through the rules core: `new_game(scenario)`, then `apply` for each event."""

    def __init__(self, scenario: Any) -> None:
        from assistant.rules import game, state

        self._game = game
        self._state = state
        self.scenario = scenario
        self.tag = f"nova-table {__version__} rules"

    def initial(self) -> Any:
        return self._game.new_game(self.scenario)

    def apply(self, state: Any, event: Mapping[str, Any]) -> Any:
        return self._game.apply(state, event)

    def dump(self, state: Any) -> dict[str, Any]:
        return dict(state.to_dict())

    def load(self, data: Mapping[str, Any]) -> Any:
        return self._state.GameState.from_dict(dict(data))


def default_folds(kind: str, scenario_text: str | None, source: str) -> Fold[Any]:
    """The folds Nova Table plays with, by the game's kind: the rules core for missions, the campaign sheet for
    the campaign, the Status core for games of Status (their text: the table's setup)."""
    if kind == "campaign":
        from assistant.session.campaign import CampaignFold

        return CampaignFold()
    if kind == "status":
        from assistant.session.status_fold import status_fold

        return status_fold(scenario_text, source)
    if kind != "mission":
        raise SessionError(f"{source}: a game of kind {kind!r}, which this Nova Table does not know (written by a newer one?)")
    from assistant.session.scenario_file import parse_scenario

    return MissionFold(parse_scenario(scenario_text or "", source))
