#!/usr/bin/env python3
"""Two training folders from each of photoreal.py's folders: its labelled dice by their top faces, and by their whole boxes.

    .venv/bin/python calibration/photoreal_manifests.py --out DIR FOLDER...
    # DIR/<name>t/manifest.jsonl (top faces) and DIR/<name>w/manifest.jsonl (whole dice), for
    # train_faces.py --photoreal DIR/<name>t --photoreal DIR/<name>w

photoreal.py's manifest boxes the top faces of the dice it labels; its labels.jsonl also holds
each die's whole box. The reader reads a detector's whole-die box first and its top face's box on
a second look, so the face networks learn from both. Image paths point back into FOLDER.
A training tool only (docs/vision.md, the second face network).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from calibration.photoreal import manifest_box  # noqa: E402


def whole_boxes(folder: Path, entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """FOLDER's manifest `entries` with each die's box replaced by its whole box from labels.jsonl."""
    labels = {}
    for line in (folder / "labels.jsonl").read_text().splitlines():
        item = json.loads(line)
        labels[item["image"]] = item["dice"]
    out = []
    for entry in entries:
        dice = []
        for die in entry["dice"]:  # the label whose top face is this die's box, as photoreal.finish wrote it
            (whole,) = [d["whole"] for d in labels[entry["image"]] if manifest_box(d["top"]) == die["box"]]
            dice.append({"kind": die["kind"], "value": die["value"], "box": manifest_box(whole)})
        out.append({**entry, "box": "whole_die", "dice": dice})
    return out


def write(folder: Path, entries: list[dict[str, Any]]) -> int:
    """The entries as `folder`/manifest.jsonl; the number of dice."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "manifest.jsonl").write_text("".join(json.dumps(entry) + "\n" for entry in entries))
    return sum(len(e["dice"]) for e in entries)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("folders", type=Path, nargs="+", help="folders written by photoreal.py")
    args = parser.parse_args(argv)
    for folder in args.folders:
        if not (folder / "labels.jsonl").is_file():
            print(f"{folder}: no labels.jsonl (not a folder of photoreal.py)", file=sys.stderr)
            return 2
        tops = [json.loads(line) for line in (folder / "manifest.jsonl").read_text().splitlines()]
        for suffix, entries in (("t", tops), ("w", whole_boxes(folder, tops))):
            target = args.out / f"{folder.name}{suffix}"
            back = Path(os.path.relpath(folder.resolve(), target.resolve()))
            moved = [{**e, "image": str(back / e["image"])} for e in entries]
            print(f"{target}: {write(target, moved)} dice")
    return 0


if __name__ == "__main__":
    sys.exit(main())
