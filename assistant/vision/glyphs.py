"""Describe the numerals and symbols on a die so that any rotation of one looks the same.

A glyph's pixels are unrolled around their centre with `cv2.warpPolar`; the magnitudes of the
Fourier transform along the angle (`numpy.fft`) do not change when the glyph turns. Profiles
keep labelled descriptors; a glyph is read as its nearest labelled neighbours.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

RINGS = 12  # radial samples of the unrolled glyph
RAYS = 64  # angular samples
HARMONICS = 10  # Fourier magnitudes kept per ring
SIDE = 48  # glyphs are drawn at this size before unrolling
DESCRIBED = RINGS * (2 * HARMONICS - 1) + 4  # numbers in a descriptor (`describe`): the rings, 3 Hu moments, the fill


@dataclass(frozen=True, eq=False)
class Glyph:
    """A group of marks read as one sign: its pixels (crop of the die) and where it sits."""

    mask: np.ndarray  # uint8 0/255, the glyph's bounding box
    box: tuple[int, int, int, int]  # in the die crop's pixels
    area: float

    @property
    def centre(self) -> tuple[float, float]:
        x, y, w, h = self.box
        return (x + w / 2.0, y + h / 2.0)

    @property
    def extent(self) -> float:
        return float(max(self.box[2], self.box[3]))


def group_marks(mask: np.ndarray, die_side: float, min_area: float) -> list[Glyph]:
    """The glyphs of a mark mask: marks closer than a stroke's gap are one glyph (a sun's rays)."""
    gap = int(round(die_side * 0.015)) if die_side > 0 else 0
    joined = cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * gap + 1, 2 * gap + 1))) if gap else mask
    n, labels, stats, _ = cv2.connectedComponentsWithStats(joined, connectivity=8)
    glyphs = []
    for i in range(1, n):
        x, y, w, h, _ = (int(v) for v in stats[i])
        own = np.where(labels[y : y + h, x : x + w] == i, mask[y : y + h, x : x + w], 0).astype(np.uint8)
        area = float(np.count_nonzero(own))
        if area < min_area:
            continue
        ys, xs = np.nonzero(own)
        x0, y0 = int(xs.min()), int(ys.min())
        tight = own[y0 : int(ys.max()) + 1, x0 : int(xs.max()) + 1]
        glyphs.append(Glyph(tight, (x + x0, y + y0, tight.shape[1], tight.shape[0]), area))
    return glyphs


def merge(glyphs: list[Glyph]) -> Glyph:
    """One glyph made of several (their pixels in one mask over their joint box)."""
    x0 = min(g.box[0] for g in glyphs)
    y0 = min(g.box[1] for g in glyphs)
    x1 = max(g.box[0] + g.box[2] for g in glyphs)
    y1 = max(g.box[1] + g.box[3] for g in glyphs)
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    for g in glyphs:
        x, y, w, h = g.box
        mask[y - y0 : y - y0 + h, x - x0 : x - x0 + w] |= g.mask
    return Glyph(mask, (x0, y0, x1 - x0, y1 - y0), float(sum(g.area for g in glyphs)))


def describe(glyph_mask: np.ndarray) -> np.ndarray:
    """A rotation-invariant descriptor (float32, unit length) of a 0/255 glyph mask."""
    h, w = glyph_mask.shape[:2]
    side = max(h, w)
    square = np.zeros((side, side), np.uint8)
    square[(side - h) // 2 : (side - h) // 2 + h, (side - w) // 2 : (side - w) // 2 + w] = glyph_mask
    m = cv2.moments(square, binaryImage=True)
    if m["m00"] <= 0:
        return np.zeros(DESCRIBED, np.float32)
    cx, cy = m["m10"] / m["m00"], m["m01"] / m["m00"]
    scale = SIDE / float(side)
    big8 = cv2.resize(square, (SIDE, SIDE), interpolation=cv2.INTER_AREA)
    big = big8.astype(np.float32) / 255.0
    cx, cy = cx * scale, cy * scale
    ys, xs = np.nonzero(big > 0.3)
    radius = float(np.sqrt(((xs - cx) ** 2 + (ys - cy) ** 2).max())) + 1.0 if xs.size else SIDE / 2.0
    # uint8 in: OpenCV 5's warpPolar leaves garbage outside the source on float32 pictures
    polar = cv2.warpPolar(big8, (RINGS, RAYS), (cx, cy), radius,
                          cv2.WARP_POLAR_LINEAR + cv2.INTER_LINEAR + cv2.WARP_FILL_OUTLIERS)
    rings = np.fft.rfft(polar.astype(np.float64) / 255.0, axis=0)[:HARMONICS].T  # rings x harmonics
    # turning the glyph shifts every ring's phase at harmonic k by the same k*angle: measured against
    # the phase of all rings together, each ring's harmonic is unchanged by the turn, and the rings
    # keep their places relative to each other (plain magnitudes would lose that)
    total = rings.sum(axis=0)
    aligned = rings * np.conj(total) / (np.abs(total) + 1e-6)
    mass = np.abs(rings[:, 0]).sum() + 1e-6
    shape = np.concatenate([aligned[:, 0].real, aligned[:, 1:].real.ravel(), aligned[:, 1:].imag.ravel()]) / mass
    hu = cv2.HuMoments(cv2.moments(big)).ravel()[:3]
    hu = -np.sign(hu) * np.log10(np.abs(hu) + 1e-12) / 10.0
    fill = float((big > 0.3).mean())
    vec = np.concatenate([shape * 4.0, hu, [fill]]).astype(np.float32)
    return vec / (np.linalg.norm(vec) + 1e-9)


UPRIGHT_SIDE = 16  # an upright glyph is compared as this many pixels square
UPRIGHT = UPRIGHT_SIDE * UPRIGHT_SIDE  # numbers in an upright vector (`upright`)
UPRIGHT_NEAR = 0.3  # upright vectors of one sign lie about this far apart (drawn or printed anew)


def upright(glyph_mask: np.ndarray, angle: float) -> np.ndarray:
    """The glyph turned by `angle` degrees about its centre, scaled into a square, as a unit vector.

    Used where the face tells which way is up (a d8's triangle has three ways, a d6's square
    four): each way gives one such vector, and the profile holds examples of all of them.
    """
    h, w = glyph_mask.shape[:2]
    side = int(np.ceil(np.hypot(h, w))) + 2
    canvas = np.zeros((side, side), np.uint8)
    y0, x0 = (side - h) // 2, (side - w) // 2
    canvas[y0 : y0 + h, x0 : x0 + w] = glyph_mask
    turn = cv2.getRotationMatrix2D((side / 2.0, side / 2.0), angle, 1.0)
    turned = cv2.warpAffine(canvas, turn, (side, side), flags=cv2.INTER_LINEAR)
    ys, xs = np.nonzero(turned > 64)
    if xs.size == 0:
        return np.zeros(UPRIGHT, np.float32)
    tight = turned[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    th, tw = tight.shape
    big = max(th, tw)
    square = np.zeros((big, big), np.uint8)
    square[(big - th) // 2 : (big - th) // 2 + th, (big - tw) // 2 : (big - tw) // 2 + tw] = tight
    small = cv2.resize(square, (UPRIGHT_SIDE, UPRIGHT_SIDE), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (3, 3), 0).astype(np.float32).ravel()
    small -= small.mean()
    return small / (np.linalg.norm(small) + 1e-6)


def votes(descriptor: np.ndarray, examples: np.ndarray, labels: list[str], k: int = 7,
          near: float = 0.15) -> tuple[dict[str, float], float]:
    """The share of the `k` nearest examples' vote (distance-weighted) per label, and how close
    (0..1) the nearest example is: a glyph farther than `near` from every example is doubtful
    whatever the vote. Descriptors are unit vectors, so distances come from one dot product."""
    if len(labels) == 0:
        return {}, 0.0
    d = np.sqrt(np.maximum(2.0 - 2.0 * (examples @ descriptor), 0.0))
    count = min(k, len(labels))
    order = np.argpartition(d, count - 1)[:count]
    order = order[np.argsort(d[order])]
    weights: dict[str, float] = {}
    for i in order:
        weights[labels[i]] = weights.get(labels[i], 0.0) + 1.0 / (float(d[i]) + 0.05)
    total = sum(weights.values())
    closeness = float(np.exp(-max(float(d[order[0]]) - near, 0.0) * 4.0))
    return {label: w / total for label, w in weights.items()}, closeness


def nearest(descriptor: np.ndarray, examples: np.ndarray, labels: list[str], k: int = 7) -> tuple[str, float]:
    """The label most of the `k` nearest examples carry, and how sure (0..1) that is."""
    shares, closeness = votes(descriptor, examples, labels, k)
    if not shares:
        return "", 0.0
    best = max(shares, key=lambda key: shares[key])
    return best, shares[best] * closeness
