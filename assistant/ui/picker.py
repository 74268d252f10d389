"""A die's face picker: tap a die, then its face (1 to 6, or 1 to 8); the picker goes on to the next die.

Before it, each tap raised a die by one from "?": a 6 took six taps, four d8 up to 32. A die that shows a face
is offered a Re-roll too, by whose Effect (a Token, a Skill, an Enemy's Skill): then its new face is tapped.
"""

from __future__ import annotations

from typing import Any

import pygame

from assistant.rules.dice import RerollSource
from assistant.rules.game import apply as rules_apply
from assistant.rules.state import GameState
from assistant.ui import theme
from assistant.ui.form import Dice, Form, Incomplete, Stop
from assistant.ui.layout import Layout
from assistant.ui.panel import Hit, _button, _text, label_size, read_size
from assistant.ui.rerolls import EFFECTS
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


TAKE_BACK = "Take back its last re-roll"


def offers_reroll(dice: Dice, die: int) -> bool:
    """Whether the picker offers die `die` a Re-roll: a Test's die that shows a face, not being re-rolled now."""
    return dice.test and dice.values[die] is not None and dice.pending is None


def picker_height(lay: Layout, dice: Dice, die: int) -> int:
    """The least height the picker needs below or above the die: the faces, and the Re-roll row where offered."""
    if dice.pending is not None:  # where the Re-roll row was: above the dice, the words under them left in view
        return lay.px(170)
    return lay.px(170 + (50 if dice.times(die) else 0)) if offers_reroll(dice, die) else lay.px(90)


def title_of(dice: Dice, die: int) -> str:
    """The picker's first line: the die and its roll, or the die being re-rolled and by whose Effect."""
    if dice.pending is not None:
        by = "Enemy" if dice.pending[1].value == "enemy" else "Hero"
        return f"Re-roll die {dice.pending[0] + 1} ({by}):"
    return f"{dice.label}: die {die + 1} of {len(dice.values)}" + (" · Re-roll by:" if offers_reroll(dice, die) else "")


def draw_picker(surface: pygame.Surface, area: pygame.Rect, lay: Layout, fonts: Fonts, dice: Dice, die: int) -> list[Hit]:
    """The faces as big buttons in `area` (one row, or two for a d8 in a narrow area), the die's number above them;
    under them, for a die that shows a face, whose Effect re-rolls it (Token, Skill, Enemy's Skill), and for a die
    re-rolled, Take back (its last re-roll was none)."""
    pygame.draw.rect(surface, theme.BAND, area, border_radius=lay.px(10))
    pygame.draw.rect(surface, theme.ACTIVE, area, max(2, lay.px(3)), border_radius=lay.px(10))
    inner = area.inflate(-2 * lay.gap, -2 * lay.gap)
    title = pygame.Rect(inner.left, inner.top, inner.width, fonts.get(read_size(lay, fonts)).get_linesize())
    _text(surface, fonts, title_of(dice, die), read_size(lay, fonts), theme.ACTIVE if dice.pending else theme.TEXT, title)
    faces = list(range(1, dice.sides + 1))
    rows = 1 if inner.width // len(faces) >= lay.px(44) else 2
    columns = (len(faces) + rows - 1) // rows
    gap = lay.px(6)
    top = title.bottom + gap
    hits: list[Hit] = []
    bottom = inner.bottom
    if offers_reroll(dice, die):  # the Re-roll rows: as tall as a row of faces, at most a button's height
        strips: list[list[tuple[str, RerollSource | None]]] = [list(EFFECTS)]
        if dice.times(die):  # a re-roll entered by mistake
            strips.append([(TAKE_BACK, None)])
        row_h = min(lay.px(50), (inner.bottom - top - (rows + len(strips) - 1) * gap) // (rows + len(strips)))
        for number, buttons in enumerate(strips):
            strip = pygame.Rect(inner.left, inner.bottom - (len(strips) - number) * (row_h + gap) + gap, inner.width, row_h)
            hits += _row(surface, strip, lay, fonts, buttons, gap)
        bottom = inner.bottom - len(strips) * (row_h + gap)
    height = (bottom - top - (rows - 1) * gap) // rows
    width = (inner.width - (columns - 1) * gap) // columns
    for n, face in enumerate(faces):
        row, column = divmod(n, columns)
        box = pygame.Rect(inner.left + column * (width + gap), top + row * (height + gap), width, height)
        current = dice.faces[die] == face and dice.pending is None
        pygame.draw.rect(surface, theme.ACTIVE if current else theme.TEXT, box, border_radius=lay.px(8))
        _text(surface, fonts, str(face), max(label_size(lay, fonts), min(height, width) * 3 // 5), theme.BACKGROUND, box, "center")
        hits.append(Hit(box, ("face", face)))
    return hits


def _row(surface: pygame.Surface, strip: pygame.Rect, lay: Layout, fonts: Fonts,
         buttons: list[tuple[str, RerollSource | None]], gap: int) -> list[Hit]:  # fmt: skip
    """Buttons across `strip`, each as wide as its words and the rest shared alike (narrower alike where they do not
    fit: the labels shrink)."""
    font = fonts.get(label_size(lay, fonts))
    words_w = [font.size(words)[0] + lay.px(18) for words, _ in buttons]
    room = strip.width - (len(buttons) - 1) * gap
    if sum(words_w) > room:
        words_w = [w * room // sum(words_w) for w in words_w]
    spare = (room - sum(words_w)) // len(buttons)
    hits: list[Hit] = []
    left = strip.left
    for (words, source), width in zip(buttons, words_w):
        box = pygame.Rect(left, strip.top, width + spare, strip.height)
        fill = theme.BUTTON_COMMAND if source is None else theme.BUTTON_EVENT if source is RerollSource.ENEMY else theme.BUTTON
        _button(surface, box, lay, fonts, words, fill, False)
        hits.append(Hit(box, ("reroll", source, words)))
        left = box.right + gap
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
    return "; ".join(after.notes)  # all of it: a Status Token the attack gives ("Eleonora gains Poisoned")
