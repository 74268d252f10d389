"""Pages of forms in turn, Next and Back between them, by touch, the encoder and the keys as every form, words on the
on-screen keyboard (`ui/keyboard.py`): what the mission builder and the card editor share. A subclass says what Next
does on a page (`advance`) and may take taps of its own (`tapped`)."""

from __future__ import annotations

from typing import Any

import pygame

from assistant.service import next_event
from assistant.ui.form import APPLY, Form, Stop
from assistant.ui.inputs import Action, translate
from assistant.ui.keyboard import KeyboardScreen, text_field
from assistant.ui.layout import Layout, layout_for
from assistant.ui.panel import Hit, draw_form, read_size
from assistant.ui import theme
from assistant.ui.theme import Fonts

Went = tuple[str, Any]  # ("start", what it gives), ("back", None) to leave, ("", None) to stay
STAY: Went = ("", None)


class Paged:
    """The pages so far (`forms`), the one shown (`form`), a refusal (`error`), where taps land (`hits`)."""

    def __init__(self, first: Form) -> None:
        self.forms: list[Form] = [first]
        self.form: Form = first
        self.error = ""
        self.hits: list[Hit] = []
        self.fonts = Fonts()
        self.layout: Layout = layout_for(800, 480)
        self.keyboard: KeyboardScreen | None = None
        self.scroll, self.views = 0, 1

    def advance(self) -> Went:
        """Next (Apply) on the page shown; ValueError says why not."""
        raise NotImplementedError

    def tapped(self, target: tuple[Any, ...], pos: tuple[int, int], rect: pygame.Rect) -> Went | None:
        """A tap on a target of the subclass's own (None: not one)."""
        return None

    def go(self, page: Form) -> None:
        """Show `page` after the one shown (the pages after it dropped)."""
        self.forms[self.forms.index(self.form) + 1 :] = [page]
        self.form, self.scroll = page, 0

    def retreat(self) -> Went:
        """Back: the page before, its answers as they were; from the first, leave."""
        index = self.forms.index(self.form)
        if index == 0:
            return "back", None
        self.form = self.forms[index - 1]
        return STAY

    def handle(self, action: Action) -> Went:
        """One input."""
        self.error = ""
        if self.keyboard is not None:
            if self.keyboard.handle(self._host(), action) == "form":
                self.keyboard = None
            return STAY
        try:
            return self._handle(action)
        except ValueError as why:
            self.error = str(why)
            return STAY

    def _handle(self, action: Action) -> Went:
        form, kind = self.form, action.kind
        if kind == "quit":
            return "back", None
        if kind == "turn":
            form.turn(int(action.value))
        elif kind == "digit" and not form.focus.is_apply and not form.focus.is_back:
            form.type_digit(int(action.value))
        elif kind == "back":
            if form.back():
                return self.retreat()
        elif kind == "confirm":
            if form.focus.is_back:
                return self.retreat()
            if text_field(form) is not None:
                return self._type()
            if form.next():
                return self.advance()
        elif kind == "tap":
            return self._tap(action.value)
        return STAY

    def _tap(self, pos: tuple[int, int]) -> Went:
        form = self.form
        for hit in self.hits:
            if not hit.rect.collidepoint(pos):
                continue
            if hit.target[0] == "back":
                return self.retreat()
            if hit.target[0] == "log":
                self.scroll = (self.scroll + 1) % self.views
                return STAY
            if hit.target[0] != "stop":
                went = self.tapped(hit.target, pos, hit.rect)
                if went is not None:
                    return went
                continue
            _, stop, side = hit.target
            assert isinstance(stop, Stop)
            form.focus = stop
            if stop == APPLY:
                return self.advance()
            if text_field(form) is not None:
                return self._type()
            if side:
                form.turn(side)
            return STAY
        return STAY

    def _type(self) -> Went:
        self.keyboard = KeyboardScreen()
        self.keyboard.enter(self._host())
        return STAY

    def _host(self) -> Any:
        """Itself as the keyboard's app (`KeyboardScreen` reads `form`, `hits`, `layout` and `fonts` only): typed as
        Any, since this package never imports `ui/app.py`."""
        return self

    def draw(self, surface: pygame.Surface) -> list[Hit]:
        """The keyboard, or the page across the screen (`draw_page` for a page of the subclass's own)."""
        self.layout = lay = layout_for(*surface.get_size())
        self.fonts.least = read_size(lay, self.fonts)
        surface.fill(theme.BACKGROUND)
        if self.keyboard is not None:
            self.hits = self.keyboard.draw(self._host(), surface)
        else:
            self.hits = self.draw_page(surface, lay)
        return self.hits

    def draw_page(self, surface: pygame.Surface, lay: Layout) -> list[Hit]:
        margin = lay.px(16)
        return draw_form(surface, surface.get_rect().inflate(-2 * margin, -2 * margin), lay, self.form, self.fonts, self.error)


def run_pages(pages: Paged, surface: pygame.Surface) -> Went:
    """`pages` shown until they give something or are left: ("start", what) or ("back", None); an OSError (a file
    that cannot be written) is said on the page, which stays."""
    while True:
        pages.draw(surface)
        if pygame.display.get_init() and pygame.display.get_surface() is surface:
            pygame.display.flip()
        action = translate(next_event())
        if action is None:
            continue
        try:
            went = pages.handle(action)
        except OSError as error:
            pages.error = f"Not saved: {error}"
            continue
        if went[0]:
            return went
