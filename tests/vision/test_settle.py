"""Settle detection: exactly one reading per roll, only once the frames stop changing."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.vision.settle import SettleDetector
from assistant.vision.sources import RenderedSource


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 1000), st.integers(1, 4), st.integers(4, 8), st.integers(1, 3))
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
        # the first still frame still differs from the last tumbling one; then `wait` frames of rest
        assert at == roll * period + moving + wait


def test_nothing_fires_while_everything_keeps_moving() -> None:
    source = RenderedSource(seed=1, rolls=2, moving=10, still=0, size=(320, 240))
    detector = SettleDetector()
    assert not any(detector.update(f) for f in source.frames())
