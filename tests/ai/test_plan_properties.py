"""Property: on any board, the instructions go for the books' goal, attack only it, and never a KO Hero."""

from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from assistant.rules.ai import HeroFacts
from assistant.rules.edition import Edition
from assistant.rules.game import apply
from assistant.rules.instructions import plan
from assistant.rules.scenario import MissionGoal
from tests.ai.board import Board, Dice, distance
from tests.ai.tables import HALBERD, SLING, enemy, hero, table
from tests.ai.test_goal_properties import Table, reference

NAMES = ("ada", "bea", "cal")


@settings(max_examples=60, deadline=None)
@given(
    edition=st.sampled_from(["renaissance", "classic"]),
    threats=st.lists(st.integers(0, 6), min_size=3, max_size=3),
    ko=st.lists(st.booleans(), min_size=3, max_size=3),
    squares=st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6)), min_size=4, max_size=4, unique=True),
    mission=st.sampled_from([None, 3, "none"]),
    ranged=st.booleans(),
)
def test_the_active_model_goes_for_the_books_goal_and_attacks_nobody_else(
    edition: str, threats: list[int], ko: list[bool], squares: list[tuple[int, int]], mission: int | None | str, ranged: bool
) -> None:
    assume(not all(ko))  # three Heroes KO end the mission
    goals = () if mission == "none" else (MissionGoal("gate", "Hold the gate", mission),)  # type: ignore[arg-type]
    state = table(
        edition,
        tuple(hero(n, threat=t, health=2) for n, t in zip(NAMES, threats)),
        (enemy("guard", swiftness=6, control_area=3, attacks=(SLING if ranged else HALBERD,), goal=None if mission == "none" else "gate"),),
        (("guard", 1, "enemy"),) + tuple((n, 5, "hero") for n in NAMES),
        goals=goals,
    )
    for name, down in zip(NAMES, ko):
        if down:
            state = apply(state, {"type": "damage", "hero": name, "wounds": 2})
    assert state.active == "guard"
    board = Board({"guard/1": squares[0], **dict(zip(NAMES, squares[1:])), "relic": (9, 9)}, Dice((1, 2)))
    heroes = tuple(HeroFacts(h.id, h.id, h.threat, h.wounds, h.ko) for h in state.heroes)
    far = {n: distance(squares[0], s) for n, s in zip(NAMES, squares[1:])}
    spec = state.group_spec("guard")
    kind, running = reference(Table(Edition(edition), 3, goals[0] if goals else None, heroes, far, spec.target_priority))
    asked = 0
    steps = plan(state).steps
    for _ in range(40):
        p = plan(state)
        steps = p.steps if state.over is None else steps
        first_goal = state.turn is not None and not state.turn.attacks
        if p.question is not None:
            answer = board.answer(state, p.question)
            if p.question.kind in ("choose", "roll") and first_goal:
                assert kind == "hero" and set(p.question.about) == running
            assert answer is not None
            asked += first_goal
            state = apply(state, {"type": "ai_answer", "question": p.question.key, "answer": list(answer or ())})
            continue
        if p.attack is not None:
            assert not state.hero(p.attack.hero).ko
            if first_goal:
                assert p.attack.hero in running
            state = apply(state, p.attack.event([1] * p.attack.dice))
            continue
        break
    assert plan(state).done
    first = next(s for s in steps if s.kind == "goal")
    if kind == "mission":
        assert "pursues the mission goal" in first.text
    else:
        assert kind == "hero" and any(first.text.startswith(f"Guard goes for {h.title()}") for h in running)
    assert asked <= 3 + 3  # in the area (at most one per Hero), closest, the players, and the reach
