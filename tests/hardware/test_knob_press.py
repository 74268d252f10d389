"""A Perilium knob pressed: the board's line read by the link (loop://, a pty), and the app's answer.

A press picks that knob's hero: where the Enemy AI asks the table which Hero (the closest, the farthest, one to
choose), it answers with them, as a tap on their button would; otherwise the screen names the knob's hero.
"""

from __future__ import annotations

import logging
import time
from typing import Any

import pytest

from assistant.hardware.board import BoardLink
from assistant.hardware.protocol import Press
from assistant.hardware.simulator import SimulatedBoard
from assistant.ui.table import MemoryGame
from tests.hardware.test_board import Inbox, loop, surface  # noqa: F401 - the fixtures
from tests.ui.demo import demo_scenario


def test_a_press_line_is_read_and_a_bad_one_skipped(loop: tuple[BoardLink, Inbox], caplog: pytest.LogCaptureFixture) -> None:  # noqa: F811
    link, inbox = loop
    with caplog.at_level(logging.WARNING, logger="nova_table.board"):
        link.port.write(b'{"t":"press","hero":"two"}\n{"t":"press"}\n{"t":"press","hero":2}\n')
        assert inbox.wait(lambda m: len(m) == 1)
    assert inbox.messages == [Press(2)]
    assert link.bad == 2 and "'hero' must be a whole number, not 'two'" in caplog.text


def test_a_press_on_the_simulated_board_reaches_the_pi_and_shows_that_hero_s_threat() -> None:
    inbox = Inbox()
    with SimulatedBoard(knobs=4) as board:
        link = BoardLink.open(board.path, inbox)
        try:
            link.send({"t": "perilium", "values": [0, 0, 5, 0]})
            assert board.wait_for(1)
            pressed = board.now_ms()
            assert board.press(2) == '{"t":"press","hero":2}'
            assert inbox.wait(lambda m: Press(2) in m)
            lit = board.board.frame(pressed)  # (as the ring was when pressed: it shows the bar 2 s)
            assert sum(led != (0, 0, 0) for led in lit) == 5 + 1  # the bar of 5, and the hero's LED
        finally:
            link.close()


def answering(surface: Any) -> tuple[Any, Any, Any]:  # noqa: F811
    """The demo at the AI's first question (which Hero is closest to Slingers 1?), on a simulated board
    attached as the app attaches it; the app, the board, the question."""
    from assistant.hardware.config import BoardConfig, HardwareConfig
    from assistant.rules.instructions import plan
    from assistant.ui import devices
    from assistant.ui.app import App
    from tests.ui.test_enemy_turn import to_enemy_question

    game = MemoryGame(demo_scenario())
    question = plan(to_enemy_question(game)).question
    assert question is not None and question.kind == "closest"
    board = SimulatedBoard(knobs=4).start()
    app = App(game, surface, log=lambda message: None)
    app.closers.append(board.close)
    assert devices.attach_board(app, HardwareConfig(board=BoardConfig(port=board.path))) is not None
    return app, board, question


def pump_until(app: Any, done: Any) -> None:
    """Run the app's loop passes until `done()`, 10 s at most (a loaded machine is slow to pass a line on)."""
    app.running = True
    deadline = time.monotonic() + 10
    while not done() and time.monotonic() < deadline:
        app.pump(100)


def test_a_hero_s_knob_pressed_is_a_tap_on_their_answer_to_the_ai(surface: Any) -> None:  # noqa: F811
    """Which Hero is closest: the press of Sofia's knob does what a tap on her button does."""
    from assistant.ui.app import App
    from assistant.ui.inputs import Action
    from tests.ui.test_enemy_turn import to_enemy_question

    app, board, question = answering(surface)
    game = MemoryGame(demo_scenario())
    to_enemy_question(game)
    twin = App(game, surface, log=lambda message: None)  # the same game, tapped instead
    twin.draw()
    menu = [item.label for item in twin.machine.current.items]  # type: ignore[attr-defined]
    tap = next(hit for hit in twin.hits if hit.target == ("item", menu.index("Sofia")))
    twin.handle(Action("tap", tap.rect.center))
    app.draw()

    def shown(one: Any) -> tuple[Any, ...]:
        screen = one.machine.current
        screen.refresh(one)
        return one.game.state, [(item.label, item.kind, item.enabled) for item in screen.items]

    before = shown(app)
    assert app.game.state.heroes[1].id == "sofia" and "sofia" in question.options
    board.press(1)
    pump_until(app, lambda: shown(app) != before)
    assert shown(app) == shown(twin) != before
    twin.close()
    app.close()


def test_a_press_where_no_hero_is_asked_for_names_the_knob_s_hero_and_changes_nothing(surface: Any) -> None:  # noqa: F811
    app, board, question = answering(surface)
    app.act({"type": "ai_answer", "question": question.key, "answer": question.options[0]})  # the next asks yes or no
    app.draw()  # (a press is taken for one on what is drawn)
    before = app.game.state
    hero = before.heroes[3]
    board.press(3)
    pump_until(app, lambda: bool(app.said))
    name = before.scenario.hero(hero.id).name
    assert app.said == [f"Knob 4 is {name}'s: Threat {hero.threat}"]
    assert app.game.state is before
    app.close()


def test_a_knob_pressed_in_a_game_of_status_changes_nothing(surface: Any, tmp_path: Any) -> None:  # noqa: F811
    """Status has no Heroes and no Perilium: the press is let be (it stopped the app: the game has no heroes)."""
    import pygame

    from assistant.ui.inputs import post_press
    from tests.ui.test_status import started

    app = started(tmp_path, [])
    before = app.game.state
    pygame.event.clear()
    post_press(0)
    app.running = True
    app.pump()
    assert app.running and app.game.state is before and app.said == [] and not app.error
    app.close()
