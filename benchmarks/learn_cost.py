#!/usr/bin/env python3
"""What `dice learn` costs: seconds, TFLOP, peak memory, and a Pi 5's time by the FLOP count.

    .venv/bin/python benchmarks/learn_cost.py                  # the tray's 14 photos and the d8's 40 tiles
    .venv/bin/python benchmarks/learn_cost.py --tree OLD       # the same learned by another checkout, for a
                                                               # before and after back to back

Each case is `dice learn` as the command runs it (`learn.checked`: the check, then the profile) on a manifest of
../shared/dice, in a process of its own. Its TFLOP: the batches each fine-tune ran (counted at tune.fit) times
one batch's forward and backward (`batch_flops`) (the few forward passes
outside training, reading the held-out pictures and exporting, are left out). The d8's 40 tiles are the first 5
of each face, as dice_accuracy.py's calibrated row picks them. The Pi 5 estimate is that count at 10 and at 30
GFLOP/s (what PyTorch reaches on its four Cortex-A76 cores, small to large layers).
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "dice"
CASES = {"tray": ("tray-topdown-d6-calibrate", 0), "d8": ("d8-marbled-tiles", 5)}  # set, tiles a face (0: all)
PI5 = (10.0, 30.0)  # GFLOP/s


def manifest_of(case: str, folder: Path) -> Path:
    """The case's manifest: the set's own, or its first PER of each face (absolute image paths) in `folder`."""
    name, per = CASES[case]
    manifest = SHARED / name / "manifest.jsonl"
    if not per:
        return manifest
    count: dict[str, int] = {}
    lines = []
    for line in manifest.read_text().splitlines():
        item = json.loads(line)
        face = f"{item['dice'][0]['kind']}:{item['dice'][0]['value']}"
        if count.get(face, 0) < per:
            count[face] = count.get(face, 0) + 1
            item["image"] = str(manifest.parent / item["image"])
            lines.append(json.dumps(item))
    out = folder / f"{case}.jsonl"
    out.write_text("\n".join(lines) + "\n")
    return out


def batch_flops() -> dict[str, float]:
    """One training batch's FLOPs, forward and backward, of the face network and of the finder: three times its
    forward's, counted layer by layer (PyTorch's counter takes a depthwise convolution's backward for a dense
    one's, 40 times too many here; a backward costs about twice its forward)."""
    import numpy as np
    from torch.utils.flop_counter import FlopCounterMode

    from assistant.vision import find_tune, tune

    face = tune.network()
    finder, _ = find_tune.network()
    blank = np.zeros((find_tune.CROP, find_tune.CROP, 3), np.uint8), np.zeros((0, 4), np.float32)
    losses = {"face": lambda: tune.loss_of(face, np.zeros((tune.BATCH, 96, 96, 3), np.uint8),
                                           np.zeros((tune.BATCH, 2), np.int64)),
              "finder": lambda: find_tune.loss_of(finder, [blank] * find_tune.BATCH)}
    out = {}
    for name, loss in losses.items():
        with FlopCounterMode(display=False) as counter:
            loss()
        out[name] = 3.0 * counter.get_total_flops()
    return out


def one(case: str, steps: int | None = None) -> dict[str, object]:
    """Learn `case` here as `dice learn` does; its seconds, TFLOP, batches and peak memory."""
    from assistant.vision import tune
    from assistant.vision.learn import checked, entries_of, examples

    batches = {"face": 0, "finder": 0}
    fit = tune.fit

    def counted(net: object, steps: int, *args: object) -> None:
        batches["face" if hasattr(net, "_blocks") else "finder"] += steps
        fit(net, steps, *args)

    tune.fit = counted  # find_tune imports it from tune when it learns
    with tempfile.TemporaryDirectory() as tmp:
        manifest = manifest_of(case, Path(tmp))
        start = time.perf_counter()
        entries = entries_of(manifest, lambda _said: None)
        found = examples(entries, lambda _said: None)
        _, check = checked(manifest, entries, found, steps, report=lambda _said: None)
        seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    per = batch_flops()
    tflop = sum(batches[k] * per[k] for k in batches) / 1e12
    return {"seconds": seconds, "tflop": tflop, "peak_mib": peak, "check": str(check), "batches": batches,
            "gflop_a_batch": {k: round(v / 1e9, 1) for k, v in per.items()}}


def child(tree: Path, case: str, steps: int | None) -> dict[str, object]:
    command = [sys.executable, __file__, "--one", case, "--tree", str(tree)] + (["--steps", str(steps)] if steps else [])
    done = subprocess.run(command, capture_output=True, text=True, check=False, cwd=tree)
    if done.returncode:
        sys.exit(f"{case} in {tree} failed:\n{done.stderr[-3000:]}")
    result: dict[str, object] = json.loads(done.stdout.splitlines()[-1])
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", type=Path, default=ROOT, help="the checkout whose `dice learn` is measured")
    parser.add_argument("--case", choices=sorted(CASES), action="append", help="only these (default: both)")
    parser.add_argument("--steps", type=int, help="batches of each fine-tune, as `dice learn --steps` (default: its own)")
    parser.add_argument("--one", choices=sorted(CASES), help=argparse.SUPPRESS)
    args = parser.parse_args()
    tree = args.tree.resolve()
    if args.one:
        sys.path.insert(0, str(tree))
        print(json.dumps(one(args.one, args.steps)))
        return 0
    print(f"dice learn in {tree}")
    for case in args.case or list(CASES):
        run = child(tree, case, args.steps)
        tflop = float(run["tflop"])  # type: ignore[arg-type]
        pi = "  ".join(f"Pi 5 at {g:.0f} GFLOP/s {tflop * 1000 / g / 60:4.1f} min" for g in PI5)
        print(f"{case:5s} {CASES[case][0]:26s} {run['seconds']:6.1f} s  {tflop:6.2f} TFLOP  peak {run['peak_mib']:5.0f} MiB"
              f"  {pi}\n      batches {run['batches']}, GFLOP a batch {run['gflop_a_batch']}\n      check: {run['check']}",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
