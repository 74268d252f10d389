"""The card editor (issue 66): a card typed on the screen, field by field, is the card a file would be: the same
checks, the same game; a card of the library changed; a wrong one said, and nothing saved."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pytest

from assistant.rules.game import new_game
from assistant.session.card_library import CardLibrary, EXAMPLES
from assistant.session.scenario_file import parse_scenario
from assistant.ui.form import APPLY, Stop
from assistant.ui.mission.card_editor import CardEditor
from assistant.ui import theme
from tests.ui.conftest import action, click
from tests.ui.test_start import pygame_again  # noqa: F401  (a fixture)
from tests.ui.test_type_scale import record

HAND = """format = 1
edition = "renaissance"

[enemy]
id = "papal_sentry"
name = "Papal Sentry"
rank = "elite"
faction = "Rome"
swiftness = 5
control_area = 4
physical_defense = 5
psychic_defense = 4
health = 4
target_priority = ["closest", "standard"]
loot = ["Pecunia"]
generic_skills = []

[[enemy.attacks]]
name = "Pike"
kind = "physical"
ap = 3
range = [1, 2]
hits = 2
threshold = 5
traits = ["Critical 1"]

[[enemy.attacks]]
name = "Shout"
kind = "psychic"
ap = 2
range = [1, 1]
contrast = 2
threshold = 5
traits = []
"""

SCENARIO = """edition = "renaissance"
title = "The sentry"

[horologium]
hour = 1

[horologium.tokens]
valerio = 1
papal_sentry = 2

[[heroes]]
card = "valerio"

[[enemies]]
card = "papal_sentry"
models = 2
"""


class Screen:
    """Taps on what the editor drew, through `inputs.translate`."""

    def __init__(self, editor: CardEditor, size: tuple[int, int] = (800, 480)) -> None:
        self.editor, self.surface, self.taps = editor, pygame.display.set_mode(size), 0

    def tap(self, *target: Any) -> Any:
        self.editor.draw(self.surface)
        assert self.editor.fonts.squeezed == [], self.editor.fonts.squeezed
        rect = next(hit.rect for hit in self.editor.hits if hit.target[: len(target)] == target)
        self.taps += 1
        return self.editor.handle(action(click(rect.center)))

    def field(self, key: str, side: int = 0, times: int = 1) -> None:
        stop = Stop(next(n for n, f in enumerate(self.editor.form.fields) if f.key == key))
        for _ in range(times):
            self.tap("stop", stop, side)

    def type(self, key: str, words: str) -> None:
        """The field's keyboard, the words key by key (Aa before a capital after the first letter), Done."""
        self.field(key)
        assert self.editor.keyboard is not None
        for n, char in enumerate(words):
            if char.isupper() and n:
                self.tap("key", "Aa")
            self.tap("key", "Space" if char == " " else char.upper())
        self.tap("key", "Done")
        assert self.editor.keyboard is None and self.editor.form.value(key) == words

    def next(self) -> Any:
        return self.tap("stop", APPLY)


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_a_card_typed_on_the_screen_and_the_same_card_as_a_file_give_the_same_game(size: tuple[int, int], tmp_path: Path,
                                                                                   shots: Path) -> None:  # fmt: skip
    """The Papal Sentry typed by taps (its name, faction and traits on the keyboard, numbers by steps, a second attack
    added, the first page's card `a new enemy card`) and the same card written as a file by hand: a scenario naming
    it reads the same from either library, and its game starts the same. Each page drawn whole (nothing cut), nothing
    read under the table's least capitals."""
    state = tmp_path / "table.db"
    editor = CardEditor(state)
    screen = Screen(editor, size)

    def shot(name: str) -> None:
        drawn = record(editor.fonts)
        editor.draw(screen.surface)
        pygame.image.save(screen.surface, shots / f"{name}-{size[0]}x{size[1]}.png")
        least = theme.READ_CAPS * editor.layout.unit
        small = {(t, p) for t, p in drawn if t not in {"H", "<", ">", "ESC", "ENTER"} and editor.fonts.caps(p) < least - 0.5}
        assert editor.fonts.squeezed == [] and not small, small
    screen.next()  # a new enemy card
    screen.type("name", "Papal Sentry")
    screen.type("faction", "Rome")
    screen.field("rank", 1)  # elite
    shot("card-editor")
    screen.next()
    screen.field("swiftness", 1)
    screen.field("physical_defense", 1)
    screen.next()
    screen.type("name", "Pike")
    screen.field("ap", 1)
    screen.field("range_max", 1)
    screen.field("hits", 1)
    screen.type("traits", "Critical 1")
    screen.field("then", 1)  # add an attack
    shot("card-editor-attack")
    screen.next()
    assert editor.form.name == "attack1"
    screen.type("name", "Shout")
    screen.field("kind", 1)  # psychic: contrast and wounds instead of hits
    screen.field("contrast", 1)
    screen.next()
    screen.field("target_priority", 1)  # closest, standard
    screen.type("loot", "Pecunia")
    screen.next()
    assert editor.form.name == "review" and editor.error == ""
    shot("card-editor-review")
    went, path = screen.next()
    assert went == "start" and path == tmp_path / "cards" / "enemies" / "papal_sentry.toml"

    hand = tmp_path / "hand"
    (hand / "enemies").mkdir(parents=True)
    (hand / "enemies" / "papal_sentry.toml").write_text(HAND, encoding="utf-8")
    typed = parse_scenario(SCENARIO, "sentry.toml", CardLibrary(((tmp_path / "cards", "table"), (EXAMPLES, "examples"))))
    written = parse_scenario(SCENARIO, "sentry.toml", CardLibrary(((hand, "table"), (EXAMPLES, "examples"))))
    assert typed == written and new_game(typed) == new_game(written)
    assert [a.name for a in typed.enemy("papal_sentry").attacks] == ["Pike", "Shout"]


