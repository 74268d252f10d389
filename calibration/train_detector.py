#!/usr/bin/env python3
"""Train the dice detector (assistant/vision/models/dice_detector.onnx). A training tool only.

    .venv/bin/pip install torch==2.13.0 onnx      # CPU wheels; never a run-time dependency
    .venv/bin/python calibration/train_detector.py [--scenes 6000] [--steps 6000] [--seed 7]

Data (HONEST PROTOCOL: nothing here is ever a picture the benchmark scores, except the webcam
TRAIN split, which the benchmark reports only as a "seen" figure):
  - rendered solid dice on procedural tables (calibration/dice_scenes.py), seeds from --seed;
  - top-down rendered trays (assistant.vision.render.scene);
  - ../shared/dice/webcam-two-white-d6-train: 4 of every 5 frames in manifest order; the 5th
    frame is held out and scored below, with rendered scenes the model never saw;
  - with --photoreal DIR (repeatable): the 640x480 scenes of calibration/photoreal.py in DIR,
    --photoreal-share of each batch.
Options for harder tables: --crowds, a share of rendered scenes that are heaps of 16 to 40
touching dice; --aspect, a share of frames stretched in height (photos resized to another shape).
Network: 320 px input (half a 640 frame), depthwise-separable encoder to 1/16, two upsampling
steps back to 1/4 (8 frame pixels a cell); 10 output channels (see assistant/vision/detector.py).
Loss: CenterNet's focal loss on the centre map, L1 on offset and sizes at each centre, BCE on lean.
Seeded: the same command gives the same model (torch on CPU, one thread by default).
"""

from __future__ import annotations

import argparse
import os
import json
import pickle
import sys
import time
from multiprocessing import Pool
from pathlib import Path

import cv2
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from assistant.vision import detector as D  # noqa: E402
from assistant.vision.detector import choose_threshold  # noqa: E402
from assistant.vision.matching import match  # noqa: E402
from calibration import dice_scenes  # noqa: E402

SHARED = ROOT.parent / "shared" / "dice"
TRAIN_SET = SHARED / "webcam-two-white-d6-train"
W, H = 320, 240  # the network's input for a 640x480 frame
CW, CH = 256, 192  # training crops of that input (the network is fully convolutional)
OW, OH = W // D.STRIDE, H // D.STRIDE
CELL = 640 / OW  # frame pixels per output cell
SCALE = (0.6, 1.5)  # augmentation: zoom range (set from --scale)
DECOYS = 0.0  # share of training pictures given hard negatives (set from --decoys)
TRAYS = 0.12  # share of rendered scenes that are top-down trays of render.py (set from --trays)
ASPECT = (0.0, 1.0, 1.0)  # share of training pictures stretched in height, and by how much (set from --aspect)
CROWDS = 0.0  # share of rendered scenes that are heaps of 16 to 40 dice (set from --crowds)


# -- the network ---------------------------------------------------------------------------


