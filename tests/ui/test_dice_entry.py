"""Dice entry at the table: number keys only ever set dice, never another field of the form."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame

from assistant.ui import panel
from assistant.ui.form import Stop
from tests.ui.conftest import click, key, make_app, play


def drawn_words(app: Any) -> list[tuple[str, Any]]:
    """The form's message as drawn (a refusal, or what Apply would do) by the next draw."""
    said: list[tuple[str, Any]] = []
    real = panel.form_message

    def recording(text: str, *rest: Any, **colour: Any) -> Any:
        said.append((text, colour))
        return real(text, *rest, **colour)

    panel.form_message = recording  # type: ignore[assignment]
    try:
        app.draw()
    finally:
        panel.form_message = real
    return said


def test_number_keys_typed_with_the_focus_on_the_target_set_the_dice_not_the_target() -> None:
    app = make_app()
    play(app, key("a"))  # the attack form opens with the focus on Target
    assert app.form is not None and app.form.focus.field == 0
    target = app.form.value("target")
    play(app, key("6"), key("5"), key("6"), key("2"))
    assert app.form.value("target") == target
    assert app.form.value("dice") == [6, 5, 6, 2]


def test_a_tap_on_a_die_opens_its_faces_and_a_tap_on_a_face_sets_it(shots: Path) -> None:
    """Each tap raised a die by one from "?": a 6 took six taps, four d8 up to 32. Now a tap on a die, then one a
    face: four d8 in five taps. The picker goes on to the next die, and closes after the last."""
    for size in ((800, 480), (720, 1280)):
        app = make_app(size)
        play(app, key("a"))
        assert app.form is not None and app.form.value("dice") == [None] * 4
        app.draw()
        first = next(hit.rect for hit in app.hits if hit.target[0] == "stop" and hit.target[1] == Stop(6, 0))
        taps = 1
        play(app, click(first.center))
        app.draw()
        pygame.image.save(app.surface, shots / f"dice-picker-{size[0]}x{size[1]}.png")
        for face in (6, 5, 6, 2):
            faces = {hit.target[1]: hit.rect for hit in app.hits if hit.target[0] == "face"}
            assert sorted(faces) == list(range(1, 9)) and all(r.height >= app.layout.px(44) for r in faces.values())
            play(app, click(faces[face].center))
            taps += 1
            app.draw()
        assert app.form.value("dice") == [6, 5, 6, 2] and taps == 5
        assert not any(hit.target[0] == "face" for hit in app.hits)  # closed after the last die
        assert app.fonts.squeezed == []


def test_up_raises_a_die_and_down_lowers_it() -> None:
    """With the keys, Up from "?" gave the top face and Up lowered a value."""
    app = make_app()
    play(app, key("a"), *[key("return")] * 4)  # past Target, Attack, Cost and Dice: the first die
    assert app.form is not None and app.form.focus == Stop(6, 0)
    play(app, key("up"))
    assert app.form.value("dice")[0] == 1
    play(app, key("up"), key("up"))
    assert app.form.value("dice")[0] == 3
    play(app, key("down"))
    assert app.form.value("dice")[0] == 2


def test_what_the_roll_does_is_said_before_apply() -> None:
    """Successes and what they cause, live, before Apply: the rules' words for the event the form would make."""
    app = make_app()
    play(app, key("a"), key("8"), key("8"), key("6"))
    app.draw()
    assert not any("successes" in words for words, _ in drawn_words(app))  # a die still "?": nothing said yet
    play(app, key("1"))
    assert app.form is not None and app.form.value("dice") == [8, 8, 6, 1]
    words = [text for text, _ in drawn_words(app)]
    said = next(text for text in words if text.startswith("Valerio attacks Papal Guard: "))
    assert "successes" in said and "wound" in said and app.game.state.turn is not None and app.game.state.turn.ap_left == 5
