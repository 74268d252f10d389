"""Open the screen: KMS/DRM full screen on a Pi without a desktop, a window on a desktop, SDL's dummy driver without any display.

SDL_VIDEODRIVER set by the user is respected. Otherwise: with no X11/Wayland display and a
/dev/dri card, kmsdrm (full screen); with a desktop, SDL's own choice (a window unless asked for
full screen); whenever a driver cannot start, the next is tried and the last resort is the dummy
driver (nothing is shown; the app still runs, saves and drives the board). Each fallback is said
on stderr.
"""

from __future__ import annotations

import glob
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass

import pygame

DEFAULT_WINDOW = (800, 480)


@dataclass(frozen=True)
class Screen:
    surface: pygame.Surface
    driver: str
    fullscreen: bool


def _candidates(environ: dict[str, str]) -> list[str | None]:
    """Drivers to try, in order (None: SDL's own choice)."""
    chosen = environ.get("SDL_VIDEODRIVER")
    if chosen:
        return [chosen, "dummy"] if chosen != "dummy" else ["dummy"]
    desktop = environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY")
    if desktop:
        return [None, "dummy"]
    if glob.glob("/dev/dri/card*"):
        return ["kmsdrm", "dummy"]
    return ["dummy"]


def open_screen(size: tuple[int, int] | None = None, fullscreen: bool | None = None, title: str = "Nova Table",
                say: Callable[[str], None] | None = None) -> Screen:  # fmt: skip
    """Initialise pygame's display with the first driver that works and open the surface."""
    say = say or (lambda words: print(f"nova-table: {words}", file=sys.stderr))
    tried: list[str] = []
    asked_for_dummy = os.environ.get("SDL_VIDEODRIVER") == "dummy"
    for driver in _candidates(dict(os.environ)):
        if driver is None:
            os.environ.pop("SDL_VIDEODRIVER", None)
        else:
            os.environ["SDL_VIDEODRIVER"] = driver
        try:
            pygame.display.init()
            name = pygame.display.get_driver()
            full = fullscreen if fullscreen is not None else name in ("kmsdrm", "KMSDRM")
            if name == "dummy":
                full = False
            flags = pygame.FULLSCREEN if full else (0 if name == "dummy" else pygame.RESIZABLE)
            wanted = (0, 0) if full and size is None else (size or DEFAULT_WINDOW)
            surface = pygame.display.set_mode(wanted, flags)
        except pygame.error as error:
            tried.append(f"{driver or 'the default driver'} ({error})")
            pygame.display.quit()
            continue
        if name == "dummy":
            reason = "; ".join(tried) or ("SDL_VIDEODRIVER=dummy" if asked_for_dummy else "no X11, Wayland or KMS/DRM display found")
            say(f"no display ({reason}): running with SDL's dummy video driver, nothing is shown")
        pygame.display.set_caption(title)
        pygame.mouse.set_visible(not full)
        pygame.key.set_repeat()  # no key repeat: a held Escape is one press, timed by the app
        return Screen(surface, name, full)
    raise RuntimeError("no SDL video driver could start, not even the dummy one: " + "; ".join(tried))
