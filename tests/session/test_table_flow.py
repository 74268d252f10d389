"""Issue 49: the game flow replayed through the session journal, as a table would play it, and the book's outcome.

Each test stores its events in a real journal (`StateFile`, the SQLite file `nova-table session apply` writes)
and reads the state and the AI's plan from the fold, as the table app does.
"""

from __future__ import annotations

from typing import Any

import pytest

from assistant.rules.horologium import Clock
from assistant.rules.instructions import plan
from assistant.rules.state import GameState
from assistant.session.errors import EventRefused
from assistant.session.games import StateFile
from tests.session.conftest import demo_text


def journal_of(games: StateFile, text: str, *events: dict[str, Any]) -> Any:
    games.new_game(text, "flow.toml")
    journal = games.journal()
    for event in events:
        journal.append(event)
    return journal


def state_of(journal: Any) -> GameState:
    state: GameState = journal.state
    return state


# --- 7. The end of a mission -------------------------------------------------------------------


def test_three_heroes_ko_end_the_mission_as_its_paragraph_says(games: StateFile) -> None:
    """"End of a Mission": "Each Victory or Defeat condition will instruct players to read a paragraph"; 3 KO is one."""
    ko = [{"type": "damage", "hero": hero, "wounds": health} for hero, health in (("sofia", 5), ("vincenzo", 5), ("eleonora", 4))]
    journal = journal_of(games, demo_text(), *ko)
    assert state_of(journal).over == "ko"
    assert plan(state_of(journal)).steps[0].text == (
        "The mission is over: 3 Heroes KO; read the paragraph the mission gives for it: victory or defeat.")
    journal.append({"type": "end_mission", "result": "victory"})  # a mission whose paragraph makes it a victory
    assert state_of(journal).over == "victory: heroes KO"
    with pytest.raises(EventRefused, match="over"):
        journal.append({"type": "end_mission", "result": "defeat"})


def test_an_end_hour_past_xii_is_reached_on_the_next_round(games: StateFile) -> None:
    """A start at hour 11 and an end at hour 1: two hours on, not refused."""
    text = demo_text().replace("hour = 1        # the hour hand", "hour = 11       # the hour hand")
    text = text.replace("[end]\nhour = 3", "[end]\nhour = 1").replace("hour = 2\nminute = 6", "hour = 12\nminute = 6")
    journal = journal_of(games, text)
    assert state_of(journal).clock == Clock(11, 1)  # Valerio's token, sector I of hour 11's round
    for _ in range(200):
        state = state_of(journal)
        if state.over is not None:
            break
        if state.due:
            journal.append({"type": "resolve_event", "event": state.due[0]})
        elif state.turn is None:
            journal.append({"type": "resolve_event", "event": state.queue[0]} if not state.ties else {"type": "order", "ids": list(state.ties[0])})
        elif state.side_of(state.turn.token).value == "hero" and state.turn.ap_left:
            journal.append({"type": "spend_ap", "ap": state.turn.ap_left, "action": "move"})
        else:
            journal.append({"type": "end_activation", "skip": True})
    assert state_of(journal).over == "time" and state_of(journal).clock == Clock(13, 12)  # hour I of the next round
    journal.append({"type": "end_mission", "result": "victory"})
    assert state_of(journal).over == "victory: time is up"


# --- small missions as scenario files ------------------------------------------------------------


def hero_toml(hid: str, threat: int = 0, swiftness: int = 5, health: int = 5, classic: bool = False) -> str:
    if classic:
        sheet = f'rapidity = {swiftness}\nmastery = "d6"\nphysical = 3\nmind = 3\nwounds = {health}\n'
    else:
        sheet = f"swiftness = {swiftness}\ndexterity = 3\nphysique = 3\nmind = 3\nhealth = {health}\n"
    return f'[[heroes]]\nid = "{hid}"\nname = "{hid.title()}"\nclass = "Squire"\n{sheet}threat = {threat}\n'


