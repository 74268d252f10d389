"""Find: where the dice lie in a working image, by the finder network (`models/finder.onnx`).

    working image (at most 640 px) -> SIDE px on its longer side, sides a multiple of 16
    -> a small fully-convolutional network (calibration/train_finder.py), the image and its mirror in one
       batch -> per cell of STRIDE input pixels, the mean of the two looks (the mirror's turned back): how
       surely a die's centre lies there, where in the cell, the whole die's width and height
    -> 3x3 local maxima of the centre map, THRESHOLD or more -> one box per peak
    -> where the dice found are small at that side (their median under SMALL input pixels, and the smallest of
       those about as large as it under SMALLEST), once more at FINE
    -> with them (`finds`), the maybe dice: peaks of MAYBE or more, about as large as the dice found (within
       SPREAD times their median side), and where it looked at FINE, what it found at SIDE and at BETWEEN;
       a maybe die is a die only where the face network is sure of it and reads it (doubt.SURELY_A_DIE)

Whether a box holds a die at all is the face network's word too (read.py's "none", doubt.py). A table's
profile may carry its own finder, fine-tuned on its pictures (find_tune.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from statistics import median as middle
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from assistant.vision.matching import Box, centre, inside
from assistant.vision.network import load

MODEL = Path(__file__).resolve().parent / "models" / "finder.onnx"
STRIDE = 4  # input pixels per output cell
MULTIPLE = 16  # the network's input sides are a multiple of this
SIDE = 320  # the input's longer side for a working image
FINE = 640  # ... and where the dice found are small
SMALL = 20.0  # a median die side under this many input pixels, and the smallest die's under SMALLEST, is small
SMALLEST = 17.0  # (the mast's 40 px die is not: 18 to 28 here, any way turned; where it was, on a third to a half of
# the tray's frames, the looks at BETWEEN and FINE cost 6 times the finder's work: benchmarks/dice_flops.py)
SAME = 0.35  # a centre closer than this share of a surer die's box (each way) is that die again
PART = 1.6  # a find inside a surer one this many times its size is part of that die (a pip)
GROUP = 3.5  # a find holding two surer ones, each more than 1/GROUP of its size, is a group of dice (not a pip's die)
THRESHOLD = 0.2  # a centre this sure or more is a die's (chosen on the -valid sets with doubt.py's figures)
MAYBE = 0.1  # a centre this sure or more may be a die's (mixed-oblique-d6 94.61 -> 96.40 % found, no false die more)
SPREAD = 2.0  # a maybe die's side is within this factor of the median die found (not a box around a group of dice)
BETWEEN = 384  # with FINE, a look between (the larger dice of a picture of small ones): 96.40 -> 97.08 % found
# What `at` feeds the network, and the shape it reads back (network.load tries them): an image and its mirror, of
# any sides that are a multiple of MULTIPLE; five maps of a cell per STRIDE pixels.
FITS = tuple(((2, 3, h, w), (2, 5, h // STRIDE, w // STRIDE)) for h, w in ((4 * MULTIPLE, 6 * MULTIPLE),
                                                                            (6 * MULTIPLE, 4 * MULTIPLE)))


@dataclass(frozen=True)
class Found:
    """A die's whole box in the working image's pixels (x, y, w, h), how sure its centre is, and whether it is a
    maybe die (a die only where the face network is sure of it)."""

    box: tuple[float, float, float, float]
    score: float
    maybe: bool = False


def input_size(shape: tuple[int, ...], side: int) -> tuple[int, int]:
    """(width, height) of the network's input for an image of `shape`, its longer side about `side`."""
    h, w = shape[:2]
    s = side / max(h, w)
    return (max(MULTIPLE, int(round(w * s / MULTIPLE)) * MULTIPLE), max(MULTIPLE, int(round(h * s / MULTIPLE)) * MULTIPLE))


def looks(out: np.ndarray) -> np.ndarray:
    """One output (5, H, W) from those of an image and its mirror (2, 5, H, W): their mean, the mirror's turned
    back (its cells mirrored, and each centre's place in its cell). On mixed-oblique-d6 the finder alone found
    94.16 -> 95.06 % of the dice; webcam -valid's false finds 0.209 -> 0.174 a picture, the tray's 4.2 -> 3.4."""
    mirror = out[1, :, :, ::-1].copy()
    mirror[1] = 1.0 - mirror[1]
    mean: np.ndarray = (out[0] + mirror) / 2
    return mean