def test_a_card_of_the_examples_changed_is_the_table_s_and_hides_it(tmp_path: Path) -> None:
    """Papal Guard (example) changed, its Health stepped up and its only attack's `then` left as it was: the table's
    own card, which the library gives from then on, the example left as it is."""
    state = tmp_path / "table.db"
    editor = CardEditor(state)
    screen = Screen(editor)
    options = [words for _, words in editor.form.get("card").options]  # type: ignore[union-attr]
    screen.field("card", 1, options.index("Papal Guard"))
    screen.next()
    assert editor.form.value("name") == "Papal Guard"
    screen.next()
    screen.field("health", 1, 2)
    for _ in range(3):  # its attack, Profile and loot, the card whole
        screen.next()
    went, path = screen.next()
    assert went == "start" and path == tmp_path / "cards" / "enemies" / "papal_guard.toml"
    library = CardLibrary(((tmp_path / "cards", "table"), (EXAMPLES, "examples")))
    card = library.card("enemy", "papal_guard")
    example = CardLibrary(((EXAMPLES, "examples"),)).card("enemy", "papal_guard")
    assert card.table["health"] == example.table["health"] + 2 and card.file == str(path)
    assert card.table["attacks"] == example.table["attacks"] and card.example_values is False


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_a_wrong_card_is_said_as_the_file_s_would_be_and_nothing_is_saved(size: tuple[int, int], tmp_path: Path, shots: Path) -> None:
    """A range from 3 to 1: the reader's own words on the last page, Save refused, no file written."""
    state = tmp_path / "table.db"
    editor = CardEditor(state)
    screen = Screen(editor, size)
    options = [words for _, words in editor.form.get("card").options]  # type: ignore[union-attr]
    screen.field("card", 1, options.index("Slingers"))
    screen.next()
    screen.next()
    screen.next()
    screen.field("range_min", 1)  # the Sling's 2 to 6, to 3 to 6: right; its end down to 1 under it
    screen.field("range_max", -1, 5)
    screen.next()
    screen.next()
    assert editor.form.name == "review" and "range: expected [min, max] with 0 <= min <= max <= 30, got [3, 1]" in editor.error
    editor.draw(screen.surface)
    pygame.image.save(screen.surface, shots / f"card-editor-refused-{size[0]}x{size[1]}.png")
    screen.next()
    assert editor.form.name == "review" and "range" in editor.error and not (tmp_path / "cards").exists()


@pytest.mark.usefixtures("pygame_again")
def test_play_new_s_cards_saves_a_card_and_shows_the_start_screen_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`play --new`, the encoder only: Cards, a new hero sheet named "Ada" on the keyboard (A, D, A: a turn of the
    encoder a key), its class "Ada" too, every number as it stands, Save; the start screen again (closed there: nothing started)."""
    from assistant.cli import main
    from assistant.ui import display, new_game
    from assistant.ui.inputs import post_encoder
    from assistant.ui.keyboard import KEYS

    state = tmp_path / "table.db"
    keys = [KEYS.index(c) for c in "ADA"]
    typing = [("turn", keys[0]), ("confirm", 0), ("turn", keys[1] - keys[0]), ("confirm", 0),
              ("turn", keys[2] - keys[1]), ("confirm", 0), ("turn", KEYS.index("Done") - keys[2]), ("confirm", 0)]
    steps = ([("turn", -4)] + [("confirm", 0)] * 2  # the start screen: Cards, Start
             + [("turn", 1), ("confirm", 0), ("confirm", 0)]  # a new hero sheet; Next
             + [("confirm", 0)] + typing + [("confirm", 0)] + typing + [("confirm", 0)] * 2  # Name, Class; Next
             + [("confirm", 0)] * 7 + [("confirm", 0)])  # the numbers; Save
    real_open, real_choose = display.open_screen, new_game.choose_game
    shown: list[int] = []

    def seen(*args: Any, **kwargs: Any) -> display.Screen:
        opened = real_open(*args, **kwargs)
        for action, value in steps:
            post_encoder(action, value)
        return display.Screen(opened.surface, "KMSDRM", opened.fullscreen)

    def choose(*args: Any, **kwargs: Any) -> Any:
        shown.append(1)
        return real_choose(*args, **kwargs) if len(shown) == 1 else None  # the second time: closed

    monkeypatch.setattr(display, "open_screen", seen)
    monkeypatch.setattr(new_game, "choose_game", choose)
    assert main(["play", "--new", "--state", str(state), "--no-encoder", "--board", "none"]) == 0
    assert len(shown) == 2
    card = CardLibrary(((tmp_path / "cards", "table"),)).card("hero", "ada")
    assert (card.name, card.table["class"], card.table["swiftness"]) == ("Ada", "Ada", 4)
