"""Finding a line of text on a rendered screen by its pixels (the glyphs' solid pixels, exactly)."""

from __future__ import annotations

import numpy as np
import pygame

from assistant.ui.theme import Color, Fonts


def find_text(surface: pygame.Surface, area: pygame.Rect, words: str, size: int, color: Color,
              fonts: Fonts | None = None) -> pygame.Rect | None:  # fmt: skip
    """Where `words` are drawn in `color` inside `area` at `size` (or as `fit` shrank them), else None.

    Every fully opaque pixel of the rendered words must be `color` on the screen, and no fully
    transparent one may be: the same words in another colour, or other words, do not match.
    """
    fonts = fonts or Fonts()
    area = area.clip(surface.get_rect())
    shown = np.all(pygame.surfarray.pixels3d(surface.subsurface(area)) == np.array(color), axis=2)  # (w, h)
    for points in range(int(size), fonts.smallest(int(size)) - 1, -1):
        image = fonts.render(words, points, color)
        alpha = pygame.surfarray.array_alpha(image)
        solid, clear = alpha == 255, alpha == 0
        xs, ys = np.nonzero(solid)
        if not len(xs):
            continue
        w, h = alpha.shape
        for cx, cy in np.argwhere(shown):
            x0, y0 = cx - xs[0], cy - ys[0]
            if x0 < 0 or y0 < 0 or x0 + w > shown.shape[0] or y0 + h > shown.shape[1]:
                continue
            window = shown[x0 : x0 + w, y0 : y0 + h]
            if window[solid].all() and not window[clear].any():
                return pygame.Rect(area.left + x0, area.top + y0, w, h)
    return None
