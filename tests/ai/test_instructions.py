"""Instructions for the active group: goal, movement, attack with its numbers, in order, from the table's answers."""

from __future__ import annotations

import pytest

from assistant.rules.errors import RuleError
from assistant.rules.game import apply
from assistant.rules.instructions import plan
from assistant.rules.scenario import AttackSpec, MissionGoal
from tests.ai.tables import HALBERD, SLING, SOULFIRE, answer, enemy, hero, run, table, texts


def test_renaissance_example_the_papal_guard_moves_toward_vincenzo_without_the_ap_to_attack() -> None:
    # "Example: AI Priority": Sofia (Threat Level 3) is closer, Vincenzo (8) is the Goal; the
    # Papal Guard moves toward him "even though he does not have enough Action Points to attack him".
    state = table(
        "renaissance",
        (hero("sofia", threat=3), hero("vincenzo", threat=8)),
        (enemy("papal_guard", swiftness=4, control_area=4, attacks=(HALBERD,)),),
        (("papal_guard", 1, "enemy"), ("sofia", 3, "hero"), ("vincenzo", 4, "hero")),
    )
    assert state.active == "papal_guard"
    state = answer(state, ("in_area", "yes"), ("reach", 3))
    p = plan(state)
    assert p.done and p.attack is None and p.question is None
    assert texts(p)[1:] == [
        "Papal Guard goes for Vincenzo (Threat Level 8): in the Control Area; the highest Threat Level.",
        "Papal Guard moves 3 squares toward Vincenzo; not enough AP left to attack this activation.",
        "Papal Guard: done. End the activation.",
    ]


def test_first_edition_examples_5_and_6_the_swiss_guard_attacks_the_scum() -> None:
    # Example 5: Ca 3, mission TV 5, Novice TV 4, Scum TV 6 -> the Scum; he moves into base contact
    # and attacks. Example 6: the halberd deals 2 strikes at 5+, the Scum rolls 3, 1, 6: one wound.
    halberd = AttackSpec("Halberd", "physical", ap=0, range_min=1, range_max=1, threshold=5, defended_with="physique", hits=2)
    state = table(
        "classic",
        (hero("novice", threat=4), hero("scum", threat=6, physique=3)),
        (enemy("swiss_guard", swiftness=5, control_area=3, attacks=(halberd,), goal="gate"),),
        (("swiss_guard", 1, "enemy"), ("novice", 3, "hero"), ("scum", 4, "hero")),
        goals=(MissionGoal("gate", "Hold the gate", 5),),
    )
    state = answer(state, ("in_area", "yes"))
    question = plan(state).question
    assert question is not None and question.kind == "reach" and question.options == ("0", "1", "2", "3", "4", "5", "more")
    assert question.text == "How many squares must Swiss Guard move to reach a square adjacent to Scum? (0 if it can attack from where it stands)"
    state = answer(state, ("reach", 2))
    p = plan(state)
    assert p.attack is not None
    assert (p.attack.hero, p.attack.hits, p.attack.threshold, p.attack.dice, p.attack.defended_with) == ("scum", 2, 5, 3, "physique")
    assert texts(p)[-2:] == [
        "Swiss Guard moves 2 squares toward Scum (it keeps 3 AP for Halberd).",
        "Swiss Guard attacks Scum with Halberd: 2 hits. Scum rolls 3 dice on Physical, 5+: each success cancels a hit.",
    ]
    state = apply(state, p.attack.event([3, 1, 6]))
    assert state.hero("scum").wounds == 1
    p = plan(state)
    assert p.done and "Halberd on Scum: 1 wound." in texts(p)


def test_a_ranged_attacker_stops_at_its_longest_range_and_attacks_while_ap_allow() -> None:
    state = table(
        "renaissance",
        (hero("sofia", threat=2),),
        (enemy("slingers", swiftness=5, control_area=8, attacks=(SLING,)),),
        (("slingers", 1, "enemy"), ("sofia", 3, "hero")),
    )
    state = answer(state, ("in_area", "yes"))
    question = plan(state).question
    assert question is not None and "the farthest square within 2-6 squares of Sofia, in line of sight" in question.text
    state = answer(state, ("reach", 1))
    first = plan(state).attack
    assert first is not None and first.dice == 3 and first.defended_with == "dexterity"
    state = apply(state, first.event([2, 2, 2]))  # 5 AP: 1 to move, 2 + 2 for two Sling attacks
    second = plan(state).attack
    assert second is not None
    state = apply(state, second.event([8, 2, 2]))
    p = plan(state)
    assert p.done
    assert [s.kind for s in p.steps] == ["activate", "goal", "move", "attacked", "attacked", "done"]
    assert state.hero("sofia").wounds == 1


