"""Feedback for every change: Undo said nothing of what it took back, a forced Wait or an Injury drawn left no word
once an Enemy activated, ending an activation with AP left gave no warning, a tap swallowed as the camera's dice
came gave no sign."""

from __future__ import annotations

import pygame

from assistant.ui.form import Reading
from assistant.ui.inputs import post_dice
from tests.ui.conftest import click, key, make_app, play


def log_texts(app: object) -> list[str]:
    app.draw()  # type: ignore[attr-defined]
    return [line.text for line in app.machine.current.told[0]]  # type: ignore[attr-defined]


def test_undo_and_redo_say_what_they_took_back_and_did_again() -> None:
    app = make_app()
    play(app, key("a"), key("8"), key("8"), key("6"), key("1"), key("return"))  # Valerio attacks the Papal Guard
    attack = app.game.state.notes[0]
    assert attack.startswith("Valerio attacks Papal Guard")
    play(app, key("u"))
    assert app.said == [f"Undone: {attack}"] and log_texts(app)[-1] == f"Undone: {attack}"
    play(app, key("y"))
    assert app.said == [f"Redone: {attack}"]


def test_a_forced_wait_is_said_when_an_enemy_activates_next() -> None:
    app = make_app()
    play(app, key("e"))  # Valerio ends with 5 AP: must Wait to an Enemy token; Sofia is next
    app.draw()
    end = next(item for item in app.machine.current.items if item.label == "End activation")  # type: ignore[attr-defined]
    assert end.detail == "6 AP unspent"  # Sofia's, said on the button before it is pressed
    for _ in range(6):  # the heroes end at once, until an Enemy activates just after a forced Wait
        play(app, key("e"))
        state = app.game.state
        if state.active in [g.id for g in state.groups] and any("must Wait" in note for note in state.notes):
            break
    waited = next(note for note in state.notes if "must Wait" in note)  # why the token jumped, still in sight
    assert waited in log_texts(app) and app.machine.current.advice.side == "enemy"  # type: ignore[attr-defined]


def test_a_tap_dropped_as_the_camera_s_dice_came_is_said() -> None:
    app = make_app()
    play(app, key("a"))
    app.draw()
    apply = next(hit.rect for hit in app.hits if hit.target[0] == "stop" and hit.target[1].field == -1)
    app.running = True
    pygame.event.clear()
    post_dice(Reading([5, 2, 7, 1]))
    pygame.event.post(click(apply.center))
    app.pump()
    assert app.form is not None and app.game.state.count == 0  # not applied: the dice were not seen
    assert app.said and "tap again" in app.said[-1]
