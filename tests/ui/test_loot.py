"""The Loot on the panel: the Reagent Cards drawn for defeated Enemies, counted by type, once there are any."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from assistant.ui import theme
from assistant.ui.mission_panel import loot_counts
from assistant.ui.table import MemoryGame
from tests.ui.conftest import key, make_app, play
from tests.ui.demo import demo_scenario
from tests.ui.test_hunt import READ, shows


def test_the_loot_is_counted_by_type_first_drawn_first() -> None:
    game = MemoryGame(demo_scenario())
    game.apply({"type": "damage", "group": "alchemist", "model": 1, "wounds": 4, "by": "valerio"})
    game.apply({"type": "damage", "group": "papal_guard", "model": 1, "wounds": 6, "by": "valerio"})
    assert game.state.loot == ("Alchemia", "Alchemia", "Pecunia", "Alchemia")
    assert loot_counts(game.state) == [("Alchemia", 3), ("Pecunia", 1)]


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_the_loot_appears_on_the_panel_after_a_defeat(size: tuple[int, int], shots: Path) -> None:
    app = make_app(size, MemoryGame(demo_scenario()))
    assert not shows(app, "Loot", READ, theme.MUTED)  # nothing defeated, no Loot, no row
    app.game.apply({"type": "damage", "group": "alchemist", "model": 1, "wounds": 4, "by": "valerio"})
    assert shows(app, "Loot", READ, theme.MUTED)
    assert shows(app, "Alchemia", READ, theme.TEXT) and shows(app, "2", READ, theme.ACTIVE)
    # every type of the demo, while the Enemy AI asks its question (the panel at its fullest)
    app.game.apply({"type": "damage", "group": "papal_guard", "model": 1, "wounds": 6, "by": "valerio"})
    app.game.apply({"type": "damage", "group": "slingers", "model": 1, "wounds": 2, "by": "valerio"})
    for _ in range(6):
        app.draw()
        if app.machine.current.advice is not None and app.machine.current.advice.question is not None:  # type: ignore[attr-defined]
            break
        play(app, key("e"))
    assert app.game.state.active == "slingers"
    pygame.image.save(app.surface, shots / f"loot-{size[0]}x{size[1]}.png")
    assert app.fonts.squeezed == []
    for kind in ("Alchemia", "Pecunia", "Elementum"):  # readable: the whole name, or its first three letters
        assert shows(app, kind, READ, theme.TEXT) or shows(app, kind[:3], READ, theme.TEXT), kind
    assert shows(app, "3", READ, theme.ACTIVE)  # three Alchemia
