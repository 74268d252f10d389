"""The learned dice detector: a small fully-convolutional network that marks every die's centre.

    frame (at most 640 px) -> half size, sides a multiple of 16 -> network (ONNX, `network.py`)
       -> per cell of a quarter of that (8 frame pixels): how surely a die's top face is centred
          here, where in the cell, the top face's size, the whole die's extent, whether it leans
    -> peaks of the centre map (3x3 local maxima, CANDIDATE or more) -> one candidate per peak
    -> each candidate's whole box, cut from the frame, looked at by a second small network (the
       verifier: a die, or a pip, a token, a knot in the wood?); a die's score is the geometric mean
       of the two; THRESHOLD or more is a die
    -> dice bigger than the network reads well (LARGE at its input): the frame again, smaller

The networks (`models/dice_detector.onnx`, `models/dice_verifier.onnx`) were trained offline by
`calibration/train_detector.py` and `calibration/train_verifier.py` (on the first network's
candidates) on rendered scenes and on the webcam TRAIN split only; PyTorch is a training tool, never needed
here: onnxruntime runs them, or OpenCV's dnn module where onnxruntime is not installed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from assistant.vision.errors import ModelError
from assistant.vision.network import Network, NetworkError

MODEL = Path(__file__).resolve().parent / "models" / "dice_detector.onnx"
VERIFIER = MODEL.with_name("dice_verifier.onnx")
STRIDE = 4  # output cells per network input pixel
MULTIPLE = 16  # the network's input sides are a multiple of this
INPUT_SIDE = 320  # the longer side of the network's input
THRESHOLD = 0.32  # a die's score at least this is a die (chosen on held-out frames: train_verifier.py --pick-threshold)
CANDIDATE = 0.06  # a centre this sure or more (smoothed map) is looked at by the verifier
CROP = 32  # the verifier's input side, in pixels ...
GROW = 1.3  # ... of a square around the whole die's box, this many times its longer side
MOST = 200  # candidates looked at in one pass, surest first
SAME_DIE = 0.6  # two centres closer than this share of a top face's side are one die
SMOOTH = 0.8  # the centre map's Gaussian smoothing before peaks are taken, in cells
INSIDE = 0.0  # a centre inside a surer die's whole box shrunk by this share each side is that die
LARGE = 64  # a whole die this many input pixels across or more: read the frame again, smaller ...
AIM = 40  # ... so that it is this big (the network was trained on dice of about 15 to 50 px) ...
SMALLEST_SIDE = 224  # ... but never on an input side under this (the network misses more there)
SMALL = 24  # the dice found under this many input pixels across (their median): read the frame again ...
FINE = 640  # ... at up to this input side, the frame's own pixels (the reader's working image is at most 640)
CHANNELS = 10  # heat, dx, dy, log top w, log top h, log(1+l), log(1+t), log(1+r), log(1+b), lean


@dataclass(frozen=True)
class Detection:
    """One die found: its score, the top face's centre and box, the whole die's box (frame pixels),
    and how surely it leans on something (its top face tilted)."""

    score: float
    centre: tuple[float, float]
    top: tuple[int, int, int, int]
    box: tuple[int, int, int, int]
    leaning: float
    cut: float = 0.0  # the share of the whole die's box outside the frame (a die cut by the picture's edge)


def input_size(shape: tuple[int, ...], side: int = INPUT_SIDE) -> tuple[int, int]:
    """(width, height) of the network's input for a frame of `shape`: longer side `side`."""
    h, w = shape[:2]
    scale = side / max(h, w)
    return (max(MULTIPLE, int(round(w * scale / MULTIPLE)) * MULTIPLE),
            max(MULTIPLE, int(round(h * scale / MULTIPLE)) * MULTIPLE))


