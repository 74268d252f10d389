"""A screen that says why the saved game cannot be resumed, with the ways on as buttons.

Under systemd, `play` ending at once on a damaged game left the table's screen black, the reason
only in the journal. Shown instead until a button is pressed: by touch, the encoder or the keyboard.
"""

from __future__ import annotations

from collections.abc import Sequence

import pygame

from assistant.service import next_event
from assistant.ui import theme
from assistant.ui.inputs import translate
from assistant.ui.layout import layout_for
from assistant.ui.theme import Fonts


def draw(surface: pygame.Surface, fonts: Fonts, title: str, message: str, choices: Sequence[tuple[str, str]],
         focus: int) -> list[pygame.Rect]:  # fmt: skip
    """The notice, and the rectangles of its buttons (in the order of `choices`)."""
    lay = layout_for(*surface.get_size())
    surface.fill(theme.BACKGROUND)
    margin = lay.px(24)
    width = surface.get_width() - 2 * margin
    heading = fonts.fit(title, lay.px(34), width, theme.DANGER)
    surface.blit(heading, (margin, margin))
    height = lay.px(64)
    top = surface.get_height() - margin - height
    room = top - lay.px(16) - (margin + heading.get_height() + lay.px(12))
    for size in range(max(lay.px(22), fonts.MIN_READABLE), fonts.MIN_READABLE - 1, -1):  # as big as fits
        words = fonts.get(size).render(message, True, theme.TEXT, None, width)
        if words.get_height() <= room:
            break
    else:
        fonts.cut(message, fonts.MIN_READABLE)  # its first lines shown
    surface.blit(words, (margin, margin + heading.get_height() + lay.px(12)), pygame.Rect(0, 0, width, room))
    gap = lay.px(12)
    each = (width - gap * (len(choices) - 1)) // max(1, len(choices))
    rects = []
    for index, (_, label) in enumerate(choices):
        rect = pygame.Rect(margin + index * (each + gap), top, each, height)
        pygame.draw.rect(surface, theme.BUTTON, rect, border_radius=lay.px(8))
        pygame.draw.rect(surface, theme.ACTIVE if index == focus else theme.MUTED, rect, lay.px(3), lay.px(8))
        text = fonts.fit(label, lay.px(26), rect.width - lay.px(12), theme.TEXT)
        surface.blit(text, text.get_rect(center=rect.center))
        rects.append(rect)
    return rects


def choose(surface: pygame.Surface, title: str, message: str, choices: Sequence[tuple[str, str]]) -> str | None:
    """Show the notice until a choice is made: its key; None when the window is closed (or Ctrl+Q)."""
    fonts = Fonts()
    focus = 0
    while True:
        rects = draw(surface, fonts, title, message, choices, focus)
        if pygame.display.get_init() and pygame.display.get_surface() is surface:
            pygame.display.flip()
        action = translate(next_event())  # (systemd: ready, and its watchdog fed while it waits)
        if action is None:
            continue
        if action.kind == "quit":
            return None
        if action.kind == "turn":
            focus = (focus + (action.value or 1)) % len(choices)
        elif action.kind == "confirm":
            return choices[focus][0]
        elif action.kind == "tap":
            hit = next((index for index, rect in enumerate(rects) if rect.collidepoint(action.value)), None)
            if hit is not None:
                return choices[hit][0]
        elif action.kind == "key":
            letter = next((key for key, label in choices if label[:1].lower() == action.value), None)
            if letter is not None:
                return letter
