"""The game as a fold of events: the Horologium running on, attacks, KO, events, the end."""

from __future__ import annotations

import re

import json
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.rules.errors import RuleError
from assistant.rules.game import apply, new_game
from assistant.rules.horologium import Clock
from assistant.rules.instructions import plan, reaction_question
from assistant.rules.scenario import EndTime, TimedEvent
from assistant.rules.state import GameState
from tests.rules.scenarios import SOULFIRE, group, hero, skirmish


def table(edition: str = "renaissance", **changes: Any) -> GameState:
    options: dict[str, Any] = dict(
        edition=edition,
        heroes=(hero("valerio", 5), hero("sofia", 4), hero("rebecca", 3, health=4)),
        enemies=(group("guards", 4, models=2, health=3), group("gipsy", 6, models=1, health=4, attack=SOULFIRE)),
        placements=(("valerio", 12, "hero"), ("sofia", 1, "hero"), ("rebecca", 2, "hero"),
                    ("guards", 5, "enemy"), ("gipsy", 9, "enemy")),
        hour=1,
        minute=11,
    )
    options.update(changes)
    return new_game(skirmish(**options))


def run(state: GameState, *events: dict[str, Any]) -> GameState:
    for event in events:
        state = apply(state, event)
    return state


def sectors(state: GameState) -> dict[str, int]:
    return {t.id: t.sector for t in state.tokens}


def test_the_hand_goes_to_the_first_token_and_it_activates() -> None:
    state = table()
    assert state.clock == Clock(2, 12)  # from XI to XII: the hour hand moves
    assert state.active == "valerio"
    assert state.turn is not None and state.turn.ap_left == 5


def test_valerio_must_wait_to_reach_the_guards_token() -> None:
    # Renaissance 2e example: Valerio in XII, Enemy tokens in V and IX; he moves 3 squares and
    # must Wait with his 2 remaining AP to reach V.
    state = run(table(), {"type": "spend_ap", "ap": 3, "action": "move"}, {"type": "end_activation"})
    assert sectors(state)["valerio"] == 5
    assert any("Wait 2" in note for note in state.notes)
    assert state.active == "sofia"  # the hand moved on to I


@pytest.mark.parametrize(("edition", "sector", "said"), [("classic", 7, "Wait 3"), ("renaissance", 4, "ends the activation")])
def test_a_single_enemy_token_forces_the_wait_in_the_first_edition_only(edition: str, sector: int, said: str) -> None:
    # The Apprentice (Ra 5) in III and one Enemy token, in VII: he moves 1 and ends the activation.
    # First edition "Activation": "In any case" he spends AP until that sector is reached (3 AP);
    # Renaissance 2e: the rule is ignored with a single Enemy token, so he stays in IV.
    state = new_game(skirmish(edition=edition, heroes=(hero("apprentice", 5),), enemies=(group("crossbow", 4, models=1),),
                              placements=(("apprentice", 3, "hero"), ("crossbow", 7, "enemy")), hour=1, minute=2))  # fmt: skip
    assert state.active == "apprentice"
    state = run(state, {"type": "spend_ap", "ap": 1, "action": "move"}, {"type": "end_activation"})
    assert sectors(state)["apprentice"] == sector
    assert any(said in note for note in state.notes)


def test_enemies_move_their_token_by_swiftness_when_they_activate() -> None:
    state = run(
        table(),
        {"type": "spend_ap", "ap": 5},
        {"type": "end_activation"},
        {"type": "spend_ap", "ap": 4},
        {"type": "end_activation"},
        {"type": "spend_ap", "ap": 3},
        {"type": "end_activation"},
    )
    # sector V holds valerio (5), guards (4) and sofia (4): Valerio, then the guards (enemies first on a tie)
    assert state.clock.minute == 5
    assert state.active == "valerio"
    assert state.queue == ("valerio", "guards", "sofia", "rebecca")
    state = run(state, {"type": "spend_ap", "ap": 1}, {"type": "end_activation"})
    assert state.active == "guards"
    assert sectors(state)["guards"] == 9  # moved by its Swiftness 4 as it activated
    state = run(state, {"type": "end_activation", "skip": True})
    assert state.active == "sofia"


