"""The mission flow around the AI: Enemy Draft, Prey decks, Stealth and alarm, reactions, the state round trip."""

from __future__ import annotations

import json

import pytest

from assistant.rules.errors import RuleError
from assistant.rules.game import apply
from assistant.rules.instructions import plan, reaction_attacks, reaction_question
from assistant.rules.scenario import AttackSpec, DraftOrder, PreyCard, PreySpec, TimedEvent
from assistant.rules.state import GameState
from tests.ai.tables import HALBERD, SLING, answer, enemy, hero, run, table, texts


def roundtrip(state: GameState) -> None:
    assert GameState.from_dict(json.loads(json.dumps(state.to_dict()))) == state


# --- Enemy Draft -------------------------------------------------------------------------------


def drafted() -> GameState:
    order = DraftOrder("Rome", "troop", squares=3, place="the east end of the bridge", exclude=("sacred_guard",))
    return table(
        "renaissance",
        (hero("sofia"),),
        (enemy("swiss_guard", models=1),),
        (("sofia", 1, "hero"), ("swiss_guard", 8, "enemy")),
        events=(TimedEvent("bells", 1, 1, "The bells ring", draft=order),),
        reserves=(enemy("swiss_keeper", models=2), enemy("sacred_guard", models=3), enemy("stradiot", faction="Venice")),
    )


def test_an_event_with_a_draft_says_which_deck_to_draw_from() -> None:
    state = drafted()
    assert state.due == ("bells",)
    steps = texts(plan(state))
    assert steps[0] == "Event Bells: The bells ring"
    assert steps[1].startswith("Enemy Draft: shuffle the Rome troop Draft Cards (Swiss Guard and Swiss Keeper) and draw one.")
    assert "each of the 3 squares at the east end of the bridge" in steps[1]
    assert steps[1].endswith("A new activation token goes in sector II, unless the card drawn is Swiss Guard, already on the Horologium.")


def test_a_draft_of_enemies_all_on_the_horologium_places_no_new_token() -> None:
    """Renaissance "Enemy Draft" 4: a token only "if the Horologium does not already include" the Enemy's."""
    state = table(
        "renaissance",
        (hero("sofia"),),
        (enemy("swiss_guard", models=2),),
        (("sofia", 1, "hero"), ("swiss_guard", 8, "enemy")),
        events=(TimedEvent("bells", 1, 1, "The bells ring", draft=DraftOrder("Rome", "troop", squares=1)),),
    )
    state = apply(state, {"type": "damage", "group": "swiss_guard", "model": 1, "wounds": 3})
    steps = texts(plan(state))
    assert "Place a model on the square; " in steps[1]
    assert steps[1].endswith("Swiss Guard already has an activation token: no new one.")
    state = run(state, {"type": "resolve_event", "event": "bells"}, {"type": "draft", "squares": 1, "cards": ["swiss_guard"]})
    assert state.group("swiss_guard").standing == (2, 3) and [t.sector for t in state.tokens if t.id == "swiss_guard"] == [8]


def test_a_draft_places_models_card_after_card_and_a_new_token_after_the_active_sector() -> None:
    state = drafted()
    with pytest.raises(RuleError, match=r"^cards\[0\]"):
        apply(state, {"type": "draft", "event": "bells", "cards": ["stradiot"]})  # not in this deck
    with pytest.raises(RuleError, match="^cards"):
        apply(state, {"type": "draft", "event": "bells", "cards": ["swiss_keeper"]})  # 2 models for 3 squares
    # the Swiss Keepers fill 2 squares, the Swiss Guard card has no model left (its one is on the table)
    with pytest.raises(RuleError, match="^cards"):
        apply(state, {"type": "draft", "event": "bells", "cards": ["swiss_keeper", "swiss_guard"]})
    state = run(state, {"type": "resolve_event", "event": "bells"})
    assert state.active == "sofia"
    state = apply(state, {"type": "draft", "squares": 2, "cards": ["swiss_keeper"]})
    assert state.group("swiss_keeper").standing == (1, 2)
    assert state.token("swiss_keeper").sector == 2  # the sector after the active one (I)
    assert state.token("swiss_guard").sector == 8  # an enemy already on the Horologium keeps its token
    assert state.notes[-1] == "Enemy Draft: Swiss Keeper: 2 models; the Swiss Keeper activation token goes in sector II"
    roundtrip(state)


