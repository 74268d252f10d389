"""The values the reader hands out: one `Die` per die seen, one `Reading` per frame."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

KINDS = ("d6", "d8")
FACES = {"d6": 6, "d8": 8}

# Nova Aetas Renaissance d8: the astro symbol printed beside each numeral.
ASTRO_BY_VALUE = {1: "moon", 2: None, 3: None, 4: "sun", 5: "star", 6: "sun", 7: "star", 8: "sun"}
ASTRO_SYMBOLS = ("sun", "star", "moon")
CUT_NOTE = "cut by the picture's edge"  # the note of a die partly outside the picture
ROW_STEP = 0.6  # reading order: a die this share of a die's height below another, or less, is in its row
VIEWS = 5  # views of each face a calibration asks for: 5 to 10, turned, in different places (docs/vision.md)
WHY = {CUT_NOTE: "is partly out of view"}  # that note, in a player's words


Box = tuple[int, int, int, int]


@dataclass(frozen=True)
class Die:
    """One die: its kind, its value (None when it could not be read), a confidence in 0..1, its box."""

    kind: str
    value: int | None
    confidence: float
    box: Box
    symbol: str | None = None  # the astro symbol read on a Renaissance d8, when any
    note: str = ""  # why a die is unreadable, for logs; not part of the JSON
    guess: int | None = None  # the value the face reader leaned to where it withheld one; not in the JSON

    @property
    def readable(self) -> bool:
        return self.value is not None

    @property
    def centre(self) -> tuple[float, float]:
        x, y, w, h = self.box
        return (x + w / 2.0, y + h / 2.0)

    @property
    def why(self) -> str | None:
        """Why the die was not read, in words the table can act on, where the reader knows (else None)."""
        return WHY.get(self.note) if self.value is None else None

    def to_json(self) -> dict[str, Any]:
        """The die as `nova-table dice read` prints it; "symbol" only on a d8 whose astro symbol was read,
        "why" only on a die not read that is cut by the picture's edge."""
        out: dict[str, Any] = {
            "kind": self.kind,
            "value": self.value,
            "confidence": round(float(self.confidence), 3),
            "box": [int(v) for v in self.box],
        }
        if self.symbol is not None:
            out["symbol"] = self.symbol
        if self.why is not None:
            out["why"] = self.why
        return out


def in_rows(dice: Sequence[Die]) -> tuple[Die, ...]:
    """`dice` in reading order, as a player counts them on the tray: row by row from the top of the
    picture, each row left to right. Taken from the top, a die is in the row of the one above it
    when its centre is less than ROW_STEP of a die's height lower (a row's dice never lie exactly level)."""
    rows: list[list[Die]] = []
    for die in sorted(dice, key=lambda d: d.centre[1]):
        if rows and die.centre[1] - rows[-1][-1].centre[1] < ROW_STEP * max(die.box[3], rows[-1][-1].box[3]):
            rows[-1].append(die)
        else:
            rows.append([die])
    return tuple(die for row in rows for die in sorted(row, key=lambda d: d.centre[0]))


@dataclass(frozen=True)
class Reading:
    """Every die read in one frame, in reading order (`in_rows`: row by row from the top, left to right)."""

    dice: tuple[Die, ...] = field(default_factory=tuple)

    @property
    def values(self) -> tuple[int | None, ...]:
        return tuple(d.value for d in self.dice)

    @property
    def all_readable(self) -> bool:
        return all(d.readable for d in self.dice)
