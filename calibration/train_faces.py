#!/usr/bin/env python3
"""Train the face network offline, export it to ONNX for the table, print its validation figures.

    .venv/bin/pip install torch==2.13.0        # a training tool only: never needed at the table
    .venv/bin/python calibration/train_faces.py [--samples 80000] [--epochs 6] [--seed 1]
    .venv/bin/python calibration/train_faces.py --d8 --samples 20000 --astro 0 --flat 80000 --no-photos ...

Training data (the honest protocol, docs/vision.md): rendered dice (`render.face_sample`, seeds
derived from --seed), plus the labelled dice of ../shared/dice/webcam-two-white-d6-train (the
TRAIN split only; its -valid split and every other shared set are never read here), each cropped
a few times with its box moved and scaled a little, and crops of its pictures' bare table (they
are complete: every die there is labelled) as "not a die". --no-photos trains on rendered dice
alone. --slanted adds crops of the detector's renderer (calibration/dice_scenes.py: dice at a
slant, touching, on busy tables); --aspect stretches a share of all crops in height (photos
resized to another shape by other software).

Validation: rendered dice from other seeds, never trained on: accuracy of every class, of Nova
Aetas d8 with astro symbols alone, and how many are misread or withheld at the confidence
threshold written to models/faces.json (the lowest that keeps misreads of rendered dice at or
under --max-misread).

Writes assistant/vision/models/faces.onnx (the network: crop -> embedding) and faces.json (its
SHA-256, the class names, the cosine heads, the threshold). Rendered data is cached in --cache.

--d8 trains the close-up d8 network instead (faces_d8.onnx and .json): crops of facenet.D8_CONTEXT
times the box, of d8 dice only (Nova Aetas astro d8 and plain numeral d8, solid and flat) and
"not a die"; its value head names only those classes. Its crops are made at facenet.INPUT (so
the cache holds the same crops as for the first network's size) and shrunk to facenet.D8_INPUT
(`facenet.shrink`, as the reader does), and its network is the slimmer `build_model(..., close=True)`.

--trunk lite0 trains the second face network (facenet.SECOND_MODEL, read beside the first) on an
ImageNet-pretrained EfficientNet-Lite0 (calibration/lite0.py: its packages to install, its licence;
docs/vision.md, the second face network, for the command and what it gave).
`--init assistant/vision/models/faces_lite0.onnx` starts it from the shipped file (`unfold_lite0`).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import signal
import sys
import time
from collections.abc import Callable
from multiprocessing import Pool
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from assistant.vision import facenet as F  # noqa: E402
from assistant.vision.manifest import Entry, read_manifest  # noqa: E402
from assistant.vision.render import class_index, face_sample  # noqa: E402

PHOTOS = ROOT.parent / "shared" / "dice" / "webcam-two-white-d6-train"
CHUNK = 500


Job = tuple[int, int, "str | None", "str | None", float]  # seed, count, style, kind, context


def _chunk(args: Job) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    seed, count, style, kind, context = args
    cv2.setNumThreads(1)
    rng = np.random.default_rng(seed)
    out = [face_sample(rng, none_share=0.0 if style else 0.12, style=style, kind=kind, context=context)
           for _ in range(count)]
    return (np.stack([o[0] for o in out]), np.array([o[1] for o in out], np.int64),
            np.array([o[2] for o in out], np.int64))


def in_chunks(make: Callable[[Job], tuple[np.ndarray, ...]], count: int, first_seed: int, workers: int,
              style: str | None, kind: str | None, context: float) -> tuple[np.ndarray, ...]:
    """`count` crops made by `make` in chunks of CHUNK on `workers` processes, chunk k from seed
    first_seed + k, joined in order."""
    jobs = [(first_seed + k, min(CHUNK, count - k * CHUNK), style, kind, context)
            for k in range((count + CHUNK - 1) // CHUNK)]
    with Pool(workers) as pool:
        parts = pool.map(make, jobs)
    return tuple(np.concatenate([p[i] for p in parts]) for i in range(3))


def moved(rng: np.random.Generator, box: tuple[float, float, float, float],
          spread: float) -> tuple[float, float, float, float]:
    """`box` scaled by 0.85..1.2 and its centre moved by about `spread` of its longer side (the
    detector's boxes are not exact)."""
    x, y, w, h = box
    s = max(w, h)
    f = rng.uniform(0.85, 1.2)
    cx, cy = x + w / 2 + rng.normal(0, spread) * s, y + h / 2 + rng.normal(0, spread) * s
    return (cx - w * f / 2, cy - h * f / 2, w * f, h * f)


def bare_table(rng: np.random.Generator, image: np.ndarray, dice: list, side: float,
               context: float = F.CONTEXT) -> np.ndarray | None:
    """A crop of a `side` square of `image` well clear of every die's box (20 tries), or None."""
    h, w = image.shape[:2]
    for _attempt in range(20):
        b = (rng.uniform(0, w - side), rng.uniform(0, h - side), side, side)
        grown = (b[0] - 0.3 * side, b[1] - 0.3 * side, 1.6 * side, 1.6 * side)
        if not any(overlaps(grown, d) for d in dice):
            return F.prepare(image, b, context)
    return None


def rendered(count: int, seed: int, style: str | None, workers: int, kind: str | None = None,
             context: float = F.CONTEXT) -> tuple[np.ndarray, ...]:
    """`count` rendered crops from chunk seeds seed*100000 + k (so sets of other seeds never meet)."""
    return in_chunks(_chunk, count, seed * 100000, workers, style, kind, context)


FLAT_STYLES = ("astro",) * 10 + ("numerals",) * 7 + ("pips",) * 3  # the flat renderer's mix, by share
FLAT_D8_STYLES = ("astro",) * 3 + ("numerals",)  # ... for the close-up d8 network


def _flat_chunk(args: Job) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Crops of render.py's flat renderer (the benchmark's rendered sets come from it, from seeds 9001
    to 9004; these chunks use seeds far from those): one die on a small table, its box as a scene
    labels it (whole die) or as a tile (the picture), moved and scaled a little."""
    from assistant.vision.render import SYMBOL_INDEX, scene

    seed, count, style, kind, context = args
    cv2.setNumThreads(1)
    rng = np.random.default_rng(seed)
    crops, labels, symbols = [], [], []
    styles = FLAT_D8_STYLES if kind == "d8" else FLAT_STYLES
    while len(crops) < count:
        side = 90
        shot = scene(rng, (side * 2, side * 2), count=1, style=style or str(rng.choice(styles)), kind=kind,
                     die_side=int(side * rng.uniform(0.45, 0.8)), tilt=float(rng.uniform(0.03, 0.15)))
        if not shot.dice:
            continue
        die = shot.dice[0]
        x, y, w, h = (float(v) for v in die["box"])  # type: ignore[union-attr]
        if rng.random() < 0.4:  # a tile: the die's square picture, read whole
            cx, cy = x + w / 2, y + h / 2
            x, y, w, h = cx - side / 2, cy - side / 2, float(side), float(side)
        crops.append(F.prepare(shot.image, moved(rng, (x, y, w, h), 0.04), context))
        labels.append(class_index(str(die["kind"]), int(die["value"])))  # type: ignore[arg-type]
        symbols.append(SYMBOL_INDEX[die.get("symbol")])  # type: ignore[arg-type]
    return np.stack(crops), np.array(labels, np.int64), np.array(symbols, np.int64)


def flat(count: int, seed: int, workers: int, style: str | None = None, kind: str | None = None,
         context: float = F.CONTEXT) -> tuple[np.ndarray, ...]:
    return in_chunks(_flat_chunk, count, seed * 100000 + 70000, workers, style, kind, context)


def _scene_chunk(args: Job) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Crops of the detector's renderer (calibration/dice_scenes.py: solid dice at a slant, 30 to
    90 degrees of elevation, touching, on busy tables): each upright die by its whole box or its
    top face's box, moved and scaled a little, and a share of bare-table crops as "not a die"."""
    from calibration import dice_scenes

    seed, count, _style, kind, context = args
    cv2.setNumThreads(1)
    rng = np.random.default_rng(seed)
    crops: list[np.ndarray] = []
    labels: list[int] = []
    while len(crops) < count:
        shot = dice_scenes.scene(rng)
        dice = [lb for lb in shot.labels if lb.whole is not None and not lb.leaning and (kind is None or lb.kind == kind)]
        for lb in dice:
            assert lb.whole is not None
            box = lb.top if rng.random() < 0.4 and lb.top[2] > 4 else lb.whole
            crops.append(F.prepare(shot.image, moved(rng, box, 0.05), context))
            labels.append(class_index(lb.kind, lb.value))
        if dice and rng.random() < 0.5:  # the bare table, clutter and decoys: not a die
            side = float(np.median([max(lb.whole[2], lb.whole[3]) for lb in dice if lb.whole]))
            table = bare_table(rng, shot.image, [lb.whole for lb in shot.labels if lb.whole], side, context)
            if table is not None:
                crops.append(table)
                labels.append(0)
    return np.stack(crops[:count]), np.array(labels[:count], np.int64), np.zeros(count, np.int64)


