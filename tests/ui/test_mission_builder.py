"""A new mission set up on the screen from the card library (issue 66): the start screen's New mission, the builder's
pages (`assistant/ui/mission/`), the scenario file it writes, read back as any scenario, and the game it starts."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any, cast

import pygame
import pytest

from assistant.session.games import StateFile
from assistant.ui import theme
from assistant.ui.form import APPLY, Choice, Stop
from assistant.ui.inputs import translate
from assistant.ui.mission.builder import MissionBuilder, campaign_sheet
from assistant.ui.new_game import draw_chooser, handle
from assistant.ui.start import offers
from assistant.ui.status_app import app_for
from assistant.ui.status_forms import new_game_form
from assistant.ui.table import load_scenario, open_saved_game
from assistant.ui.theme import Fonts
from tests.ui.conftest import action, choice, click, feed
from tests.ui.missions import FOLDER as SCENARIOS
from tests.ui.test_start import pygame_again, quit_after_start  # noqa: F401  (a fixture)
from tests.ui.test_type_scale import record

SIZES = [(800, 480), (720, 1280)]
CAMPAIGN = [("valerio", "Valerio", "Squire"), ("sofia", "Sofia", "Huntress"), ("eleonora", "Eleonora", "Alchemist")]


def campaign(tmp_path: Path) -> Path:
    """A state file whose campaign sheet has three Heroes, each a hero card of the library (the examples), Sofia an
    Advanced Class with Dexterity upgraded; a scenario in the folder beside it."""
    state = tmp_path / "table.db"
    (tmp_path / "scenarios").mkdir()
    shutil.copy(SCENARIOS / "stealth.toml", tmp_path / "scenarios" / "cloister.toml")
    with StateFile(state, create=True) as games:
        journal = games.journal("campaign")
        journal.append({"type": "gain_experience", "xp": 10})
        for hero, name, kind in CAMPAIGN:
            journal.append({"type": "add_hero", "hero": hero, "name": name, "class": kind})
        for skill in ("Aim", "Trap", "Track"):
            journal.append({"type": "acquire_skill", "hero": "sofia", "skill": skill, "cost": 1})
        journal.append({"type": "resolve_destiny", "hero": "sofia", "card": 1})
        journal.append({"type": "resolve_destiny", "hero": "sofia", "card": 2})
        journal.append({"type": "advance_class", "hero": "sofia", "class": "Ranger", "upgrade": "dexterity", "bond": "Longbow"})
    return state


class Taps:
    """Taps on what a screen drew, as pygame events through `inputs.translate`, counted."""

    def __init__(self) -> None:
        self.count = 0

    def on(self, hits: list[Any], target: tuple[Any, ...]) -> Any:
        rect = next(hit.rect for hit in hits if hit.target[: len(target)] == target)
        self.count += 1
        return translate(click(rect.center))


def field(builder: MissionBuilder, key: str) -> Stop:
    return Stop(next(n for n, f in enumerate(builder.form.fields) if f.key == key))


def test_a_mission_of_the_campaign_s_heroes_is_built_by_taps_started_and_played(tmp_path: Path, shots: Path) -> None:
    """From the first screen, by taps only, 800x480: New mission (1 tap to it on the Game field, Start); the three
    Heroes of the campaign sheet already seated (Next); two enemy groups of the library, 2 Venetian Alchemists and a
    Papal Guard (4 taps, Next); the Horologium as the mission card shows it: the Papal Guard's row tapped and its
    token put in sector VI by a tap on the dial, a Mystery token (3 taps, Next); the enemies' goal, an end at hour 6
    (6 taps, Next); the mission whole, Start; then the game's first activation, Valerio's: Move, Nobody adjacent,
    Apply, End activation. 4 + 18 + 4 = 26 taps in all (the goal: fewer than 60)."""
    state = campaign(tmp_path)
    taps = Taps()
    surface = pygame.display.set_mode((800, 480))
    start = new_game_form(offers=offers(state, tmp_path / "scenarios"))
    game_field = Stop(0)
    chosen: Any = None
    while chosen is None:
        hits = draw_chooser(surface, Fonts(), start)
        if start.value("game") == {"game": "build"}:
            went, chosen = handle(start, taps.on(hits, ("stop", APPLY)), hits)
        else:
            went, _ = handle(start, taps.on(hits, ("stop", game_field, -1)), hits)  # back from the first: the last offers
    assert chosen == {"game": "build"} and taps.count == 4  # Status, Campaign sheet, New mission; Start

    builder = MissionBuilder(state, sheet=campaign_sheet(state))

    def tap(*target: Any) -> tuple[str, Any]:
        builder.draw(surface)
        assert builder.fonts.squeezed == [], builder.fonts.squeezed
        return builder.handle(taps.on(builder.hits, target))

    seats = [cast(Choice, f) for f in builder.form.fields[2:]]  # the heroes' seats
    assert [f.words for f in seats] == ["Valerio (campaign)", "Sofia (campaign)", "Eleonora (campaign)", "nobody"]
    tap("stop", APPLY)
    assert builder.form.name == "enemies"
    tap("stop", field(builder, "group0"), 1)  # the library's enemies by name: Venetian Alchemist, Papal Guard, Slingers
    tap("stop", field(builder, "models0"), 1)
    tap("stop", field(builder, "group1"), 1)
    tap("stop", field(builder, "group1"), 1)
    tap("stop", APPLY)
    assert builder.form.name == "horologium" and builder.scenario is not None
    tap("stop", field(builder, "token:papal_guard"), 0)
    builder.draw(surface)
    dial = next(hit.rect for hit in builder.hits if hit.target == ("dial",))
    six = (dial.centerx, dial.bottom - dial.height // 6)  # sector VI, below the hub
    taps.count += 1
    builder.handle(action(click(six)))
    assert builder.form.value("token:papal_guard") == 6 and builder.form.fields[builder.form.focus.field].key == "mystery"
    tap("stop", field(builder, "mystery"), 1)
    builder.draw(surface)
    pygame.image.save(surface, shots / "mission-horologium-800x480.png")
    tap("stop", APPLY)
    assert builder.form.name == "end"
    tap("stop", field(builder, "goal"), 1)
    for _ in range(5):  # no time limit, hour 2 ... hour 6
        tap("stop", field(builder, "end"), 1)
    tap("stop", APPLY)
    assert builder.form.name == "review"
    builder.draw(surface)
    pygame.image.save(surface, shots / "mission-review-800x480.png")
    went, path = tap("stop", APPLY)
    assert went == "start" and path == tmp_path / "scenarios" / "a_new_mission.toml"

    game = open_saved_game(state, path, True)
    scenario = game.state.scenario
    assert scenario == load_scenario(path, state) == builder.scenario  # the file read back: the same game
    assert [(h.id, h.hero_class, h.dexterity) for h in scenario.heroes] == [("valerio", "Squire", 3), ("sofia", "Ranger", 6),
                                                                           ("eleonora", "Alchemist", 3)]  # fmt: skip
    assert [(e.id, e.models, e.goal) for e in scenario.enemies] == [("alchemist", 2, "objective"), ("papal_guard", 1, "objective")]
    assert {t.token: t.sector for t in scenario.horologium.tokens} == {
        "valerio": 1, "sofia": 2, "eleonora": 3, "alchemist": 4, "papal_guard": 6, "mystery-1": 6}
    assert scenario.end is not None and scenario.end.hour == 6 and scenario.goals[0].text == "Reach the objective"
    app = app_for(game, surface, log=lambda message: None)
    try:
        assert game.state.active == "valerio"

        def play(label: str) -> None:
            app.draw()
            items = app.machine.current.items  # type: ignore[attr-defined]
            rect = next(hit.rect for hit in app.hits if hit.target[0] == "item" and items[hit.target[1]].label == label)
            taps.count += 1
            feed(app, click(rect.center))

        play("Move")
        play("Nobody")
        assert app.form is not None
        app.draw()
        rect = next(hit.rect for hit in app.hits if hit.target[:2] == ("stop", APPLY))
        taps.count += 1
        feed(app, click(rect.center))
        play("End activation")
        kinds = [event["type"] for event in game.events()]
        assert kinds == ["declare_move", "spend_ap", "end_activation"] and game.state.active == "sofia"
    finally:
        app.close()
    assert taps.count == 26


@pytest.mark.parametrize("size", SIZES)
def test_the_builder_s_pages_read_at_the_table_s_type(size: tuple[int, int], tmp_path: Path, shots: Path) -> None:
    """Every page at 800x480 and 720x1280: nothing cut, every tap target on the screen and none over another, nothing
    a player reads under the table's least capitals (`theme.READ_CAPS`), the keys' hints and arrows aside (and the
    "H" `Fonts.caps` measures with)."""
    state = campaign(tmp_path)
    builder = MissionBuilder(state, sheet=campaign_sheet(state))
    surface = pygame.display.set_mode(size)
    marks = {"H", "ESC", "ENTER", "<", ">", "_"} | {token for token in ("Va", "So", "El", "VE", "PG", "SL", "?", "=")}
    for page in ("mission", "enemies", "horologium", "end", "review"):
        if page == "enemies":
            choice(builder.form, "group0").turn(1)
        drawn = record(builder.fonts)
        builder.draw(surface)
        pygame.image.save(surface, shots / f"mission-{page}-{size[0]}x{size[1]}.png")
        assert builder.form.name == page and builder.fonts.squeezed == []
        taps = [hit.rect for hit in builder.hits if hit.target[0] != "dial"]
        assert all(surface.get_rect().contains(rect) for rect in taps)
        assert not any(a.colliderect(b) for i, a in enumerate(taps) for b in taps[i + 1 :])
        least = theme.READ_CAPS * builder.layout.unit
        small = {(t, p) for t, p in drawn if t not in marks and not t.isdigit() and builder.fonts.caps(p) < least - 0.5}
        numerals = {"I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII"}
        assert not {(t, p) for t, p in small if t not in numerals}, (page, sorted(small))
        if page != "review":
            builder.advance()


@pytest.mark.usefixtures("pygame_again")
def test_play_new_builds_a_mission_with_the_encoder_and_starts_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`play --new` on a screen, the encoder only: New mission, the title kept (the keyboard's Done), the campaign's
    Heroes, one enemy group, every other answer as it stands; the game started is the scenario file written."""
    from assistant.cli import main
    from assistant.ui import display
    from assistant.ui.inputs import post_encoder

    state = campaign(tmp_path)
    real_open = display.open_screen
    steps = ([("turn", -3)] + [("confirm", 0)] * 2  # the start screen: New mission, Start
             + [("confirm", 0)] * 2 + [("turn", -1)] + [("confirm", 0)] * 6  # the title's keyboard: Done; Next
             + [("turn", 1)] + [("confirm", 0)] * 5  # Group 1: the first card; Next
             + [("confirm", 0)] * 8 + [("confirm", 0)] * 7 + [("confirm", 0)])  # the Horologium, the end, Start

    def seen(*args: Any, **kwargs: Any) -> display.Screen:
        opened = real_open(*args, **kwargs)
        for action, value in steps:
            post_encoder(action, value)
        return display.Screen(opened.surface, "KMSDRM", opened.fullscreen)

    monkeypatch.setattr(display, "open_screen", seen)
    quit_after_start(monkeypatch)
    assert main(["play", "--new", "--state", str(state), "--no-encoder", "--board", "none"]) == 0
    path = tmp_path / "scenarios" / "a_new_mission.toml"
    with StateFile(state) as games:
        current = [g for g in games.games() if g.current]
        text, source = games.scenario(None)
    assert [(g.title, g.status) for g in current] == [("A new mission", "active")] and source == str(path)
    scenario = load_scenario(path, state)
    assert [h.id for h in scenario.heroes] == ["valerio", "sofia", "eleonora"] and [e.id for e in scenario.enemies] == ["alchemist"]


