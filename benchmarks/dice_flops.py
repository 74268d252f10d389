#!/usr/bin/env python3
"""GFLOP a frame of the project's own tray, counted from the dice reader's networks, and a Pi 5's time for them.

    .venv/bin/python benchmarks/dice_flops.py [--frames 40] [--profile P]

Frames (render.scene, top-down, `--frames` of each): the whole 640 x 480 view from the mast, its 16 mm dice
40 px across (hardware/README.md: the designed tray at 255 mm), 1 to 6 of them and 4 of them; the larger tray's
(250 x 180 mm, the camera at 324 mm) 32 px dice; and the tray's top view as `--tray` reads it (tray.py: the
rolling area between the markers' inner corners, about 199 x 137 mm, warped to 640 x 640: a die 51 x 75 px).
Each is read as `dice read` reads it, and every batch each network is given is counted: the multiply-adds of
its Conv, Gemm and MatMul nodes (2 FLOP each) from the shapes onnx's shape inference gives the graph for that
batch (once onnxruntime's basic optimizations have folded its constants: the face network computes its
padding). Per set: the median and the largest GFLOP a frame, how many frames the finder looked at again at
find.BETWEEN and find.FINE px (the dice small), and the networks' time at a Pi 5's 10 and 30 GFLOP/s (what
onnxruntime gets from its four Cortex-A76 cores on such networks; the rest of a read is a few ms more).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

import cv2  # noqa: E402
import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from assistant.vision import find, read  # noqa: E402
from assistant.vision.profile import load  # noqa: E402
from assistant.vision.reader import DiceReader  # noqa: E402
from assistant.vision.render import scene  # noqa: E402

PI5 = (10.0, 30.0)  # GFLOP/s a Pi 5 gets from onnxruntime on these networks, low and high


def graph_flops(model: Path | bytes, shape: tuple[int, ...]) -> int:
    """FLOP of one run of the ONNX `model` on an input of `shape`: 2 per multiply-add of its Conv, Gemm and
    MatMul nodes, their shapes from onnx's shape inference after onnxruntime folded the graph's constants."""
    import onnx
    import onnxruntime as ort
    from onnx import shape_inference

    with tempfile.TemporaryDirectory() as folder:
        options = ort.SessionOptions()
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC  # the same on any machine
        options.optimized_model_filepath = str(Path(folder) / "folded.onnx")
        options.log_severity_level = 3
        ort.InferenceSession(model if isinstance(model, bytes) else str(model), options,
                             providers=["CPUExecutionProvider"])
        graph = onnx.load(options.optimized_model_filepath)
    for dim, side in zip(graph.graph.input[0].type.tensor_type.shape.dim, shape):
        dim.Clear()
        dim.dim_value = side
    graph = shape_inference.infer_shapes(graph, strict_mode=True, data_prop=True)
    shapes = {v.name: [d.dim_value for d in v.type.tensor_type.shape.dim]
              for v in [*graph.graph.value_info, *graph.graph.output, *graph.graph.input]}
    weights = {w.name: list(w.dims) for w in graph.graph.initializer}
    total = 0
    for node in graph.graph.node:
        if node.op_type not in ("Conv", "Gemm", "MatMul"):
            continue
        out = shapes.get(node.output[0])
        if not out or 0 in out:
            raise ValueError(f"{node.name}: no shape for its output {node.output[0]}")
        if node.op_type == "Conv":  # each output value: (input channels / groups) x kernel multiply-adds
            total += 2 * int(np.prod(out)) * int(np.prod(weights[node.input[1]][1:]))
        else:  # each output value: the inner dimension's multiply-adds (Gemm's A may be transposed)
            a = shapes.get(node.input[0]) or weights[node.input[0]]
            trans = any(att.name == "transA" and att.i for att in node.attribute)
            total += 2 * int(np.prod(out)) * (a[-2] if trans else a[-1])
    return total


class Counter:
    """Counts the FLOP of every batch a network runs (`counting(net.run)`); the graph's per batch of one, by
    input sides, times the batch (each node's work grows with it)."""

    def __init__(self, model: Path | bytes) -> None:
        self.model = model
        self.per_one: dict[tuple[int, ...], int] = {}
        self.flops = 0
        self.sides: list[int] = []  # each batch's longer input side

    def counting(self, run: Callable[[np.ndarray], np.ndarray]) -> Callable[[np.ndarray], np.ndarray]:
        def counted(batch: np.ndarray) -> np.ndarray:
            key = tuple(batch.shape[1:])
            if key not in self.per_one:
                self.per_one[key] = graph_flops(self.model, (1, *key))
            self.flops += batch.shape[0] * self.per_one[key]
            self.sides.append(max(key[1:]))
            return run(batch)
        return counted


def frames(count: int) -> dict[str, list[np.ndarray]]:
    """The tray's frames, `count` of each set (their own seeds)."""
    def top_down(seed: int, size: tuple[int, int], side: int, dice: int | None) -> list[np.ndarray]:
        rng = np.random.default_rng(seed)
        return [scene(rng, size, dice, die_side=side, tilt=0.0).image for _ in range(count)]

    view = [cv2.resize(f, (640, 640), interpolation=cv2.INTER_LINEAR)  # 199 x 137 mm stretched to a square
            for f in top_down(5104, (640, 441), 51, None)]
    return {"mast, 40 px dice, 1 to 6": top_down(5101, (640, 480), 40, None),
            "mast, 40 px dice, 4": top_down(5102, (640, 480), 40, 4),
            "larger tray, 32 px dice, 1 to 6": top_down(5103, (640, 480), 32, None),
            "tray's top view (--tray), 1 to 6": view}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=40, help="frames of each set")
    parser.add_argument("--profile", type=Path, help="a profile from `nova-table dice learn`")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    reader = DiceReader(profile=load(args.profile) if args.profile else None)
    finder = Counter(reader.profile.finder if reader.profile and reader.profile.finder else find.MODEL)
    faces = Counter(reader.profile.network if reader.profile else read.MODEL)
    reader.finder.net.run = finder.counting(reader.finder.net.run)  # type: ignore[method-assign,assignment]
    reader.faces.net.run = faces.counting(reader.faces.net.run)  # type: ignore[method-assign,assignment]
    print(f"GFLOP a frame (Conv, Gemm, MatMul; 2 a multiply-add), the networks' time on a Pi 5 at {PI5[0]:.0f} and "
          f"{PI5[1]:.0f} GFLOP/s; the finder's looks at {find.BETWEEN} and {find.FINE} px where the dice are small")
    for name, pictures in frames(args.frames).items():
        gflop, found, looked = [], [], 0
        for frame in pictures:
            finder.flops = faces.flops = 0
            finder.sides.clear()
            reader.read(frame)
            gflop.append((finder.flops + faces.flops) / 1e9)
            found.append(finder.flops / 1e9)
            looked += max(finder.sides) >= find.FINE
        median, most = statistics.median(gflop), max(gflop)
        print(f"{name:34s} frames {len(pictures):3d}  GFLOP median {median:5.2f} (finder {statistics.median(found):4.2f})"
              f" max {most:5.2f}  looked again "
              f"{looked:3d}  Pi 5 median {1000 * median / PI5[1]:4.0f} to {1000 * median / PI5[0]:4.0f} ms, "
              f"max {1000 * most / PI5[1]:4.0f} to {1000 * most / PI5[0]:4.0f} ms", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