def enemy_toml(gid: str, attack: str, swiftness: int = 4, models: int = 1, skills: str = "", extra: str = "",
               faction: str = "Rome", rank: str = "troop", classic: bool = False, table: str = "enemies") -> str:  # fmt: skip
    if classic:
        card = f"rapidity = {swiftness}\ncontrol_area = 4\nphysical_defense = 5\nmental_defense = 5\nwounds = 3\n"
    else:
        card = f"swiftness = {swiftness}\ncontrol_area = 4\nphysical_defense = 5\npsychic_defense = 5\nhealth = 3\n"
    return (f'[[{table}]]\nid = "{gid}"\nname = "{gid.replace("_", " ").title()}"\nrank = "{rank}"\nfaction = "{faction}"\n'
            f'{card}models = {models}\ngeneric_skills = [{skills}]\n{extra}\n[[{table}.attacks]]\n{attack}\n')


HALBERD = 'name = "Halberd"\nkind = "physical"\nap = 3\nrange = [1, 1]\nhits = 2\nthreshold = 5\n'
LANCE = 'name = "Lance"\nkind = "physical"\nrange = [1, 1]\nstrikes = 2\nthreshold = 5\n'  # first edition: 3 AP
GRENADE = 'name = "Grenade"\nkind = "physical"\nap = 2\nrange = [1, 4]\nhits = 2\nthreshold = 5\ntraits = ["Burst Area"]\n'


def mission(edition: str, tokens: dict[str, int], *cards: str, tail: str = "") -> str:
    placed = "\n".join(f"{token} = {sector}" for token, sector in tokens.items())
    return (f'format = 1\nedition = "{edition}"\ntitle = "Issue 49"\nexample_values = true\n{tail}\n'
            f"[horologium]\nhour = 1\nminute = 12\n\n[horologium.tokens]\n{placed}\n\n" + "\n".join(cards))


def answer(journal: Any, kind: str, value: Any) -> None:
    """Answer the question the AI asks now, checking it is of the kind expected."""
    asked = plan(state_of(journal)).question
    assert asked is not None and asked.kind == kind, (kind, asked, [s.text for s in plan(state_of(journal)).steps])
    journal.append({"type": "ai_answer", "question": asked.key, "answer": value})


def roll(journal: Any, hero: str, dice: list[int]) -> None:
    """The Defense Test of the attack the AI orders now, on `hero`."""
    order = plan(state_of(journal)).attack
    assert order is not None and order.hero == hero, (hero, order, [s.text for s in plan(state_of(journal)).steps])
    journal.append(order.event(dice))


# --- 1. Area attacks -----------------------------------------------------------------------------


def test_an_area_attack_gives_each_hero_in_the_area_a_defense_test_for_its_ap_once(games: StateFile) -> None:
    """"Areas": "the Attack applies to both the target Hero and all other Heroes in the Area ... Each Hero in the Area
    suffers the Attack, and performs a separate Defense Test." A 2 AP Burst Area attack with 4 AP is made twice."""
    text = mission("renaissance", {"bombardier": 1, "valerio": 2, "sofia": 3},
                   hero_toml("valerio", threat=3), hero_toml("sofia"), enemy_toml("bombardier", GRENADE))
    journal = journal_of(games, text)
    assert state_of(journal).active == "bombardier"
    answer(journal, "in_area", "yes")  # Valerio, Threat 3, in the Control Area: the goal
    answer(journal, "reach", "0")
    answer(journal, "in_area_heroes", ["sofia"])
    roll(journal, "valerio", [1, 1, 1])  # 2 wounds
    assert plan(state_of(journal)).attack is not None and plan(state_of(journal)).attack.area  # type: ignore[union-attr]
    roll(journal, "sofia", [8, 8, 8])  # saved
    assert state_of(journal).heroes[0].wounds == 2 and state_of(journal).notes[-1].startswith("In the Area: Grenade on Sofia")
    # the second Grenade: nobody moved, so Sofia is in the Area around Valerio still, not asked again (`areas.py`)
    assert plan(state_of(journal)).question is None
    roll(journal, "valerio", [8, 8, 8])
    roll(journal, "sofia", [8, 8, 8])
    done = plan(state_of(journal))
    assert done.done and [s.kind for s in done.steps].count("attacked") == 4
    assert [s.text for s in done.steps if s.kind == "attacked"] == [
        "Grenade on Valerio: 2 wounds.", "In the Area: Grenade on Sofia: 0 wounds.", "Grenade on Valerio: 0 wounds.",
        "In the Area: Grenade on Sofia: 0 wounds."]


