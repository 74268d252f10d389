"""The campaign carried into a mission (issue 66): the sheet's New mission seats its Heroes at their current values;
the mission's end (victory or defeat, the Loot kept, the Experience) goes back onto the sheet, with undo."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pytest

from assistant.session.games import StateFile
from assistant.ui.campaign_app import CampaignApp, CampaignScreen
from assistant.ui.form import APPLY, Stop
from assistant.ui.mission.builder import MissionBuilder, campaign_sheet
from assistant.ui.mission.carry import MissionEnd
from assistant.ui.status_app import app_for
from assistant.ui.table import open_campaign, open_saved_game
from tests.ui.conftest import choice, click, feed, key
from tests.ui.test_mission_builder import campaign
from tests.ui.test_start import pygame_again  # noqa: F401  (a fixture)


def built(state: Path) -> Path:
    """A mission of the campaign's three Heroes and 2 Papal Guards, every other answer as it stands."""
    builder = MissionBuilder(state, sheet=campaign_sheet(state))
    builder.advance()
    choice(builder.form, "group0").turn(2)
    while builder.form.name != "review":
        builder.advance()
    went, path = builder.advance()
    assert went == "start"
    return Path(path)


def tap(app: Any, label: str) -> None:
    app.draw()
    items = app.machine.current.items
    rect = next(hit.rect for hit in app.hits if hit.target[0] == "item" and items[hit.target[1]].label == label)
    feed(app, click(rect.center))


def test_a_campaign_mission_s_end_goes_onto_the_sheet_with_undo(tmp_path: Path, shots: Path) -> None:
    """Victory with 2 Pecunia in the Loot kept whole: the table's Campaign sheet opens the sheet with the end's form
    (the Loot's Reagents filled in, 3 Experience turned up), To the sheet; Undo takes it back, Redo gives it again;
    the same game's end a second time is refused, said."""
    state = campaign(tmp_path)
    path = built(state)
    assert "campaign = true" in path.read_text(encoding="utf-8")
    surface = pygame.display.set_mode((800, 480))
    game = open_saved_game(state, path, True)
    game.apply({"type": "loot", "cards": ["Pecunia", "Pecunia"]})
    game.apply({"type": "end_mission", "result": "victory", "loot": "whole"})
    table = app_for(game, surface, log=lambda message: None)
    tap(table, "Campaign sheet")
    end = table.to_campaign  # type: ignore[attr-defined]
    assert end == MissionEnd(game.game_id, "A new mission", "victory", (("Pecunia", 2),)) and not table.running
    table.close()

    sheet = app_for(open_campaign(state), surface, log=lambda message: None)
    assert isinstance(sheet, CampaignApp)
    before = sheet.sheet.experience
    sheet.carry(end)
    form = sheet.form
    assert form is not None and form.value("reagent:Pecunia") == 2
    sheet.draw()
    right = next(hit.rect for hit in sheet.hits if hit.target[:3] == ("stop", Stop(0), 1))
    feed(sheet, *[click(right.center)] * 3)
    sheet.draw()
    pygame.image.save(sheet.surface, shots / "campaign-mission-end-800x480.png")
    assert sheet.fonts.squeezed == []
    apply = next(hit.rect for hit in sheet.hits if hit.target[:2] == ("stop", APPLY))
    feed(sheet, click(apply.center))
    after = sheet.sheet
    assert (after.experience - before, dict(after.reagents)["Pecunia"]) == (3, 2) and sheet.form is None
    assert after.missions == ((game.game_id, "A new mission", "victory"),)
    sheet.draw()
    screen = sheet.machine.current
    assert isinstance(screen, CampaignScreen), screen
    assert any(line.text == "Missions played: A new mission (victory)" for line in screen.lines)
    feed(sheet, key("u"))
    undone = sheet.sheet  # a name of its own: mypy would keep `sheet.sheet.missions == ()` past the redo
    assert undone.missions == () and undone.experience == before and "Pecunia" not in dict(undone.reagents)
    feed(sheet, key("y"))
    assert sheet.sheet.missions == after.missions
    sheet.carry(end)
    sheet.draw()
    apply = next(hit.rect for hit in sheet.hits if hit.target[:2] == ("stop", APPLY))
    feed(sheet, click(apply.center))
    assert "is on the campaign sheet already" in sheet.error and sheet.sheet == after
    sheet.close()


def test_a_mission_that_is_not_the_campaign_s_offers_no_campaign_sheet(tmp_path: Path) -> None:
    from assistant.ui.table import demo_path

    state = tmp_path / "table.db"
    game = open_saved_game(state, demo_path(), True)
    game.apply({"type": "end_mission", "result": "defeat"})
    table = app_for(game, pygame.display.set_mode((800, 480)), log=lambda message: None)
    table.draw()
    assert "Campaign sheet" not in [item.label for item in table.machine.current.items]  # type: ignore[attr-defined]
    table.close()


@pytest.mark.usefixtures("pygame_again")
def test_the_sheet_s_new_mission_builds_one_of_its_heroes_and_plays_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`play --new`, the encoder only: the Campaign sheet, its New mission (the builder, the sheet's Heroes seated),
    one enemy group, Start: the mission is the game in play, a campaign mission."""
    from assistant.cli import main
    from assistant.ui import display, status_app
    from assistant.ui.inputs import post_encoder
    from assistant.ui.mission import builder

    state = campaign(tmp_path)
    real_open, real_app = display.open_screen, status_app.app_for
    steps = [("turn", -2)] + [("confirm", 0)] * 2 + [("turn", 9), ("confirm", 0)]  # Campaign sheet; New mission
    building = ([("confirm", 0)] * 2 + [("turn", -1)] + [("confirm", 0)] * 6  # the title's keyboard: Done; Next
                + [("turn", 1)] + [("confirm", 0)] * 5 + [("confirm", 0)] * 16)  # Group 1; the rest; Start
    kinds: list[str] = []

    def seen(*args: Any, **kwargs: Any) -> display.Screen:
        opened = real_open(*args, **kwargs)
        for action, value in steps:
            post_encoder(action, value)
        return display.Screen(opened.surface, "KMSDRM", opened.fullscreen)

    def build(*args: Any) -> Any:  # the builder's inputs once it is shown (the sheet's loop takes what is queued)
        for action, value in building:
            post_encoder(action, value)
        return real_build(*args)

    real_build = builder.build_mission
    monkeypatch.setattr(builder, "build_mission", build)

    def opened(game: Any, *args: Any, **kwargs: Any) -> Any:
        kinds.append(game.kind)
        if game.kind == "mission":  # the mission closes as it opens
            pygame.event.post(pygame.event.Event(pygame.QUIT))
        return real_app(game, *args, **kwargs)

    monkeypatch.setattr(display, "open_screen", seen)
    monkeypatch.setattr(status_app, "app_for", opened)
    assert main(["play", "--new", "--state", str(state), "--no-encoder", "--board", "none"]) == 0
    assert kinds == ["campaign", "mission"]
    with StateFile(state) as games:
        text, source = games.scenario(None)
        assert games.game(None).title == "A new mission"
    assert source == str(tmp_path / "scenarios" / "a_new_mission.toml") and "campaign = true" in text
