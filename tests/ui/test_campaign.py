"""The campaign sheet on the screen: it was kept only through `nova-table session ... --game campaign`. The table
reads it and changes its numbers by touch, with the same undo and redo (one journal of the state file)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pytest

from assistant.session.games import StateFile
from assistant.ui.campaign_app import CampaignApp
from assistant.ui.status_app import app_for
from assistant.ui.table import open_campaign
from tests.ui.conftest import click, feed, key


def tap(app: CampaignApp, label: str) -> None:
    app.draw()
    items = app.machine.current.items  # type: ignore[attr-defined]
    rect = next(hit.rect for hit in app.hits if hit.target[0] == "item" and items[hit.target[1]].label == label)
    feed(app, click(rect.center))


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_the_sheet_is_read_and_its_numbers_changed_with_undo(size: tuple[int, int], tmp_path: Path, shots: Path) -> None:
    state = tmp_path / "table.db"
    with StateFile(state, create=True) as games:
        journal = games.journal("campaign")
        journal.append({"type": "add_hero", "hero": "valerio", "name": "Valerio", "class": "Swordsman"})
        journal.append({"type": "inventory_add", "item": "Relic of the bridge"})
    app = app_for(open_campaign(state), pygame.display.set_mode(size), log=lambda message: None)
    assert isinstance(app, CampaignApp)
    tap(app, "Experience +")
    assert app.form is not None and app.form.name == "xp"
    feed(app, key("right"), key("return"), key("return"))  # 2 Experience, Gain
    tap(app, "Florins")
    feed(app, key("return"), key("2"), key("return"), key("return"))  # in; 2 (a number key sets it); Apply
    tap(app, "Reagents")
    feed(app, key("right"), key("return"), key("return"), key("right"), key("return"), key("return"))  # 2 Elementum
    sheet = app.sheet
    assert (sheet.experience, sheet.florins, sheet.reagents) == (2, 2, (("Elementum", 2),))
    app.fonts.squeezed.clear()
    app.draw()
    pygame.image.save(app.surface, shots / f"campaign-{size[0]}x{size[1]}.png")
    assert app.fonts.squeezed == []
    lines = [line.text for line in app.machine.current.lines]  # type: ignore[attr-defined]
    assert "Inventory: Relic of the bridge" in lines and lines[0].startswith("Experience 2 · Florins 2 ")
    assert any(text.startswith("Valerio, Swordsman: 2 Experience to spend") for text in lines)
    feed(app, key("u"))
    assert app.sheet.reagents == () and app.said == ["Undone: the last change"]
    feed(app, key("y"))
    assert tuple(app.sheet.reagents) == (("Elementum", 2),)  # (mypy kept the () of the line before)
    tap(app, "Florins")
    feed(app, key("right"), key("return"), key("2"), key("return"), key("return"))  # out, 2: none left
    assert app.sheet.florins == 0 and app.form is None
    tap(app, "Florins")
    feed(app, key("right"), key("return"), key("return"), key("return"))  # out 10 with none left: refused, said
    assert app.sheet.florins == 0 and app.form is not None and "cannot pay 10" in app.error
    app.draw()
    pygame.image.save(app.surface, shots / f"campaign-refused-{size[0]}x{size[1]}.png")
    assert app.fonts.squeezed == []
    app.close()
    with StateFile(state) as games:
        assert games.journal("campaign").state.florins == 0


def sheet_app(tmp_path: Path, size: tuple[int, int] = (800, 480)) -> CampaignApp:
    state = tmp_path / "table.db"
    app = app_for(open_campaign(state), pygame.display.set_mode(size), log=lambda message: None)
    assert isinstance(app, CampaignApp)
    return app


@pytest.mark.parametrize("way", ["touch", "escape", "backspace", "hold"])
def test_back_leaves_the_sheet_for_the_start_screen(way: str, tmp_path: Path) -> None:
    from assistant.ui.inputs import ENCODER

    app = sheet_app(tmp_path)
    tap(app, "Experience +")
    feed(app, key("return"), key("return"))  # 1 Experience, Gain
    assert app.sheet.experience == 1 and app.form is None
    if way == "touch":
        tap(app, "Back")
    else:
        events = {"escape": [key("escape"), pygame.event.Event(pygame.KEYUP, key=pygame.K_ESCAPE, mod=0)],
                  "backspace": [key("backspace")],
                  "hold": [pygame.event.Event(ENCODER, action="back", value=None)]}[way]  # fmt: skip
        feed(app, *events)
    assert app.to_start and not app.running
    app.close()
    with StateFile(tmp_path / "table.db") as games:
        assert games.journal("campaign").state.experience == 1  # nothing lost


def test_the_sheet_s_back_shows_the_start_screen_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`play --new` on a screen: the Campaign sheet chosen, its Back, and the start screen is shown again (its window
    closed there: `play` ends with 0)."""
    from assistant.cli import main
    from assistant.ui import display, new_game, status_app
    from assistant.ui.inputs import post_encoder

    state = tmp_path / "table.db"
    real_open, real_choose, real_app = display.open_screen, new_game.choose_game, status_app.app_for
    shown: list[list[str]] = []
    apps: list[Any] = []

    def seen(*args: Any, **kwargs: Any) -> display.Screen:
        opened = real_open(*args, **kwargs)
        return display.Screen(opened.surface, "KMSDRM", opened.fullscreen)

    def choose(surface: pygame.Surface, kind: str = "mission", offers: Any = ()) -> Any:
        shown.append([words for _, words, _ in offers])
        if len(shown) == 1:  # to the Campaign sheet, its last offer before Status, and Start
            for _ in range(len(offers) - 1):
                post_encoder("turn", 1)
            post_encoder("confirm")
            post_encoder("confirm")
        else:
            pygame.event.post(pygame.event.Event(pygame.QUIT))
        return real_choose(surface, kind, offers)

    def opened(*args: Any, **kwargs: Any) -> Any:
        app = real_app(*args, **kwargs)
        apps.append(app)
        pygame.event.post(key("backspace"))
        return app

    monkeypatch.setattr(display, "open_screen", seen)
    monkeypatch.setattr(new_game, "choose_game", choose)
    monkeypatch.setattr(status_app, "app_for", opened)
    pygame.time.set_timer(pygame.QUIT, 120_000, 1)  # a sheet that never leaves ends, and fails below, not hangs
    try:
        assert main(["play", "--new", "--state", str(state), "--no-encoder", "--board", "none"]) == 0
    finally:
        pygame.init()
        pygame.time.set_timer(pygame.QUIT, 0)
    assert [type(app).__name__ for app in apps] == ["CampaignApp"]
    assert len(shown) == 2 and shown[1] == shown[0] and shown[0][-1] == "Campaign sheet"


