"""Match read dice to labelled dice by box centre, as the benchmark and `dice learn` do."""

from __future__ import annotations

from collections.abc import Sequence

Box = Sequence[float]


def centre(box: Box) -> tuple[float, float]:
    return (box[0] + box[2] / 2.0, box[1] + box[3] / 2.0)


def inside(point: tuple[float, float], box: Box) -> bool:
    return box[0] <= point[0] <= box[0] + box[2] and box[1] <= point[1] <= box[1] + box[3]


def match(labelled: Sequence[Box], found: Sequence[Box]) -> dict[int, int]:
    """Pairs labelled index -> found index, each used once, closest centres first.

    A pair counts when the centre of either box lies inside the other box (a top-face label
    sits inside a whole-die box; a whole-die label holds the centre of a tighter box).
    """
    pairs = []
    for i, lb in enumerate(labelled):
        lc = centre(lb)
        for j, fb in enumerate(found):
            fc = centre(fb)
            if inside(lc, fb) or inside(fc, lb):
                pairs.append(((lc[0] - fc[0]) ** 2 + (lc[1] - fc[1]) ** 2, i, j))
    pairs.sort()
    result: dict[int, int] = {}
    used: set[int] = set()
    for _, i, j in pairs:
        if i not in result and j not in used:
            result[i] = j
            used.add(j)
    return result
