"""With a camera, a Hero's own turn lost the heroes' rows: the camera's line (in red, though it is no error) took their
place, and their wounds and Threat were gone. The camera's words are the log's, in a neutral colour."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from assistant.ui import theme
from assistant.ui.form import Reading
from assistant.ui.inputs import post_dice
from tests.ui.conftest import make_app
from tests.ui.test_render import count


@pytest.mark.parametrize("size", [(800, 480), (720, 1280), (480, 800)])
def test_dice_read_on_a_hero_s_turn_keep_the_heroes_rows_and_are_not_red(size: tuple[int, int], shots: Path) -> None:
    app = make_app(size)
    app.draw()
    rows = count(app.surface, app.layout.panel, theme.THREAT)  # the four Perilium boxes
    app.running = True
    post_dice(Reading([5, 2, 7, 1]))
    app.pump()
    app.draw()
    pygame.image.save(app.surface, shots / f"camera-hero-turn-{size[0]}x{size[1]}.png")
    assert app.game.state.active == "valerio" and app.form is None
    assert rows > 0 and count(app.surface, app.layout.panel, theme.THREAT) == rows  # the rows all there
    assert count(app.surface, app.surface.get_rect(), theme.DANGER) == 0  # nothing in red
    log, _ = app.machine.current.told  # type: ignore[attr-defined]
    assert log[-1].text.startswith("Dice read (camera): 5 2 7 1") and log[-1].color == theme.MUTED
    assert len(log) - 1 in app.machine.current.logged  # type: ignore[attr-defined]