def test_a_drafted_enemy_already_on_the_table_adds_models_to_its_group() -> None:
    state = drafted()
    state = run(state, {"type": "resolve_event", "event": "bells"})
    with pytest.raises(RuleError, match="^cards"):
        apply(state, {"type": "draft", "squares": 1, "cards": ["swiss_guard"]})  # its only model is on the table
    state = apply(state, {"type": "damage", "group": "swiss_guard", "model": 1, "wounds": 3})  # defeated: back in the box
    assert not state.has_token("swiss_guard")
    state = apply(state, {"type": "draft", "squares": 1, "cards": ["swiss_guard"], "sector": 6})
    assert state.group("swiss_guard").standing == (2,) and state.token("swiss_guard").sector == 6
    assert state.loot == ("Elementum",)  # the defeated one added its Loot


# --- Prey ----------------------------------------------------------------------------------------

CLAW = AttackSpec("Claw", "physical", ap=0, range_min=1, range_max=1, threshold=6, defended_with="physique", hits=3)


def hunt(deck: tuple[PreyCard, ...]) -> GameState:
    return table(
        "renaissance",
        (hero("sofia", threat=1), hero("valerio", threat=4)),
        (enemy("bear", swiftness=5, control_area=4, priority=("threat", "standard"), attacks=(CLAW,), health=2),),
        (("bear", 1, "enemy"), ("sofia", 3, "hero"), ("valerio", 4, "hero")),
        prey=PreySpec("bear", deck),
    )


def test_the_prey_draws_its_action_cards_in_order_and_moves_by_their_ap() -> None:
    deck = (PreyCard(1, 3, "Charge the Target Hero and maul them.", attack=CLAW),
            PreyCard(2, 2, "Roar.", target="none"))  # fmt: skip
    state = hunt(deck)
    assert state.active == "bear" and state.prey_drawn == 1
    assert state.token("bear").sector == 4  # moved by the card's 3 AP, not its Swiftness rule
    state = answer(state, ("in_area", "yes"))  # Valerio, highest Threat Level: the Bear's priority
    p = plan(state)
    assert texts(p)[1] == "Bear draws Action Card 1 (3 AP): Charge the Target Hero and maul them. (1 card left)"
    assert p.attack is not None and p.attack.hero == "valerio" and p.attack.hits == 3 and p.attack.threshold == 6
    state = apply(state, p.attack.event([6, 6, 2]))
    assert plan(state).done and state.hero("valerio").wounds == 1
    roundtrip(state)


def test_a_card_with_its_own_target_ignores_the_control_area() -> None:
    state = hunt((PreyCard(1, 4, "Leap on the farthest Hero.", target="farthest", attack=CLAW),))
    question = plan(state).question
    assert question is not None and question.kind == "farthest" and set(question.about) == {"sofia", "valerio"}
    assert question.why == "the card's target (the farthest), ignoring the Control Area"
    state = answer(state, ("farthest", ["sofia"]))
    assert plan(state).attack is not None and plan(state).attack.hero == "sofia"  # type: ignore[union-attr]
    assert "Target Hero: Sofia, the farthest, as the card says." in [s.text for s in plan(state).steps]  # not "farthest as"


def test_the_card_s_own_attack_is_the_one_the_defence_roll_resolves() -> None:
    gore = AttackSpec("Gore", "physical", ap=0, range_min=1, range_max=1, threshold=4, defended_with="physique", hits=2)
    deck = (PreyCard(1, 2, "Gore the farthest Hero.", target="farthest", attack=gore), PreyCard(2, 9, "Sleep.", target="none"))
    state = answer(hunt(deck), ("farthest", ["sofia"]))
    order = plan(state).attack
    assert order is not None and order.attack == "Gore" and order.hits == 2 and order.threshold == 4
    state = apply(state, order.event([4, 1]))  # one success cancels one of the two hits
    assert state.hero("sofia").wounds == 1
    with pytest.raises(RuleError, match="no attack 'Gore'"):  # the card's attack is the Prey's only while it holds the card
        apply(apply(state, {"type": "end_activation"}), {"type": "enemy_attack", "group": "bear", "attack": "Gore", "hero": "sofia", "dice": [1]})