# --- 2. First edition: a forced Wait that passes an Enemy token ------------------------------------


def test_a_forced_wait_past_an_enemy_token_asks_its_reaction_before_the_activation_ends(games: StateFile) -> None:
    """First edition "Reaction": "When a hero activation token moves on the Horologium, it can overtake an enemy
    activation token ... check to see if the active hero is in the Ca"; "Activation": a hero must spend their AP
    until the first sector occupied by an enemy has been passed. Valerio (Ra 5) ends at once beside the Guards'
    token (Ra 4) in his own sector: the 1 AP Wait passes it."""
    text = mission("classic", {"valerio": 12, "guards": 12}, hero_toml("valerio", classic=True),
                   enemy_toml("guards", LANCE, classic=True))
    journal = journal_of(games, text)
    assert state_of(journal).active == "valerio"
    journal.append({"type": "end_activation"})
    state = state_of(journal)
    assert state.active == "valerio" and state.turn is not None and state.turn.ap_left == 0  # the Wait spent 1 AP
    assert state.token("valerio").sector == 1 and state.reactions == ("guards",)
    assert state.notes[-1] == "Valerio must Wait 1 AP to pass an Enemy token: Guards may react; then end the activation"
    asked = plan(state).question
    assert asked is not None and asked.text == "Is Valerio within 4 squares of Guards 1 (its Control Area)?"
    with pytest.raises(EventRefused, match="^type: a Reaction is still to be settled first: Is Valerio within 4 squares"):
        journal.append({"type": "end_activation"})
    answer(journal, "in_area", "yes")  # the Guards react: they go for Valerio
    answer(journal, "reach", "1")
    roll(journal, "valerio", [6, 6])  # both strikes saved; Ra 4 less 1 square pays one Lance (3 AP), no more
    assert plan(state_of(journal)).question is None and plan(state_of(journal)).attack is None
    journal.append({"type": "end_activation"})
    state = state_of(journal)
    assert state.active == "guards" and state.reacted == ("guards/1",)


# --- 3. First edition: Chivalry and the phases of an enemy's activation -----------------------------


def test_a_papal_knight_with_chivalry_moves_5_squares_for_3_ap_and_attacks(games: StateFile) -> None:
    """First edition "Chivalry (Passive): A model with this skill can move up to 2 squares for each AP spent": 6 AP,
    5 squares cost 3 AP, and 3 AP pay an attack ("Attack (AP 3)")."""
    text = mission("classic", {"papal_knight": 1, "valerio": 2}, hero_toml("valerio", classic=True),
                   enemy_toml("papal_knight", LANCE, swiftness=6, skills='"Chivalry"', classic=True))
    journal = journal_of(games, text)
    assert state_of(journal).active == "papal_knight"
    steps = [s.text for s in plan(state_of(journal)).steps]
    assert steps[1:4] == ["Status phase: apply the status tokens on Papal Knight, all at once.",
                          "Equipment phase: Papal Knight receives the bonus tokens its equipment grants (no AP).",
                          "Chivalry: Papal Knight moves up to 2 squares for each AP spent."]
    answer(journal, "in_area", "yes")
    asked = plan(state_of(journal)).question
    assert asked is not None and asked.kind == "reach" and asked.options[-2:] == ("12", "more")  # 6 AP: 12 squares
    answer(journal, "reach", "5")
    p = plan(state_of(journal))
    assert "Papal Knight moves 5 squares toward Valerio (it keeps 3 AP for Lance)." in [s.text for s in p.steps]
    roll(journal, "valerio", [6, 1])  # one strike saved: 1 wound
    p = plan(state_of(journal))
    assert p.done and state_of(journal).hero("valerio").wounds == 1


