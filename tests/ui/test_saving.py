"""The table on a state file that stops taking writes mid-game (the card remounted read-only): it says so and plays on."""

from __future__ import annotations

from pathlib import Path

from assistant.ui.table import open_saved_game
from tests.ui.conftest import feed, key, make_app


def test_a_card_gone_read_only_refuses_each_change_on_screen_and_loses_nothing(tmp_path: Path, shots: Path) -> None:
    """SQLite's query_only stands in for the card: ending an activation and undoing are refused with the
    file's name on the screen, the game stays as it was, and once the card takes writes again both work."""
    path = tmp_path / "table.db"
    game = open_saved_game(path, None, new=False)
    app = make_app(game=game)  # type: ignore[arg-type]
    assert app.act({"type": "end_activation"})
    before = app.game.state
    game._file.db.execute("PRAGMA query_only = ON")
    assert not app.act({"type": "end_activation"})
    assert str(path) in app.error and "read-only" in app.error and app.game.state == before
    app.error = ""
    feed(app, key("u"))  # undo
    assert app.running and str(path) in app.error and app.game.state == before
    app.fonts.squeezed.clear()
    app.screenshot(str(shots / "read_only_card.png"))
    assert app.fonts.squeezed == []  # the refusal is whole: the buttons give up height for it (it lost its end)
    game._file.db.execute("PRAGMA query_only = OFF")
    assert app.act({"type": "end_activation"}) and app.game.state.count == 2
    feed(app, key("u"))
    assert app.game.state.count == 1 and not app.error
    app.close()
    reopened = open_saved_game(path, None, new=False)
    assert reopened.state.count == 1 and reopened.state == before
    reopened.close()


def test_a_game_changed_by_another_process_is_shown_before_a_tap_is_taken(tmp_path: Path) -> None:
    """`nova-table session apply` ends Valerio's activation while the table shows his menu: the screen is
    drawn anew at once, and a tap aimed at his Attack button is not taken for Sofia's."""
    from assistant.session.games import StateFile
    from tests.ui.conftest import click

    path = tmp_path / "table.db"
    app = make_app(game=open_saved_game(path, None, new=False))  # type: ignore[arg-type]
    app.draw()
    labels = [item.label for item in app.machine.current.items]  # type: ignore[attr-defined]
    attack = next(hit.rect for hit in app.hits if hit.target == ("item", labels.index("Attack")))
    before, frames = app.game.state, app.frames
    with StateFile(path) as other:
        other.journal().append({"type": "end_activation"})
    feed(app, click(attack.center))
    assert app.form is None and app.frames == frames + 1  # drawn anew, the tap not taken
    assert app.game.state != before and app.game.state.active != before.active
    feed(app, click(attack.center))  # the tap made on what is shown now
    assert app.form is not None and app.form.title.startswith(app.game.state.hero_spec(app.game.state.active).name)
    app.close()


def test_a_form_open_when_another_process_changes_the_game_is_closed(tmp_path: Path) -> None:
    """Valerio's attack form is open when `session apply` ends his activation: applied now it would attack for Sofia."""
    from assistant.session.games import StateFile

    path = tmp_path / "table.db"
    app = make_app(game=open_saved_game(path, None, new=False))  # type: ignore[arg-type]
    feed(app, key("a"))
    assert app.form is not None and app.form.title == "Valerio attacks"
    with StateFile(path) as other:
        other.journal().append({"type": "end_activation"})
    feed(app, key("return"))  # the Enter that would have gone on in the form: the form is gone first
    assert app.form is None and app.machine.current.name == "table" and app.game.state.active == "sofia"
    assert app.error == "The game was changed elsewhere: the form is closed"
    assert app.game.state.count == 1  # nothing applied for Sofia
    app.close()


def test_a_game_deleted_by_another_process_is_said_on_the_screen_and_the_table_goes_on(tmp_path: Path) -> None:
    """`nova-table session delete` of the game on the table: `play` ended in a NoSuchGame traceback. Now the
    screen says so over the last state read, and a change is refused with the same words."""
    from assistant.session.games import StateFile

    path = tmp_path / "table.db"
    app = make_app(game=open_saved_game(path, None, new=False))  # type: ignore[arg-type]
    assert app.act({"type": "end_activation"})
    shown = app.game.state
    with StateFile(path) as other:
        other.delete(None)
    feed(app, key("u"))  # undo: the table reads the game to draw, then is asked for a change
    assert app.running and app.game.state == shown
    assert "no game 1 in this state file" in app.error, app.error
    app.draw()
    assert not app.act({"type": "end_activation"}) and "no game 1" in app.error
    app.pump()
    assert app.error == "no game 1 in this state file: the game shown is the last one read, and nothing more is saved"
    app.close()


def test_a_refusal_on_the_screen_says_why_without_the_event_s_field_or_ids() -> None:
    """It said "Refused: hero: 'sofia' has no wound to discard": the event's field and the hero's id, which the
    command line wants and the table does not. Both games, in memory and saved, say it the same way."""
    import tempfile

    from assistant.ui.table import MemoryGame, demo_path, load_scenario

    with tempfile.TemporaryDirectory() as folder:
        for game in (MemoryGame(load_scenario(demo_path())), open_saved_game(Path(folder) / "table.db", None, new=False)):
            app = make_app(game=game)  # type: ignore[arg-type]
            assert not app.act({"type": "heal", "hero": "sofia", "wounds": 1})
            assert app.error == "Refused: Sofia has no wound to discard", app.error
            app.close()