def test_the_hunt_ends_when_the_prey_has_no_card_left_or_is_defeated() -> None:
    state = hunt((PreyCard(1, 1, "Sniff.", target="none"),))
    state = run(state, {"type": "end_activation"})  # the Bear: I -> II, where it activates again with no card left
    assert state.over == "defeat: the Prey has no Action Card left"
    won = hunt((PreyCard(1, 1, "Sniff.", target="none"), PreyCard(2, 9, "Sleep.", target="none")))
    won = run(won, {"type": "end_activation"}, {"type": "end_activation"})  # card 2: 9 AP, the Bear goes to XI
    assert won.active == "sofia"
    won = apply(won, {"type": "hero_attack", "group": "bear", "ap": 3, "dice": [8, 8, 8]})
    assert won.over == "victory: the Prey is defeated"


# --- Stealth ---------------------------------------------------------------------------------------


def stealthy(skills: tuple[str, ...] = ()) -> GameState:
    return table(
        "renaissance",
        (hero("sofia", threat=3, swiftness=3),),
        (enemy("guards", swiftness=4, models=1, control_area=5, skills=skills), enemy("slingers", attacks=(SLING,))),
        (("sofia", 1, "hero"), ("guards", 3, "enemy"), ("slingers", 9, "enemy")),
        stealth=(3, 5, 6),
    )


def test_a_failed_stealth_roll_moves_the_token_up_to_the_alarm() -> None:
    state = stealthy()
    assert "one die must show 3 or more" in texts(plan(state))[0]
    state = apply(state, {"type": "stealth_roll", "dice": [3]})
    assert state.stealth == 0
    with pytest.raises(RuleError, match="^dice"):
        apply(state, {"type": "stealth_roll", "ap": 1, "dice": [1]})
    state = run(state, {"type": "stealth_roll", "dice": [2]}, {"type": "stealth_roll", "ap": 1, "dice": [4, 4]})
    assert state.stealth == 2 and state.turn is not None and state.turn.ap_left == 2
    state = apply(state, {"type": "stealth_roll", "dice": [5]})
    assert state.stealth == 3 and any("Alarm" in n for n in state.notes)
    with pytest.raises(RuleError):
        apply(state, {"type": "stealth_roll", "dice": [8]})


def test_under_stealth_heroes_get_a_success_and_an_attacked_enemy_raises_the_alarm_when_it_activates() -> None:
    state = stealthy()
    state = apply(state, {"type": "hero_attack", "group": "guards", "ap": 3, "dice": [5, 2, 2]})
    assert state.group("guards").models[0].wounds == 2  # one success rolled, one given by the Stealth
    state = apply(state, {"type": "end_activation"})
    assert state.active == "guards" and state.stealth == 3  # alarm: the Stealth is over
    question = plan(state).question
    assert question is not None and question.kind == "in_area" and question.squares == 5  # the Control Area is back


def test_an_enemy_adjacent_to_a_hero_under_stealth_raises_the_alarm() -> None:
    state = run(stealthy(), {"type": "end_activation"})
    question = plan(state).question
    assert question is not None and question.kind == "adjacent"
    state = answer(state, ("adjacent", "no"))
    assert "Guards 1 has no goal (Stealth: no Hero within 1 square): it stays where it is." in texts(plan(state))
    assert plan(state).done
    alarmed = answer(run(stealthy(), {"type": "end_activation"}), ("adjacent", "yes"))
    assert alarmed.stealth == 3
    assert plan(alarmed).question is not None and plan(alarmed).question.kind == "in_area"  # type: ignore[union-attr]


