#!/usr/bin/env python3
"""Render labelled pictures of photographed-looking dice with Blender (Cycles, on the CPU, in the background).

    .venv/bin/python calibration/photo_dice.py OUTDIR --count N --seed S [--samples 16]

Writes OUTDIR/images/SSS-NNNNN.jpg and OUTDIR/manifest.jsonl in the format of ../shared/dice (whole-die
boxes, every die labelled; a Nova Aetas d8 with its "symbol"), and OUTDIR/README with the command that made
them. The same seed gives the same pictures. Blender (Debian's `blender`, 3.4) runs as one background
process on one thread, niced, a fresh one every CHUNK pictures (one Blender grew to 15.7 GB over 3,300
pictures); the scene is calibration/photo_dice_scene.py. A folder that already holds a
manifest is refused (nothing in it is written over).
"""

from __future__ import annotations

import argparse
import json
import signal
from collections import Counter, deque
import shlex
import shutil
import site
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE)]

import face_marks  # noqa: E402


def stop(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def summary(out: Path) -> str:
    """What the folder's manifest holds: pictures, and dice of each kind and look."""
    counts: Counter[str] = Counter()
    pictures = 0
    for line in (out / "manifest.jsonl").read_text(encoding="utf-8").splitlines():
        pictures += 1
        for die in json.loads(line)["dice"]:
            counts[die["kind"]] += 1
    return f"made {pictures} pictures: {counts['d8']} d8, {counts['d6']} d6"


CHUNK = 400  # pictures a Blender process renders


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--count", type=int, default=100, help="pictures (1 to 8 dice each)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--samples", type=int, default=6, help="Cycles samples a pixel")
    parser.add_argument("--blender", default="blender")
    args = parser.parse_args()
    if (args.out / "manifest.jsonl").exists():
        print(f"{args.out}: already holds a manifest; render into a new or empty folder (nothing was written)",
              file=sys.stderr)
        return 2
    if shutil.which(args.blender) is None:
        print(f"{args.blender}: not found (apt install blender)", file=sys.stderr)
        return 2
    if args.count < 1 or args.samples < 1:
        print("--count and --samples must be 1 or more", file=sys.stderr)
        return 2
    try:
        args.out.mkdir(parents=True, exist_ok=True)
    except OSError as bad:
        print(f"{args.out}: cannot render into it ({bad.strerror})", file=sys.stderr)
        return 2
    command = ["nice", "-n", "10", args.blender, "-b", "--factory-startup", "-t", "1", "--python-exit-code", "1", "-P",
               str(HERE / "photo_dice_scene.py"), "--", str(args.out), "--seed", str(args.seed), "--samples",
               str(args.samples)]
    for path in site.getsitepackages():
        command += ["--site", path]
    (args.out / "README").write_text(
        f"Rendered by: calibration/photo_dice.py {shlex.quote(str(args.out))} --count {args.count} --seed "
        f"{args.seed} --samples {args.samples}\n(Blender: {shlex.join(command)})\n", encoding="utf-8")
    with tempfile.TemporaryDirectory(prefix="photo-dice-glyphs-") as scratch:
        glyphs = Path(scratch) / "glyphs.npz"
        face_marks.write_glyphs(glyphs)
        signal.signal(signal.SIGTERM, stop)
        tail: deque[str] = deque(maxlen=40)
        for first in range(0, args.count, CHUNK):
            chunk = ["--first", str(first), "--count", str(min(CHUNK, args.count - first)), "--glyphs", str(glyphs)]
            with subprocess.Popen(command + chunk, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  text=True) as blender:
                assert blender.stdout is not None
                try:
                    for line in blender.stdout:
                        tail.append(line)
                        if line.startswith("photo-dice ") and int(line.split()[1].split("/")[0]) % 100 in (0, 1):
                            print(line.rstrip(), flush=True)
                except KeyboardInterrupt:  # stopped early (Ctrl-C, or a SIGTERM): what was made is kept, and said
                    blender.terminate()
            if blender.returncode != 0:
                break
    made = summary(args.out)
    with open(args.out / "README", "a", encoding="utf-8") as readme:
        readme.write(made + "\n")
    print(made)
    if blender.returncode not in (0, -signal.SIGTERM):
        print("".join(tail), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
