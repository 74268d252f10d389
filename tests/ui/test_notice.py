"""A saved game that cannot be resumed: `play` says why on the screen and offers the ways on, where it ended at once
(under systemd, a black screen and the reason only in the journal)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import Any

import pygame
import pytest

from assistant.ui import display, notice
from assistant.ui.inputs import post_encoder
from assistant.ui.theme import Fonts
from tests.ui.conftest import click, key

DEMO = Path(__file__).resolve().parents[2] / "assistant" / "demo" / "skirmish.toml"
CHOICES = [("new", "Start again"), ("quit", "Quit")]
WHY = ("/home/pi/.local/share/nova-table/table.db: game 1: "
       "stored event 3 is damaged (its bytes no longer match their checksum: a byte changed on the card?)")


@pytest.fixture(autouse=True)
def pygame_again() -> Any:
    """`play` ends with pygame.quit(): the tests after these find pygame as tests/ui/conftest.py left it."""
    yield
    pygame.init()


@pytest.fixture
def surface() -> Any:
    pygame.display.init()
    pygame.font.init()
    yield pygame.display.set_mode((800, 480))
    pygame.display.quit()


def test_the_notice_is_answered_by_the_encoder_a_tap_or_a_key(surface: Any, shots: Path) -> None:
    fonts = Fonts()
    rects = notice.draw(surface, fonts, "The saved game cannot be resumed", WHY, CHOICES, 0)
    pygame.image.save(surface, shots / "notice-800x480.png")
    assert fonts.squeezed == [] and len(rects) == 2 and rects[0].bottom <= 480 and rects[0].width >= 300
    answers: list[tuple[list[Callable[[], object]], str | None]] = [
        ([lambda: post_encoder("confirm")], "new"),  # the focus starts on the first way on
        ([lambda: post_encoder("turn", 1), lambda: post_encoder("confirm")], "quit"),
        ([lambda: pygame.event.post(click(rects[1].center))], "quit"),
        ([lambda: pygame.event.post(key("s"))], "new"),  # the first letter of a button
        ([lambda: pygame.event.post(pygame.event.Event(pygame.QUIT))], None),
    ]
    for events, chosen in answers:
        pygame.event.clear()
        for post in events:
            post()
        assert notice.choose(surface, "The saved game cannot be resumed", WHY, CHOICES) == chosen


def damaged_game(path: Path) -> None:
    from assistant.session.games import StateFile

    with StateFile(path, create=True) as games:
        games.new_game(DEMO.read_text(encoding="utf-8"), str(DEMO))
        journal = games.journal()
        for _ in range(3):
            journal.append({"type": "end_activation"})
    with closing(sqlite3.connect(path)) as db:
        db.execute("UPDATE events SET body = '{\"type\": \"end_activatiom\"}' WHERE seq = 3")
        db.commit()


def test_play_on_a_damaged_game_shows_why_and_starts_the_mission_again_beside_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shots: Path) -> None:  # fmt: skip
    """As the Pi runs it (a screen someone sees: here the dummy driver under another name): the reason and the
    buttons wait for the players; Start again makes game 2 of the same mission, and game 1 stays as it was."""
    from assistant.cli import main

    state = tmp_path / "table.db"
    damaged_game(state)
    shown: list[str] = []
    real_open, real_choose = display.open_screen, notice.choose

    def seen(*args: Any, **kwargs: Any) -> display.Screen:
        opened = real_open(*args, **kwargs)
        return display.Screen(opened.surface, "KMSDRM", opened.fullscreen)

    def choose(surface: Any, title: str, message: str, choices: Any) -> str | None:
        shown.append(f"{title}: {message}")
        post_encoder("confirm")  # a press of the knob: Start again
        chosen = real_choose(surface, title, message, choices)
        pygame.image.save(surface, shots / "notice-damaged-game-800x480.png")
        pygame.event.post(pygame.event.Event(pygame.QUIT))  # then the table, closed at once
        return chosen

    monkeypatch.setattr(display, "open_screen", seen)
    monkeypatch.setattr(notice, "choose", choose)
    assert main(["play", "--state", str(state), "--no-encoder", "--board", "none"]) == 0
    assert len(shown) == 1 and shown[0].startswith(f"The saved game cannot be resumed: {state}: game 1: stored event 3 is damaged")
    with closing(sqlite3.connect(state)) as db:
        assert db.execute("SELECT id, head, scenario_source FROM games WHERE kind = 'mission' ORDER BY id").fetchall() == [
            (1, 3, str(DEMO)), (2, 0, str(DEMO))]
        assert db.execute("SELECT value FROM meta WHERE key = 'current_game'").fetchone() == ("2",)


def test_with_nobody_to_see_the_screen_play_ends_as_before(tmp_path: Path) -> None:
    """SDL's dummy driver (no display): a notice would wait for ever; `play` says why on stderr and exits 1."""
    from assistant.cli import main

    state = tmp_path / "table.db"
    damaged_game(state)
    assert main(["play", "--state", str(state), "--no-encoder", "--board", "none"]) == 1


@pytest.mark.parametrize("size", [(480, 320), (800, 480), (720, 1280)])
def test_the_whole_reason_fits_every_screen(size: tuple[int, int]) -> None:
    pygame.display.init()
    pygame.font.init()
    try:
        fonts = Fonts()
        long = (f"{WHY}; the journal was left as it is (`nova-table play --new` starts another game beside it; "
                "`nova-table session list` shows them all)\n\nStart again: this mission anew in the same file, where "
                "the damaged game stays (nova-table session list).")  # fmt: skip
        rects = notice.draw(pygame.Surface(size), fonts, "The saved game cannot be resumed", long, CHOICES, 1)
        assert fonts.squeezed == [] and all(rect.bottom <= size[1] for rect in rects), (size, fonts.squeezed)
    finally:
        pygame.display.quit()


def test_the_encoder_answers_the_notice_and_then_drives_the_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    """At the Pi the knob is often all there is: a press on the notice's first button starts the mission again,
    and the table's own encoder takes the pins after it (gpiozero's MockFactory stands in for the GPIO)."""
    from gpiozero.pins.mock import MockFactory

    from assistant.cli import main
    from assistant.hardware import pins

    state = tmp_path / "table.db"
    damaged_game(state)
    settings = tmp_path / "hardware.toml"
    settings.write_text('[encoder]\nenabled = true\npin_factory = "mock"\n[board]\nport = "none"\n')
    mock = MockFactory()
    monkeypatch.setattr(pins, "pin_factory", lambda name="auto": mock)
    real_open, real_choose = display.open_screen, notice.choose
    monkeypatch.setattr(display, "open_screen",
                        lambda *args, **kwargs: display.Screen(real_open(*args, **kwargs).surface, "KMSDRM", False))

    def pressed(surface: Any, title: str, message: str, choices: Any) -> str | None:
        switch = mock.pin(22)
        switch.drive_low()
        switch.drive_high()  # a press of the knob
        chosen = real_choose(surface, title, message, choices)
        pygame.event.post(pygame.event.Event(pygame.QUIT))
        return chosen

    monkeypatch.setattr(notice, "choose", pressed)
    try:
        assert main(["play", "--state", str(state), "--hardware", str(settings)]) == 0
    finally:
        mock.reset()
    said = capsys.readouterr().err
    assert said.count("encoder on GPIO 17/27, switch on GPIO 22") == 2 and "not used" not in said, said
    with closing(sqlite3.connect(state)) as db:
        assert db.execute("SELECT value FROM meta WHERE key = 'current_game'").fetchone() == ("2",)
