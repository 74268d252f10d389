"""Keep the settled views `watch` reads, as a draft of labelled photos for `nova-table dice learn`.

    FOLDER/images/roll-0001.png   the view read (the tray's top view with --tray), untouched
    FOLDER/seen/roll-0001.png     the same with each die's box and reading drawn on it (and "left out"
                                  on a die `dice calibrate` did not label)
    FOLDER/manifest.jsonl         a line per view: the dice as read, boxes in the view's pixels

The manifest is the reader's guess, to be checked against `seen/` and corrected by hand: a wrong
value changed, `null` (a die not read) filled in, a die missed added, a box on no die removed.
`dice learn` names any line still wrong. A folder kept before is added to, never overwritten.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from assistant.files import MANIFEST, read_file, write_file
from assistant.vision.dice import Box, Die
from assistant.vision.errors import SourceError, why_not_written
from assistant.vision.images import encoded
from assistant.vision.manifest import entry_json

READ = (60, 200, 60)  # BGR: a die read
UNREAD = (40, 40, 230)  # a die seen but not read
LEFT_OUT = (0, 170, 255)  # a die seen and not labelled (orange)


def drawn(image: np.ndarray, dice: Sequence[Die], left_out: Sequence[Box] = ()) -> np.ndarray:
    """A copy of `image` with each die's box and its reading ("d6 4", "d8 ?") drawn on it, and "left out"
    on the boxes of `left_out`."""
    out = image.copy()
    scale = max(0.4, max(image.shape[:2]) / 1200)
    marks = [(die.box, f"{die.kind} {die.value if die.value is not None else '?'}",
              READ if die.value is not None else UNREAD) for die in dice]
    for (x, y, w, h), text, colour in marks + [(box, "left out", LEFT_OUT) for box in left_out]:
        cv2.rectangle(out, (x, y), (x + w, y + h), colour, max(1, round(2 * scale)))
        cv2.putText(out, text, (x, max(12, y - 4)), cv2.FONT_HERSHEY_SIMPLEX, scale, colour,
                    max(1, round(2 * scale)), cv2.LINE_AA)
    return out


def die_line(die: Die) -> dict[str, object]:
    """A die as a manifest line holds it: its JSON without what a label has no place for
    (`value` None where it was not read: to be filled in)."""
    return {key: v for key, v in die.to_json().items() if key not in ("confidence", "why")}


class Snapshots:
    """A folder the settled views go to (see the module's docstring)."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        try:
            for part in ("images", "seen"):
                (self.folder / part).mkdir(parents=True, exist_ok=True)
        except OSError as bad:
            why = why_not_written(self.folder / part, bad)
            raise SourceError(f"{self.folder}: cannot keep the views there ({why})") from None
        self.manifest = self.folder / "manifest.jsonl"
        taken = [int(m.group(1)) for p in (self.folder / "images").iterdir()
                 if (m := re.fullmatch(r"roll-(\d+)\.png", p.name))]
        self.number = max(taken, default=0)

    def keep(self, image: np.ndarray, dice: Sequence[Die], left_out: Sequence[Box] = ()) -> str:
        """Save one view and its reading; return the picture's path in the manifest. `left_out`: the boxes
        of dice in the view that `dice` does not hold (the manifest's line is then not complete)."""
        self.number += 1
        name = f"roll-{self.number:04d}.png"
        for path, picture in ((self.folder / "images" / name, image),
                              (self.folder / "seen" / name, drawn(image, dice, left_out))):
            try:
                write_file(path, encoded(picture, path), "the view")
            except OSError as bad:
                raise SourceError(f"{path}: cannot write the view ({bad.strerror or bad})") from None
        line = entry_json(f"images/{name}", [die_line(d) for d in dice], not left_out) + "\n"
        try:  # the manifest with the line added, written whole in its place
            before = read_file(self.manifest, MANIFEST) if self.manifest.exists() else b""
            write_file(self.manifest, before + (b"" if before.endswith(b"\n") or not before else b"\n")
                       + line.encode("utf-8"), "the manifest")
        except OSError as bad:
            raise SourceError(f"{self.manifest}: cannot add the view's line ({bad.strerror or bad})") from None
        return f"images/{name}"
