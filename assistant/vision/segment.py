"""Find the dice in a frame: where the picture differs from its plain background."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

WORK_SIDE = 640  # frames are read at most this many pixels on their longer side
TILE_SIDE = 200  # a picture this small or smaller, roughly square, is one cropped die
EDGE_LOW, EDGE_HIGH = 60, 150  # Canny thresholds for a die's outline
SOLIDITY = 0.9  # a region filling less of its convex hull than this may be dice that touch
SEED_SHARE = 0.6  # the cores of touching dice: deeper inside than this share of the deepest point
MAX_DIE_SHARE = 0.12  # no die covers more of a frame than this (tiles aside)
L_WEIGHT = 0.5  # lightness counts less than colour: shadows and light falloff change lightness


@dataclass(frozen=True, eq=False)
class Blob:
    """A region of the working image that stands out from the background: maybe a die."""

    box: tuple[int, int, int, int]  # in working-image pixels
    mask: np.ndarray  # uint8 0/255, the size of `box`, holes filled
    contour: np.ndarray  # outer contour in working-image pixels
    area: float


def hull_of(mask: np.ndarray) -> np.ndarray:
    """The convex hull of the nonzero pixels of `mask` (from its outer contours: few points)."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return cv2.convexHull(np.vstack(contours))


def to_lab(image: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(image, cv2.COLOR_BGR2LAB).astype(np.float32)


def colour_distance(lab: np.ndarray, reference: np.ndarray) -> np.ndarray:
    """Per-pixel distance in Lab from `reference` (a colour or an image), lightness weighted down."""
    d = lab - reference
    distance: np.ndarray = np.sqrt(L_WEIGHT * d[..., 0] ** 2 + d[..., 1] ** 2 + d[..., 2] ** 2)
    return distance


def is_tile(shape: tuple[int, ...]) -> bool:
    """A small, roughly square picture: one die cropped close."""
    h, w = shape[:2]
    return max(h, w) <= TILE_SIDE and 0.7 <= w / h <= 1.43


def border_colour(lab: np.ndarray, width: int = 3) -> np.ndarray:
    """The median Lab colour of the picture's left, right and bottom edges (tiles' background)."""
    ring = np.concatenate(
        [lab[-width:].reshape(-1, 3), lab[:, :width].reshape(-1, 3), lab[:, -width:].reshape(-1, 3)]
    )
    colour: np.ndarray = np.median(ring, axis=0)
    return colour


def background(image: np.ndarray) -> np.ndarray:
    """A smooth estimate of the plain background behind the dice, as Lab, the size of `image`.

    A quadratic surface per Lab channel, fitted by least squares to a small copy of the frame,
    refitted without the pixels it fits worst (dice, cables, a laptop), so uneven light is
    followed and objects are not.
    """
    h, w = image.shape[:2]
    sw, sh = 64, max(8, int(round(64 * h / w)))
    small = to_lab(cv2.resize(image, (sw, sh), interpolation=cv2.INTER_AREA)).reshape(-1, 3)
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
    x, y = (xx.ravel() / sw - 0.5), (yy.ravel() / sh - 0.5)
    design = np.stack([np.ones_like(x), x, y, x * x, x * y, y * y], axis=1).astype(np.float32)
    keep = np.ones(len(x), bool)
    for _ in range(3):
        # OpenCV's normal-equation solve: numpy's lstsq goes through a threaded LAPACK here
        _, coef = cv2.solve(design[keep], small[keep], flags=cv2.DECOMP_NORMAL | cv2.DECOMP_CHOLESKY)
        residual = colour_distance(small, design @ coef)
        keep = residual <= max(2.5 * float(np.median(residual[keep])), 6.0)
        if keep.sum() < design.shape[1] * 4:
            break
    fitted = (design @ coef).reshape(sh, sw, 3).astype(np.float32)
    return cv2.resize(fitted, (w, h), interpolation=cv2.INTER_LINEAR)


def fill_holes(mask: np.ndarray, max_hole: float | None = None) -> np.ndarray:
    """`mask` with its holes filled (pips, numerals, glare), those up to `max_hole` pixels if given.

    A limit keeps a loop of edges round the whole picture (a tray's rim) from filling the tray.
    """
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    filled = mask.copy()
    if hierarchy is None:
        return filled
    for contour, (_, _, _, parent) in zip(contours, hierarchy[0]):
        if parent >= 0 and (max_hole is None or cv2.contourArea(contour) <= max_hole):
            cv2.drawContours(filled, [contour], -1, 255, thickness=cv2.FILLED)
    return filled


def foreground(image: np.ndarray, tile: bool, threshold: float = 16.0) -> np.ndarray:
    """The 0/255 mask (the size of `image`) of pixels that are not background, holes filled.

    Frames are searched at half size (dice stay over ten pixels across there), tiles as they are.
    """
    h, w = image.shape[:2]
    half = not tile and max(h, w) > 400
    small = cv2.resize(image, (w // 2, h // 2), interpolation=cv2.INTER_AREA) if half else image
    lab = to_lab(small)
    bg = border_colour(lab) if tile else background(small)
    diff = colour_distance(lab, bg)
    mask: np.ndarray = (diff > threshold).astype(np.uint8) * 255
    # a die the colour of the table still has an outline: strong edges closed around it count too
    gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    edges = cv2.Canny(gray, EDGE_LOW, EDGE_HIGH)
    mask |= cv2.dilate(edges, np.ones((3, 3), np.uint8))
    k_close, k_open = (3, 5) if half else (5, 7)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k_close, k_close)))
    if not half:
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3)))
    sh, sw = mask.shape[:2]
    mask = fill_holes(mask, None if tile else MAX_DIE_SHARE * sh * sw)
    # edges alone leave thin lines (grain, seams, cables' outlines): an opening removes them
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k_open, k_open)))
    if half:
        mask = cv2.resize(mask, (w, h), interpolation=cv2.INTER_LINEAR)
        mask = (mask > 127).astype(np.uint8) * 255
    return mask


