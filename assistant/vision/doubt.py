"""Doubt: from the face network's scores to what the table is told of each die, or nothing.

A crop the network calls not a die (NOT_A_DIE or surer) is dropped, unless the finder was FOUND_DIE sure
of it: then it is a die not read. Otherwise its value is the likeliest
face of the kinds asked for, given only where that face's share of the die's chances is SURE or more;
else the die is reported with `"value": null`, never a guess. A die cut by the picture's edge (more
than CUT of its box outside) is not read either, nor a tile that looks like no die. A die not read
is reported only where the finder was FOUND_UNREAD sure of it, or found it and the network is SURELY_A_DIE
sure it is a die: a weak find that cannot be read was, on rendered scenes with a hand on the tray, more
often a hand or a shadow than a die. A maybe die (find.MAYBE) is a die only where the network is
SURELY_A_DIE sure of it, and reported only where read (or cut by the edge). A find inside a
die read, PART times smaller, is part of it (a pip taken for a die) and is dropped. A Nova Aetas d8's astro symbol is given where the
symbol head is sure of one and it is the symbol that value carries (dice.ASTRO_BY_VALUE); where it sees
one, each d8 face's chance is weighed by the chance of the symbol that face carries (the two heads as
one: a sun seen makes a 4, 6 or 8 likelier, a 5 less likely); a value whose own symbol the symbol
head all but rules out (under SYMBOL_BACKED) is doubtful, however sure the value head.
"""

from __future__ import annotations

import numpy as np

from assistant.vision.dice import ASTRO_BY_VALUE, CUT_NOTE, Box, Die
from assistant.vision.find import again
from assistant.vision.read import CLASSES, SYMBOLS, Scores

NOT_A_DIE = 0.5  # the network's chance of "none" at which a crop is no die
SURE = 0.8  # a value is given where its share of the die's chances is at least this (chosen on the -valid sets)
SYMBOL_SURE = 0.5  # an astro symbol is given where its chance is at least this
SYMBOL_BACKED = 0.1  # where a symbol is seen, a d8 value whose own symbol has less chance than this is doubtful
CUT = 0.15  # a die with more than this share of its box outside the picture is not read
PART = 1.6  # a find inside a die read, this many times its size, is part of it (a pip)
FOUND_UNREAD = 0.35  # a die not read is reported only where the finder was this sure of it (else: a hand, a shadow)
SURELY_A_DIE = 0.05  # a chance of "none" under this: the network is sure it is a die (a maybe die; an unread one)
FOUND_DIE = 0.5  # a find this sure that the network calls no die is reported unread (the tray: 95.13 -> 98.38 %
# of its dice found, no false die; at 0.4, 0.5 false dice a picture)

KIND_OF = np.array([c.split(":")[0] for c in CLASSES])
VALUE_OF = np.array([int(c.split(":")[1]) if ":" in c else 0 for c in CLASSES])
SYMBOL_OF = np.array([SYMBOLS.index(ASTRO_BY_VALUE.get(int(v), None) or "none") for v in VALUE_OF])  # of a Nova d8


def allowed(kind: str) -> np.ndarray:
    """Which of CLASSES are dice of `kind` ("auto": any)."""
    dice: np.ndarray = KIND_OF != "none"
    return dice & (KIND_OF == kind) if kind != "auto" else dice


def doubtful(scores: Scores, kind: str) -> np.ndarray:
    """Which crops show a die (as the network sees it) whose likeliest face of `kind` is under SURE of its chances."""
    chances = np.where(allowed(kind), scores.classes, 0.0)
    share = chances.max(axis=1) / np.maximum(chances.sum(axis=1), 1e-9)
    return np.flatnonzero((share < SURE) & (scores.classes[:, 0] < NOT_A_DIE))


def cut_share(box: Box, shape: tuple[int, ...]) -> float:
    """The share of `box`'s area outside a picture of `shape`."""
    x, y, w, h = box
    inside_w = max(0, min(x + w, shape[1]) - max(x, 0))
    inside_h = max(0, min(y + h, shape[0]) - max(y, 0))
    return 1.0 - inside_w * inside_h / max(1, w * h)


def judge(scores: Scores, boxes: list[Box], kind: str, shape: tuple[int, ...], found: list[float] | None = None,
          keep: bool = False, maybe: list[bool] | None = None) -> list[Die]:
    """The dice of `boxes` (frame pixels; `found`: how sure the finder was of each; `maybe`: which are maybe
    dice) as the table is told of them, crops that are no die left out (`keep`: reported unread instead, as a
    tile is: the picture is a die)."""
    dice = []
    mask = allowed(kind)
    for p, s, box, sure_found, weak in zip(scores.classes, scores.symbols, boxes, found or [1.0] * len(boxes),
                                           maybe or [False] * len(boxes)):
        if p[0] >= NOT_A_DIE and not keep and (found is None or sure_found < FOUND_DIE):
            continue
        surely = p[0] < SURELY_A_DIE
        if weak and not surely:  # a maybe die the network is not sure of
            continue
        chances = np.where(mask, p, 0.0)
        symbol_index = int(np.argmax(s))
        symbol = SYMBOLS[symbol_index] if symbol_index and s[symbol_index] >= SYMBOL_SURE else None
        if symbol is not None:  # a Nova d8's symbol seen: its face is one that carries it (the two heads as one)
            chances = chances * np.where(KIND_OF == "d8", s[SYMBOL_OF], 1.0)
        best = int(np.argmax(chances))
        share = float(chances[best] / max(chances.sum(), 1e-9))
        die_kind, value = str(KIND_OF[best]), int(VALUE_OF[best])
        torn = symbol is not None and die_kind == "d8" and s[SYMBOL_OF[best]] < SYMBOL_BACKED
        if die_kind != "d8" or ASTRO_BY_VALUE[value] != symbol:
            symbol = None
        if cut_share(box, shape) > CUT:
            dice.append(Die(die_kind, None, share, box, note=CUT_NOTE, guess=value))
        elif share < SURE or p[0] >= NOT_A_DIE or torn:  # (a tile kept, that looks like no die)
            if (sure_found >= FOUND_UNREAD or surely) and not weak or keep:
                dice.append(Die(die_kind, None, share, box, guess=value))
        elif not weak or not again(box, [d.box for d in dice]):  # (maybe dice of two looks: one die)
            dice.append(Die(die_kind, value, share, box, symbol=symbol))
    return [d for d in dice if not any(part_of(d, g) for g in dice)]


def part_of(die: Die, other: Die) -> bool:
    """Whether `die` is part of `other`, a die read: its centre inside it, and it PART times smaller (a pip of it)."""
    x, y, w, h = other.box
    cx, cy = die.centre
    return other.value is not None and max(w, h) >= PART * max(die.box[2:]) and x < cx < x + w and y < cy < y + h
