"""Renaissance "Areas": which other Heroes an Area holds was asked anew for every attack of every model (issue 51,
"fewer questions"). A Cross or Burst Area lies around the target alone: one answer for the whole group attacking that
Hero; a Spear or Breath Area depends on the attacker's square: one answer for the model's attacks on the same target."""

from __future__ import annotations

from typing import Any

from assistant.rules.game import apply
from assistant.rules.instructions import plan
from assistant.rules.scenario import AttackSpec
from assistant.rules.state import GameState
from tests.ai.tables import enemy, hero, table


def area_attack(area: str, range_max: int = 4) -> AttackSpec:
    return AttackSpec("Blast", "physical", ap=2, range_min=1, range_max=range_max, threshold=5, defended_with="physique",
                      hits=2, traits=(area,))  # fmt: skip


def activation(area: str, models: int, picked: tuple[str, ...] = ("sofia",), dice: int = 8,
               between: list[dict[str, Any]] | None = None, sofia: int = 5) -> tuple[list[str], GameState]:  # fmt: skip
    """The group's activation played out: every goal question "yes"/"0", every Area question answered `picked`;
    the keys of the Area questions asked, and the state at the end. `between`: events applied after the first attack."""
    state = table("renaissance", (hero("valerio", threat=5), hero("sofia", health=sofia), hero("rebecca")),
                  (enemy("bombardiers", swiftness=4, models=models, attacks=(area_attack(area),)),),
                  (("bombardiers", 1, "enemy"), ("valerio", 2, "hero"), ("sofia", 3, "hero"), ("rebecca", 4, "hero")))  # fmt: skip
    asked: list[str] = []
    rolled = 0
    for _ in range(80):
        p = plan(state)
        if p.done:
            return asked, state
        if p.question is not None:
            q = p.question
            if q.kind == "in_area_heroes":
                asked.append(q.key)
                value: Any = [h for h in picked if h in q.options] or "none"
            else:
                value = {"in_area": "yes", "reach": "0", "closest": [q.options[0]]}.get(q.kind, q.options[0])
            state = apply(state, {"type": "ai_answer", "question": q.key, "answer": value})
            continue
        assert p.attack is not None
        state = apply(state, p.attack.event([dice] * p.attack.dice))
        rolled += 1
        for event in (between or []) if rolled == 1 else []:
            state = apply(state, event)
    raise AssertionError("the activation did not end")


def area_attacks(state: GameState) -> list[tuple[int, str, bool]]:
    assert state.turn is not None
    return [(a.model, a.hero, a.area) for a in state.turn.attacks]


def test_a_burst_area_is_asked_once_for_the_whole_group_attacking_the_same_hero() -> None:
    asked, state = activation("Burst Area", models=3)
    assert asked == ["bombardiers/1:area1"]  # 3 models, 2 attacks each: 6 questions before
    made = area_attacks(state)
    assert made == [(n, hero_id, area) for n in (1, 2, 3) for _ in (1, 2) for hero_id, area in (("valerio", False), ("sofia", True))]


def test_the_group_s_question_says_its_answer_stands_for_every_model() -> None:
    state = table("renaissance", (hero("valerio", threat=5), hero("sofia")),
                  (enemy("bombardiers", swiftness=4, models=2, attacks=(area_attack("Cross Area"),)),),
                  (("bombardiers", 1, "enemy"), ("valerio", 2, "hero"), ("sofia", 3, "hero")))  # fmt: skip
    for _ in range(6):
        q = plan(state).question
        assert q is not None
        if q.kind == "in_area_heroes":
            break
        state = apply(state, {"type": "ai_answer", "question": q.key, "answer": {"reach": "0"}.get(q.kind, "yes")})
    assert q is not None and q.text.endswith("The answer stands for every Bombardiers model attacking Valerio now.")


def test_a_spear_area_is_asked_once_a_model_for_its_attacks_on_the_same_target_from_the_same_square() -> None:
    asked, state = activation("Spear 2 Area", models=2)
    assert asked == ["bombardiers/1:area1", "bombardiers/2:area1"]  # each from its own square; its second attack not
    assert sum(1 for _, _, area in area_attacks(state) if area) == 4


def test_a_hero_moved_in_the_activation_makes_it_asked_again() -> None:
    dash = {"type": "declare_move", "movement": "dash", "hero": "sofia", "adjacent": []}
    asked, _ = activation("Burst Area", models=2, between=[dash])
    assert asked == ["bombardiers/1:area1", "bombardiers/1:area2", "bombardiers/2:area1", "bombardiers/2:area2"]


def test_a_hero_ko_since_leaves_the_answer() -> None:
    """Sofia falls to the first attack's Area (every die a 1): the next attack is on Valerio alone, not asked."""
    asked, state = activation("Burst Area", models=1, dice=1, sofia=2)
    assert asked == ["bombardiers/1:area1"] and state.hero("sofia").ko
    assert [hero_id for _, hero_id, area in area_attacks(state) if area] == ["sofia"]
