"""Dice entry at the table: number keys only ever set dice, never another field of the form."""

from __future__ import annotations

from tests.ui.conftest import key, make_app, play


def test_number_keys_typed_with_the_focus_on_the_target_set_the_dice_not_the_target() -> None:
    app = make_app()
    play(app, key("a"))  # the attack form opens with the focus on Target
    assert app.form is not None and app.form.focus.field == 0
    target = app.form.value("target")
    play(app, key("6"), key("5"), key("6"), key("2"))
    assert app.form.value("target") == target
    assert app.form.value("dice") == [6, 5, 6, 2]
