"""Why the mission ended, in words on the header and across the dial: time, Heroes KO (and the Hunt's ends in test_hunt)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pygame
import pytest

from assistant.rules.errors import RuleError
from assistant.rules.scenario import EndTime
from assistant.ui import theme
from assistant.ui.table import MemoryGame
from assistant.ui.words import over_words, roman
from tests.ui.conftest import key, make_app, play
from tests.ui.demo import demo_scenario
from tests.ui.test_hunt import READ, shows


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_time_running_out_is_said_with_the_time(size: tuple[int, int], shots: Path) -> None:
    scenario = replace(demo_scenario(), end=EndTime(1, 2))  # the end at II: after the first stop
    app = make_app(size, MemoryGame(scenario))
    play(app, key("e"))
    state = app.game.state
    assert state.over == "time"
    title, reason = over_words(state)
    assert (title, reason) == ("Time is up", f"Mission end: {roman(2)}, hour 1")
    assert shows(app, title, 36, theme.DANGER)
    assert shows(app, title.upper(), 40, theme.DANGER, app.layout.dial)
    assert shows(app, reason, READ, theme.TEXT, app.layout.dial)
    pygame.image.save(app.surface, shots / f"mission-over-time-{size[0]}x{size[1]}.png")
    assert app.fonts.squeezed == []


def test_after_the_time_is_up_the_table_records_what_the_mission_card_makes_it() -> None:
    """Renaissance "End of a Mission": the time is one of the conditions, and its card says victory or defeat. The
    screen said "Time is up" in red whatever the card said, and end_mission was refused once the time was up."""
    from assistant.rules import game as rules
    from tests.ui.test_reactions import labels

    app = make_app(game=MemoryGame(replace(demo_scenario(), end=EndTime(1, 2))))
    play(app, key("e"))
    ended = app.game.state
    assert ended.over == "time" and labels(app)[:3] == ["Victory", "Defeat", "Play again"]
    play(app, key("v"))
    state = app.game.state
    assert state == rules.apply(ended, {"type": "end_mission", "result": "victory"})
    assert state.over == "victory: time is up" and over_words(state) == ("Victory", "Time is up")
    assert state.notes == ("The mission ends in victory (time is up)",)  # was "The mission ends: victory: time is up"
    assert shows(app, "Victory", 36, theme.GOOD) and labels(app) == ["Play again", "Undo", "Redo"]
    with pytest.raises(RuleError, match="the mission is over"):  # once said, it is said (undo changes it)
        rules.apply(state, {"type": "end_mission", "result": "defeat"})
    play(app, key("u"), key("d"))
    assert app.game.state.over == "defeat: time is up" and over_words(app.game.state) == ("Defeat", "Time is up")


def test_three_heroes_ko_is_a_defeat_said_so(shots: Path) -> None:
    from tests.ui.test_reactions import labels

    app = make_app(game=MemoryGame(demo_scenario()))
    for hero in ("sofia", "vincenzo", "eleonora"):
        health = app.game.state.scenario.hero(hero).health
        assert app.act({"type": "damage", "hero": hero, "wounds": health})
    assert app.game.state.over == "ko"  # "End of a Mission": the paragraph says which; the demo's says defeat
    assert over_words(app.game.state) == ("Mission over", "3 Heroes are KO")
    assert labels(app)[:2] == ["Defeat", "Victory"]  # the demo lists the KO among its Defeat conditions
    assert app.act({"type": "end_mission", "result": "defeat"})
    state = app.game.state
    assert state.over == "defeat: heroes KO"
    assert over_words(state) == ("Defeat", "3 Heroes are KO")
    assert shows(app, "Defeat", 36, theme.DANGER)
    assert shows(app, "3 Heroes are KO", READ, theme.TEXT, app.layout.dial)
    pygame.image.save(app.surface, shots / "mission-over-ko-800x480.png")
    play(app, key("u"))  # undo still works from the end
    assert app.game.state.over == "ko"
    play(app, key("u"))
    assert app.game.state.over is None


def test_dice_read_after_the_end_say_that_the_mission_is_over() -> None:
    from assistant.ui.form import Reading
    from assistant.ui.inputs import post_dice

    app = make_app(game=MemoryGame(replace(demo_scenario(), end=EndTime(1, 2))))
    play(app, key("e"))
    assert app.game.state.over == "time"
    app.running = True
    post_dice(Reading([6, 2]))
    app.pump()
    assert app.form is None and app.said == ["Dice read (camera): 6 2; the mission is over"]


def wound_by_fix(hero: int, wounds: int) -> list[pygame.event.Event]:
    """Fix (F), Change: Wound hero (its 3rd choice), the `hero`-th Hero, By `wounds`, Apply: keys, as a table types."""
    return [key("f"), key("3"), key("return"), key(str(hero)), key("return"), key(str(wounds)), key("return"), key("return")]


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_three_heroes_ko_in_the_demo_offer_defeat_first_and_one_press_records_it(size: tuple[int, int], shots: Path) -> None:
    """Issue 62, 6: after "3 Heroes are KO", a Defeat condition of the demo ("At least 3 Heroes are KO."), the end
    focused Victory: one press recorded a win. The demo played by keys to the third KO, then Enter once."""
    app = make_app(size)
    scenario = app.game.state.scenario
    for place in (2, 3, 4):  # Sofia, Vincenzo, Eleonora: each wounded to her or his Health through Fix
        play(app, *wound_by_fix(place, scenario.heroes[place - 1].health))
    assert app.game.state.over == "ko"
    app.draw()  # (the loop closed on the QUIT before its frame)
    pygame.image.save(app.surface, shots / f"mission-over-ko-asked-{size[0]}x{size[1]}.png")
    play(app, key("return"))  # one press: Defeat, offered and focused first
    assert app.game.state.over == "defeat: heroes KO"
    assert over_words(app.game.state) == ("Defeat", "3 Heroes are KO")
    app.draw()
    assert shows(app, "Defeat", 36, theme.DANGER)
    pygame.image.save(app.surface, shots / f"mission-over-defeat-{size[0]}x{size[1]}.png")


def test_heroes_ko_that_a_mission_lists_as_its_victory_offer_victory_first() -> None:
    """Where the mission's Victory conditions name the Heroes KO (and its Defeat ones do not), Victory comes first."""
    from tests.ui.test_reactions import labels

    scenario = replace(demo_scenario(), victory=("At least 3 Heroes are KO: the decoy worked.",), defeat=())
    app = make_app(game=MemoryGame(scenario))
    for hero in ("sofia", "vincenzo", "eleonora"):
        assert app.act({"type": "damage", "hero": hero, "wounds": scenario.hero(hero).health})
    assert app.game.state.over == "ko" and labels(app)[:2] == ["Victory", "Defeat"]
    play(app, key("return"))
    assert app.game.state.over == "victory: heroes KO"


def test_a_time_up_that_only_the_paragraph_settles_pre_selects_neither_outcome() -> None:
    """The time up: victory or defeat as the mission's paragraph says. Victory was focused: a press recorded it. The
    focus is on Undo (a press takes back the last stop, Redo gives it again); Victory and Defeat are asked."""
    from tests.ui.test_reactions import labels

    app = make_app(game=MemoryGame(replace(demo_scenario(), end=EndTime(1, 2))))
    play(app, key("e"))
    assert app.game.state.over == "time" and labels(app)[:2] == ["Victory", "Defeat"]
    play(app, key("return"))
    assert app.game.state.over is None  # undone, not a victory recorded
    play(app, key("y"), key("d"))
    assert app.game.state.over == "defeat: time is up"
