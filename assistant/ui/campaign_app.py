"""The Renaissance campaign sheet on the screen (the start screen's Campaign sheet): all it holds, read at the table's
type, and changed by touch (Experience, Florins, Reagents; an item, an achievement, a skill, an Advanced Class, a
hero, in words typed on the on-screen keyboard: `campaign_forms.py`, `keyboard.py`) with the same undo and redo: one
journal of the state file (`assistant/session/campaign.py`), the events `nova-table session apply --game campaign`
journals."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from assistant.rules.questions import counted
from assistant.ui import theme
from assistant.ui.app import App
from assistant.ui.campaign_forms import campaign_form, campaign_items
from assistant.ui.form import Form, Stop, Text
from assistant.ui.inputs import Action
from assistant.ui.intents import Item, turned
from assistant.ui.keyboard import KeyboardScreen, text_field
from assistant.ui.mission.carry import MissionEnd, carry_form
from assistant.ui.panel import Hit, _text, draw_form, draw_menu, read_size
from assistant.ui.screens import FormScreen, Screen
from assistant.ui.told import Line, draw_log

if TYPE_CHECKING:
    from assistant.session.campaign import CampaignSheet

class CampaignApp(App):
    """`App` with the campaign sheet's screens; no Horologium, no knobs, no dice. Back (its button, Escape, Backspace,
    the encoder held) closes it for the start screen (`to_start`): every change is journaled already."""

    to_start = False
    to_build = False  # New mission: the mission builder, with the sheet's Heroes

    def screens(self) -> list[Screen]:
        return [CampaignScreen(), CampaignFormScreen(), KeyboardScreen()]

    def carry(self, end: MissionEnd) -> None:
        """A campaign mission's end, brought here by its Campaign sheet button: its form open on the sheet."""
        self.form, self.error, self.said = carry_form(end), "", []
        self.machine.go(self, "form")

    @property
    def sheet(self) -> CampaignSheet:
        return self.game.state  # type: ignore[return-value]

    @staticmethod
    def _asks_again(before: Any, after: Any) -> bool:
        return False

    def _mirror(self) -> None:
        """The board shows the Horologium: the sheet leaves it as it is."""

    def _apply_knobs(self) -> None:
        self._knobs = {}


def sheet_lines(sheet: CampaignSheet) -> list[str]:
    """The sheet in lines of words: the party's, then one a hero."""
    reagents = ", ".join(f"{count} {name}" for name, count in sheet.reagents) or "none"
    lines = [f"Experience {sheet.experience} · Florins {sheet.florins} · Reagents: {reagents}"]
    if sheet.next_mission:
        lines.append(f"Next mission: {sheet.next_mission}" + (f", in {sheet.town}" if sheet.town else ""))
    lines.append("Inventory: " + (", ".join(sheet.inventory) or "empty"))
    lines.append("Achievements: " + (", ".join(sheet.achievements) or "none"))
    lines += ["Hunts: " + ", ".join(f"{prey} ({mission})" for prey, mission in sheet.hunts)] if sheet.hunts else []
    lines += ["Side missions: " + ", ".join(title for _, title in sheet.side_missions)] if sheet.side_missions else []
    lines += ["Missions played: " + ", ".join(f"{title} ({result})" for _, title, result in sheet.missions)] if sheet.missions else []
    for hero in sheet.heroes:
        kind = hero.advanced_class or hero.hero_class
        skills = ", ".join(skill.name for skill in hero.skills) or "no skill"
        words = f"{hero.name}, {kind}: {sheet.experience - hero.experience_spent} Experience to spend; {skills}"
        words += f"; Destiny {', '.join(map(str, hero.destiny_resolved))}" if hero.destiny_resolved else ""
        words += f"; injuries: {', '.join(hero.injuries)}" if hero.injuries else ""
        lines.append(words + (f"; {counted(hero.achievements, 'achievement')}" if hero.achievements else ""))
    if not sheet.heroes:
        lines.append("No hero yet: Hero (H) adds one")
    return lines


