"""The encoder adapter on gpiozero's MockFactory: the mock pins are driven as the real contacts would be."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import queue  # noqa: E402
import time  # noqa: E402
from collections.abc import Iterator  # noqa: E402

import pygame  # noqa: E402
import pytest  # noqa: E402
from gpiozero.pins.mock import MockFactory, MockPin  # noqa: E402

from assistant.hardware.config import HardwareConfig, EncoderConfig  # noqa: E402
from assistant.hardware.encoder import Encoder  # noqa: E402
from assistant.ui.app import App  # noqa: E402
from assistant.ui.devices import attach_encoder  # noqa: E402
from assistant.ui.table import MemoryGame  # noqa: E402
from tests.ui.demo import demo_scenario  # noqa: E402

A, B, SWITCH = 17, 27, 22
HOLD = 0.15


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    mock = MockFactory()
    yield mock
    mock.reset()


def step(a: MockPin, b: MockPin, clockwise: bool) -> None:
    """One detent: A then B fall and rise in turn (B first when turning back), as the contacts do."""
    first, second = (a, b) if clockwise else (b, a)
    first.drive_low()
    second.drive_low()
    first.drive_high()
    second.drive_high()


def make_encoder(factory: MockFactory, seen: queue.Queue[tuple[str, int]]) -> Encoder:
    return Encoder(
        A, B, SWITCH,
        on_turn=lambda delta: seen.put(("turn", delta)),
        on_confirm=lambda: seen.put(("confirm", 0)),
        on_back=lambda: seen.put(("back", 0)),
        hold_time=HOLD, pin_factory=factory,
    )  # fmt: skip


def drain(seen: queue.Queue[tuple[str, int]], wait: float = 0.05) -> list[tuple[str, int]]:
    time.sleep(wait)
    out = []
    while not seen.empty():
        out.append(seen.get_nowait())
    return out


def test_turns_are_counted_each_way(factory: MockFactory) -> None:
    seen: queue.Queue[tuple[str, int]] = queue.Queue()
    with make_encoder(factory, seen):
        a, b = factory.pin(A), factory.pin(B)
        for _ in range(3):
            step(a, b, clockwise=True)
        for _ in range(2):
            step(a, b, clockwise=False)
        assert drain(seen) == [("turn", 1)] * 3 + [("turn", -1)] * 2


def test_contact_bounce_within_a_step_does_not_count_twice(factory: MockFactory) -> None:
    seen: queue.Queue[tuple[str, int]] = queue.Queue()
    with make_encoder(factory, seen):
        a, b = factory.pin(A), factory.pin(B)
        a.drive_low()
        a.drive_high()  # a bounce back to rest
        a.drive_low()
        b.drive_low()
        b.drive_high()  # wiggle between the middle states
        b.drive_low()
        a.drive_high()
        b.drive_high()
        assert drain(seen) == [("turn", 1)]


def test_press_confirms_and_hold_goes_back_once(factory: MockFactory) -> None:
    seen: queue.Queue[tuple[str, int]] = queue.Queue()
    with make_encoder(factory, seen):
        switch = factory.pin(SWITCH)
        switch.drive_low()
        switch.drive_high()
        assert drain(seen) == [("confirm", 0)]
        switch.drive_low()
        time.sleep(HOLD * 4)  # gpiozero's hold thread fires when_held once (no hold_repeat)
        switch.drive_high()
        assert drain(seen) == [("back", 0)]


def test_the_encoder_drives_the_app_through_pygame_events() -> None:
    pygame.display.init()
    pygame.font.init()
    surface = pygame.display.set_mode((800, 480))
    pygame.event.clear()
    app = App(MemoryGame(demo_scenario()), surface, log=lambda message: None)
    config = HardwareConfig(encoder=EncoderConfig(enabled=True, a=A, b=B, button=SWITCH, hold_time=HOLD))
    encoder = attach_encoder(app, config, factory_name="mock")
    assert encoder is not None
    mock = encoder.rotor.pin_factory  # type: ignore[attr-defined]
    a, b, switch = mock.pin(A), mock.pin(B), mock.pin(SWITCH)
    app.running = True
    app.pump()
    items = app.machine.current.items  # type: ignore[attr-defined]
    assert items[app.machine.current.focus].label == "Move"  # type: ignore[attr-defined]
    step(a, b, clockwise=True)  # turn: Move -> Attack
    app.pump(200)
    assert items[app.machine.current.focus].label == "Attack"  # type: ignore[attr-defined]
    switch.drive_low()
    switch.drive_high()  # press: open the attack form
    app.pump(200)
    assert app.machine.current.name == "form" and app.form is not None and app.form.name == "hero_attack"
    switch.drive_low()
    time.sleep(HOLD * 3)  # hold: back from the first stop of the form to the table
    switch.drive_high()
    app.pump(200)
    assert app.machine.current.name == "table"
    assert app.game.state.count == 0
    assert switch.bounce == 0.01  # the settings' default debounce, given to the switch's pin
    assert a.bounce is None and b.bounce is None  # and not to the encoder's: a fast spin loses no step
    app.close()
    assert encoder.rotor.closed  # type: ignore[attr-defined]
