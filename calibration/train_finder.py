#!/usr/bin/env python3
"""Train the finder (assistant/vision/models/finder.onnx). A training tool only.

    .venv/bin/pip install torch==2.13.0
    .venv/bin/python calibration/train_finder.py [--steps 6000] [--scenes 1200] [--seed 3]

Data: the labelled photos of ../shared/dice/mixed-oblique-d6-train (whole-die boxes), 70 % of each
batch (not webcam-two-white-d6-train: its boxes hug the pips, and a finder taught them takes a lone
pip for a die); rendered scenes, 30 %: solid dice at a slant on busy tables (calibration/dice_scenes.py) and
TRAYS of top-down trays of the reader's own renderer (render.scene: pips, numerals, Nova Aetas d8).
Each is seen at a random scale (0.22 to 1.1 of its working size), shifted, mirrored, turned by
quarter turns, relit (train_detector.photometric), in 256 x 256 crops of the network's input.
The network: a depthwise-separable encoder to 1/16 and back to 1/4 (Net), with find.py's five
outputs. Loss: CenterNet's focal loss on the centre map, L1 on the offset and log
sizes at each centre. Every --every steps it prints, on the -valid sets and the tray (never trained on),
the share of labelled dice found and the false dice per complete picture, at find.SIDE and find.FINE.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from multiprocessing import get_context
from pathlib import Path

import cv2
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from assistant.vision import find  # noqa: E402
from assistant.vision.images import working  # noqa: E402
from assistant.vision.matching import match  # noqa: E402
from assistant.vision.learn import TOP_TO_WHOLE  # noqa: E402

SHARED = ROOT.parent / "shared" / "dice"
TRAIN = ("mixed-oblique-d6-train",)  # webcam-two-white-d6-train's "top_face" boxes hug the pips (a 1's, its one pip): no die's extent
LOOK = ("mixed-oblique-d6", "webcam-two-white-d6-valid", "tray-topdown-d6-calibrate")
CROP = 256
TRAYS = 0.25  # share of rendered scenes that are top-down trays of render.scene
Sample = tuple[np.ndarray, np.ndarray]  # a working image and its whole-die boxes (N x 4)


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
        self.head = nn.Conv2d(c[1], 5, 1)  # find.py's outputs
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


# -- data ----------------------------------------------------------------------------------


def photos(name: str) -> list[tuple[np.ndarray, np.ndarray, bool]]:
    """A shared set's working images, their whole-die boxes in working pixels, and whether complete."""
    out = []
    for line in (SHARED / name / "manifest.jsonl").read_text().splitlines():
        entry = json.loads(line)
        work, scale, left, top, _ = working(cv2.imread(str(SHARED / name / entry["image"])))
        k = TOP_TO_WHOLE if entry["box"] == "top_face" else 1.0
        boxes = []
        for d in entry["dice"]:
            x, y, w, h = d["box"]
            cx, cy = (x + w / 2 - left) * scale, (y + h / 2 - top) * scale
            w, h = w * scale * k, h * scale * k
            boxes.append((cx - w / 2, cy - h / 2, w, h))
        out.append((work, np.array(boxes, np.float32).reshape(-1, 4), bool(entry["complete"])))
    return out


def _scene(seed: int) -> Sample:
    """A rendered scene: a top-down tray of the reader's own renderer (TRAYS of them: the stand-in
    camera's dice, the Nova Aetas d8 among them), else solid dice at a slant on a busy table."""
    cv2.setNumThreads(1)
    from assistant.vision import render
    from calibration import dice_scenes

    rng = np.random.default_rng(seed)
    if rng.random() < TRAYS:
        tray = render.scene(rng, (640, 480), count=int(rng.integers(0, 13)))
        return tray.image, np.array([d["box"] for d in tray.dice], np.float32).reshape(-1, 4)
    shot = dice_scenes.scene(rng)
    boxes = [lb.whole if lb.whole is not None else lb.top for lb in shot.labels]
    return shot.image, np.array(boxes, np.float32).reshape(-1, 4)


def scenes(count: int, seed: int) -> list[Sample]:
    with get_context("spawn").Pool(2) as pool:  # a fork after torch and onnxruntime started threads can hang
        return pool.map(_scene, range(seed * 100_000, seed * 100_000 + count), chunksize=20)


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


def view(image: np.ndarray, boxes: np.ndarray, rng: np.random.Generator) -> Sample:
    """A random CROP x CROP view of `image` at the network's scale, and its boxes there."""
    h, w = image.shape[:2]
    s = float(np.exp(rng.uniform(np.log(0.22), np.log(1.1))))
    sw, sh = w * s, h * s
    tx, ty = rng.uniform(min(0, CROP - sw), max(0, CROP - sw)), rng.uniform(min(0, CROP - sh), max(0, CROP - sh))
    mirror = rng.random() < 0.5
    m = np.array([[-s if mirror else s, 0, tx + sw if mirror else tx], [0, s, ty]], np.float32)
    out = cv2.warpAffine(image, m, (CROP, CROP), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REFLECT_101)
    b = boxes.copy()
    if len(b):
        x0, x1 = m[0, 0] * b[:, 0] + m[0, 2], m[0, 0] * (b[:, 0] + b[:, 2]) + m[0, 2]
        b = np.stack([np.minimum(x0, x1), b[:, 1] * s + ty, np.abs(x1 - x0), b[:, 3] * s], 1)
    for _ in range(int(rng.integers(4)) if rng.random() < 0.5 else 0):  # a quarter turn: (x, y) -> (y, CROP - x)
        out = np.ascontiguousarray(np.rot90(out))
        b = np.stack([b[:, 1], CROP - b[:, 0] - b[:, 2], b[:, 3], b[:, 2]], 1) if len(b) else b
    return photometric(out, rng), b


