"""Wounds on a Hero's Equipment: Renaissance "Wound Tokens and Equipment" (Resistance X); first edition "Weapons and armour"."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.rules.edition import Edition
from assistant.rules.equipment import Placed, discard_wounds, effects_apply, place_wounds
from assistant.rules.errors import RuleError
from assistant.rules.game import apply, new_game
from assistant.rules.scenario import AttackSpec
from assistant.rules.state import AttackMade, GameState
from tests.rules.scenarios import SOULFIRE, group, hero, skirmish

REN, CLASSIC = Edition.RENAISSANCE, Edition.CLASSIC
MISSES = [1, 2, 3]  # a Defense Test without a Success at 5+: every hit is a wound
STILETTO = AttackSpec("Stiletto", "physical", ap=2, range_min=1, range_max=1, threshold=5, defended_with="physique",
                      hits=2, traits=("Unblockable",))  # fmt: skip


def table(edition: str = "renaissance", resistance: int = 1, health: int = 5) -> GameState:
    """The squire (active first) with `resistance`, and a novice without; guards (Halberd), a gipsy (Soulfire), bravi (Stiletto)."""
    return new_game(skirmish(
        edition=edition,
        heroes=(hero("squire", 5, health=health, resistance=resistance), hero("novice", 4)),
        enemies=(group("guards", 4, models=2), group("gipsy", 6, models=1, attack=SOULFIRE),
                 group("bravi", 5, models=1, attack=STILETTO)),
        placements=(("squire", 12, "hero"), ("novice", 1, "hero"), ("guards", 5, "enemy"), ("gipsy", 9, "enemy"),
                    ("bravi", 10, "enemy")),
        hour=1, minute=11,
    ))  # fmt: skip


def run(state: GameState, *events: dict[str, Any]) -> GameState:
    for event in events:
        state = apply(state, event)
    return state


def halberd(hits: int, hero_id: str = "squire", **more: Any) -> dict[str, Any]:
    return {"type": "enemy_attack", "group": "guards", "hero": hero_id, "hits": hits, "dice": MISSES, **more}


def wounds(state: GameState, hero_id: str = "squire") -> tuple[int, int]:
    """(on the hero sheet, on the Equipment)."""
    hero_state = state.hero(hero_id)
    return hero_state.wounds, hero_state.equipment_wounds


# --- the books' examples -----------------------------------------------------------------------------


def test_the_squire_light_armour_takes_the_first_of_three_wounds() -> None:
    """First edition "Weapons and armour": "the squire suffers three wounds following an attack, he positions the
    first one on the lightweight armour, the other two on the hero sheet" ("Light armour: The light armour has 1 Wo")."""
    assert place_wounds(3, room=1) == Placed(hero=2, equipment=1)
    state = apply(table("classic", resistance=1), halberd(3))
    assert wounds(state) == (2, 1)
    assert any("3 wounds (1 on the armour)" in note for note in state.notes)


def test_first_edition_healing_takes_the_hero_sheet_wounds_first_then_the_armour() -> None:
    """First edition "Weapons and armour": "the wounds must be removed from the armour card after removing the ones
    on the hero sheet". The squire, 2 wounds on the sheet and 1 on the light armour, heals 2, then 1."""
    state = apply(table("classic", resistance=1), halberd(3))
    state = apply(state, {"type": "heal", "hero": "squire", "wounds": 2})
    assert wounds(state) == (0, 1)
    state = apply(state, {"type": "heal", "hero": "squire", "wounds": 1})
    assert wounds(state) == (0, 0)
    assert "Squire discards 1 wound (1 on the armour)" in state.notes
    with pytest.raises(RuleError, match="hero: Squire has no wound to discard"):
        apply(state, {"type": "heal", "hero": "squire", "wounds": 1})
    healed_at_once = run(table("classic", resistance=1), halberd(3), {"type": "heal", "hero": "squire", "wounds": 5})
    assert wounds(healed_at_once) == (0, 0)


def test_renaissance_resistance_takes_a_physical_attacks_first_wounds_and_the_hero_stands() -> None:
    """Renaissance "Wound Tokens and Equipment": a Hero with Resistance 2 and Health 3 takes 4 wounds of a Physical
    Attack: 2 on the Equipment, 2 on the Hero, who is not KO (Wound Tokens equal to Health KO a Hero)."""
    state = apply(table(resistance=2, health=3), halberd(4))
    assert wounds(state) == (2, 2)
    assert not state.hero("squire").ko
    state = apply(state, halberd(1))  # the Equipment is full: the next wound is the Hero's, and the third KOs them
    assert wounds(state) == (3, 2) and state.hero("squire").ko


