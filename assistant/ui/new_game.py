"""The screen that starts a new game (`nova-table play --new`): Nova Aetas or Nova Lectio: Status, and for Status
the Factions at the table, clockwise, and who holds the Priority token. A form like the table's own: the encoder
turns and presses, the keys as everywhere, a tap on a value's arrows or on Start."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pygame

from assistant.service import next_event
from assistant.ui import theme
from assistant.ui.form import APPLY, Form, Stop
from assistant.ui.inputs import Action, translate
from assistant.ui.layout import layout_for
from assistant.ui.panel import Hit, draw_form
from assistant.ui.status_forms import new_game_form
from assistant.ui.theme import Fonts


def draw_chooser(surface: pygame.Surface, fonts: Fonts, form: Form, error: str = "") -> list[Hit]:
    """The form across the whole screen; where taps land."""
    lay = layout_for(*surface.get_size())
    surface.fill(theme.BACKGROUND)
    margin = lay.px(16)
    area = surface.get_rect().inflate(-2 * margin, -2 * margin)
    if lay.portrait:  # a column a thumb can reach: the lower part of a tall screen
        area.height = min(area.height, lay.px(560))
        area.bottom = surface.get_height() - margin
    return draw_form(surface, area, lay, form, fonts, error)


def handle(form: Form, action: Action, hits: list[Hit]) -> tuple[str, Any]:
    """One input on the form: ("start", what the form says), ("back", None) to leave, ("error", why), ("", None)."""
    kind = action.kind
    if kind == "quit":
        return "back", None
    if kind == "turn":
        form.turn(int(action.value))
    elif kind == "back":
        if form.back():
            return "back", None
    elif kind == "confirm":
        if form.focus.is_back:
            return "back", None
        if form.next():
            return _start(form)
    elif kind == "tap":
        for hit in hits:
            if not hit.rect.collidepoint(action.value):
                continue
            if hit.target[0] == "back":
                return "back", None
            _, stop, side = hit.target
            assert isinstance(stop, Stop)
            form.focus = stop
            if stop == APPLY:
                return _start(form)
            if side:
                form.turn(side)
            break
    return "", None


def _start(form: Form) -> tuple[str, Any]:
    try:
        return "start", form.event()
    except ValueError as why:
        return "error", str(why)


def choose_game(surface: pygame.Surface, kind: str = "mission", offers: Sequence[tuple[Any, str, str]] = ()) -> dict[str, Any] | None:
    """Shown until Start: {"game": "mission"} or {"game": "status", "factions": [...], "priority": F}, or one of
    `offers` ({"game": "resume", "id": N}, {"game": "mission", "scenario": path}: `ui/start.py`); None when the window
    is closed, or Back is chosen (nothing is started)."""
    fonts = Fonts()
    form = new_game_form(kind, offers=offers)
    error = ""
    while True:
        hits = draw_chooser(surface, fonts, form, error)
        if pygame.display.get_init() and pygame.display.get_surface() is surface:
            pygame.display.flip()
        action = translate(next_event())  # (systemd: ready, and its watchdog fed while it waits)
        if action is None:
            continue
        went, value = handle(form, action, hits)
        error = value if went == "error" else ""  # a refusal stays until the next input
        if went == "start":
            return dict(value)
        if went == "back":
            return None
