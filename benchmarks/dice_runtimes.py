#!/usr/bin/env python3
"""The dice reader's networks on onnxruntime against OpenCV's dnn, in one process, one thread.

    .venv/bin/python benchmarks/dice_runtimes.py [--rendered 60] [--passes 3]

Two readers are built side by side: one runs its networks by onnxruntime (as wherever it is
installed), the other by OpenCV's dnn (as on 32-bit ARM, where onnxruntime has no wheels). Each
frame is read by both in turn, `passes` times each, and the per-frame medians are compared:
the median over frames of each, their ratio, and each network alone on a typical batch (the
detector's frame and mirror image; 4 candidates of the verifier; 4 crops of the face network;
4 dice of the close-up d8 network, four quarter turns each). Frames: the 640x480 webcam photos of ../shared/dice when
present, rendered scenes of mixed dice and of Nova Aetas d8. It also counts the frames whose
readings differ between the two (kind, value or box of any die): the runtimes' outputs differ by
about 1e-5, which can move a die across a threshold. Last, the memory of a reader on each: a fresh
process per runtime builds and warms a reader, reads 20 rendered Nova d8 frames and prints its resident
memory before the reader, after, and at its peak.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

import cv2  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from assistant.vision import network  # noqa: E402
from assistant.vision.detector import CROP  # noqa: E402
from assistant.vision.faces import load_net  # noqa: E402
from assistant.vision.reader import DiceReader  # noqa: E402
from dice_speed import frames, nova_frames, timed  # noqa: E402  (the same frames and timing)


def readers(kind: str) -> tuple[DiceReader, DiceReader]:
    """(onnxruntime, OpenCV's dnn) readers of `kind`, each with networks of its own (the face
    networks are loaded once per process: that cache is emptied around each)."""
    def build() -> DiceReader:
        load_net.cache_clear()
        reader = DiceReader(kind)
        assert reader.detector is not None  # loaded now, on this runtime
        return reader

    fast = build()
    installed = network.onnxruntime
    network.onnxruntime = lambda: None
    try:
        slow = build()
    finally:
        network.onnxruntime = installed
        load_net.cache_clear()
    assert fast.detector is not None and slow.detector is not None
    assert (fast.detector.net.runtime, slow.detector.net.runtime) == ("onnxruntime", "opencv")
    return fast, slow


def nets(reader: DiceReader) -> dict[str, tuple[network.Network, np.ndarray]]:
    """Each network of `reader` with a typical batch for it."""
    rng = np.random.default_rng(0)
    found: dict[str, tuple[network.Network, np.ndarray]] = {}
    if reader.detector is not None:
        found["detector, frame and mirror (2 x 3 x 240 x 320)"] = (
            reader.detector.net, rng.uniform(0, 255, (2, 3, 240, 320)).astype(np.float32))
        found[f"verifier, 4 candidates (4 x 3 x {CROP} x {CROP})"] = (
            reader.detector.verifier, rng.uniform(0, 255, (4, 3, CROP, CROP)).astype(np.float32))
    if reader.faces is not None:
        crops = rng.normal(size=(4, 1, 64, 64)).astype(np.float32)
        found["face network, 4 crops (4 x 1 x 64 x 64)"] = (reader.faces.net.net, crops)
        if reader.faces.second is not None:
            found["second face network (Lite0), the same 4 crops"] = (reader.faces.second[0].net, crops)
        if reader.faces.d8 is not None:
            side = reader.faces.d8.input
            found[f"close-up d8 network, 4 dice x 4 turns (16 x 1 x {side} x {side})"] = (
                reader.faces.d8.net, rng.normal(size=(16, 1, side, side)).astype(np.float32))
    return found


def resident(field: str = "VmRSS") -> float:
    """This process's resident memory now (VmRSS), or at its peak (VmHWM: unlike getrusage's, not
    inherited from the process that started this one), MB."""
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith(field)) / 1024


def memory(runtime: str) -> str:
    """In this (fresh) process: a reader on `runtime`, warmed, 20 rendered frames read; its memory."""
    if runtime == "opencv":
        network.onnxruntime = lambda: None
    pictures = nova_frames(20)
    before = resident()
    reader = DiceReader("auto")
    reader.warm()
    for frame in pictures:
        reader.read(frame)
    peak = resident("VmHWM")
    return f"{runtime:12s} memory: {before:5.0f} MB before the reader, {resident():5.0f} MB after, peak {peak:5.0f} MB"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rendered", type=int, default=60)
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument("--memory", choices=("onnxruntime", "opencv"), help=argparse.SUPPRESS)  # the child's part
    args = parser.parse_args()
    cv2.setNumThreads(1)
    if args.memory:
        print(memory(args.memory))
        return 0
    if network.onnxruntime() is None:
        print("onnxruntime is not installed here: nothing to compare (pip install onnxruntime)")
        return 1
    import onnxruntime

    print(f"onnxruntime {onnxruntime.__version__}, OpenCV {cv2.__version__}, 1 thread, {args.passes} passes per frame")
    fast, slow = readers("auto")
    for name, (net, batch) in nets(fast).items():
        other = nets(slow)[name][0]
        ort = [timed(lambda b: net.run(b), batch, 1) for _ in range(200)]
        dnn = [timed(lambda b: other.run(b), batch, 1) for _ in range(200)]
        print(f"{name:58s} onnxruntime {statistics.median(ort):6.2f} ms  OpenCV {statistics.median(dnn):6.2f} ms"
              f"  x{statistics.median(dnn) / statistics.median(ort):4.1f}", flush=True)
    sets = frames(args.rendered)
    sets["rendered Nova d8 scenes, --kind d8"] = nova_frames(args.rendered)
    d8 = readers("d8")
    for name, pictures in sets.items():
        a, b = d8 if "--kind d8" in name else (fast, slow)
        ort, dnn, differ = [], [], 0
        for frame in pictures:
            ort.append(timed(a.read, frame, args.passes))
            dnn.append(timed(b.read, frame, args.passes))
            seen = [[(d.kind, d.value, d.box) for d in r.read(frame).dice] for r in (a, b)]
            differ += seen[0] != seen[1]
        print(f"{name:36s} frames {len(pictures):4d}  read: onnxruntime {statistics.median(ort):6.2f} ms"
              f"  OpenCV {statistics.median(dnn):6.2f} ms  x{statistics.median(dnn) / statistics.median(ort):4.1f}"
              f"  (p90 {np.percentile(ort, 90):6.2f} / {np.percentile(dnn, 90):6.2f} ms)"
              f"  frames read otherwise {differ}", flush=True)
    for runtime in ("onnxruntime", "opencv"):
        child = subprocess.run([sys.executable, __file__, "--memory", runtime], capture_output=True, text=True, check=True)
        print(child.stdout.strip(), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
