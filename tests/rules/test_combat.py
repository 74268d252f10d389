"""Attacks and the Perilium, with the rulebooks' worked examples."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from assistant.rules.combat import (
    Target,
    enemy_physical_attack,
    enemy_psychic_attack,
    hero_physical_attack,
    hero_prayer,
    hero_psychic_attack,
)
from assistant.rules.dice import AstroCount
from assistant.rules.edition import Edition
from assistant.rules.errors import RuleError
from assistant.rules.perilium import KO_THREAT, MAX_THREAT, ThreatCauses, adjust, threat_gain

REN, CLASSIC = Edition.RENAISSANCE, Edition.CLASSIC


def test_valerio_defeats_the_lancer_in_one_attack() -> None:
    # Renaissance "Success Threshold" example: 4 dice vs Defense 5: 6, 6, 5, 2 -> 3 successes,
    # and the Lancer is defeated. The example says "3 Wounds"; by "Critical" 3 wounds are a Critical,
    # one more wound: 4 (docs/rules.md, where the books leave a choice).
    result = hero_physical_attack(REN, (6, 6, 5, 2), defense=5, target=Target(health=3))
    assert result.successes == 3
    assert result.critical
    assert result.wounds == 4
    assert result.defeated
    # +1 for wounding, +1 for the Critical, +1 for the defeat ("Threat Level")
    assert result.threat == 3


def test_sofia_wounds_the_slinger_twice() -> None:
    # Renaissance "Dice Re-roll" example, after the re-rolls: 5, 7, 3 -> 2 Wounds to the Slinger. Had she
    # rolled 3 Successes, "thanks to the Critical Trait" she would have defeated it: its Health is 4 (3
    # wounds and the Critical's one more; 3 alone would not).
    result = hero_physical_attack(REN, (5, 7, 3), defense=5, target=Target(health=4))
    assert (result.successes, result.wounds, result.critical, result.defeated) == (2, 2, False, False)
    assert result.threat == 1
    hoped = hero_physical_attack(REN, (5, 7, 6), defense=5, target=Target(health=4))
    assert (hoped.successes, hoped.wounds, hoped.critical, hoped.defeated) == (3, 4, True, True)


def test_critical_against_an_enemy_immune_to_it_still_raises_the_threat() -> None:
    # Renaissance "Critical": no extra wound against an Enemy immune to Critical (e.g. Fate),
    # but the Hero still increases their Threat Level by 1.
    target = Target(health=6, immune_to_critical=True)
    result = hero_physical_attack(REN, (5, 6, 7), defense=5, target=target)
    assert (result.wounds, result.critical, result.defeated, result.threat) == (3, True, False, 2)
    normal = hero_physical_attack(REN, (5, 6, 7), defense=5, target=Target(health=6))
    assert (normal.wounds, normal.critical, normal.threat) == (4, True, 2)


def test_a_miss_changes_nothing() -> None:
    result = hero_physical_attack(REN, (2, 3, 4), defense=5, target=Target(health=2))
    assert (result.successes, result.wounds, result.succeeded, result.threat) == (0, 0, False, 0)


def test_the_squire_kills_a_faun_warrior() -> None:
    # First edition, Example 4: 3 wounds kill a Faun Warrior: TV +2 (wound and kill). The first
    # edition has no Critical: 3 wounds stay 3.
    result = hero_physical_attack(CLASSIC, (5, 6, 5), defense=5, target=Target(health=3))
    assert (result.wounds, result.critical, result.defeated, result.threat) == (3, False, True, 2)


def test_rebeccas_arcane_arrow_fails_and_its_moons_do_nothing() -> None:
    # Renaissance "Astro Symbols" example: 2 successes needed vs Defense 5; 7, 4, 1, 1 -> 1 success:
    # the Test fails and no effect applies, not even a wound more for each Moon.
    arrow = hero_psychic_attack(
        REN, (7, 4, 1, 1), defense=5, required=2, effect_wounds=1, target=Target(health=2),
        astro_wounds={AstroCount(moon=1): 1},
    )
    assert (arrow.successes, arrow.succeeded, arrow.wounds, arrow.defeated, arrow.threat) == (1, False, 0, False, 0)
    # had she rolled 7, 5, 1, 1 the arrow would have flown with a wound more for each Moon
    hit = hero_psychic_attack(
        REN, (7, 5, 1, 1), defense=5, required=2, effect_wounds=1, target=Target(health=4),
        astro_wounds={AstroCount(moon=1): 1},
    )
    assert (hit.succeeded, hit.wounds, hit.defeated, hit.threat) == (True, 3, False, 1)


def test_an_astro_effect_before_the_attack_symbol_applies_whatever_the_successes() -> None:
    """Renaissance "Astro Symbols": "If you perform an Attack Test and the additional Effect comes before the
    Attack symbol, it applies regardless of the number of Successes obtained." Rebecca's roll, such a card."""
    early = {AstroCount(moon=1): 1}
    missed = hero_psychic_attack(REN, (7, 4, 1, 1), defense=5, required=2, effect_wounds=1, target=Target(health=4),
                                 astro_before=early)  # fmt: skip
    assert (missed.succeeded, missed.wounds, missed.defeated, missed.threat) == (False, 2, False, 1)
    hit = hero_psychic_attack(REN, (7, 5, 1, 1), defense=5, required=2, effect_wounds=1, target=Target(health=4),
                              astro_before=early, astro_wounds={AstroCount(star=1): 1})  # fmt: skip
    assert (hit.succeeded, hit.wounds, hit.defeated, hit.threat) == (True, 5, True, 2)  # 1 + 2 Moons + 2 Stars
    # physical: the Moons' wounds on a miss; a Critical still counts the Test's own wounds (3 successes here)
    blow = hero_physical_attack(REN, (1, 2, 3), defense=5, target=Target(health=4), astro_before=early)
    assert (blow.succeeded, blow.wounds, blow.critical, blow.threat) == (False, 1, False, 1)
    crit = hero_physical_attack(REN, (6, 6, 7, 1), defense=5, target=Target(health=9), astro_before=early)
    assert (crit.successes, crit.critical, crit.wounds, crit.threat) == (3, True, 5, 2)
    assert hero_physical_attack(CLASSIC, (1, 2, 3), defense=5, target=Target(health=4), astro_before=early).wounds == 0