def test_when_the_goal_is_ko_the_model_chooses_again_with_the_ap_left() -> None:
    state = table(
        "renaissance",
        (hero("sofia", threat=5, health=1), hero("vincenzo", threat=1)),
        (enemy("slingers", swiftness=6, control_area=8, attacks=(SLING,)),),
        (("slingers", 1, "enemy"), ("sofia", 3, "hero"), ("vincenzo", 4, "hero")),
    )
    state = answer(state, ("in_area", "yes"), ("reach", 0))
    attack = plan(state).attack
    assert attack is not None and attack.hero == "sofia"
    state = apply(state, attack.event([1]))
    assert state.hero("sofia").ko
    state = answer(state, ("in_area", "yes"), ("reach", 0))  # a new goal, asked afresh
    attack = plan(state).attack
    assert attack is not None and attack.hero == "vincenzo"
    assert any(step.text.startswith("Slingers 1 goes for Vincenzo") for step in plan(state).steps)


def test_one_die_one_hit_one_success_one_wound_and_one_square_are_said_in_the_singular() -> None:
    jab = AttackSpec("Jab", "physical", ap=2, range_min=1, range_max=1, threshold=5, defended_with="physique", hits=1)
    hex_ = AttackSpec("Hex", "psychic", ap=2, range_min=1, range_max=1, threshold=3, defended_with="mind", contrast=1, effect_wounds=1)
    for attack, words in ((jab, "Imp attacks Sofia with Jab: 1 hit. Sofia rolls 1 die on Physique, 5+: each success cancels a hit."),
                          (hex_, "Imp attacks Sofia with Hex. Sofia rolls 1 die on Mind, 3+: 1 success resists it, else 1 wound.")):
        state = table(
            "renaissance",
            (hero("sofia", physique=1, mind=1),),
            (enemy("imp", swiftness=4, control_area=1, attacks=(attack,)),),
            (("imp", 1, "enemy"), ("sofia", 3, "hero")),
        )
        assert plan(state).question.text == "Is Sofia within 1 square of Imp?"  # type: ignore[union-attr]
        assert texts(plan(answer(state, ("in_area", "yes"), ("reach", 0))))[-1] == words


def test_two_attacks_the_ai_takes_the_most_harmful_it_can_make_and_the_table_may_override() -> None:
    bite = AttackSpec("Bite", "physical", ap=2, range_min=1, range_max=1, threshold=5, defended_with="physique", hits=4)
    state = table(
        "renaissance",
        (hero("sofia", threat=2, mind=4),),
        (enemy("gipsy", swiftness=6, control_area=8, attacks=(SOULFIRE, bite)),),
        (("gipsy", 1, "enemy"), ("sofia", 3, "hero")),
    )
    state = answer(state, ("in_area", "yes"), ("reach", "more"), ("reach", 0))  # Bite cannot reach; Soulfire can
    p = plan(state)
    assert p.attack is not None and p.attack.attack == "Soulfire"
    assert p.attack.contrast == 2 and p.attack.threshold == 3 and p.attack.dice == 4 and p.attack.traits == ("Fire",)
    assert texts(p)[-1] == "Gipsy attacks Sofia with Soulfire. Sofia rolls 4 dice on Mind, 3+: 2 successes resist it, else 3 wounds. Traits: Fire."
    (choice,) = p.choices
    assert choice.kind == "attack" and choice.default == ("Soulfire",) and p.steps[-1].choice == choice.key
    state = apply(state, {"type": "ai_answer", "question": choice.key, "answer": "Bite"})  # the table overrides
    p = plan(state)
    assert p.attack is None and p.done
    assert "Gipsy moves 6 squares toward Sofia; not enough AP left to attack this activation." in texts(p)


def test_first_edition_an_enemy_in_base_contact_without_the_ap_to_attack_engages() -> None:
    state = table(
        "classic",
        (hero("scum", threat=6),),
        (enemy("swiss_guard", swiftness=4, control_area=5, goal="gate"),),
        (("swiss_guard", 1, "enemy"), ("scum", 4, "hero")),
        goals=(MissionGoal("gate", "Hold the gate", 5),),
    )
    state = answer(state, ("in_area", "yes"), ("reach", 2))  # 4 AP: 2 to reach her, 2 left, an attack costs 3
    assert texts(plan(state))[-2] == "Swiss Guard engages Scum (1 AP): to move away Scum must Disengage."


