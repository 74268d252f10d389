"""An on-screen keyboard for a form's words (`form.Text`: an item, an achievement, a skill, a hero's name), by touch,
the encoder or a keyboard's keys, as every screen: a tap on a key types it; a turn moves the lit key and a press types
it; a letter or a digit key types itself and Space a space; Back (Backspace, Escape, the encoder held) takes the last
letter back (as Del does), and on no words leaves for the form as it was. Done sets the field and goes on to the
form's next stop.

The first letter of the words is a capital, the rest small; Aa makes the next letter the other case ("Relic of the
Bridge"). Words are kept to the field's `limit`, spaces single.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from assistant.ui import theme
from assistant.ui.form import Form, Text
from assistant.ui.inputs import Action
from assistant.ui.panel import Hit, _button, _text, read_size

if TYPE_CHECKING:
    from assistant.ui.app import App

ROWS = ("1234567890", "QWERTYUIOP", "ASDFGHJKL'", "ZXCVBNM,.-")
SPECIAL = (("Back", 2), ("Aa", 2), ("Space", 3), ("Del", 2), ("Done", 3))  # the last row: (key, its share of 12)
KEYS = tuple(key for row in ROWS for key in row) + tuple(key for key, _ in SPECIAL)


def text_field(form: Form | None) -> Text | None:
    """The form's focused field where it is words."""
    if form is None or form.focus.field < 0:
        return None
    item = form.fields[form.focus.field]
    return item if isinstance(item, Text) else None


def typed(words: str, key: str, shift: bool) -> str:
    """`words` with `key` typed: a letter a capital first (or after Aa), else small; Aa turning it the other way."""
    if len(key) != 1:
        return words
    if not key.isalpha():
        return words + key
    capital = not words.strip()
    return words + (key.upper() if capital != shift else key.lower())


class KeyboardScreen:
    """The keyboard over the whole screen, for the form's focused `Text` field; back to the form when done."""

    name = "keyboard"

    def __init__(self) -> None:
        self.words = ""
        self.shift = False
        self.focus = 0
        self.start = ""  # a key typed on the form that opened the keyboard: typed first

    def enter(self, app: App) -> None:
        field = text_field(app.form)
        self.words, self.shift, self.focus = (field.value if field is not None else ""), False, 0
        for key in self.start:
            self.type(key)
        self.start = ""

    def type(self, key: str) -> None:
        if key == " ":
            self.words = self.words + " " if self.words and not self.words.endswith(" ") else self.words
        else:
            self.words = typed(self.words, key, self.shift)
            self.shift = False

    def press(self, app: App, key: str) -> str | None:
        field = text_field(app.form)
        if field is None or key == "Back":
            return "form"
        if key == "Done":
            field.set(self.words)
            assert app.form is not None
            app.form.next()
            return "form"
        if key == "Del":  # the last letter taken back
            self.words = self.words[:-1]
        elif key == "Aa":
            self.shift = not self.shift
        elif len(self.words) < field.limit:
            self.type(" " if key == "Space" else key)
        return None

    def handle(self, app: App, action: Action) -> str | None:
        if action.kind == "turn":
            self.focus = (self.focus + int(action.value)) % len(KEYS)
        elif action.kind == "confirm":
            return self.press(app, "Space" if action.value == " " else KEYS[self.focus])
        elif action.kind == "back":
            return self.press(app, "Del") if self.words else "form"
        elif action.kind in ("key", "digit"):
            return self.press(app, str(action.value).upper())
        elif action.kind == "tap":
            for hit in app.hits:
                if hit.rect.collidepoint(action.value) and hit.target[0] == "key":
                    self.focus = KEYS.index(hit.target[1])
                    return self.press(app, hit.target[1])
        return None

    def draw(self, app: App, surface: pygame.Surface) -> list[Hit]:
        lay, fonts = app.layout, app.fonts
        fonts.least = read_size(lay, fonts)
        field, form = text_field(app.form), app.form
        area = surface.get_rect().inflate(-2 * lay.gap, -2 * lay.gap)
        title = f"{form.title}: {field.label}" if form is not None and field is not None else "Type"
        _text(surface, fonts, title, lay.px(30), theme.MUTED, pygame.Rect(area.left, area.top, area.width, lay.px(38)))
        box = pygame.Rect(area.left, area.top + lay.px(40), area.width, lay.px(52))
        pygame.draw.rect(surface, theme.PANEL, box, border_radius=lay.px(8))
        pygame.draw.rect(surface, theme.ACTIVE, box, max(2, lay.px(2)), border_radius=lay.px(8))
        shown = self.words + "_"
        _text(surface, fonts, shown, lay.px(34), theme.TEXT, box.inflate(-lay.px(16), 0))
        grid = pygame.Rect(area.left, box.bottom + lay.gap, area.width, area.bottom - box.bottom - lay.gap)
        return self._keys(app, surface, grid)

    def _keys(self, app: App, surface: pygame.Surface, grid: pygame.Rect) -> list[Hit]:
        lay, fonts = app.layout, app.fonts
        rows = len(ROWS) + 1
        gap = max(2, lay.gap // 2)
        row_h = min(lay.px(90), (grid.height - (rows - 1) * gap) // rows)
        top = grid.bottom - rows * row_h - (rows - 1) * gap
        hits: list[Hit] = []
        index = 0
        for number, row in enumerate([[(key, 1) for key in keys] for keys in ROWS] + [list(SPECIAL)]):
            shares = sum(share for _, share in row)
            unit = (grid.width - (len(row) - 1) * gap) / shares
            x = float(grid.left)
            for key, share in row:
                width = unit * share
                rect = pygame.Rect(round(x), top + number * (row_h + gap), round(width), row_h)
                x += width + gap
                label = key.lower() if key.isalpha() and len(key) == 1 and self.lower() else key
                fill = theme.BUTTON_ORDER if key == "Done" else theme.BUTTON_COMMAND if len(key) > 1 else theme.BUTTON
                lit = key == "Aa" and self.shift
                _button(surface, rect, lay, fonts, label, theme.BUTTON_EVENT if lit else fill, index == self.focus)
                hits.append(Hit(rect, ("key", key)))
                index += 1
        return hits

    def lower(self) -> bool:
        """Whether the next letter typed is a small one (the letters' keys say so)."""
        return bool(self.words.strip()) != self.shift
