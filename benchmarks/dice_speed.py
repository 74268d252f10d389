#!/usr/bin/env python3
"""Dice reader speed per 640x480 frame on one core: median milliseconds, and the ratio to a baseline.

    .venv/bin/python benchmarks/dice_speed.py [--passes 3]

Frames: the 640x480 webcam photos of ../shared/dice (when present) and rendered 640x480 scenes
of 1 to 6 dice, read with --kind auto (the "all 640x480 frames" line is over these); then rendered
640x480 scenes of 1 to 6 Nova Aetas d8 (astro style, as a Nova table sees them), read with
--kind d8 and with --kind auto, and the tray as the mast's camera sees it, its dice 40 px across (printed apart, not
in "all"). Each frame is read `passes` times; the per-frame median of those runs is taken
(so a moment of load on the machine does not count), then the median over frames is printed,
with the same for a baseline run in the same process on the same frames (Lab conversion and a
5x5 Gaussian blur), and their ratio: the Pi is about 3 to 5 times slower than this machine.
The CPU time of this single-threaded process is printed too: it counts less of what other
programs running on the machine at the same time cost it. "find" is the finder alone (the
network and its decoding, on the working image); the rest of "read" is cutting and reading each die.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

# one core: OpenCV is told below; numpy's BLAS (the profile's dot products) is told here, before it loads
for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

import cv2  # noqa: E402
import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from assistant.vision.images import working  # noqa: E402
from assistant.vision.network import runtime  # noqa: E402
from assistant.vision.profile import load  # noqa: E402
from assistant.vision.reader import DiceReader  # noqa: E402
from assistant.vision.render import scene  # noqa: E402
from assistant.vision.settle import SettleDetector  # noqa: E402

SHARED = ROOT.parent / "shared" / "dice"
WEBCAM = ("webcam-two-white-d6-train", "webcam-two-white-d6-valid")


def nova_frames(rendered: int) -> list[np.ndarray]:
    """Rendered 640x480 scenes of Nova Aetas d8 (render.scene, style astro; its own seed)."""
    rng = np.random.default_rng(4243)
    return [scene(rng, (640, 480), style="astro").image for _ in range(rendered)]


def mast_frames(rendered: int) -> list[np.ndarray]:
    """Rendered 640x480 top-down frames of 1 to 6 dice 40 px across: the tray seen from the mast (hardware/README.md)."""
    rng = np.random.default_rng(4244)
    return [scene(rng, (640, 480), die_side=40, tilt=0.0).image for _ in range(rendered)]


def frames(rendered: int) -> dict[str, list[np.ndarray]]:
    sets: dict[str, list[np.ndarray]] = {}
    for name in WEBCAM:
        folder = SHARED / name / "images"
        if folder.is_dir():
            pictures = [cv2.imread(str(p)) for p in sorted(folder.iterdir())]
            sets[name] = [p for p in pictures if p is not None and p.shape[:2] == (480, 640)]
    rng = np.random.default_rng(4242)
    sets["rendered 640x480 scenes"] = [scene(rng, (640, 480)).image for _ in range(rendered)]
    return sets


def timed(action, frame: np.ndarray, passes: int, clock=time.perf_counter) -> float:  # type: ignore[no-untyped-def]
    runs = []
    for _ in range(passes):
        t0 = clock()
        action(frame)
        runs.append((clock() - t0) * 1000.0)
    return float(statistics.median(runs))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument("--rendered", type=int, default=60)
    parser.add_argument("--profile", type=Path, help="a profile from `nova-table dice learn`")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    profile = load(args.profile) if args.profile else None
    reader = DiceReader(profile=profile)

    def baseline(frame: np.ndarray) -> None:
        cv2.GaussianBlur(cv2.cvtColor(frame, cv2.COLOR_BGR2LAB), (5, 5), 0)

    print(f"OpenCV {cv2.__version__}, networks by {runtime()}, 1 thread, {args.passes} passes per frame")
    every: list[float] = []
    every_cpu: list[float] = []
    def measure(name: str, pictures: list[np.ndarray], reader: DiceReader) -> tuple[list[float], list[float]]:
        ms = [timed(reader.read, f, args.passes) for f in pictures]
        cpu = [timed(reader.read, f, args.passes, time.process_time) for f in pictures]
        base = [timed(baseline, f, args.passes) for f in pictures]
        find = [timed(reader.finder.find, working(f)[0], args.passes) for f in pictures]
        med, bmed = statistics.median(ms), statistics.median(base)
        print(f"{name:32s} frames {len(pictures):4d}  median {med:6.2f} ms  p90 {np.percentile(ms, 90):6.2f} ms"
              f"  (CPU time {statistics.median(cpu):6.2f} ms; find {statistics.median(find):5.2f} ms)"
              f"  baseline {bmed:5.2f} ms  ratio x{med / bmed:5.1f}", flush=True)
        return ms, cpu

    shown = frames(args.rendered)
    for name, pictures in shown.items():
        ms, cpu = measure(name, pictures, reader)
        every.extend(ms)
        every_cpu.extend(cpu)
    print(f"{'all 640x480 frames':32s} frames {len(every):4d}  median {statistics.median(every):6.2f} ms"
          f"  (CPU time {statistics.median(every_cpu):6.2f} ms)", flush=True)
    pictures = [f for group in shown.values() for f in group]
    settle = SettleDetector()  # every frame the camera gives goes through it, read or not
    ms = [timed(settle.update, f, args.passes) for f in pictures]
    base = [timed(baseline, f, args.passes) for f in pictures]
    print(f"{'settle detection, every frame':32s} frames {len(ms):4d}  median {statistics.median(ms):6.2f} ms"
          f"  baseline {statistics.median(base):5.2f} ms  ratio x{statistics.median(ms) / statistics.median(base):5.1f}",
          flush=True)
    measure("the mast's tray, 40 px dice (auto)", mast_frames(args.rendered), reader)
    nova = nova_frames(args.rendered)
    measure("rendered Nova d8 scenes, --kind d8", nova, DiceReader("d8", profile))
    measure("rendered Nova d8 scenes (auto)", nova, reader)
    return 0


if __name__ == "__main__":
    sys.exit(main())
