"""The mission builder on the screen (the start screen's New mission): the pages of `pages.py` in turn, by touch, the
encoder and the keys as every form; on the Horologium's page the dial shows the tokens where they are put, and a tap
on a sector puts the focused token (or hand) there. The last page shows the mission whole; Start writes it as a
scenario file in the folder `scenarios` beside the state file and gives its path, which starts as any scenario."""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import pygame

from assistant.rules import game as rules
from assistant.rules.scenario import Scenario
from assistant.ui import theme
from assistant.ui.dial import draw_dial
from assistant.ui.form import Form, Number
from assistant.ui.inputs import Action
from assistant.ui.layout import Layout
from assistant.ui.mission.pages import (Chosen, Pool, end_page, enemies_page, file_name, horologium_page, mission_page,
                                        summary)  # fmt: skip
from assistant.ui.mission.paged import STAY, Paged, Went, run_pages
from assistant.ui.panel import Hit, draw_form
from assistant.ui.told import Line, draw_log

if TYPE_CHECKING:
    from assistant.session.campaign import CampaignSheet
    from assistant.session.card_library import CardLibrary

HEADER = "# A mission set up on the table's screen (New mission): its cards are the library's, named by `card`.\n"
SECTOR_KEYS = ("hour", "minute", "token:", "mystery0", "mystery1", "mystery2")  # the fields a tap on the dial sets


def campaign_sheet(state: Path) -> CampaignSheet | None:
    """The state file's campaign sheet, where it has one with Heroes (read only; None where there is none)."""
    from assistant.session.games import StateFile

    if not state.exists():
        return None
    try:
        with StateFile(state, read_only=True) as games:
            sheet = games.journal("campaign").state
    except Exception:  # no campaign in this file, or one that cannot be read: the library's Heroes
        return None
    return cast("CampaignSheet", sheet) if sheet.heroes else None


