"""The renderer's labels are exact: every labelled box holds its die, and seeds repeat."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.vision.dice import ASTRO_BY_VALUE, FACES
from assistant.vision.render import Label, scene, tile


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**31 - 1), st.sampled_from([None, "pips", "numerals", "astro"]))
def test_labels_are_in_range_and_boxes_hold_the_dice(seed: int, style: str | None) -> None:
    shot = scene(np.random.default_rng(seed), (320, 240), style=style, blur=0.0, noise=0.0)
    h, w = shot.image.shape[:2]
    for die in shot.dice:
        assert 1 <= die["value"] <= FACES[die["kind"]]
        if die["style"] == "astro":
            assert die["kind"] == "d8" and die["symbol"] == ASTRO_BY_VALUE[die["value"]]
        x, y, bw, bh = die["box"]
        assert 0 <= x and 0 <= y and x + bw <= w and y + bh <= h and bw > 4 and bh > 4
        # the box holds something unlike the background: the die
        inside = shot.image[y : y + bh, x : x + bw].reshape(-1, 3).astype(int)
        assert np.ptp(inside, axis=0).max() > 30
    for a in range(len(shot.dice)):
        for b in range(a + 1, len(shot.dice)):
            ax, ay, aw, ah = shot.dice[a]["box"]
            bx, by, bw_, bh_ = shot.dice[b]["box"]
            # dice never sit on top of each other: centres are apart
            assert abs((ax + aw / 2) - (bx + bw_ / 2)) + abs((ay + ah / 2) - (by + bh_ / 2)) > 0.3 * min(aw, bw_)


def test_the_same_seed_renders_the_same_picture() -> None:
    a = scene(np.random.default_rng(7))
    b = scene(np.random.default_rng(7))
    assert np.array_equal(a.image, b.image) and a.dice == b.dice


def test_a_tile_is_one_die_cropped_close() -> None:
    t = tile(np.random.default_rng(3), style="astro")
    assert t.image.shape == (90, 90, 3) and len(t.dice) == 1 and t.dice[0]["box"] == [0, 0, 90, 90]


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**31 - 1))
def test_touching_dice_each_lie_against_another_and_apart_ones_never_do(seed: int) -> None:
    """`touching=True`: every die has a neighbour whose centre is 1.2 to 1.4 sides away (their sides
    meet, or nearly); by default no two dice come closer than 1.6 sides. Measured between the labelled
    boxes' centres with the camera straight above (no tilt: a slanted camera moves them by up to about
    0.15 of a side, and once made a touching pair 1.52 sides apart)."""
    def gaps(shot_dice: list[Label]) -> list[float]:
        centres = [(d["box"][0] + d["box"][2] / 2, d["box"][1] + d["box"][3] / 2) for d in shot_dice]
        return [min(np.hypot(cx - ox, cy - oy) for j, (ox, oy) in enumerate(centres) if j != i) / 60
                for i, (cx, cy) in enumerate(centres)]  # in sides of these 60 px dice

    touching = scene(np.random.default_rng(seed), (640, 480), count=4, style="pips", die_side=60, tilt=0.0,
                     touching=True)
    apart = scene(np.random.default_rng(seed), (640, 480), count=4, style="pips", die_side=60, tilt=0.0)
    assert len(touching.dice) >= 2 and len(apart.dice) >= 2
    assert max(gaps(touching.dice)) <= 1.45
    assert min(gaps(apart.dice)) >= 1.55


@pytest.mark.parametrize("kind", ["d6", "d8"])
def test_a_kind_asked_for_is_the_only_kind_drawn(kind: str) -> None:
    rng = np.random.default_rng(11)
    kinds = {die["kind"] for _ in range(20) for die in scene(rng, (320, 240), kind=kind).dice}
    assert kinds == {kind}
