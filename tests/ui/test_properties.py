"""Invariants under any sequence of inputs: the app never breaks, and the game is always the fold of its events."""

from __future__ import annotations

from typing import Any

import pygame
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assistant.rules import game as rules
from assistant.rules.horologium import Side
from assistant.rules.instructions import plan
from assistant.rules.scenario import Scenario
from assistant.ui.app import App
from assistant.ui.form import Reading
from assistant.ui.inputs import Action
from assistant.ui.table import MemoryGame
from tests.ui.conftest import make_app
from tests.ui.demo import demo_scenario
from tests.ui.missions import mission

SCENARIO = demo_scenario()
MISSIONS = {name: mission(name) for name in ("stealth", "draft", "hunt", "classic", "eclectic")}

def per_die(values: list[int | None], each: st.SearchStrategy[Any]) -> st.SearchStrategy[list[Any]]:
    return st.lists(each, min_size=len(values), max_size=len(values))


actions = st.one_of(
    st.builds(Action, st.just("turn"), st.sampled_from([1, -1])),
    st.builds(Action, st.just("confirm")),
    st.builds(Action, st.just("back")),
    st.builds(Action, st.just("digit"), st.integers(0, 9)),
    st.builds(Action, st.just("key"), st.sampled_from(list("maweoifrkuydsngc"))),
    st.builds(Action, st.sampled_from(["undo", "redo"])),
    st.builds(Action, st.just("dice"), st.lists(st.one_of(st.integers(1, 8), st.none()), max_size=6).flatmap(
        lambda values: st.builds(Reading, st.just(values), st.just("camera"), per_die(values, st.sampled_from(
            [None, "is partly out of view"])), per_die(values, st.sampled_from([None, "d6", "d8"])),
            per_die(values, st.one_of(st.none(), st.integers(0, 5)))))),
    st.builds(Action, st.just("knob"), st.tuples(st.integers(0, 3), st.integers(-2, 2))),
)


def check_round(app: App) -> None:
    """A Reaction round in the state is the active Hero's; it owes attacks of standing adjacent models, the first one planned."""
    state = app.game.state
    move = state.turn.move if state.turn is not None else None
    if move is None:
        return
    assert state.active is not None and state.side_of(state.active) is Side.HERO
    assert set(move.owed) <= set(move.adjacent)
    assert all(int(m.partition("/")[2]) in state.group(m.partition("/")[0]).standing for m in move.owed)
    attack = plan(state).attack
    assert (f"{attack.group}/{attack.model}" if attack is not None else None) == (move.owed[0] if move.owed else None)


def check_fold_and_hits(app: App, game: MemoryGame, scenario: Scenario, size: tuple[int, int]) -> None:
    """Replaying the journal from a new game gives the game's state; after a draw every hit rect lies on the screen."""
    replay = rules.new_game(scenario)
    for event in game.events():
        replay = rules.apply(replay, event)
    assert replay == game.state
    app.draw()
    bounds = pygame.Rect(0, 0, *size)
    assert all(bounds.contains(hit.rect) for hit in app.hits)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(actions, max_size=60), st.sampled_from([(800, 480), (720, 1280)]))
def test_any_inputs_keep_the_state_the_fold_of_the_events(inputs: list[Action], size: tuple[int, int]) -> None:
    game = MemoryGame(SCENARIO)
    app = make_app(size, game)
    app.running = True
    for action in inputs:
        app.handle(action)
        app._apply_knobs()
        screen = app.machine.current
        if screen.name == "table":
            screen.refresh(app)  # type: ignore[attr-defined]
            items = screen.items  # type: ignore[attr-defined]
            if any(item.enabled for item in items):
                assert items[screen.focus].enabled  # type: ignore[attr-defined]
        elif screen.name == "form":
            assert app.form is not None
        else:  # Fix, Calibrate dice: with no camera here, it says so
            assert screen.name == "calibrate" and app.form is None
        check_round(app)
    check_fold_and_hits(app, game, SCENARIO, size)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(actions, max_size=40), st.sampled_from(sorted(MISSIONS)))
def test_any_inputs_in_the_mission_rules_keep_the_fold_and_the_reaction_round_sane(inputs: list[Action], name: str) -> None:
    """Stealth rolls, Drafts, Prey cards, first-edition reactions, AI choices: still the fold of the journal."""
    scenario = MISSIONS[name]
    game = MemoryGame(scenario)
    app = make_app((800, 480), game)
    app.running = True
    for action in inputs:
        app.handle(action)
        app._apply_knobs()
        check_round(app)
    check_fold_and_hits(app, game, scenario, (800, 480))