def test_a_zero_ap_skill_takes_effect_in_the_skill_phase(games: StateFile) -> None:
    """First edition "Skill phase: all skills with a 0 AP cost take effect"; "Healing (AP 0)", "Melody of war (AP 0)"."""
    text = mission("classic", {"shaman": 1, "valerio": 2}, hero_toml("valerio", classic=True),
                   enemy_toml("shaman", LANCE, skills='"Healing", "Melody of war", "Inspire"', faction="Primaevi", classic=True))
    steps = [s.text for s in plan(state_of(journal_of(games, text))).steps]
    assert steps[3] == ("Skill phase: Healing: every ally within 5 squares of Shaman discards 1 wound (a heal event for each); "
                        "no effect on a model without wounds; Melody of war: each Primaevi model within 5 squares of Shaman "
                        "has +1 strike on its physical attacks (give the hits on its attack).")
    assert steps[4] == "Inspire: a Hero defending against the physical attack of an enemy within 6 squares of Shaman re-rolls one die."


# --- 4. Enemy Draft: the Draft Card's number of models --------------------------------------------


def test_a_draft_card_places_its_own_number_of_models_for_a_group_already_on_the_battlefield(games: StateFile) -> None:
    """"Draft Cards": the "Number of Models available for the Enemy indicated". Two Swiss Guards start on the
    battlefield; their Draft Card shows 4: a Draft of 2 squares places 2 more, where the starting count left none."""
    order = '[events.draft]\nfaction = "Rome"\nrank = "troop"\nsquares = 2\n'
    event = f'[[events]]\nid = "bells"\nhour = 1\nminute = 1\ntext = "The bells ring"\n{order}'
    text = mission("renaissance", {"valerio": 2, "swiss_guard": 8}, hero_toml("valerio"),
                   enemy_toml("swiss_guard", HALBERD, models=2, extra="draft_models = 4"), event)
    journal = journal_of(games, text, {"type": "resolve_event", "event": "bells"})
    journal.append({"type": "draft", "event": "bells", "cards": ["swiss_guard"]})
    state = state_of(journal)
    assert state.group("swiss_guard").standing == (1, 2, 3, 4)
    assert state.notes[-1] == "Enemy Draft: Swiss Guard: 2 models"
    without = text.replace("draft_models = 4", "")  # the card's number unknown: the starting count, none left
    games.new_game(without, "flow.toml")
    other = games.journal()
    other.append({"type": "resolve_event", "event": "bells"})
    with pytest.raises(EventRefused, match="^cards: 2 squares still need a model: draw another Draft Card"):
        other.append({"type": "draft", "event": "bells", "cards": ["swiss_guard"]})


# --- 5. Dashes and Forced Movement cause Reaction Attacks -----------------------------------------


def test_a_hero_with_no_ap_left_dashes_after_the_reaction_attacks(games: StateFile) -> None:
    """"Dash": "A Dash does not use up Action Points"; "Unless otherwise stated, a Dash causes Reaction Attacks"."""
    text = mission("renaissance", {"valerio": 12, "guards": 6}, hero_toml("valerio", health=6), enemy_toml("guards", HALBERD))
    journal = journal_of(games, text, {"type": "spend_ap", "ap": 5, "action": "attack"})
    assert state_of(journal).turn.ap_left == 0  # type: ignore[union-attr]
    journal.append({"type": "declare_move", "movement": "dash", "adjacent": ["guards/1"]})
    p = plan(state_of(journal))
    assert p.attack is not None and p.attack.reaction and p.attack.hero == "valerio"
    assert p.steps[0].text.startswith("Valerio declares a Dash (no AP): first every adjacent Enemy")
    journal.append(p.attack.event([1, 1, 1]))  # 2 hits, 2 wounds
    state = state_of(journal)
    assert state.turn is not None and state.turn.move is None and state.notes[-1] == "Valerio dashes now"
    assert state.hero("valerio").wounds == 2 and state.turn.ap_left == 0


