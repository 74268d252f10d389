#!/usr/bin/env python3
"""What `dice learn` costs: seconds, TFLOP, peak memory, and a Pi 5's time by the FLOP count.

    .venv/bin/python benchmarks/learn_cost.py                  # the tray's 14 photos and the d8's 40 tiles
    .venv/bin/python benchmarks/learn_cost.py --tree OLD       # the same learned by another checkout, for a
                                                               # before and after back to back
    .venv/bin/python benchmarks/learn_cost.py --no-flops       # seconds and memory only (half the time)

Each case is `dice learn` as the command runs it (`learn.checked`: the check, then the profile) on a manifest of
../shared/dice, in a process of its own: once timed, once with PyTorch's FLOP counter (forward and backward of
every layer; it slows the run, so its seconds are not the ones given). The d8's 40 tiles are the first 5 of each
face, as dice_accuracy.py's calibrated row picks them. The Pi 5 estimate is the count at 10 and at 30 GFLOP/s
(what PyTorch reaches on its four Cortex-A76 cores, small to large layers).
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


def one(case: str, flops: bool) -> dict[str, float]:
    """Learn `case` here as `dice learn` does; its seconds, TFLOP (where counted) and peak memory."""
    from assistant.vision.learn import checked, entries_of, examples

    with tempfile.TemporaryDirectory() as tmp:
        manifest = manifest_of(case, Path(tmp))
        start = time.perf_counter()
        entries = entries_of(manifest, lambda _said: None)
        found = examples(entries, lambda _said: None)
        if flops:
            from torch.utils.flop_counter import FlopCounterMode

            with FlopCounterMode(display=False) as counter:
                _, check = checked(manifest, entries, found, report=lambda _said: None)
            tflop = counter.get_total_flops() / 1e12
        else:
            _, check = checked(manifest, entries, found, report=lambda _said: None)
            tflop = float("nan")
        seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    return {"seconds": seconds, "tflop": tflop, "peak_mib": peak, "check": str(check)}


def child(tree: Path, case: str, flops: bool) -> dict[str, float]:
    command = [sys.executable, __file__, "--one", case, "--tree", str(tree)] + ([] if flops else ["--no-flops"])
    done = subprocess.run(command, capture_output=True, text=True, check=False, cwd=tree)
    if done.returncode:
        sys.exit(f"{case} in {tree} failed:\n{done.stderr[-3000:]}")
    result: dict[str, float] = json.loads(done.stdout.splitlines()[-1])
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", type=Path, default=ROOT, help="the checkout whose `dice learn` is measured")
    parser.add_argument("--case", choices=sorted(CASES), action="append", help="only these (default: both)")
    parser.add_argument("--no-flops", dest="flops", action="store_false", help="do not count FLOPs")
    parser.add_argument("--one", choices=sorted(CASES), help=argparse.SUPPRESS)
    args = parser.parse_args()
    tree = args.tree.resolve()
    if args.one:
        sys.path.insert(0, str(tree))
        print(json.dumps(one(args.one, args.flops)))
        return 0
    print(f"dice learn in {tree}")
    for case in args.case or list(CASES):
        timed = child(tree, case, False)
        tflop = child(tree, case, True)["tflop"] if args.flops else float("nan")
        pi = "  ".join(f"Pi 5 at {g:.0f} GFLOP/s {tflop * 1000 / g / 60:5.1f} min" for g in PI5)
        print(f"{case:5s} {CASES[case][0]:28s} {timed['seconds']:6.1f} s  {tflop:6.2f} TFLOP  peak "
              f"{timed['peak_mib']:6.0f} MiB  {pi}\n      check: {timed['check']}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
