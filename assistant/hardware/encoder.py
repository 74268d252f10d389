"""The rotary encoder with push switch, through gpiozero: turn to choose, press to confirm, hold to go back.

gpiozero's RotaryEncoder decodes the two pins (its state graph rejects contact bounce) and its
Button times the hold on a thread of its own. The switch's own bounce (a press that closes and opens
a few times in its first milliseconds would confirm twice) is left to the pin library's debounce
(lgpio's, on a Pi 5): `bounce_time`, the switch's only; the encoder's pins are not debounced, so a
fast spin loses no step. The callbacks run on gpiozero's threads, so the
app gives ones that only post pygame events.

    press and release before hold_time  ->  on_confirm()
    hold for hold_time                  ->  on_back() once; the release after it does nothing
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from gpiozero import Button, RotaryEncoder


class Encoder:
    """One encoder with its switch on three GPIO pins (BCM numbers)."""

    def __init__(self, a: int, b: int, button: int, *, on_turn: Callable[[int], None],
                 on_confirm: Callable[[], None], on_back: Callable[[], None], hold_time: float = 0.8,
                 bounce_time: float | None = 0.01, pin_factory: Any = None) -> None:  # fmt: skip
        self._on_turn = on_turn
        self._on_confirm = on_confirm
        self._on_back = on_back
        self._held = threading.Event()
        self.rotor = RotaryEncoder(a, b, max_steps=0, pin_factory=pin_factory)
        try:
            self.switch = Button(button, pull_up=True, hold_time=hold_time, bounce_time=bounce_time, pin_factory=pin_factory)
        except Exception:
            self.rotor.close()
            raise
        self.rotor.when_rotated_clockwise = lambda: self._on_turn(1)
        self.rotor.when_rotated_counter_clockwise = lambda: self._on_turn(-1)
        self.switch.when_pressed = self._pressed
        self.switch.when_held = self._hold
        self.switch.when_released = self._released

    def _pressed(self) -> None:
        self._held.clear()

    def _hold(self) -> None:
        self._held.set()
        self._on_back()

    def _released(self) -> None:
        if not self._held.is_set():
            self._on_confirm()
        self._held.clear()

    def close(self) -> None:
        self.rotor.close()
        self.switch.close()

    def __enter__(self) -> Encoder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