def test_a_forced_movement_in_an_enemys_activation_draws_its_reaction_attacks_first(games: StateFile) -> None:
    """"Forced Movement": it costs no AP and "unless otherwise stated causes Reaction Attacks", whoever is active."""
    text = mission("renaissance", {"guards": 1, "valerio": 2, "sofia": 3},
                   hero_toml("valerio", threat=3), hero_toml("sofia"), enemy_toml("guards", HALBERD, models=2))
    journal = journal_of(games, text)
    assert state_of(journal).active == "guards"
    journal.append({"type": "declare_move", "movement": "forced", "hero": "sofia", "adjacent": ["guards/2"]})
    p = plan(state_of(journal))
    assert p.attack is not None and p.attack.reaction and (p.attack.hero, p.attack.model) == ("sofia", 2)
    journal.append(p.attack.event([8, 8, 8]))
    assert state_of(journal).notes[-1] == "Sofia makes the Forced Movement now"
    asked = plan(state_of(journal)).question  # the Guards' own activation goes on, their AP untouched
    assert asked is not None and asked.kind == "in_area"
    answer(journal, "in_area", "yes")
    answer(journal, "reach", "0")
    assert plan(state_of(journal)).attack is not None and not plan(state_of(journal)).attack.reaction  # type: ignore[union-attr]


# --- 6. A Hero's Reaction Skill outside their activation ------------------------------------------


def test_a_reaction_skill_attack_outside_the_heros_activation_keeps_its_critical_and_threat(games: StateFile) -> None:
    """"Reaction Skills": "usable only when the Hero equipping it is not the Active Model". In the Guards' activation
    Sofia's Reaction Skill attacks Guards 1: 3 successes on Physical Defense 5, 3 wounds and the Critical's extra one."""
    text = mission("renaissance", {"guards": 1, "valerio": 2, "sofia": 3},
                   hero_toml("valerio", threat=3), hero_toml("sofia"), enemy_toml("guards", HALBERD, models=2))
    journal = journal_of(games, text)
    assert state_of(journal).active == "guards"
    journal.append({"type": "hero_attack", "hero": "sofia", "reaction": True, "group": "guards", "model": 1, "dice": [8, 8, 8]})
    state = state_of(journal)
    # +1 for the wounds, +1 for the Critical, +1 for the defeat (as Valerio and the Lancer in "Success Threshold")
    assert state.notes[0] == "Sofia reacts: attacks Guards 1: 3 successes, 4 wounds, Critical, defeated; Threat +3"
    assert state.hero("sofia").threat == 3 and state.group("guards").standing == (2,)
    assert state.active == "guards" and state.turn is not None and state.turn.ap_left == 4  # nobody's AP spent
    journal.append({"type": "end_activation", "skip": True})
    assert state_of(journal).active == "valerio"
    reacting = {"type": "hero_attack", "hero": "valerio", "reaction": True, "group": "guards", "dice": [8]}
    with pytest.raises(EventRefused, match="^reaction: Valerio is the Active Model"):
        journal.append(reacting)
    with pytest.raises(EventRefused, match="^ap: must be at most 0"):
        journal.append({**reacting, "hero": "sofia", "ap": 2})  # a Reaction Skill's attack spends nobody's AP


# === Rules the books describe that the table lacked ===============================================


def test_a_ko_companion_draws_no_injury_card_and_the_hand_moves_on(games: StateFile) -> None:
    """Renaissance "Companion": "considered for all intents and purposes a Hero, with the only exception that they
    never draw Injury Cards"; a KO Hero draws one "when [they] would Activate"."""
    text = mission("renaissance", {"valerio": 12, "sofia": 1, "guards": 6},
                   hero_toml("valerio"), hero_toml("sofia").replace("threat = 0", 'threat = 0\nrole = "companion"'),
                   enemy_toml("guards", HALBERD))
    journal = journal_of(games, text, {"type": "damage", "hero": "sofia", "wounds": 5})
    assert state_of(journal).hero("sofia").ko
    journal.append({"type": "end_activation"})  # Valerio Waits to V; the hand reaches Sofia's KO token in I
    state = state_of(journal)
    assert "Sofia is KO: a Companion draws no Injury Card" in state.notes and state.active == "guards"
    with pytest.raises(EventRefused, match="^type: an Injury is drawn when a KO Hero would activate"):
        journal.append({"type": "injury", "card": "Broken Arm"})


