"""Renaissance Reaction Attacks from the screen: a Move asks who is adjacent (journaled as the declared Move), each attack is rolled."""

from __future__ import annotations

import threading
from pathlib import Path

import pygame
import pytest

from assistant.rules import game as rules
from assistant.rules.instructions import AttackOrder, reaction_attacks, reaction_question
from assistant.rules.state import GameState
from assistant.ui import theme
from assistant.ui.advice import Advice
from assistant.ui.app import App
from assistant.ui.form import Reading
from assistant.ui.inputs import ENCODER, post_dice
from assistant.ui.table import MemoryGame, open_saved_game
from tests.ui.conftest import click, feed, key, make_app, play
from tests.ui.demo import demo_scenario
from tests.ui.test_render import count


def labels(app: App) -> list[str]:
    app.machine.current.refresh(app)  # type: ignore[attr-defined]
    return [item.label for item in app.machine.current.items]  # type: ignore[attr-defined]


def advice(app: App) -> Advice:
    """The plan the table screen shows for the state now."""
    app.machine.current.refresh(app)  # type: ignore[attr-defined]
    shown = app.machine.current.advice  # type: ignore[attr-defined]
    assert shown is not None
    return shown  # type: ignore[no-any-return]


def tap(app: App, label: str) -> pygame.event.Event:
    """A tap on the middle of the button drawn with `label` (the frame on screen now)."""
    app.draw()
    index = labels(app).index(label)
    hit = next(h for h in app.hits if h.target == ("item", index))
    return click(hit.rect.center)


def encoder(action: str, value: int = 0) -> pygame.event.Event:
    return pygame.event.Event(ENCODER, action=action, value=value)


def orders(state: GameState, adjacent: list[str]) -> list[AttackOrder]:
    return [step.attack for step in reaction_attacks(state, "valerio", adjacent) if step.attack is not None]


def declared(state: GameState, adjacent: list[str]) -> GameState:
    return rules.apply(state, {"type": "declare_move", "adjacent": adjacent})


def reopen(app: App, path: Path, size: tuple[int, int] = (800, 480)) -> App:
    """Close the app and start it again on the same state file, as after quitting (or a restart of the Pi)."""
    app.close()
    return make_app(size, game=open_saved_game(path, None, new=False))  # type: ignore[arg-type]


def test_nobody_adjacent_is_one_tap_then_the_move_form() -> None:
    app = make_app()
    start = app.game.state
    play(app, tap(app, "Move"))
    # the question is the rules core's, its answers are buttons, "Nobody" first and focused; nothing journaled yet
    question = reaction_question(start, "valerio")
    assert labels(app)[0] == "Nobody" and "Papal Guard" in labels(app)
    assert advice(app).question == question and app.game.state == start
    play(app, tap(app, "Nobody"))
    assert app.machine.current.name == "form" and app.form is not None and app.form.name == "move"
    assert app.game.events() == [{"type": "declare_move", "adjacent": []}]  # the answer is journaled
    play(app, key("2"), key("return"), key("return"))
    assert app.game.state == rules.apply(declared(start, []), {"type": "spend_ap", "action": "move", "ap": 2})


