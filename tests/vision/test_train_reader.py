"""calibration/train_reader.py: what the face network learns as "not a die" in pictures not all labelled."""

from __future__ import annotations

import importlib.util
import json
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


def test_a_rendered_nova_d8_is_learned_with_its_symbol_and_a_numeral_die_with_none(tmp_path: Path) -> None:
    from assistant.files import write_file
    from assistant.vision.images import encoded
    from assistant.vision.read import CLASSES, SYMBOLS
    from assistant.vision.render import scene

    t = train_reader()
    (tmp_path / "images").mkdir()
    shot = scene(np.random.default_rng(2), (320, 240), count=4, style="astro")
    write_file(tmp_path / "images" / "a.png", encoded(shot.image, "a.png"), "the picture")
    dice = [{"kind": d["kind"], "value": d["value"], "box": d["box"]} | ({"symbol": d["symbol"]} if i % 2 else {})
            for i, d in enumerate(shot.dice)]  # every other die's symbol left out: a plain numeral d8
    (tmp_path / "manifest.jsonl").write_text(json.dumps({"image": "images/a.png", "dice": dice}) + "\n")
    images, found, complete = t.labelled(tmp_path, lazy=True)
    assert complete == [True] and images[0].shape == shot.image.shape
    boxes = [d["box"] for d in shot.dice]  # the same boxes as `dice`, typed
    for d in found:
        i = min(range(len(boxes)), key=lambda k: (boxes[k][0] + boxes[k][2] / 2 - d.centre[0]) ** 2 +
                (boxes[k][1] + boxes[k][3] / 2 - d.centre[1]) ** 2)
        if d.label:
            assert CLASSES[d.label] == f"d8:{dice[i]['value']}"
            assert SYMBOLS[d.symbol] == (dice[i].get("symbol") or "none")
    assert {SYMBOLS[d.symbol] for d in found if d.label} - {"none"}  # some symbol was learned
