"""Tests, Success Threshold, golden rules, Astro Symbols and re-rolls, with the rulebooks' examples."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from assistant.rules.dice import (
    DEFAULT_THRESHOLD,
    Astro,
    AstroCount,
    DieKind,
    Reroll,
    RerollSource,
    Roll,
    astro,
    astro_triggers,
    dice_count,
    die_for,
    is_success,
    rerolled,
    successes,
)
from assistant.rules.edition import Edition
from assistant.rules.errors import RuleError

REN, CLASSIC = Edition.RENAISSANCE, Edition.CLASSIC
d8 = st.integers(1, 8)


def test_default_threshold_is_five() -> None:
    # Renaissance "Golden Rules": a Test with no Success Threshold has 5; first edition "5+".
    assert DEFAULT_THRESHOLD == 5
    assert [is_success(REN, v) for v in range(2, 8)] == [False, False, False, True, True, True]
    assert [is_success(CLASSIC, v) for v in range(1, 7)] == [False, False, False, False, True, True]


@pytest.mark.parametrize("first, second, third", list(itertools.product(range(5, 9), range(5, 9), range(1, 5))))
def test_sofia_picks_the_lock(first: int, second: int, third: int) -> None:
    # Renaissance "Success Threshold" example: 3 dice (her Characteristic), two 5+ -> 2 successes.
    assert dice_count(3) == 3
    assert successes(REN, (first, second, third)) == 2


def test_valerio_sword_on_the_lancer_counts_three_successes() -> None:
    # Renaissance "Success Threshold" example: 4 dice against Defense 5: 6, 6, 5, 2 -> 3 successes.
    assert successes(REN, (6, 6, 5, 2), threshold=5) == 3


def test_golden_rules_natural_one_fails_and_eight_succeeds_whatever_the_modifier() -> None:
    # Renaissance "Golden Rules".
    assert not is_success(REN, 1, threshold=2, modifier=+5)
    assert is_success(REN, 8, threshold=12, modifier=-5)
    # the first edition has no such rule
    assert is_success(CLASSIC, 1, threshold=2, modifier=+1)


@given(value=d8, threshold=st.integers(1, 12), modifier=st.integers(-3, 3))
def test_golden_rules_hold_for_every_die(value: int, threshold: int, modifier: int) -> None:
    result = is_success(REN, value, threshold, modifier)
    if value == 1:
        assert not result
    elif value == 8:
        assert result
    else:
        assert result == (value + modifier >= threshold)


def test_blessed_and_cursed_change_every_die() -> None:
    # Status Effects (first edition): Blessed +1 to all the dice, Cursed -1 to all the dice.
    dice = (4, 4, 5, 2)
    assert successes(REN, dice) == 1
    assert successes(REN, dice, modifier=+1) == 3
    assert successes(REN, dice, modifier=-1) == 0
    assert successes(CLASSIC, (4, 6, 5), modifier=-1) == 1


@given(dice=st.lists(d8, max_size=10), threshold=st.integers(2, 9), modifier=st.integers(-2, 1))
def test_a_better_modifier_never_loses_a_success(dice: list[int], threshold: int, modifier: int) -> None:
    assert successes(REN, dice, threshold, modifier + 1) >= successes(REN, dice, threshold, modifier)
    assert 0 <= successes(REN, dice, threshold, modifier) <= len(dice)


def test_dice_count_follows_the_characteristic_and_its_modifiers() -> None:
    assert dice_count(4) == 4
    assert dice_count(4, +1) == 5  # e.g. a Keyword bonus die
    assert dice_count(2, -3) == 0  # never fewer than none


def test_first_edition_rolls_d6_for_basic_classes_and_d8_for_specialisations() -> None:
    # First edition "Heroes", Mastery: D6 for basic classes and D8 for specialisation.
    assert die_for(CLASSIC) is DieKind.D6
    assert die_for(CLASSIC, specialised=True) is DieKind.D8
    assert die_for(REN) is DieKind.D8


def test_astro_symbols_of_the_d8() -> None:
    # Renaissance "Dice": Sun on 8, 6, 4; Star on 5, 7; Moon on 1; nothing on 2 and 3.
    assert astro((8, 6, 4)) == AstroCount(sun=3)
    assert astro((5, 7)) == AstroCount(star=2)
    assert astro((1,)) == AstroCount(moon=1)
    assert astro((2, 3)) == AstroCount()
    assert astro((6, 6, 5, 2)).as_dict() == {"sun": 2, "star": 1, "moon": 0}
    # the symbols are on the faces: modifiers do not change them; first-edition dice have none
    assert astro((6, 6, 5, 2), CLASSIC) == AstroCount()


def test_rebeccas_arcane_arrow_rolls_two_moons() -> None:
    # Renaissance "Astro Symbols" example: 7, 4, 1, 1 -> 2 Moons, and only 1 success against 5.
    assert astro((7, 4, 1, 1)).moon == 2
    assert successes(REN, (7, 4, 1, 1), threshold=5) == 1


def test_effects_that_need_a_combination_of_symbols() -> None:
    # Renaissance "Astro Symbols": all the symbols required; applies for each set the Hero can use.
    sun_and_star = AstroCount(sun=1, star=1)
    assert astro_triggers(astro((6, 5, 2)), sun_and_star) == 1
    assert astro_triggers(astro((6, 4, 2)), sun_and_star) == 0  # two Suns, no Star
    assert astro_triggers(astro((8, 6, 5, 7)), sun_and_star) == 2
    two_moons = AstroCount(moon=2)
    assert astro_triggers(astro((1, 3, 5)), two_moons) == 0
    assert astro_triggers(astro((1, 1, 5)), two_moons) == 1
    assert astro_triggers(astro((1, 1, 1, 1, 1)), two_moons) == 2
    with pytest.raises(RuleError):
        astro_triggers(astro((1,)), AstroCount())


@given(dice=st.lists(d8, max_size=12))
def test_every_face_but_two_and_three_carries_one_symbol(dice: list[int]) -> None:
    count = astro(dice)
    assert count.sun + count.star + count.moon == sum(1 for v in dice if v not in (2, 3))
    assert astro_triggers(count, AstroCount(sun=1)) == count.sun


def test_sofia_rerolls_against_the_dodging_slinger() -> None:
    # Renaissance "Dice Re-roll" example: Star 5, Sun 6, 3 against Defense 5 -> 2 successes.
    roll = Roll.of((5, 6, 3))
    assert successes(REN, roll.dice) == 2
    # the Slinger's Dodge first forces a re-roll of a success: the 6 becomes a 2
    roll = roll.reroll(1, 2, RerollSource.ENEMY)
    assert roll.dice == (5, 2, 3)
    # then her Lucky Token may re-roll that same die (its first re-roll was the Enemy's): a 7
    assert roll.may_reroll(1, RerollSource.HERO)
    roll = roll.reroll(1, 7, RerollSource.HERO)
    assert roll.dice == (5, 7, 3)
    assert successes(REN, roll.dice) == 2  # 2 Successes: 2 Wounds to the Slinger
    assert astro(roll.dice) == AstroCount(star=2)


def test_a_die_the_hero_rerolled_cannot_be_rerolled_again() -> None:
    roll = Roll.of((3, 4)).reroll(0, 2, RerollSource.HERO)
    assert not roll.may_reroll(0, RerollSource.HERO)
    with pytest.raises(RuleError, match="die 0 was re-rolled by the Hero.s own .* may not be re-rolled again"):
        roll.reroll(0, 6, RerollSource.HERO)
    assert roll.may_reroll(1, RerollSource.HERO)  # the other die is still fresh


def test_enemy_forced_rerolls_come_first() -> None:
    roll = Roll.of((3, 6)).reroll(0, 4, RerollSource.HERO)
    assert not roll.may_reroll(1, RerollSource.ENEMY)
    with pytest.raises(RuleError):
        roll.reroll(1, 1, RerollSource.ENEMY)


@given(
    dice=st.lists(d8, min_size=1, max_size=6),
    steps=st.lists(st.tuples(st.integers(0, 5), d8, st.sampled_from(list(RerollSource))), max_size=12),
)
def test_no_die_is_rerolled_more_than_the_rules_allow(
    dice: list[int], steps: list[tuple[int, int, RerollSource]]
) -> None:
    roll = Roll.of(dice)
    accepted: list[RerollSource] = []
    for index, value, source in steps:
        if roll.may_reroll(index, source):
            roll = roll.reroll(index, value, source)
            accepted.append(source)
        else:
            with pytest.raises(RuleError):
                roll.reroll(index, value, source)
    for history in roll.rerolls:
        assert len(history) <= 2
        if len(history) == 2:
            assert history[0] is RerollSource.ENEMY
    assert len(roll.dice) == len(dice)
    # once a Hero re-roll happened, no Enemy re-roll was accepted after it
    if RerollSource.HERO in accepted:
        assert RerollSource.ENEMY not in accepted[accepted.index(RerollSource.HERO) :]


def test_dice_outside_the_die_are_refused_naming_the_die() -> None:
    with pytest.raises(RuleError, match=r"dice\[2\]"):
        Roll.of((3, 4, 9))
    with pytest.raises(RuleError, match=r"dice\[0\]"):
        Roll.of((7,), faces=6)


def test_symbols_enum_covers_the_three_symbols() -> None:
    assert {s.value for s in Astro} == {"sun", "star", "moon"}


def test_the_dice_reroll_example_as_the_table_says_it() -> None:
    # Renaissance "Dice Re-roll": Star 5, Sun 6, 3; Dodge re-rolls the 6 to a 2; the Lucky Token that die to Star 7
    steps = [Reroll(1, 2, RerollSource.ENEMY), Reroll(1, 7, RerollSource.HERO)]
    roll = rerolled(REN, (5, 6, 3), steps)
    assert roll.dice == (5, 7, 3)
    assert roll.rerolls == ((), (RerollSource.ENEMY, RerollSource.HERO), ())
    assert successes(REN, roll.dice, 5) == 2


@pytest.mark.parametrize(
    ("steps", "field", "rule"),
    [
        ([Reroll(0, 2, RerollSource.HERO), Reroll(0, 6, RerollSource.HERO)], r"rerolls\[1\]\.die",
         "may not be re-rolled again in the same Test"),
        ([Reroll(0, 2, RerollSource.HERO), Reroll(0, 6, RerollSource.ENEMY)], r"rerolls\[1\]\.die", "Heroes Attacks"),
        ([Reroll(0, 2, RerollSource.ENEMY), Reroll(0, 3, RerollSource.ENEMY), Reroll(0, 4, RerollSource.HERO)],
         r"rerolls\[2\]\.die", "re-rolled twice"),
        ([Reroll(3, 2, RerollSource.HERO)], r"rerolls\[0\]\.die", "there is no die 3"),
        ([Reroll(-1, 2, RerollSource.HERO)], r"rerolls\[0\]\.die", "there is no die -1"),
        ([Reroll(0, 9, RerollSource.HERO)], r"rerolls\[0\]\.value", "a d8 has no face 9"),
    ],
)
def test_a_reroll_the_book_forbids_is_refused_naming_it_and_the_rule(steps: list[Reroll], field: str, rule: str) -> None:
    with pytest.raises(RuleError, match=f"^{field}: .*{rule}"):
        rerolled(REN, (5, 6, 3), steps)


def test_an_enemy_may_reroll_a_die_twice_and_then_the_hero_may_not() -> None:
    twice = rerolled(REN, (6, 6), [Reroll(0, 5, RerollSource.ENEMY), Reroll(0, 6, RerollSource.ENEMY)])
    assert twice.dice == (6, 6) and twice.rerolls[0] == (RerollSource.ENEMY, RerollSource.ENEMY)
    assert not twice.may_reroll(0, RerollSource.HERO)
    assert twice.may_reroll(1, RerollSource.HERO)


def test_the_first_edition_sets_no_limit_on_rerolls() -> None:
    # first edition "Re-roll" token, Inspire, Iron will: each re-rolls a die; its book says nothing of a die twice
    steps = [Reroll(0, 2, RerollSource.HERO), Reroll(0, 4, RerollSource.HERO), Reroll(1, 1, RerollSource.ENEMY)]
    assert rerolled(CLASSIC, (5, 6), steps, faces=6).dice == (4, 1)
    with pytest.raises(RuleError, match="d6 has no face 7"):
        rerolled(CLASSIC, (5, 6), [Reroll(0, 7, RerollSource.HERO)], faces=6)


@given(
    dice=st.lists(d8, min_size=1, max_size=6),
    steps=st.lists(st.builds(Reroll, st.integers(-1, 6), st.integers(0, 9), st.sampled_from(list(RerollSource))),
                   max_size=10),
    threshold=st.integers(1, 9),
)
def test_rerolls_end_as_the_test_on_the_final_dice_or_are_refused(dice: list[int], steps: list[Reroll],
                                                                  threshold: int) -> None:
    """Whatever the table says: the roll accepted is every re-roll applied in order, each die re-rolled at most as
    the book allows, and the Test is computed on the final dice; a refusal names the re-roll at fault."""
    expected = list(dice)
    counts = [0] * len(dice)
    try:
        roll = rerolled(REN, dice, steps)
    except RuleError as refused:
        assert refused.field.startswith("rerolls[")
        number = int(refused.field[len("rerolls["):].split("]")[0])
        rerolled(REN, dice, steps[:number])  # every re-roll before the one refused is allowed
        return
    for step in steps:
        expected[step.die] = step.value
        counts[step.die] += 1
    assert list(roll.dice) == expected
    assert all(count <= 2 for count in counts)
    for history in roll.rerolls:
        assert len(history) < 2 or history[0] is RerollSource.ENEMY
    assert successes(REN, roll.dice, threshold) == successes(REN, tuple(expected), threshold)
