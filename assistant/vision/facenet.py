"""The learned face reader's network, run by onnxruntime or OpenCV's dnn module (`network.py`; no torch at the table).

The network (trained offline by `calibration/train_faces.py`, saved as
`models/faces.onnx`) takes a die's crop and gives an embedding: a vector whose direction says
what the die shows. Two cosine heads, kept beside the model in `models/faces.json`, turn it into
scores: one over `CLASSES` (not a die, d6 1..6, d8 1..8), one over `SYMBOLS` (the astro symbol
on the top face of a Nova Aetas d8, or none). A profile refits the value head on a table's own
labelled dice (`profile.py`).

A second, slimmer network, `models/faces_d8.onnx` (trained by `train_faces.py --d8`), looks
closer: its crop is `D8_CONTEXT` times the box, so a d8's numeral and symbol fill it, at
`D8_INPUT` pixels, and its value head knows only "not a die" and d8 1..8 (`D8_CLASSES`). Each
model's heads (and its input side) are in the JSON file of its own name.

A third, `models/faces_lite0.onnx` (`train_faces.py --trunk lite0`: EfficientNet-Lite0's
ImageNet-pretrained layers with the same heads and crop), reads the same crops as the first: the
reader takes a value only where the two agree (`agreed`, as it takes a crop's quarter turns).

The crop (`prepare`): a square around the box's centre, `context` times the box's longer side,
the picture's edge repeated where the square leaves it, in grey, resized to `INPUT` pixels (and
then, for a network with a smaller input, such as the close-up d8 network's `D8_INPUT`, shrunk by
`shrink`). Training and reading use these functions; each model's JSON says its input side.
"""

from __future__ import annotations

import base64
import hashlib
import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import cv2
import numpy as np

from assistant.vision.errors import ModelError
from assistant.vision.network import Network, NetworkError

INPUT = 64  # the network's input side, pixels
CONTEXT = 1.2  # crop side / box's longer side
CLASSES = ("none",) + tuple(f"d6:{v}" for v in range(1, 7)) + tuple(f"d8:{v}" for v in range(1, 9))
SYMBOLS = ("none", "sun", "star", "moon")
D8_CONTEXT = 0.6  # the close-up d8 network's crop side / box's longer side
D8_INPUT = 48  # the close-up d8 network's input side, pixels (its crop is made at INPUT, then shrunk)
D8_TURNS = 4  # it is trained to read a crop turned by 0..3 quarter turns, the mean of the four (its JSON's "turns")
D8_CLASSES = np.array([c == "none" or c.startswith("d8") for c in CLASSES])  # what the d8 network names
MODEL = "faces.onnx"
D8_MODEL = "faces_d8.onnx"
SECOND_MODEL = "faces_lite0.onnx"


def prepare(image: np.ndarray, box: tuple[float, float, float, float], context: float = CONTEXT,
            size: int = INPUT) -> np.ndarray:
    """The network's view of the die in `box`: size x size uint8 grey (see the module's docstring).
    `image` is BGR or grey: a caller cropping several boxes converts it to grey once."""
    x, y, w, h = (float(v) for v in box)
    side = max(w, h) * context
    cx, cy = x + w / 2.0, y + h / 2.0
    scale = INPUT / max(side, 1.0)
    # one affine warp: box centre to the crop's centre, `side` pixels to INPUT
    m = np.array([[scale, 0, INPUT / 2.0 - cx * scale], [0, scale, INPUT / 2.0 - cy * scale]], dtype=np.float32)
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    if scale < 0.5:  # shrinking a lot: average first, as INTER_AREA would
        k = int(1.0 / scale)
        grey = cv2.blur(grey, (k, k))
    return shrink(cv2.warpAffine(grey, m, (INPUT, INPUT), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE),
                  size)


def shrink(crop: np.ndarray, side: int) -> np.ndarray:
    """An INPUT x INPUT crop (or a stack of them) at `side` x `side` pixels (area averaging)."""
    if crop.shape[-1] == side:
        return crop
    if crop.ndim == 3:
        return np.stack([shrink(c, side) for c in crop]) if len(crop) else np.zeros((0, side, side), crop.dtype)
    return cv2.resize(crop, (side, side), interpolation=cv2.INTER_AREA)


def blob(crops: np.ndarray) -> np.ndarray:
    """(N, S, S) uint8 crops as the network's input: each crop to zero mean, unit spread."""
    x = crops.astype(np.float32)
    mean = x.mean(axis=(1, 2), keepdims=True)
    spread = x.std(axis=(1, 2), keepdims=True)
    out: np.ndarray = ((x - mean) / np.maximum(spread, 8.0))[:, None, :, :]
    return out


def unit(rows: np.ndarray) -> np.ndarray:
    out: np.ndarray = rows / np.maximum(np.linalg.norm(rows, axis=-1, keepdims=True), 1e-6)
    return out


def softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    out: np.ndarray = e / e.sum(axis=-1, keepdims=True)
    return out


def agreed(chances: np.ndarray) -> np.ndarray:
    """The chances of (looks, N, C) looks at the same crops taken together: their geometric mean, made
    to sum to 1 again. A class is sure only where every look is sure of it (the rule for the first
    network's quarter turns, and for the two face networks: on rendered validation and dice at a
    slant it read more dice right at the threshold than the plain mean)."""
    logs = np.log(np.maximum(chances, 1e-30)).mean(axis=0)
    return softmax(logs)


