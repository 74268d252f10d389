"""The held-out check's verdict: each held-out die read with and without the profile, judged by a sign test."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from assistant.vision.heldout import ENOUGH, chance, compared

READ = st.sampled_from(["right", "misread", "unread"])


def test_a_profile_that_reads_most_of_eight_unread_dice_is_not_judged_worse_for_two_misread() -> None:
    """The marbled d8's case: the reader without a profile reads nearly none of 8 held-out dice, the profile reads
    half of them and misreads three: too few dice to say, never "worse"."""
    none = ["unread"] * 7 + ["misread"]
    mine = ["right"] * 4 + ["misread"] * 3 + ["unread"]  # 4 more right, 2 more misread: once "reads worse than none"
    judged = compared(none, mine, 2)
    assert (judged.better, judged.worse, judged.judged) == (5, 3, "unsure")
    assert str(judged).endswith(": too few dice to say (photograph every face more times to be sure)")
    assert "(8 dice)" in str(judged) and "5 read better with it, 3 worse" in str(judged)


def test_many_dice_read_better_help_surely_and_as_many_worse_are_said_worse() -> None:
    none = ["unread"] * 30 + ["right"] * 10
    mine = ["right"] * 28 + ["misread"] * 2 + ["right"] * 10
    assert compared(none, mine, 8).judged == "helps"
    assert str(compared(none, mine, 8)).endswith(": the profile helps")
    assert compared(mine, none, 8).judged == "worse"
    assert "this profile reads worse than none; do not use it" in str(compared(mine, none, 8))


def test_a_misread_where_none_read_nothing_counts_against_the_profile() -> None:
    """A wrong reading is worse than none: unread -> misread is a die read worse."""
    judged = compared(["unread"] * 40, ["misread"] * 12 + ["unread"] * 28, 8)
    assert (judged.better, judged.worse, judged.judged) == (0, 12, "worse")


def test_enough_dice_read_alike_are_the_same_either_way() -> None:
    same = ["right"] * (ENOUGH - 2) + ["unread", "misread"]
    assert compared(same, list(reversed(same)), 4).judged == "same"  # two dice swapped: one better, one worse
    assert compared(same[:6], same[:6], 1).judged == "unsure"


@given(st.lists(st.tuples(READ, READ), max_size=60))
def test_the_verdict_turns_over_with_the_readers_and_is_sure_only_past_chance(pairs: list[tuple[str, str]]) -> None:
    none, mine = [a for a, _ in pairs], [b for _, b in pairs]
    forward, back = compared(none, mine, 1), compared(mine, none, 1)
    assert (forward.better, forward.worse) == (back.worse, back.better)
    turned = {"helps": "worse", "worse": "helps", "same": "same", "unsure": "unsure"}
    assert back.judged == turned[forward.judged]
    assert 0 < chance(forward.better, forward.worse) <= 1
    if forward.better + forward.worse < 6:  # 5 dice all one way: chance 1 in 16, not sure
        assert not forward.sure