def test_a_card_picked_twice_is_said_and_the_page_stays(tmp_path: Path) -> None:
    """Two groups of one card would share an id and a token: said on the page (not as the reader's duplicate id,
    three pages on)."""
    state = campaign(tmp_path)
    builder = MissionBuilder(state, sheet=campaign_sheet(state))
    choice(builder.form, "hero1").select(builder.form.value("hero0"))
    with pytest.raises(ValueError, match="Hero 2: Valerio is Hero 1 already"):
        builder.advance()
    choice(builder.form, "hero1").select(None)
    builder.advance()
    for n in (0, 1):
        choice(builder.form, f"group{n}").turn(2)
    with pytest.raises(ValueError, match="Group 2: Papal Guard is Group 1 already: one card is one group"):
        builder.advance()
    assert builder.form.name == "enemies"


def test_the_mission_screens_import_only_downward() -> None:
    """`assistant/ui/mission/` draws with the shared modules and never imports the app (`ui/app.py`, `screens.py`)."""
    import ast

    folder = Path(__file__).resolve().parents[2] / "assistant" / "ui" / "mission"
    imported = {(path.name, node.module) for path in folder.glob("*.py")
                for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))) if isinstance(node, ast.ImportFrom)}  # fmt: skip
    assert len(imported) > 10
    assert not {(name, module) for name, module in imported if module in ("assistant.ui.app", "assistant.ui.screens")}