def test_a_mission_goal_without_threat_level_asks_nothing() -> None:
    state = table(
        "renaissance",
        (hero("sofia", threat=9),),
        (enemy("guards", swiftness=4, models=2, goal="relic"),),
        (("guards", 1, "enemy"), ("sofia", 3, "hero")),
        goals=(MissionGoal("relic", "Carry off the relic", None),),
    )
    p = plan(state)
    assert p.done and p.question is None
    assert texts(p)[1:3] == ["Guards 1 pursues the mission goal: Carry off the relic", "Guards 1 moves up to 4 squares toward it."]
    assert [c.key for c in p.choices] == ["guards:next1"]


def test_the_models_activate_in_number_order_unless_the_table_says_otherwise() -> None:
    state = table(
        "renaissance",
        (hero("sofia", threat=9),),
        (enemy("guards", swiftness=4, models=3, goal="relic"),),
        (("guards", 1, "enemy"), ("sofia", 3, "hero")),
        goals=(MissionGoal("relic", "Carry off the relic", None),),
    )
    order = [s.model for s in plan(state).steps if s.kind == "goal"]
    assert order == ["guards/1", "guards/2", "guards/3"]
    state = apply(state, {"type": "ai_answer", "question": "guards:next1", "answer": 3})
    order = [s.model for s in plan(state).steps if s.kind == "goal"]
    assert order == ["guards/3", "guards/1", "guards/2"]


def test_answers_are_checked_and_remembered_only_for_the_activation() -> None:
    state = table(
        "renaissance",
        (hero("sofia", threat=2),),
        (enemy("guards", swiftness=4),),
        (("guards", 1, "enemy"), ("sofia", 3, "hero")),
    )
    asked = plan(state).question
    assert asked is not None
    with pytest.raises(RuleError, match="^question"):
        apply(state, {"type": "ai_answer", "question": "guards/1:in_area:nobody:3", "answer": "yes"})
    with pytest.raises(RuleError, match="^answer"):
        apply(state, {"type": "ai_answer", "question": asked.key, "answer": "maybe"})
    with pytest.raises(RuleError, match="^answer"):
        apply(state, {"type": "ai_answer", "question": asked.key, "answer": ["yes", "no"]})
    state = answer(state, ("in_area", "no"))  # nobody in the area: the closest Hero anywhere (only Sofia)
    assert plan(state).question is not None and plan(state).question.kind == "reach"  # type: ignore[union-attr]
    state = answer(state, ("reach", "more"))
    assert state.turn is not None and len(state.turn.answers) == 2
    state = apply(state, {"type": "end_activation"})
    assert state.active == "sofia" and state.turn is not None and state.turn.answers == ()


def test_a_ko_hero_is_told_to_draw_an_injury() -> None:
    state = table(
        "renaissance",
        (hero("sofia", threat=2, health=1), hero("valerio")),
        (enemy("guards", swiftness=4),),
        (("sofia", 1, "hero"), ("valerio", 2, "hero"), ("guards", 5, "enemy")),
    )
    state = apply(state, {"type": "damage", "hero": "sofia", "wounds": 1})
    assert state.active == "valerio"  # Sofia was KO'd during her activation: it ended
    while state.active != "sofia":
        state = apply(state, {"type": "end_activation", "skip": True})
    assert texts(plan(state)) == ["Sofia is KO: draw an Injury Card instead of activating; draw again if Sofia already has it."]
    state = apply(state, {"type": "injury", "card": "broken-arm"})
    assert state.hero("sofia").injuries == ("broken-arm",)


