#!/usr/bin/env python3
"""A labelled set's manifest again, each die's box the one a detector gives it, to train a face reader on.

    .venv/bin/python calibration/detector_boxes.py SET OUT [--model DETECTOR.onnx] [--threshold T]
    .venv/bin/python calibration/train_faces.py --d8 ... --photoreal OUT

The close-up d8 network reads the whole-die box the detector gives, not the label's; a detector trained
otherwise boxes dice a little differently (docs/vision-history.md, fifteenth session). Each labelled
die of SET (a manifest folder, `nova-table dice render` or photoreal.py's) whose box holds the centre
of exactly one detection is written to OUT/manifest.jsonl with that detection's box; the other dice
are left out (the manifest says it is incomplete). Kind, value and symbol are kept; image paths are
written absolute, so the pictures stay where they are.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from assistant.vision.detector import MODEL, DiceDetector  # noqa: E402
from assistant.vision.images import load_image  # noqa: E402
from assistant.vision.manifest import Entry, entry_json, read_manifest  # noqa: E402
from assistant.vision.matching import inside  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("set", type=Path, help="a folder with manifest.jsonl")
    parser.add_argument("out", type=Path)
    parser.add_argument("--model", type=Path, default=MODEL, help="the detector (default: the shipped one)")
    parser.add_argument("--threshold", type=float, help="its threshold (default: the shipped one)")
    args = parser.parse_args()
    detector = DiceDetector(args.model, threshold=args.threshold)
    lines, kept, total = [], 0, 0
    for entry in read_manifest(args.set / "manifest.jsonl"):
        if not isinstance(entry, Entry):
            sys.exit(f"detector_boxes: {entry}")
        image = entry.image.resolve()
        found = detector.detect(load_image(image))
        dice = []
        for die in entry.dice:
            hits = [d for d in found if inside(d.centre, die.box)]
            if len(hits) == 1:
                dice.append({"kind": die.kind, "value": die.value, **({"symbol": die.symbol} if die.symbol else {}),
                             "box": [int(v) for v in hits[0].box]})
        total += len(entry.dice)
        kept += len(dice)
        lines.append(entry_json(str(image), dice, complete=False))
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "manifest.jsonl").write_text("\n".join(lines) + "\n")
    print(f"{args.out / 'manifest.jsonl'}: {kept} of {total} labelled dice, each in one detection's box")
    return 0


if __name__ == "__main__":
    sys.exit(main())