@pytest.mark.parametrize("size", [(800, 480), (1024, 600), (1280, 800), (480, 800)])
def test_who_is_adjacent_is_asked_whole_with_every_enemy_named_whole(size: tuple[int, int]) -> None:
    """The buttons shrank for the AI's sentences and "Venetian Alchemist" was cut ("Venetian Alche..."): a
    label that needs two lines keeps the height for them."""
    app = make_app(size)
    play(app, key("m"))
    assert "Venetian Alchemist" in labels(app) and advice(app).question is not None
    app.fonts.squeezed.clear()
    app.draw()
    assert app.fonts.squeezed == []


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_two_reaction_attacks_are_rolled_one_by_one_across_restarts_then_the_hero_moves(
    size: tuple[int, int], shots: Path, tmp_path: Path
) -> None:
    path = tmp_path / "table.db"
    app = make_app(size, game=open_saved_game(path, None, new=True))  # type: ignore[arg-type]
    start = app.game.state
    adjacent = ["papal_guard/1", "alchemist/1"]
    expected = orders(start, adjacent)
    assert [o.group for o in expected] == ["papal_guard", "alchemist"] and all(o.reaction for o in expected)
    # M, then Several…: the form asks yes/no per model; Papal Guard yes, the Slingers no, the Alchemist yes
    feed(app, key("m"), key("s"))
    assert app.form is not None and app.form.name == "react_several"
    keys = [field.key for field in app.form.fields]
    presses = []
    for model in keys:
        presses += [key("right")] if model in adjacent else []
        presses.append(key("return"))
    feed(app, *presses, key("return"))
    assert app.machine.current.name == "table" and app.game.state == declared(start, adjacent)
    app = reopen(app, path, size)  # closed and started again: both attacks are still owed, the first one first
    assert labels(app)[0] == "Defence roll" and advice(app).attack == expected[0]
    app.draw()
    pygame.image.save(app.surface, shots / f"reaction-attack-{size[0]}x{size[1]}.png")
    assert app.fonts.squeezed == []
    assert count(app.surface, app.layout.panel, theme.ACTIVE) > 300  # the prompt to roll, in gold
    rolls = [[1, 2, 6, 5][: expected[0].dice], [1] * expected[1].dice]
    feed(app, key("d"))
    assert app.form is not None and app.form.name == "reaction_defence" and len(app.form.value("dice")) == expected[0].dice
    feed(app, *[key(str(v)) for v in rolls[0]], key("return"))
    after_first = rules.apply(declared(start, adjacent), expected[0].event(rolls[0]))
    assert app.game.state == after_first
    assert app.machine.current.name == "table" and advice(app).attack == expected[1]
    app = reopen(app, path, size)  # again: the second attack is the one still owed
    assert app.game.state == after_first and labels(app)[0] == "Defence roll" and advice(app).attack == expected[1]
    feed(app, key("d"), *[key(str(v)) for v in rolls[1]], key("return"))
    after_both = rules.apply(after_first, expected[1].event(rolls[1]))
    assert app.game.state == after_both
    # every attack resolved and the Hero stands: the move form is open at once
    assert after_both.active == "valerio" and app.form is not None and app.form.name == "move"
    feed(app, key("return"), key("return"))
    assert app.game.state == rules.apply(after_both, {"type": "spend_ap", "action": "move", "ap": 1})
    assert after_both.hero("valerio").statuses == ("Poisoned",)  # the Alchemist's Quicksilver Mist took: its trait
    shown = app.machine.current.advice  # type: ignore[attr-defined]
    assert labels(app)[0] == "Move" and shown is not None and shown.kinds == ("status",)  # that token's reminder alone
    app.close()


def test_a_ko_by_a_reaction_attack_ends_the_activation() -> None:
    game = MemoryGame(demo_scenario())
    game.apply({"type": "damage", "hero": "valerio", "wounds": 5})  # one wound from KO
    app = make_app(game=game)
    start = app.game.state
    play(app, key("m"))
    play(app, tap(app, "Papal Guard"))
    order = orders(start, ["papal_guard/1"])[0]
    play(app, key("d"), *[key("1")] * order.dice, key("return"))
    state = app.game.state
    assert state == rules.apply(declared(start, ["papal_guard/1"]), order.event([1] * order.dice))
    assert state.hero("valerio").ko and state.active != "valerio"
    assert app.form is None and app.machine.current.name == "table" and not app.asking