def test_an_ally_moves_its_token_by_its_swiftness_and_is_a_target_like_a_hero(games: StateFile) -> None:
    """Renaissance "Ally": "An Ally's Activation Token always moves a number of sectors equal to their Swiftness,
    regardless of what Actions they performed"; "considered a Hero when they are the target"; "Wounds": a Model
    other than a Hero is Defeated, not KO."""
    ally = hero_toml("ludovico", threat=4, swiftness=4, health=3).replace("threat = 4", 'threat = 4\nrole = "ally"')
    text = mission("renaissance", {"ludovico": 12, "valerio": 2, "guards": 6}, ally, hero_toml("valerio"), enemy_toml("guards", HALBERD))
    journal = journal_of(games, text)
    state = state_of(journal)
    assert state.active == "ludovico" and state.token("ludovico").sector == 4  # XII + 4, at once
    assert state.notes[-1] == "Ludovico activates with 4 AP: the token moves 4 sectors to IV"
    journal.append({"type": "spend_ap", "ap": 1, "action": "move"})
    assert state_of(journal).token("ludovico").sector == 4 and state_of(journal).turn.ap_left == 3  # type: ignore[union-attr]
    journal.append({"type": "end_activation"})  # no forced Wait: the token moved already
    assert state_of(journal).token("ludovico").sector == 4
    journal.append({"type": "end_activation"})  # Valerio (II)
    journal.append({"type": "end_activation"})  # Ludovico again (IV), to VIII
    assert state_of(journal).active == "guards" and state_of(journal).token("ludovico").sector == 8
    answer(journal, "in_area", "yes")  # the Ally, Threat 4, is the Guards' goal like a Hero
    answer(journal, "reach", "0")
    roll(journal, "ludovico", [1, 1, 1])  # 2 wounds of 3
    assert plan(state_of(journal)).done  # 4 AP: one Halberd (3 AP)
    journal.append({"type": "damage", "hero": "ludovico", "wounds": 1})
    state = state_of(journal)
    assert state.hero("ludovico").removed and not state.has_token("ludovico") and state.over is None  # no Hero is KO
    assert state.notes[-1] == "Ludovico is defeated: remove the Ally's model and token"


def test_a_swiftness_changed_by_an_injury_gives_the_next_activations_its_ap(games: StateFile) -> None:
    """"When a Model Activates, it gains Action Points equal to its Swiftness": an Injury that lowers it counts."""
    text = mission("renaissance", {"valerio": 12, "guards": 6}, hero_toml("valerio"), enemy_toml("guards", HALBERD))
    journal = journal_of(games, text, {"type": "swiftness", "hero": "valerio", "value": 3})
    assert state_of(journal).token("valerio").swiftness == 3 and state_of(journal).notes[-1] == "Valerio: Swiftness now 3"
    assert state_of(journal).turn.ap == 5  # type: ignore[union-attr]  # this activation began before the Injury
    journal.append({"type": "end_activation", "skip": True})
    while state_of(journal).active != "valerio":
        journal.append({"type": "end_activation", "skip": True})
    assert state_of(journal).turn.ap == 3  # type: ignore[union-attr]