def decode(out: np.ndarray, scale: tuple[float, float], threshold: float) -> list[Found]:
    """The dice in one output (5, H, W): centre chance, x and y in the cell, log width and height (cells)."""
    heat = out[0]
    peak = (heat == cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (heat >= threshold)
    found = []
    for gy, gx in zip(*np.nonzero(peak)):
        cx, cy = (gx + out[1, gy, gx]) * STRIDE, (gy + out[2, gy, gx]) * STRIDE
        w, h = np.exp(out[3, gy, gx]) * STRIDE, np.exp(out[4, gy, gx]) * STRIDE
        sx, sy = scale
        found.append(Found(((cx - w / 2) * sx, (cy - h / 2) * sy, w * sx, h * sy), float(heat[gy, gx])))
    return suppress(sorted(found, key=lambda f: -f.score))


def again(box: Box, kept: Sequence[Box]) -> bool:
    """Whether a find's `box` is a die of `kept` (surer dice's boxes) found again (its centre within SAME of that
    die's box from its centre), part of one (its centre inside it, PART times smaller: a pip of it), or a box
    around two or more of them (touching dice found as one as well: their centres inside it, each more than
    1/GROUP of its size)."""
    cx, cy = centre(box)
    side = max(box[2:])
    return any(abs(cx - k[0] - k[2] / 2) < SAME * k[2] and abs(cy - k[1] - k[3] / 2) < SAME * k[3]
               or max(k[2:]) >= PART * side and inside((cx, cy), k) for k in kept) \
        or sum(GROUP * max(k[2:]) > side and inside(centre(k), box) for k in kept) >= 2


def suppress(found: list[Found]) -> list[Found]:
    """`found` (surest first) less each die found `again`."""
    kept: list[Found] = []
    for f in found:
        if not again(f.box, [k.box for k in kept]):
            kept.append(f)
    return kept


class Finder:
    """Finds the dice in BGR working images: by the shipped finder, or a profile's (its ONNX bytes; `name`: the
    profile's file)."""

    def __init__(self, path: Path | bytes | None = None, threshold: float = THRESHOLD, name: str = "") -> None:
        self.net = load(MODEL if path is None else path, "finder network", name, FITS)
        self.threshold = threshold

    def at(self, image: np.ndarray, side: int, threshold: float | None = None) -> list[Found]:
        """The dice found with the image brought to `side` pixels on its longer side (`threshold` or surer)."""
        w, h = input_size(image.shape, side)
        small = cv2.resize(image, (w, h), interpolation=cv2.INTER_AREA if w < image.shape[1] else cv2.INTER_LINEAR)
        pair = np.stack([small, small[:, ::-1]]).transpose(0, 3, 1, 2)  # (uint8: `run` makes it float32 in one copy)
        return decode(looks(self.net.run(pair)),
                      (image.shape[1] / w, image.shape[0] / h), self.threshold if threshold is None else threshold)

    def small(self, image: np.ndarray, found: list[Found]) -> bool:
        """Whether the dice `found` at SIDE (those of the finder's threshold or surer) are small there (their median
        under SMALL, and the smallest of those about as large as it under SMALLEST): the image is looked at again at
        FINE."""
        scale = SIDE / max(image.shape[:2])
        sure = [max(f.box[2:]) * scale for f in found if f.score >= self.threshold]
        if not sure or scale >= 1:
            return False
        median = middle(sure)  # the smallest die about as large as the others (SPREAD): not a pip or a speck
        return bool(median < SMALL and min(side for side in sure if side >= median / SPREAD) < SMALLEST)

    def finds(self, image: np.ndarray) -> list[Found]:
        """The dice found (the finder's threshold or surer), then the maybe dice (MAYBE or surer, each about as
        large as the median die found; where the dice are small, also those of the coarser looks)."""
        low = min(MAYBE, self.threshold)
        every = self.at(image, SIDE, low)
        coarse: list[Found] = []
        if self.small(image, every):
            coarse = every + self.at(image, BETWEEN, low)
            every = self.at(image, FINE, low)
        sure = [f for f in every if f.score >= self.threshold]
        if not sure:
            return []
        median = middle([max(f.box[2:]) for f in sure])  # (np.median would load numpy.ma: 8 ms a process)
        maybe = [replace(f, maybe=True) for f in [f for f in every if f.score < self.threshold] + coarse
                 if median / SPREAD <= max(f.box[2:]) <= median * SPREAD]
        return sure + [f for f in sorted(maybe, key=lambda f: -f.score) if not again(f.box, [k.box for k in sure])]

    def find(self, image: np.ndarray) -> list[Found]:
        """The dice found: the finder's threshold or surer (no maybe die, no look between)."""
        low = min(MAYBE, self.threshold)
        found = self.at(image, SIDE, low)
        if self.small(image, found):
            found = self.at(image, FINE, low)
        return [f for f in found if f.score >= self.threshold]
