"""Hunt missions on the panel: the Prey's current Action Card and the cards left; the Hunt's end in words."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from assistant.rules import game as rules
from assistant.ui import theme
from assistant.ui.action_forms import enemy_attack_form
from assistant.ui.app import App
from assistant.ui.mission_panel import prey_words
from assistant.ui.table import MemoryGame
from assistant.rules.instructions import plan
from tests.ui.conftest import key, make_app, play
from tests.ui.missions import mission
from assistant.ui.panel import read_size
from tests.ui.pixels import find_text
from tests.ui.test_enemy_turn import answer_first
from tests.ui.test_reactions import advice, tap


READ = 0  # as a size: the least the table reads (`panel.read_size`)


def shows(app: App, words: str, size: float, color: tuple[int, int, int], area: pygame.Rect | None = None) -> bool:
    app.draw()
    points = read_size(app.layout, app.fonts) if size == READ else app.layout.px(size)
    return find_text(app.surface, area or app.layout.panel, words, points, color, app.fonts) is not None


def test_the_prey_card_and_the_cards_left_follow_the_deck(shots: Path) -> None:
    app = make_app(game=MemoryGame(mission("hunt")))
    state = app.game.state
    deck = state.scenario.prey.deck  # type: ignore[union-attr]
    assert state.active == "boar" and state.prey_drawn == 1
    words = prey_words(state)
    assert words == f"card 1 ({deck[0].ap} AP) · {len(deck) - 1} left"
    assert shows(app, words, READ, theme.TEXT)
    pygame.image.save(app.surface, shots / "hunt-800x480.png")
    assert app.fonts.squeezed == []
    # play on (E ends each activation) until the Prey draws its second card: the row follows
    for _ in range(8):
        if app.game.state.prey_drawn == 2:
            break
        play(app, key("e"))
    state = app.game.state
    assert state.prey_drawn == 2 and state.active == "boar"
    assert shows(app, f"card 2 ({deck[1].ap} AP) · {len(deck) - 2} left", READ, theme.TEXT)
    assert not shows(app, words, READ, theme.TEXT)  # the first card's line is gone


def test_the_hunt_ends_when_the_prey_has_no_card_left() -> None:
    app = make_app(game=MemoryGame(mission("hunt")))
    for _ in range(40):
        if app.game.state.over is not None:
            break
        if plan(app.game.state).question is not None:  # the Prey's AI asks first: End is offered once it is answered
            answer_first(app)
        else:
            play(app, key("e"))
    state = app.game.state
    assert state.over == "defeat: the Prey has no Action Card left"
    assert shows(app, "Defeat", 36, theme.DANGER)  # the header's title
    assert shows(app, "No Prey Action Card left", READ, theme.TEXT, app.layout.dial)  # the banner
    assert app.fonts.squeezed == []


def test_the_hunt_is_won_when_the_prey_is_defeated() -> None:
    app = make_app(game=MemoryGame(mission("hunt")))
    start = app.game.state
    health = start.scenario.enemy("boar").health
    assert app.act({"type": "damage", "group": "boar", "model": 1, "wounds": health})
    assert app.game.state == rules.apply(start, {"type": "damage", "group": "boar", "model": 1, "wounds": health})
    assert app.game.state.over == "victory: the Prey is defeated"
    assert shows(app, "Victory", 36, theme.GOOD)
    assert shows(app, "The Prey is defeated", READ, theme.TEXT, app.layout.dial)
    assert app.fonts.squeezed == []


@pytest.mark.parametrize("result", ["victory", "defeat"])
def test_a_mission_ended_by_its_cards_says_so(result: str) -> None:
    app = make_app(game=MemoryGame(mission("hunt")))
    start = app.game.state
    play(app, key("f"))
    options = [value for value, _ in app.form.get("what").options]  # type: ignore[union-attr]
    play(app, key(str(options.index(result) + 1)), key("return"), key("return"))
    assert app.game.state == rules.apply(start, {"type": "end_mission", "result": result})
    assert shows(app, result.capitalize(), 36, theme.GOOD if result == "victory" else theme.DANGER)
    assert shows(app, "As the mission cards say", READ, theme.TEXT, app.layout.dial)


def test_the_defence_roll_against_the_prey_card_s_own_attack_is_resolved() -> None:
    """Card 2 charges with its own attack ("Charge", not the boar's "Tusks"): the Defence roll the screen offers lands."""
    app = make_app(game=MemoryGame(mission("hunt")))
    for _ in range(8):
        if app.game.state.prey_drawn == 2:
            break
        play(app, key("e"))
    question = plan(app.game.state).question
    assert app.game.state.active == "boar" and question is not None and question.kind == "farthest"
    assert app.act({"type": "ai_answer", "question": question.key, "answer": question.options[0]})
    order = advice(app).attack
    assert order is not None and order.attack == "Charge" and order.hits == 2
    before = app.game.state
    play(app, tap(app, "Defence roll"), *(key("8") for _ in range(order.dice)), key("return"))
    assert app.form is None and app.error == ""
    assert app.game.state == rules.apply(before, order.event([8] * order.dice))
    assert app.game.state.hero(order.hero).wounds == before.hero(order.hero).wounds  # both hits cancelled


def test_other_attack_offers_the_prey_card_s_attack_while_it_holds_the_card() -> None:
    app = make_app(game=MemoryGame(mission("hunt")))
    first = [words for _, words in enemy_attack_form(app.game.state).get("attack").options]  # type: ignore[union-attr]
    for _ in range(8):
        if app.game.state.prey_drawn == 2:
            break
        play(app, key("e"))
    second = [value for value, _ in enemy_attack_form(app.game.state).get("attack").options]  # type: ignore[union-attr]
    assert first == ["Great Boar"] and second == [("boar", "Tusks"), ("boar", "Charge")]