def test_enemies_ignore_a_hero_on_a_location_card(games: StateFile) -> None:
    """Renaissance "Location Card": "A Hero who is on a Location Card cannot target and cannot be targeted by other
    Models, and Enemies ignore them." Valerio (Threat 5) enters one: the Guards ask only about Sofia."""
    text = mission("renaissance", {"valerio": 12, "sofia": 3, "guards": 1},
                   hero_toml("valerio", threat=5), hero_toml("sofia", threat=1), enemy_toml("guards", HALBERD))
    journal = journal_of(games, text, {"type": "location", "hero": "valerio"})
    assert state_of(journal).notes[-1] == "Valerio enters a Location Card: Enemies ignore them"
    with pytest.raises(EventRefused, match="^hero: Valerio is on a Location Card: they can only use the Mission's Actions"):
        journal.append({"type": "hero_attack", "group": "guards", "dice": [8, 8]})
    journal.append({"type": "spend_ap", "ap": 2, "action": "Mission's Action"})
    journal.append({"type": "end_activation"})
    assert state_of(journal).active == "guards"
    asked = plan(state_of(journal)).question
    assert asked is not None and asked.about == ("sofia",)  # not Valerio, whose Threat is higher
    with pytest.raises(EventRefused, match="^hero: Valerio is on a Location Card: they cannot be targeted"):
        journal.append({"type": "enemy_attack", "group": "guards", "hero": "valerio", "dice": [1, 1, 1]})
    journal.append({"type": "location", "hero": "valerio", "enter": False})  # an Exit: a Mission's Action of his
    asked = plan(state_of(journal)).question
    assert asked is not None and asked.about == ("valerio",)


def test_reagents_from_a_test_join_the_loot_and_the_end_keeps_half_of_it(games: StateFile) -> None:
    """Renaissance "Loot": Reagent Cards from defeated Enemies and from Actions or Tests of the Mission Cards; at the
    end, "Loot: half. Discard half of the cards that form the Loot (rounded up)": 5 cards, 3 discarded, 2 kept."""
    card = enemy_toml("guards", HALBERD, models=2, extra='loot = ["Elementum", "Pecunia"]')
    text = mission("renaissance", {"valerio": 12, "guards": 6}, hero_toml("valerio"), card)
    journal = journal_of(games, text, {"type": "loot", "cards": ["Alchemia"]})  # a Mission's test passed
    assert state_of(journal).notes[-1] == "Loot: +Alchemia (1 card)"
    journal.append({"type": "damage", "group": "guards", "model": 1, "wounds": 3, "by": "valerio"})
    journal.append({"type": "loot", "cards": ["Pecunia", "Pecunia"]})
    assert state_of(journal).loot == ("Alchemia", "Elementum", "Pecunia", "Pecunia", "Pecunia")
    journal.append({"type": "end_mission", "result": "victory", "loot": "half"})
    assert state_of(journal).notes[-2:] == ("The mission ends in victory", "Loot: half: discard 3 of the 5 cards unrevealed, "
                                             "chosen by the symbol on their backs, and mark the contents of the other 2 in the Treasury")


def test_a_first_edition_hero_removed_from_the_game_rolls_on_the_out_of_action_table(games: StateFile) -> None:
    """First edition "Characters out of action": not treated before their next activation, removed; "Out of action":
    "Roll 1d6": 1 Serious wound, 2-5 Minor wound, 6 Unharmed; a minor wound not healed rolls again at -1."""
    text = mission("classic", {"valerio": 12, "sofia": 1, "guards": 6},
                   hero_toml("valerio", classic=True), hero_toml("sofia", classic=True), enemy_toml("guards", LANCE, classic=True))
    journal = journal_of(games, text, {"type": "damage", "hero": "sofia", "wounds": 5, "equipment": False},
                         {"type": "spend_ap", "ap": 5, "action": "move"}, {"type": "end_activation"})
    state = state_of(journal)
    assert state.hero("sofia").removed and "Sofia is out of the game: roll 1d6 on the Out of action table" in state.notes
    with pytest.raises(EventRefused, match="^hero: Valerio is not removed"):
        journal.append({"type": "out_of_action", "hero": "valerio", "die": 3})
    journal.append({"type": "out_of_action", "hero": "sofia", "die": 6, "malus": 1})
    assert state_of(journal).hero("sofia").injuries == ("Minor wound",)
    assert state_of(journal).notes[-1].startswith("Sofia, out of action: 6 - 1: Minor wound: healed by a surgeon")


