#!/usr/bin/env python3
"""Train the dice verifier (assistant/vision/models/dice_verifier.onnx). A training tool only.

    .venv/bin/pip install torch==2.13.0 onnx      # CPU wheels; never a run-time dependency
    .venv/bin/python calibration/train_verifier.py [--scenes 2500] [--epochs 12] [--cache DIR]
    .venv/bin/python calibration/train_verifier.py --pick-threshold assistant/vision/models/dice_verifier.onnx

The detector's centre map marks dice, and also pips, number tokens, knots in the wood. Its
candidates (peaks of CANDIDATE or more) are what the verifier learns to part: each one's crop
(`detector.crop`) labelled a die where it matches a labelled die. Same data and HONEST PROTOCOL
as train_detector.py: rendered scenes (seeds from --seed) and the webcam TRAIN split's frames 0-3
of every 5; `--pick-threshold` chooses the detector's THRESHOLD (the geometric mean of the centre
and the verifier) on the held-out frames only: the 5th webcam TRAIN frame of every 5 and 200
rendered scenes never trained on, with the detector as the reader runs it (both passes).
Seeded: the same command gives the same model (torch on CPU, one thread by default).
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from assistant.vision import detector as D  # noqa: E402
from assistant.vision.matching import match  # noqa: E402
from calibration import dice_scenes, train_detector as T  # noqa: E402

Sample = T.Sample


class Verifier(nn.Module):
    """Four 3x3 convolutions (width, 2, 4, 4 times width channels), pooled to one logit: a die or not."""

    def __init__(self, width: int = 24) -> None:
        super().__init__()
        c = width
        layers: list[nn.Module] = []
        for i, o, pool in ((3, c, nn.MaxPool2d(2)), (c, 2 * c, nn.MaxPool2d(2)), (2 * c, 4 * c, nn.MaxPool2d(2)),
                           (4 * c, 4 * c, nn.AdaptiveAvgPool2d(1))):
            layers += [nn.Conv2d(i, o, 3, padding=1), nn.BatchNorm2d(o), nn.ReLU(), pool]
        self.features = nn.Sequential(*layers)
        self.head = nn.Linear(4 * c, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """x: (N, 3, CROP, CROP) BGR scaled 0..1."""
        return self.head(self.features(x - 0.5).flatten(1)).squeeze(1)


class Exported(nn.Module):
    """The verifier as the reader runs it: raw 0..255 BGR crops in, one logit a crop out."""

    def __init__(self, net: Verifier) -> None:
        super().__init__()
        self.net = net

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.net(x / 255.0)


CUT = 0.25  # share of the pictures moved so that one die is cut by the picture's edge
OTHER_PASS = 0.4  # share of the pictures also read at another input side, as the detector's second passes do


def candidates(samples: list[Sample], rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Every candidate's crop in `samples` (the first pass; for OTHER_PASS of them a second pass too,
    and CUT of them with a die cut by the edge first), and whether it is a labelled die."""
    net = D.detector_network()
    crops, dice = [], []
    for image, labels in samples:
        if labels and rng.random() < CUT:
            image, labels = cut(image, labels, rng)
        sides = [D.INPUT_SIDE]
        if rng.random() < OTHER_PASS:
            sides.append(int(rng.choice([D.SMALLEST_SIDE, 256, 288, D.FINE])))
        for side in sides:
            out, scale = D.output(net, image, side)
            found = D.decode(out, scale, D.CANDIDATE, image.shape)[:D.MOST]
            hit = set(match([lb.whole if lb.whole else lb.top for lb in labels], [d.box for d in found]).values())
            crops += [D.crop(image, d.box) for d in found]
            dice += [j in hit for j in range(len(found))]
    return np.stack(crops), np.array(dice, np.float32)


def cut(image: np.ndarray, labels: list[dice_scenes.Label], rng: np.random.Generator) -> Sample:
    """The picture moved sideways so that one die's box is 20 to 50 % out of it (the table's edge colour
    comes in on the other side); the labels moved with it, boxes cut at the edge, dice gone out dropped."""
    lb = labels[int(rng.integers(len(labels)))]
    x, _y, w, _h = lb.whole if lb.whole else lb.top
    width = image.shape[1]
    share = rng.uniform(0.2, 0.5)
    shift = int(-(x + share * w)) if rng.random() < 0.5 else int(width - (x + (1 - share) * w))
    moved = np.roll(image, shift, axis=1)
    if shift < 0:
        moved[:, shift:] = image[:, -1:]
    else:
        moved[:, :shift] = image[:, :1]

    def box(b: tuple[float, float, float, float] | None) -> tuple[float, float, float, float] | None:
        if b is None or b[2] < 0:
            return b
        x0, x1 = max(0.0, b[0] + shift), min(float(width), b[0] + b[2] + shift)
        return (x0, b[1], max(1.0, x1 - x0), b[3])

    kept = [replace(lb, centre=(lb.centre[0] + shift, lb.centre[1]), top=box(lb.top), whole=box(lb.whole))  # type: ignore[arg-type]
            for lb in labels if 0 <= lb.centre[0] + shift < width]
    return moved, kept