def test_an_enemy_activation_is_not_ended_while_the_ai_still_asks_unless_skipped_on_purpose() -> None:
    """One mis-tap must not skip an Enemy's turn: with the AI's question open, end_activation is refused, saying
    the question; `"skip": true` ends it all the same (a table that knows better)."""
    state = run(table(), {"type": "spend_ap", "ap": 5}, {"type": "end_activation"}, {"type": "spend_ap", "ap": 4},
                {"type": "end_activation"}, {"type": "spend_ap", "ap": 3}, {"type": "end_activation"},
                {"type": "spend_ap", "ap": 1}, {"type": "end_activation"})  # fmt: skip
    assert state.active == "guards"
    asked = plan(state).question
    assert asked is not None
    with pytest.raises(RuleError, match=f"the AI still asks: {re.escape(asked.text)} Answer it first"):
        apply(state, {"type": "end_activation"})
    assert apply(state, {"type": "end_activation", "skip": True}).active == "sofia"
    answered = apply(state, {"type": "ai_answer", "question": asked.key, "answer": asked.options[0]})
    assert answered.active == "guards"  # an answer moves the plan on; the activation is still the guards'


def test_a_tie_among_heroes_waits_for_the_players() -> None:
    state = table(
        heroes=(hero("valerio", 4), hero("sofia", 4)),
        placements=(("valerio", 3, "hero"), ("sofia", 3, "hero"), ("guards", 8, "enemy"), ("gipsy", 9, "enemy")),
    )
    assert state.ties == (("valerio", "sofia"),)
    assert state.active is None
    with pytest.raises(RuleError, match="ids"):
        apply(state, {"type": "order", "ids": ["valerio", "guards"]})
    state = apply(state, {"type": "order", "ids": ["sofia", "valerio"]})
    assert state.active == "sofia"
    assert state.queue == ("sofia", "valerio")
    assert state.notes[0] == "Order: Sofia, Valerio"  # names, as the table says them (it said "sofia, valerio")


def test_timed_events_and_event_tokens_resolve_before_anyone_acts() -> None:
    state = table(
        placements=(("valerio", 3, "hero"), ("sofia", 1, "hero"), ("rebecca", 2, "hero"), ("bell", 3, "event"),
                    ("guards", 5, "enemy"), ("gipsy", 9, "enemy")),
        events=(TimedEvent("reinforcements", 2, 2, "The Swiss Guards arrive"),),
    )
    # first stop I (hour 2): Sofia
    state = run(state, {"type": "spend_ap", "ap": 4}, {"type": "end_activation"})
    # II of hour 2: the timed event falls due before Rebecca acts
    assert state.clock == Clock(2, 2)
    assert state.due == ("reinforcements",)
    assert state.active is None
    state = apply(state, {"type": "resolve_event", "event": "reinforcements"})
    assert state.active == "rebecca"
    state = run(state, {"type": "spend_ap", "ap": 3}, {"type": "end_activation"})
    # III: the event token comes before Valerio
    assert state.queue[0] == "bell" and state.active is None
    with pytest.raises(RuleError, match="event"):
        apply(state, {"type": "resolve_event", "event": "gong"})
    state = apply(state, {"type": "resolve_event", "event": "bell"})
    assert not state.has_token("bell")
    assert state.active == "valerio"


def test_the_hero_attack_wounds_defeats_and_raises_the_perilium() -> None:
    state = run(table(), {"type": "hero_attack", "group": "guards", "model": 1, "ap": 3, "dice": [6, 6, 5, 2]})
    # 3 successes vs defence 5: 3 wounds + Critical = 4 >= health 3: defeated; Threat +3
    guards = state.group("guards")
    assert guards.models[0].defeated and guards.standing == (2,)
    assert state.hero("valerio").threat == 3
    assert state.loot == ("elementum",)
    assert state.turn is not None and state.turn.ap_left == 2
    assert sectors(state)["valerio"] == 3
    state = apply(state, {"type": "hero_attack", "group": "guards", "dice": [5, 2, 2]})
    assert state.group("guards").models[1].wounds == 1
    assert state.notes[-1] == "Valerio attacks Guards 2: 1 success, 1 wound; Threat +1"  # one of each, in the singular
    state = apply(state, {"type": "hero_attack", "group": "guards", "dice": [5, 5]})
    assert state.group("guards").standing == ()
    assert not state.has_token("guards")  # the last of their type: the token leaves the Horologium
    assert state.hero("valerio").threat == 3 + 1 + 2


