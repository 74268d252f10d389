"""The screens of a game of Nova Lectio: Status: the table (the board, the phase, what it asks, the menu) and a
form beside the board; the same input model as Nova Aetas's (`screens.py`): touch, encoder and keys."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from assistant.status import Phase, StatusGame
from assistant.ui import theme
from assistant.ui.form import Form
from assistant.ui.inputs import Action
from assistant.ui.intents import Item, turned
from assistant.ui.panel import Hit, _text, draw_form, draw_lines, draw_menu, read_size
from assistant.ui.screens import FormScreen
from assistant.ui.status_board import FACTION_COLORS, draw_board, fitting, regions
from assistant.ui.status_forms import SHORT, final_form, fix_form, preview, resolve_form, send_form
from assistant.ui.status_intents import asks, status_menu

if TYPE_CHECKING:
    from assistant.ui.status_app import StatusApp


def make_status_form(name: str, state: StatusGame, page: int = 0, counted: dict[str, dict[str, int]] | None = None) -> Form:
    """The form an item opens."""
    if name == "send":
        return send_form(state)
    if name == "resolve":
        return resolve_form(state)
    if name == "final":
        return final_form(state, page, counted or {})
    return fix_form(state)


class StatusTableScreen:
    """The board, the round and phase, whose turn, what the phase asks and what just happened; the menu."""

    name = "table"

    def __init__(self) -> None:
        self.focus = 0
        self.items: list[Item] = []
        self.shown = 1  # the steps of the final count shown so far
        self._over: object = None  # the finished game `shown` counts for
        self._moment: object = None

    def enter(self, app: StatusApp) -> None:
        self.refresh(app)

    def steps(self, state: StatusGame) -> tuple[str, ...]:
        """The final count's steps (the awards, then the winner), once the game is over."""
        return state.notes if state.over else ()

    def refresh(self, app: StatusApp) -> None:
        """The menu of the state now; the focus on its first open intent when the phase or the turn changes (a
        press more than meant does not act for the next Faction alike)."""
        state = app.status
        if state.over and self._over is not state:
            self.shown, self._over = 1, state
        left = max(0, len(self.steps(state)) - self.shown)
        previous = [item.label for item in self.items]
        self.items = status_menu(state, app.game.can_undo(), app.game.can_redo(), left)
        moment = (state.round, state.phase, state.to_play, state.next_card, state.over)
        stale = self.focus >= len(self.items) or not self.items[self.focus].enabled
        if [item.label for item in self.items] != previous or stale or moment != self._moment:
            self.focus = next((n for n, item in enumerate(self.items) if item.enabled), 0)
        self._moment = moment

    def handle(self, app: StatusApp, action: Action) -> str | None:
        self.refresh(app)
        if action.kind == "turn":
            self.focus = turned(self.items, self.focus, int(action.value))
        elif action.kind == "confirm":
            return self.choose(app, self.focus)
        elif action.kind == "digit":  # Phase V's +1, +2 and 0 by their number; otherwise the n-th button
            keyed = [n for n, item in enumerate(self.items) if item.key == str(action.value)]
            if keyed:
                return self.choose(app, keyed[0])
            if 1 <= action.value <= len(self.items):
                return self.choose(app, action.value - 1)
        elif action.kind == "key":
            for index, item in enumerate(self.items):
                if item.key == action.value:
                    return self.choose(app, index)
        elif action.kind == "tap":
            for hit in app.hits:
                if hit.rect.collidepoint(action.value) and hit.target[0] == "item":
                    return self.choose(app, hit.target[1])
        return None

    def choose(self, app: StatusApp, index: int) -> str | None:
        item = self.items[index]
        if not item.enabled:
            return None
        self.focus = index
        if item.command == "reveal":
            self.shown += 1
            self.refresh(app)
        elif item.command:
            app.command(item.command)
        elif item.event is not None:
            app.act(item.event)
        elif item.form:
            app.counted = {}
            app.form = make_status_form(item.form, app.status)
            app.error = ""
            return "form"
        return None

    def draw(self, app: StatusApp, surface: pygame.Surface) -> list[Hit]:
        self.refresh(app)
        lay, fonts, state = app.layout, app.fonts, app.status
        board, area = regions(lay)
        draw_board(surface, board, state, fonts)
        y = self._header(app, surface, area)
        main = [item for item in self.items if item.kind != "command"]
        commands = [item for item in self.items if item.kind == "command"]
        strip = pygame.Rect(area.left, area.bottom - lay.px(46), area.width, lay.px(46))
        columns = max(1, min(3, len(main)))
        rows = (len(main) + columns - 1) // columns
        grid_h = rows * lay.px(60) + (rows - 1) * lay.gap
        grid = pygame.Rect(area.left, strip.top - lay.gap - grid_h, area.width, grid_h)
        words = pygame.Rect(area.left, y + lay.px(4), area.width, grid.top - y - lay.px(10))
        draw_lines(surface, words, lay, self._lines(app, state), fonts)
        hits = draw_menu(surface, grid, lay, main, self.focus, fonts, columns=columns)
        return hits + draw_menu(surface, strip, lay, commands, self.focus, fonts, columns=3, first=len(main))

    def _header(self, app: StatusApp, surface: pygame.Surface, area: pygame.Rect) -> int:
        """The phase as the book heads it, and whose turn it is in the Faction's colour; returns y below."""
        lay, fonts, state = app.layout, app.fonts, app.status
        y = area.top
        if state.over:
            title, color = "The final count", theme.TEXT
            if self.shown >= len(self.steps(state)) and state.winner is not None:
                title, color = f"{state.winner.full_name} wins", FACTION_COLORS[state.winner]
            _text(surface, fonts, title, lay.px(30), color, pygame.Rect(area.left, y, area.width, lay.px(40)))
            return y + lay.px(42)
        heading = state.phase.heading.split(" - ")
        first = f"Round {state.round} · {heading[0]}" if state.phase is not Phase.END else heading[0]
        _text(surface, fonts, first, lay.px(30), theme.TEXT, pygame.Rect(area.left, y, area.width, lay.px(38)))
        y += lay.px(38)
        if len(heading) > 1:
            _text(surface, fonts, heading[1], lay.px(22), theme.MUTED, pygame.Rect(area.left, y, area.width, lay.px(28)))
            y += lay.px(28)
        who = state.to_play
        if who is not None:
            verb = "sends" if state.phase is Phase.II else "increases Status"
            said = fitting(fonts, [f"{who.full_name} {verb}", f"{SHORT[who]} {verb}", SHORT[who]], lay.px(26), area.width)
            _text(surface, fonts, said, lay.px(26), FACTION_COLORS[who], pygame.Rect(area.left, y, area.width, lay.px(34)))
            y += lay.px(34)
        return y

    def _lines(self, app: StatusApp, state: StatusGame) -> list[tuple[str, Any]]:
        """What just happened (older notes muted), what the phase asks (gold), a refusal (red); once over, the final
        count's steps shown so far, the newest in gold."""
        if state.over:
            steps = self.steps(state)[: self.shown]
            lines = [(f"{n + 1}. {step}", theme.EVENT if n == len(steps) - 1 else theme.TEXT) for n, step in enumerate(steps)]
        else:
            notes = list(state.notes)
            lines = [(note, theme.TEXT if n == len(notes) - 1 else theme.MUTED) for n, note in enumerate(notes)]
            lines.append((asks(state), theme.EVENT))
        if app.error:
            lines.append((app.error, theme.DANGER))
        return lines


