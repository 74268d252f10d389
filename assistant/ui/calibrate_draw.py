"""Drawing the calibration screen: the camera's live view with the dice the reader found, the faces shown so far, a
progress bar, and a column of words above its buttons. Each part says where it was drawn (the tests check that
nothing is cut or overlaps)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import pygame

from assistant.ui import theme
from assistant.ui.intents import Item
from assistant.ui.layout import Layout
from assistant.ui.panel import Hit, draw_menu
from assistant.ui.theme import Color, Fonts

if TYPE_CHECKING:
    from assistant.vision.guide import Seen


def draw_view(surface: pygame.Surface, area: pygame.Rect, lay: Layout, fonts: Fonts, frame: np.ndarray | None,
              seen: Seen | None) -> pygame.Rect:
    """The camera's frame (BGR) as large as fits `area`, and on it the dice of the view at rest last: each box with
    the reader's reading of it, green where it was kept, grey where left out, red where the view was not."""
    if frame is None:
        words = fonts.fit("Waiting for the camera…", lay.px(22), area.width - lay.px(8), theme.MUTED)
        return surface.blit(words, words.get_rect(center=area.center))
    height, width = frame.shape[:2]
    scale = min(area.width / width, area.height / height)
    size = (max(1, int(width * scale)), max(1, int(height * scale)))
    rgb = np.ascontiguousarray(frame[:, :, ::-1])
    image = pygame.transform.smoothscale(pygame.image.frombuffer(rgb.tobytes(), (width, height), "RGB"), size)
    shown = surface.blit(image, image.get_rect(center=area.center))
    if seen is not None:
        moved = {id(d) for d in seen.moved}
        for die in seen.found:
            x, y, w, h = seen.in_frame(die.box)
            box = pygame.Rect(shown.left + int(x * scale), shown.top + int(y * scale), max(1, int(w * scale)),
                              max(1, int(h * scale))).clip(shown)
            color = theme.DANGER if not seen.kept else theme.GOOD if id(die) in moved else theme.MUTED
            pygame.draw.rect(surface, color, box, max(2, lay.px(3)))
            label = fonts.render("?" if die.value is None else str(die.value), lay.px(20), color)
            spot = label.get_rect(bottomleft=(box.left, box.top - 1)).inflate(lay.px(6), 0)
            if spot.top < shown.top:  # under the die where there is no room above it
                spot.topleft = (box.left, box.bottom + 1)
            spot = spot.clamp(shown)
            pygame.draw.rect(surface, theme.BACKGROUND, spot, border_radius=lay.px(4))
            surface.blit(label, label.get_rect(center=spot.center))
    return shown


def draw_faces(surface: pygame.Surface, area: pygame.Rect, lay: Layout, fonts: Fonts, faces: int, current: int,
               done: set[int]) -> pygame.Rect:
    """A square per face, 1 to `faces`: shown already (green), asked now (gold), still to show (dark)."""
    gap = lay.px(4)
    side = min(area.height, (area.width - gap * (faces - 1)) // faces)
    for face in range(1, faces + 1):
        rect = pygame.Rect(area.left + (face - 1) * (side + gap), area.top, side, side)
        fill = theme.ACTIVE if face == current else theme.GOOD if face in done else theme.BUTTON
        pygame.draw.rect(surface, fill, rect, border_radius=lay.px(6))
        number = fonts.render(str(face), max(fonts.MIN_READABLE, side * 3 // 5), theme.ink_for(fill))
        surface.blit(number, number.get_rect(center=rect.center))
    return pygame.Rect(area.left, area.top, faces * side + (faces - 1) * gap, side)


def draw_bar(surface: pygame.Surface, area: pygame.Rect, lay: Layout, fonts: Fonts, share: float) -> pygame.Rect:
    """A progress bar `share` (0 to 1) full, its per cent in it."""
    radius = lay.px(8)
    pygame.draw.rect(surface, theme.BUTTON, area, border_radius=radius)
    full = area.copy()
    full.width = int(area.width * max(0.0, min(1.0, share)))
    if full.width:
        pygame.draw.rect(surface, theme.GOOD, full, border_radius=radius)
    pygame.draw.rect(surface, theme.LINE, area, max(1, lay.px(1)), border_radius=radius)
    words = fonts.render(f"{int(100 * share)} %", lay.px(22), theme.TEXT)
    surface.blit(words, words.get_rect(center=area.center))
    return area


class Column:
    """The panel's words from the top down, and its buttons along the bottom; `drawn` holds where each went."""

    def __init__(self, surface: pygame.Surface, area: pygame.Rect, lay: Layout, fonts: Fonts,
                 buttons: Sequence[Item] = (), focus: int = 0) -> None:
        self.surface, self.area, self.lay, self.fonts = surface, area, lay, fonts
        self.y = area.top
        self.drawn: list[pygame.Rect] = []
        self.hits: list[Hit] = []
        self.bottom = area.bottom
        if buttons:
            height = lay.px(56)
            row = pygame.Rect(area.left, area.bottom - height, area.width, height)
            self.hits = draw_menu(surface, row, lay, buttons, focus, fonts, columns=len(buttons))
            self.drawn += [hit.rect for hit in self.hits]
            self.bottom = row.top - lay.gap

    def title(self, words: str, color: Color = theme.TEXT) -> None:
        image = self.fonts.fit(words, self.lay.px(30), self.area.width, color)
        self.drawn.append(self.surface.blit(image, (self.area.left, self.y)))
        self.y += image.get_height() + self.lay.px(6)

    def room(self) -> pygame.Rect:
        """What is left between the words so far and the buttons."""
        return pygame.Rect(self.area.left, self.y, self.area.width, max(0, self.bottom - self.y))

    def take(self, height: int) -> pygame.Rect:
        """A strip `height` tall under the words so far."""
        rect = pygame.Rect(self.area.left, self.y, self.area.width, height)
        self.y += height + self.lay.px(8)
        return rect

    def mark(self, rect: pygame.Rect) -> None:
        self.drawn.append(rect)

    def words(self, lines: Sequence[tuple[str, Color]], size: int = 20, leave: int = 0) -> None:
        """Sentences wrapped to the width, each whole, at `size` or smaller (never below readable) so that all fit
        above the buttons, `leave` px kept under them; where even the smallest does not, the last ones are cut."""
        lines = [(text, color) for text, color in lines if text]
        room = self.bottom - leave - self.y
        gap = self.lay.px(4)
        for points in range(max(self.lay.px(size), self.fonts.MIN_READABLE), self.fonts.MIN_READABLE - 1, -1):
            font = self.fonts.get(points)
            images = [font.render(text, True, color, None, self.area.width) for text, color in lines]
            if sum(image.get_height() + gap for image in images) <= room + gap:
                break
        for (text, _), image in zip(lines, images):
            if self.y + image.get_height() > self.bottom - leave:
                self.fonts.cut(text, self.fonts.MIN_READABLE)
                break
            self.drawn.append(self.surface.blit(image, (self.area.left, self.y)))
            self.y += image.get_height() + gap
        self.y += self.lay.px(4)