def cbr(i: int, o: int, s: int = 1, k: int = 3, d: int = 1, g: int = 1) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(i, o, k, s, padding=d * (k // 2), dilation=d, groups=g, bias=False),
                         nn.BatchNorm2d(o), nn.ReLU(inplace=True))


def sep(i: int, o: int, s: int = 1, d: int = 1) -> nn.Sequential:
    return nn.Sequential(cbr(i, i, s, 3, d, g=i), cbr(i, o, 1, 1))


class Net(nn.Module):
    def __init__(self, c: tuple[int, int, int, int] = (8, 24, 48, 64)) -> None:
        super().__init__()
        self.s1 = cbr(3, c[0], 2)
        self.s2 = nn.Sequential(sep(c[0], c[1], 2), sep(c[1], c[1]))
        self.s3 = nn.Sequential(sep(c[1], c[2], 2), sep(c[2], c[2]))
        self.s4 = nn.Sequential(sep(c[2], c[3], 2), sep(c[3], c[3]), sep(c[3], c[3], d=2))
        self.f3, self.l3 = cbr(c[3] + c[2], c[2], k=1), sep(c[2], c[2])
        self.f2, self.l2 = cbr(c[2] + c[1], c[1], k=1), sep(c[1], c[1])
        self.head = nn.Conv2d(c[1], D.CHANNELS, 1)
        nn.init.constant_(self.head.bias, 0.0)
        with torch.no_grad():
            self.head.bias[0] = -4.0  # few cells hold a centre

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x * (1 / 255.0) - 0.5
        x2 = self.s2(self.s1(x))
        x3 = self.s3(x2)
        x4 = self.s4(x3)
        y = self.l3(self.f3(torch.cat([F.interpolate(x4, scale_factor=2.0, mode="nearest"), x3], 1)))
        y = self.l2(self.f2(torch.cat([F.interpolate(y, scale_factor=2.0, mode="nearest"), x2], 1)))
        return self.head(y)


class Exported(nn.Module):
    """What OpenCV runs: the centre and lean channels squashed to 0..1."""

    def __init__(self, net: Net) -> None:
        super().__init__()
        self.net = net

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.net(x)
        return torch.cat([torch.sigmoid(y[:, :1]), y[:, 1:9], torch.sigmoid(y[:, 9:])], 1)


def load_onnx(net: Net, path: Path) -> None:
    """Warm start: the weights of an exported model (batch norm folded into its convolutions by the
    export) into `net`, whose batch norms become fixed affine layers (identity statistics, the folded
    bias). Train such a net with `freeze_norms`: batch statistics would undo the folding."""
    import onnx
    from onnx import numpy_helper

    model = onnx.load(str(path))
    inits = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    convs = [n for n in model.graph.node if n.op_type == "Conv"]
    blocks = [m for m in net.modules() if isinstance(m, nn.Sequential) and len(m) == 3
              and isinstance(m[0], nn.Conv2d) and isinstance(m[1], nn.BatchNorm2d)]
    if len(convs) != len(blocks) + 1:
        raise ValueError(f"{path}: {len(convs)} convolutions, the network has {len(blocks) + 1}")
    with torch.no_grad():
        for node, block in zip(convs[:-1], blocks):
            w, b = inits[node.input[1]], inits[node.input[2]]
            block[0].weight.copy_(torch.from_numpy(w))
            bn = block[1]
            bn.weight.fill_(1.0)
            bn.bias.copy_(torch.from_numpy(b))
            bn.running_mean.zero_()
            bn.running_var.fill_(1.0 - bn.eps)
        head = convs[-1]
        net.head.weight.copy_(torch.from_numpy(inits[head.input[1]]))
        net.head.bias.copy_(torch.from_numpy(inits[head.input[2]]))


def freeze_norms(net: nn.Module) -> None:
    """Batch norms use their stored statistics (still learning their scale and bias)."""
    for m in net.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.eval()


# -- data ----------------------------------------------------------------------------------

Sample = tuple[np.ndarray, list[dice_scenes.Label]]  # a 640x480 frame and its labels


def synthetic(seed: int) -> Sample:
    rng = np.random.default_rng(seed)
    if rng.random() < TRAYS:  # a top-down tray from the reader's own renderer
        from assistant.vision.render import scene as tray_scene

        shot = tray_scene(rng, (640, 480), count=int(rng.integers(0, 9)))
        labels = []
        for d in shot.dice:
            x, y, w, h = d["box"]  # type: ignore[misc]
            labels.append(dice_scenes.Label((x + w / 2, y + h / 2), (-1, -1, -1, -1), (x, y, w, h)))
        return shot.image, labels
    s = dice_scenes.scene(rng, crowd=CROWDS > 0 and rng.random() < CROWDS)
    return s.image, s.labels


def synthetic_many(seeds: range) -> list[Sample]:
    return [synthetic(s) for s in seeds]


def webcam(holdout: bool) -> list[Sample]:
    """The webcam TRAIN split: frames 0-3 of every 5 for training, frame 4 held out."""
    manifest = TRAIN_SET / "manifest.jsonl"
    if not manifest.exists():
        print(f"({manifest} not found: training on rendered scenes only)")
        return []
    out = []
    for i, line in enumerate(manifest.read_text().splitlines()):
        if (i % 5 == 4) != holdout:
            continue
        item = json.loads(line)
        image = cv2.imread(str(TRAIN_SET / item["image"]))
        if image is None or image.shape[:2] != (480, 640):
            continue
        labels = [dice_scenes.Label((x + w / 2, y + h / 2), (x, y, w, h), None) for x, y, w, h in
                  (d["box"] for d in item["dice"])]
        out.append((image, labels))
    return out


def photoreal(folder: Path) -> list[Sample]:
    """The 640x480 pictures of calibration/photoreal.py in `folder`, every die whose top face's centre
    is in the picture labelled (leaning where its top face tilts more than dice_scenes.LEAN_DEGREES)."""
    out = []
    for line in (folder / "labels.jsonl").read_text().splitlines():
        shot = json.loads(line)
        image = cv2.imread(str(folder / shot["image"]))
        if image is None or image.shape[:2] != (480, 640):
            continue
        labels = [dice_scenes.Label(tuple(d["centre"]), tuple(d["top"]), tuple(d["whole"]),
                                    d.get("tilt", 0.0) > dice_scenes.LEAN_DEGREES)
                  for d in shot["dice"]]  # photoreal.finish keeps there only the dice centred in the picture
        out.append((image, labels))
    return out


def draw(pool: list[Sample], n: int, rng: np.random.Generator) -> list[Sample]:
    """`n` samples of `pool`, drawn with replacement (none where n is 0)."""
    return [pool[int(i)] for i in rng.integers(0, len(pool), n)] if n else []


def augment(image: np.ndarray, labels: list[dice_scenes.Label], rng: np.random.Generator) -> Sample:
    """Scale, shift and flip a 640x480 frame and its labels (the result is still 640x480); with
    --aspect, a share stretched in height against the width (photos resized to another shape)."""
    s = float(np.exp(rng.uniform(np.log(SCALE[0]), np.log(SCALE[1]))))
    sy = s * float(np.exp(rng.uniform(np.log(ASPECT[1]), np.log(ASPECT[2])))) if ASPECT[0] > 0 and rng.random() < ASPECT[0] else s
    tx, ty = rng.uniform(min(0, 640 - 640 * s), max(0, 640 - 640 * s)), rng.uniform(min(0, 480 - 480 * sy), max(0, 480 - 480 * sy))
    flip_x, flip_y = rng.random() < 0.5, rng.random() < 0.3
    m = np.array([[s * (-1 if flip_x else 1), 0, tx + (640 * s if flip_x else 0)],
                  [0, sy * (-1 if flip_y else 1), ty + (480 * sy if flip_y else 0)]], np.float32)
    out = cv2.warpAffine(image, m, (640, 480), borderMode=cv2.BORDER_REFLECT_101)

    def point(x: float, y: float) -> tuple[float, float]:
        return (m[0, 0] * x + m[0, 2], m[1, 1] * y + m[1, 2])

    def box(b: tuple[float, float, float, float] | None) -> tuple[float, float, float, float] | None:
        if b is None or b[2] < 0:
            return b
        (x0, y0), (x1, y1) = point(b[0], b[1]), point(b[0] + b[2], b[1] + b[3])
        return (min(x0, x1), min(y0, y1), abs(x1 - x0), abs(y1 - y0))

    moved = []
    for lb in labels:
        cx, cy = point(*lb.centre)
        if 0 <= cx < 640 and 0 <= cy < 480:
            moved.append(dice_scenes.Label((cx, cy), box(lb.top), box(lb.whole), lb.leaning))  # type: ignore[arg-type]
    return photometric(out, rng), moved


def photometric(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Light, colour and camera changes: brightness and contrast, white balance, a turn of every hue
    (white dice on wood become other dice on other tables), grey, blur, noise, JPEG loss."""
    out = image.astype(np.float32)
    if rng.random() < 0.6:
        out = out * rng.uniform(0.65, 1.35) + rng.uniform(-25, 25)
    if rng.random() < 0.4:
        out = out * rng.uniform(0.8, 1.2, 3).astype(np.float32)
    out = np.clip(out, 0, 255).astype(np.uint8)
    r = rng.random()
    if r < 0.25:
        hsv = cv2.cvtColor(out, cv2.COLOR_BGR2HSV)
        hsv[..., 0] = ((hsv[..., 0].astype(np.int32) + int(rng.integers(0, 180))) % 180).astype(np.uint8)
        if rng.random() < 0.5:
            hsv[..., 1] = np.clip(hsv[..., 1].astype(np.float32) * rng.uniform(0.5, 2.0), 0, 255).astype(np.uint8)
        out = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)
    elif r < 0.35:
        out = out[..., rng.permutation(3)].copy()
    elif r < 0.42:
        out = cv2.cvtColor(cv2.cvtColor(out, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    if rng.random() < 0.2:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.5, 1.5))
    if rng.random() < 0.2:
        out = np.clip(out + rng.normal(0, rng.uniform(2, 8), out.shape), 0, 255).astype(np.uint8)
    if rng.random() < 0.15:
        ok, data = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(30, 90))])
        out = cv2.imdecode(data, cv2.IMREAD_COLOR)
    return out


def targets(labels: list[dice_scenes.Label]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The centre map (OH x OW), the regression targets (9 x OH x OW) and their weights (9 x ...)."""
    heat = np.zeros((OH, OW), np.float32)
    reg = np.zeros((9, OH, OW), np.float32)
    weight = np.zeros((9, OH, OW), np.float32)
    yy, xx = np.mgrid[0:OH, 0:OW].astype(np.float32)
    for lb in labels:
        cx, cy = lb.centre[0] / CELL, lb.centre[1] / CELL
        size = (lb.whole[2] * lb.whole[3]) ** 0.5 if lb.whole else (lb.top[2] * lb.top[3]) ** 0.5 * 1.3
        sigma = max(0.6, 0.12 * size / CELL)
        heat = np.maximum(heat, np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * sigma**2)))
        gx, gy = min(OW - 1, int(cx)), min(OH - 1, int(cy))
        heat[gy, gx] = 1.0
        reg[0, gy, gx], reg[1, gy, gx] = cx - gx, cy - gy
        weight[0:2, gy, gx] = 1
        if lb.top[2] > 0:
            reg[2, gy, gx], reg[3, gy, gx] = np.log(max(lb.top[2], 2) / CELL), np.log(max(lb.top[3], 2) / CELL)
            weight[2:4, gy, gx] = 1
        if lb.whole is not None:
            x, y, w, h = lb.whole
            sides = (lb.centre[0] - x, lb.centre[1] - y, x + w - lb.centre[0], y + h - lb.centre[1])
            reg[4:8, gy, gx] = [np.log1p(max(0.0, v) / CELL) for v in sides]
            weight[4:8, gy, gx] = 1
            reg[8, gy, gx] = float(lb.leaning)
            weight[8, gy, gx] = 1
    return heat, reg, weight