def test_psychic_attacks_have_no_critical() -> None:
    result = hero_psychic_attack(REN, (8, 8, 8), defense=5, required=1, effect_wounds=4, target=Target(health=4))
    assert (result.critical, result.wounds, result.defeated, result.threat) == (False, 4, True, 2)


def test_the_scum_parries_one_halberd_strike() -> None:
    # First edition, Example 6: halberd 2 strikes at 5+, the Scum rolls 3, 1, 6 -> 1 wound.
    for edition in (CLASSIC, REN):
        result = enemy_physical_attack(edition, hits=2, threshold=5, dice=(3, 1, 6))
        assert (result.successes, result.wounds) == (1, 1)


def test_the_novice_fails_to_contrast_soulfire() -> None:
    # First edition, Example 7: Soulfire, Contrast 2, Mental Attack 5+; 2, 4, 5 -> 3 wounds.
    result = enemy_psychic_attack(CLASSIC, contrast=2, threshold=5, dice=(2, 4, 5), effect_wounds=3)
    assert (result.successes, result.resisted, result.wounds) == (1, False, 3)
    resisted = enemy_psychic_attack(CLASSIC, contrast=2, threshold=5, dice=(2, 5, 6), effect_wounds=3)
    assert (resisted.resisted, resisted.wounds) == (True, 0)


def test_enemy_fist_and_knife_profiles() -> None:
    # First edition "Melee (enemy)": Fist 3+, 1 strike; "Knife fight": Knife 4+, 1 strike.
    assert enemy_physical_attack(CLASSIC, hits=1, threshold=3, dice=(3,)).wounds == 0
    assert enemy_physical_attack(CLASSIC, hits=1, threshold=4, dice=(3,)).wounds == 1


@given(hits=st.integers(0, 6), dice=st.lists(st.integers(1, 8), max_size=6), threshold=st.integers(2, 8))
def test_each_defense_success_cancels_one_hit(hits: int, dice: list[int], threshold: int) -> None:
    result = enemy_physical_attack(REN, hits, threshold, dice)
    assert result.wounds == max(0, hits - result.successes)
    assert 0 <= result.wounds <= hits