def typing(app: CampaignApp, words: str) -> None:
    """Words typed by taps on the on-screen keyboard's keys (Aa before a capital not at the start, Space), then Done."""
    assert app.machine.current.name == "keyboard"

    def press(name: str) -> None:
        app.draw()
        feed(app, click(next(hit.rect for hit in app.hits if hit.target == ("key", name)).center))

    for n, letter in enumerate(words):
        if letter == " ":
            press("Space")
            continue
        if letter.isupper() and n and words[n - 1] == " ":
            press("Aa")
        press(letter.upper())
    press("Done")


def row_tap(app: CampaignApp, key_: str) -> None:
    """A tap on the open form's row of the field `key_`."""
    assert app.form is not None
    app.draw()
    index = next(n for n, item in enumerate(app.form.fields) if item.key == key_)
    rect = next(hit.rect for hit in app.hits if hit.target[0] == "stop" and hit.target[1].field == index)
    feed(app, click(rect.center))


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_items_achievements_skills_and_heroes_are_typed_on_the_sheet_with_undo(size: tuple[int, int], tmp_path: Path,
                                                                               shots: Path) -> None:  # fmt: skip
    """Issue 51: what the sheet holds in words (an item, an achievement, a skill, a hero) could only be changed with
    `nova-table session apply --game campaign`. The screen types them on its keyboard and journals the same events."""
    app = sheet_app(tmp_path, size)
    assert not next(item for item in app.machine.current.items if item.label == "Skill").enabled  # type: ignore[attr-defined]
    tap(app, "Hero")
    assert app.form is not None and app.form.name == "hero"
    feed(app, key("return"))  # a press on Name: the keyboard
    app.fonts.squeezed.clear()
    app.draw()
    pygame.image.save(app.surface, shots / f"campaign-keyboard-{size[0]}x{size[1]}.png")
    assert app.fonts.squeezed == []
    typing(app, "Valerioo")
    assert app.machine.current.name == "form" and app.form.value("name") == "Valerioo"
    row_tap(app, "name")  # again, to set it right: Del takes the last letter back
    app.draw()
    feed(app, click(next(hit.rect for hit in app.hits if hit.target == ("key", "Del")).center))
    typing(app, "")
    feed(app, key("s"), key("q"), key("u"), key("i"), key("r"), key("e"), key("return"))  # keys type; Enter types the lit key
    assert app.machine.current.name == "keyboard"
    feed(app, key("backspace"))  # takes that back
    typing(app, "")
    app.fonts.squeezed.clear()
    app.draw()
    pygame.image.save(app.surface, shots / f"campaign-hero-{size[0]}x{size[1]}.png")
    assert app.fonts.squeezed == []
    feed(app, key("return"))  # Apply
    assert app.game.events()[-1] == {"type": "add_hero", "hero": "valerio", "name": "Valerio", "class": "Squire"}
    tap(app, "Item")
    row_tap(app, "item")
    typing(app, "Relic of the Bridge")
    feed(app, key("return"))
    assert app.game.events()[-1] == {"type": "inventory_add", "item": "Relic of the Bridge"}
    tap(app, "Achievement")
    row_tap(app, "achievement")
    typing(app, "Friend of the Doge")
    feed(app, key("return"))
    tap(app, "Achievement")
    feed(app, key("right"), key("return"), key("return"))  # Valerio's own (Personal): counted on his section
    assert app.game.events()[-2:] == [{"type": "achievement", "achievement": "Friend of the Doge"},
                                      {"type": "achievement", "hero": "valerio"}]  # fmt: skip
    tap(app, "Experience +")
    feed(app, key("3"), key("return"), key("return"))
    tap(app, "Skill")
    feed(app, key("return"))  # Valerio; on to Skill
    row_tap(app, "skill")
    typing(app, "Shield wall")
    feed(app, key("2"), key("return"), key("return"))  # 2 Experience; Apply
    assert app.game.events()[-1] == {"type": "acquire_skill", "hero": "valerio", "skill": "Shield wall", "cost": 2}
    tap(app, "Hero")  # an Injury drawn, healed; a Destiny Card
    feed(app, key("right"), key("return"), key("return"), key("return"))  # an Injury drawn; Valerio; the keyboard
    typing(app, "Broken arm")
    feed(app, key("return"))
    tap(app, "Hero")
    feed(app, *[key("right")] * 3, key("return"), key("return"), key("return"))  # healed: Valerio's Broken arm
    tap(app, "Hero")
    feed(app, key("right"), key("right"), key("return"), key("return"), key("return"), key("return"))  # Card 1
    assert app.game.events()[-3:] == [{"type": "injury", "hero": "valerio", "injury": "Broken arm"},
                                      {"type": "heal_injury", "hero": "valerio", "injury": "Broken arm"},
                                      {"type": "resolve_destiny", "hero": "valerio", "card": 1}]  # fmt: skip
    tap(app, "Class")
    for field_ in ("class", "bond"):
        row_tap(app, field_)
        typing(app, "Knight" if field_ == "class" else "Oath")
    feed(app, key("return"))  # refused by the sheet, as the command line is: said in red
    assert "Destiny Card 2" in app.error and app.form is not None
    app.draw()
    feed(app, click(next(hit.rect for hit in app.hits if hit.target[0] == "back").center))
    tap(app, "Item")
    feed(app, key("right"), key("return"), key("return"), key("return"))  # remove; Relic of the Bridge; Apply
    assert app.game.events()[-1] == {"type": "inventory_remove", "item": "Relic of the Bridge"}
    sheet = app.sheet
    hero = sheet.hero("valerio")
    assert (sheet.inventory, sheet.achievements, hero.achievements) == ((), ("Friend of the Doge",), 1)
    assert [skill.name for skill in hero.skills] == ["Shield wall"]
    app.fonts.squeezed.clear()
    app.draw()
    pygame.image.save(app.surface, shots / f"campaign-words-{size[0]}x{size[1]}.png")
    assert app.fonts.squeezed == []
    lines = [line.text for line in app.machine.current.lines]  # type: ignore[attr-defined]
    assert "Achievements: Friend of the Doge" in lines and any("Shield wall" in text for text in lines)
    feed(app, key("u"))  # the same undo as the numbers'
    assert app.sheet.inventory == ("Relic of the Bridge",)
    feed(app, key("y"))
    assert len(app.sheet.inventory) == 0  # (mypy kept the tuple of the line before)
    app.close()


