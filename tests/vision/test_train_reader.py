"""calibration/train_reader.py: what the face network learns as "not a die" in pictures not all labelled."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import numpy as np

from assistant.vision.find import Found

ROOT = Path(__file__).resolve().parents[2]


def train_reader() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_reader", ROOT / "calibration" / "train_reader.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Finds:
    """A finder that finds what it is given."""

    def __init__(self, found: list[Found]) -> None:
        self.found = found

    def find(self, image: np.ndarray) -> list[Found]:
        return self.found


def test_weak_finds_far_from_every_labelled_die_are_not_a_die_and_the_others_are_left_alone() -> None:
    t = train_reader()
    labels = np.array([[100, 100, 40, 40]], np.float32)  # a labelled die, its centre at (120, 120)
    far_weak = Found((400, 300, 40, 40), t.UNLABELLED - 0.1)  # a hand's knuckle, say
    far_sure = Found((400, 100, 40, 40), t.UNLABELLED + 0.1)  # most often a die left unlabelled
    near = Found((125, 105, 40, 40), 0.2)  # the labelled die found again, a little off
    beside = Found((100 + 40 * t.FAR / 2 - 30, 100, 40, 40), 0.2)  # its centre inside the grown box: maybe the die
    out = t.far(np.zeros((480, 640, 3), np.uint8), labels, 7, Finds([far_weak, far_sure, near, beside]))
    assert [(d.image, d.centre, d.side, d.label) for d in out] == [(7, (420.0, 320.0), 40.0, 0)]