def test_patrol_under_stealth() -> None:
    state = answer(run(stealthy(("Patrol",)), {"type": "end_activation"}), ("adjacent", "no"))
    steps = texts(plan(state))
    assert steps[-1].startswith("Patrol: roll a Swiftness die; Guards 1 moves 4 squares")
    state = answer(state, ("adjacent", "yes"))
    assert state.stealth == 3 and plan(state).done


def test_patrol_in_a_mission_with_no_stealth_track() -> None:
    """Renaissance "Patrol": the model patrols instead of acting; no track, no alarm to ask about (docs/ai.md 8)."""
    state = table(
        "renaissance",
        (hero("sofia", threat=3),),
        (enemy("guards", swiftness=4, control_area=5, skills=("Patrol",)),),
        (("guards", 1, "enemy"), ("sofia", 3, "hero")),
    )
    p = plan(state)
    assert p.question is None and p.attack is None and p.done
    assert [s.kind for s in p.steps] == ["activate", "patrol", "done"]
    assert p.steps[1].squares == 4 and p.steps[1].toward == "patrol"


def test_patrol_ends_with_the_alarm() -> None:
    state = answer(run(stealthy(("Patrol",)), {"type": "end_activation"}), ("adjacent", "yes"))
    assert state.stealth == 3
    question = plan(state).question
    assert question is not None and question.kind == "in_area"  # after the alarm the model follows the AI


def test_an_attacked_enemy_defeated_under_stealth_raises_no_alarm() -> None:
    """"Stealth Token": the alarm is the attacked Enemy activating; a defeated one is off the Battlefield."""
    def two_guards() -> GameState:
        return table(
            "renaissance",
            (hero("sofia", threat=3, swiftness=3),),
            (enemy("guards", swiftness=4, models=2, control_area=5, health=2), enemy("slingers", attacks=(SLING,))),
            (("sofia", 1, "hero"), ("guards", 3, "enemy"), ("slingers", 9, "enemy")),
            stealth=(3, 5, 6),
        )

    state = apply(two_guards(), {"type": "hero_attack", "group": "guards", "model": 1, "ap": 3, "dice": [5, 2, 2]})
    assert state.group("guards").standing == (2,) and state.attacked == ("guards/1",)
    state = apply(state, {"type": "end_activation"})
    assert state.active == "guards" and state.stealth == 0
    question = plan(state).question
    assert question is not None and question.kind == "adjacent" and question.model == "guards/2"
    # the one attacked still stands: its group's activation raises the alarm
    wounded = apply(two_guards(), {"type": "hero_attack", "group": "guards", "model": 2, "ap": 3, "dice": [2, 2, 2]})
    assert wounded.group("guards").standing == (1, 2) and wounded.attacked == ("guards/2",)
    wounded = apply(wounded, {"type": "end_activation"})
    assert wounded.active == "guards" and wounded.stealth == 3


# --- reactions ---------------------------------------------------------------------------------


def test_renaissance_reaction_attacks_when_a_hero_leaves_adjacent_enemies() -> None:
    state = table(
        "renaissance",
        (hero("sofia", threat=3, health=2),),
        (enemy("guards", models=2), enemy("slingers", attacks=(SLING,))),
        (("sofia", 1, "hero"), ("guards", 5, "enemy"), ("slingers", 9, "enemy")),
    )
    question = reaction_question(state, "sofia")
    assert question.options == ("guards/1", "guards/2", "none")  # the Slingers have no Range 1 attack
    # "a Movement Action that will result in the Hero no longer being adjacent to that Enemy": staying beside is no trigger
    assert question.text.endswith("Nobody if the Move keeps Sofia beside every one.")
    steps = reaction_attacks(state, "sofia", ["guards/1", "guards/2"])
    orders = [s.attack for s in steps if s.attack is not None]
    assert [(o.model, o.hits, o.reaction) for o in orders] == [(1, 2, True), (2, 2, True)]
    assert steps[0].text.startswith("Reaction Attack (no AP): Guards 1 attacks Sofia with Halberd: 2 hits.")
    state = apply(state, orders[0].event([1, 1, 1]))
    assert state.hero("sofia").ko and state.active != "sofia"  # KO'd by a Reaction Attack: the activation ends