def decoys(image: np.ndarray, labels: list[dice_scenes.Label], rng: np.random.Generator, count: int) -> np.ndarray:
    """Things that look a little like a die and are not (hard negatives, not labelled): a sticker,
    a cable's label or a card with print (text, a barcode), longer than wide (a square with a sign
    on it could be a die seen from above); turned, at a die's size or larger, away from every
    labelled die."""
    out = image.copy()
    h, w = out.shape[:2]
    for _ in range(count):
        side = float(np.exp(rng.uniform(np.log(12), np.log(90))))
        x, y = rng.uniform(0, w), rng.uniform(0, h)
        if any(np.hypot(x - lb.centre[0], y - lb.centre[1]) < side + 20 for lb in labels):
            continue
        aspect = rng.uniform(1.6, 4.0)
        pw, ph = int(side * aspect) + 2, int(side) + 2
        light = rng.random() < 0.75
        paper = rng.uniform(170, 255) - np.array([rng.uniform(0, 30), rng.uniform(0, 15), 0]) if light else \
            np.full(3, rng.uniform(20, 90))
        ink = np.full(3, rng.uniform(0, 60)) if light else np.full(3, rng.uniform(190, 255))
        patch = np.zeros((ph, pw, 3), np.uint8) + np.clip(paper, 0, 255).astype(np.uint8)
        what = rng.random()
        if what < 0.6:  # print: letters and digits
            text = "".join(rng.choice(list("ABCDEFGHKMNPRSTUXZ0123456789"), int(rng.integers(1, 6))))
            scale = cv2.getFontScaleFromHeight(cv2.FONT_HERSHEY_SIMPLEX, max(4, int(ph * rng.uniform(0.3, 0.6))), 1)
            cv2.putText(patch, text, (int(pw * 0.08), int(ph * 0.7)), dice_scenes.FONTS[int(rng.integers(4))],
                        scale, ink.tolist(), int(rng.integers(1, 3)), cv2.LINE_AA)
        else:  # a barcode
            bx = pw * 0.1
            while bx < pw * 0.9:
                bw = rng.uniform(0.5, 3.0)
                cv2.rectangle(patch, (int(bx), int(ph * 0.2)), (int(bx + bw), int(ph * 0.8)), ink.tolist(), -1)
                bx += bw + rng.uniform(0.5, 3.0)
        patch = patch.astype(np.float32)
        alpha = np.ones((ph, pw), np.float32)
        m = cv2.getRotationMatrix2D((pw / 2, ph / 2), rng.uniform(0, 360), 1.0)
        big = int(np.hypot(pw, ph)) + 2
        m[:, 2] += (big - pw) / 2, (big - ph) / 2
        patch = cv2.warpAffine(patch, m, (big, big), flags=cv2.INTER_LINEAR)
        alpha = cv2.warpAffine(alpha, m, (big, big), flags=cv2.INTER_LINEAR)
        shade = out.astype(np.float32)
        dice_scenes.paste(shade, patch * rng.uniform(0.7, 1.1), alpha, int(x - big / 2), int(y - big / 2))
        out = np.clip(shade, 0, 255).astype(np.uint8)
    return out


