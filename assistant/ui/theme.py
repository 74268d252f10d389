"""Colours and fonts: high contrast on a dark table light, sizes scaled with the screen."""

from __future__ import annotations

import os

import pygame

Color = tuple[int, int, int]

BACKGROUND: Color = (12, 15, 20)
FACE: Color = (30, 37, 47)
BAND: Color = (46, 55, 68)
LINE: Color = (84, 98, 116)
TEXT: Color = (248, 244, 232)
MUTED: Color = (188, 196, 206)  # 4.5:1 at least on every button fill (was 3.9:1 on an event's)
DIM: Color = (96, 104, 114)
ACTIVE: Color = (214, 164, 38)  # the active sector and the focused button
ACTIVE_TEXT: Color = (20, 16, 8)
MINUTE_HAND: Color = (252, 252, 252)
HOUR_HAND: Color = (150, 200, 255)
EVENT: Color = (255, 205, 70)
KO: Color = (110, 18, 26)
DANGER: Color = (255, 92, 92)
GOOD: Color = (110, 220, 140)
PANEL: Color = (24, 30, 38)
BUTTON: Color = (44, 56, 72)
BUTTON_ORDER: Color = (40, 74, 110)
BUTTON_EVENT: Color = (96, 74, 20)
BUTTON_COMMAND: Color = (36, 42, 50)
THREAT: Color = (240, 120, 40)
WOUND: Color = (235, 55, 55)
HEALTHY: Color = (120, 132, 146)
ARMOUR: Color = (150, 190, 225)  # room on a Hero's Equipment (Resistance) or armour for wounds
ARMOUR_HIT: Color = (200, 120, 240)  # a wound lying there (not the Hero's)
CHOICE: Color = (130, 190, 255)  # a decision the AI made that the table may override (tap it)

# told apart in deuteranopia and protanopia simulations too (tests/ui/test_colours.py), none red, orange or gold
HERO_COLORS: tuple[Color, ...] = ((86, 180, 233), (0, 158, 115), (150, 110, 255), (120, 220, 120), (160, 240, 200))
ENEMY_COLORS: tuple[Color, ...] = ((235, 75, 80), (250, 120, 40), (215, 70, 160), (190, 120, 70), (240, 200, 200))


ACT_CAPS = 28  # px: the capitals of what the table must act on now (the question, the roll) at 800x480
READ_CAPS = 18  # px: the least capitals of anything a player must read at 800x480 (read from 1.5 m)


def luminance(color: Color) -> float:
    """The relative luminance of `color` (WCAG 2: 0 black, 1 white)."""
    def linear(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in color)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: Color, b: Color) -> float:
    """The WCAG 2 contrast ratio of two colours (1 to 21; text wants 4.5 at least)."""
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


INK: Color = (12, 12, 12)


def ink_for(background: Color) -> Color:
    """Black or white text, whichever contrasts more with `background` (white on orange was 2.5:1)."""
    return INK if contrast(INK, background) > contrast(TEXT, background) else TEXT


class Fonts:
    """Bold fonts by pixel size, cached; `fit` shrinks text to a width and records when it must."""

    MIN_READABLE = 16  # px: below this a label is counted in `squeezed`
    KEPT = 200  # the newest entries of `squeezed` kept (a long game redraws a cut label many times)

    def __init__(self) -> None:
        self._path = os.path.join(os.path.dirname(pygame.__file__), pygame.font.get_default_font())
        self._cache: dict[int, pygame.font.Font] = {}
        self._images: dict[tuple[str, int, Color, int], pygame.Surface] = {}
        self.squeezed: list[tuple[str, int]] = []
        self._cut: dict[tuple[str, int, Color, int], tuple[str, int]] = {}  # `fit`'s images drawn cut
        self._caps: dict[int, int] = {}
        self.least = self.MIN_READABLE  # `fit`'s floor: the table's screens raise it to what is read from 1.5 m

    def cut(self, text: str, size: int) -> None:
        """Count `text`, drawn at `size`, as cut or squeezed (what the tests look at)."""
        self.squeezed.append((text, size))
        del self.squeezed[:-self.KEPT]

    def get(self, size: int) -> pygame.font.Font:
        size = max(8, int(size))
        font = self._cache.get(size)
        if font is None:
            font = self._cache[size] = pygame.font.Font(self._path, size)
        return font

    def render(self, text: str, size: int, color: Color) -> pygame.Surface:
        key = (text, int(size), color, 0)
        image = self._images.get(key)
        if image is None:
            image = self._remember(key, self.get(size).render(text, True, color))
        return image

    def _remember(self, key: tuple[str, int, Color, int], image: pygame.Surface) -> pygame.Surface:
        """Keep rendered text for the next frame (most of a frame's text is the same as the last one's)."""
        if len(self._images) > 2000:
            self._images.clear()
        self._images[key] = image
        return image

    def fit(self, text: str, size: int, width: int, color: Color) -> pygame.Surface:
        """`text` at `size`, or smaller until it fits `width`; cut with "…" if even that is too wide."""
        key = (text, int(size), color, int(width))
        image = self._images.get(key)
        if image is None:
            image = self._remember(key, self._fit(text, size, width, color))
        elif key in self._cut:  # drawn cut again: counted on every frame, not on the first only
            self.cut(*self._cut[key])
        return image

    def caps(self, size: int) -> int:
        """How tall a capital letter is drawn at `size` (its pixels' rows)."""
        if size in self._caps:
            return self._caps[size]
        rows = pygame.surfarray.array_alpha(self.render("H", size, TEXT)).max(axis=0) > 127
        found = [y for y, solid in enumerate(rows) if solid]
        self._caps[size] = found[-1] - found[0] + 1 if found else 0
        return self._caps[size]

    def for_caps(self, caps: float) -> int:
        """The smallest size whose capitals are `caps` px tall at least."""
        size = max(8, int(caps))
        while self.caps(size) < caps:
            size += 1
        return size

    def smallest(self, size: int) -> int:
        """The smallest size `fit` shrinks text of `size` to before it cuts it."""
        return max(self.least, int(size * 0.7))

    def _fit(self, text: str, size: int, width: int, color: Color) -> pygame.Surface:
        size0 = size = int(size)
        floor = self.smallest(size)
        while size > floor and self.get(size).size(text)[0] > width:
            size -= 1
        font = self.get(size)
        if font.size(text)[0] > width:
            self.cut(text, size)
            self._cut[(text, int(size0), color, int(width))] = (text, size)
            while len(text) > 1 and font.size(text + "…")[0] > width:
                text = text[:-1]
            text = text.rstrip() + "…"
        return font.render(text, True, color)