def test_first_edition_reaction_when_a_hero_overtakes_an_enemy_token() -> None:
    state = table(
        "classic",
        (hero("scum", threat=6, swiftness=6),),
        (enemy("guards", swiftness=4, models=2, control_area=3),),
        (("scum", 1, "hero"), ("guards", 2, "enemy")),
    )
    state = apply(state, {"type": "spend_ap", "ap": 2, "action": "move"})
    assert state.reactions == ("guards",)
    state = answer(state, ("in_area", "no"), ("in_area", "yes"))  # only Guards 2 has the Scum in its Ca
    assert state.reacted == ("guards/2",)
    state = answer(state, ("reach", 0))  # its goal takes "in the Ca" from the reaction's answer
    p = plan(state)
    assert p.attack is not None and p.attack.model == 2 and p.token == "scum"
    assert "Guards 2 reacts: it activates now, then places a reaction token." in texts(p)
    state = run(state, p.attack.event([8, 8, 8]), {"type": "end_activation"})
    assert state.active == "guards"
    question = plan(state).question
    assert question is not None and question.model == "guards/1"
    assert "Guards 2 reacted earlier: it spends all its AP to discard its reaction token." not in texts(plan(state))
    state = answer(state, ("in_area", "yes"), ("reach", "more"))
    assert "Guards 2 reacted earlier: it spends all its AP to discard its reaction token." in texts(plan(state))
    state = apply(state, {"type": "end_activation"})
    assert state.reacted == ()
    roundtrip(state)


def test_a_model_holding_a_reaction_token_does_not_react_again() -> None:
    """First edition "Reaction" and docs/ai.md choice 17: it reacts again only once it has discarded its token."""
    state = table(
        "classic",
        (hero("scum", threat=6, swiftness=6), hero("novice", threat=7, swiftness=5)),
        (enemy("guards", swiftness=4, models=1, control_area=3),),
        (("scum", 1, "hero"), ("novice", 1, "hero"), ("guards", 2, "enemy")),
    )
    state = apply(state, {"type": "spend_ap", "ap": 2, "action": "move"})  # the Scum overtakes the Guards
    state = answer(state, ("in_area", "yes"), ("in_area", "no"), ("reach", "more"))
    assert state.reacted == ("guards/1",)
    state = run(state, {"type": "end_activation"})
    assert state.active == "novice"
    state = apply(state, {"type": "spend_ap", "ap": 2, "action": "move"})  # the Novice overtakes them too
    assert state.reactions == ("guards",)
    p = plan(state)
    assert p.question is None and p.attack is None
    assert texts(p) == ["Guards 1 holds a reaction token: it does not react again until it discards it."]


def test_a_reacting_model_that_ko_s_its_goal_goes_on_with_the_ap_left() -> None:
    """First edition "Reaction" and docs/ai.md choices 13 and 22: the plan replays the reaction's own attack
    (its goal stays the one it attacked) and, the goal KO, chooses again with the AP left."""
    state = table(
        "classic",
        (hero("scum", threat=6, swiftness=6), hero("novice", threat=8, swiftness=5, health=1)),
        (enemy("guards", swiftness=7, models=1, control_area=3),),
        (("scum", 1, "hero"), ("novice", 1, "hero"), ("guards", 2, "enemy")),
    )
    state = apply(state, {"type": "spend_ap", "ap": 2, "action": "move"})  # the Scum overtakes the Guards
    state = answer(state, ("in_area", "yes"), ("in_area", "yes"), ("reach", 0))
    p = plan(state)
    assert p.attack is not None and p.attack.hero == "novice"
    state = apply(state, p.attack.event([1]))
    assert state.hero("novice").ko and state.active == "scum"
    steps = texts(plan(state))
    # the Guards did not move and nobody else did: the Scum is still in their Ca, as the table said (issue 51)
    assert steps[1:] == ["Guards 1 goes for Novice (TV 8): in the Control Area; the highest TV.", "Halberd on Novice: 2 wounds; Novice is out of action.",
                         "Guards 1 goes for Scum (TV 6): in the Control Area; the highest TV."]  # fmt: skip
    question = plan(state).question
    assert question is not None and question.key == "react:r2:guards/1:reach:scum:Halberd"
    assert question.options == ("0", "1", "2", "3", "4", "more")  # 7 AP less the Halberd's 3
    state = answer(state, ("reach", 0))
    p = plan(state)
    assert p.attack is not None and p.attack.hero == "scum"
    assert texts(p)[3] == "Guards 1 goes for Scum (TV 6): in the Control Area; the highest TV."