def test_undo_takes_back_the_move_the_attack_the_declaration_then_the_question(tmp_path: Path) -> None:
    """In the saved journal every step of the round is an event; only the question before the answer is the screen's."""
    game = open_saved_game(tmp_path / "table.db", None, new=True)
    app = make_app(game=game)  # type: ignore[arg-type]
    start = app.game.state
    order = orders(start, ["papal_guard/1"])[0]
    feed(app, key("m"))
    feed(app, tap(app, "Papal Guard"), key("d"), *[key("6")] * order.dice, key("return"))
    attacked = rules.apply(declared(start, ["papal_guard/1"]), order.event([6] * order.dice))
    assert game.events() == [{"type": "declare_move", "adjacent": ["papal_guard/1"]}, order.event([6] * order.dice)]
    assert app.form is not None and app.form.name == "move"  # the last attack resolved: the Hero moves
    feed(app, key("2"), key("return"), key("return"))
    assert app.game.state == rules.apply(attacked, {"type": "spend_ap", "action": "move", "ap": 2})
    assert labels(app)[0] == "Move" and app.machine.current.advice is None  # type: ignore[attr-defined]
    feed(app, key("u"))  # the Move is taken back: the round is shown again, its attack resolved
    assert app.game.state == attacked and advice(app).side == "reaction" and labels(app)[0] == "Move"
    feed(app, key("u"))  # the attack is taken back: it waits for its dice again
    assert app.game.state == declared(start, ["papal_guard/1"]) and advice(app).attack == order
    feed(app, key("u"))  # the declaration: who is adjacent is asked again
    assert app.game.state == start and advice(app).question is not None and labels(app)[0] == "Nobody"
    feed(app, key("u"))  # the question (nothing journaled): the hero's menu
    assert app.game.state == start and labels(app)[0] == "Move" and not app.asking
    feed(app, key("y"))  # redo brings the declaration back, its attack owed
    assert app.game.state == declared(start, ["papal_guard/1"]) and advice(app).attack == order
    app.close()


def test_the_encoder_answers_who_is_adjacent() -> None:
    app = make_app()
    start = app.game.state
    # press on Move: who is adjacent; hold: back to the hero's menu, nothing journaled
    play(app, encoder("confirm"))
    assert advice(app).question is not None
    play(app, encoder("back"))
    assert labels(app)[0] == "Move" and app.game.state == start
    # press on Move; the focus is on Nobody: turn once to the first model; press
    play(app, encoder("confirm"), encoder("turn", 1), encoder("confirm"))
    question = reaction_question(start, "valerio")
    first = next(o for o in question.options if o != "none")
    assert app.game.state == declared(start, [first]) and advice(app).attack == orders(start, [first])[0]


def test_a_perilium_knob_turned_while_who_is_adjacent_is_asked_leaves_the_question_open() -> None:
    """Another player's Threat knob on the board (docs/ui.md: only undo, Back or a hold drop the question)."""
    from assistant.ui.inputs import KNOB

    app = make_app()
    play(app, encoder("confirm"))  # press on Move: who is adjacent?
    asked = labels(app)
    assert app.asking and asked[0] == "Nobody"
    play(app, pygame.event.Event(KNOB, hero=1, delta=1))
    assert app.game.state.heroes[1].threat == 1
    assert app.asking and labels(app) == asked


def test_dice_from_the_camera_open_the_awaited_defence_roll() -> None:
    app = make_app()
    start = app.game.state
    play(app, key("m"))
    play(app, tap(app, "Papal Guard"))
    order = orders(start, ["papal_guard/1"])[0]
    read = [5, 5, 2, 8][: order.dice]
    pygame.event.clear()
    reader = threading.Thread(target=post_dice, args=(Reading(read),))  # the dice reader's own thread
    reader.start()
    reader.join()
    app.running = True
    app.pump()  # one pass of the real loop: the reading opens the defence form, filled
    assert app.form is not None and app.form.name == "reaction_defence" and app.form.value("dice") == read
    apply = next(hit for hit in app.hits if hit.target[0] == "stop" and hit.target[1].is_apply)
    play(app, click(apply.rect.center))
    assert app.game.state == rules.apply(declared(start, ["papal_guard/1"]), order.event(read))