def test_an_astro_effect_before_the_attack_symbol_wounds_on_a_failed_spell() -> None:
    """Renaissance "Astro Symbols": an Effect before the Attack symbol applies whatever the successes."""
    event = {"type": "hero_attack", "group": "guards", "kind": "psychic", "dice": [7, 4, 1, 1], "required": 2, "effect_wounds": 1}
    assert apply(table(), {**event, "astro_wounds": {"moon": 1}}).group("guards").models[0].wounds == 0
    state = apply(table(), {**event, "astro_before": {"moon": 1}})
    assert state.group("guards").models[0].wounds == 2 and state.hero("valerio").threat == 1
    with pytest.raises(RuleError, match=r"^astro_before\.comet: unknown field"):
        apply(table(), {**event, "astro_before": {"comet": 1}})


def test_an_astro_effect_needing_a_combination_of_symbols_applies_once_per_complete_set() -> None:
    """Renaissance "Astro Symbols": "a Sun and a Star, or two Moons": the roll must hold them all; "for each
    Astro Symbol(s)": once per complete set. 8, 6 (two Suns), 5 (a Star), 1, 1, 1 (three Moons)."""
    event = {"type": "hero_attack", "group": "guards", "kind": "psychic", "dice": [8, 6, 5, 1, 1, 1], "required": 1, "effect_wounds": 0}
    assert apply(table(), {**event, "astro_wounds": {"sun+star": 1}}).group("guards").models[0].wounds == 1  # one Star: one set
    assert apply(table(), {**event, "astro_wounds": {"moon+moon": 1}}).group("guards").models[0].wounds == 1  # one pair of three
    assert apply(table(), {**event, "astro_wounds": {"star+sun": 1, "sun": 1}}).group("guards").models[0].wounds == 3  # a Sun in both
    assert apply(table(), {**event, "astro_wounds": {"moon+star+star": 1}}).group("guards").models[0].wounds == 0  # one Star only
    with pytest.raises(RuleError, match=r"^astro_wounds\.sun\+comet: unknown field"):
        apply(table(), {**event, "astro_wounds": {"sun+comet": 1}})


@pytest.mark.parametrize(("edition", "sector", "words"), [
    ("renaissance", 4, "Rebecca discards 1 wound; Rebecca's token goes to sector IV"),  # one ahead of the active model's
    ("classic", 2, "Rebecca discards 1 wound"),  # first edition: "treated", the book moves no token
])  # fmt: skip
def test_a_healed_ko_hero_s_token_and_the_note_that_says_where(edition: str, sector: int, words: str) -> None:
    """Renaissance "KO Hero": "placed one Sector ahead of where the Active Model's Activation Token is"; the first
    edition's out of action hero, treated before their next activation, acts at their token as it stands."""
    state = run(table(edition), {"type": "damage", "hero": "rebecca", "wounds": 4})  # Rebecca's token in II
    assert state.notes == (f"Rebecca suffers 4 wounds; Rebecca is {'out of action' if edition == 'classic' else 'KO'}",)
    state = run(state, {"type": "spend_ap", "ap": 3}, {"type": "heal", "hero": "rebecca", "wounds": 1, "by": "sofia"})
    assert state.token("valerio").sector == 3 and state.token("rebecca").sector == sector
    assert state.notes == (words,) and not state.token("rebecca").ko


def test_a_defeated_enemy_s_loot_renaissance_and_loot_bag_first_edition() -> None:
    """Renaissance "Defeated Enemies": its Reagent Cards go to the Loot. First edition "Loot bag": a token is left where
    it fell, and a card is drawn only when a hero collects it: nothing is counted at the defeat."""
    attack = {"type": "hero_attack", "group": "gipsy", "ap": 3, "dice": [8, 8, 8, 8, 6, 6]}
    renaissance = run(table(), attack)
    classic = run(table("classic"), {**attack, "dice": [6, 6, 6, 6]})
    assert renaissance.loot == ("elementum",) and classic.loot == ()
    assert classic.notes[0].startswith("Valerio attacks Gipsy:") and classic.notes[1:] == (
        "Put a loot bag token where Gipsy fell", "Remove the Gipsy activation token: its last model is defeated")


