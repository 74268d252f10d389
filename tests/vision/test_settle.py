"""Settle detection: exactly one reading per roll, only once the frames stop changing."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.vision.render import scene
from assistant.vision.settle import SettleDetector
from assistant.vision.sources import RenderedSource


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 1000), st.integers(1, 4), st.integers(4, 8), st.integers(2, 4))
def test_one_reading_per_roll_after_the_dice_lie_still(seed: int, moving: int, still: int, wait: int) -> None:
    source = RenderedSource(seed=seed, rolls=3, moving=moving, still=still, size=(320, 240))
    detector = SettleDetector(still_frames=wait)
    fired = []
    step = 0
    while (frame := source.read()) is not None:
        if detector.update(frame):
            fired.append(step)
            assert source.labels, "never read while the dice tumble"
        step += 1
    period = moving + still
    assert len(fired) == 3
    for roll, at in enumerate(fired):
        # the first still frame differs from the last tumbling one: `wait` frames of rest from it on
        assert at == roll * period + moving + wait - 1


def test_nothing_fires_while_everything_keeps_moving() -> None:
    source = RenderedSource(seed=1, rolls=2, moving=10, still=0, size=(320, 240))
    detector = SettleDetector()
    assert not any(detector.update(f) for f in source.frames())


def sliding(size: int, step: int, noise: float = 0.0) -> list[np.ndarray]:
    """4 frames of dice tumbling, then one rendered die `size` pixels across sliding `step` pixels a frame
    over still felt for 20 frames (frames 4 to 23), then lying still for 8 (24 to 31); 640 x 480."""
    shot = scene(np.random.default_rng(3), (640, 480), 1, noise=0.0)
    x, y, w, h = (int(v) for v in shot.dice[0]["box"])
    die = cv2.resize(shot.image[y : y + h, x : x + w], (size, size))
    felt = scene(np.random.default_rng(3), (640, 480), 0, noise=0.0).image
    frames = [scene(np.random.default_rng(seed), (640, 480), 3, noise=0.0).image for seed in range(4)]
    for i in range(20):
        frame = felt.copy()
        frame[200 : 200 + size, 50 + step * i : 50 + step * i + size] = die
        frames.append(frame)
    frames += [frames[-1]] * 8
    grain = np.random.default_rng(9)
    return [np.clip(f + grain.normal(0, noise, f.shape), 0, 255).astype(np.uint8) if noise else f for f in frames]


@pytest.mark.parametrize(("size", "step"), [(49, 2), (49, 4), (49, 8), (70, 2), (70, 4), (110, 2), (110, 8)])
def test_a_die_sliding_slowly_is_read_where_it_stops_not_on_its_way(size: int, step: int) -> None:
    """A die 49 to 110 pixels across sliding 2 to 8 pixels a frame changed under 0.2% of the view from one
    frame to the next: it was read at frame 7, on its way, and never where it stopped."""
    detector = SettleDetector()
    fired = [i for i, frame in enumerate(sliding(size, step)) if detector.update(frame)]
    assert fired == [25] or fired == [24] and step <= 2  # 3 frames at rest (a 2-pixel step at 24 is under a pixel)


def test_sensor_noise_and_flickering_light_do_not_hold_the_reading_back() -> None:
    """A still view under sensor noise, JPEG's and a light flickering by 12 grey levels from frame to frame
    (which the frame-to-frame comparison took for motion for ever: the dice were never read)."""
    view = scene(np.random.default_rng(5), (640, 480), 5, noise=0.0).image.astype(np.float32)
    grain = np.random.default_rng(0)
    detector = SettleDetector()
    fired = []
    for i in range(12):
        lit = np.clip(view + grain.normal(0, 6, view.shape) + (12 if i % 2 else -12), 0, 255).astype(np.uint8)
        frame = cv2.imdecode(cv2.imencode(".jpg", lit, [cv2.IMWRITE_JPEG_QUALITY, 70])[1], cv2.IMREAD_COLOR)
        assert frame is not None
        if detector.update(frame):
            fired.append(i)
    assert fired == [2]  # three frames in a row, the first included; once


def test_three_frames_alike_are_a_view_at_rest() -> None:
    """`watch` says a view is read once 3 frames in a row look the same: it took 4 (the first counted as motion)."""
    frame = scene(np.random.default_rng(2), (640, 480), 3, noise=0.0).image
    detector = SettleDetector()
    assert [detector.update(frame) for _ in range(3)] == [False, False, True]
    with pytest.raises(ValueError, match="at least 2 frames"):
        SettleDetector(still_frames=1)
