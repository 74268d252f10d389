"""Read: what each cropped die shows, by the face network (`models/reader.onnx`, or a table's profile).

The network takes crops (crop.py) and gives, per crop, scores over CLASSES (not a die, d6 1..6, d8
1..8) and over SYMBOLS (the astro symbol on a Nova Aetas d8's top face, or none), as probabilities
here. It was trained by `calibration/train_reader.py`; `dice learn` fine-tunes a copy of it on a
table's own dice (calibration/ at the table: learn.py), and a profile is that copy.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from assistant.vision.crop import SIDE
from assistant.vision.network import load

CLASSES = ("none",) + tuple(f"d6:{v}" for v in range(1, 7)) + tuple(f"d8:{v}" for v in range(1, 9))
SYMBOLS = ("none", "sun", "star", "moon")
# A second look at a die the network is not sure of: the crop also turned a quarter, a half and three quarters.
# With it mixed-oblique-d6 read 86.74 -> 87.87 % right (2 more misread), the tray 78.25 -> 79.55 %; a mirrored
# second look read fewer right.
TURNS = (1, 2, 3)  # quarter turns
MODEL = Path(__file__).resolve().parent / "models" / "reader.onnx"
# What `scores` feeds the network (any number of crops), and the shape it reads back (network.load tries them)
FITS = tuple(((n, 3, SIDE, SIDE), (n, len(CLASSES) + len(SYMBOLS))) for n in (1, 2))


def softmax(z: np.ndarray) -> np.ndarray:
    e = np.exp(z - z.max(axis=1, keepdims=True))
    out: np.ndarray = e / e.sum(axis=1, keepdims=True)
    return out


@dataclass(frozen=True)
class Scores:
    """Per crop: the chance of each of CLASSES and of each of SYMBOLS."""

    classes: np.ndarray  # (N, len(CLASSES))
    symbols: np.ndarray  # (N, len(SYMBOLS))


class FaceNet:
    """The face network: the shipped one (`MODEL`), or a profile's (its ONNX bytes; `name`: the profile's file)."""

    def __init__(self, path: Path | bytes | None = None, name: str = "") -> None:
        self.net = load(MODEL if path is None else path, "face network", name, FITS)

    def scores(self, crops: np.ndarray) -> Scores:
        """Scores of an (N, 3, SIDE, SIDE) batch of crops (crop.batch)."""
        if len(crops) == 0:
            return Scores(np.zeros((0, len(CLASSES)), np.float32), np.zeros((0, len(SYMBOLS)), np.float32))
        out = self.net.run(crops)
        return Scores(softmax(out[:, : len(CLASSES)]), softmax(out[:, len(CLASSES) :]))

    def again(self, crops: np.ndarray, scores: Scores, which: np.ndarray) -> Scores:
        """`scores` where the crops `which` are read again, turned by TURNS: each one's chances, the mean of its looks'."""
        if len(which) == 0:
            return scores
        turned = self.scores(np.concatenate([np.rot90(crops[which], k, axes=(2, 3)) for k in TURNS]))
        looks = len(TURNS) + 1
        classes, symbols = scores.classes.copy(), scores.symbols.copy()
        classes[which] = (classes[which] + turned.classes.reshape(len(TURNS), len(which), -1).sum(0)) / looks
        symbols[which] = (symbols[which] + turned.symbols.reshape(len(TURNS), len(which), -1).sum(0)) / looks
        return Scores(classes, symbols)
