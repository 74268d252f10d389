"""First edition: while a model reacting to the Hero waits for an answer or a roll, the menu offers no End activation
(the rules refuse it: "Reaction", issue 49)."""

from __future__ import annotations

from assistant.ui.table import MemoryGame
from tests.ui.conftest import key, make_app, play
from tests.ui.missions import mission
from tests.ui.test_reactions import labels


def test_no_end_activation_while_an_overtaken_enemy_may_react() -> None:
    app = make_app(game=MemoryGame(mission("classic")))
    play(app, key("m"), key("3"), key("return"), key("return"))  # Ada's token overtakes the Guards'
    assert app.game.state.reactions == ("guards",)
    assert labels(app)[:2] == ["Yes", "No"] and "End activation" not in labels(app)
    assert not app.act({"type": "end_activation"})  # refused: the reaction is asked first
    assert app.game.state.active == "ada"
