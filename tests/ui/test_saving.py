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
    app.screenshot(str(shots / "read_only_card.png"))
    game._file.db.execute("PRAGMA query_only = OFF")
    assert app.act({"type": "end_activation"}) and app.game.state.count == 2
    feed(app, key("u"))
    assert app.game.state.count == 1 and not app.error
    app.close()
    reopened = open_saved_game(path, None, new=False)
    assert reopened.state.count == 1 and reopened.state == before
    reopened.close()
