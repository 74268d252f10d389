"""Read and write labelled-photo manifests (one JSON object a line, see docs/vision.md)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from assistant.vision.dice import FACES, Box
from assistant.vision.errors import ManifestError

BOX_STYLES = ("top_face", "whole_die", "tile")


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


def _die(raw: Any) -> LabelledDie:
    if not isinstance(raw, dict):
        raise ManifestError(f"a die must be an object, got {raw!r}")
    kind = raw.get("kind")
    if kind not in FACES:
        raise ManifestError(f"die kind must be one of {sorted(FACES)}, got {kind!r}")
    value = raw.get("value")
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= FACES[kind]:
        raise ManifestError(f"a {kind} value must be an integer 1..{FACES[kind]}, got {value!r}")
    box = raw.get("box")
    if (
        not isinstance(box, list)
        or len(box) != 4
        or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in box)
        or box[2] <= 0
        or box[3] <= 0
    ):
        raise ManifestError(f"box must be [x, y, w, h] with w, h > 0, got {box!r}")
    symbol = raw.get("symbol")
    if symbol is not None and not isinstance(symbol, str):
        raise ManifestError(f"symbol must be a string, got {symbol!r}")
    x, y, w, h = (int(round(v)) for v in box)
    return LabelledDie(kind, value, (x, y, w, h), symbol)


def parse_line(text: str, folder: Path, line: int) -> Entry:
    """One manifest line as an `Entry`; raises `ManifestError` saying what is wrong."""
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as bad:
        raise ManifestError(f"not JSON ({bad.msg} at column {bad.colno})") from None
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
    return Entry(folder / image, tuple(_die(d) for d in dice), complete, style, line)


def read_manifest(path: Path) -> Iterator[Entry | ManifestError]:
    """Every line of the manifest at `path`: an `Entry`, or a `ManifestError` naming the line."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as bad:
        raise ManifestError(f"{path}: cannot read the manifest ({bad})") from None
    folder = path.parent
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            yield parse_line(line, folder, number)
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
