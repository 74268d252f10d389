"""An Enemy activation on screen: the AI's question and instructions shown, answered by tapping, the defence rolled."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pygame
import pytest

from assistant.rules import game as rules
from assistant.rules.state import GameState
from assistant.ui import theme
from assistant.ui.app import App
from assistant.ui.table import MemoryGame
from assistant.ui.card import how_to_answer
from tests.ui.conftest import click, key, make_app, play
from tests.ui.demo import demo_scenario
from tests.ui.test_reactions import tap
from tests.ui.test_render import count

instructions = pytest.importorskip("assistant.rules.instructions")
if TYPE_CHECKING:
    from assistant.rules.instructions import AttackOrder


def to_enemy_question(game: MemoryGame) -> GameState:
    """Play the demo on (ending activations, ordering ties, resolving events) to the first AI question."""
    for _ in range(80):
        state = game.state
        if state.turn is not None and instructions.plan(state).question is not None:
            return state
        if state.due:
            game.apply({"type": "resolve_event", "event": state.due[0]})
        elif state.turn is None and state.ties:
            game.apply({"type": "order", "ids": list(state.ties[0])})
        elif state.turn is None and state.queue:
            game.apply({"type": "resolve_event", "event": state.queue[0]})
        else:
            game.apply({"type": "end_activation"})
    pytest.skip("the demo asks the AI no question in its first 80 events")


SMALLEST = [(480, 320), (320, 480)]


@pytest.mark.parametrize("size", [*SMALLEST, (800, 480), (480, 800), (1024, 600), (1280, 800), (720, 1280)])
def test_the_ai_s_sentences_and_its_question_are_whole_and_the_heroes_rows_give_way(size: tuple[int, int], shots: Path) -> None:
    """The AI's sentences before its question ("Slingers activate with 5 AP each...") were never drawn, at any
    size: the buttons kept their height and the question took what was left. At 800x480 the question's third
    line was cut, and at 480x320 its last. The question is whole, big, above the buttons (they give up height to
    34 px, the heroes' rows give way while the AI waits); the sentences are in the log, each in one of its views."""
    from tests.ui.test_words_whole import every_view

    game = MemoryGame(demo_scenario())
    plan = instructions.plan(to_enemy_question(game))
    assert plan.question is not None and plan.steps
    app = make_app(size, game)
    app.draw()
    pygame.image.save(app.surface, shots / f"enemy-question-whole-{size[0]}x{size[1]}.png")
    log, act = app.machine.current.told  # type: ignore[attr-defined]
    asked = next(n for n, line in enumerate(act) if line.big)  # the activation card, then its question
    assert " ".join(line.text for line in act[asked:]) == how_to_answer(plan.question.text, plan.question.several)
    assert not {text for text, _ in app.fonts.squeezed} & {line.text for line in act}, app.fonts.squeezed
    steps = app.machine.current.advice.steps  # type: ignore[attr-defined]  # the plan's steps as the panel words them
    shown = [line.text for line in log + act[:asked]]
    assert steps and all(any(step.endswith(text[1:]) for text in shown) for step in steps), (steps, shown)
    assert every_view(app) == set(range(len(log)))
    answer_first(app)  # answered: the next question is short, and the rows are back
    app.draw()
    assert count(app.surface, app.layout.panel, theme.THREAT) > 0 or size in [*SMALLEST, (480, 800)]  # there, the
    # activation card (its title, the model's goal) takes the rows' room


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_the_question_is_shown_and_a_tap_answers_it(size: tuple[int, int], shots: Path) -> None:
    game = MemoryGame(demo_scenario())
    state = to_enemy_question(game)
    question = instructions.plan(state).question
    app = make_app(size, game)
    app.draw()
    pygame.image.save(app.surface, shots / f"enemy-question-{size[0]}x{size[1]}.png")
    # the question is written in the focus colour above the buttons
    panel = app.layout.panel
    assert count(app.surface, panel, theme.ACTIVE) > 400
    assert app.fonts.squeezed == []
    # one button per answer, then the table's own choices
    labels = [item.label for item in app.machine.current.items]  # type: ignore[attr-defined]
    options = [state.hero(o).id for o in question.options] if question.kind in ("closest", "farthest", "choose") else []
    for option in options:
        assert state.scenario.hero(option).name in labels
    assert question.several  # a tap answers alone (issue 62: one input); for a tie Several…, a tap each, Answer
    play(app, click(app.hits[labels_of(app).index("Several…")].rect.center))
    assert app.game.state == state and "Answer" in labels_of(app)
    app.draw()
    play(app, click(app.hits[0].rect.center), click(app.hits[1].rect.center))
    app.draw()
    play(app, click(app.hits[labels_of(app).index("Answer")].rect.center))
    assert app.game.state == rules.apply(state, {"type": "ai_answer", "question": question.key,
                                                 "answer": list(question.options[:2])})  # fmt: skip


def labels_of(app: App) -> list[str]:
    return [item.label for item in app.machine.current.items]  # type: ignore[attr-defined]


def answer_first(app: App) -> None:
    """The AI's question answered with its first option: a tap, and Answer where it takes several."""
    app.draw()
    play(app, click(app.hits[0].rect.center))
    if "Answer" in labels_of(app):
        app.draw()
        play(app, click(app.hits[labels_of(app).index("Answer")].rect.center))


def end_enemy_turn(app: App, send: Callable[[App, pygame.event.Event], App] = play) -> None:
    """End the Enemy's activation by tapping (`send`: how a tap reaches the app), its AI's questions answered
    first (their first option): End is not offered while one is open."""
    for _ in range(12):
        app.draw()
        items = app.machine.current.items  # type: ignore[attr-defined]
        if "End activation" in labels_of(app):
            send(app, tap(app, "End activation"))
            return
        first = next(item for item in items if item.event is not None and item.event.get("type") == "ai_answer")
        send(app, tap(app, first.label))
    raise AssertionError(f"no End activation after 12 answers: {labels_of(app)}")


def to_attack_order(game: MemoryGame) -> AttackOrder:
    """The demo played to the AI's first attack that waits for the defence dice (every question answered
    with its first option); that attack's order."""
    to_enemy_question(game)
    for _ in range(12):
        made = instructions.plan(game.state)
        order: AttackOrder | None = made.attack
        if order is not None:
            return order
        if made.question is None:
            pytest.skip("the AI finished without an attack")
        game.apply({"type": "ai_answer", "question": made.question.key, "answer": made.question.options[0]})
    pytest.skip("no attack ordered")


def test_the_defence_roll_the_ai_orders_is_resolved_with_the_dice() -> None:
    game = MemoryGame(demo_scenario())
    order = to_attack_order(game)
    state = game.state
    app = make_app(game=game)
    play(app, key("d"))  # Defence roll: the form has the dice count the AI named
    assert app.form is not None and app.form.name == "ai_defence"
    assert len(app.form.value("dice")) == order.dice
    typed = [6, 5, 2, 1, 7, 8, 3, 4][: order.dice]
    play(app, *[key(str(v)) for v in typed], key("return"))
    assert app.game.state == rules.apply(state, order.event(typed))


def test_dice_from_the_camera_open_the_defence_roll_with_the_cameras_words() -> None:
    """Fewer dice seen than the AI's order takes, with no form open: the Defence roll opens with them, the
    rest "?", and says so (the form's opening wiped the words before)."""
    from assistant.ui.form import Reading
    from assistant.ui.inputs import post_dice

    game = MemoryGame(demo_scenario())
    order = to_attack_order(game)
    assert order.dice >= 2
    app = make_app(game=game)
    app.running = True
    post_dice(Reading([5]))
    app.pump()
    assert app.form is not None and app.form.name == "ai_defence"
    assert app.form.value("dice") == [5] + [None] * (order.dice - 1)
    assert app.error == f"Camera: 1 die seen, this roll takes {order.dice} (or lower Dice). Tap a die to set it."


@pytest.mark.parametrize("size", [(800, 480), (480, 800)])
def test_dice_read_while_the_ai_asks_are_said_above_the_question(size: tuple[int, int], shots: Path) -> None:
    """The words were given room neither above the question nor anywhere: not drawn at all. And answering changes
    the game, so they do not promise the dice to the next roll. They are no refusal: the log's newest, whole, in a
    neutral colour (they were red, in the heroes' rows' place)."""
    from assistant.ui.form import Reading
    from assistant.ui.inputs import post_dice

    game = MemoryGame(demo_scenario())
    to_enemy_question(game)
    app = make_app(size, game)
    app.running = True
    post_dice(Reading([5, 2, 7, 1]))
    app.pump()
    assert app.form is None and app.said == ["Dice read (camera): 5 2 7 1; answer the question, then roll"]
    app.fonts.squeezed.clear()
    app.draw()
    pygame.image.save(app.surface, shots / f"enemy-question-dice-{size[0]}x{size[1]}.png")
    assert app.fonts.squeezed == []
    screen = app.machine.current
    log, _ = screen.told  # type: ignore[attr-defined]
    assert log[-1].text == app.said[0] and log[-1].color == theme.MUTED and len(log) - 1 in screen.logged  # type: ignore[attr-defined]
    assert count(app.surface, app.surface.get_rect(), theme.DANGER) == 0
