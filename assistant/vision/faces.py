"""The face reader: what one die shows, given where it is in a picture.

    reader = FaceReader(kind="auto", profile=None)
    die = reader.read(image, box)           # box = (x, y, w, h) in `image`'s pixels
    die = reader.read(work_image, view)     # or a DieView found in that same (working) image
    dice = reader.read_many(image, boxes)   # several at once (one batch through the network)

`read` returns a `Die` (kind, value, confidence, box = the box given, symbol on a Nova Aetas d8),
a `Die` with `value=None` when the region is a die that cannot be read with confidence (a wrong
reading is worse than none), or `None` when the region is not a die at all.

`kind` ("auto", "d6" or "d8") is the reader's default; `read(..., kind=...)` overrides it for one
call. A `profile` (see `profile.py`, made by `nova-table dice learn`) teaches it a table's own dice.

How reader.py calls it (DiceReader.read_view):

    faces = FaceReader(kind, profile)                  # once, in DiceReader.__init__
    die = faces.read(work, view)                       # per DieView, `work` = the working image
    # die.box is view.box (working pixels): map it back to the frame as for any die

This first version wraps the classical reader (pips by layout, numerals by template votes); the
learned reader replaces its inside without changing this interface.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Union

import numpy as np

from assistant.vision.dice import Box, Die
from assistant.vision.images import check_frame

if TYPE_CHECKING:
    from assistant.vision.profile import Profile
    from assistant.vision.reader import DieView

KINDS = ("auto", "d6", "d8")
Region = Union[Sequence[float], "DieView"]


def box_of(region: Region) -> Box:
    """The (x, y, w, h) box of a box or a DieView, as ints; ValueError if it is no box."""
    raw = getattr(region, "box", region)
    try:
        x, y, w, h = (int(round(float(v))) for v in raw)  # type: ignore[union-attr]
    except (TypeError, ValueError):
        raise ValueError(f"a region is a DieView or an (x, y, w, h) box, not {region!r}") from None
    if w <= 0 or h <= 0:
        raise ValueError(f"a box needs a positive width and height, not {(x, y, w, h)}")
    return (x, y, w, h)


def check_kind(kind: str) -> str:
    if kind not in KINDS:
        raise ValueError(f"kind must be auto, d6 or d8, not {kind!r}")
    return kind


class FaceReader:
    """Reads one die's face from its region in a picture (see the module's docstring)."""

    def __init__(self, kind: str = "auto", profile: Profile | None = None) -> None:
        self.kind = check_kind(kind)
        self.profile = profile
        self._classical: dict[str, object] = {}

    def read(self, image: np.ndarray, region: Region, kind: str | None = None) -> Die | None:
        return self.read_many(image, [region], kind)[0]

    def read_many(self, image: np.ndarray, regions: Sequence[Region], kind: str | None = None) -> list[Die | None]:
        image = check_frame(image)
        use = check_kind(kind or self.kind)
        return [self._read_classical(image, box_of(r), use) for r in regions]

    def _read_classical(self, image: np.ndarray, box: Box, kind: str) -> Die | None:
        from assistant.vision.reader import DiceReader, die_views

        reader = self._classical.get(kind)
        if reader is None:
            reader = self._classical[kind] = DiceReader(kind, self.profile)
        x, y, w, h = box
        H, W = image.shape[:2]
        x0, y0, x1, y1 = max(0, x), max(0, y), min(W, x + w), min(H, y + h)
        if x1 - x0 < 8 or y1 - y0 < 8:
            return None
        views = die_views(np.ascontiguousarray(image[y0:y1, x0:x1]), True)
        if not views:
            return Die(kind if kind != "auto" else "d6", None, 0.0, box, note="no die found in the box")
        die = reader.read_view(views[0])  # type: ignore[attr-defined]
        if die is None:
            return None
        return Die(die.kind, die.value, die.confidence, box, die.symbol, die.note)