class MissionBuilder(Paged):
    """The pages and the answers so far; `handle` one input, `draw` the page."""

    def __init__(self, state: Path, library: CardLibrary | None = None, sheet: CampaignSheet | None = None) -> None:
        from assistant.session.card_library import library_for

        self.state, self.folder = state, state.parent / "scenarios"
        self.pool = Pool(library or library_for(state), sheet)
        self.chosen = Chosen()
        super().__init__(mission_page(self.pool))
        self.scenario: Scenario | None = None  # the mission as read back, for the dial and the last page
        self._read: tuple[str, Scenario | str] | None = None

    # -- the answers -------------------------------------------------------------------------

    def text(self) -> str:
        from assistant.session.toml_writer import toml_text

        return HEADER + toml_text(self.chosen.data())

    def read(self) -> Scenario:
        """The pages' mission read back through the scenario reader (its cards from the library); ValueError with the
        reader's words where it is wrong (each problem's field, as in a file)."""
        from assistant.session.errors import ScenarioError
        from assistant.session.scenario_file import parse_scenario

        text = self.text()
        if self._read is None or self._read[0] != text:
            try:
                self._read = (text, parse_scenario(text, "the mission", self.pool.library))
            except ScenarioError as error:
                self._read = (text, "; ".join(p.render("").split(": ", 1)[-1] for p in error.problems))
        found = self._read[1]
        if isinstance(found, str):
            raise ValueError(found)
        return found

    def _page(self, form: Form) -> Form:
        """The next page: kept as it was where what it offers has not changed."""
        chosen = self.chosen
        names = {"mission": "enemies", "enemies": "horologium", "horologium": "end", "end": "review"}
        name = names[form.name]
        if name == "enemies":
            page = enemies_page(self.pool, chosen.edition)
        elif name == "horologium":
            page = horologium_page(chosen.tokens())
        elif name == "end":
            page = end_page(chosen.edition)
        else:
            page = Form("review", "The mission, whole", [], lambda f: {}, apply_label="Start")
        old = next((f for f in self.forms if f.name == name), None)
        if old is not None and [(f.key, f.label) for f in old.fields] == [(f.key, f.label) for f in page.fields]:
            if name != "enemies" or [getattr(f, "options", None) for f in old.fields] == [getattr(f, "options", None) for f in page.fields]:
                page = old
        return page

    def advance(self) -> tuple[str, Any]:
        """Next: the page's answers taken, checked where they can be, and the next page; Start on the last."""
        form = self.form
        self.chosen.read(form)
        if form.name == "mission" and not self.chosen.heroes:
            raise ValueError("Seat a Hero at least: a mission needs one")
        ids = [p.id for p in self.chosen.heroes] if form.name == "mission" else [p.id for p, _ in self.chosen.groups]
        for n, ident in enumerate(ids):
            if ident in ids[:n]:  # one card, one id, one token
                what, name = ("Hero", self.chosen.heroes[n].name) if form.name == "mission" else ("Group", self.chosen.groups[n][0].name)
                raise ValueError(f"{what} {n + 1}: {name} is {what} {ids.index(ident) + 1} already"
                                 + ("" if what == "Hero" else ": one card is one group, of as many models as it has"))
        if form.name == "enemies":
            for pick, _ in self.chosen.groups:
                table = self.pool.library.card("enemy", pick.id).table
                self.chosen.factions[pick.id] = (str(table.get("faction", "")), str(table.get("rank", "")))
        if form.name in ("horologium", "end", "review"):
            self.scenario = self.read()
        if form.name == "review":
            return "start", self.save()
        nxt = self._page(form)
        self.go(nxt)
        if nxt.name == "horologium":  # the dial shows its tokens where they stand from the first
            self.chosen.read(nxt)
            self.scenario = self._scenario_or_none()
        return "", None

    def _scenario_or_none(self) -> Scenario | None:
        try:
            return self.read()
        except ValueError:
            return None

    def save(self) -> Path:
        """The mission written as a scenario file of the folder, named after its title (a new name: none replaced)."""
        from assistant.files import state_files, write_file

        self.folder.mkdir(parents=True, exist_ok=True)
        taken = [p.name for p in self.folder.glob("*.toml")]
        path = self.folder / file_name(self.chosen.title, taken)
        write_file(path, self.text(), "the scenario", state_files(self.state))
        return path

    # -- inputs ------------------------------------------------------------------------------

    def handle(self, action: Action) -> Went:
        """One input: ("start", the scenario file written), ("back", None) to leave, or ("", None)."""
        went = super().handle(action)
        if self.form.name == "horologium" and went == STAY and self.keyboard is None:
            self.chosen.read(self.form)
            self.scenario = self._scenario_or_none()
        return went

    def tapped(self, target: tuple[Any, ...], pos: tuple[int, int], rect: pygame.Rect) -> Went | None:
        if target[0] != "dial":
            return None
        self._place(pos, rect)
        return STAY

    def _place(self, pos: tuple[int, int], dial: pygame.Rect) -> None:
        """A tap on the dial: the focused hand or token in the sector tapped, and the focus on to the next one."""
        form = self.form
        if form.focus.field < 0:
            return
        item = form.fields[form.focus.field]
        if not isinstance(item, Number) or not item.key.startswith(SECTOR_KEYS):
            return
        angle = math.degrees(math.atan2(pos[0] - dial.centerx, dial.centery - pos[1])) % 360
        sector = round(angle / 30) % 12 or 12  # sector N's middle at N x 30 degrees (`dial.sector_angle`)
        item.set(sector)
        form.refresh()
        form.next()

    # -- drawing -----------------------------------------------------------------------------

    def draw_page(self, surface: pygame.Surface, lay: Layout) -> list[Hit]:
        form, fonts = self.form, self.fonts
        if form.name not in ("horologium", "review"):
            return super().draw_page(surface, lay)
        hits: list[Hit] = []
        state = rules.new_game(self.scenario) if self.scenario is not None else None
        panel = lay.panel
        if form.name == "review" and not lay.portrait:  # beside the dial its words would need a tap to be read whole
            state, panel = None, surface.get_rect().inflate(-2 * lay.gap, -2 * lay.gap)
        if state is not None:
            draw_dial(surface, lay.dial, state, fonts)
            if form.name == "horologium":
                hits.append(Hit(lay.dial, ("dial",)))
        hits = draw_form(surface, panel, lay, form, fonts, self.error) + hits
        if form.name == "review":
            lines = [Line(words, theme.TEXT) for words in (summary(self.scenario) if self.scenario is not None else [])]
            top = panel.top + lay.px(44)
            room = pygame.Rect(panel.left, top, panel.width, panel.bottom - lay.px(56) - lay.gap - top)
            drawn, _, self.views = draw_log(surface, room, lines, self.scroll, lay, fonts)
            hits += [Hit(d.rect, d.target) for d in drawn if d.target[0] == "log"]
            if self.views > 1:
                hits.append(Hit(room, ("log",)))
        return hits


def build_mission(surface: pygame.Surface, state: Path) -> Path | None:
    """Shown until Start: the scenario file written; None when Back leaves the first page or the window is closed."""
    went, path = run_pages(MissionBuilder(state, sheet=campaign_sheet(state)), surface)
    return Path(path) if went == "start" else None