@given(dice=st.lists(st.integers(1, 8), max_size=8), health=st.integers(1, 8), wounds=st.integers(0, 7))
def test_hero_attack_invariants(dice: list[int], health: int, wounds: int) -> None:
    wounds = min(wounds, health - 1)
    result = hero_physical_attack(REN, dice, 5, Target(health, wounds))
    assert result.critical == (result.successes >= 3)
    assert result.wounds == result.successes + int(result.critical)
    assert result.defeated == (wounds + result.wounds >= health)
    assert result.threat == int(result.wounds > 0) + int(result.critical) + int(result.defeated)


def test_targets_and_requests_that_cannot_be() -> None:
    with pytest.raises(RuleError, match="target.health"):
        Target(health=0)
    with pytest.raises(RuleError, match="target.wounds"):
        Target(health=2, wounds=2)
    with pytest.raises(RuleError, match="required"):
        hero_psychic_attack(REN, (5,), 5, required=0, effect_wounds=1, target=Target(1))
    with pytest.raises(RuleError, match="hits"):
        enemy_physical_attack(REN, -1, 5, (5,))


def test_renaissance_threat_level_causes() -> None:
    # Renaissance "Threat Level": +1 for each cause of one Action, -2 when KO.
    assert threat_gain(REN, ThreatCauses(wounds=1)) == 1
    assert threat_gain(REN, ThreatCauses(wounds=2, unblockable=True)) == 2
    assert threat_gain(REN, ThreatCauses(wounds=4, critical=True)) == 2
    assert threat_gain(REN, ThreatCauses(wounds=4, critical=True, defeated=1)) == 3
    assert threat_gain(REN, ThreatCauses(healed=True)) == 1
    assert threat_gain(REN, ThreatCauses(wounds=3, unblockable=True, critical=True, defeated=1, healed=True)) == 5
    assert KO_THREAT == -2


def test_unblockable_wounds_of_a_psychic_attack_raise_the_threat_as_a_physical_attacks_do() -> None:
    # Renaissance "Threat Level": +1 when "the Hero inflicts one or more Unblockable Wounds with a single
    # Action", an attack of any kind. A spell of 2 wounds (2 successes needed) on a target of Health 3.
    def threat(dice: tuple[int, ...], unblockable: bool, edition: Edition = REN) -> int:
        return hero_psychic_attack(edition, dice, 5, required=2, effect_wounds=2, target=Target(3),
                                   unblockable=unblockable).threat  # fmt: skip

    assert threat((6, 5, 2), unblockable=False) == 1  # wounds
    assert threat((6, 5, 2), unblockable=True) == 2  # wounds, Unblockable
    assert threat((6, 2, 2), unblockable=True) == 0  # one success short: no wound at all
    assert threat((6, 5, 2), unblockable=True, edition=CLASSIC) == 1  # first edition: wound only


def test_first_edition_perilium_counts_wound_and_kill_only() -> None:
    # First edition "Perilium": Wound +1, Kill +1, out of action -2.
    assert threat_gain(CLASSIC, ThreatCauses(wounds=3, defeated=1)) == 2
    assert threat_gain(CLASSIC, ThreatCauses(wounds=3, critical=True, unblockable=True, healed=True)) == 1


def test_the_dial_shows_no_value_below_zero() -> None:
    assert adjust(5, KO_THREAT) == 3
    assert adjust(1, KO_THREAT) == 0


def test_the_dial_stops_at_its_top() -> None:
    # The rulebooks give the Perilium no highest value: the table's dial stops at 99, as it stops at 0.
    assert MAX_THREAT == 99
    assert adjust(97, 2) == 99
    assert adjust(98, 5) == 99
    assert adjust(0, 10**26) == 99
    assert adjust(MAX_THREAT, KO_THREAT) == 97


@given(dice=st.lists(st.integers(1, 6), min_size=1, max_size=6), effect=st.integers(0, 3), defense=st.integers(2, 6))
def test_a_first_edition_prayer_applies_its_effect_once_per_success(dice: list[int], effect: int, defense: int) -> None:
    """First edition "Prayers": no difficulty, "their effect is applied for each successful attack"."""
    result = hero_prayer(Edition.CLASSIC, dice, defense, effect, Target(health=99))
    assert result.successes == sum(1 for d in dice if d >= defense)
    assert result.wounds == effect * result.successes and not result.critical
