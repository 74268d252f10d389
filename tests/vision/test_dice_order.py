"""The dice of a reading come in the order a player counts them: row by row from the top, left to right."""

from __future__ import annotations

from typing import cast

from hypothesis import given
from hypothesis import strategies as st

from assistant.vision.dice import Die, in_rows


def die(x: float, y: float, side: int = 60, value: int = 1) -> Die:
    return Die("d6", value, 0.9, (int(x - side / 2), int(y - side / 2), side, side))


def test_a_row_of_dice_a_little_uneven_is_counted_left_to_right() -> None:
    # the middle die lies 20 px higher than its neighbours (a third of a die): the same row
    row = [die(100, 200, value=1), die(400, 220, value=3), die(250, 180, value=2)]
    assert [d.value for d in in_rows(row)] == [1, 2, 3]
    # by height alone the middle one would come first: [2, 1, 3]
    assert [d.value for d in sorted(row, key=lambda d: d.centre[1])] == [2, 1, 3]


def test_two_rows_are_counted_top_row_first() -> None:
    dice = [die(300, 320, value=5), die(100, 110, value=1), die(500, 90, value=2), die(80, 300, value=4)]
    assert [d.value for d in in_rows(dice)] == [1, 2, 4, 5]


@given(st.lists(st.tuples(st.integers(0, 12), st.integers(-17, 17)), min_size=1, max_size=8, unique_by=lambda t: t[0]),
       st.integers(1, 4))
def test_rows_a_die_apart_stay_rows_whatever_the_jitter(spots: list[tuple[int, int]], rows: int) -> None:
    """Dice of 60 px laid in `rows` rows 90 px apart, each up to 17 px off its row's line: every die is
    counted once, rows from the top, each left to right."""
    dice = [die(30 + 70 * column, 100 + 90 * row + jitter, value=row + 1)
            for row in range(rows) for column, jitter in spots]
    ordered = in_rows(list(reversed(dice)))
    assert sorted(ordered, key=id) == sorted(dice, key=id)
    assert [d.value for d in ordered] == sorted(cast(int, d.value) for d in dice)  # top row first
    for row in range(1, rows + 1):
        xs = [d.centre[0] for d in ordered if d.value == row]
        assert xs == sorted(xs)


def test_the_reader_hands_out_a_row_of_dice_left_to_right() -> None:
    """Four rendered dice laid in a row, not quite level (the second and fourth lie higher than the
    first): read, they come left to right, as the table counts "die 2"."""
    import numpy as np

    from assistant.vision.reader import DiceReader
    from assistant.vision.render import scene

    grey = (110, 110, 110)
    frame = np.full((480, 640, 3), grey, np.uint8)
    lefts, drops = (10, 165, 320, 475), (30, 0, 40, 10)
    for n, (x, y) in enumerate(zip(lefts, drops)):
        shot = scene(np.random.default_rng(40 + n), (150, 150), count=1, style="pips", die_side=60, background=grey)
        frame[150 + y:300 + y, x:x + 150] = shot.image
    dice = DiceReader().read(frame).dice
    assert len(dice) == 4
    assert [d.centre[0] for d in dice] == sorted(d.centre[0] for d in dice)
    assert sorted(dice, key=lambda d: d.centre[1])[0] is not dice[0]  # top to bottom alone would start elsewhere