def test_a_mission_that_ends_on_a_ko_leaves_nobody_active_and_says_so() -> None:
    """Renaissance "End of a Mission": it ends immediately. The third KO during the Gipsy's own activation left its
    turn and the queue in the state (the board's ring still lit its token), and no note said the mission ended."""
    state = table(placements=(("valerio", 3, "hero"), ("sofia", 3, "hero"), ("rebecca", 4, "hero"),
                              ("guards", 12, "enemy"), ("gipsy", 12, "enemy")))  # fmt: skip
    state = run(state, {"type": "damage", "hero": "sofia", "wounds": 5}, {"type": "damage", "hero": "rebecca", "wounds": 4})
    assert state.active in ("guards", "gipsy")
    attack = {"type": "enemy_attack", "group": state.active, "hero": "valerio", "dice": [1, 1, 1]}
    state = apply(state, {**attack, "hits": 5} if state.active == "guards" else {**attack, "effect_wounds": 5})
    assert state.over == "ko" and state.active is None and state.turn is None and state.queue == ()
    assert state.notes[-1] == "The mission ends: 3 Heroes KO" and state.notes[0].endswith("; Valerio is KO")
    assert [step.text for step in plan(state).steps] == [
        "The mission is over: 3 Heroes KO; read the paragraph the mission gives for it: victory or defeat."]
    state = apply(state, {"type": "end_mission", "result": "defeat"})  # "End of a Mission": the paragraph says which
    assert state.over == "defeat: heroes KO"
    assert [step.text for step in plan(state).steps] == ["The mission is over: defeat (3 Heroes KO)."]  # not "defeat: heroes KO"


def test_a_threat_event_beyond_the_dial_is_refused_and_the_dial_stops_at_its_top() -> None:
    """A Threat change of 10**26 (a knob or `session apply` gone wild) is refused; 98 and 5 more stop at 99."""
    with pytest.raises(RuleError, match="delta: must be at most 99"):
        run(table(), {"type": "threat", "hero": "valerio", "delta": 10**26})
    state = run(table(), {"type": "threat", "hero": "valerio", "delta": 98}, {"type": "threat", "hero": "valerio", "delta": 5})
    assert state.hero("valerio").threat == 99
    state = apply(state, {"type": "threat", "hero": "valerio", "delta": -1})
    assert state.hero("valerio").threat == 98


def test_ko_lowers_the_perilium_turns_the_token_and_costs_an_injury() -> None:
    state = run(table(), {"type": "threat", "hero": "rebecca", "delta": 3})
    state = apply(state, {"type": "enemy_attack", "group": "gipsy", "hero": "rebecca", "dice": [2, 3, 4]})
    # Soulfire: contrast 2 not reached -> 3 wounds; one more wound and Rebecca (health 4) is KO
    assert state.hero("rebecca").wounds == 3
    state = apply(state, {"type": "damage", "hero": "rebecca", "wounds": 1})
    rebecca = state.hero("rebecca")
    assert rebecca.ko and rebecca.threat == 1  # 3 - 2
    assert state.token("rebecca").ko
    with pytest.raises(RuleError, match="KO"):
        apply(state, {"type": "enemy_attack", "group": "guards", "hero": "rebecca", "dice": [1]})
    state = run(state, {"type": "spend_ap", "ap": 5}, {"type": "end_activation"})  # valerio
    state = run(state, {"type": "spend_ap", "ap": 4}, {"type": "end_activation"})  # sofia
    assert state.active == "rebecca"  # a KO Hero would activate: draws an Injury instead
    with pytest.raises(RuleError, match="Injury"):
        apply(state, {"type": "end_activation"})
    with pytest.raises(RuleError, match="only draw an Injury"):
        apply(state, {"type": "spend_ap", "ap": 1})
    state = apply(state, {"type": "injury", "card": "Broken arm"})
    assert state.hero("rebecca").injuries == ("Broken arm",)
    assert state.notes[0] == "Rebecca draws an Injury: Broken arm"  # ("draws the Injury Injury 1" for the screen's own)
    assert sectors(state)["rebecca"] == 2  # the KO token never leaves its sector
    assert state.active == "valerio"


