#!/usr/bin/env python3
"""The first rolls a table reads: milliseconds per frame in a fresh process, after `DiceReader.warm()`.

    .venv/bin/python benchmarks/dice_first_frame.py [--processes 5]

Each fresh process (one OpenCV thread) warms a reader as `watch` does, then reads six rendered
640x480 scenes (its own seed; Nova Aetas d8 for --kind d8, pip d6 for d6) twice over: the first
pass is what the first rolls of a session cost, the second the same frames once everything has
run. Printed: the median over processes of the first frame's time and of the same frame read
again, their ratio, and of warm() itself.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from assistant.vision.render import STYLE_OF_KIND  # noqa: E402  (the dice such a table rolls)

ONE = """
import json, sys, time
import cv2, numpy as np
sys.path.insert(0, {root!r})
cv2.setNumThreads(1)
from assistant.vision.reader import DiceReader
from assistant.vision.render import scene
rng = np.random.default_rng({seed})
frames = [scene(rng, (640, 480), style={style!r}).image for _ in range(6)]
reader = DiceReader({kind!r})
t = time.perf_counter(); reader.warm(); warm = time.perf_counter() - t
times = []
for _ in range(2):
    for frame in frames:
        t = time.perf_counter(); reader.read(frame); times.append(time.perf_counter() - t)
print(json.dumps({{"warm": warm, "first": times[0], "again": times[6]}}))
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--processes", type=int, default=5)
    parser.add_argument("--kind", choices=("auto", "d6", "d8"), default="auto")
    args = parser.parse_args()
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    runs = []
    for seed in range(args.processes):
        code = ONE.format(root=str(ROOT), seed=1000 + seed, kind=args.kind, style=STYLE_OF_KIND[args.kind])
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
        runs.append(json.loads(done.stdout.splitlines()[-1]))
    first = statistics.median(r["first"] for r in runs) * 1000
    again = statistics.median(r["again"] for r in runs) * 1000
    warm = statistics.median(r["warm"] for r in runs) * 1000
    print(f"{args.processes} fresh processes, --kind {args.kind}: first frame after warm() median {first:.1f} ms, "
          f"the same frame again {again:.1f} ms (x {first / again:.2f}); warm() {warm:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
