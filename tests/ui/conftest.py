"""The UI tests draw for real with SDL's dummy video driver (set here, before pygame starts)."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from collections.abc import Iterator  # noqa: E402
from pathlib import Path  # noqa: E402

import pygame  # noqa: E402
import pytest  # noqa: E402

from assistant.ui.app import App  # noqa: E402
from assistant.ui.form import Choice, Form  # noqa: E402
from assistant.ui.inputs import Action, translate  # noqa: E402
from assistant.ui.table import MemoryGame  # noqa: E402
from tests.ui.demo import demo_scenario  # noqa: E402

SHOTS = Path(__file__).resolve().parent / "screenshots"


@pytest.fixture(scope="session", autouse=True)
def display() -> Iterator[None]:
    pygame.display.init()
    pygame.font.init()
    yield
    pygame.quit()


@pytest.fixture
def shots() -> Path:
    """Where the tests save what they drew (tests/ui/screenshots, ignored by git)."""
    SHOTS.mkdir(exist_ok=True)
    return SHOTS


def make_app(size: tuple[int, int] = (800, 480), game: MemoryGame | None = None) -> App:
    """An app on a real display surface of `size` (dummy driver), playing the demo in memory."""
    surface = pygame.display.set_mode(size)
    pygame.event.clear()
    return App(game or MemoryGame(demo_scenario()), surface, log=lambda message: None)


def play(app: App, *events: pygame.event.Event) -> App:
    """Post `events` into pygame's queue, then a QUIT, and run the app's real loop until it closes."""
    pygame.event.clear()
    for event in events:
        pygame.event.post(event)
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    app.run()
    return app


def key(name: str, mod: int = 0) -> pygame.event.Event:
    code = pygame.key.key_code(name)
    return pygame.event.Event(pygame.KEYDOWN, key=code, mod=mod, unicode=name if len(name) == 1 else "", scancode=0)


def click(pos: tuple[int, int]) -> pygame.event.Event:
    return pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=pos, touch=False)


def feed(app: App, *events: pygame.event.Event) -> App:
    """Post `events` and run the real loop's passes over them, leaving the app (and its saved game) open."""
    app.running = True
    pygame.event.clear()
    for event in events:
        pygame.event.post(event)
    app.pump()
    return app


def choice(form: Form, key: str) -> Choice:
    """The field `key` of `form`, a Choice."""
    field = form.get(key)
    assert isinstance(field, Choice), field
    return field


def action(event: pygame.event.Event) -> Action:
    """The Action of `event`, which has one."""
    done = translate(event)
    assert done is not None, event
    return done