def test_healing_a_ko_hero_places_the_token_one_sector_ahead_of_the_active_model() -> None:
    state = run(table(), {"type": "damage", "hero": "rebecca", "wounds": 4})
    assert state.hero("rebecca").ko
    state = apply(state, {"type": "heal", "hero": "rebecca", "wounds": 1, "by": "valerio"})
    assert not state.hero("rebecca").ko and state.hero("rebecca").wounds == 3
    assert state.token("rebecca").sector == 1 and not state.token("rebecca").ko  # Valerio is in XII
    assert state.hero("valerio").threat == 1  # letting a Friendly Model discard wounds


def test_a_ko_hero_healed_in_the_sector_of_the_hand_waits_for_their_token_there() -> None:
    """Renaissance "KO Hero": the healed Hero's token is "placed one Sector ahead of where the Active Model's
    Activation Token is"; "Horologium": the Models whose tokens are in the Sector become active. Sofia, KO in
    sector V beside the active Valerio, is healed there: she no longer activates in V, but when the hand
    reaches her token."""
    state = new_game(skirmish(
        heroes=(hero("valerio", 5), hero("sofia", 4, health=2)),
        enemies=(group("guards", 3, models=1), group("gipsy", 3, models=1)),
        placements=(("valerio", 5, "hero"), ("sofia", 5, "hero"), ("guards", 9, "enemy"), ("gipsy", 11, "enemy")),
        hour=1, minute=4))  # fmt: skip
    state = apply(state, {"type": "damage", "hero": "sofia", "wounds": 2})
    assert state.active == "valerio" and "sofia" in state.queue
    state = run(state, {"type": "spend_ap", "ap": 1, "action": "Healing skill"},
                {"type": "heal", "hero": "sofia", "wounds": 1, "by": "valerio"})  # fmt: skip
    assert sectors(state)["sofia"] == 7 and "sofia" not in state.queue  # one ahead of Valerio's token, now in VI
    state = run(state, {"type": "spend_ap", "ap": 4, "action": "move"}, {"type": "end_activation"})
    assert state.active == "sofia" and state.clock.minute == 7


def test_three_heroes_ko_end_the_mission() -> None:
    state = run(
        table(),
        {"type": "damage", "hero": "sofia", "wounds": 5},
        {"type": "damage", "hero": "rebecca", "wounds": 4},
    )
    assert state.over is None
    state = apply(state, {"type": "damage", "hero": "valerio", "wounds": 5})
    assert state.over == "ko"  # "End of a Mission": the condition's paragraph says victory or defeat
    with pytest.raises(RuleError, match="over"):
        apply(state, {"type": "end_activation"})


def test_the_mission_ends_when_the_hands_reach_its_time() -> None:
    state = table(end=EndTime(2, 3))
    state = run(state, {"type": "spend_ap", "ap": 5}, {"type": "end_activation"})  # valerio XII -> V
    state = run(state, {"type": "spend_ap", "ap": 4}, {"type": "end_activation"})  # sofia I -> V
    assert state.active == "rebecca" and state.clock == Clock(2, 2)
    state = run(state, {"type": "spend_ap", "ap": 3}, {"type": "end_activation"})
    assert state.over == "time"
    assert state.clock == Clock(2, 3)


