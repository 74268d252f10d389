"""Renaissance "Reaction Attacks" as events: the declared Move, the attacks it owes, the Move; in the fold and the journal."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from assistant.rules.errors import RuleError
from assistant.rules.game import apply
from assistant.rules.instructions import AttackOrder, plan, reaction_attacks
from assistant.rules.state import GameState
from assistant.session.games import StateFile
from tests.ai.tables import SLING, enemy, hero, run, table, texts
from tests.session.conftest import FOLDS, ROOT, demo_text

SAVES = [8, 8, 8]  # three dice that save every hit of a Halberd (threshold 5)


def guarded() -> GameState:
    """Sofia active with 5 AP; two Guards (Halberd, Range 1) and Slingers (no Range 1 attack)."""
    return table(
        "renaissance",
        (hero("sofia", threat=3, health=4),),
        (enemy("guards", models=2), enemy("slingers", attacks=(SLING,))),
        (("sofia", 12, "hero"), ("guards", 5, "enemy"), ("slingers", 9, "enemy")),
    )


def orders(state: GameState, adjacent: list[str]) -> list[AttackOrder]:
    return [s.attack for s in reaction_attacks(state, "sofia", adjacent) if s.attack is not None]


def test_a_declared_move_owes_each_adjacent_attack_and_the_move_comes_after_the_last() -> None:
    start = guarded()
    first, second = orders(start, ["guards/1", "guards/2"])
    state = apply(start, {"type": "declare_move", "adjacent": ["guards/1", "guards/2"]})
    assert state.turn is not None and state.turn.move is not None
    assert state.turn.move.owed == ("guards/1", "guards/2") and state.turn.ap_left == 5  # Reaction Attacks cost no AP
    assert plan(state).attack == first and first.reaction
    with pytest.raises(RuleError, match=r"^type: .*guards/1, guards/2 are still owed \(turn\.move\.owed\)") as refused:
        apply(state, {"type": "spend_ap", "ap": 2, "action": "move"})
    assert refused.value.field == "type"
    state = apply(state, first.event(SAVES))
    assert state.turn is not None and state.turn.move is not None and state.turn.move.owed == ("guards/2",)
    p = plan(state)
    assert p.attack == second and [s.kind for s in p.steps] == ["declare", "attacked", "attack"]
    state = apply(state, second.event(SAVES))
    p = plan(state)
    assert p.attack is None and p.question is None and texts(p)[-1] == "Sofia moves now."
    state = apply(state, {"type": "spend_ap", "ap": 2, "action": "move"})
    assert state.turn is not None and state.turn.move is None and state.turn.ap_left == 3
    assert plan(state).attack is None and not plan(state).steps  # the round is over


def test_nobody_adjacent_owes_nothing_and_the_move_follows() -> None:
    state = apply(guarded(), {"type": "declare_move", "adjacent": []})
    assert state.turn is not None and state.turn.move is not None and state.turn.move.owed == ()
    assert plan(state).attack is None
    state = apply(state, {"type": "spend_ap", "ap": 1, "action": "move"})
    assert state.turn is not None and state.turn.move is None


@pytest.mark.parametrize(
    "event, field",
    [
        ({"type": "declare_move", "adjacent": ["slingers/1"]}, "adjacent"),  # no Range 1 attack: no Reaction Attack
        ({"type": "declare_move", "adjacent": ["none"]}, "adjacent"),  # nobody is []
        ({"type": "declare_move", "adjacent": "guards/1"}, "adjacent"),
        ({"type": "declare_move"}, "adjacent"),
        ({"type": "declare_move", "adjacent": [], "hero": "guards"}, "hero"),
    ],
)
def test_a_declaration_names_models_that_can_react(event: dict[str, object], field: str) -> None:
    with pytest.raises(RuleError) as refused:
        apply(guarded(), event)
    assert refused.value.field.startswith(field)


def test_a_move_is_declared_once_and_only_in_renaissance() -> None:
    state = apply(guarded(), {"type": "declare_move", "adjacent": []})
    with pytest.raises(RuleError, match="already declared a Move"):
        apply(state, {"type": "declare_move", "adjacent": ["guards/1"]})
    classic = table("classic", (hero("scum"),), (enemy("guards"),), (("scum", 12, "hero"), ("guards", 5, "enemy")))
    with pytest.raises(RuleError, match="Renaissance rule"):
        apply(classic, {"type": "declare_move", "adjacent": []})


def test_a_ko_by_a_reaction_attack_ends_the_activation_and_the_round() -> None:
    start = guarded()
    first, _ = orders(start, ["guards/1", "guards/2"])
    state = run(start, {"type": "damage", "hero": "sofia", "wounds": 3}, {"type": "declare_move", "adjacent": ["guards/1", "guards/2"]})
    state = apply(state, first.event([1, 1, 1]))  # 2 hits, no save: the fourth wound
    assert state.hero("sofia").ko and state.active != "sofia"
    assert state.turn is None or state.turn.move is None


def test_a_model_defeated_before_its_reaction_attack_owes_none() -> None:
    state = apply(guarded(), {"type": "declare_move", "adjacent": ["guards/1", "guards/2"]})
    state = apply(state, {"type": "damage", "group": "guards", "model": 1, "wounds": 3, "by": "sofia"})
    assert state.turn is not None and state.turn.move is not None and state.turn.move.owed == ("guards/2",)
    assert plan(state).attack == orders(state, ["guards/2"])[0]


def test_the_round_survives_the_snapshot_codec_and_old_snapshots_have_no_round() -> None:
    state = apply(guarded(), {"type": "declare_move", "adjacent": ["guards/1", "guards/2"]})
    data = json.loads(json.dumps(state.to_dict()))
    assert GameState.from_dict(data) == state
    del data["turn"]["move"]  # a snapshot written before the field existed
    old = GameState.from_dict(data)
    assert old.turn is not None and old.turn.move is None and plan(old).attack is None


# --- through the session journal ---------------------------------------------------------------


def demo_round() -> tuple[list[dict[str, object]], list[AttackOrder]]:
    """Valerio, first to act in the demo, declares a Move with the Papal Guard and the Alchemist adjacent."""
    start = replay([])
    adjacent = ["papal_guard/1", "alchemist/1"]
    made = [s.attack for s in reaction_attacks(start, "valerio", adjacent) if s.attack is not None]
    declare: dict[str, object] = {"type": "declare_move", "adjacent": adjacent}
    return [declare, made[0].event([8, 8, 8, 8]), made[1].event([8, 8])], made


def replay(events: list[dict[str, object]]) -> GameState:
    fold = FOLDS("mission", demo_text(), "demo")
    state: GameState = fold.initial()
    for event in events:
        state = apply(state, event)
    return state


def test_undo_and_redo_walk_through_the_round(tmp_path: Path) -> None:
    events, made = demo_round()
    with StateFile(tmp_path / "table.db", create=True, folds=FOLDS) as games:
        games.new_game(demo_text(), "demo.toml")
        journal = games.journal()
        for event in events:
            journal.append(event)
        assert plan(journal.state).attack is None
        journal.undo()  # the Alchemist's attack is owed again
        assert journal.state == replay(journal.events()) and plan(journal.state).attack == made[1]
        journal.undo()
        journal.undo()  # the declaration itself: no round, a Move may be declared again
        state = journal.state
        assert state == replay([]) and state.turn is not None and state.turn.move is None and plan(state).attack is None
        journal.redo()
        journal.redo()
        assert journal.state == replay(events[:2]) and plan(journal.state).attack == made[1]
        journal.append({"type": "damage", "group": "alchemist", "model": 1, "wounds": 4, "by": "valerio"})
        state = journal.state  # the owed model is defeated: the Move goes on
        assert state == replay(journal.events()) and plan(state).attack is None and not journal.can_redo()


CHILD = """
import os, signal, sys, json
from assistant.session.games import StateFile
from tests.session.conftest import FOLDS, demo_text
games = StateFile(sys.argv[1], create=True, folds=FOLDS)
games.new_game(demo_text(), "demo.toml")
journal = games.journal()
for event in json.loads(sys.argv[2]):
    journal.append(event)
os.kill(os.getpid(), signal.SIGKILL)  # the plug pulled between two Reaction Attacks
"""


def test_a_crash_between_two_reaction_attacks_leaves_the_second_still_owed(tmp_path: Path) -> None:
    events, made = demo_round()
    path = tmp_path / "table.db"
    child = subprocess.run([sys.executable, "-c", CHILD, str(path), json.dumps(events[:2])], cwd=ROOT, capture_output=True,
                           text=True, timeout=60)  # fmt: skip
    assert child.returncode == -signal.SIGKILL, child.stderr
    with StateFile(path, folds=FOLDS) as games:
        state = games.journal().state
        assert state == replay(events[:2])
        assert state.turn is not None and state.turn.move is not None and state.turn.move.owed == ("alchemist/1",)
        assert plan(state).attack == made[1]
