"""What a frame really draws as text: every text image blitted on the screen, with where its glyphs lie.

`record(app)` swaps the app's screen for a surface that notes each blit of an image a font rendered (the fonts of
`app.fonts`, the one place text is rendered) and wraps `app.draw`, so each frame leaves `Recorder.boxes`: the words,
their size and capitals, the box of their glyphs on the screen (clipped as drawn), fg and the background under them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pygame

from assistant.ui.theme import Color, Fonts


@dataclass(frozen=True)
class Box:
    text: str
    size: int
    caps: int
    rect: pygame.Rect  # the glyphs' pixels on the screen
    fg: Color
    bg: Color  # the colour most of the screen under the glyphs had before they were drawn


def _rgb(color: pygame.Color) -> Color:
    return (color.r, color.g, color.b)


class _Font(pygame.font.Font):
    """A font whose rendered images are noted by `Recorder` (what, at which size, in which colour)."""

    def __init__(self, path: str, size: int, recorder: Recorder) -> None:
        super().__init__(path, size)
        self.points = size
        self.recorder = recorder

    def render(self, text: Any, antialias: Any, color: Any, bgcolor: Any = None, wraplength: int = 0) -> pygame.Surface:
        image = super().render(text, antialias, color, bgcolor, wraplength)
        self.recorder.texts[id(image)] = (image, str(text), self.points, _rgb(pygame.Color(color)))
        return image


class _Screen(pygame.Surface):
    recorder: Recorder

    def blit(self, source: pygame.Surface, dest: Any, area: Any = None, special_flags: int = 0) -> pygame.Rect:  # type: ignore[override]
        noted = self.recorder.texts.get(id(source))
        if noted is None and source.get_parent() is not None:  # a strip of a text image (the log's lines)
            noted = self.recorder.texts.get(id(source.get_parent()))
        if noted is None:
            return super().blit(source, dest, area, special_flags)
        _, text, size, fg = noted
        x, y = (dest.topleft if isinstance(dest, pygame.Rect) else (int(dest[0]), int(dest[1])))
        glyphs = source.get_bounding_rect(min_alpha=128)
        if area is not None:
            area = pygame.Rect(area)
            glyphs = glyphs.clip(area).move(-area.left, -area.top)
        shown = glyphs.move(x, y).clip(self.get_clip())
        bg: Color = (0, 0, 0)
        if shown.width and shown.height:  # the colour most of a few points around the glyphs have
            points = [_rgb(self.get_at((px, py))) for px in (shown.left, shown.centerx, shown.right - 1)
                      for py in (shown.top, shown.bottom - 1)]
            bg = Counter(points).most_common(1)[0][0]
        drawn = super().blit(source, dest, area, special_flags)
        if shown.width and shown.height:
            self.recorder.boxes.append(Box(text, size, self.recorder.fonts.caps(size), shown, fg, bg))
        return drawn


class Recorder:
    def __init__(self, app: Any) -> None:
        self.texts: dict[int, tuple[pygame.Surface, str, int, Color]] = {}
        self.boxes: list[Box] = []
        self.fonts = Fonts()  # measures capitals (its own images are not on the screen)
        self.checks: list[Callable[[Any, list[Box]], None]] = []
        screen = _Screen(app.surface.get_size())
        screen.recorder = self
        app.surface = screen
        fonts: Fonts = app.fonts
        path = fonts._path
        cache: dict[int, pygame.font.Font] = {}

        def get(size: int) -> pygame.font.Font:
            size = max(8, int(size))
            if size not in cache:
                cache[size] = _Font(path, size, self)
            return cache[size]

        fonts.get = get  # type: ignore[method-assign]
        self._cover(screen)
        fonts._images.clear()
        real = app.draw

        def draw() -> None:
            self.boxes = []
            real()
            if len(self.texts) > 4000:
                self.texts = {k: v for k, v in self.texts.items() if k in {id(i) for i in fonts._images.values()}}
            for check in self.checks:
                check(app, self.boxes)

        app.draw = draw


    def _cover(self, screen: pygame.Surface) -> None:
        """A filled rectangle drawn over text (a face picker over its form) hides the text wholly under it."""
        real = pygame.draw.rect
        recorder = self

        def rect(surface: pygame.Surface, color: Any, shape: Any, width: int = 0, *rest: Any, **named: Any) -> pygame.Rect:
            if surface is screen and width == 0:
                under = pygame.Rect(shape)
                recorder.boxes = [b for b in recorder.boxes if not under.contains(b.rect)]
            return real(surface, color, shape, width, *rest, **named)

        def restore() -> None:
            pygame.draw.rect = real

        self.restore = restore
        pygame.draw.rect = rect  # type: ignore[assignment]


def record(app: Any) -> Recorder:
    return Recorder(app)
