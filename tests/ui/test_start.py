"""The start screen (`play --new`, or `play` with nothing to resume): a saved game to resume, the one in play said;
the demo or a scenario of the folder `scenarios` beside the state file, with its goals and how it ends; or Status."""

from __future__ import annotations

import shutil
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pygame
import pytest

from assistant.session.card_library import EXAMPLES as CARDS
from assistant.session.games import StateFile
from assistant.session.scenario_file import read_scenario_text
from assistant.ui.new_game import draw_chooser, handle
from assistant.ui.inputs import Action
from assistant.ui.start import offers
from assistant.ui.status_forms import new_game_form
from assistant.ui.table import demo_path
from assistant.ui.theme import Fonts
from tests.ui.missions import FOLDER as SCENARIOS

ROOT = Path(__file__).resolve().parents[2]


def table(tmp_path: Path) -> tuple[Path, Path]:
    """A state file with two games of the demo (the second in play) and a scenarios folder with one mission."""
    state, folder = tmp_path / "table.db", tmp_path / "scenarios"
    folder.mkdir()
    shutil.copy(SCENARIOS / "stealth.toml", folder / "cloister.toml")
    with StateFile(state, create=True) as games:
        for _ in range(2):
            games.new_game(read_scenario_text(demo_path()), str(demo_path()))
    return state, folder


def test_a_damaged_saved_game_is_named_and_not_offered_the_others_are(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    """One byte changed in game 1's row hid every saved game (the list refused whole): now that one is named."""
    state, folder = table(tmp_path)
    with closing(sqlite3.connect(state)) as db:
        db.execute("UPDATE games SET title = title || '!' WHERE id = 1")
        db.commit()
    assert [w for _, w, _ in offers(state, folder)][:2] == ["In play: game 2", "New: the demo"]
    assert f"nova-table: not offered: {state}: game 1 is damaged (what it is" in capsys.readouterr().err


def test_a_scenario_naming_the_tables_own_card_is_offered(tmp_path: Path) -> None:
    """The start screen reads a scenario's cards from the library beside the table's state file, as `play
    --scenario` does: a card only that table has (Lucia) was read from the default table's library, and the
    scenario was not offered."""
    state, folder = table(tmp_path)
    card = (CARDS / "heroes" / "sofia.toml").read_text(encoding="utf-8")
    (tmp_path / "cards" / "heroes").mkdir(parents=True)
    (tmp_path / "cards" / "heroes" / "lucia.toml").write_text(card.replace('id = "sofia"', 'id = "lucia"'), encoding="utf-8")
    text = (ROOT / "tests" / "session" / "skirmish_cards.toml").read_text(encoding="utf-8")
    (folder / "lucia.toml").write_text(text.replace('card = "sofia"', 'card = "lucia"').replace("sofia = 2", "lucia = 2"),
                                       encoding="utf-8")  # fmt: skip
    assert "New: lucia" in [w for _, w, _ in offers(state, folder)]


def test_the_start_screen_offers_saved_games_scenarios_and_status(tmp_path: Path, shots: Path) -> None:
    state, folder = table(tmp_path)
    offered = offers(state, folder)
    words = [w for _, w, _ in offered]
    assert words == ["In play: game 2", "Resume: game 1", "New: the demo", "New: cloister", "Cards", "New mission", "Campaign sheet"]
    form = new_game_form(offers=offered)
    assert [w for _, w in form.get("game").options][-1] == "Status"  # type: ignore[union-attr]
    for size in ((800, 480), (720, 1280)):
        surface = pygame.display.set_mode(size)
        for turns in (0, 2):  # the game in play; the demo, its goals and how it ends under the title
            form = new_game_form(offers=offered)
            form.turn(turns)
            fonts = Fonts()
            hits = draw_chooser(surface, fonts, form)
            pygame.image.save(surface, shots / f"start-{turns}-{size[0]}x{size[1]}.png")
            assert fonts.squeezed == [] and all(surface.get_rect().contains(hit.rect) for hit in hits)
            assert not any(a.rect.colliderect(b.rect) for i, a in enumerate(hits) for b in hits[i + 1 :])
    form = new_game_form(offers=offered)
    assert form.title == "Resume or start a game"  # it read "A new game" above the saved games
    assert new_game_form(offers=offers(tmp_path / "none.db", folder)).title == "A new game"  # nothing saved to resume
    assert form.note.startswith("Skirmish at the Ponte Sisto: 0 events, last ")
    form.turn(2)
    assert form.note.startswith("Skirmish at the Ponte Sisto. The enemies' goal: Reach the relic")
    assert "Victory: Every enemy is defeated. Defeat: At least 3 Heroes are KO." in form.note
    assert handle(form, Action("confirm"), []) == ("", None)
    assert handle(form, Action("confirm"), []) == ("start", {"game": "mission", "scenario": str(demo_path())})


@pytest.mark.usefixtures("pygame_again")
@pytest.mark.parametrize("turns, title, current", [(3, "Stealth test: the cloister", 3), (1, "Skirmish at the Ponte Sisto", 1)])
def test_play_new_starts_the_scenario_or_resumes_the_game_chosen(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, turns: int, title: str, current: int) -> None:  # fmt: skip
    """`play --new` on a screen: the encoder turns to the cloister (a new game, the others kept as they were, the
    list saying which is in play) or to the older saved game (made the one in play)."""
    from assistant.cli import main
    from assistant.ui import display
    from assistant.ui.inputs import post_encoder

    state, folder = table(tmp_path)
    real_open = display.open_screen

    def seen(*args: Any, **kwargs: Any) -> display.Screen:
        opened = real_open(*args, **kwargs)
        for _ in range(turns):
            post_encoder("turn", 1)
        post_encoder("confirm")
        post_encoder("confirm")
        return display.Screen(opened.surface, "KMSDRM", opened.fullscreen)

    monkeypatch.setattr(display, "open_screen", seen)
    quit_after_start(monkeypatch)
    assert main(["play", "--new", "--state", str(state), "--no-encoder", "--board", "none"]) == 0
    with StateFile(state) as games:
        listed = [(g.id, g.title, g.status, g.current) for g in games.games()]
    assert [g for g in listed if g[3]] == [(current, title, "active", True)]
    assert {g[0] for g in listed} >= {1, 2} and all(g[2] == "active" for g in listed)  # nothing archived


def quit_after_start(monkeypatch: pytest.MonkeyPatch) -> None:
    """The table closes as soon as it opens."""
    from assistant.ui import status_app

    real = status_app.app_for

    def closing(*args: Any, **kwargs: Any) -> Any:
        pygame.event.post(pygame.event.Event(pygame.QUIT))
        return real(*args, **kwargs)

    monkeypatch.setattr(status_app, "app_for", closing)


@pytest.fixture
def pygame_again() -> Any:
    yield
    pygame.init()


def test_the_mission_s_goals_and_end_are_shown_again_with_a_tap_on_the_title() -> None:
    from tests.ui.conftest import click, make_app, play

    app = make_app()
    app.draw()
    title = next(hit.rect for hit in app.hits if hit.target[0] == "mission")
    play(app, click(title.center))
    assert app.said and "Victory: Every enemy is defeated." in app.said[-1]
    app.draw()
    log = app.machine.current.told[0]  # type: ignore[attr-defined]
    assert log[-1].text == app.said[-1] and len(log) - 1 in app.machine.current.logged  # type: ignore[attr-defined]
