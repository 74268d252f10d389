"""Read and write labelled-photo manifests (one JSON object a line, see docs/vision.md)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from assistant.files import MANIFEST, Refused, read_file
from assistant.reading import NotJSON, loads
from assistant.vision.dice import FACES, Box
from assistant.vision.errors import ManifestError
from assistant.vision.images import MAX_PIXELS

BOX_STYLES = ("top_face", "whole_die", "tile")
FARTHEST = MAX_PIXELS  # pixels: a box number beyond it lies outside any picture the reader takes


@dataclass(frozen=True)
class LabelledDie:
    kind: str
    value: int
    box: Box
    symbol: str | None = None


@dataclass(frozen=True)
class Entry:
    """One manifest line: an image path (resolved against the manifest's folder) and its dice."""

    image: Path
    dice: tuple[LabelledDie, ...]
    complete: bool
    box_style: str
    line: int
    manifest: Path


def check_in_picture(entry: Entry, shape: tuple[int, ...]) -> None:
    """ManifestError naming the line unless every box of `entry` lies (at least partly) in its picture,
    of `shape`, and is no larger than it."""
    height, width = shape[:2]
    for die in entry.dice:
        x, y, w, h = die.box
        where = "larger than" if w > width or h > height else \
            "outside" if x >= width or y >= height or x + w <= 0 or y + h <= 0 else None
        if where:
            raise ManifestError(f"{entry.manifest}:{entry.line}: box {list(die.box)} is {where} the picture "
                                f"{entry.image} ({width}x{height} pixels)")


def _die(raw: Any) -> LabelledDie:
    if not isinstance(raw, dict):
        raise ManifestError(f"a die must be an object, got {raw!r}")
    kind = raw.get("kind")
    if not isinstance(kind, str) or kind not in FACES:
        raise ManifestError(f"die kind must be one of {sorted(FACES)}, got {kind!r}")
    value = raw.get("value")
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= FACES[kind]:
        raise ManifestError(f"a {kind} value must be an integer 1..{FACES[kind]}, got {value!r}")
    symbol = raw.get("symbol")
    if symbol is not None and not isinstance(symbol, str):
        raise ManifestError(f"symbol must be a string, got {symbol!r}")
    return LabelledDie(kind, value, _box(raw.get("box")), symbol)


def _box(box: Any) -> Box:
    """A die's "box" as whole pixels, or ManifestError saying what is wrong with it."""
    if not isinstance(box, list) or len(box) != 4 or not all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in box):
        raise ManifestError(f"box must be [x, y, w, h], four numbers, got {box!r}")
    if not all(abs(v) <= FARTHEST for v in box):  # false for NaN and infinity too
        raise ManifestError(f"box {box!r} is not in any picture (each number must be finite and within "
                            f"{FARTHEST} pixels)")
    x, y, w, h = (int(round(v)) for v in box)
    if w <= 0 or h <= 0:
        raise ManifestError(f"box must be [x, y, w, h] with w, h of at least 1 pixel, got {box!r}")
    return (x, y, w, h)


def parse_line(text: str, manifest: Path, line: int) -> Entry:
    """Line `line` of `manifest` as an `Entry`; raises `ManifestError` saying what is wrong."""
    try:
        raw = loads(text)
    except NotJSON as bad:
        raise ManifestError(f"not JSON ({bad})") from None
    if not isinstance(raw, dict):
        raise ManifestError("a line must be a JSON object")
    image = raw.get("image")
    if not isinstance(image, str) or not image:
        raise ManifestError("missing \"image\" (a path relative to the manifest)")
    dice = raw.get("dice", [])
    if not isinstance(dice, list):
        raise ManifestError("\"dice\" must be a list")
    style = raw.get("box", "whole_die")
    if style not in BOX_STYLES:
        raise ManifestError(f"\"box\" must be one of {list(BOX_STYLES)}, got {style!r}")
    complete = raw.get("complete", True)
    if not isinstance(complete, bool):
        raise ManifestError("\"complete\" must be true or false")
    return Entry(manifest.parent / image, tuple(_die(d) for d in dice), complete, style, line, manifest)


def read_manifest(path: Path) -> Iterator[Entry | ManifestError]:
    """Every line of the manifest at `path`: an `Entry`, or a `ManifestError` naming the line."""
    try:
        text = read_file(path, MANIFEST).decode("utf-8")
    except Refused as bad:  # a folder, a pipe (waited on for ever), a device (read without end), too large
        raise ManifestError(str(bad)) from None
    except (OSError, UnicodeDecodeError) as bad:
        raise ManifestError(f"{path}: cannot read the manifest ({bad})") from None
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            yield parse_line(line, path, number)
        except ManifestError as bad:
            yield ManifestError(f"{path}:{number}: {bad}")


def entry_json(image: str, dice: list[dict[str, Any]], complete: bool = True, box: str = "whole_die") -> str:
    """One manifest line, as the renderer and tests write them."""
    return json.dumps({"image": image, "dice": dice, "complete": complete, "box": box})


def manifest_folders(root: Path) -> list[Path]:
    """The folders under `root` that hold a manifest.jsonl, in name order (none if `root` is missing)."""
    if not root.is_dir():
        print(f"({root} not found: its photo sets are skipped)")
        return []
    return sorted(p for p in root.iterdir() if (p / "manifest.jsonl").exists())
