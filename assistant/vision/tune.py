"""Tune: the face network fine-tuned on a table's own dice, with PyTorch (`dice learn`, `dice calibrate`).

    labelled pictures -> each labelled die cut many times (crop.cut: turned any way, a little off its
    centre, a little larger or smaller, lighter, darker, blurred), and bare table between the dice
    (pictures whose every die is labelled) as "not a die"
    -> the shipped network (models/reader.pt) trained on them for as many batches, at as high a rate, as the
       dice are new to it (`plan`), its batch norms kept, some of each batch rendered dice of the faces the
       table did not show (they are not forgotten: `keep`)
    -> exported to ONNX: the profile's network (profile.py)

PyTorch is needed here only (pytorch.py says how to add it; learn.learn_examples checks first); reading
runs the exported network with onnxruntime. calibration/train_reader.py trains the shipped network
from ImageNet's weights with the same network, crops and changes.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from assistant.vision.crop import CONTEXT, SIDE, cut
from assistant.vision.doubt import KIND_OF
from assistant.vision.read import CLASSES, SYMBOLS

WEIGHTS = Path(__file__).resolve().parent / "models" / "reader.pt"
BATCH = 32
# How much it learns: as much as the table's dice are new to the network. For dice the shipped network already
# reads (KNOWN or more of them by its best guess) STEPS batches at a peak rate of FAMILIAR; for dice it reads LITTLE
# or less of, STEPS_NEW at NEW; between them in proportion (the rate log-linear). Webcam -valid, learned from 14
# -train photos (read 95 % before; 99.61 % of -valid without a profile), two seeds each: 200 batches at 3e-4 99.22
# and 99.61 %, 300 at 5e-4 98.82 and 99.22 %, 600 at 5e-4 98.0 %, 600 at 1e-3 93.7 %. Marbled d8 tiles (read 0 to
# 2 %), 5 a face learned, the others by best guess: 600 batches at 5e-4 71 %, at 1e-3 84 %, at 2e-3 96 %.
STEPS, STEPS_NEW = 200, 600
FAMILIAR, NEW = 3e-4, 2e-3
KNOWN, LITTLE = 0.95, 0.5
AGAIN = 1 / 3  # of the batches, where it goes on from a network learned from most of the same dice (the check's)
# Tried: the early blocks frozen, their outputs for 2560 cuts of the dice computed once, only the later blocks
# learned on them. Marbled d8, 5 tiles a face, the other 312 by best guess: blocks 11 on (600 batches at 2e-3) 67.3 %,
# 8 on 76.6 %; 300 at 3e-3: 5 on 75.6 %, every block (on the same 2560 cuts) 85.9 %. Its colours are learned early.
NONE_SHARE = 0.15  # share of crops of bare table, where a picture's dice are all labelled
KEEP = 0.125  # share of each batch of rendered dice where a table showed one face (`keep`). Learned from the 14
# webcam -train photos of 1s only, 600 batches at 2e-3, -valid is read 79.6 % right with it, 14.9 % with 1/32 of
# each batch. Where the table showed every face, 1/32: the marbled d8 84.9 and 85.9 % (two seeds) -> 87.8, 89.4 %.


@dataclass(frozen=True)
class Labelled:
    """One labelled die of a picture: its class and symbol (indices into CLASSES and SYMBOLS) and its whole box."""

    image: int  # index of its picture
    centre: tuple[float, float]
    side: float  # the whole die's longer side, pixels
    label: int
    symbol: int = 0


def photometric(rng: np.random.Generator, crop: np.ndarray) -> np.ndarray:
    """A crop seen in other light: contrast, brightness, sometimes blur and noise."""
    c: np.ndarray = crop.astype(np.float32)
    mean = float(c.mean())
    c = (c - mean) * rng.uniform(0.6, 1.4) + mean + rng.normal(0, 25)
    if rng.random() < 0.3:
        c = cv2.GaussianBlur(c, (0, 0), rng.uniform(0.5, 1.5) * SIDE / 64)  # 0.5 to 1.5 px of a 64 px crop
    if rng.random() < 0.3:
        c = c + rng.normal(0, rng.uniform(2, 10), c.shape)
    return np.clip(c, 0, 255).astype(np.uint8)


def varied(rng: np.random.Generator, image: np.ndarray, centre: tuple[float, float], side: float,
           turn: float = 180.0) -> np.ndarray:
    """One training view of the die `side` wide at `centre`: turned (up to `turn` degrees either way), shifted,
    scaled, relit."""
    dx, dy = rng.normal(0, 0.05, 2) * side
    return photometric(rng, cut(image, (centre[0] + dx, centre[1] + dy), side * CONTEXT * rng.uniform(0.84, 1.16),
                                rng.uniform(-turn, turn)))


def bare(rng: np.random.Generator, image: np.ndarray, dice: Sequence[Labelled]) -> np.ndarray | None:
    """A view of table beside the dice of a fully labelled picture (near one, or anywhere), or None where it hit a die."""
    near = dice[int(rng.integers(len(dice)))]
    if rng.random() < 0.5:
        a, d = rng.uniform(0, 2 * np.pi), near.side * rng.uniform(0.8, 1.6)
        point = (near.centre[0] + d * np.cos(a), near.centre[1] + d * np.sin(a))
    else:
        point = (rng.uniform(0, image.shape[1]), rng.uniform(0, image.shape[0]))
    if any(abs(point[0] - o.centre[0]) < 0.6 * o.side and abs(point[1] - o.centre[1]) < 0.6 * o.side for o in dice):
        return None
    return photometric(rng, cut(image, point, near.side * CONTEXT * rng.uniform(0.84, 1.2), rng.uniform(0, 360)))


def views(rng: np.random.Generator, images: Sequence[np.ndarray], dice: Sequence[Labelled], complete: Sequence[bool],
          count: int, turn: float = 180.0) -> tuple[np.ndarray, np.ndarray]:
    """`count` training crops (SIDE x SIDE x 3 uint8) and their (class, symbol), of `dice` in the BGR `images`
    (turned up to `turn` degrees) and bare table."""
    by_image: dict[int, list[Labelled]] = {}
    for d in dice:
        by_image.setdefault(d.image, []).append(d)
    fully = [i for i in by_image if complete[i]]
    crops: list[np.ndarray] = []
    labels: list[tuple[int, int]] = []
    while len(crops) < count:
        if fully and rng.random() < NONE_SHARE:
            i = fully[int(rng.integers(len(fully)))]
            view = bare(rng, images[i], by_image[i])
            if view is not None:
                crops.append(view)
                labels.append((0, 0))
            continue
        d = dice[int(rng.integers(len(dice)))]
        crops.append(varied(rng, images[d.image], d.centre, d.side, turn))
        labels.append((d.label, d.symbol))
    return np.stack(crops), np.array(labels, np.int64).reshape(-1, 2)


def rendered(rng: np.random.Generator, count: int, shown: frozenset[int] = frozenset()) -> tuple[np.ndarray, np.ndarray]:
    """`count` crops of rendered solid dice (render.face_sample) of every kind and face but those `shown`
    (indices into CLASSES: a table's own look of a face is what is learned of it), and "not a die"."""
    from assistant.vision.render import face_sample

    made: list[tuple[np.ndarray, int, int]] = []
    while len(made) < count:
        sample = face_sample(rng)
        if sample[1] not in shown:
            made.append(sample)
    return np.stack([m[0] for m in made]), np.array([[m[1], m[2]] for m in made], np.int64).reshape(-1, 2)


def network() -> Any:
    """The face network in PyTorch (EfficientNet-Lite0 reading B, G, R crops; outputs CLASSES then SYMBOLS), untrained."""
    import torch
    import torch.nn as nn
    from efficientnet_lite_pytorch import EfficientNet

    net = EfficientNet.from_name("efficientnet-lite0")
    net._fc = nn.Linear(net._fc.in_features, len(CLASSES) + len(SYMBOLS))
    return net.to(memory_format=torch.channels_last)  # on a CPU a batch learns 1.4 times faster so


def weights(path: Path) -> Any:
    """The network's weights saved by `save_weights` (half precision), as its float ones."""
    import torch

    return {k: v.float() if v.is_floating_point() else v for k, v in torch.load(path).items()}


def save_weights(net: Any, path: Path) -> None:
    """The network's weights in half precision (half the file; fine-tuning starts from them)."""
    import torch

    torch.save({k: v.half() if v.is_floating_point() else v for k, v in net.state_dict().items()}, path)


def scaled(x: Any) -> Any:
    """Levels 0..255 to the network's input."""
    return (x - 128.0) / 64.0


def export(net: Any) -> bytes:
    """The network as ONNX: (N, 3, SIDE, SIDE) B, G, R levels in, CLASSES then SYMBOLS scores out."""
    import torch

    class Reading(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.net = net

        def forward(self, x: torch.Tensor) -> Any:
            return self.net(scaled(x))

    net.eval()
    out = io.BytesIO()
    torch.onnx.export(Reading(), (torch.zeros(1, 3, SIDE, SIDE),), out,  # type: ignore[arg-type]
                      input_names=["crop"], output_names=["scores"],
                      dynamic_axes={"crop": {0: "n"}, "scores": {0: "n"}}, opset_version=13, dynamo=False)
    return out.getvalue()


def outputs(net: Any, crops: np.ndarray) -> Any:
    """The network's scores (CLASSES then SYMBOLS) of (N, SIDE, SIDE, 3) uint8 crops, as a tensor."""
    import torch

    return net(scaled(torch.from_numpy(np.ascontiguousarray(crops)).permute(0, 3, 1, 2).float()))  # channels last


def loss_of(net: Any, crops: np.ndarray, labels: np.ndarray) -> Any:
    """The training loss of a batch: cross-entropy on the class, and half of it on the symbol."""
    import torch
    import torch.nn.functional as F

    out = outputs(net, crops)
    y = torch.from_numpy(labels)
    return (F.cross_entropy(out[:, : len(CLASSES)], y[:, 0], label_smoothing=0.05)
            + 0.5 * F.cross_entropy(out[:, len(CLASSES) :], y[:, 1], label_smoothing=0.05))


def known(net: Any, images: Sequence[np.ndarray], dice: Sequence[Labelled]) -> float:
    """The share of the labelled dice (not "none") the network reads right by its best guess, each cut once as read."""
    import torch

    shown = [d for d in dice if d.label]
    if not shown:
        return 1.0
    crops = np.stack([cut(images[d.image], d.centre, d.side * CONTEXT) for d in shown])
    net.eval()
    with torch.no_grad():
        out = torch.cat([outputs(net, crops[i:i + 64]) for i in range(0, len(crops), 64)])
    best = out[:, 1:len(CLASSES)].argmax(1).numpy() + 1
    return float(np.mean(best == np.array([d.label for d in shown])))


def keep(shown: frozenset[int]) -> int:
    """How many of each batch are rendered dice: KEEP of it where the table showed one face of its dice's kinds,
    in proportion to the faces of those kinds it did not show, and at least one."""
    kinds = {KIND_OF[i] for i in shown}
    faces = [i for i in range(len(CLASSES)) if KIND_OF[i] in kinds]
    missing = sum(i not in shown for i in faces) / max(1, len(faces) - 1)
    return max(1, round(KEEP * BATCH * min(1.0, missing)))


def plan(share: float) -> tuple[int, float]:
    """The batches and the peak learning rate for dice the network reads `share` of."""
    new = min(1.0, max(0.0, (KNOWN - share) / (KNOWN - LITTLE)))  # 0 at KNOWN or more, 1 at LITTLE or less
    return int(round(STEPS + (STEPS_NEW - STEPS) * new)), float(FAMILIAR * (NEW / FAMILIAR) ** new)


def fit(net: Any, steps: int, peak: float, loss_at: Callable[[int], Any], progress: Callable[[float], None]) -> None:
    """Fine-tune every layer of `net` for `steps` batches (`loss_at(step)`: that batch's loss), AdamW over one
    cycle to the rate `peak`, its batch norms kept (a few hundred examples cannot teach batch statistics)."""
    import torch

    optimiser = torch.optim.AdamW(net.parameters(), peak, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, peak, total_steps=steps, pct_start=0.2)
    net.train()
    for m in net.modules():
        if isinstance(m, torch.nn.BatchNorm2d):
            m.eval()
    for step in range(steps):
        loss = loss_at(step)
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        schedule.step()
        progress((step + 1) / steps)


def again(steps: int) -> int:
    """The batches of a fine-tune that goes on from a network learned from most of the same dice (AGAIN of them)."""
    return max(1, round(steps * AGAIN))


def held(net: Any) -> dict[str, Any]:
    """A copy of `net`'s weights, to go on from."""
    return {k: v.detach().clone() for k, v in net.state_dict().items()}


def tune(images: Sequence[np.ndarray], dice: Sequence[Labelled], complete: Sequence[bool], steps: int | None = None,
         progress: Callable[[float], None] = lambda share: None, seed: int = 0,
         start: dict[str, Any] | None = None) -> tuple[bytes, dict[str, Any]]:
    """The shipped network (or the one of weights `start`, learned from some of these dice: then AGAIN of the
    batches) fine-tuned on `dice` (in the BGR pictures `images`) for `steps` batches (None: as many as `plan`
    says), as ONNX bytes, and its weights."""
    import torch

    net = network()
    torch.manual_seed(seed)
    net.load_state_dict(weights(WEIGHTS))
    planned, peak = plan(known(net, images, dice))  # as new as the dice are to the shipped network
    steps = steps or planned
    if start is not None:
        net.load_state_dict(start)
        steps = again(steps)
    rng = np.random.default_rng(seed)
    crops, labels = views(rng, images, dice, complete, steps * BATCH)
    shown = frozenset(d.label for d in dice if d.label)
    kept = keep(shown)  # of each batch, rendered dice of the faces the table did not show: they stay known
    crops[:: BATCH // kept], labels[:: BATCH // kept] = rendered(rng, len(crops[:: BATCH // kept]), shown)

    def batch(step: int) -> Any:
        part = slice(step * BATCH, (step + 1) * BATCH)
        return loss_of(net, crops[part], labels[part])

    fit(net, steps, peak, batch, progress)
    return export(net), held(net)