def test_an_empty_word_is_not_applied_and_back_leaves_the_keyboard_unchanged(tmp_path: Path) -> None:
    app = sheet_app(tmp_path)
    tap(app, "Item")
    feed(app, key("return"))  # on Item (the only way is add): the keyboard
    assert app.machine.current.name == "keyboard"
    feed(app, key("b"), key("backspace"))  # a letter typed, taken back; on no words Back leaves
    feed(app, key("backspace"))
    assert app.machine.current.name == "form" and app.form is not None and app.form.value("item") == ""
    app.form.focus = next(stop for stop in app.form.stops() if stop.is_apply)
    feed(app, key("return"))
    assert "Item: still to type" in app.error and app.game.events() == []
    app.close()


def test_the_keyboard_by_the_encoder_alone(tmp_path: Path) -> None:
    """A table with only the knob: a press on the words opens the keyboard, a turn lights a key, a press types it,
    a hold takes it back; Done (the last key, a turn back from the first) sets the words."""
    from assistant.ui.inputs import ENCODER
    from assistant.ui.keyboard import KEYS

    def knob(action: str, value: int = 0) -> pygame.event.Event:
        return pygame.event.Event(ENCODER, action=action, value=value)

    app = sheet_app(tmp_path)
    tap(app, "Item")
    feed(app, knob("confirm"))
    assert app.machine.current.name == "keyboard"
    feed(app, knob("turn", KEYS.index("R")), knob("confirm"), knob("confirm"), knob("back"))  # R, r, one back
    feed(app, knob("turn", KEYS.index("E") - KEYS.index("R")), knob("confirm"))
    feed(app, knob("turn", -KEYS.index("E") - 1), knob("confirm"))  # Done
    assert app.machine.current.name == "form" and app.form is not None and app.form.value("item") == "Re"
    feed(app, knob("confirm"))  # on Apply now
    assert app.game.events()[-1] == {"type": "inventory_add", "item": "Re"}
    app.close()


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_the_next_mission_side_missions_and_hunts_are_typed_on_the_sheet(size: tuple[int, int], tmp_path: Path,
                                                                         shots: Path) -> None:  # fmt: skip
    """The issue's sheet holds the hunts too ("Available Hunts"), and the Active Side Missions and the next mission:
    they were kept only through the command line."""
    app = sheet_app(tmp_path, size)
    tap(app, "Missions")
    row_tap(app, "mission")
    typing(app, "The Bridge")
    assert app.form is not None and app.form.fields[app.form.focus.field].key == "town"
    app.draw()  # the Town left out (none): a tap on Apply
    feed(app, click(next(hit.rect for hit in app.hits if hit.target[0] == "stop" and hit.target[1].is_apply).center))
    tap(app, "Missions")
    feed(app, key("right"), key("return"), key("return"))  # a side mission taken; its title: the keyboard
    typing(app, "Lost Relic")
    feed(app, key("return"))
    tap(app, "Missions")
    feed(app, key("right"), key("right"), key("return"), key("return"), key("return"))  # done: Lost Relic
    tap(app, "Missions")
    feed(app, key("right"), key("right"), key("return"), key("return"))  # a hunt (none active now): the Prey, its code
    typing(app, "Wolf of Mestre")
    feed(app, key("return"))
    typing(app, "H1")
    feed(app, key("return"))
    assert app.game.events() == [
        {"type": "next_mission", "mission": "The Bridge", "town": None},
        {"type": "side_mission", "id": "lost_relic", "title": "Lost Relic"},
        {"type": "side_mission_done", "id": "lost_relic"},
        {"type": "hunt_available", "prey": "Wolf of Mestre", "mission": "H1"}]  # fmt: skip
    app.fonts.squeezed.clear()
    app.draw()
    pygame.image.save(app.surface, shots / f"campaign-missions-{size[0]}x{size[1]}.png")
    assert app.fonts.squeezed == []
    lines = [line.text for line in app.machine.current.lines]  # type: ignore[attr-defined]
    assert "Next mission: The Bridge" in lines and "Hunts: Wolf of Mestre (H1)" in lines
    app.close()