def test_a_first_edition_prayer_applies_its_effect_for_each_success(games: StateFile) -> None:
    """First edition "Prayers": "prayers do not have a difficulty level but their effect is applied for each
    successful attack". A 1-wound prayer rolled 6, 5, 2 against Md 5: 2 successes, 2 wounds."""
    text = mission("classic", {"valerio": 12, "guards": 6}, hero_toml("valerio", classic=True),
                   enemy_toml("guards", LANCE, classic=True))
    journal = journal_of(games, text, {"type": "hero_attack", "group": "guards", "kind": "psychic", "prayer": True,
                                       "effect_wounds": 1, "dice": [6, 5, 2], "ap": 2})  # fmt: skip
    state = state_of(journal)
    assert state.group("guards").models[0].wounds == 2 and state.notes[0].startswith("Valerio attacks Guards 1: 2 successes, 2 wounds")
    journal.append({"type": "hero_attack", "group": "guards", "kind": "psychic", "prayer": True, "effect_wounds": 1, "dice": [2, 3]})
    assert state_of(journal).group("guards").models[0].wounds == 2  # no success, no effect


def test_status_tokens_are_reminded_at_the_start_and_end_of_activations(games: StateFile) -> None:
    """Renaissance "Hero or Ally Activation": 1a "Apply the Effects of all Status and Neutral Tokens ... triggered at
    the beginning of its Activation (such as Stunned ...)", 3a "... at the end of its Activation (such as Burned)";
    "Status Tokens": a token gained twice is discarded; "KO Hero": a KO Hero discards all Status Tokens."""
    text = mission("renaissance", {"guards": 12, "valerio": 1}, hero_toml("valerio"), enemy_toml("guards", HALBERD))
    journal = journal_of(games, text, {"type": "status", "group": "guards", "model": 1, "token": "Burned"})
    assert plan(state_of(journal)).steps[1].text == "Guards 1 holds Burned: apply Burned at the end of the activation."
    journal.append({"type": "status", "hero": "valerio", "token": "Burned"})
    journal.append({"type": "status", "hero": "valerio", "token": "Stunned"})
    journal.append({"type": "status", "hero": "valerio", "token": "Burned"})
    assert state_of(journal).notes[-1] == "Valerio already has Burned: the new one is discarded"
    journal.append({"type": "end_activation", "skip": True})  # the Guards end; Valerio activates
    assert state_of(journal).active == "valerio"
    assert [s.text for s in plan(state_of(journal)).steps] == [
        "Valerio holds Burned and Stunned: apply Stunned now and Burned at the end of the activation."]
    journal.append({"type": "end_activation"})
    assert state_of(journal).notes[:2] == ("Valerio ends the activation", "Valerio: apply Burned now, at the end of the activation")
    journal.append({"type": "damage", "hero": "valerio", "wounds": 5})
    assert state_of(journal).hero("valerio").statuses == ()


def test_first_edition_blinded_is_discarded_at_the_end_of_the_activation(games: StateFile) -> None:
    """First edition "Blinded: The character cannot attack during its activation. Discard this token at the end of the
    character activation"; the status tokens take effect before any action."""
    text = mission("classic", {"valerio": 12, "guards": 6}, hero_toml("valerio", classic=True), enemy_toml("guards", LANCE, classic=True))
    journal = journal_of(games, text, {"type": "status", "hero": "valerio", "token": "Blinded"},
                         {"type": "status", "hero": "valerio", "token": "Blessed"})
    assert plan(state_of(journal)).steps[0].text == (
        "Valerio holds Blinded (cannot attack this activation; discarded at its end) and Blessed (may discard it before "
        "a test for +1 on every die): their effects are applied now, all at once.")
    journal.append({"type": "spend_ap", "ap": 5, "action": "move"})
    journal.append({"type": "end_activation"})
    assert state_of(journal).hero("valerio").statuses == ("Blessed",)
    with pytest.raises(EventRefused, match="^token: Valerio has no Blinded"):
        journal.append({"type": "status", "hero": "valerio", "token": "Blinded", "gain": False})