def slanted(count: int, seed: int, workers: int, kind: str | None = None,
            context: float = F.CONTEXT) -> tuple[np.ndarray, ...]:
    """`count` crops of dice_scenes.py's scenes, from chunk seeds seed*100000 + 50000 + k (the
    benchmark's own checks of it use seeds from 700000; the detector's training, seeds from 7)."""
    return in_chunks(_scene_chunk, count, seed * 100000 + 50000, workers, None, kind, context)


def stretch(crops: np.ndarray, share: float, low: float, high: float, seed: int) -> np.ndarray:
    """A `share` of the crops as if their picture had been stretched: height times a random
    factor in low..high against the width (photos resized to another shape by other software, as
    in mixed-oblique-d6, whose 640x640 pictures come from 4:3 ones), cropped again about the
    stretched box's longer side as `facenet.prepare` would."""
    rng = np.random.default_rng(seed)
    out = crops.copy()
    n = crops.shape[1]
    for i in np.flatnonzero(rng.random(len(crops)) < share):
        a = float(np.exp(rng.uniform(np.log(low), np.log(high))))
        sx, sy = 1.0 / max(1.0, a), a / max(1.0, a)
        m = np.float32([[sx, 0, n / 2 * (1 - sx)], [0, sy, n / 2 * (1 - sy)]])
        out[i] = cv2.warpAffine(crops[i], m, (n, n), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return out


def harsh(crops: np.ndarray, share: float, seed: int) -> np.ndarray:
    """A `share` of the crops under a lamp's glare (a bright spot of up to +220 on the die) or
    shaken (a streak of up to a third of the crop), half each, so that the network is not sure of
    a face it cannot see."""
    from assistant.vision.render import streak

    rng = np.random.default_rng(seed + 1)
    out = crops.copy()
    n = crops.shape[1]
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
    for i in np.flatnonzero(rng.random(len(crops)) < share):
        if rng.random() < 0.5:
            cx, cy = n / 2 + rng.uniform(-0.3, 0.3, 2) * n
            spot = rng.uniform(80, 220) * np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * (rng.uniform(0.1, 0.2) * n) ** 2))
            out[i] = np.clip(crops[i] + spot, 0, 255).astype(crops.dtype)
        else:
            length = int(rng.integers(3, max(4, n // 3)))
            kernel = streak(length, float(rng.uniform(0, 180)))
            out[i] = cv2.filter2D(crops[i], -1, kernel, borderType=cv2.BORDER_REPLICATE)
    return out


def overlaps(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return not (a[0] + a[2] <= b[0] or b[0] + b[2] <= a[0] or a[1] + a[3] <= b[1] or b[1] + b[3] <= a[1])


def photo_crops(manifest: Path, per_die: int, seed: int,
                context: float = F.CONTEXT) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Crops of the labelled dice of a TRAIN manifest (boxes moved a little), and of its bare table;
    a die's "symbol" (rendered manifests carry it) labels the symbol head."""
    from assistant.vision.images import load_image
    from assistant.vision.render import SYMBOL_INDEX, camera_effects

    rng = np.random.default_rng(seed)
    crops, labels, symbols = [], [], []
    for item in read_manifest(manifest):
        if not isinstance(item, Entry):
            continue
        image = load_image(item.image)
        for die in item.dice:
            x, y, bw, bh = die.box
            for _ in range(per_die):
                s = max(bw, bh)
                cx, cy = x + bw / 2 + rng.normal(0, 0.05) * s, y + bh / 2 + rng.normal(0, 0.05) * s
                f = rng.uniform(0.85, 1.25)
                src = image
                if rng.random() < 0.5:  # the camera's light and noise, a little differently
                    pad = int(s)
                    x0, y0 = max(0, int(x) - pad), max(0, int(y) - pad)
                    part = image[y0 : int(y + bh) + pad, x0 : int(x + bw) + pad].astype(np.float32)
                    src = camera_effects(rng, part, s)
                    cx, cy = cx - x0, cy - y0
                crops.append(F.prepare(src, (cx - bw * f / 2, cy - bh * f / 2, bw * f, bh * f), context))
                labels.append(class_index(die.kind, die.value))
                symbols.append(SYMBOL_INDEX[die.symbol])
        if item.complete and item.dice:
            s = float(np.median([max(d.box[2], d.box[3]) for d in item.dice]))
            for _ in range(2 * len(item.dice)):
                table = bare_table(rng, image, [d.box for d in item.dice], s, context)
                if table is not None:
                    crops.append(table)
                    labels.append(0)
                    symbols.append(0)
    return np.stack(crops), np.array(labels, np.int64), np.array(symbols, np.int64)


def build_model(dim: int, close: bool = False):  # type: ignore[no-untyped-def]
    import torch.nn as nn

    def cbr(i: int, o: int, k: int = 3, s: int = 1, g: int = 1) -> list[nn.Module]:
        return [nn.Conv2d(i, o, k, s, k // 2, groups=g, bias=False), nn.BatchNorm2d(o), nn.ReLU()]

    if close:  # the close-up d8 network: D8_INPUT (48) grey -> 24 -> 12 -> 6 -> 3, a 64-channel middle
        return nn.Sequential(
            *cbr(1, 16, 5, 2), *cbr(16, 32, 3, 2), *cbr(32, 64, 3, 2), *cbr(64, 64), *cbr(64, 128, 3, 2),
            nn.Flatten(), nn.Linear(128 * (F.D8_INPUT // 16) ** 2, dim),
        )
    # 64x64 grey -> 32 -> 16 -> 8 -> 4 (strided convolutions: cheap on a Pi), then the embedding
    return nn.Sequential(
        *cbr(1, 16, 5, 2), *cbr(16, 32, 3, 2), *cbr(32, 64, 3, 2), *cbr(64, 96), *cbr(96, 128, 3, 2),
        nn.Flatten(), nn.Linear(128 * 16, dim),
    )


class Heads:  # the cosine heads, trained with the network
    def __init__(self, torch, dim: int, scale: float) -> None:  # type: ignore[no-untyped-def]
        self.values = torch.nn.Parameter(torch.randn(len(F.CLASSES), dim) * 0.1)
        self.symbols = torch.nn.Parameter(torch.randn(len(F.SYMBOLS), dim) * 0.1)
        self.scale = scale


def exported(onnx_path: Path) -> tuple[list[list[np.ndarray]], list[np.ndarray]]:
    """An exported network's convolutions (weight, bias; each batch norm folded in), in order, and its linear layer."""
    import onnx
    from onnx import numpy_helper

    graph = onnx.load(str(onnx_path)).graph
    weights = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    convs = [[weights[n] for n in node.input[1:]] for node in graph.node if node.op_type == "Conv"]
    (gemm,) = [[weights[n] for n in node.input[1:]] for node in graph.node if node.op_type == "Gemm"]
    return convs, gemm


def norm_to(torch, norm, mean, var, bias: np.ndarray) -> None:  # type: ignore[no-untyped-def]
    """Set a batch norm to statistics (`mean`, `var`) of its convolution's output and make it compute
    that output plus `bias` (the folded convolution's) on them."""
    norm.running_mean.copy_(mean)
    norm.running_var.copy_(var)
    norm.weight.copy_(torch.sqrt(var + norm.eps))
    norm.bias.copy_(torch.tensor(bias) + mean)


def last_layers(torch, linear, heads: Heads, gemm: list[np.ndarray], onnx_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The linear layer and the cosine heads of an exported network (its ONNX file and JSON)."""
    linear.weight.copy_(torch.tensor(gemm[0]))
    linear.bias.copy_(torch.tensor(gemm[1]))
    meta = json.loads(onnx_path.with_suffix(".json").read_text())
    heads.values.copy_(torch.from_numpy(F.decode(meta["values"], tuple(heads.values.shape))))
    heads.symbols.copy_(torch.from_numpy(F.decode(meta["symbols"], tuple(heads.symbols.shape))))


def unfold(torch, model, heads: Heads, onnx_path: Path, crops: np.ndarray) -> None:  # type: ignore[no-untyped-def]
    """Start from an exported model (no checkpoint kept): its ONNX file has each batch norm folded
    into the convolution before it, so each norm is set to the statistics of `crops` at that
    layer (mean and spread of the convolution's output), and then computes what the export does."""
    convs, gemm = exported(onnx_path)
    layers = list(model)
    h = torch.from_numpy(F.blob(crops))
    with torch.no_grad():
        for conv, norm, (w, b) in zip(layers[0::3], layers[1::3], convs):
            conv.weight.copy_(torch.tensor(w))
            z = conv(h)
            norm_to(torch, norm, z.mean((0, 2, 3)), z.var((0, 2, 3), unbiased=False), b)
            h = torch.relu(z + torch.tensor(b)[None, :, None, None])
        last_layers(torch, layers[-1], heads, gemm, onnx_path)


def unfold_lite0(torch, model, heads: Heads, onnx_path: Path, crops: np.ndarray) -> None:  # type: ignore[no-untyped-def]
    """`unfold` for the Lite0 network: its learning blocks, linear layer and heads set from an exported model.
    The frozen front keeps ImageNet's weights, as the export did (checked against the file's); each later
    convolution takes the file's folded weights, and its batch norm the statistics of `crops` there
    (gathered in one pass with every norm first passing the folded output through unchanged)."""
    convs, gemm = exported(onnx_path)
    pairs = [(model.front[0], model.front[1])]
    for block in [*model.front[3:], *model.back]:
        if getattr(block, "_expand_conv", None) is not None:
            pairs.append((block._expand_conv, block._bn0))
        pairs += [(block._depthwise_conv, block._bn1), (block._project_conv, block._bn2)]
    if len(pairs) != len(convs):
        raise SystemExit(f"{onnx_path}: {len(convs)} convolutions, the Lite0 network has {len(pairs)}")
    frozen = len(pairs) - sum(1 for conv, _ in pairs if conv.weight.requires_grad)
    learning = list(zip(pairs[frozen:], convs[frozen:]))
    with torch.no_grad():
        for (conv, norm), (w, _) in zip(pairs[:frozen], convs[:frozen]):
            k = norm.weight / torch.sqrt(norm.running_var + norm.eps)
            gap = float((conv.weight * k[:, None, None, None] - torch.tensor(w)).abs().max())
            if gap > 1e-4:
                raise SystemExit(f"{onnx_path}: its frozen front is not ImageNet's (by {gap:.1e})")
        seen, hooks = {}, []
        for n, ((conv, norm), (w, b)) in enumerate(learning):
            conv.weight.copy_(torch.tensor(w))
            zero = torch.zeros(len(b))
            norm_to(torch, norm, zero, zero + 1.0 - norm.eps, b)  # the folded output, unchanged
            hooks.append(conv.register_forward_hook(
                lambda m, i, o, n=n: seen.__setitem__(n, (o.mean((0, 2, 3)), o.var((0, 2, 3), unbiased=False)))))
        model.eval()
        model(torch.from_numpy(F.blob(crops)))
        for hook in hooks:
            hook.remove()
        for n, ((_, norm), (_, b)) in enumerate(learning):
            norm_to(torch, norm, *seen[n], b)
        last_layers(torch, model.fc, heads, gemm, onnx_path)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=80000, help="rendered training crops")
    parser.add_argument("--astro", type=int, default=16000, help="extra rendered Nova Aetas d8 crops")
    parser.add_argument("--val", type=int, default=4000, help="rendered validation crops (and as many Nova d8)")
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dim", type=int, default=64, help="embedding size")
    parser.add_argument("--workers", type=int, default=2, help="processes rendering the crops")
    parser.add_argument("--threads", type=int, default=1, help="torch's threads (1 is fastest on a busy machine)")
    parser.add_argument("--no-photos", action="store_true", help="rendered dice only")
    parser.add_argument("--per-die", type=int, default=8, help="crops of each labelled photo die")
    parser.add_argument("--photoreal", type=Path, action="append", default=[],
                        help="a folder of photoreal.py's scenes whose labelled dice to add (repeatable)")
    parser.add_argument("--max-misread", type=float, default=0.003, help="misread share allowed at the threshold")
    parser.add_argument("--flat", type=int, default=0, help="crops of the flat renderer (render.scene) to add")
    parser.add_argument("--slanted", type=int, default=0,
                        help="crops of the detector's renderer (dice_scenes.py: dice at a slant) to add")
    parser.add_argument("--aspect", type=float, nargs=3, default=(0.0, 1.0, 1.0), metavar=("SHARE", "LOW", "HIGH"),
                        help="a SHARE of the training crops stretched in height by LOW..HIGH (`stretch`)")
    parser.add_argument("--harsh", type=float, default=0.0, help="share of training crops given glare or a shake")
    parser.add_argument("--flat-repeat", type=int, default=1, help="times the flat crops are put in an epoch")
    parser.add_argument("--solid-share", type=float, default=1.0, help="share of the --samples solid crops used")
    parser.add_argument("--init", type=Path,
                        help="start from this checkpoint (a second stage), or from an exported model (.onnx)")
    parser.add_argument("--lr", type=float, default=3e-3, help="the one-cycle schedule's peak learning rate")
    parser.add_argument("--data-only", action="store_true", help="make and cache the training data, then stop")
    parser.add_argument("--d8", action="store_true", help="train the close-up d8 network (faces_d8.onnx)")
    parser.add_argument("--turns", type=int, choices=(1, 2, 3, 4),
                        help="quarter turns of a crop read in validation (the close-up d8 network: their mean, 4 by "
                        "default; the first: as they agree, facenet.agreed, 1 by default); the model's JSON says it, "
                        "the reader reads as many")
    parser.add_argument("--trunk", choices=("small", "lite0"), default="small",
                        help="the network: the small one of `build_model`, or an ImageNet-pretrained EfficientNet-Lite0 "
                        "(calibration/lite0.py; the first network only)")
    parser.add_argument("--frozen", type=int, default=5, help="Lite0's first blocks kept as ImageNet taught them")
    parser.add_argument("--cache", type=Path, default=Path("/tmp/nova-faces-cache"))
    parser.add_argument("--out", type=Path, default=ROOT / "assistant" / "vision" / "models")
    args = parser.parse_args()
    if args.turns is None:
        args.turns = F.D8_TURNS if args.d8 else 1
    if args.trunk != "small" and args.d8:
        parser.error("--trunk lite0 trains the second face network, not the close-up d8 one")

    import torch
    import torch.nn.functional as TF

    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    cv2.setNumThreads(1)  # OpenCV's threads in this process (the photos' crops) would hang the render pool's forks
    torch.set_num_threads(args.threads)
    args.cache.mkdir(parents=True, exist_ok=True)

    kind, context = ("d8", F.D8_CONTEXT) if args.d8 else (None, F.CONTEXT)
    side = F.D8_INPUT if args.d8 else F.INPUT  # the network's input side (crops are made and cached at INPUT)
    allowed = F.D8_CLASSES if args.d8 else np.ones(len(F.CLASSES), bool)  # what the value head names
    named = np.cumsum(allowed) - 1  # a class's place among those
    prefix = "d8-" if args.d8 else ""

    def cached(name: str, make):  # type: ignore[no-untyped-def]
        path = args.cache / f"{prefix}{name}.npz"
        if path.exists():
            d = np.load(path)
            return F.shrink(d["x"], side), d["y"], d["s"]
        t = time.time()
        x, y, s = make()
        np.savez(path, x=x, y=y, s=s)
        print(f"{name}: {len(x)} crops in {time.time() - t:.0f} s", flush=True)
        return F.shrink(x, side), y, s

    seed = args.seed
    train = [cached(f"train-{seed}-{args.samples}", lambda: rendered(args.samples, seed, None, args.workers, kind, context)),
             cached(f"astro-{seed}-{args.astro}", lambda: rendered(args.astro, seed + 1000, "astro", args.workers,
                                                                   kind, context))]
    if args.solid_share < 1.0:  # a second stage: part of the solid crops, so the flat ones weigh more
        keep = int(len(train[0][0]) * args.solid_share)
        train[0] = tuple(a[:keep] for a in train[0])
    if args.flat:
        made = cached(f"flat-{seed}-{args.flat}", lambda: flat(args.flat, seed, args.workers, None, kind, context))
        train.extend([made] * args.flat_repeat)
    if args.slanted:
        train.append(cached(f"slanted-{seed}-{args.slanted}", lambda: slanted(args.slanted, seed, args.workers, kind,
                                                                             context)))
    if args.data_only:
        return 0
    val = cached(f"val-{seed}-{args.val}", lambda: rendered(args.val, seed + 5000, None, args.workers, kind, context))
    val_astro = cached(f"valastro-{seed}-{args.val}", lambda: rendered(args.val, seed + 6000, "astro", args.workers,
                                                                      kind, context))
    val_flat = cached(f"valflat-{seed}-{args.val // 2}", lambda: flat(args.val // 2, seed + 7000, args.workers, None,
                                                                      kind, context))
    val_nova = cached(f"valnova-{seed}-{args.val // 4}", lambda: flat(args.val // 4, seed + 8000, args.workers, "astro",
                                                                      kind, context))
    val_slanted = cached(f"valslanted-{seed}-{args.val // 2}", lambda: slanted(args.val // 2, seed + 9000, args.workers,
                                                                              kind, context))
    if not args.no_photos and not args.d8:
        if (PHOTOS / "manifest.jsonl").exists():
            photos = photo_crops(PHOTOS / "manifest.jsonl", args.per_die, seed)
            print(f"{PHOTOS.name} (TRAIN split): {len(photos[0])} crops", flush=True)
            train.append(photos)
        else:
            print(f"({PHOTOS} not found: rendered dice only)")
    for folder in args.photoreal:
        pictures = len((folder / "manifest.jsonl").read_text().splitlines())
        made = cached(f"photoreal-{folder.name}-{pictures}-{args.per_die}-{seed}",
                      lambda: photo_crops(folder / "manifest.jsonl", args.per_die, seed, context))
        print(f"{folder} (photoreal.py): {len(made[0])} crops", flush=True)
        train.append(made)
    x = np.concatenate([t[0] for t in train])
    if args.aspect[0] > 0:
        x = stretch(x, *args.aspect, seed)
    if args.harsh > 0:
        x = harsh(x, args.harsh, seed)
    y = np.concatenate([t[1] for t in train])
    s = np.concatenate([t[2] for t in train])
    print(f"training on {len(x)} crops; classes {np.bincount(y, minlength=len(F.CLASSES)).tolist()}", flush=True)

    if args.trunk == "lite0":
        from calibration import lite0

        model, front = lite0.build(args.dim, args.frozen)

        def embed(batch):  # type: ignore[no-untyped-def]
            return model.tail(torch.from_numpy(front(batch.numpy())))
    else:
        model = build_model(args.dim, close=args.d8)
        embed = model
    heads = Heads(torch, args.dim, 16.0)
    if args.init and args.init.suffix == ".onnx":
        (unfold_lite0 if args.trunk == "lite0" else unfold)(torch, model, heads, args.init, x[:: max(1, len(x) // 4096)])
        model.eval()
        with torch.no_grad():
            gap = float(np.abs(model(torch.from_numpy(F.blob(x[:256]))).numpy() - F.FaceNet(args.init).embed(x[:256])).max())
        model.train()
        if gap > 1e-3:
            raise SystemExit(f"{args.init}: unfolded, the network gives other embeddings than the file (by {gap:.2e})")
        print(f"starting from {args.init} (its batch norms unfolded; embeddings within {gap:.1e} of the file's)", flush=True)
    elif args.init:
        start = torch.load(args.init)
        model.load_state_dict(start["model"])
        heads.values.data.copy_(start["values"])
        heads.symbols.data.copy_(start["symbols"])
        print(f"starting from {args.init}", flush=True)
    params = [p for p in model.parameters() if p.requires_grad] + [heads.values, heads.symbols]
    print(f"parameters: {sum(p.numel() for p in params)}", flush=True)
    batch = 256
    steps = args.epochs * (len(x) // batch)
    opt = torch.optim.AdamW(params, lr=args.lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=max(steps, 1), pct_start=0.1)
    xt = torch.from_numpy(F.blob(x))
    yt, st = torch.from_numpy(named[y]), torch.from_numpy(s)
    keep = torch.from_numpy(allowed)

    def logits(emb):  # type: ignore[no-untyped-def]
        e = TF.normalize(emb, dim=1)
        return (heads.scale * e @ TF.normalize(heads.values, dim=1)[keep].T,
                heads.scale * e @ TF.normalize(heads.symbols, dim=1).T)

    def predict(data):  # type: ignore[no-untyped-def]
        model.eval()
        out_v, out_s = [], []
        with torch.no_grad():
            xb_all = torch.from_numpy(F.blob(data[0]))
            for i in range(0, len(xb_all), 1024):  # as faces.py reads with each network
                both = [logits(embed(torch.rot90(xb_all[i : i + 1024], k, (2, 3)))) for k in range(args.turns)]
                chances = np.stack([torch.softmax(lv, 1).numpy() for lv, _ in both])
                out_v.append(F.together(chances, args.d8))
                out_s.append(np.mean([torch.softmax(ls, 1).numpy() for _, ls in both], axis=0))
        model.train()
        return np.concatenate(out_v), np.concatenate(out_s)

    g = torch.Generator().manual_seed(seed)
    step = 0
    stop = {"now": False}

    def interrupted(signum, frame):  # type: ignore[no-untyped-def]
        stop["now"] = True  # SIGTERM / SIGINT: finish this batch, then validate and export what there is

    signal.signal(signal.SIGTERM, interrupted)
    signal.signal(signal.SIGINT, interrupted)
    for epoch in range(args.epochs):
        if stop["now"]:
            print(f"stopped early, before epoch {epoch + 1}: exporting the network as it is", flush=True)
            break
        t = time.time()
        order = torch.randperm(len(xt), generator=g)
        total = 0.0
        for i in range(0, len(order) - batch + 1, batch):
            idx = order[i : i + batch]
            xb = xt[idx]
            # a die turned by quarter turns shows the same value: each quarter of the batch turned
            # by its own multiple of 90 degrees; crops are normalised, so only a little noise on top
            q = len(xb) // 4
            xb = torch.cat([torch.rot90(xb[k * q : (k + 1) * q if k < 3 else len(xb)], k, (2, 3))
                            for k in range(4)])
            xb = xb + 0.05 * torch.randn_like(xb)
            lv, ls = logits(embed(xb))
            loss = TF.cross_entropy(lv, yt[idx], label_smoothing=0.05) + 0.5 * TF.cross_entropy(ls, st[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            step += 1
            total += loss.item()
            if stop["now"]:
                break
        pv, _ = predict(val)
        acc = float((pv.argmax(1) == named[val[1]]).mean())
        torch.save({"model": model.state_dict(), "values": heads.values.detach(), "symbols": heads.symbols.detach()},
                   args.cache / f"{prefix}checkpoint-{seed}.pt")
        print(f"epoch {epoch + 1}/{args.epochs}: loss {total / max(1, i // batch + 1):.3f}, rendered val "
              f"{100 * acc:.2f}% ({time.time() - t:.0f} s)", flush=True)

    # the confidence threshold: the lowest that keeps rendered misreads at or under --max-misread
    pv, ps = predict(val)
    pa, psa = predict(val_astro)
    pf, psf = predict(val_flat)
    pn, psn = predict(val_nova)
    pl, _ = predict(val_slanted)
    # the close-up d8 network's rule counts the sets it was chosen by (solid and flat), not the slanted dice
    sets = [(pv, val), (pa, val_astro), (pf, val_flat), (pn, val_nova)] + ([] if args.d8 else [(pl, val_slanted)])
    conf = np.concatenate([p.max(1) for p, _ in sets])
    wrong = np.concatenate([p.argmax(1) != named[v[1]] for p, v in sets])
    threshold = 0.5
    for th in np.arange(0.3, 0.99, 0.01):
        if wrong[conf >= th].sum() <= args.max_misread * len(conf):
            threshold = float(th)
            break

    def figures(name: str, p: np.ndarray, classes: np.ndarray) -> None:
        labels = named[classes]
        if not len(labels):
            return
        top = p.argmax(1)
        ok = p.max(1) >= threshold
        right = (top == labels) & ok
        misread = (top != labels) & ok
        print(f"  {name:28s} n {len(labels):5d}  argmax right {100 * (top == labels).mean():6.2f}%  "
              f"at threshold: right {100 * right.mean():6.2f}%  misread {100 * misread.mean():5.2f}%  "
              f"withheld {100 * (~ok).mean():5.2f}%")

    def by_kind(prefix: str, p: np.ndarray, classes: np.ndarray) -> None:
        for k, name in ((slice(1, 7), "d6"), (slice(7, 15), "d8")):
            keep = (classes >= k.start) & (classes < k.stop)
            figures(prefix + name, p[keep], classes[keep])

    print(f"validation on rendered dice (seeds never trained on), threshold {threshold:.2f}:")
    figures("all kinds", pv, val[1])
    by_kind("", pv, val[1])
    figures("not a die", pv[val[1] == 0], val[1][val[1] == 0])
    figures("Nova Aetas d8 (astro)", pa, val_astro[1])
    print(f"  symbol head on Nova d8: {100 * float((psa.argmax(1) == val_astro[2]).mean()):.2f}% right")
    print("validation on the flat renderer (render.scene, seeds never trained on):")
    figures("all flat", pf, val_flat[1])
    figures("flat Nova Aetas d8 (astro)", pn, val_nova[1])
    if not args.d8:
        d8 = pn.copy()
        d8[:, :7] = 0  # as `--kind d8` reads them
        figures("flat Nova Aetas d8, --kind d8", d8 / d8.sum(1, keepdims=True), val_nova[1])
    print(f"  symbol head on flat Nova d8: {100 * float((psn.argmax(1) == val_nova[2]).mean()):.2f}% right")
    by_kind("flat ", pf, val_flat[1])
    print("validation on the detector's renderer (dice_scenes.py: dice at a slant, seeds never trained on):")
    figures("all slanted", pl, val_slanted[1])
    by_kind("slanted ", pl, val_slanted[1])

    # export: the network (crop -> embedding) to ONNX; heads, threshold and checksum to JSON
    args.out.mkdir(parents=True, exist_ok=True)
    onnx_path = args.out / (F.D8_MODEL if args.d8 else F.SECOND_MODEL if args.trunk == "lite0" else F.MODEL)
    model.eval()
    torch.onnx.export(model, torch.zeros(1, 1, side, side), str(onnx_path), input_names=["crop"],
                      output_names=["embedding"], dynamic_axes={"crop": {0: "n"}, "embedding": {0: "n"}},
                      opset_version=13, dynamo=False)
    digest = hashlib.sha256(onnx_path.read_bytes()).hexdigest()
    meta = {
        "onnx_sha256": digest, "classes": list(F.CLASSES), "symbol_names": list(F.SYMBOLS),
        "embedding": args.dim, "scale": heads.scale, "context": context, "input": side,
        "threshold": round(threshold, 3), "turns": args.turns,
        "values": F.encode(heads.values.detach().numpy()), "symbols": F.encode(heads.symbols.detach().numpy()),
        "trained": {"seed": seed, "rendered": int(args.samples * args.solid_share), "astro": args.astro,
                    "flat": args.flat, "flat_repeat": args.flat_repeat,
                    "slanted": args.slanted, "aspect": list(args.aspect), "epochs": args.epochs, "lr": args.lr,
                    "init": str(args.init) if args.init else None, "d8": args.d8, "trunk": args.trunk,
                    "frozen": args.frozen if args.trunk == "lite0" else None,
                    "photos": None if args.no_photos else PHOTOS.name + " (train split)",
                    "photoreal": [str(f) for f in args.photoreal], "harsh": args.harsh},
    }
    if args.trunk == "lite0":  # OpenCV's new engine runs it faster than the classic one (facenet.FaceNet)
        meta["opencv_engine"] = "ENGINE_NEW"
    onnx_path.with_suffix(".json").write_text(json.dumps(meta, indent=1) + "\n")
    # the exported model must give what torch gives
    net = F.FaceNet(onnx_path)
    with torch.no_grad():
        ref = model(torch.from_numpy(F.blob(val[0][:64]))).numpy()
    print(f"wrote {onnx_path} ({onnx_path.stat().st_size // 1024} KB), OpenCV vs torch max difference "
          f"{float(np.abs(net.embed(val[0][:64]) - ref).max()):.2e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