def together(chances: np.ndarray, close: bool) -> np.ndarray:
    """(turns, N, C) chances of one network's looks at the same crops, as one (N, C): the close-up d8
    network's their mean (as its threshold was chosen), the first network's as they agree (`agreed`).
    The reader (`faces.py`) and the validation of `train_faces.py` both take turns so."""
    return chances.mean(0) if close else agreed(chances)


def decode(text: str, shape: tuple[int, ...]) -> np.ndarray:
    return np.frombuffer(base64.b64decode(text), "<f4").reshape(shape).astype(np.float32)


def encode(array: np.ndarray) -> str:
    return base64.b64encode(np.ascontiguousarray(array, "<f4").tobytes()).decode("ascii")


@dataclass(frozen=True)
class Heads:
    """Cosine heads: scores = scale * unit(embedding) . unit(weights)."""

    values: np.ndarray  # (len(CLASSES), D)
    symbols: np.ndarray  # (len(SYMBOLS), D)
    scale: float

    def value_scores(self, embeddings: np.ndarray) -> np.ndarray:
        scores: np.ndarray = self.scale * unit(embeddings) @ unit(self.values).T
        return scores

    def symbol_scores(self, embeddings: np.ndarray) -> np.ndarray:
        scores: np.ndarray = self.scale * unit(embeddings) @ unit(self.symbols).T
        return scores


def _resource(name: str) -> Path:
    return Path(str(resources.files("assistant.vision").joinpath("models", name)))


def default_model() -> Path:
    """The shipped face model, models/faces.onnx."""
    return _resource(MODEL)


def d8_model() -> Path:
    """The shipped close-up d8 model, models/faces_d8.onnx."""
    return _resource(D8_MODEL)


def second_model() -> Path:
    """The shipped second face model, models/faces_lite0.onnx."""
    return _resource(SECOND_MODEL)


class FaceNet:
    """The network and its heads, loaded from `models/` (or the given paths: the heads default to
    the model's name with .json); ModelError if broken."""

    def __init__(self, model: Path | None = None, meta: Path | None = None) -> None:
        model = model or _resource(MODEL)
        meta = meta or model.with_suffix(".json")
        try:
            data = model.read_bytes()
        except OSError as bad:
            raise ModelError(f"{model}: cannot read the face model ({bad.strerror or bad})") from None
        try:
            info = json.loads(meta.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as bad:
            raise ModelError(f"{meta}: cannot read the face model's heads ({bad})") from None
        except json.JSONDecodeError as bad:
            raise ModelError(f"{meta}: the face model's heads are not JSON ({bad.msg})") from None
        digest = hashlib.sha256(data).hexdigest()
        if not isinstance(info, dict) or info.get("onnx_sha256") != digest:
            raise ModelError(f"{model}: the face model does not match {meta.name} (corrupt, or from another "
                             "training run): retrain with calibration/train_faces.py")
        try:
            dim = int(info["embedding"])
            self.heads = Heads(decode(info["values"], (len(CLASSES), dim)),
                               decode(info["symbols"], (len(SYMBOLS), dim)), float(info["scale"]))
            if tuple(info["classes"]) != CLASSES or tuple(info["symbol_names"]) != SYMBOLS:
                raise ValueError("classes differ")
            self.context = float(info.get("context", CONTEXT))
            self.input = int(info.get("input", INPUT))  # the crops' side, pixels
            if not 8 <= self.input <= INPUT:
                raise ValueError(f"input side {self.input}")
            self.threshold = float(info.get("threshold", 0.5))
            self.turns = int(info.get("turns", 1))  # quarter turns of a crop read and averaged (as validated)
            if not 1 <= self.turns <= 4:
                raise ValueError(f"turns {self.turns}")
            # OpenCV 5's classic engine runs the small networks faster than its new one (measured: 1.8
            # against 2.6 ms for 3 crops of the face network, one thread); Lite0 the other way (13.8
            # against 8.5 ms for 4 crops): a model's JSON may name its engine
            engine = str(info.get("opencv_engine", "ENGINE_CLASSIC"))
            if engine not in ("ENGINE_CLASSIC", "ENGINE_NEW"):
                raise ValueError(f"opencv_engine {engine}")
        except (KeyError, TypeError, ValueError) as bad:
            raise ModelError(f"{meta}: not the heads of this face model ({bad})") from None
        try:
            self.net = Network(model, engine)
        except NetworkError as bad:
            raise ModelError(f"{model}: cannot load the face model ({bad})") from None
        self.identity = digest[:16]  # profiles name the model whose embeddings they hold
        self.dim = dim

    def embed(self, crops: np.ndarray) -> np.ndarray:
        """(N, D) float32 embeddings of (N, input, input) uint8 crops."""
        if len(crops) == 0:
            return np.zeros((0, self.dim), np.float32)
        try:
            out = self.net.run(blob(crops))
        except NetworkError as bad:  # a model that loads but does not take these crops
            raise ModelError(f"the face model cannot read {self.input} px crops ({bad})") from None
        return out.reshape(len(crops), -1)

    def embed_turned(self, crops: np.ndarray) -> np.ndarray:
        """(turns, N, D): the embeddings of the crops turned by 0, 1, ... quarter turns, as many as the
        model's JSON says (`turns`: its threshold was validated reading that many)."""
        turned = crops if self.turns == 1 else np.concatenate([np.rot90(crops, k, (1, 2)) for k in range(self.turns)])
        return self.embed(turned).reshape(self.turns, len(crops), self.dim)