def test_first_edition_out_of_action_heroes_leave_the_game_and_reactions_are_noted() -> None:
    state = table("classic")
    state = apply(state, {"type": "spend_ap", "ap": 5})  # XII -> V: passes nobody (guards in V)
    assert state.reactions == ()
    state = run(state, {"type": "end_activation"}, {"type": "spend_ap", "ap": 4})  # sofia I -> V
    state = run(state, {"type": "end_activation"}, {"type": "spend_ap", "ap": 3})  # rebecca II -> V
    state = apply(state, {"type": "end_activation"})
    assert state.clock.minute == 5 and state.active == "valerio"
    state = apply(state, {"type": "spend_ap", "ap": 5})  # V -> X: overtakes the guards (V) and the gipsy (IX)
    assert set(state.reactions) == {"guards", "gipsy"}
    state = apply(state, {"type": "damage", "hero": "sofia", "wounds": 5})
    assert state.hero("sofia").ko and state.hero("sofia").threat == 0
    with pytest.raises(RuleError, match="^type: a Reaction is still to be settled first: Is Valerio within"):
        apply(state, {"type": "end_activation"})  # first edition "Reaction": asked before the activation ends
    while (asked := plan(state).question) is not None:
        state = apply(state, {"type": "ai_answer", "question": asked.key, "answer": "no"})  # nobody reacts
    state = run(state, {"type": "end_activation"})
    # the guards act (enemy first on a Swiftness tie), then Sofia would: out of action, removed
    assert state.active == "guards"
    state = apply(state, {"type": "end_activation", "skip": True})
    assert state.hero("sofia").removed and not state.has_token("sofia")
    assert state.active == "rebecca"
    # "removed from the game": too late to treat her, and nothing more befalls her
    for late in ({"type": "heal", "hero": "sofia", "wounds": 1, "by": "rebecca"}, {"type": "damage", "hero": "sofia", "wounds": 1}):
        with pytest.raises(RuleError, match="^hero: Sofia is out of the game"):
            apply(state, late)


def test_a_ko_hero_heals_nobody_and_wounds_nobody() -> None:
    """Renaissance "KO Hero": "Equipment and Skills of a KO Hero produce no effect"; their Perilium stays."""
    state = run(table(), {"type": "damage", "hero": "valerio", "wounds": 2}, {"type": "threat", "hero": "rebecca", "delta": 4},
                {"type": "damage", "hero": "rebecca", "wounds": 4})  # fmt: skip
    assert state.hero("rebecca").ko and state.hero("rebecca").threat == 2
    for event in ({"type": "heal", "hero": "valerio", "wounds": 1, "by": "rebecca"},
                  {"type": "heal", "hero": "rebecca", "wounds": 1, "by": "rebecca"},
                  {"type": "damage", "group": "guards", "model": 1, "wounds": 1, "by": "rebecca"}):  # fmt: skip
        with pytest.raises(RuleError, match="^by: Rebecca is KO: such a Hero's Skills and Equipment produce no effect"):
            apply(state, event)
    healed = apply(state, {"type": "heal", "hero": "rebecca", "wounds": 1, "by": "sofia"})  # another's healing stands her up
    assert not healed.hero("rebecca").ko and healed.hero("sofia").threat == 1 and healed.hero("rebecca").threat == 2


def test_an_enemy_model_discards_wounds() -> None:
    """Renaissance "Wounds": discard from "among those placed next to the Model"; first edition "Healing" (Enemy Skill)."""
    state = apply(table(), {"type": "damage", "group": "guards", "model": 2, "wounds": 2, "by": "valerio"})
    assert state.group("guards").models[1].wounds == 2 and state.hero("valerio").threat == 1
    healed = apply(state, {"type": "heal", "group": "guards", "model": 2, "wounds": 5})
    assert healed.group("guards").models[1].wounds == 0  # as many as it has, no more
    assert healed.notes[-1] == "Guards 2 discards 2 wounds" and healed.heroes == state.heroes  # nobody's Threat moves
    assert apply(healed, {"type": "damage", "group": "guards", "model": 2, "wounds": 2}).group("guards").standing == (1, 2)
    with pytest.raises(RuleError, match="^group: Guards 1 has no wound to discard"):
        apply(state, {"type": "heal", "group": "guards", "model": 1, "wounds": 1})
    with pytest.raises(RuleError, match="^by: "):
        apply(state, {"type": "heal", "group": "guards", "model": 2, "wounds": 1, "by": "valerio"})


