"""Stealth missions from the screen: the track on the panel, the Swiftness roll after a Move, a manual alarm."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from assistant.rules import game as rules
from assistant.ui import theme
from assistant.ui.app import App
from assistant.ui.table import MemoryGame
from tests.ui.conftest import key, make_app, play
from tests.ui.missions import mission
from assistant.ui.panel import read_size
from tests.ui.pixels import find_text
from tests.ui.test_reactions import labels


def track_row(app: App) -> pygame.Rect:
    """The panel's Stealth row, found by its label drawn on the screen."""
    app.draw()
    label = find_text(app.surface, app.layout.panel, "Stealth", read_size(app.layout, app.fonts), theme.MUTED, app.fonts)
    assert label is not None, "no Stealth track on the panel"
    return pygame.Rect(label.right, label.top - app.layout.px(6), app.layout.panel.right - label.right, label.height + app.layout.px(12))


def token_x(app: App, row: pygame.Rect, color: tuple[int, int, int]) -> float:
    """The middle of the slot drawn in `color` (the Stealth Token's slot) along the track."""
    xs = [x for x in range(row.left, row.right) for y in range(row.top, row.bottom) if app.surface.get_at((x, y))[:3] == color]
    assert len(xs) > 100 * app.layout.unit**2, "the token's slot is not drawn"
    return sum(xs) / len(xs)


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_the_stealth_roll_follows_a_move_and_a_miss_moves_the_token_up(size: tuple[int, int], shots: Path) -> None:
    app = make_app(size, MemoryGame(mission("stealth")))
    start = app.game.state
    track = start.scenario.stealth
    row = track_row(app)
    pygame.image.save(app.surface, shots / f"stealth-{size[0]}x{size[1]}.png")
    assert app.fonts.squeezed == []
    assert find_text(app.surface, row, f"next roll {track[0]}+", read_size(app.layout, app.fonts), theme.TEXT, app.fonts) is not None
    at_start = token_x(app, row, theme.ACTIVE)
    # Move: nobody adjacent; 2 AP; the Stealth roll opens by itself, one die and the AP for more
    play(app, key("m"), key("n"), key("2"), key("return"), key("return"))
    declared = rules.apply(start, {"type": "declare_move", "adjacent": []})
    moved = rules.apply(declared, {"type": "spend_ap", "action": "move", "ap": 2})
    assert app.game.state == moved
    assert app.form is not None and app.form.name == "stealth" and len(app.form.value("dice")) == 1
    app.draw()
    pygame.image.save(app.surface, shots / f"stealth-roll-{size[0]}x{size[1]}.png")
    assert app.fonts.squeezed == []
    # back to the dice count, one more die (1 AP), then the two dice: both miss the value above the token
    low = [1, track[0] - 1 if track[0] > 1 else 1]
    play(app, key("backspace"), key("right"), key("return"), key(str(low[0])), key(str(low[1])), key("return"))
    rolled = rules.apply(moved, {"type": "stealth_roll", "hero": "ada", "ap": 1, "dice": low})
    assert app.game.state == rolled and rolled.stealth == 1 and rolled.turn is not None and rolled.turn.ap_left == 2
    row = track_row(app)
    assert token_x(app, row, theme.ACTIVE) > at_start + app.layout.px(10)  # the token moved up the track
    assert find_text(app.surface, row, f"next roll {track[1]}+", read_size(app.layout, app.fonts), theme.TEXT, app.fonts) is not None
    # the roll from the menu too (S): a die that reaches the value holds the Stealth
    assert "Stealth roll" in labels(app)
    play(app, key("s"), key(str(track[1])), key("return"))
    assert app.game.state == rules.apply(rolled, {"type": "stealth_roll", "hero": "ada", "ap": 0, "dice": [track[1]]})
    assert app.game.state.stealth == 1


def test_the_table_raises_the_alarm_from_fix_and_the_track_says_so(shots: Path) -> None:
    app = make_app(game=MemoryGame(mission("stealth")))
    start = app.game.state
    play(app, key("f"))
    assert app.form is not None
    options = [value for value, _ in app.form.get("what").options]  # type: ignore[union-attr]
    play(app, key(str(options.index("alarm") + 1)), key("return"), key("return"))
    assert app.game.state == rules.apply(start, {"type": "alarm", "cause": "a mission rule"})
    row = track_row(app)
    pygame.image.save(app.surface, shots / "stealth-alarm-800x480.png")
    assert find_text(app.surface, row, "ALARM", read_size(app.layout, app.fonts), theme.DANGER, app.fonts) is not None
    token_x(app, row, theme.DANGER)  # the top slot filled in red
    assert "Stealth roll" not in labels(app)  # the Stealth is over
    play(app, key("f"))
    assert "alarm" not in [value for value, _ in app.form.get("what").options]  # type: ignore[union-attr]
