"""Renaissance "Areas": however many Heroes the Area holds, the attack's AP are spent once per attack."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.rules.game import apply
from assistant.rules.instructions import plan
from assistant.rules.scenario import AttackSpec
from tests.ai.tables import enemy, hero, table

GRENADE = AttackSpec("Grenade", "physical", ap=2, range_min=1, range_max=4, threshold=5, defended_with="physique", hits=2,
                     traits=("Burst Area",))  # fmt: skip


@settings(max_examples=40, deadline=None)
@given(swiftness=st.integers(2, 7), data=st.data())
def test_each_attack_costs_its_ap_once_and_every_hero_named_in_the_area_defends(swiftness: int, data: st.DataObject) -> None:
    state = table("renaissance", (hero("valerio", threat=3), hero("sofia"), hero("rebecca")),
                  (enemy("bombardier", swiftness=swiftness, attacks=(GRENADE,)),),
                  (("bombardier", 1, "enemy"), ("valerio", 2, "hero"), ("sofia", 3, "hero"), ("rebecca", 4, "hero")))  # fmt: skip
    named = 0
    picked: list[str] = []
    for _ in range(60):
        p = plan(state)
        if p.done:
            break
        if p.question is not None:
            q = p.question
            if q.kind == "in_area_heroes":
                picked = data.draw(st.lists(st.sampled_from([o for o in q.options if o != "none"]), unique=True))
                value: object = picked or "none"
            else:
                value = {"in_area": "yes", "reach": "0"}.get(q.kind, q.options[0])
            state = apply(state, {"type": "ai_answer", "question": q.key, "answer": value})
            continue
        assert p.attack is not None
        named += 0 if p.attack.area else len(picked)  # a Burst's Heroes told once stand for the next attack (`areas`)
        state = apply(state, p.attack.event([8, 8, 8]))  # every hit saved: nobody falls
    assert plan(state).done
    assert state.turn is not None
    made = state.turn.attacks
    assert sum(1 for a in made if not a.area) == swiftness // 2  # the Grenade's 2 AP, as often as the AP pay
    assert sum(1 for a in made if a.area) == named


def test_a_breath_area_attack_is_made_from_an_adjacent_square() -> None:
    """"Areas": "The Spear X and Breath Areas require the Model performing the Attack to be adjacent to the target"."""
    breath = AttackSpec("Fire Breath", "physical", ap=2, range_min=1, range_max=3, threshold=5, defended_with="physique",
                        hits=2, traits=("Breath Area",))  # fmt: skip
    state = table("renaissance", (hero("valerio", threat=3),), (enemy("drake", attacks=(breath,)),),
                  (("drake", 1, "enemy"), ("valerio", 2, "hero")))  # fmt: skip
    state = apply(state, {"type": "ai_answer", "question": plan(state).question.key, "answer": "yes"})  # type: ignore[union-attr]
    asked = plan(state).question
    assert asked is not None and asked.kind == "reach" and "a square adjacent to Valerio" in asked.text
