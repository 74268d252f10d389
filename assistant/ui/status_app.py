"""The table app playing a game of Nova Lectio: Status: Nova Aetas's loop, journal and inputs, with the Status
screens; and `app_for`, the app of a game by its kind."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pygame

from assistant.status import StatusGame
from assistant.ui.app import App, Mirror
from assistant.ui.screens import Screen
from assistant.ui.table import TableGame


class StatusApp(App):
    """`App` with the Status screens; no Horologium to mirror, no Perilium knobs, no dice."""

    def __init__(self, game: TableGame, surface: pygame.Surface, mirrors: list[Mirror] | None = None,
                 log: Callable[[str], None] | None = None) -> None:  # fmt: skip
        self.counted: dict[str, dict[str, int]] = {}  # the final count's pages entered so far (not journaled yet)
        super().__init__(game, surface, [], log)

    def screens(self) -> list[Screen]:
        from assistant.ui.status_screens import StatusFormScreen, StatusTableScreen

        return [StatusTableScreen(), StatusFormScreen()]  # type: ignore[list-item]

    @property
    def status(self) -> StatusGame:
        state: Any = self.game.state
        assert isinstance(state, StatusGame), f"not a game of Status: {type(state).__name__}"
        return state

    @staticmethod
    def _asks_again(before: Any, after: Any) -> bool:
        return False

    def _mirror(self) -> None:
        """The board's LED ring is the Horologium's: a game of Status leaves it as it is."""

    def _apply_knobs(self) -> None:
        self._knobs = {}  # the Perilium knobs are Nova Aetas's

    def _press(self, index: int) -> None:
        """A Perilium knob pressed: nothing (Nova Aetas's)."""


def app_for(game: TableGame, surface: pygame.Surface, mirrors: list[Mirror] | None = None,
            log: Callable[[str], None] | None = None) -> App:  # fmt: skip
    """The app that plays `game`: by its kind, Nova Aetas's or Status's, or the campaign sheet's."""
    if getattr(game, "kind", "mission") == "status":
        return StatusApp(game, surface, mirrors, log)
    if getattr(game, "kind", "mission") == "campaign":
        from assistant.ui.campaign_app import CampaignApp

        return CampaignApp(game, surface, [], log)
    return App(game, surface, mirrors, log)
