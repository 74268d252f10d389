"""Small tables for the AI tests, built in code (card values are examples), and a way to answer the AI."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from assistant.rules.game import apply, new_game
from assistant.rules.instructions import Plan, plan
from assistant.rules.scenario import AttackSpec, EnemyGroupSpec, HeroSpec, MissionGoal, Scenario
from assistant.rules.state import GameState
from tests.rules.scenarios import skirmish

HALBERD = AttackSpec("Halberd", "physical", ap=3, range_min=1, range_max=1, threshold=5, defended_with="physique", hits=2)
SLING = AttackSpec("Sling", "physical", ap=2, range_min=2, range_max=6, threshold=5, defended_with="dexterity", hits=1)
SOULFIRE = AttackSpec("Soulfire", "psychic", ap=3, range_min=1, range_max=6, threshold=3, defended_with="mind",
                      contrast=2, effect_wounds=3, traits=("Fire",))  # fmt: skip


def hero(hid: str, threat: int = 0, swiftness: int = 5, health: int = 5, physique: int = 3, mind: int = 3,
         resistance: int = 0) -> HeroSpec:  # fmt: skip
    return HeroSpec(hid, hid.title(), "Squire", swiftness, 3, physique, mind, health, threat=threat, resistance=resistance)


def enemy(gid: str, swiftness: int = 4, models: int = 1, control_area: int = 3, attacks: tuple[AttackSpec, ...] = (HALBERD,),
          goal: str | None = None, priority: tuple[str, ...] = ("standard",), skills: tuple[str, ...] = (),
          faction: str = "Rome", rank: str = "troop", health: int = 3) -> EnemyGroupSpec:  # fmt: skip
    return EnemyGroupSpec(gid, gid.replace("_", " ").title(), rank, faction, swiftness, control_area, 5, 5, health,  # type: ignore[arg-type]
                          attacks, models, priority, ("Elementum",), skills, goal=goal)  # fmt: skip


def table(edition: str, heroes: tuple[HeroSpec, ...], enemies: tuple[EnemyGroupSpec, ...],
          placements: tuple[tuple[str, int, str], ...], goals: tuple[MissionGoal, ...] = (), **changes: Any) -> GameState:  # fmt: skip
    scenario: Scenario = skirmish(edition=edition, heroes=heroes, enemies=enemies, placements=placements, hour=1, minute=12)
    return new_game(replace(scenario, goals=goals, **changes))


def run(state: GameState, *events: dict[str, Any]) -> GameState:
    for event in events:
        state = apply(state, event)
    return state


def answer(state: GameState, *replies: tuple[str, Any]) -> GameState:
    """Answer the AI's questions in turn: each reply is (the question kind expected, the answer)."""
    for kind, value in replies:
        asked = plan(state).question
        assert asked is not None, f"expected a {kind} question, the AI asks nothing ({texts(plan(state))})"
        assert asked.kind == kind, f"expected a {kind} question, got {asked.kind}: {asked.text}"
        state = apply(state, {"type": "ai_answer", "question": asked.key, "answer": value})
    return state


def texts(p: Plan) -> list[str]:
    return [step.text for step in p.steps]