@pytest.mark.parametrize("event", [
    {"type": "enemy_attack", "group": "guards", "hero": "sofia", "dice": [6, 7]},
    {"type": "hero_attack", "group": "guards", "dice": [6, 7]},
])  # fmt: skip
def test_a_basic_class_rolls_d6_in_the_first_edition(event: dict[str, Any]) -> None:
    """First edition "Mastery": "D6 for basic classes and D8 for specialisation"; a 7 is not on the Hero's die."""
    state = table("classic", heroes=(replace(hero("sofia", 4), die=6), hero("valerio", 5)),
                  placements=(("sofia", 12, "hero"), ("valerio", 1, "hero"), ("guards", 5, "enemy"), ("gipsy", 9, "enemy")))  # fmt: skip
    assert state.active == "sofia"
    with pytest.raises(RuleError, match=r"^dice\[1\]: must be a die result from 1 to 6, not 7"):
        apply(state, event)
    assert apply(state, {**event, "dice": [6, 6]}).notes  # the same Test on d6 faces is taken


def test_a_refused_event_names_the_field_and_changes_nothing() -> None:
    state = table()
    before = state.to_dict()
    refused: list[tuple[dict[str, Any], str]] = [
        ({"type": "spend_ap", "ap": 9}, "ap"),
        ({"type": "spend_ap", "ap": 1, "hero": "sofia"}, "hero"),
        ({"type": "hero_attack", "group": "dragons", "dice": [5]}, "group"),
        ({"type": "hero_attack", "group": "guards", "dice": [5, 9]}, r"dice\[1\]"),
        ({"type": "spend_ap", "ap": 1, "apx": 2}, "apx"),
        ({"type": "fly"}, "type"),
        ({"type": "move_token", "token": "nobody", "sector": 3}, "token"),
    ]
    for event, field in refused:
        with pytest.raises(RuleError, match=field):
            apply(state, event)
    assert state.to_dict() == before


def test_the_state_survives_json_and_back() -> None:
    state = run(table(), {"type": "hero_attack", "group": "guards", "dice": [6, 6, 5, 2], "ap": 3})
    again = GameState.from_dict(json.loads(json.dumps(state.to_dict())))
    assert again == state
    assert apply(again, {"type": "end_activation"}) == apply(state, {"type": "end_activation"})
    broken = state.to_dict()
    broken["clock"]["minute"] = 13
    with pytest.raises(RuleError, match="minute"):
        GameState.from_dict(broken)


def legal_events(state: GameState, data: st.DataObject) -> dict[str, Any]:
    """One event the table could play now (drawn by hypothesis)."""
    if state.ties:
        group = list(state.ties[0])
        return {"type": "order", "ids": data.draw(st.permutations(group))}
    if state.due:
        return {"type": "resolve_event", "event": state.due[0]}
    turn = state.turn
    assert turn is not None
    if state.side_of(turn.token).value == "hero":
        waiting = plan(state)  # first edition "Reaction": the models reacting to the Hero first
        if waiting.question is not None:
            return {"type": "ai_answer", "question": waiting.question.key, "answer": data.draw(st.sampled_from(waiting.question.options))}
        if waiting.attack is not None:
            return waiting.attack.event(data.draw(st.lists(st.integers(1, 8), max_size=4)))
        if state.hero(turn.token).ko:
            return {"type": "injury", "card": f"injury-{len(state.hero(turn.token).injuries)}"}
        extra = data.draw(st.sampled_from(["", "", "", "status", "swiftness", "dash"]))  # issue 49's events now and then
        standing_heroes = [h.id for h in state.heroes if not h.ko and not h.removed]
        if extra == "status":
            return {"type": "status", "hero": data.draw(st.sampled_from(standing_heroes)),
                    "token": data.draw(st.sampled_from(["Burned", "Stunned", "Blinded"]))}  # fmt: skip
        if extra == "swiftness":
            return {"type": "swiftness", "hero": data.draw(st.sampled_from(standing_heroes)), "value": data.draw(st.integers(1, 8))}
        if extra == "dash" and state.edition.value == "renaissance" and turn.move is None:
            dasher = data.draw(st.sampled_from(standing_heroes))
            models = [m for m in reaction_question(state, dasher).options if m != "none"]  # those with a Range 1 attack
            return {"type": "declare_move", "movement": "dash", "hero": dasher,
                    "adjacent": data.draw(st.lists(st.sampled_from(models), unique=True, max_size=2)) if models else []}  # fmt: skip
        options = ["end"]
        if turn.ap_left:
            options += ["spend", "attack"]
        choice = data.draw(st.sampled_from(options))
        if choice == "spend":
            return {"type": "spend_ap", "ap": data.draw(st.integers(1, turn.ap_left))}
        standing = [g.id for g in state.groups if g.standing]
        if choice == "attack" and standing:
            return {
                "type": "hero_attack",
                "group": data.draw(st.sampled_from(standing)),
                "ap": data.draw(st.integers(0, turn.ap_left)),
                "dice": data.draw(st.lists(st.integers(1, 8), min_size=1, max_size=5)),
            }
        return {"type": "end_activation"}
    targets = [h.id for h in state.heroes if not h.ko and not h.removed]
    if targets and bool(data.draw(st.booleans())):
        return {
            "type": "enemy_attack",
            "group": turn.token,
            "hero": data.draw(st.sampled_from(targets)),
            "dice": data.draw(st.lists(st.integers(1, 8), max_size=4)),
        }
    asked = plan(state).question  # the AI's question answered, or skipped on purpose
    if asked is not None and data.draw(st.booleans()):
        return {"type": "ai_answer", "question": asked.key, "answer": data.draw(st.sampled_from(asked.options))}
    return {"type": "end_activation", "skip": asked is not None}


