"""The Enemy Draft from the screen: an event's Draft (the cards drawn from its deck) and one a mission card calls for (Fix)."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from assistant.rules import game as rules
from assistant.rules.draft import available, draft_deck
from assistant.rules.horologium import step
from assistant.ui import theme
from assistant.ui.app import App
from assistant.ui.dial import draw_dial
from assistant.ui.table import MemoryGame
from assistant.ui.theme import Fonts
from tests.ui.conftest import key, make_app, play
from tests.ui.missions import mission
from tests.ui.test_reactions import advice, labels


def placed_tokens(app: App) -> dict[str, tuple[tuple[int, int], tuple[int, int, int]]]:
    """The tokens drawn on the dial now: id -> (centre, colour), with the colour checked on the pixels."""
    surface = pygame.Surface(app.surface.get_size())
    surface.fill(theme.BACKGROUND)
    out = {}
    for token in draw_dial(surface, app.layout.dial, app.game.state, Fonts()):
        corner = (token.center[0] - token.radius * 3 // 4, token.center[1] + token.radius // 2)
        assert tuple(surface.get_at(corner)[:3]) == token.color, f"{token.id} is not drawn in its colour"
        out[token.id] = (token.center, token.color)
    return out


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_an_events_draft_places_the_cards_drawn_and_their_tokens(size: tuple[int, int], shots: Path) -> None:
    app = make_app(size, MemoryGame(mission("draft")))
    start = app.game.state
    order = start.scenario.events[0].draft
    assert start.due == ("bells",) and order is not None
    assert labels(app)[:2] == ["Enemy Draft", "Resolve event"]
    assert any(text.startswith("Enemy Draft:") for text in advice(app).steps)  # the plan's instruction is shown
    app.draw()
    pygame.image.save(app.surface, shots / f"draft-event-{size[0]}x{size[1]}.png")
    assert app.fonts.squeezed == []
    # G: the form offers the deck the event calls for, the cards with models left first
    play(app, key("g"))
    assert app.form is not None and app.form.name == "draft"
    deck = draft_deck(start, order)
    offered = [value for value, _ in app.form.get("card1").options]  # type: ignore[union-attr]
    assert sorted(offered) == sorted(c.id for c in deck)
    assert [available(start, start.scenario.enemy(c)) > 0 for c in offered] == sorted(
        (available(start, c) > 0 for c in deck), reverse=True)  # fmt: skip
    app.draw()
    pygame.image.save(app.surface, shots / f"draft-form-{size[0]}x{size[1]}.png")
    assert app.fonts.squeezed == []
    # the table drew the Lancers (2 models for 3 squares): a second card is asked, by default another card;
    # it drew the Crossbowmen
    assert app.form.value("card1") == "lancers" and app.form.value("card2") == "crossbows"
    assert [f.key for _, f in app.form.visible()] == ["card1", "card2"]
    play(app, key("return"), key("return"), key("return"))
    event = {"type": "draft", "event": "bells", "cards": ["lancers", "crossbows"]}
    after = rules.apply(start, event)
    assert app.game.state == after
    assert after.group("lancers").standing == (1, 2) and after.group("crossbows").standing == (1,)
    tokens = placed_tokens(app)
    sector = step(start.clock.minute, 1)
    for new in ("lancers", "crossbows"):
        assert after.token(new).sector == sector and new in tokens
        assert tokens[new][1] not in (theme.MUTED, theme.EVENT)  # a group's own colour
    assert tokens["lancers"][1] != tokens["crossbows"][1]
    assert labels(app)[0] == "Resolve event" and "Enemy Draft" not in labels(app)  # drafted: not offered again
    play(app, key("u"))
    assert app.game.state == start and labels(app)[0] == "Enemy Draft"
    play(app, key("y"), key("r"))  # redo the Draft; then the event is resolved
    assert app.game.state == rules.apply(after, {"type": "resolve_event", "event": "bells"})


def test_one_card_that_fills_the_squares_asks_no_second_card() -> None:
    app = make_app(game=MemoryGame(mission("draft")))
    start = app.game.state
    play(app, key("g"))
    assert app.form is not None
    # turn Card 1 to the Crossbowmen: 3 models for 3 squares, so Card 2 goes away; Enter is then Apply
    while app.form.value("card1") != "crossbows":
        play(app, key("right"))
    assert [f.key for _, f in app.form.visible()] == ["card1"]
    play(app, key("return"), key("return"))
    assert app.game.state == rules.apply(start, {"type": "draft", "event": "bells", "cards": ["crossbows"]})


def test_a_draft_a_mission_card_calls_for_is_made_from_fix() -> None:
    game = MemoryGame(mission("draft"))
    game.apply({"type": "resolve_event", "event": "bells"})
    app = make_app(game=game)
    start = app.game.state
    assert start.active == "ada"
    # Fix; Change: Enemy Draft (option 7, typed); Squares 2; Card 1 (Lancers: 2 models, no Card 2); the sector
    play(app, key("f"), key("7"))
    assert app.form is not None and app.form.value("what") == "draft"
    play(app, key("return"), key("2"), key("return"))
    assert app.form.value("card1") == "lancers" and "card2" not in [f.key for _, f in app.form.visible()]
    play(app, key("return"), key("right"), key("return"), key("return"))
    sector = step(start.clock.minute, 2)
    event = {"type": "draft", "cards": ["lancers"], "squares": 2, "sector": sector}
    assert app.game.state == rules.apply(start, event)
    assert app.game.state.token("lancers").sector == sector and "lancers" in placed_tokens(app)