def batch(samples: list[Sample], rng: np.random.Generator, crop: tuple[int, int] = (CW, CH)) -> tuple[torch.Tensor, ...]:
    cw, ch = crop
    xs, hs, rs, ws = [], [], [], []
    for image, labels in samples:
        image, labels = augment(image, labels, rng)
        if rng.random() < DECOYS:
            image = decoys(image, labels, rng, int(rng.integers(1, 4)))
        h, r, w = targets(labels)
        # a random crop, on whole output cells
        cx, cy = int(rng.integers(0, (W - cw) // D.STRIDE + 1)), int(rng.integers(0, (H - ch) // D.STRIDE + 1))
        ox, oy = cx * D.STRIDE, cy * D.STRIDE
        x = cv2.resize(image, (W, H), interpolation=cv2.INTER_AREA)[oy : oy + ch, ox : ox + cw]
        xs.append(x.transpose(2, 0, 1))
        sl = (slice(cy, cy + ch // D.STRIDE), slice(cx, cx + cw // D.STRIDE))
        hs.append(h[sl])
        rs.append(r[(slice(None),) + sl])
        ws.append(w[(slice(None),) + sl])
    return (torch.from_numpy(np.stack(xs).astype(np.float32)), torch.from_numpy(np.stack(hs)),
            torch.from_numpy(np.stack(rs)), torch.from_numpy(np.stack(ws)))


def loss_of(out: torch.Tensor, heat: torch.Tensor, reg: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    p = torch.sigmoid(out[:, 0]).clamp(1e-4, 1 - 1e-4)
    pos = heat.eq(1).float()
    focal = -(pos * (1 - p) ** 2 * torch.log(p) + (1 - pos) * (1 - heat) ** 4 * p**2 * torch.log(1 - p)).sum()
    n = pos.sum().clamp(min=1)
    l1 = (F.l1_loss(out[:, 1:9], reg[:, :8], reduction="none") * weight[:, :8]).sum()
    lean = (F.binary_cross_entropy_with_logits(out[:, 9], reg[:, 8], reduction="none") * weight[:, 8]).sum()
    return (focal + l1 + 0.5 * lean) / n


# -- scoring -------------------------------------------------------------------------------


def outputs(net: nn.Module, samples: list[Sample]) -> list[np.ndarray]:
    """The exported network's output for each sample's whole frame."""
    net.eval()
    out = []
    with torch.no_grad():
        for image, _labels in samples:
            x = cv2.resize(image, (W, H), interpolation=cv2.INTER_AREA).transpose(2, 0, 1)[None].astype(np.float32)
            out.append(Exported(net)(torch.from_numpy(x))[0].numpy())  # type: ignore[arg-type]
    net.train()
    return out


def score(outs: list[np.ndarray], samples: list[Sample], threshold: float) -> tuple[int, int, int]:
    """(found, labelled, false) over `samples`, matched as the benchmark does (by box centre)."""
    found = labelled = false = 0
    for out, (image, labels) in zip(outs, samples):
        dets = D.decode(out, (640 / out.shape[2], 480 / out.shape[1]), threshold, image.shape)
        truth = [lb.whole if lb.whole else lb.top for lb in labels]
        pairs = match(truth, [d.box for d in dets])
        found += len(pairs)
        labelled += len(truth)
        false += len(dets) - len(pairs)
    return found, labelled, false


def report(name: str, net: nn.Module, samples: list[Sample]) -> None:
    outs = outputs(net, samples)
    for t in (0.25, 0.3, 0.35, 0.4, 0.5):
        f, n, fp = score(outs, samples, t)
        print(f"  {name:34s} threshold {t:.2f}: found {f}/{n} ({100 * f / max(n, 1):.2f}%), "
              f"false per image {fp / max(len(samples), 1):.3f}", flush=True)


def rendered(seeds: range, cache: Path | None) -> list[Sample]:
    """The rendered scenes of these seeds, made on two processes (or read back from `cache`)."""
    crowds = f"_crowds{CROWDS:g}" if CROWDS else ""
    trays = f"_trays{TRAYS:g}" if TRAYS != 0.12 else ""
    path = cache / f"scenes_{seeds.start}_{seeds.stop}{crowds}{trays}.pkl" if cache else None
    if path is not None and path.exists():
        with path.open("rb") as f:
            return pickle.load(f)  # type: ignore[no-any-return]
    with Pool(2) as pool:
        made = pool.map(synthetic, seeds, chunksize=50)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as f:
            pickle.dump(made, f)
    return made


def pick_threshold(model: Path) -> tuple[float, float]:
    """The detector's smoothing and its centre map's own threshold (without the verifier) for `model`,
    chosen on pictures no model trained on and no benchmark scores: the held-out 1-in-5 webcam TRAIN frames together with 200 rendered
    held-out scenes. For each smoothing (0, 0.5, 0.8 cells) `detector.choose_threshold` picks the
    threshold on both together; the smoothing whose pick finds the most labelled dice less false
    ones wins. Each set's figures are printed."""
    det = D.DiceDetector(model, threshold=0.05)
    sets = {"webcam TRAIN held-out 1 in 5": webcam(True),
            "rendered held-out scenes": rendered(range(999_000_000, 999_000_200), CACHE)}
    outs = {name: [(det.raw(image), image.shape, [lb.whole if lb.whole else lb.top for lb in labels])
                   for image, labels in samples] for name, samples in sets.items()}
    best: tuple[int, float, float] | None = None
    for smooth in (0.0, 0.5, 0.8):
        scored: dict[str, list] = {}
        for name, rows in outs.items():
            scored[name] = []
            for (out, scale), shape, truth in rows:
                dets = D.decode(out, scale, 0.05, shape, smooth=smooth)
                hit = set(match(truth, [d.box for d in dets]).values())
                scored[name].append(([(d.score, j in hit) for j, d in enumerate(dets)], len(truth), True))

        def tally(rows: list, t: float) -> tuple[int, int]:
            return (sum(sum(1 for sc, h in dd if sc >= t and h) for dd, _, _ in rows),
                    sum(sum(1 for sc, h in dd if sc >= t and not h) for dd, _, _ in rows))

        for name, rows in scored.items():
            n = sum(r[1] for r in rows)
            for t in np.round(np.arange(0.14, 0.46, 0.02), 2):
                f, fp = tally(rows, t)
                print(f"  {name:30s} smooth {smooth:.1f} threshold {t:.2f}: found {f}/{n} ({100 * f / max(n, 1):.2f}%), "
                      f"false per image {fp / max(len(rows), 1):.3f}")
        both = [r for rows in scored.values() for r in rows]
        t = choose_threshold(both)
        f, fp = tally(both, t)
        print(f"  smooth {smooth:.1f}: chosen threshold {t:.2f}: found {f}, false {fp}, gain {f - fp}; " +
              "; ".join(f"{name} found {tally(rows, t)[0]}/{sum(r[1] for r in rows)} false {tally(rows, t)[1]}"
                        for name, rows in scored.items()), flush=True)
        if best is None or f - fp > best[0]:
            best = (f - fp, smooth, t)
    assert best is not None
    return best[1], best[2]


CACHE: Path | None = None


def main() -> int:
    global SCALE, DECOYS, CACHE, ASPECT, CROWDS, TRAYS
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=4000, help="rendered training scenes")
    parser.add_argument("--steps", type=int, default=4000)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--webcam-share", type=float, default=0.25, help="share of each batch from webcam frames")
    parser.add_argument("--out", type=Path, default=D.MODEL)
    parser.add_argument("--cache", type=Path, help="keep the rendered scenes in this folder (same seed: reused)")
    parser.add_argument("--threads", type=int, default=1, help="torch threads (1: the same model every run)")
    parser.add_argument("--crop", type=int, nargs=2, default=(CW, CH), metavar=("W", "H"),
                        help="training crop of the 320x240 input (multiples of 4)")
    parser.add_argument("--init", type=Path, help="warm start from this exported model (its batch norms stay fixed)")
    parser.add_argument("--lr", type=float, default=3e-3, help="peak learning rate")
    parser.add_argument("--fresh", type=int, default=0,
                        help="render up to this many more scenes during training (one worker process), "
                             "each joining the pool as it is made")
    parser.add_argument("--pick-threshold", type=Path, metavar="MODEL",
                        help="only choose MODEL's threshold on the held-out frames (no training)")
    parser.add_argument("--decoys", type=float, default=0.0,
                        help="share of training pictures given hard negatives (stickers, print, keys)")
    parser.add_argument("--aspect", type=float, nargs=3, default=ASPECT, metavar=("SHARE", "LOW", "HIGH"),
                        help="a SHARE of training pictures stretched in height by LOW..HIGH against the width")
    parser.add_argument("--trays", type=float, default=TRAYS,
                        help="share of rendered scenes that are top-down trays (render.py: flat dice from above)")
    parser.add_argument("--crowds", type=float, default=CROWDS,
                        help="share of rendered scenes that are heaps of 16 to 40 dice, touching")
    parser.add_argument("--scale", type=float, nargs=2, default=SCALE, metavar=("MIN", "MAX"),
                        help="augmentation zoom range")
    parser.add_argument("--photoreal", type=Path, action="append", default=[],
                        help="a folder of calibration/photoreal.py's scenes to train on too (repeatable)")
    parser.add_argument("--photoreal-share", type=float, default=0.25, help="share of each batch from --photoreal")
    args = parser.parse_args()
    CACHE = args.cache
    if args.pick_threshold:
        cv2.setNumThreads(1)
        smooth, threshold = pick_threshold(args.pick_threshold)
        print(f"{args.pick_threshold}: SMOOTH = {smooth:.1f}, the centre map's own threshold {threshold:.2f} "
              "(the detector's THRESHOLD, with the verifier: train_verifier.py --pick-threshold)")
        return 0
    SCALE = tuple(args.scale)
    DECOYS = args.decoys
    ASPECT = tuple(args.aspect)
    CROWDS = args.crowds
    TRAYS = args.trays
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    cv2.setNumThreads(1)
    rng = np.random.default_rng(args.seed)
    t0 = time.time()
    scenes = rendered(range(args.seed * 1_000_000, args.seed * 1_000_000 + args.scenes), args.cache)
    held_synthetic = rendered(range(999_000_000, 999_000_200), args.cache)
    cam, held_cam = webcam(False), webcam(True)
    print(f"data: {len(scenes)} rendered scenes, {len(cam)} webcam train frames "
          f"({len(held_cam)} held out), {time.time() - t0:.0f} s", flush=True)
    net = Net()
    if args.init:
        load_onnx(net, args.init)
        print(f"warm start from {args.init}", flush=True)
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=args.steps, pct_start=0.05)
    n_cam = int(round(args.batch * args.webcam_share)) if cam else 0
    real = [sample for folder in args.photoreal for sample in photoreal(folder)]
    n_real = int(round(args.batch * args.photoreal_share)) if real else 0
    if real:
        print(f"{len(real)} photoreal scenes from {', '.join(map(str, args.photoreal))}, {n_real} a batch", flush=True)
    pool = maker = None
    if args.fresh:
        first = args.seed * 1_000_000 + args.scenes
        pool = Pool(1, initializer=os.nice, initargs=(10,))  # training first
        maker = [pool.apply_async(synthetic_many, (range(a, min(a + 8, first + args.fresh)),))
                 for a in range(first, first + args.fresh, 8)]
    running = 0.0
    net.train()
    if args.init:
        freeze_norms(net)
    for step in range(1, args.steps + 1):
        while maker and maker[0].ready():
            scenes.extend(maker.pop(0).get())
        picks = draw(scenes, args.batch - n_cam - n_real, rng) + draw(cam, n_cam, rng) + draw(real, n_real, rng)
        x, heat, reg, weight = batch(picks, rng, tuple(args.crop))
        loss = loss_of(net(x), heat, reg, weight)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        running = 0.98 * running + 0.02 * loss.item() if step > 1 else loss.item()
        if step % 200 == 0:
            print(f"step {step:5d}  loss {running:.3f}  scenes {len(scenes)}  {time.time() - t0:.0f} s", flush=True)
        if step % 1000 == 0 or step == args.steps:
            report("rendered scenes never trained on", net, held_synthetic)
            if held_cam:
                report("webcam TRAIN split, held-out 1 in 5", net, held_cam)
            export(net, args.out)
            if args.cache:
                torch.save(net.state_dict(), args.cache / f"detector_seed{args.seed}.pt")
            if args.init:
                freeze_norms(net)
    if pool is not None:
        pool.terminate()
    return 0


def export(net: Net, out: Path) -> None:
    net.eval()
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(Exported(net), torch.zeros(1, 3, H, W), str(out), dynamo=False, opset_version=13,
                      input_names=["image"], output_names=["dice"],
                      dynamic_axes={"image": {0: "n", 2: "h", 3: "w"}, "dice": {0: "n", 2: "oh", 3: "ow"}})
    net.train()
    print(f"wrote {out} ({out.stat().st_size / 1024:.0f} KiB)", flush=True)


if __name__ == "__main__":
    sys.exit(main())
