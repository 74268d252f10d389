"""When to hold a camera's exposure and white balance, and when to let it choose them again.

    first rest of the tray -> lock: the camera's own choice, frozen (frames had stopped changing,
                              so its automatic exposure and white balance had settled too)
    a later rest much brighter or darker than then (DRIFT: a lamp switched, the sun gone)
                           -> unlock: the camera chooses again; the next rest locks again

Held, a die looks the same from roll to roll: no exposure hunting on a dark die filling the view.
Only sources with `lock()` and `unlock()` are held (the Pi camera); others keep their own automatics.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import cv2
import numpy as np

DRIFT = 1.3  # a rest this many times brighter (or darker) than when the exposure was locked: the light changed


@runtime_checkable
class Holdable(Protocol):
    name: str

    def lock(self) -> dict[str, Any]: ...

    def unlock(self) -> None: ...


def brightness(frame: np.ndarray) -> float:
    """The frame's mean grey level (0..255), measured small."""
    small = cv2.resize(frame, (80, 60), interpolation=cv2.INTER_AREA)
    return float(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).mean()) if small.ndim == 3 else float(small.mean())


class ExposureHold:
    """Feed it each settled frame; it locks and unlocks the source and says what it did (or None)."""

    def __init__(self, source: object) -> None:
        self.source = source if isinstance(source, Holdable) else None
        self.level: float | None = None  # the brightness when locked; None while the camera chooses

    def settled(self, frame: np.ndarray) -> str | None:
        if self.source is None:
            return None
        level = max(brightness(frame), 1.0)
        if self.level is None:
            controls = self.source.lock()
            self.level = level
            shown = ", ".join(f"{k} {v}" for k, v in controls.items())
            return f"{self.source.name}: exposure and white balance held ({shown})"
        if max(level / self.level, self.level / level) > DRIFT:
            self.source.unlock()
            was, self.level = self.level, None
            return (f"{self.source.name}: the light changed (mean grey {was:.0f} -> {level:.0f}); "
                    "the camera chooses its exposure again")
        return None