def test_renaissance_equipment_takes_no_psychic_unblockable_or_status_token_wound() -> None:
    """Renaissance: only a Physical Attack's wounds; "Unblockable Wounds cannot be assigned to an Equipment Card";
    "The Wounds suffered by a Hero because of a Status Token (e.g., a Bleeding Token), cannot be assigned"."""
    state = apply(table(resistance=2, health=9), {"type": "enemy_attack", "group": "gipsy", "hero": "squire", "dice": MISSES})
    assert wounds(state) == (3, 0)  # Soulfire, a Psychic Attack not resisted: 3 wounds
    state = apply(state, halberd(2, unblockable=True))
    assert wounds(state) == (5, 0)
    state = apply(state, {"type": "enemy_attack", "group": "bravi", "hero": "squire", "dice": MISSES})
    assert wounds(state) == (7, 0)  # the Stiletto's card says Unblockable
    state = apply(state, {"type": "damage", "hero": "squire", "wounds": 1})  # a Bleeding Token
    assert wounds(state) == (8, 0)
    state = apply(state, {"type": "damage", "hero": "squire", "wounds": 1, "equipment": True})  # a mission's Physical Attack
    assert wounds(state) == (8, 1)


def test_first_edition_armour_takes_the_wounds_of_a_mental_attack_and_of_damage_too() -> None:
    """First edition: "The first wounds inflicted must be positioned on the armour card", without exception (the
    choice in docs/rules.md). Example 7: the Gipsy's Soulfire is not contrasted, 3 wounds: 1 on the armour, 2 on the sheet."""
    state = apply(table("classic", resistance=1), {"type": "enemy_attack", "group": "gipsy", "hero": "squire", "dice": [2, 4, 5]})
    assert wounds(state) == (2, 1)
    state = apply(table("classic", resistance=1), {"type": "damage", "hero": "squire", "wounds": 2})
    assert wounds(state) == (1, 1)
    state = apply(table("classic", resistance=1), {"type": "damage", "hero": "squire", "wounds": 2, "equipment": False})
    assert wounds(state) == (2, 0)  # a correction of the hero sheet


def test_a_physical_attack_whose_every_wound_is_on_the_equipment_applies_no_effect() -> None:
    """Renaissance "Effect" / "Enemies Attacks": "If the Attack inflicted at least 1 Wound (which has not been placed on
    an Equipment Card), it is considered successful and the Enemy applies the Effects of all Attack Traits"."""
    state = apply(table(resistance=2), halberd(2))
    assert "Halberd on Squire: 2 hits, 0 saved, 2 wounds (2 on the Equipment); every wound is on the Equipment: " \
           "the attack's Effects do not apply" in state.notes
    state = apply(state, halberd(2))
    assert not any("Effects do not apply" in note for note in state.notes)
    assert effects_apply(REN, True, Placed(0, 1)) is False and effects_apply(REN, True, Placed(1, 1)) is True
    assert effects_apply(REN, False, Placed(0), resisted=False) is True and effects_apply(REN, False, Placed(0), resisted=True) is False
    assert effects_apply(CLASSIC, True, Placed(0, 1)) is True  # first edition: a wound on the armour is still inflicted


def test_an_attack_records_the_wounds_on_the_hero_and_on_the_equipment_apart() -> None:
    state = apply(table(resistance=1), halberd(3))
    assert state.turn is not None
    assert state.turn.attacks[-1] == AttackMade("guards", 1, "squire", "Halberd", 2, False, on_equipment=1)


# --- corrections, discarding, the End of a Mission ----------------------------------------------------


def test_the_equipment_wounds_event_puts_and_takes_wounds_within_the_resistance() -> None:
    """Renaissance: "Wounds on an Equipment Card can only be discarded by effects that specifically indicate so"."""
    state = apply(table(resistance=2), halberd(3))
    assert wounds(state) == (1, 2)
    with pytest.raises(RuleError, match=r"hero: Squire has no wound to discard \(2 on the Equipment"):
        apply(apply(state, {"type": "heal", "hero": "squire", "wounds": 1}), {"type": "heal", "hero": "squire", "wounds": 1})
    state = apply(state, {"type": "heal", "hero": "squire", "wounds": 3})
    assert wounds(state) == (0, 2)  # a healing leaves the Equipment's wounds
    state = apply(state, {"type": "equipment_wounds", "hero": "squire", "delta": -1})
    assert wounds(state) == (0, 1)
    assert "Squire: -1 wound on the Equipment, now 1 of 2" in state.notes
    with pytest.raises(RuleError, match=r"delta: must be from -1 to 1, not 2: the Equipment of Squire holds 1 of 2 wounds"):
        apply(state, {"type": "equipment_wounds", "hero": "squire", "delta": 2})
    with pytest.raises(RuleError, match="delta: must be from -1 to 1, not -2"):
        apply(state, {"type": "equipment_wounds", "hero": "squire", "delta": -2})
    with pytest.raises(RuleError, match=r"hero: Novice has nothing on the Equipment to hold wounds \(resistance 0"):
        apply(state, {"type": "equipment_wounds", "hero": "novice", "delta": 1})
    with pytest.raises(RuleError, match="delta: must be a whole number"):
        apply(state, {"type": "equipment_wounds", "hero": "squire", "delta": "1"})
    with pytest.raises(RuleError, match="equipment: must be true or false"):
        apply(state, {"type": "damage", "hero": "squire", "wounds": 1, "equipment": "yes"})
    with pytest.raises(RuleError, match="equipment: unknown field"):  # an Enemy model has no Equipment to spare it
        apply(state, {"type": "damage", "group": "guards", "wounds": 1, "equipment": True})
    with pytest.raises(RuleError, match="unblockable: must be true or false"):
        apply(state, halberd(1, unblockable=1))


