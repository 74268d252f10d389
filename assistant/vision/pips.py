"""Find the pips on a die: round marks of one size (OpenCV's SimpleBlobDetector), in a d6 layout."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

PAD = 2  # blank pixels around a die's contrast map, so pips at its edge still close
MIN_INERTIA = 0.5  # pips seen on a side face are squashed thinner than this: the top face's are not


@dataclass(frozen=True)
class Pip:
    centre: tuple[float, float]  # in the die crop's pixels
    size: float  # diameter in pixels
    roundness: float = 1.0  # minor / major axis: 1 seen square-on, less on a slant


def detector(die_area: float, min_inertia: float = MIN_INERTIA) -> cv2.SimpleBlobDetector:
    """A blob detector for bright round marks on a contrast map, sized for a die of `die_area` px."""
    p = cv2.SimpleBlobDetector.Params()
    p.filterByColor = True
    p.blobColor = 255
    p.minThreshold = 30
    p.maxThreshold = 150
    p.thresholdStep = 15
    p.minRepeatability = 2
    p.filterByArea = True
    p.minArea = max(3.0, 0.002 * die_area)
    p.maxArea = max(p.minArea + 1.0, 0.12 * die_area)
    p.filterByCircularity = True
    p.minCircularity = 0.6
    p.filterByInertia = True
    p.minInertiaRatio = min_inertia
    p.filterByConvexity = True
    p.minConvexity = 0.8
    p.minDistBetweenBlobs = 2
    return cv2.SimpleBlobDetector.create(p)


def find_pips(contrast: np.ndarray, die_area: float, cut: np.ndarray | None = None) -> list[Pip]:
    """The pips of one size on `contrast` (uint8, bright = unlike the die's colour).

    `cut` (same size, nonzero) marks where the die is cut off by the picture's edge: a pip there
    may show only in part, so a smaller one is accepted.
    """
    padded = cv2.copyMakeBorder(contrast, PAD, PAD, PAD, PAD, cv2.BORDER_CONSTANT, value=0)
    found = [
        Pip((k.pt[0] - PAD, k.pt[1] - PAD), float(k.size)) for k in detector(die_area).detect(padded)
    ]
    if cut is not None and cut.any():
        # a pip cut by the picture's edge is a part-disc, thinner than a whole one
        for k in detector(die_area, 0.2).detect(padded):
            pip = Pip((k.pt[0] - PAD, k.pt[1] - PAD), float(k.size))
            if _near(cut, pip.centre, pip.size) and all(
                np.hypot(pip.centre[0] - p.centre[0], pip.centre[1] - p.centre[1]) > 0.5 * p.size for p in found
            ):
                found.append(pip)
    if not found:
        return []
    found = [Pip(p.centre, p.size, _roundness(padded, p)) for p in found]
    sizes = sorted((p.size for p in found), reverse=True)
    ref = float(np.median([s for s in sizes[:6] if s >= 0.6 * sizes[0]]))
    kept = []
    for pip in found:
        if 0.6 * ref <= pip.size <= 1.5 * ref:
            kept.append(pip)
        elif cut is not None and 0.3 * ref <= pip.size < 0.6 * ref and _near(cut, pip.centre, 0.7 * ref):
            kept.append(pip)
    return kept


def _roundness(padded: np.ndarray, pip: Pip) -> float:
    """Minor over major axis of the mark around `pip` (its moments, in the padded contrast map)."""
    r = max(2, int(round(pip.size)))
    x, y = int(round(pip.centre[0])) + PAD, int(round(pip.centre[1])) + PAD
    window = padded[max(0, y - r) : y + r + 1, max(0, x - r) : x + r + 1]
    if window.size == 0 or window.max() == 0:
        return 1.0
    mark = (window > 0.5 * float(window.max())).astype(np.uint8)
    n, labels = cv2.connectedComponents(mark)
    here = labels[min(y, r), min(x, r)] if n > 1 else 0
    if here == 0:
        return 1.0
    m = cv2.moments((labels == here).astype(np.uint8), binaryImage=True)
    if m["m00"] < 3:
        return 1.0
    a, b, c = m["mu20"] / m["m00"], m["mu11"] / m["m00"], m["mu02"] / m["m00"]
    spread = np.sqrt(max((a - c) ** 2 + 4 * b * b, 0.0))
    major, minor = (a + c + spread) / 2.0, (a + c - spread) / 2.0
    return float(np.sqrt(max(minor, 1e-6) / max(major, 1e-6)))


def face_test(pips: list[Pip]) -> Callable[[tuple[float, float]], bool]:
    """Whether a point lies on the face that carries `pips`: within a pip spacing of them
    (the hull of their centres, grown by about a pip's width)."""
    size = float(np.median([p.size for p in pips]))
    reach = max(3.0, 1.3 * size) + (0.5 * size if len(pips) < 3 else 0.0)
    pts = np.array([p.centre for p in pips], np.float32)
    if len(pips) >= 3:
        hull = cv2.convexHull(pts)
        return lambda point: cv2.pointPolygonTest(hull, (float(point[0]), float(point[1])), True) >= -reach
    def near_segment(point: tuple[float, float]) -> bool:
        q = np.array(point, np.float32)
        a, b = pts[0], pts[-1]
        ab = b - a
        t = float(np.clip(np.dot(q - a, ab) / max(float(np.dot(ab, ab)), 1e-6), 0.0, 1.0))
        return float(np.hypot(*(q - (a + t * ab)))) <= reach
    return near_segment


def _near(mask: np.ndarray, point: tuple[float, float], radius: float) -> bool:
    h, w = mask.shape[:2]
    x, y = int(round(point[0])), int(round(point[1]))
    r = int(np.ceil(radius))
    return bool(mask[max(0, y - r) : min(h, y + r + 1), max(0, x - r) : min(w, x + r + 1)].any())


def _line_fit(pts: np.ndarray) -> float:
    """2 or 3 points: on one line, evenly spaced (affine-invariant)."""
    if len(pts) == 2:
        return 1.0
    ends = max(itertools.combinations(range(3), 2), key=lambda ij: np.hypot(*(pts[ij[0]] - pts[ij[1]])))
    a, b = pts[ends[0]], pts[ends[1]]
    mid = pts[3 - ends[0] - ends[1]]
    span = float(np.hypot(*(b - a)))
    return float(np.clip(1.0 - 2.5 * np.hypot(*(mid - (a + b) / 2.0)) / max(span, 1e-6), 0.0, 1.0))


def _parallelogram(corners: np.ndarray) -> tuple[float, np.ndarray, float]:
    """How far 4 points are from a parallelogram (0 = exact), its centre, and its size."""
    best = (np.inf, corners.mean(axis=0), 1.0)
    for i, j, k, m in ((0, 1, 2, 3), (0, 2, 1, 3), (0, 3, 1, 2)):
        # diagonals (i, j) and (k, m) bisect each other in a parallelogram
        c1, c2 = (corners[i] + corners[j]) / 2.0, (corners[k] + corners[m]) / 2.0
        size = min(np.hypot(*(corners[i] - corners[j])), np.hypot(*(corners[k] - corners[m])))
        err = float(np.hypot(*(c1 - c2))) / max(size, 1e-6)
        if err < best[0]:
            best = (err, (c1 + c2) / 2.0, float(size))
    return best


def _squash_excess(corners: np.ndarray, slant: float) -> float:
    """How much more oblong the corner quad is than pips squashed by `slant` allow (0: within)."""
    centre = corners.mean(axis=0)
    order = np.argsort(np.arctan2(corners[:, 1] - centre[1], corners[:, 0] - centre[0]))
    quad = corners[order]
    sides = [float(np.hypot(*(quad[i] - quad[(i + 1) % 4]))) for i in range(4)]
    a, b = (sides[0] + sides[2]) / 2.0, (sides[1] + sides[3]) / 2.0
    ratio = min(a, b) / max(a, b, 1e-6)
    allowed = 0.75 * slant
    return max(0.0, allowed - ratio)


def layout_fit(pips: list[Pip]) -> float:
    """How well the pip centres sit in a d6 layout, 0..1; affine-invariant, so it holds when oblique."""
    n = len(pips)
    if n == 1:
        return 1.0
    if n == 0 or n > 6:
        return 0.0
    pts = np.array([p.centre for p in pips], dtype=np.float64)
    if n in (2, 3):
        return _line_fit(pts)
    best = 0.0
    # the four corner pips of 4, 5 and 6 make a square: seen at a slant it is squashed by no more
    # than the pips themselves are (a 6 with a row hidden is a 2:1 oblong of round pips, not a 4)
    slant = float(np.median([p.roundness for p in pips]))
    for corners in itertools.combinations(range(n), 4):
        err, centre, size = _parallelogram(pts[list(corners)])
        err += _squash_excess(pts[list(corners)], slant)
        rest = [i for i in range(n) if i not in corners]
        if n == 5:
            err += float(np.hypot(*(pts[rest[0]] - centre))) / size
        elif n == 6:
            # the two middle pips: each halfway along a side, on opposite sides of the centre
            mids = (pts[rest[0]] + pts[rest[1]]) / 2.0
            err += float(np.hypot(*(mids - centre))) / size
            quad = pts[list(corners)]
            for r in rest:
                # the nearest midpoint of two corners
                best_mid = min(
                    float(np.hypot(*((quad[a] + quad[b]) / 2.0 - pts[r])))
                    for a, b in itertools.combinations(range(4), 2)
                )
                err += best_mid / size
        best = max(best, 1.0 - 2.5 * err)
    return float(np.clip(best, 0.0, 1.0))


def split_groups(pips: list[Pip], max_parts: int = 3) -> list[list[Pip]]:
    """Pips of dice that touch, parted die by die.

    Every way of cutting one link of the pips' minimum spanning tree is tried; the cut whose two
    sides both fit a d6 layout best wins (a part that fits badly is cut again, up to `max_parts`).
    Pips that already make one good layout are left whole.
    """
    if len(pips) <= 6 and layout_fit(pips) >= 0.8:
        return [pips]
    best: tuple[float, list[list[Pip]]] = (0.0, [pips])
    for a, b in _tree_cuts(pips):
        if max(len(a), len(b)) > 6 * (max_parts - 1):
            continue
        fa = layout_fit(a) if len(a) <= 6 else 0.0
        fb = layout_fit(b) if len(b) <= 6 else 0.0
        score = min(fa, fb) * _same_dice(a, b)
        if score > best[0]:
            best = (score, [a, b])
    if best[0] >= 0.8 or max_parts <= 2 or len(best[1]) < 2:
        return best[1]
    # one side may hold two dice still: part it in turn
    a, b = best[1]
    parts = []
    for side in (a, b):
        parts.extend(split_groups(side, max_parts - 1) if layout_fit(side) < 0.8 or len(side) > 6 else [side])
    return parts


def pip_step(pips: list[Pip]) -> float | None:
    """The spacing of a face's pip grid: its corner pips are two steps apart along each side,
    so the farthest two pips are 2*sqrt(2) steps apart on every face from 2 to 6 (None for 1)."""
    if len(pips) < 2:
        return None
    pts = np.array([p.centre for p in pips], np.float64)
    far = float(np.sqrt(((pts[:, None, :] - pts[None, :, :]) ** 2).sum(axis=2)).max())
    step: float = far / (2.0 * np.sqrt(2.0))
    return step


def _same_dice(a: list[Pip], b: list[Pip]) -> float:
    """1 when two parts could be faces of dice of one set (the same pip grid for their pip size),
    0 when not: that rules out cutting one die's pips in two."""
    size = float(np.median([p.size for p in a + b]))
    steps = [s for s in (pip_step(a), pip_step(b)) if s is not None]
    if any(not 1.0 * size <= s <= 4.0 * size for s in steps):
        return 0.0
    if len(steps) == 2 and min(steps) < 0.75 * max(steps):
        return 0.0
    return 1.0


def _tree_cuts(pips: list[Pip]) -> list[tuple[list[Pip], list[Pip]]]:
    """Both sides of each link of the pips' minimum spanning tree (Prim's)."""
    n = len(pips)
    if n < 2:
        return []
    pts = np.array([p.centre for p in pips], np.float64)
    dist = np.sqrt(((pts[:, None, :] - pts[None, :, :]) ** 2).sum(axis=2))
    best = dist[0].copy()
    parent = np.zeros(n, int)
    done = np.zeros(n, bool)
    done[0] = True
    edges: list[tuple[int, int]] = []
    for _ in range(n - 1):
        j = int(np.argmin(np.where(done, np.inf, best)))
        edges.append((int(parent[j]), j))
        done[j] = True
        closer = dist[j] < best
        parent[closer] = j
        best = np.minimum(best, dist[j])
    cuts = []
    for cut in edges:
        links: dict[int, list[int]] = {i: [] for i in range(n)}
        for a, b in edges:
            if (a, b) != cut:
                links[a].append(b)
                links[b].append(a)
        side, todo = {cut[0]}, [cut[0]]
        while todo:
            for k in links[todo.pop()]:
                if k not in side:
                    side.add(k)
                    todo.append(k)
        cuts.append(([pips[i] for i in sorted(side)], [pips[i] for i in range(n) if i not in side]))
    return cuts


def hidden_pip(pips: list[Pip], cut: np.ndarray, marks: list[tuple[float, float]] = ()) -> Pip | None:  # type: ignore[assignment]
    """The one pip that, added where the picture's edge (`cut`, nonzero) hides it or where a
    mark too broken to pass for round lies (`marks`: a pip cut by the die's outline), turns
    `pips` into a d6 layout that fits well; None when no such place exists.

    Candidates are the fourth corner of any three pips and the midpoint of any two (the places
    a d6 layout can lack a pip); a candidate counts only where such evidence is.
    """
    size = float(np.median([p.size for p in pips]))
    pts = [np.array(p.centre, np.float64) for p in pips]
    candidates = [a + b - c for a, b, c in itertools.permutations(pts, 3)]
    candidates += [(a + b) / 2.0 for a, b in itertools.combinations(pts, 2)]
    h, w = cut.shape[:2]
    ys, xs = np.nonzero(cut)
    best: tuple[float, Pip | None] = (0.0, None)
    for c in candidates:
        if min(float(np.hypot(c[0] - p[0], c[1] - p[1])) for p in pts) < size:
            continue  # on top of a pip already seen
        inside = 0 <= c[0] < w and 0 <= c[1] < h
        near_cut = xs.size > 0 and float(np.min(np.hypot(xs - c[0], ys - c[1]))) <= (0.8 if inside else 1.6) * size
        near_mark = any(float(np.hypot(c[0] - m[0], c[1] - m[1])) <= 0.8 * size for m in marks)
        if not (near_cut or near_mark):
            continue
        guess = Pip((float(c[0]), float(c[1])), size, float(np.median([p.roundness for p in pips])))
        fit = layout_fit(pips + [guess])
        if fit > best[0]:
            best = (fit, guess)
    return best[1] if best[0] >= 0.9 else None
