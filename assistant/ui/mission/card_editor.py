"""The card editor on the screen (the start screen's Cards): a new hero sheet or enemy card, or one of the library's
changed, page by page (`card_pages.py`), shown whole, checked as a card file is (`card_library.parse_card`) and
saved to the table's library (`cards/heroes/ID.toml`, `cards/enemies/ID.toml` beside the state file)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import pygame

from assistant.ui import theme
from assistant.ui.form import Choice, Form
from assistant.ui.layout import Layout
from assistant.ui.mission.card_pages import attack_page, card_id, card_page, card_text_data, more_page, numbers_page
from assistant.ui.mission.paged import STAY, Paged, Went, run_pages
from assistant.ui.panel import Hit, draw_form
from assistant.ui.told import Line, draw_log

if TYPE_CHECKING:
    from assistant.session.card_library import CardLibrary

HEADER = "# A card typed on the table's screen (Cards).\n"


def which_page(library: CardLibrary) -> Form:
    """A new card, or one of the library's (the Renaissance's) to change."""
    from assistant.session.card_library import CardFileError

    options: list[tuple[Any, str]] = [(("enemy", None), "a new enemy card"), (("hero", None), "a new hero sheet")]
    for kind, ident, _, _, _ in library.entries():
        try:
            card = library.card(kind, ident)
        except (CardFileError, KeyError):
            continue
        if card.edition == "renaissance":
            options.append(((kind, ident), card.name))
    return Form("which", "Cards", [Choice("card", "Card", options)], lambda f: {}, apply_label="Next",
                note="A new card, or one of the library's to change (an example changed is the table's own)")  # fmt: skip


class CardEditor(Paged):
    """The card's pages so far; Save on the last writes it to the library."""

    def __init__(self, state: Path, library: CardLibrary | None = None) -> None:
        from assistant.session.card_library import library_for

        self.state, self.library = state, library or library_for(state)
        self.kind, self.ident = "enemy", None  # the card changed (None: a new one, its id from its name)
        self.table: dict[str, Any] = {}
        super().__init__(which_page(self.library))

    def data(self) -> dict[str, Any]:
        return card_text_data(self.kind, self.ident or card_id(str(self.forms[1].value("name"))), self.forms[1:])

    def text(self) -> str:
        from assistant.session.toml_writer import toml_text

        return HEADER + toml_text(self.data())

    def advance(self) -> Went:
        form, name = self.form, self.form.name
        for _, item in form.visible():
            if item.key == "name" and not item.value:  # type: ignore[union-attr]
                raise ValueError("Name: still to type (tap it for the keyboard)")
        if name == "which":
            self.kind, self.ident = form.value("card")
            self.table = dict(self.library.card(self.kind, self.ident).table) if self.ident else {}
            self.go(card_page(self.kind, self.table))
        elif name == "card":
            ident = self.ident or card_id(str(form.value("name")))
            if not ident:
                raise ValueError("Name: a name with a letter or a digit, for the card's file")
            if self.ident is None and self.library.find(self.kind, ident) is not None:
                raise ValueError(f'Name: the library has a card "{ident}" already: change it instead (Cards, change)')
            self.go(numbers_page(self.kind, self.table))
        elif name == "numbers" and self.kind == "enemy":
            self.go(self._attack(0))
        elif name.startswith("attack"):
            number = int(name[6:])
            then = form.value("then")
            if then == "add":
                self.go(self._attack(number + 1))
            else:
                self.go(more_page(self.table))
        elif name in ("numbers", "more"):
            self.go(Form("review", "The card, whole", [], lambda f: {}, apply_label="Save"))
            self.check()
        else:
            return "start", self.save()
        return STAY

    def _attack(self, number: int) -> Form:
        attacks = list(self.table.get("attacks", []))
        page = attack_page(number, attacks[number] if number < len(attacks) else {}, more=number + 1 < len(attacks))
        old = next((f for f in self.forms if f.name == page.name), None)
        return old if old is not None and self.forms.index(old) <= self.forms.index(self.form) + 1 else page

    def check(self) -> Any:
        """The card read back as a card file is (the same checks, said as `FIELD: what was expected`)."""
        from assistant.session.card_library import FOLDERS, CardFileError, parse_card

        ident = str(self.data()[self.kind]["id"])
        try:
            return parse_card(self.text(), f"{FOLDERS[self.kind]}/{ident}.toml", ident, self.kind)
        except CardFileError as error:
            self.error = "; ".join(problem.render("").split(": ", 1)[-1] for problem in error.problems)
            raise ValueError(self.error) from None

    def save(self) -> Path:
        """Checked, then written to the table's library (a card of the examples changed: the table's, which wins)."""
        from assistant.files import state_files, write_file
        from assistant.session.card_library import FOLDERS

        card = self.check()
        folder = self.library.own / FOLDERS[self.kind]
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{card.id}.toml"
        write_file(path, self.text(), "the card", state_files(self.state))
        return path

    def lines(self) -> list[str]:
        """The card in words, for its last page."""
        table = self.data()[self.kind]
        names = [f"{table['name']} ({table['id']}.toml)"]
        keys: tuple[str, ...]
        if self.kind == "hero":
            names.append(f"{table['class']}" + (f", {table['role']}" if "role" in table else ""))
            keys = ("swiftness", "dexterity", "physique", "mind", "health", "resistance")
        else:
            names.append(f"{table['rank']}, {table['faction']}; priority {', '.join(table.get('target_priority', []))}")
            keys = ("swiftness", "control_area", "physical_defense", "psychic_defense", "health")
        names.append(", ".join(f"{key.replace('_', ' ').capitalize()} {table[key]}" for key in keys))
        for attack in table.get("attacks", []):
            low, high = attack["range"]
            strength = f"{attack['hits']} hits" if "hits" in attack else f"contrast {attack['contrast']}"
            traits = f", {', '.join(attack['traits'])}" if attack["traits"] else ""
            names.append(f"{attack['name']}: {attack['kind']}, {attack['ap']} AP, range {low}-{high}, {strength}, "
                         f"{attack['threshold']}+{traits}")  # fmt: skip
        if table.get("loot") or table.get("generic_skills"):
            names.append(f"Loot: {', '.join(table.get('loot', [])) or 'none'}; skills: {', '.join(table.get('generic_skills', [])) or 'none'}")
        return names

    def draw_page(self, surface: pygame.Surface, lay: Layout) -> list[Hit]:
        if self.form.name != "review":
            return super().draw_page(surface, lay)
        area = surface.get_rect().inflate(-2 * lay.px(16), -2 * lay.px(16))
        hits = draw_form(surface, area, lay, self.form, self.fonts, self.error)
        if self.error:  # the reader's words in the lines' place: Back to put it right
            return hits
        top = area.top + lay.px(44)
        room = pygame.Rect(area.left, top, area.width, area.bottom - lay.px(56) - lay.gap - top)
        lines = [Line(words, theme.TEXT) for words in self.lines()]
        drawn, _, self.views = draw_log(surface, room, lines, self.scroll, lay, self.fonts)
        hits += [Hit(d.rect, d.target) for d in drawn if d.target[0] == "log"]
        return hits + ([Hit(room, ("log",))] if self.views > 1 else [])


def edit_card(surface: pygame.Surface, state: Path) -> Path | None:
    """Shown until Save: the card file written; None when Back leaves the first page or the window is closed."""
    went, path = run_pages(CardEditor(state), surface)
    return Path(path) if went == "start" else None