def test_the_wounds_on_equipment_are_discarded_at_the_end_of_the_mission() -> None:
    """Renaissance: "The Wounds on an Equipment Card are all discarded after the End of a Mission"."""
    state = apply(table(resistance=2), halberd(3))
    state = apply(state, {"type": "end_mission", "result": "victory"})
    assert wounds(state) == (1, 0)
    assert "The wounds on the Equipment are discarded" in state.notes


def test_a_state_saved_before_equipment_wounds_existed_still_loads() -> None:
    """A game state saved as JSON before this rule (no `resistance`, `equipment_wounds`, `on_equipment`) loads with 0s."""
    state = apply(table(resistance=0), halberd(2))
    assert state.turn is not None and state.turn.attacks

    def strip(data: Any) -> Any:
        if isinstance(data, dict):
            return {k: strip(v) for k, v in data.items() if k not in ("resistance", "equipment_wounds", "on_equipment")}
        if isinstance(data, list):
            return [strip(item) for item in data]
        return data

    old = strip(state.to_dict())
    assert "equipment_wounds" not in str(old) and "resistance" not in str(old)
    loaded = GameState.from_dict(old)
    assert loaded == state
    assert loaded.hero("squire").equipment_wounds == 0 and loaded.scenario.hero("squire").resistance == 0


# --- invariants ---------------------------------------------------------------------------------------


@given(wounds_taken=st.integers(0, 30), room=st.integers(0, 30))
def test_placed_wounds_add_up_and_the_equipment_takes_no_more_than_its_room(wounds_taken: int, room: int) -> None:
    placed = place_wounds(wounds_taken, room)
    assert placed.total == wounds_taken
    assert placed.equipment == min(wounds_taken, room) and placed.hero >= 0


SOURCES = st.sampled_from(["physical", "psychic", "unblockable", "status"])


@settings(max_examples=60, deadline=None)
@given(edition=st.sampled_from(["renaissance", "classic"]), resistance=st.integers(0, 4),
       blows=st.lists(st.tuples(SOURCES, st.integers(1, 3)), max_size=6))  # fmt: skip
def test_hero_wounds_and_equipment_wounds_are_the_wounds_taken(edition: str, resistance: int, blows: list[tuple[str, int]]) -> None:
    """Whatever the blows: the Hero's wounds and the Equipment's add up to the wounds taken, the Equipment never holds
    more than its Resistance, and it holds as many as it could of those it may take (it takes them first)."""
    state = table(edition, resistance=resistance, health=20)
    taken = allowed = 0
    for source, count in blows:
        if source == "status":
            event: dict[str, Any] = {"type": "damage", "hero": "squire", "wounds": count}
        elif source == "psychic":
            event = {"type": "enemy_attack", "group": "gipsy", "hero": "squire", "effect_wounds": count, "dice": MISSES}
        else:
            event = halberd(count, unblockable=source == "unblockable")
        state = apply(state, event)
        taken += count
        allowed += count if edition == "classic" or source == "physical" else 0  # the first edition's armour: every wound
        hero_wounds, on_equipment = wounds(state)
        assert hero_wounds + on_equipment == taken
        assert 0 <= on_equipment <= resistance
        assert on_equipment == min(resistance, allowed)


@settings(max_examples=60, deadline=None)
@given(edition=st.sampled_from(["renaissance", "classic"]), hits=st.integers(1, 6), heals=st.lists(st.integers(1, 3), max_size=4))
def test_a_healing_takes_the_heros_wounds_before_any_on_the_equipment(edition: str, hits: int, heals: list[int]) -> None:
    """First edition: the armour's wounds go only once the hero sheet has none; Renaissance: a healing never takes them."""
    state = apply(table(edition, resistance=2, health=20), halberd(hits))
    for amount in heals:
        before = wounds(state)
        if before == (0, 0) or (edition == "renaissance" and before[0] == 0):
            break
        state = apply(state, {"type": "heal", "hero": "squire", "wounds": amount})
        after = wounds(state)
        assert sum(before) - sum(after) == min(amount, before[0] + (before[1] if edition == "classic" else 0))
        if after[1] < before[1]:
            assert edition == "classic" and after[0] == 0
        assert discard_wounds(Edition(edition), *before, amount) == Placed(before[0] - after[0], before[1] - after[1])


def test_place_and_discard_refuse_negative_wounds() -> None:
    with pytest.raises(RuleError, match="wounds: must be 0 or more"):
        place_wounds(-1, 1)
    with pytest.raises(RuleError, match="wounds: must be 0 or more"):
        discard_wounds(REN, 1, 1, -1)
