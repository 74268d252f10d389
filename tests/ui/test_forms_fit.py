"""The forms added for the Enemy AI and the mission rules fit at 800x480 and 720x1280 with no label cut."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pygame
import pytest

from assistant.ui.app import App
from assistant.ui.form import APPLY, Choice
from assistant.ui.table import MemoryGame
from tests.ui.conftest import feed, key, make_app, play
from tests.ui.missions import mission
from tests.ui.test_choices import to_the_attack
from tests.ui.test_reactions import tap


def several(app: App) -> None:
    play(app, key("m"), key("s"))


def reaction(app: App) -> None:
    play(app, key("m"))
    play(app, tap(app, "Venetian Alchemist"), key("d"))


def stealth(app: App) -> None:
    play(app, key("s"))


def draft(app: App) -> None:
    play(app, key("g"))


def fix_draft(app: App) -> None:
    play(app, key("f"), key("7"), key("return"), key("5"))  # Enemy Draft, 5 squares: up to 3 cards shown


def choice(app: App) -> None:
    play(app, key("c"))


CASES: dict[str, tuple[str, Callable[[App], None]]] = {
    "react_several": ("demo", several),
    "reaction_defence": ("demo", reaction),
    "stealth": ("stealth", stealth),
    "draft": ("draft", draft),
    "fix": ("draft", fix_draft),
    "ai_choice": ("eclectic", choice),
}


@pytest.mark.parametrize("name", list(CASES))
@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_the_form_fits(name: str, size: tuple[int, int], shots: Path) -> None:
    scenario, open_it = CASES[name]
    if scenario == "eclectic":
        app = to_the_attack(size)
    elif scenario == "demo":
        app = make_app(size)
    else:
        app = make_app(size, MemoryGame(mission(scenario)))
    open_it(app)
    assert app.form is not None and app.form.name == name
    app.fonts.squeezed.clear()
    app.draw()
    pygame.image.save(app.surface, shots / f"form-{name}-{size[0]}x{size[1]}.png")
    assert app.fonts.squeezed == [], f"cut to fit: {app.fonts.squeezed}"
    screen = pygame.Rect(0, 0, *size)
    assert all(screen.contains(hit.rect) and not hit.rect.colliderect(app.layout.dial) for hit in app.hits)
    tops = sorted(hit.rect.top for hit in app.hits if hit.target[0] == "stop")
    assert tops and tops[0] >= app.layout.panel.top  # no field drawn over the title


@pytest.mark.parametrize("size", [(800, 480), (480, 800), (720, 1280), (480, 320)])
def test_every_row_of_the_longest_form_lies_above_its_buttons_and_back_is_back(size: tuple[int, int]) -> None:
    """The psychic attack form (7 rows) on a small portrait screen too: rows shrink rather than slide under
    Back and Attack, so a tap on Back goes back and never sets a die drawn beneath it."""
    app = make_app(size)
    feed(app, key("a"), key("return"), key("right"))  # the attack form, its Attack row turned to Psychic
    assert app.form is not None and len(app.form.visible()) == 7
    back = next(hit.rect for hit in app.hits if hit.target[0] == "back")
    rows = [hit.rect for hit in app.hits if hit.target[0] == "stop" and hit.rect.top < back.top]
    assert rows and all(rect.bottom <= back.top for rect in rows)
    assert not any(hit.rect.colliderect(back) for hit in app.hits if hit.target[0] == "stop" and hit.target[1] != APPLY)
    feed(app, pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=back.center, touch=False))
    assert app.form is None


@pytest.mark.parametrize("size", [(800, 480), (1024, 600), (1280, 800), (720, 1280)])
def test_every_enemy_of_the_demo_is_named_whole_as_an_attacks_target(size: tuple[int, int]) -> None:
    """The Target row is as wide as its label lets it be: "Venetian Alchemist" was cut to "Venetian Alche…"."""
    app = make_app(size)
    feed(app, key("a"))
    assert app.form is not None
    target = app.form.get("target")
    assert isinstance(target, Choice)
    names = []
    for _ in range(len(target.options)):
        app.draw()
        names.append(target.words)
        feed(app, key("right"))
    assert "Venetian Alchemist" in names and app.fonts.squeezed == []  # (each text is fitted once, then kept)
