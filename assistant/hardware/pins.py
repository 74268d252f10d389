"""Which gpiozero pin factory to use: lgpio on a Pi 5, gpiozero's own choice elsewhere, MockFactory by name."""

from __future__ import annotations

import glob
from pathlib import Path
from typing import Any


def board_model() -> str:
    """The Pi's model ("Raspberry Pi 5 Model B Rev 1.0"), or "" off a Pi."""
    try:
        return Path("/proc/device-tree/model").read_text(errors="replace").strip("\x00\n ")
    except OSError:
        return ""


def has_gpio() -> bool:
    """True on a machine with a GPIO character device (a Pi, or another board with /dev/gpiochip*)."""
    return bool(glob.glob("/dev/gpiochip*"))


def pin_factory(name: str = "auto") -> Any:
    """The gpiozero Factory for `name`; None means gpiozero's default (its own fallback order).

    "auto": LGPIOFactory on a Raspberry Pi 5 (RPi.GPIO does not work there), else gpiozero's default.
    "mock": MockFactory, the pins the tests drive. Any other name is a gpiozero pin factory entry
    point ("lgpio", "rpigpio", "pigpio", "native").
    """
    if name == "mock":
        from gpiozero.pins.mock import MockFactory

        return MockFactory()
    if name == "auto":
        if "Raspberry Pi 5" in board_model():
            from gpiozero.pins.lgpio import LGPIOFactory

            return LGPIOFactory()
        return None
    from importlib.metadata import entry_points

    for point in entry_points(group="gpiozero_pin_factories"):
        if point.name == name.lower():
            return point.load()()
    raise ValueError(f"unknown gpiozero pin factory {name!r} (try lgpio, rpigpio, pigpio, native or mock)")
