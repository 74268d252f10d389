#!/usr/bin/env python3
"""Train the finder (assistant/vision/models/finder.onnx). A training tool only.

    .venv/bin/pip install -e '.[learn]'
    .venv/bin/python calibration/train_finder.py [--steps 6000] [--scenes 1200] [--seed 3] [--init models/finder.pt]

Data: the labelled photos of ../shared/dice/mixed-oblique-d6-train (whole-die boxes), 70 % of each
batch (not webcam-two-white-d6-train: its boxes hug the pips, and a finder taught them takes a lone
pip for a die); rendered scenes, 30 %: solid dice at a slant on busy tables (calibration/dice_scenes.py) and
TRAYS of top-down trays of the reader's own renderer (render.scene: pips, numerals, Nova Aetas d8).
Each is seen at a random scale (0.22 to 1.1 of its working size), shifted, mirrored, turned by
quarter turns, relit (find_tune.photometric), in 256 x 256 crops of the network's input.
The network: find_tune.network, with find.py's five outputs; its weights also go to finder.pt,
which `dice learn` fine-tunes (find_tune.tune). Loss: CenterNet's focal loss on the centre map, L1 on the offset and log
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

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from assistant.vision import find, find_tune, tune  # noqa: E402
from assistant.vision.images import working  # noqa: E402
from assistant.vision.matching import match  # noqa: E402
from assistant.vision.learn import TOP_TO_WHOLE  # noqa: E402

SHARED = ROOT.parent / "shared" / "dice"
TRAIN = ("mixed-oblique-d6-train",)  # webcam-two-white-d6-train's "top_face" boxes hug the pips (a 1's, its one pip): no die's extent
LOOK = ("mixed-oblique-d6", "webcam-two-white-d6-valid", "tray-topdown-d6-calibrate")
SCALES = (0.22, 1.1)  # a view's scale, of the working image
TRAYS = 0.25  # share of rendered scenes that are top-down trays of render.scene
Sample = tuple[np.ndarray, np.ndarray]  # a working image and its whole-die boxes (N x 4)


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
    parser.add_argument("--init", type=Path, help="weights (.pt) to go on from, instead of from scratch")
    parser.add_argument("--threads", type=int, default=1, help="torch threads (more are slower on a busy machine)")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    start = time.time()
    real = [(w, b) for name in TRAIN for w, b, _ in photos(name)]
    made = scenes(args.scenes, args.seed)
    looks = {name: photos(name) for name in LOOK if (SHARED / name).exists()}
    print(f"{len(real)} photos, {len(made)} rendered scenes ({time.time() - start:.0f} s)", flush=True)
    net, exported = find_tune.network(tuple(args.channels))
    if args.init:
        net.load_state_dict(tune.weights(args.init))
    rng = np.random.default_rng(args.seed)
    optimiser = torch.optim.AdamW(net.parameters(), args.rate, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, args.rate, total_steps=args.steps, pct_start=0.1)
    total = 0.0
    for step in range(args.steps):
        net.train()
        views = [find_tune.view(*(real[int(rng.integers(len(real)))] if rng.random() < 0.7
                                  else made[int(rng.integers(len(made)))]), rng, SCALES) for _ in range(args.batch)]
        loss = find_tune.loss_of(net, views)
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        schedule.step()
        total += loss.item()
        if (step + 1) % args.every == 0 or step + 1 == args.steps:
            args.out.write_bytes(find_tune.export(exported))
            torch.save(net.state_dict(), args.out.with_suffix(".pt"))
            finder = find.Finder(args.out)
            seen = {name: [tuple(round(v, 3) for v in scores(finder, look, side)) for side in (find.SIDE, find.FINE)]
                    for name, look in looks.items()}
            print(f"step {step + 1}: loss {total / args.every:.3f} found, false a picture: {seen} {time.time() - start:.0f} s",
                  flush=True)
            total = 0.0
    print(f"wrote {args.out} and {args.out.with_suffix('.pt')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
