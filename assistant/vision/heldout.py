"""Whether a table's profile helps: some of its own labelled photos read held out, with and without it.

    photos -> every HOLD-th photo held out -> a profile learned from the others reads them, as
    `--profile` would -> right / misread / not read, over every labelled die held out
    beside: the reader without a profile (the shipped network) on the same photos

A profile learned from photos of dice it should not learn (dice of many sets, a tray unlike the
table's) can read worse than none; `nova-table dice learn` says so rather than let it be used
unknowingly.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from assistant.vision.errors import ImageError
from assistant.vision.images import load_image
from assistant.vision.manifest import Entry
from assistant.vision.matching import match
from assistant.vision.profile import Profile
from assistant.vision.reader import DiceReader

HOLD = 5  # every this many-th picture is held out
NOISE = 0.01  # a share of the dice under which two readings are the same


@dataclass
class Tally:
    """Labelled dice read right, read wrong (the harm), and not read (missed, or withheld)."""

    right: int = 0
    misread: int = 0
    unread: int = 0

    def add(self, other: Tally) -> None:
        self.right += other.right
        self.misread += other.misread
        self.unread += other.unread

    def __str__(self) -> str:
        return f"{self.right} right, {self.misread} misread, {self.unread} not read"


def tally(reader: DiceReader, entries: Sequence[Entry]) -> Tally:
    """How `reader` reads the labelled dice of `entries` (a photo that cannot be loaded is left out)."""
    out = Tally()
    for entry in entries:
        try:
            dice = reader.read(load_image(entry.image)).dice
        except ImageError:
            continue
        pairs = match([d.box for d in entry.dice], [d.box for d in dice])
        for i, label in enumerate(entry.dice):
            die = dice[pairs[i]] if i in pairs else None
            if die is None or die.value is None:
                out.unread += 1
            elif (die.kind, die.value) == (label.kind, label.value):
                out.right += 1
            else:
                out.misread += 1
    return out


@dataclass(frozen=True)
class Comparison:
    """The held-out pictures of a check, read without a profile and with the one learned from the others."""

    held: int
    without: Tally
    with_profile: Tally

    @property
    def judged(self) -> str:
        """"worse", "helps" or "same" (`verdict`)."""
        return judged(self.without, self.with_profile)

    def __str__(self) -> str:
        return verdict(self.without, self.with_profile, self.held)


def compare(entries: Sequence[Entry], learn: Callable[[Sequence[Entry]], Profile]) -> Comparison | None:
    """A profile learned by `learn` from all but every HOLD-th of `entries`, and none, reading those (None where
    there are too few to hold any out)."""
    held = list(entries[HOLD - 1 :: HOLD]) or list(entries[-1:])
    rest = [e for e in entries if e not in held]
    if not rest:
        return None
    profile = learn(rest)
    return Comparison(len(held), tally(DiceReader(), held), tally(DiceReader(profile=profile), held))


def check(entries: Sequence[Entry], learn: Callable[[Sequence[Entry]], Profile]) -> str:
    """The verdict on a profile learned by `learn` from all but every HOLD-th of `entries`, reading those
    ("" where there are too few to hold any out)."""
    comparison = compare(entries, learn)
    return "" if comparison is None else str(comparison)


def judged(without: Tally, with_profile: Tally) -> str:
    """"worse", "helps" or "same": a difference of under NOISE of the dice (and under 2 dice) is no difference;
    fewer dice misread is a gain as much as more read right (a wrong reading is worse than none)."""
    margin = max(2, round(NOISE * (without.right + without.misread + without.unread)))
    more_right, fewer_wrong = with_profile.right - without.right, without.misread - with_profile.misread
    if more_right <= -margin or fewer_wrong <= -margin:
        return "worse"
    if more_right >= margin or fewer_wrong >= margin:
        return "helps"
    return "same"


def verdict(without: Tally, with_profile: Tally, held: int) -> str:
    """What the held-out reading says of the profile (`judged`), in a line for the person calibrating."""
    said = (f"{held} of its own pictures held out and read by a profile learned from the others: {with_profile} "
            f"with it; {without} without")
    judgement = judged(without, with_profile)
    if judgement == "worse":
        return (f"{said}: this profile reads worse than none; do not use it (photograph one set of "
                "dice, every face, on the table's own tray)")
    if judgement == "helps":
        return f"{said}: the profile helps"
    return f"{said}: about the same either way"