def blobs(mask: np.ndarray, min_area: float, max_area: float) -> list[Blob]:
    """The connected regions of `mask` whose area is plausible for a die.

    Every contour counts, not just the outermost: dice inside a big ring (a tray's rim seen as one
    edge loop) are regions of their own.
    """
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return []
    contours = [c for c, (_, _, _, parent) in zip(contours, hierarchy[0]) if parent < 0]
    found = []
    for contour in contours:
        area = cv2.contourArea(contour)
        if not min_area <= area <= 2 * max_area:
            continue
        hull_area = cv2.contourArea(cv2.convexHull(contour))
        parts = split_touching(contour) if area < SOLIDITY * hull_area else [contour]
        for part in parts:
            part_area = cv2.contourArea(part)
            if not min_area <= part_area <= max_area:
                continue
            x, y, w, h = cv2.boundingRect(part)
            crop = np.zeros((h, w), np.uint8)
            cv2.drawContours(crop, [part - (x, y)], -1, 255, thickness=cv2.FILLED)
            found.append(Blob((x, y, w, h), crop, part, part_area))
    return found


def split_touching(contour: np.ndarray) -> list[np.ndarray]:
    """Dice that touch, as one region with a waist, cut apart (distance transform and watershed)."""
    x, y, w, h = cv2.boundingRect(contour)
    pad = 2
    mask = np.zeros((h + 2 * pad, w + 2 * pad), np.uint8)
    cv2.drawContours(mask, [contour - (x - pad, y - pad)], -1, 255, thickness=cv2.FILLED)
    dist = cv2.distanceTransform(mask, cv2.DIST_L2, 5)
    seeds = (dist > SEED_SHARE * float(dist.max())).astype(np.uint8)
    n, markers = cv2.connectedComponents(seeds)
    if n <= 2:
        return [contour]
    markers = markers.astype(np.int32)
    markers[mask == 0] = n  # the outside is a region of its own
    depth = cv2.normalize(-dist, np.empty_like(dist), 0, 255, cv2.NORM_MINMAX).astype(np.uint8)
    relief = cv2.cvtColor(depth, cv2.COLOR_GRAY2BGR)
    cv2.watershed(relief, markers)
    parts = []
    for label in range(1, n):
        region = ((markers == label) & (mask > 0)).astype(np.uint8) * 255
        found, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        if found:
            parts.append(max(found, key=cv2.contourArea) + (x - pad, y - pad))
    return parts or [contour]


def content_window(image: np.ndarray) -> tuple[int, int, int, int]:
    """(top, bottom, left, right) bounds of the picture without masked bands at its edges.

    A band is a run of edge rows (or columns) all of one and the same colour; bands that would
    leave less than half the picture are not taken for masks (a picture of stripes).
    """
    h, w = image.shape[:2]

    def run(lines: list[np.ndarray]) -> int:
        first = lines[0].reshape(-1, image.shape[2])[0]
        n = 0
        for line in lines:
            if not (line == first).all():
                break
            n += 1
        return n

    top = run([image[i] for i in range(h // 4)]) if h >= 4 else 0
    bottom = h - (run([image[h - 1 - i] for i in range(h // 4)]) if h >= 4 else 0)
    left = run([image[:, j] for j in range(w // 4)]) if w >= 4 else 0
    right = w - (run([image[:, w - 1 - j] for j in range(w // 4)]) if w >= 4 else 0)
    return top, bottom, left, right