class CampaignScreen:
    """The sheet, then its buttons; the words scroll with a tap where they do not fit."""

    name = "table"

    def __init__(self) -> None:
        self.focus = 0
        self.items: list[Item] = []
        self.scroll = 0
        self.views = 1
        self.lines: list[Line] = []  # the sheet's words drawn last

    def enter(self, app: App) -> None:
        self.items = campaign_items(app.game.state, app.game.can_undo(), app.game.can_redo())  # type: ignore[arg-type]

    def handle(self, app: App, action: Action) -> str | None:
        self.enter(app)
        if action.kind == "turn":
            self.focus = turned(self.items, self.focus, int(action.value))
        elif action.kind == "confirm":
            return self.choose(app, self.focus)
        elif action.kind == "back":
            self.leave(app)
        elif action.kind == "key":
            return next((self.choose(app, n) for n, item in enumerate(self.items) if item.key == action.value), None)
        elif action.kind == "tap":
            for hit in app.hits:
                if hit.rect.collidepoint(action.value):
                    if hit.target[0] == "log":
                        self.scroll = (self.scroll + 1) % self.views
                        return None
                    return self.choose(app, hit.target[1])
        return None

    def choose(self, app: App, index: int) -> str | None:
        item = self.items[index]
        if not item.enabled:
            return None
        self.focus = index
        if item.command == "back":
            self.leave(app)
        elif item.command == "build":  # a mission of the sheet's Heroes: the builder (`command.run`), then the game
            app.to_build = True  # type: ignore[attr-defined]
            app.running = False
        elif item.command:
            app.command(item.command)
        if item.command:
            return None
        app.form, app.error, app.said = campaign_form(item.form, app.game.state), "", []  # type: ignore[arg-type]
        return "form"

    @staticmethod
    def leave(app: App) -> None:
        """Back to the start screen (`command.run` shows it again when the loop ends)."""
        app.to_start = True  # type: ignore[attr-defined]
        app.running = False

    def draw(self, app: App, surface: pygame.Surface) -> list[Hit]:
        self.enter(app)
        lay, fonts = app.layout, app.fonts
        fonts.least = read_size(lay, fonts)
        area = surface.get_rect().inflate(-2 * lay.gap, -2 * lay.gap)
        _text(surface, fonts, "Campaign sheet", lay.px(36), theme.TEXT, pygame.Rect(area.left, area.top, area.width, lay.px(44)))
        main = [item for item in self.items if item.kind != "command"]
        strip = pygame.Rect(area.left, area.bottom - lay.px(50), area.width, lay.px(50))
        columns = 2 if lay.portrait else 3  # labels whole
        rows = (len(main) + columns - 1) // columns
        height = rows * lay.px(56 if lay.portrait else 48) + (rows - 1) * lay.gap  # the sheet's words keep 6 lines
        grid = pygame.Rect(area.left, strip.top - lay.gap - height, area.width, height)
        lines = [Line(words, theme.TEXT) for words in sheet_lines(app.game.state)]  # type: ignore[arg-type]
        lines += [Line(app.error, theme.DANGER)] if app.error else []
        lines += [Line(words, theme.MUTED) for words in app.said]
        words = pygame.Rect(area.left, area.top + lay.px(48), area.width, grid.top - lay.gap - area.top - lay.px(48))
        drawn, _, self.views = draw_log(surface, words, lines, self.scroll, lay, fonts)
        self.lines = lines
        hits = draw_menu(surface, grid, lay, main, self.focus, fonts, columns=columns)
        hits += draw_menu(surface, strip, lay, self.items[len(main):], self.focus, fonts, columns=3, first=len(main))
        return hits + [Hit(d.rect, d.target) for d in drawn if d.target[0] == "log"]


class CampaignFormScreen(FormScreen):
    """A change of the sheet: its form across the screen. On words (`form.Text`) a press, a tap or a letter or digit
    key opens the keyboard (the key typed first)."""

    def edit(self, app: App, form: Form, action: Action) -> str | None:
        if action.kind == "tap":
            stop = next((hit.target[1] for hit in app.hits if hit.rect.collidepoint(action.value) and hit.target[0] == "stop"), None)
            if isinstance(stop, Stop) and stop.field >= 0 and isinstance(form.fields[stop.field], Text):
                form.focus = stop
                return "keyboard"
        elif text_field(form) is not None and action.kind in ("confirm", "key", "digit"):
            if action.kind != "confirm":
                keyboard = app.machine.screens["keyboard"]
                assert isinstance(keyboard, KeyboardScreen)
                keyboard.start = str(action.value).upper()
            return "keyboard"
        return super().edit(app, form, action)

    def draw(self, app: App, surface: pygame.Surface) -> list[Hit]:
        lay, fonts = app.layout, app.fonts
        fonts.least = read_size(lay, fonts)
        assert app.form is not None
        area = surface.get_rect().inflate(-4 * lay.gap, -4 * lay.gap)
        return draw_form(surface, area, lay, app.form, fonts, app.error)