@settings(max_examples=60, deadline=None)
@given(data=st.data(), edition=st.sampled_from(["renaissance", "classic"]))
def test_any_game_keeps_its_tokens_and_its_time(data: st.DataObject, edition: str) -> None:
    state = table(edition, end=EndTime(6, 12))
    for _ in range(60):
        if state.over:
            break
        event = legal_events(state, data)
        after = apply(state, event)
        assert after.clock.absolute >= state.clock.absolute  # the hour never goes back
        lost = {t.id for t in state.tokens} - {t.id for t in after.tokens}
        for token_id in lost:  # a token leaves only with the last model of its group or a removed hero
            if state.side_of(token_id).value == "enemy":
                assert not after.group(token_id).standing
            else:
                assert after.hero(token_id).removed
        if after.turn is not None and after.turn.move is not None:  # a Reaction Attack is owed by a model still standing
            assert all(int(m.split("/")[1]) in after.group(m.split("/")[0]).standing for m in after.turn.move.owed)
        for h in after.heroes:
            assert len({t.lower() for t in h.statuses}) == len(h.statuses)  # "An Enemy cannot have two identical ..."
            assert not (h.ko and h.statuses)  # "A KO Hero discards all Status Tokens"
            assert h.threat >= 0
            assert 0 <= h.wounds <= after.scenario.hero(h.id).health
            if h.ko and after.has_token(h.id):
                assert after.token(h.id).ko
                if state.has_token(h.id) and state.hero(h.id).ko:
                    assert after.token(h.id).sector == state.token(h.id).sector  # KO tokens never move
        assert after.count == state.count + 1
        state = after
    assert GameState.from_dict(state.to_dict()) == state


def test_names_come_from_heroes_groups_and_draft_reserves() -> None:
    from dataclasses import replace as change

    state = table()
    scenario = change(state.scenario, reserves=(group("lancers", 5),))
    state = change(state, scenario=scenario)
    assert state.name("valerio") == "Valerio"
    assert state.name("gipsy") == "Gipsy"
    assert state.name("lancers") == "Lancers"  # a group that enters by an Enemy Draft
    assert state.name("bell") == "bell"  # an event token keeps its id


def test_a_token_placed_by_hand_is_named_and_its_sector_said_in_roman() -> None:
    state = apply(table(), {"type": "move_token", "token": "gipsy", "sector": 10})
    assert state.notes == ("Gipsy's token placed in sector X",)  # was "gipsy placed in sector 10"
    with pytest.raises(RuleError, match="^token: Valerio is active: spend AP to move it$"):
        apply(table(), {"type": "move_token", "token": "valerio", "sector": 3})