def test_a_reacting_model_that_puts_the_active_hero_out_of_action_finishes_its_activation() -> None:
    """First edition "Reaction" (the models "are activated in response") and docs/ai.md choice 13: the Hero's
    activation waits for the reacting model's AP left; then the table ends it (no forced Wait, no Injury)."""
    state = table(
        "classic",
        (hero("scum", threat=8, swiftness=6, health=1), hero("novice", threat=7, swiftness=5)),
        (enemy("guards", swiftness=7, models=1, control_area=3),),
        (("scum", 1, "hero"), ("novice", 1, "hero"), ("guards", 2, "enemy")),
    )
    state = apply(state, {"type": "spend_ap", "ap": 2, "action": "move"})  # the Scum overtakes the Guards
    state = answer(state, ("in_area", "yes"), ("reach", 0))
    p = plan(state)
    assert p.attack is not None and p.attack.hero == "scum"
    state = apply(state, p.attack.event([1]))
    assert state.hero("scum").ko and state.active == "scum" and state.hero("scum").threat == 6
    with pytest.raises(RuleError, match="^hero: Scum is out of action: only the end of the activation is left"):
        apply(state, {"type": "spend_ap", "ap": 1})
    state = answer(state, ("in_area", "yes"), ("reach", 1))
    p = plan(state)
    assert p.attack is not None and p.attack.hero == "novice"  # 4 AP left: one square, then the Halberd
    state = apply(state, p.attack.event([6, 6, 6]))
    p = plan(state)
    assert p.question is None and p.attack is None
    assert texts(p)[-1] == "Scum is out of action: end the activation."
    state = apply(state, {"type": "end_activation"})
    assert state.active == "novice" and state.reacted == ("guards/1",) and state.token("scum").ko
    assert "Scum is out of action: the activation ends" in state.notes


def test_a_reacting_model_is_not_asked_the_same_control_area_fact_twice() -> None:
    """First edition "Reaction": "is the Hero in the Ca" is asked once; its goal asks only about the other Heroes."""
    state = table(
        "classic",
        (hero("scum", threat=6, swiftness=6), hero("novice", threat=7)),
        (enemy("guards", swiftness=4, control_area=3),),
        (("scum", 1, "hero"), ("guards", 2, "enemy"), ("novice", 5, "hero")),
    )
    state = apply(state, {"type": "spend_ap", "ap": 2, "action": "move"})
    asked = plan(state).question
    assert asked is not None and asked.key == "react:guards/1:in_area:scum"
    state = apply(state, {"type": "ai_answer", "question": asked.key, "answer": "yes"})
    assert state.notes[-1] == f"{asked.text} Yes"  # the answer as the button said it (the note said "yes")
    # the goal asks about the Novice (TV 7, first on the priority), never again about the Scum
    asked = plan(state).question
    assert asked is not None and asked.key == "react:guards/1:in_area:novice:3"
    state = apply(state, {"type": "ai_answer", "question": asked.key, "answer": "no"})
    asked = plan(state).question
    assert asked is not None and asked.kind == "reach" and asked.about == ("scum",)
    with pytest.raises(RuleError, match="^question"):  # the reused fact is not asked, so not answered either
        apply(state, {"type": "ai_answer", "question": "react:guards/1:in_area:scum:3", "answer": "no"})
