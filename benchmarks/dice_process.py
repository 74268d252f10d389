#!/usr/bin/env python3
"""`nova-table dice read` as a user runs it, whole process, against a plain OpenCV blob pip counter.

    .venv/bin/python benchmarks/dice_process.py [--runs 5] [--count 20]

Pictures: --count 640 x 480 webcam frames of ../shared/dice/webcam-two-white-d6-valid, and the same
number of 12 MP (4032 x 3024) JPEGs made from the tray photos of tray-topdown-d6-calibrate (upscaled,
written to a temporary folder): the size of a phone's photo or a Pi camera still. For each, one
process reads them all, and one process reads just the first; each is run --runs times and the
median wall time is printed beside the baseline's on the same pictures, run alternately with it:
a fresh Python that decodes each picture, turns it grey and counts the blobs of OpenCV's
SimpleBlobDetector (a plain pip counter), and their ratio. Interpreter start, imports and the
networks' loading are in both figures, as they are for a user.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "dice"
PIP_COUNTER = """
import sys, cv2
cv2.setNumThreads(1)
detector = cv2.SimpleBlobDetector_create()
for path in sys.argv[1:]:
    image = cv2.imread(path, cv2.IMREAD_COLOR)
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    print(path, len(detector.detect(grey)))
"""


def pictures(name: str, count: int) -> list[Path]:
    lines = (SHARED / name / "manifest.jsonl").read_text().splitlines()[:count]
    return [SHARED / name / json.loads(line)["image"] for line in lines]


def twelve_mp(sources: list[Path], folder: Path) -> list[Path]:
    """The tray photos, upscaled to 4032 x 3024 (landscape) and saved as JPEG (quality 92) in `folder`."""
    out = []
    for i, source in enumerate(sources):
        image = cv2.imread(str(source))
        if image.shape[0] > image.shape[1]:
            image = cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE)
        path = folder / f"tray-12mp-{i}.jpg"
        cv2.imwrite(str(path), cv2.resize(image, (4032, 3024), interpolation=cv2.INTER_CUBIC),
                    [cv2.IMWRITE_JPEG_QUALITY, 92])
        out.append(path)
    return out


def wall(command: list[str]) -> float:
    start = time.perf_counter()  # (this tree's code, not the one the venv was installed from)
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   env={"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "PATH": "/usr/bin:/bin",
                        "PYTHONPATH": str(ROOT)})
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--count", type=int, default=20)
    args = parser.parse_args()
    nova = [str(Path(sys.executable).parent / "nova-table"), "dice", "read"]
    counter = [sys.executable, "-c", PIP_COUNTER]
    if not SHARED.exists():
        print(f"no {SHARED}: nothing to measure")
        return 0
    with tempfile.TemporaryDirectory() as folder:
        sets = {"640x480 webcam frames": pictures("webcam-two-white-d6-valid", args.count),
                "12 MP photos": twelve_mp(pictures("tray-topdown-d6-calibrate", args.count), Path(folder))}
        print(f"median wall seconds of {args.runs} runs, one process each (dice read | pip counter | ratio)")
        for name, paths in sets.items():
            for some in (paths[:1], paths):
                files = [str(p) for p in some]
                reads, counts = [], []
                for _ in range(args.runs):
                    reads.append(wall(nova + files))
                    counts.append(wall(counter + files))
                r, c = statistics.median(reads), statistics.median(counts)
                print(f"{name:22} {len(files):3} a process: {r:6.2f} s | {c:6.2f} s | x {r / c:4.1f}"
                      f"   ({1000 * r / len(files):.0f} vs {1000 * c / len(files):.0f} ms a picture)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
