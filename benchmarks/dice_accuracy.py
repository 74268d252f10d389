#!/usr/bin/env python3
"""Dice reader accuracy and speed, per set, over folders in the manifest format of ../shared/dice.

    .venv/bin/python benchmarks/dice_accuracy.py                 # every shared set + rendered sets
    .venv/bin/python benchmarks/dice_accuracy.py DIR [DIR...]    # given folders (each with manifest.jsonl)
    .venv/bin/python benchmarks/dice_accuracy.py --profile P DIR # read with a learned profile

Per set it prints: dice found / labelled (a labelled die counts as found when a read die's box
centre lies in its box or its centre in the read box, each read die used once); value accuracy
over ALL labelled dice (kind and value both right; a die read as unreadable counts as wrong);
unreadable dice; false dice per image (read dice matched to no label, only on images whose
manifest says complete); and the median milliseconds per image of the reader alone (decoding
excluded), on one core (cv2.setNumThreads(1)), with its ratio to a baseline run in the same
process on the same images (Lab conversion + 5x5 Gaussian blur).
Rendered sets are made fresh from fixed seeds that no network was trained on.

HONEST PROTOCOL (printed with every run): nothing is ever trained or tuned on the pictures it is
scored on. The finder and the face network learned from rendered dice and the -train sets only
(their rows are marked SEEN); mixed-oblique-d6 and webcam-two-white-d6-valid chose thresholds.
A CALIBRATED row is what a table does with its own dice: `dice learn` (the face network fine-tuned)
on a fixed pick of the set's pictures (the first PHOTOS photos; of tiles, the first PER_VALUE of
each face), scored on the rest only, beside the uncalibrated row on the same rest; the webcam row
learns from WEBCAM_PHOTOS photos of its -train split and is scored on all of -valid.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

# one core: OpenCV is told below; numpy's BLAS (the profile's dot products) is told here, before it loads
for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

import cv2  # noqa: E402
import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from assistant.vision.errors import ImageError, ManifestError  # noqa: E402
from assistant.vision.images import load_image  # noqa: E402
from assistant.vision.find import Finder  # noqa: E402
from assistant.vision.learn import Examples, checked  # noqa: E402
from assistant.vision.manifest import Entry, manifest_folders, read_manifest  # noqa: E402
from assistant.vision.matching import match  # noqa: E402
from assistant.vision.network import runtime  # noqa: E402
from assistant.vision.profile import load  # noqa: E402
from assistant.vision.reader import DiceReader  # noqa: E402

from assistant.vision.render import write_set  # noqa: E402

SEEN = {name: "SEEN: the finder and the face network learned from these frames"
        for name in ("webcam-two-white-d6-train", "mixed-oblique-d6-train")}
PER_VALUE = 5  # calibration of tiles: this many of each face, in manifest order
PHOTOS = 10  # calibration of photos: the first this many (the tray: 10, then the other 4)
WEBCAM_PHOTOS = 14  # the webcam row: learned from this many -train photos (covering the faces), scored on all of -valid
PROTOCOL = (
    "HONEST PROTOCOL: nothing is trained or tuned on the pictures it is scored on. The finder and the face\n"
    "network learned from rendered dice and the -train sets only (their rows are SEEN); mixed-oblique-d6 and\n"
    "webcam-two-white-d6-valid chose thresholds. CALIBRATED rows: `dice learn` on the set's first "
    f"{PHOTOS} photos\n(tiles: the first {PER_VALUE} of each face), scored on the rest only; webcam: learned from "
    f"{WEBCAM_PHOTOS} -train photos, scored on -valid."
)

SHARED = ROOT.parent / "shared" / "dice"
RENDERED = {  # name: (count, seed, tiles, style)
    "rendered-nova-d8-tiles": (400, 9001, True, "astro"),
    "rendered-nova-d8-scenes": (60, 9002, False, "astro"),
    "rendered-mixed-scenes": (60, 9003, False, None),
    "rendered-pip-d6-tiles": (200, 9004, True, "pips"),
}


@dataclass
class Score:
    name: str
    images: int = 0
    labelled: int = 0
    found: int = 0
    right: int = 0
    unreadable: int = 0
    false_dice: int = 0
    complete_images: int = 0
    ms: list[float] = field(default_factory=list)
    baseline_ms: list[float] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    confusions: dict[str, int] = field(default_factory=dict)


def baseline(image: np.ndarray) -> None:
    cv2.GaussianBlur(cv2.cvtColor(image, cv2.COLOR_BGR2LAB), (5, 5), 0)


def entries(manifest: Path, s: Score) -> list[tuple[Entry, np.ndarray]]:
    """The usable pictures of a manifest, decoded, in manifest order (problems noted in `s`)."""
    out = []
    for item in read_manifest(manifest):
        if isinstance(item, ManifestError):
            s.skipped.append(str(item))
            continue
        try:
            out.append((item, load_image(item.image)))
        except ImageError as bad:
            s.skipped.append(str(bad))
    return out


def score_set(name: str, manifest: Path, reader: DiceReader, limit: int = 0,
              pictures: list[tuple[Entry, np.ndarray]] | None = None) -> Score:
    s = Score(name)
    for item, image in pictures if pictures is not None else entries(manifest, s):
        t0 = time.perf_counter()
        baseline(image)
        t1 = time.perf_counter()
        reading = reader.read(image)
        t2 = time.perf_counter()
        s.baseline_ms.append((t1 - t0) * 1000)
        s.ms.append((t2 - t1) * 1000)
        s.images += 1
        s.labelled += len(item.dice)
        pairs = match([d.box for d in item.dice], [d.box for d in reading.dice])
        for i, label in enumerate(item.dice):
            if i not in pairs:
                continue
            s.found += 1
            die = reading.dice[pairs[i]]
            if die.value is None:
                s.unreadable += 1
            elif die.value == label.value and die.kind == label.kind:
                s.right += 1
            else:
                key = f"{label.kind}:{label.value}->{die.kind}:{die.value}"
                s.confusions[key] = s.confusions.get(key, 0) + 1
        if item.complete:
            s.complete_images += 1
            s.false_dice += len(reading.dice) - len(pairs)
        if limit and s.images >= limit:
            break
    return s


def pct(a: int, b: int) -> str:
    return f"{100.0 * a / b:6.2f}%" if b else "    - "


def report(s: Score, tag: str = "") -> None:
    med = statistics.median(s.ms) if s.ms else float("nan")
    base = statistics.median(s.baseline_ms) if s.baseline_ms else float("nan")
    fp = f"{s.false_dice / s.complete_images:.3f}" if s.complete_images else "  -  "
    wrong = s.found - s.right - s.unreadable
    print(
        f"{s.name:34s} images {s.images:4d}  found {s.found:4d}/{s.labelled:4d} {pct(s.found, s.labelled)}"
        f"  right {pct(s.right, s.labelled)}  misread {wrong:3d}  unreadable {s.unreadable:3d}  false/img {fp}"
        f"  median {med:6.2f} ms (x{med / base:5.1f} baseline {base:.2f} ms)" + (f"  [{tag}]" if tag else ""),
        flush=True,
    )
    if s.confusions:
        worst = sorted(s.confusions.items(), key=lambda kv: -kv[1])[:6]
        print("    misread: " + ", ".join(f"{k} x{v}" for k, v in worst))
    for line in s.skipped[:5]:
        print(f"    skipped: {line}")


def calibration_pictures(pictures: list[tuple[Entry, np.ndarray]]) -> list[int]:
    """Which pictures calibrate, a fixed pick: of tiles, the first PER_VALUE of each face in manifest
    order; of photos, the first PHOTOS."""
    if not pictures or pictures[0][0].box_style != "tile":
        return list(range(min(PHOTOS, len(pictures) - 1)))
    count: dict[tuple[str, int], int] = {}
    chosen = []
    for n, (item, _image) in enumerate(pictures):
        face = (item.dice[0].kind, item.dice[0].value)
        if count.get(face, 0) < PER_VALUE:
            count[face] = count.get(face, 0) + 1
            chosen.append(n)
    return chosen


def covering(pictures: list[tuple[Entry, np.ndarray]], most: int) -> list[tuple[Entry, np.ndarray]]:
    """At most `most` pictures, in manifest order, each showing a face still short of PER_VALUE dice (the
    webcam -train photos come sorted by face: its first 14 show only 1s)."""
    count: dict[tuple[str, int], int] = {}
    chosen = []
    for item, image in pictures:
        faces = [(d.kind, d.value) for d in item.dice]
        if len(chosen) < most and any(count.get(f, 0) < PER_VALUE for f in faces):
            chosen.append((item, image))
            for f in faces:
                count[f] = count.get(f, 0) + 1
    return chosen


def calibrated(kind: str, pictures: list[tuple[Entry, np.ndarray]]) -> tuple[DiceReader, float]:
    """A reader with the profile `nova-table dice learn` makes of `pictures` (its check, then the profile), and the
    seconds learning took; the check's line is printed."""
    start = time.perf_counter()
    found = Examples()
    finder = Finder()
    for item, image in pictures:
        found.add(item, image, finder)
    profile, _ = checked(Path("calibration pictures"), [item for item, _ in pictures], found, report=lambda _s: None)
    print(f"    check: {profile.check}", flush=True)
    return DiceReader(kind, profile), time.perf_counter() - start