def decode(out: np.ndarray, scale: tuple[float, float], threshold: float = CANDIDATE,
           frame_shape: tuple[int, ...] | None = None, smooth: float | None = None) -> list[Detection]:
    """Detections from the network's output (CHANNELS x H x W, heat and lean already squashed to
    0..1); `scale` = frame pixels per output cell along x and y. The centre map is first smoothed
    (Gaussian, `smooth` cells; SMOOTH by default, 0 for none): a die lights a blob of cells, a
    false centre often one cell, so a blob's middle scores above a lone spike of the same height."""
    heat: np.ndarray = np.ascontiguousarray(out[0], dtype=np.float32)
    sigma = SMOOTH if smooth is None else smooth
    if sigma > 0:
        heat = cv2.GaussianBlur(heat, (3, 3), sigma, borderType=cv2.BORDER_REPLICATE)
    peaks = (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (heat > threshold)
    sx, sy = scale
    found = []
    for gy, gx in zip(*np.nonzero(peaks)):
        cell = out[:, gy, gx]
        cx, cy = (gx + float(cell[1])) * sx, (gy + float(cell[2])) * sy
        tw, th = float(np.exp(cell[3])) * sx, float(np.exp(cell[4])) * sy
        left, top, right, bottom = (float(np.expm1(max(v, 0.0))) for v in cell[5:9])
        x0, y0 = cx - left * sx, cy - top * sy
        x1, y1 = cx + right * sx, cy + bottom * sy
        cut = 0.0
        if frame_shape is not None:
            fh, fw = frame_shape[:2]
            area = max(1e-6, (x1 - x0) * (y1 - y0))
            x0, y0, x1, y1 = max(0.0, x0), max(0.0, y0), min(float(fw), x1), min(float(fh), y1)
            cut = max(0.0, 1.0 - max(0.0, x1 - x0) * max(0.0, y1 - y0) / area)
        box = (int(round(x0)), int(round(y0)), max(1, int(round(x1 - x0))), max(1, int(round(y1 - y0))))
        face = (int(round(cx - tw / 2)), int(round(cy - th / 2)), max(1, int(round(tw))), max(1, int(round(th))))
        found.append(Detection(float(heat[gy, gx]), (cx, cy), face, box, float(cell[9]), cut))
    return suppress(found)


def suppress(found: list[Detection]) -> list[Detection]:
    """The detections less second peaks on one die: a centre closer to a surer one's than SAME_DIE
    times the smaller of their top faces, or inside a surer one's whole-die box shrunk by INSIDE
    on each side. Dice that touch are a whole face apart, so both stay. Surest first."""
    kept: list[Detection] = []
    for d in sorted(found, key=lambda d: -d.score):
        size = (d.top[2] * d.top[3]) ** 0.5
        if all(np.hypot(d.centre[0] - k.centre[0], d.centre[1] - k.centre[1])
               >= SAME_DIE * min(size, (k.top[2] * k.top[3]) ** 0.5) and not within(d.centre, k.box) for k in kept):
            kept.append(d)
    return kept


def within(point: tuple[float, float], box: tuple[int, int, int, int]) -> bool:
    x, y, w, h = box
    return (x + INSIDE * w <= point[0] <= x + (1 - INSIDE) * w) and (y + INSIDE * h <= point[1] <= y + (1 - INSIDE) * h)


class DetectorError(ModelError):
    """The dice detector's model is corrupt, not an ONNX model, or not the detector's network."""


class DiceDetector:
    """Finds the dice in a BGR frame with the learned networks (one per reader: not thread-safe).

    A missing model (the centre network's or the verifier's) raises FileNotFoundError; a model that cannot be
    loaded or run, or whose output is not the network's (CHANNELS maps; one score a crop), raises
    DetectorError, both with the file's name in the message."""

    def __init__(self, model: Path | None = None, threshold: float | None = None, verifier: Path | None = None) -> None:
        self.net = detector_network(Path(model) if model is not None else MODEL)
        self.verifier = _load(Path(verifier) if verifier is not None else VERIFIER, "verifier", (1, 3, CROP, CROP),
                              lambda out: out.shape == (1,), "one score a die")
        self.threshold = THRESHOLD if threshold is None else threshold

    def raw(self, frame: np.ndarray, side: int = INPUT_SIDE) -> tuple[np.ndarray, tuple[float, float]]:
        """The centre network's output for `frame` (`output`)."""
        return output(self.net, frame, side)

    def verified(self, frame: np.ndarray, found: list[Detection]) -> list[Detection]:
        """The candidates `found` (surest centre first) that are dice, each scored by the geometric mean of
        its centre's score and the verifier's on its box, surest first; second peaks on one die are
        suppressed again by these scores (a top face's peak surer than its whole die's, say)."""
        found = found[:MOST]
        if not found:
            return []
        crops = np.stack([crop(frame, d.box) for d in found]).transpose(0, 3, 1, 2)
        sure = 1.0 / (1.0 + np.exp(-self.verifier.run(crops).reshape(-1)))
        scored = [replace(d, score=float(np.sqrt(d.score * p))) for d, p in zip(found, sure)]
        return suppress([d for d in scored if d.score >= self.threshold])

    def detect(self, frame: np.ndarray) -> list[Detection]:
        """The dice in `frame`. Where the biggest die found is LARGE or more at the network's input,
        the network sees a big die's pips as dice of their own (a 2 read as a 1): the frame is then
        read again at the input side that makes that die AIM pixels, and that pass's detections stand,
        if it finds any. Where the dice found are SMALL (their median), more small dice hide below the
        threshold: the frame is read again at up to FINE pixels, and that pass's dice join the first's."""
        found = self.read_at(frame)
        sides = [max(d.box[2], d.box[3]) * INPUT_SIDE / max(frame.shape[:2]) for d in found]
        if sides and max(sides) >= LARGE:
            smaller = max(SMALLEST_SIDE, int(INPUT_SIDE * AIM / max(sides)) // MULTIPLE * MULTIPLE)
            return self.read_at(frame, smaller) or found
        fine = min(FINE, max(frame.shape[:2]) // MULTIPLE * MULTIPLE)
        if sides and float(np.median(sides)) < SMALL and fine > INPUT_SIDE:
            return suppress(found + self.read_at(frame, fine))
        return found

    def read_at(self, frame: np.ndarray, side: int = INPUT_SIDE) -> list[Detection]:
        """One pass: the dice the centre network finds in `frame` at input side `side`, verified."""
        out, scale = self.raw(frame, side)
        return self.verified(frame, decode(out, scale, CANDIDATE, frame.shape))


def detector_network(path: Path = MODEL) -> Network:
    """The centre network alone (`train_verifier.py` gathers its candidates with it)."""
    return _load(path, "detector", (1, 3, 2 * MULTIPLE, 2 * MULTIPLE),
                 lambda out: out.ndim == 4 and out.shape[1] == CHANNELS, f"{CHANNELS} maps")


def output(net: Network, frame: np.ndarray, side: int = INPUT_SIDE) -> tuple[np.ndarray, tuple[float, float]]:
    """The centre network's output for `frame` (its longer side shrunk to `side`) and the frame pixels per
    output cell (x, y): the mean of its outputs for the frame and for its mirror image (one batch
    of two), mirrored back."""
    w, h = input_size(frame.shape, side)
    small = cv2.resize(frame, (w, h), interpolation=cv2.INTER_AREA)
    # raw 0..255 BGR: the network normalises itself
    both = net.run(np.stack([small, cv2.flip(small, 1)]).transpose(0, 3, 1, 2))  # N, C, H, W
    out, mirrored = both[0], both[1][:, :, ::-1].copy()
    mirrored[1] = 1.0 - mirrored[1]  # the x offset inside a cell
    mirrored[[5, 7]] = mirrored[[7, 5]]  # left and right extents
    out = (out + mirrored) / 2.0
    return out, (frame.shape[1] / out.shape[2], frame.shape[0] / out.shape[1])


def crop(frame: np.ndarray, box: tuple[int, int, int, int]) -> np.ndarray:
    """What the verifier sees of a candidate: a CROP-pixel square of `frame` around its whole box,
    GROW times the box's longer side (the frame's edge repeated beyond it)."""
    x, y, w, h = box
    side = max(w, h) * GROW
    k = CROP / side
    move = np.array([[k, 0, CROP / 2 - (x + w / 2) * k], [0, k, CROP / 2 - (y + h / 2) * k]], np.float32)
    out: np.ndarray = cv2.warpAffine(frame, move, (CROP, CROP), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
    return out


def _load(path: Path, what: str, probe: tuple[int, ...], fits: Callable[[np.ndarray], bool], expected: str) -> Network:
    """One of the detector's networks, run once on zeros of shape `probe`; a clear error naming the file."""
    if not path.exists():
        raise FileNotFoundError(f"{path}: the dice {what}'s model is missing")
    try:
        net = Network(path, "ENGINE_NEW")  # OpenCV 5: its newer engine is the faster one here
    except NetworkError as bad:
        raise DetectorError(f"{path}: the dice {what}'s model is corrupt or not an ONNX model ({bad})") from None
    try:
        out = net.run(np.zeros(probe, np.float32))
    except NetworkError as bad:  # a model that runs on no input of this shape
        raise DetectorError(f"{path}: the dice {what}'s model cannot run ({bad})") from None
    if not fits(out):
        raise DetectorError(f"{path}: not the dice {what}'s network (output {tuple(out.shape)}, expected {expected})")
    return net


def choose_threshold(scored: list[tuple[list[tuple[float, bool]], int, bool]],
                     candidates: tuple[float, ...] = tuple(np.round(np.arange(0.1, 0.71, 0.02), 2)),
                     default: float = THRESHOLD) -> float:
    """The detector's threshold, from labelled pictures no model trained on (`train_detector.py
    --pick-threshold`: held-out frames and rendered scenes).

    `scored` holds, per photo: each detection's (score, matched a labelled die), the number of
    labelled dice, and whether every die in it is labelled. The threshold that finds the most
    labelled dice less false ones (false ones counted on complete photos only) wins; among
    equals, the one nearest the default.
    """
    def gain(t: float) -> int:
        total = 0
        for dets, _labelled, complete in scored:
            total += sum(1 for s, hit in dets if s >= t and hit)
            if complete:
                total -= sum(1 for s, hit in dets if s >= t and not hit)
        return total

    return best_threshold(gain, candidates, default)


def best_threshold(gain: Callable[[float], int], candidates: Sequence[float], default: float = THRESHOLD) -> float:
    """The candidate threshold of the highest gain (labelled dice found less false ones); among equals,
    the one nearest `default`."""
    return float(max(candidates, key=lambda t: (gain(t), -abs(t - default))))
