"""A die's face picker: tap a die, then its face (1 to 6, or 1 to 8); the picker goes on to the next die.

Before it, each tap raised a die by one from "?": a 6 took six taps, four d8 up to 32.
"""

from __future__ import annotations

from typing import Any

import pygame

from assistant.rules.game import apply as rules_apply
from assistant.rules.state import GameState
from assistant.ui import theme
from assistant.ui.form import Dice, Form, Incomplete, Stop
from assistant.ui.layout import Layout
from assistant.ui.panel import Hit, _text, label_size, read_size
from assistant.ui.theme import Fonts


def picked(form: Form, stop: Stop | None) -> Dice | None:
    """The dice field `stop` is a die of, while the form shows it."""
    if stop is None or stop not in form.stops() or stop.field < 0:
        return None
    dice = form.fields[stop.field]
    return dice if isinstance(dice, Dice) else None


def choose(form: Form, stop: Stop, face: int) -> Stop | None:
    """`face` on the die at `stop`; the focus on the next stop; the die the picker shows next (None: closed)."""
    dice = picked(form, stop)
    assert dice is not None
    dice.set(stop.die, face)
    form.focus = stop
    form.next()
    form.refresh()
    return form.focus if picked(form, form.focus) is not None else None


def draw_picker(surface: pygame.Surface, area: pygame.Rect, lay: Layout, fonts: Fonts, dice: Dice, die: int) -> list[Hit]:
    """The faces as big buttons in `area` (one row, or two for a d8 in a narrow area), the die's number above them."""
    pygame.draw.rect(surface, theme.BAND, area, border_radius=lay.px(10))
    pygame.draw.rect(surface, theme.ACTIVE, area, max(2, lay.px(3)), border_radius=lay.px(10))
    inner = area.inflate(-2 * lay.gap, -2 * lay.gap)
    title = pygame.Rect(inner.left, inner.top, inner.width, fonts.get(read_size(lay, fonts)).get_linesize())
    _text(surface, fonts, f"{dice.label}: die {die + 1} of {len(dice.values)}", read_size(lay, fonts), theme.TEXT, title)
    faces = list(range(1, dice.sides + 1))
    rows = 1 if inner.width // len(faces) >= lay.px(44) else 2
    columns = (len(faces) + rows - 1) // rows
    gap = lay.px(6)
    top = title.bottom + gap
    height = (inner.bottom - top - (rows - 1) * gap) // rows
    width = (inner.width - (columns - 1) * gap) // columns
    hits: list[Hit] = []
    for n, face in enumerate(faces):
        row, column = divmod(n, columns)
        box = pygame.Rect(inner.left + column * (width + gap), top + row * (height + gap), width, height)
        current = dice.values[die] == face
        pygame.draw.rect(surface, theme.ACTIVE if current else theme.TEXT, box, border_radius=lay.px(8))
        _text(surface, fonts, str(face), max(label_size(lay, fonts), min(height, width) * 3 // 5), theme.BACKGROUND, box, "center")
        hits.append(Hit(box, ("face", face)))
    return hits


def preview(state: GameState, form: Form) -> str:
    """What Apply would do, in the rules' words ("Valerio attacks Papal Guard: 3 successes, 2 wounds"), once every die
    is set ("" before, or where the rules would refuse it)."""
    dice = form.dice()
    if dice is None or not dice.values or not dice.complete:
        return ""
    try:
        event: Any = form.event()
        after = rules_apply(state, event)
    except (Incomplete, ValueError, Exception):  # a form the rules refuse says so on Apply, not before
        return ""
    return after.notes[0] if after.notes else ""
