"""Whether a table's profile helps: some of its own labelled photos read held out, with and without it.

    photos -> every HOLD-th photo held out -> a profile learned from the others reads them, as
    `--profile` would -> right / misread / not read, over every labelled die held out
    beside: the reader without a profile (the shipped network) on the same photos

A profile learned from photos of dice it should not learn (dice of many sets, a tray unlike the
table's) can read worse than none; `nova-table dice learn` says so rather than let it be used
unknowingly.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from assistant.vision.errors import ImageError
from assistant.vision.images import load_image
from assistant.vision.manifest import Entry
from assistant.vision.matching import match
from assistant.vision.profile import Profile
from assistant.vision.reader import DiceReader

HOLD = 5  # every this many-th picture is held out
SURE = 0.05  # a difference is sure where chance alone would make one as large this seldom (a sign test)
ENOUGH = 20  # held-out dice under which no sure difference is too few dice to say, not "the same"
RANK = {"misread": 0, "unread": 1, "right": 2}  # a wrong reading is worse than none


@dataclass
class Tally:
    """Labelled dice read right, read wrong (the harm), and not read (missed, or withheld)."""

    right: int = 0
    misread: int = 0
    unread: int = 0

    @property
    def dice(self) -> int:
        return self.right + self.misread + self.unread

    def add(self, other: Tally) -> None:
        self.right += other.right
        self.misread += other.misread
        self.unread += other.unread

    def __str__(self) -> str:
        return f"{self.right} right, {self.misread} misread, {self.unread} not read"


def outcomes(reader: DiceReader, entries: Sequence[Entry]) -> list[str]:
    """How `reader` reads each labelled die of `entries`, in order: "right", "misread" or "unread" (a photo that
    cannot be loaded is left out)."""
    out = []
    for entry in entries:
        try:
            dice = reader.read(load_image(entry.image)).dice
        except ImageError:
            continue
        pairs = match([d.box for d in entry.dice], [d.box for d in dice])
        for i, label in enumerate(entry.dice):
            die = dice[pairs[i]] if i in pairs else None
            if die is None or die.value is None:
                out.append("unread")
            else:
                out.append("right" if (die.kind, die.value) == (label.kind, label.value) else "misread")
    return out


def tallied(read: Sequence[str]) -> Tally:
    """The `outcomes` counted."""
    return Tally(read.count("right"), read.count("misread"), read.count("unread"))


def tally(reader: DiceReader, entries: Sequence[Entry]) -> Tally:
    """How `reader` reads the labelled dice of `entries` (a photo that cannot be loaded is left out)."""
    return tallied(outcomes(reader, entries))


def chance(better: int, worse: int) -> float:
    """How often chance alone parts `better + worse` changed dice as unevenly (a two-sided sign test)."""
    n = better + worse
    tail: float = sum(math.comb(n, k) for k in range(max(better, worse), n + 1)) / 2**n
    return min(1.0, 2 * tail)


@dataclass(frozen=True)
class Comparison:
    """The held-out pictures of a check, read without a profile and with the one learned from the others;
    `better` and `worse`: the dice read better with it (right where they were not, not read where they were
    misread) and worse."""

    held: int
    without: Tally
    with_profile: Tally
    better: int
    worse: int

    @property
    def sure(self) -> bool:
        """Whether the dice read better and worse differ by more than chance (`chance` under SURE)."""
        return chance(self.better, self.worse) < SURE

    @property
    def judged(self) -> str:
        """"helps" or "worse" where it is sure; else "same", or "unsure" on under ENOUGH dice."""
        if self.sure:
            return "helps" if self.better > self.worse else "worse"
        return "same" if self.with_profile.dice >= ENOUGH else "unsure"

    def __str__(self) -> str:
        said = (f"{self.held} of its own pictures held out ({self.with_profile.dice} dice) and read by a profile "
                f"learned from the others: {self.with_profile} with it; {self.without} without; {self.better} read "
                f"better with it, {self.worse} worse")
        judgement = self.judged
        if judgement == "worse":
            return (f"{said}: this profile reads worse than none; do not use it (photograph one set of "
                    "dice, every face, on the table's own tray)")
        if judgement == "helps":
            return f"{said}: the profile helps"
        if judgement == "same":
            return f"{said}: about the same either way"
        return f"{said}: too few dice to say (photograph every face more times to be sure)"


def compared(without: Sequence[str], with_profile: Sequence[str], held: int) -> Comparison:
    """The comparison of the same dice's `outcomes` read without and with a profile."""
    better = sum(RANK[b] > RANK[a] for a, b in zip(without, with_profile))
    worse = sum(RANK[b] < RANK[a] for a, b in zip(without, with_profile))
    return Comparison(held, tallied(without), tallied(with_profile), better, worse)


def compare(entries: Sequence[Entry], learn: Callable[[Sequence[Entry]], Profile]) -> Comparison | None:
    """A profile learned by `learn` from all but every HOLD-th of `entries`, and none, reading those (None where
    there are too few to hold any out)."""
    held = list(entries[HOLD - 1 :: HOLD]) or list(entries[-1:])
    rest = [e for e in entries if e not in held]
    if not rest:
        return None
    profile = learn(rest)
    return compared(outcomes(DiceReader(), held), outcomes(DiceReader(profile=profile), held), len(held))


def check(entries: Sequence[Entry], learn: Callable[[Sequence[Entry]], Profile]) -> str:
    """The verdict on a profile learned by `learn` from all but every HOLD-th of `entries`, reading those
    ("" where there are too few to hold any out)."""
    comparison = compare(entries, learn)
    return "" if comparison is None else str(comparison)
