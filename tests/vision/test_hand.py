"""A hand resting on the tray (reaching in from an edge) is not read as a die, and the dice clear of it still are."""

from __future__ import annotations

import numpy as np
import pytest

from assistant.vision.matching import match
from assistant.vision.reader import DiceReader
from assistant.vision.render import lay_hand, scene


def covered(mask: np.ndarray, box: list[int], margin: int = 0) -> float:
    """How much of `box` (grown by `margin` pixels) the hand covers, 0..1."""
    x, y, w, h = box
    return float(mask[max(0, y - margin) : y + h + margin, max(0, x - margin) : x + w + margin].max())


@pytest.mark.parametrize("first", [880000, 880010])
def test_a_hand_on_the_tray_is_no_die_and_the_dice_beside_it_are_read(first: int) -> None:
    reader = DiceReader()
    clear = found = right = 0
    for seed in range(first, first + 10):
        rng = np.random.default_rng(seed)
        shot = scene(rng, (640, 480))
        image, mask = lay_hand(shot.image, rng)
        dice = reader.read(image).dice
        labels = [(d["kind"], d["value"], d["box"]) for d in shot.dice]
        pairs = match([box for _, _, box in labels], [d.box for d in dice])
        assert len(pairs) == len(dice), seed  # every die reported is a die: none on the hand, none elsewhere
        for i, (kind, value, box) in enumerate(labels):
            if covered(mask, box, 8) < 0.05:  # clear of the hand, with a margin: found, and (nearly all) read
                clear += 1
                found += i in pairs
                right += i in pairs and (dice[pairs[i]].kind, dice[pairs[i]].value) == (kind, value)
    assert clear >= 15 and found == clear and right >= 0.9 * clear