class StatusFormScreen(FormScreen):
    """A form beside the board; the final count takes a page per Faction before its event is applied."""

    def apply(self, app: StatusApp, form: Form) -> str | None:  # type: ignore[override]
        try:
            event = form.event()
        except ValueError as problem:
            app.error = str(problem)
            return None
        if event.get("type") == "_count":  # the next Faction's page; nothing journaled until the last
            app.counted[str(event["faction"])] = dict(event["count"])
            return self.chain(app, make_status_form("final", app.status, len(app.counted), app.counted))
        if app.act(event):
            return self.leave(app)
        return None

    def draw(self, app: StatusApp, surface: pygame.Surface) -> list[Hit]:  # type: ignore[override]
        lay, fonts = app.layout, app.fonts
        board, panel = regions(lay)
        draw_board(surface, board, app.status, fonts)
        assert app.form is not None
        pygame.draw.rect(surface, theme.PANEL, panel, border_radius=lay.px(10))
        inner = panel.inflate(-2 * lay.gap, -2 * lay.gap)
        said = preview(app.status, app.form)  # who takes the card, as the values stand: in room kept for it (3
        kept = 3 * fonts.get(read_size(lay, fonts)).get_linesize() if said else 0  # lines), the rows stay put
        return draw_form(surface, inner, lay, app.form, fonts, app.error, said, kept)
