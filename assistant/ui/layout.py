"""Where things go on a screen of any size: the dial and the panel, landscape or portrait."""

from __future__ import annotations

from dataclasses import dataclass, field

import pygame


@dataclass(frozen=True)
class Layout:
    """The regions of one screen size; `unit` scales every font and gap (1.0 at 800x480)."""

    size: tuple[int, int]
    dial: pygame.Rect
    panel: pygame.Rect
    unit: float
    gap: int
    log: pygame.Rect = field(default_factory=lambda: pygame.Rect(0, 0, 0, 0))  # landscape: under the dial, what came before (the panel's in portrait)

    @property
    def portrait(self) -> bool:
        return self.size[1] > self.size[0]

    def px(self, value: float) -> int:
        """`value` pixels at 800x480, scaled to this screen."""
        return max(1, round(value * self.unit))

    def regions(self) -> list[pygame.Rect]:
        return [self.dial, self.panel]


def layout_for(width: int, height: int) -> Layout:
    """Landscape: the dial on the left, the panel on the right; portrait: dial on top."""
    unit = min(width, height) / 480 if width >= height else min(width / 480, height / 800)
    gap = max(4, round(8 * unit))
    if width >= height:  # the panel wide enough for the table's type; under the dial, the log
        side = min(height - 2 * gap, int(width * 0.41))
        dial = pygame.Rect(gap, gap, side, side)
        panel = pygame.Rect(dial.right + gap, gap, width - dial.right - 2 * gap, height - 2 * gap)
        log = pygame.Rect(gap, dial.bottom + gap, side, height - dial.bottom - 2 * gap)
        return Layout((width, height), dial, panel, unit, gap, log if log.height >= 40 * unit else pygame.Rect(0, 0, 0, 0))
    else:
        side = min(width - 2 * gap, int(height * 0.36))
        dial = pygame.Rect((width - side) // 2, gap, side, side)
        panel = pygame.Rect(gap, dial.bottom + gap, width - 2 * gap, height - dial.bottom - 2 * gap)
    return Layout((width, height), dial, panel, unit, gap)