def run_set(folder: Path, reader: DiceReader, args: argparse.Namespace) -> None:
    s = Score(folder.name)
    pictures = entries(folder / "manifest.jsonl", s)
    if args.limit:
        pictures = pictures[: args.limit]
    whole = score_set(folder.name, folder / "manifest.jsonl", reader, pictures=pictures)
    whole.skipped = s.skipped
    report(whole, SEEN.get(folder.name, "uncalibrated"))
    if not args.calibrate or folder.name in SEEN:
        return
    if folder.name == "webcam-two-white-d6-valid":
        train = SHARED / "webcam-two-white-d6-train"
        if not train.exists():
            return
        table, took = calibrated(args.kind, covering(entries(train / "manifest.jsonl", Score(train.name)), WEBCAM_PHOTOS))
        report(score_set(folder.name, folder / "manifest.jsonl", table, pictures=pictures),
               f"CALIBRATED on {WEBCAM_PHOTOS} webcam -train photos in {took:.0f} s")
        return
    chosen = calibration_pictures(pictures)
    if len(pictures) > len(chosen):
        table, took = calibrated(args.kind, [pictures[n] for n in chosen])
        picked = set(chosen)
        rest = [p for n, p in enumerate(pictures) if n not in picked]
        report(score_set(folder.name, folder / "manifest.jsonl", reader, pictures=rest), "uncalibrated, same pictures as below")
        report(score_set(folder.name, folder / "manifest.jsonl", table, pictures=rest),
               f"CALIBRATED on {len(chosen)} of its pictures in {took:.0f} s, scored on the other {len(rest)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="*", type=Path)
    parser.add_argument("--profile", type=Path, help="a profile from `nova-table dice learn`")
    parser.add_argument("--kind", choices=("auto", "d6", "d8"), default="auto")
    parser.add_argument("--limit", type=int, default=0, help="at most this many images a set")
    parser.add_argument("--no-rendered", action="store_true", help="skip the rendered sets")
    parser.add_argument("--no-calibrate", dest="calibrate", action="store_false",
                        help="skip the calibrated rows (calibrate on the first pictures, score the rest)")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    profile = load(args.profile) if args.profile else None
    reader = DiceReader(args.kind, profile)
    print(PROTOCOL)
    print(f"OpenCV {cv2.__version__}, numpy {np.__version__}, networks by {runtime()}, 1 thread (learning: "
          f"PyTorch, {os.cpu_count()} cores); profile: {args.profile or 'none (the shipped face network)'}; kind: {args.kind}")
    folders = list(args.folders) or manifest_folders(SHARED)
    failed = 0
    for folder in folders:
        try:
            run_set(folder, reader, args)
        except ManifestError as bad:  # a folder without a readable manifest: said, and the next set is run
            print(f"{folder}: not a set in the manifest format of ../shared/dice/README.md ({bad})", file=sys.stderr)
            failed = 1
    if not args.folders and not args.no_rendered:
        d8_reader = DiceReader("d8", profile)
        with tempfile.TemporaryDirectory() as tmp:
            for name, (count, seed, tiles, style) in RENDERED.items():
                manifest = write_set(Path(tmp) / name, count, seed, tiles=tiles, style=style)
                report(score_set(name, manifest, reader, args.limit), "rendered, seeds never trained on")
                if style == "astro" and args.kind == "auto":
                    # a Nova Aetas table knows its dice are d8: `--kind d8`, as the app sets it
                    report(score_set(f"{name} --kind d8", manifest, d8_reader, args.limit))
    return failed


if __name__ == "__main__":
    sys.exit(main())
