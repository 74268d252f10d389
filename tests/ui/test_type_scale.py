"""Type read from 1.5 m: what the table acts on (the AI's question, the roll) at about 28 px capitals at 800x480 and
as large on a 720x1280 Touch Display 2 (the layout's unit, 1.5 there), nothing a player must read under 18 px
capitals. Measured on rendered screens: the capitals of the size the words are found drawn at."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest

from assistant.ui import theme
from assistant.ui.app import App
from assistant.ui.panel import read_size
from assistant.ui.table import MemoryGame
from assistant.ui.theme import Fonts
from assistant.ui.told import LESS, act_size
from assistant.ui.words import token_label
from tests.ui.conftest import key, make_app, play
from tests.ui.demo import demo_scenario
from tests.ui.pixels import find_text
from tests.ui.test_enemy_turn import to_enemy_question

SIZES = [(800, 480), (720, 1280)]


def drawn_at(app: App, area: pygame.Rect, words: str, color: theme.Color, sizes: Iterator[int]) -> int:
    """The first of `sizes` at which `words` are drawn in `area` in `color`, exactly (0: none)."""
    for size in sizes:
        exact = Fonts()
        exact.least = size  # no smaller size tried
        if find_text(app.surface, area, words, size, color, exact) is not None:
            return size
    return 0


@pytest.mark.parametrize("size", SIZES)
def test_the_question_is_drawn_at_28_px_capitals_and_the_log_at_18(size: tuple[int, int], shots: Path) -> None:
    """The question's capitals were 12 px at 800x480 (2.3 mm on a 7 inch panel): at the limit of eyesight from 1.2 m."""
    game = MemoryGame(demo_scenario())
    to_enemy_question(game)
    app = make_app(size, game)
    app.draw()
    pygame.image.save(app.surface, shots / f"type-question-{size[0]}x{size[1]}.png")
    question = app.machine.current.advice.question.text  # type: ignore[attr-defined]
    first = question.split()[0]
    points = drawn_at(app, app.layout.panel, first, theme.ACTIVE, (act_size(app.layout, app.fonts, n) for n in LESS))
    assert points and app.fonts.caps(points) >= (theme.ACT_CAPS - 2) * app.layout.unit, (points, app.fonts.caps(points))
    newest = app.machine.current.told[0][-1]  # type: ignore[attr-defined]  # the log's newest: its first line shown
    log = app.layout.log if app.layout.log.height else app.layout.panel
    points = drawn_at(app, log, newest.text.split()[0], newest.color, iter([read_size(app.layout, app.fonts)]))
    assert points and app.fonts.caps(points) >= theme.READ_CAPS * app.layout.unit


def record(fonts: Fonts) -> list[tuple[str, int]]:
    """Every (text, size) `fonts` is asked to draw by `fit` or `render` from now on."""
    drawn: list[tuple[str, int]] = []
    for method in ("fit", "render"):
        def recording(text: str, size: int, *rest: Any, real: Any = getattr(fonts, method)) -> Any:
            drawn.append((text, int(size)))
            return real(text, size, *rest)

        setattr(fonts, method, recording)
    return drawn


def marks(app: App) -> set[str]:
    """What is drawn small on purpose, as signs rather than words to read: the tokens' letters and order badges,
    the keys' letters in the buttons' corners, the few words under a button ("skill, item...")."""
    state = app.game.state
    items = app.machine.current.items if hasattr(app.machine.current, "items") else []
    return ({token_label(state, token.id) for token in state.tokens} | {"KO", "=", "?", "ESC", "ENTER"}
            | {str(n) for n in range(1, 13)} | {item.key.upper() for item in items} | {item.detail for item in items})


@pytest.mark.parametrize("size", SIZES)
def test_nothing_a_player_reads_is_under_18_px_capitals(size: tuple[int, int]) -> None:
    """Key hints were 11 px, the header's "next:" and the forms' labels 15 px capitals at 800x480."""
    for step in ((), (key("a"),), (key("backspace"), key("m"))):  # the hero's turn, the attack form, who is adjacent
        app = make_app(size)
        play(app, *step)
        drawn = record(app.fonts)
        app.draw()
        least = theme.READ_CAPS * app.layout.unit
        small = {(text, points) for text, points in drawn if text not in marks(app) and app.fonts.caps(points) < least - 0.5}
        assert drawn and not small, (step, sorted(small))