def train(crops: np.ndarray, dice: np.ndarray, width: int, epochs: int, seed: int, webcam: int = 0,
          webcam_share: float = 0.0) -> Verifier:
    """`webcam`: the last so many candidates are the webcam frames'; each batch draws `webcam_share` of its
    crops from them (they are few beside the rendered scenes' and the only real table)."""
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    net = Verifier(width)
    x = torch.from_numpy(crops.astype(np.float32) / 255.0).permute(0, 3, 1, 2).contiguous()
    y = torch.from_numpy(dice)
    steps = epochs * len(y) // 128
    opt = torch.optim.AdamW(net.parameters(), 3e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, 3e-3, total_steps=steps)
    t0 = time.time()
    for step in range(steps):
        real = int(round(128 * webcam_share)) if webcam else 0
        if real:
            pick = np.concatenate([rng.integers(0, len(y) - webcam, 128 - real), rng.integers(len(y) - webcam, len(y), real)])
        else:
            pick = rng.integers(0, len(y), 128)
        xb = x[pick]
        if rng.random() < 0.5:
            xb = xb.flip(3)
        xb = torch.rot90(xb, int(rng.integers(0, 4)), (2, 3))
        gain = torch.from_numpy(rng.uniform(0.7, 1.3, (128, 1, 1, 1)).astype(np.float32))
        shift = torch.from_numpy(rng.uniform(-0.1, 0.1, (128, 1, 1, 1)).astype(np.float32))
        xb = ((xb - 0.5) * gain + 0.5 + shift).clamp(0, 1)
        loss = F.binary_cross_entropy_with_logits(net(xb), y[pick])
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % 500 == 0:
            print(f"step {step:5d} / {steps}  loss {loss.item():.3f}  {time.time() - t0:.0f} s", flush=True)
    return net.eval()


def export(net: Verifier, out: Path) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(Exported(net), torch.zeros(1, 3, D.CROP, D.CROP), str(out), dynamo=False, opset_version=13,
                      input_names=["crops"], output_names=["die"], dynamic_axes={"crops": {0: "n"}, "die": {0: "n"}})
    print(f"wrote {out} ({out.stat().st_size / 1024:.0f} KiB)", flush=True)


def pick_threshold(verifier: Path) -> float:
    """THRESHOLD for `verifier`, by `detector.best_threshold` (the most labelled dice found less false
    ones) on the held-out frames, the detector run as the reader runs it at each threshold (which
    second pass runs depends on it); each set's figures are printed."""
    sets = {"webcam TRAIN held-out 1 in 5": T.webcam(True),
            "rendered held-out scenes": T.rendered(range(999_000_000, 999_000_200), T.CACHE)}
    det = D.DiceDetector(verifier=verifier)
    thresholds = [float(t) for t in np.round(np.arange(0.14, 0.47, 0.02), 2)]
    tally = {(name, t): [0, 0, 0] for name in sets for t in thresholds}  # found, false, labelled
    for name, samples in sets.items():
        for image, labels in samples:
            truth = [lb.whole if lb.whole else lb.top for lb in labels]
            for t in thresholds:
                det.threshold = t
                found = det.detect(image)
                hits = len(match(truth, [d.box for d in found]))
                counts = tally[(name, t)]
                counts[0] += hits
                counts[1] += len(found) - hits
                counts[2] += len(truth)
    gains = {t: sum(tally[(name, t)][0] - tally[(name, t)][1] for name in sets) for t in thresholds}
    for t in thresholds:
        print(f"  threshold {t:.2f}: gain {gains[t]}; " + "; ".join(
            f"{name} found {tally[(name, t)][0]}/{tally[(name, t)][2]} false {tally[(name, t)][1]}" for name in sets),
            flush=True)
    return D.best_threshold(gains.__getitem__, thresholds)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=2500, help="rendered training scenes")
    parser.add_argument("--epochs", type=int, default=12)
    parser.add_argument("--width", type=int, default=24, help="channels of the first convolution")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--webcam-share", type=float, default=0.0, help="share of each batch from webcam frames")
    parser.add_argument("--out", type=Path, default=D.VERIFIER)
    parser.add_argument("--cache", type=Path, help="keep the rendered scenes in this folder (same seed: reused)")
    parser.add_argument("--threads", type=int, default=1, help="torch threads (1: the same model every run)")
    parser.add_argument("--pick-threshold", type=Path, metavar="MODEL",
                        help="only choose the detector's THRESHOLD with MODEL on the held-out frames (no training)")
    args = parser.parse_args()
    T.CACHE = args.cache
    cv2.setNumThreads(1)
    if args.pick_threshold:
        print(f"{args.pick_threshold}: THRESHOLD = {pick_threshold(args.pick_threshold):.2f}")
        return 0
    torch.set_num_threads(args.threads)
    t0 = time.time()
    scenes = T.rendered(range(args.seed * 1_000_000, args.seed * 1_000_000 + args.scenes), args.cache)
    rng = np.random.default_rng(args.seed)
    crops, dice = candidates(scenes, rng)
    real_crops, real_dice = candidates(T.webcam(False), rng)
    crops, dice = np.concatenate([crops, real_crops]), np.concatenate([dice, real_dice])
    print(f"data: {len(dice)} candidates, {int(dice.sum())} of them dice ({len(real_dice)} from webcam frames), "
          f"{time.time() - t0:.0f} s", flush=True)
    export(train(crops, dice, args.width, args.epochs, args.seed, len(real_dice), args.webcam_share), args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