def targets(boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The centre map, the offset and log-size targets, and where they count, for one view."""
    o = CROP // find.STRIDE
    heat = np.zeros((o, o), np.float32)
    reg = np.zeros((4, o, o), np.float32)
    weight = np.zeros((o, o), np.float32)
    yy, xx = np.mgrid[0:o, 0:o].astype(np.float32)
    for x, y, w, h in boxes:
        cx, cy = (x + w / 2) / find.STRIDE, (y + h / 2) / find.STRIDE
        if not (0 <= cx < o and 0 <= cy < o) or w < 3 or h < 3:
            continue
        sigma = max(0.5, 0.1 * float(np.sqrt(w * h)) / find.STRIDE)
        heat = np.maximum(heat, np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * sigma**2)))
        gx, gy = int(cx), int(cy)
        heat[gy, gx] = 1.0
        reg[:, gy, gx] = [cx - gx, cy - gy, np.log(w / find.STRIDE), np.log(h / find.STRIDE)]
        weight[gy, gx] = 1.0
    return heat, reg, weight


def network(channels: tuple[int, int, int, int] = (32, 64, 128, 192)):  # type: ignore[no-untyped-def]
    """The network to train, and what is exported of it."""
    import torch
    import torch.nn as nn

    net = Net(channels)

    class Exported(nn.Module):
        """What the reader runs: the centre chance squashed to 0..1."""

        def __init__(self) -> None:
            super().__init__()
            self.net = net

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            y = self.net(x)
            return torch.cat([torch.sigmoid(y[:, :1]), y[:, 1:]], 1)

    return net, Exported()


def focal(logit, heat):  # type: ignore[no-untyped-def]
    import torch

    p = torch.sigmoid(logit).clamp(1e-4, 1 - 1e-4)
    pos = heat.eq(1).float()
    loss = -(pos * (1 - p) ** 2 * torch.log(p) + (1 - pos) * (1 - heat) ** 4 * p**2 * torch.log(1 - p))
    return loss.sum() / pos.sum().clamp(min=1)


def export(exported, path: Path) -> None:  # type: ignore[no-untyped-def]
    import torch

    exported.eval()
    torch.onnx.export(exported, torch.zeros(1, 3, 240, 320), str(path), input_names=["image"], output_names=["found"],
                      dynamic_axes={"image": {0: "n", 2: "h", 3: "w"}, "found": {0: "n", 2: "h", 3: "w"}},
                      opset_version=13, dynamo=False)


def scores(finder: find.Finder, looks: list[tuple[np.ndarray, np.ndarray, bool]], side: int) -> tuple[float, float]:
    """(share of labelled dice found, false dice per complete picture) of `finder` at `side`."""
    found = labelled = false = complete = 0
    for work, boxes, whole in looks:
        got = finder.at(work, side)
        pairs = match(list(boxes), [f.box for f in got])
        found, labelled = found + len(pairs), labelled + len(boxes)
        if whole:
            false, complete = false + len(got) - len(pairs), complete + 1
    return found / max(1, labelled), false / max(1, complete)


def main() -> int:
    import torch

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=6000)
    parser.add_argument("--channels", type=int, nargs=4, default=(32, 64, 128, 192), help="the network's widths")
    parser.add_argument("--every", type=int, default=2000, help="steps between looks at the -valid sets")
    parser.add_argument("--batch", type=int, default=12)
    parser.add_argument("--scenes", type=int, default=1200)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--rate", type=float, default=3e-3)
    parser.add_argument("--out", type=Path, default=find.MODEL)
    parser.add_argument("--threads", type=int, default=1, help="torch threads (more are slower on a busy machine)")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    start = time.time()
    real = [(w, b) for name in TRAIN for w, b, _ in photos(name)]
    made = scenes(args.scenes, args.seed)
    looks = {name: photos(name) for name in LOOK if (SHARED / name).exists()}
    print(f"{len(real)} photos, {len(made)} rendered scenes ({time.time() - start:.0f} s)", flush=True)
    net, exported = network(tuple(args.channels))
    rng = np.random.default_rng(args.seed)
    optimiser = torch.optim.AdamW(net.parameters(), args.rate, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, args.rate, total_steps=args.steps, pct_start=0.1)
    total = 0.0
    for step in range(args.steps):
        net.train()
        views = [view(*(real[int(rng.integers(len(real)))] if rng.random() < 0.7 else made[int(rng.integers(len(made)))]),
                      rng) for _ in range(args.batch)]
        made_targets = [targets(b) for _, b in views]
        x = torch.from_numpy(np.stack([v for v, _ in views])).permute(0, 3, 1, 2).float()
        heat, reg, weight = (torch.from_numpy(np.stack([t[k] for t in made_targets])) for k in range(3))
        y = net(x)
        weight = weight[:, None]
        loss = focal(y[:, 0], heat) + ((y[:, 1:] - reg).abs() * weight).sum() / weight.sum().clamp(min=1)
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        schedule.step()
        total += loss.item()
        if (step + 1) % args.every == 0 or step + 1 == args.steps:
            export(exported, args.out)
            finder = find.Finder(args.out)
            seen = {name: [tuple(round(v, 3) for v in scores(finder, look, side)) for side in (find.SIDE, find.FINE)]
                    for name, look in looks.items()}
            print(f"step {step + 1}: loss {total / args.every:.3f} found, false a picture: {seen} {time.time() - start:.0f} s",
                  flush=True)
            total = 0.0
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