def test_wounds_on_equipment_are_not_wound_tokens_for_the_ai() -> None:
    """Renaissance "Wound Tokens and Equipment": a wound placed on an Equipment Card is not the Hero's ("the Hero is
    considered to have not gained the Wound Token"). Ada (Resistance 2) takes 3 wounds: 1 is hers; Bea has 2. Tied on
    Threat Level and distance, the Guard goes for the most Wound Tokens: Bea."""
    state = table(
        "renaissance",
        (hero("ada", resistance=2), hero("bea")),
        (enemy("guard", swiftness=4, control_area=4, attacks=(HALBERD,)),),
        (("ada", 1, "hero"), ("bea", 2, "hero"), ("guard", 3, "enemy")),
    )
    state = run(state, {"type": "enemy_attack", "group": "guard", "hero": "ada", "hits": 3, "dice": [1, 1, 1]},
                {"type": "damage", "hero": "bea", "wounds": 2},
                {"type": "spend_ap", "ap": 5}, {"type": "end_activation"},
                {"type": "spend_ap", "ap": 5}, {"type": "end_activation"})  # fmt: skip
    assert (state.hero("ada").wounds, state.hero("ada").equipment_wounds, state.hero("bea").wounds) == (1, 2, 2)
    assert state.active == "guard"
    state = answer(state, ("in_area", "yes"), ("in_area", "yes"), ("closest", ["ada", "bea"]))
    assert texts(plan(state))[1] == ("Guard goes for Bea (Threat Level 0): in the Control Area; the highest Threat Level "
                                     "then the closest then the most Wound Tokens.")  # fmt: skip


def test_the_plan_tells_the_wounds_an_attack_put_on_the_equipment() -> None:
    state = table(
        "renaissance",
        (hero("ada", resistance=1),),
        (enemy("guard", swiftness=4, control_area=4, attacks=(HALBERD,)),),
        (("guard", 1, "enemy"), ("ada", 3, "hero")),
    )
    state = answer(state, ("in_area", "yes"), ("reach", 0))
    order = plan(state).attack
    assert order is not None
    state = apply(state, order.event([1, 1, 1]))
    assert (state.hero("ada").wounds, state.hero("ada").equipment_wounds) == (1, 1)
    assert "Halberd on Ada: 2 wounds (1 on the Equipment)." in texts(plan(state))


def test_a_group_s_verb_agrees_with_its_name_and_one_model_of_a_plural_name_is_numbered() -> None:
    """"Guards activates" and "Papal Guard activate" were said: the verb followed the count of models, or was
    always one form. Now it follows the name, and one model of "Guards" is "Guards 1", which "it" fits."""
    goals = (MissionGoal("relic", "Carry off the relic", None),)
    for gid, models, said in [("guards", 1, "Guards activate with 4 AP."), ("papal_guard", 3, "Papal Guard activates with 4 AP each."),
                              ("crossbowmen", 2, "Crossbowmen activate with 4 AP each."), ("colossus", 1, "Colossus activates with 4 AP.")]:  # fmt: skip
        state = table("renaissance", (hero("sofia", threat=9),), (enemy(gid, swiftness=4, models=models, goal="relic"),),
                      ((gid, 1, "enemy"), ("sofia", 3, "hero")), goals=goals)  # fmt: skip
        steps = texts(plan(state))
        assert steps[0].startswith(said), steps
        one = {"guards": "Guards 1", "papal_guard": "Papal Guard 1", "crossbowmen": "Crossbowmen 1", "colossus": "Colossus"}[gid]
        assert steps[1] == f"{one} pursues the mission goal: Carry off the relic", steps
        ended = apply(state, {"type": "end_activation"}).notes
        assert ended[0] == said.split(" with ")[0].replace("activates", "ends").replace("activate", "end") + " the activation", ended


def test_which_model_activates_next_is_asked_and_answered_in_words() -> None:
    state = table("renaissance", (hero("sofia", threat=9),), (enemy("slingers", swiftness=4, models=3, goal="relic"),),
                  (("slingers", 1, "enemy"), ("sofia", 3, "hero")), goals=(MissionGoal("relic", "Carry off the relic", None),))  # fmt: skip
    assert plan(state).choices[0].text == "Which Slingers model activates next?"
    state = apply(state, {"type": "ai_answer", "question": "slingers:next1", "answer": 3})
    assert state.notes == ("Which Slingers model activates next? Slingers 3",)  # was "... next? 3"


def test_the_goal_is_said_by_the_factors_words_not_their_ids() -> None:
    """It said "Profile Card priority highest mind; the highest Mind": an id, then the same again in words."""
    state = table("renaissance", (hero("sofia", mind=2), hero("ada", mind=4)),
                  (enemy("alchemist", priority=("highest_mind", "standard")),),
                  (("alchemist", 1, "enemy"), ("sofia", 3, "hero"), ("ada", 3, "hero")))  # fmt: skip
    state = answer(state, ("in_area", "yes"))
    assert "Alchemist goes for Ada (Threat Level 0): in the Control Area; the highest Mind." in texts(plan(state))
