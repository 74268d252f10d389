"""The AI's open choices (Eclectic's attack, which model acts next) drawn as overridable and overridden from the screen."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from assistant.rules import game as rules
from assistant.rules.instructions import plan
from assistant.rules.state import GameState
from assistant.ui import theme
from assistant.ui.app import App
from assistant.ui.table import MemoryGame
from tests.ui.conftest import click, key, make_app, play
from tests.ui.missions import mission
from tests.ui.test_reactions import encoder, labels, tap
from tests.ui.test_render import count


def to_the_attack(size: tuple[int, int] = (800, 480)) -> App:
    """The duellists' first model goes for Ada (in its Control Area) and must move 1 square: the AI picks the Pistol."""
    app = make_app(size, MemoryGame(mission("eclectic")))
    play(app, tap(app, "Yes"))
    play(app, tap(app, "1"))
    made = plan(app.game.state)
    assert made.attack is not None and made.attack.attack == "Pistol"
    return app


def other(state: GameState, key_: str) -> tuple[str, str]:
    """The open choice `key_` as the AI made it, and another of its options."""
    choice = next(q for q in plan(state).choices if q.key == key_)
    assert choice.default is not None
    return choice.default[0], next(o for o in choice.options if o != choice.default[0])


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_an_ai_choice_is_drawn_as_tappable_and_a_tap_overrides_it(size: tuple[int, int], shots: Path) -> None:
    app = to_the_attack(size)
    before = app.game.state
    app.draw()
    pygame.image.save(app.surface, shots / f"ai-choice-{size[0]}x{size[1]}.png")
    assert app.fonts.squeezed == []
    marked = [hit for hit in app.hits if hit.target[0] == "choice"]
    assert {hit.target[1] for hit in marked} <= {q.key for q in plan(before).choices}
    attack_line = max(marked, key=lambda hit: hit.rect.top)  # the newest, lowest: the attack with the Pistol
    assert attack_line.target[1] == "duellists/1:attack"
    assert count(app.surface, attack_line.rect, theme.CHOICE) > 150 * app.layout.unit**2  # written in the choice colour
    bar = pygame.Rect(attack_line.rect.left - app.layout.px(10), attack_line.rect.centery - attack_line.rect.height // 4, app.layout.px(4),
                      attack_line.rect.height // 2)  # fmt: skip
    assert count(app.surface, bar, theme.CHOICE) >= bar.width * bar.height * 0.9  # with its bar
    chosen, another = other(before, "duellists/1:attack")
    assert "Change choice" in labels(app)
    play(app, click(attack_line.rect.center))
    assert app.form is not None and app.form.name == "ai_choice"
    assert app.form.value("which") == "duellists/1:attack" and app.form.value("answer") == chosen
    assert app.form.note.startswith("Which attack does Duellists 1 make? The AI chose Pistol. Two attacks (Eclectic): ")
    app.draw()
    pygame.image.save(app.surface, shots / f"ai-choice-form-{size[0]}x{size[1]}.png")
    assert app.fonts.squeezed == []
    play(app, key("right"), key("return"), key("return"))
    event = {"type": "ai_answer", "question": "duellists/1:attack", "answer": another}
    assert app.game.state == rules.apply(before, event)
    asked = plan(app.game.state).question
    assert asked is not None and asked.attack == another  # the AI goes on with the table's choice: how far for it
    play(app, key("u"))
    assert app.game.state == before


def test_which_model_acts_next_is_overridden_with_the_encoder() -> None:
    app = to_the_attack()
    before = app.game.state
    chosen, another = other(before, "duellists:next1")
    assert (chosen, another) == ("1", "2")  # the AI takes the lowest number (docs/ai.md 9)
    # C opens the latest choice; hold goes back to the Decision field; turn to "Who acts next"
    play(app, key("c"))
    assert app.form is not None and app.form.value("which") == "duellists/1:attack"
    play(app, encoder("back"), encoder("turn", 1))
    assert app.form.value("which") == "duellists:next1" and app.form.value("answer") == "1"
    assert [words for _, words in app.form.get("answer").options] == ["Duellists 1", "Duellists 2"]  # type: ignore[union-attr]
    play(app, encoder("confirm"), encoder("turn", 1), encoder("confirm"), encoder("confirm"))
    state = app.game.state
    assert state == rules.apply(before, {"type": "ai_answer", "question": "duellists:next1", "answer": another})
    asked = plan(state).question
    assert asked is not None and asked.model == "duellists/2"  # the AI now starts with the second duellist
