"""The Renaissance campaign sheet on the screen (the start screen's Campaign sheet): all it holds, read at the table's
type, and its numbers changed by touch (Experience, Florins, Reagents) with the same undo and redo: one journal of
the state file (`assistant/session/campaign.py`). Changes in words (an item, an achievement, a skill, an injury)
need a keyboard: `nova-table session apply --game campaign`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from assistant.ui import theme
from assistant.ui.app import App
from assistant.ui.form import Choice, Field, Form, Number
from assistant.ui.inputs import Action
from assistant.ui.intents import Item
from assistant.ui.panel import Hit, _text, draw_form, draw_menu, read_size
from assistant.ui.screens import FormScreen, Screen
from assistant.ui.told import Line, draw_log

if TYPE_CHECKING:
    from assistant.session.campaign import CampaignSheet

REAGENTS = ("Alchemia", "Elementum", "Pecunia")  # the Reagent Cards' types


class CampaignApp(App):
    """`App` with the campaign sheet's screens; no Horologium, no knobs, no dice. Back (its button, Escape, Backspace,
    the encoder held) closes it for the start screen (`to_start`): every change is journaled already."""

    to_start = False

    def screens(self) -> list[Screen]:
        return [CampaignScreen(), CampaignFormScreen()]

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
    for hero in sheet.heroes:
        kind = hero.advanced_class or hero.hero_class
        skills = ", ".join(skill.name for skill in hero.skills) or "no skill"
        words = f"{hero.name}, {kind}: {sheet.experience - hero.experience_spent} Experience to spend; {skills}"
        words += f"; Destiny {', '.join(map(str, hero.destiny_resolved))}" if hero.destiny_resolved else ""
        words += f"; injuries: {', '.join(hero.injuries)}" if hero.injuries else ""
        lines.append(words + (f"; {hero.achievements} achievements" if hero.achievements else ""))
    if not sheet.heroes:
        lines.append("No hero yet (nova-table session apply --game campaign: add_hero)")
    return lines


def campaign_items(can_undo: bool, can_redo: bool) -> list[Item]:
    return [Item("Experience +", "x", form="xp"), Item("Florins", "f", form="florins"), Item("Reagents", "r", form="reagents"),
            Item("Undo", "u", command="undo", enabled=can_undo, kind="command"),
            Item("Redo", "y", command="redo", enabled=can_redo, kind="command"),
            Item("Back", "b", command="back", kind="command")]  # fmt: skip


def campaign_form(name: str) -> Form:
    """Experience gained, Florins in or out, Reagents taken or spent."""
    if name == "xp":
        return Form("xp", "Experience gained", [Number("xp", "Experience", 1, 30, 1)],
                    lambda f: {"type": "gain_experience", "xp": f.value("xp")}, apply_label="Gain")  # fmt: skip
    way = Choice("way", "In or out", [(1, "in"), (-1, "out")])
    if name == "florins":
        return Form("florins", "Florins", [way, Number("amount", "Florins", 1, 500, 10)],
                    lambda f: {"type": "florins", "amount": f.value("way") * f.value("amount")})  # fmt: skip
    fields: list[Field] = [Choice("reagent", "Reagent", [(r, r) for r in REAGENTS]), way, Number("amount", "How many", 1, 20, 1)]
    return Form("reagents", "Reagents", fields, lambda f: {"type": "reagents", "reagent": f.value("reagent"),
                "amount": f.value("way") * f.value("amount")})  # fmt: skip


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
        self.items = campaign_items(app.game.can_undo(), app.game.can_redo())

    def handle(self, app: App, action: Action) -> str | None:
        self.enter(app)
        enabled = [n for n, item in enumerate(self.items) if item.enabled]
        if action.kind == "turn" and enabled:
            at = enabled.index(self.focus) if self.focus in enabled else 0
            self.focus = enabled[(at + int(action.value)) % len(enabled)]
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
        elif item.command:
            app.command(item.command)
        if item.command:
            return None
        app.form, app.error, app.said = campaign_form(item.form), "", []
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
        columns = 1 if lay.portrait else 3  # in portrait a button a row, its label whole
        rows = (len(main) + columns - 1) // columns
        height = rows * lay.px(56) + (rows - 1) * lay.gap
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
    """A change of the sheet: its form across the screen."""

    def draw(self, app: App, surface: pygame.Surface) -> list[Hit]:
        lay, fonts = app.layout, app.fonts
        fonts.least = read_size(lay, fonts)
        assert app.form is not None
        area = surface.get_rect().inflate(-4 * lay.gap, -4 * lay.gap)
        return draw_form(surface, area, lay, app.form, fonts, app.error)
