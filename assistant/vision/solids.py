"""Dice as solids: a cube (d6) or an octahedron (d8) resting on the table, seen by a camera.

The die lies on a face; the camera looks at it from `elevation` degrees above the table (90:
straight down) through a pinhole at `distance` die half-sides. Every face that faces the camera
is drawn with its own picture (`faceart`), warped by the face's exact homography and lit by one
light plus ambient light; the rounded edges between faces are the die's silhouette, filled in a
darker shade of its body. The top face (the one facing up) is the die's value.

    drawn = draw_die(canvas, rng, DieLook(...), centre=(80, 80), size=60, pose=Pose(...))
    drawn.box, drawn.top_box          # whole die, top face only: [x, y, w, h] in canvas pixels
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from assistant.vision import faceart as A
from assistant.vision.dice import FACES

Colour = tuple[float, float, float]


@dataclass(frozen=True)
class DieLook:
    """What a die is and looks like."""

    kind: str  # "d6" or "d8"
    value: int  # its top face
    style: str  # "pips" or "numerals" (d6), "numerals" or "astro" (d8)
    body: Colour
    ink: Colour
    material: str = "plain"
    emblems: tuple[tuple[int, str], ...] = ()  # custom faces: (value, emblem name) pairs


@dataclass(frozen=True)
class Pose:
    """How the camera sees the die (angles in degrees)."""

    elevation: float = 90.0
    azimuth: float = 0.0
    yaw: float = 0.0  # the die turned about the vertical
    roll: float = 0.0  # the picture turned in its own plane
    distance: float = 12.0  # camera distance in die half-sides: small is strong perspective


@dataclass(frozen=True)
class Drawn:
    box: tuple[int, int, int, int]  # the whole die
    top_box: tuple[int, int, int, int]  # its top face
    hull: np.ndarray  # the die's outline, float32 (N, 2)


def _rotation_to_z(n: np.ndarray) -> np.ndarray:
    """The rotation matrix that turns unit vector `n` to +z (Rodrigues)."""
    z = np.array([0.0, 0.0, 1.0])
    v = np.cross(n, z)
    s, c = np.linalg.norm(v), float(np.dot(n, z))
    if s < 1e-9:
        return np.eye(3) if c > 0 else np.diag([1.0, -1.0, -1.0])
    k = np.array([[0, -v[2], v[1]], [v[2], 0, -v[0]], [-v[1], v[0], 0]]) / s
    rotation: np.ndarray = np.eye(3) + s * k + (1 - c) * (k @ k)
    return rotation


def _yaw(deg: float) -> np.ndarray:
    a = np.radians(deg)
    return np.array([[np.cos(a), -np.sin(a), 0], [np.sin(a), np.cos(a), 0], [0, 0, 1.0]])


def solid_faces(kind: str, value: int, yaw: float, rng: np.random.Generator) -> list[tuple[np.ndarray, int]]:
    """The die's faces as (corners (k, 3), value), resting on the table with `value` on top.
    Opposite faces add up to 7 (d6) or 9 (d8)."""
    total = FACES[kind] + 1
    spin = _yaw(yaw)
    faces: list[tuple[np.ndarray, int]] = []
    if kind == "d6":
        rest = [v for v in range(1, 7) if v not in (value, 7 - value)]
        a, b = [v for v in rest if v < 7 - v][:2] if len(rest) == 4 else (rest[0], rest[1])
        if rng.random() < 0.5:
            a, b = b, a
        values = {(0, 0, 1): value, (0, 0, -1): total - value, (1, 0, 0): a, (-1, 0, 0): total - a,
                  (0, 1, 0): b, (0, -1, 0): total - b}
        for n, v in values.items():
            nv = np.array(n, float)
            u = np.array([nv[1], nv[2], nv[0]]) if nv[2] == 0 else np.array([1.0, 0, 0])
            w = np.cross(nv, u)
            corners = np.array([nv - u - w, nv + u - w, nv + u + w, nv - u + w])
            faces.append(((spin @ corners.T).T, v))
    else:
        up = _rotation_to_z(np.ones(3) / np.sqrt(3))
        others = [v for v in range(1, 9) if v not in (value, total - value)]
        lows = [v for v in others if v < total - v]
        rng.shuffle(lows)
        pairs = iter(lows)
        assigned: dict[tuple[int, int, int], int] = {(1, 1, 1): value, (-1, -1, -1): total - value}
        for s in ((1, 1, -1), (1, -1, 1), (-1, 1, 1)):
            low = next(pairs)
            flip = rng.random() < 0.5
            assigned[s] = total - low if flip else low
            assigned[(-s[0], -s[1], -s[2])] = low if flip else total - low
        for s, v in assigned.items():
            corners = np.array([[s[0], 0, 0], [0, s[1], 0], [0, 0, s[2]]], float)
            faces.append(((spin @ (up @ corners.T)).T, v))
    return faces


def _camera(pose: Pose) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    e, a = np.radians(pose.elevation), np.radians(pose.azimuth)
    d = np.array([np.cos(e) * np.cos(a), np.cos(e) * np.sin(a), np.sin(e)])
    cam = d * pose.distance
    forward = -d
    right = np.cross(forward, [0.0, 0.0, 1.0])
    if np.linalg.norm(right) < 1e-6:
        right = np.array([-np.sin(a), np.cos(a), 0.0])
    right /= np.linalg.norm(right)
    up = np.cross(right, forward)
    return cam, forward, right, up


def _project(points: np.ndarray, cam: np.ndarray, forward: np.ndarray, right: np.ndarray, up: np.ndarray,
             roll: float) -> np.ndarray:
    q = points - cam
    z = q @ forward
    xy = np.stack([(q @ right) / z, -(q @ up) / z], axis=1)
    r = np.radians(roll)
    turn = np.array([[np.cos(r), -np.sin(r)], [np.sin(r), np.cos(r)]])
    turned: np.ndarray = xy @ turn.T
    return turned


def _box(points: np.ndarray) -> tuple[int, int, int, int]:
    x0, y0 = np.floor(points.min(axis=0)).astype(int)
    x1, y1 = np.ceil(points.max(axis=0)).astype(int)
    return (int(x0), int(y0), int(x1 - x0), int(y1 - y0))


def face_art(rng: np.random.Generator, look: DieLook, value: int, body: np.ndarray) -> np.ndarray:
    emblem = dict(look.emblems).get(value)
    if look.kind == "d6":
        return A.d6_face(rng, body, look.ink, value, look.style, emblem)
    return A.d8_face(rng, body, look.ink, value, look.style == "astro")


def _face_mask(kind: str, rounding: float) -> np.ndarray:
    mask = np.zeros((A.FACE, A.FACE), np.uint8)
    if kind == "d6":
        r = int(A.FACE * rounding)
        cv2.rectangle(mask, (r, 0), (A.FACE - 1 - r, A.FACE - 1), 255, -1)
        cv2.rectangle(mask, (0, r), (A.FACE - 1, A.FACE - 1 - r), 255, -1)
        for x, y in ((r, r), (A.FACE - 1 - r, r), (r, A.FACE - 1 - r), (A.FACE - 1 - r, A.FACE - 1 - r)):
            cv2.circle(mask, (x, y), r, 255, -1, cv2.LINE_AA)
    else:
        cv2.fillPoly(mask, [A.TRIANGLE.astype(np.int32)], 255, cv2.LINE_AA)
    return mask.astype(np.float32) / 255.0


def _paste(canvas: np.ndarray, art: np.ndarray, alpha: np.ndarray, H: np.ndarray) -> None:
    """Warp `art` through homography `H` (texture -> canvas) and blend it in where `alpha` says."""
    h, w = canvas.shape[:2]
    square = np.array([[[0, 0]], [[A.FACE, 0]], [[A.FACE, A.FACE]], [[0, A.FACE]]], dtype=np.float32)
    corners = cv2.perspectiveTransform(square, H)
    x0, y0 = np.maximum(np.floor(corners.reshape(-1, 2).min(axis=0)).astype(int) - 1, 0)
    x1, y1 = np.minimum(np.ceil(corners.reshape(-1, 2).max(axis=0)).astype(int) + 1, [w, h])
    if x1 <= x0 or y1 <= y0:
        return
    shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], float) @ H
    size = (int(x1 - x0), int(y1 - y0))
    part = cv2.warpPerspective(art, shift, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    a = cv2.warpPerspective(alpha, shift, size, flags=cv2.INTER_LINEAR)[..., None]
    region = canvas[y0:y1, x0:x1]
    region *= 1 - a
    region += a * part


def draw_die(canvas: np.ndarray, rng: np.random.Generator, look: DieLook, centre: tuple[float, float],
             size: float, pose: Pose, light: np.ndarray | None = None, shadow: float = 0.4,
             glare: float = 0.0) -> Drawn:
    """Draw the die onto float32 BGR `canvas`, its outline `size` pixels across at its widest."""
    light = np.array([0.3, -0.4, 1.0]) if light is None else np.asarray(light, float)
    light = light / np.linalg.norm(light)
    ambient = float(rng.uniform(0.45, 0.65))
    faces = solid_faces(look.kind, look.value, pose.yaw, rng)
    cam, forward, right, up = _camera(pose)
    projected = [_project(c, cam, forward, right, up, pose.roll) for c, _ in faces]
    everything = np.vstack(projected)
    lo, hi = everything.min(axis=0), everything.max(axis=0)
    scale = size / max(float((hi - lo).max()), 1e-6)
    offset = np.array(centre) - (lo + hi) / 2 * scale
    projected = [p * scale + offset for p in projected]
    hull = cv2.convexHull(np.vstack(projected).astype(np.float32)).reshape(-1, 2)
    # work in the part of the canvas the die and its shadow cover
    H_, W_ = canvas.shape[:2]
    margin = int(size * 0.4) + 4
    x0, y0 = np.maximum(np.floor(hull.min(axis=0)).astype(int) - margin, 0)
    x1, y1 = np.minimum(np.ceil(hull.max(axis=0)).astype(int) + margin, [W_, H_])
    if x1 <= x0 or y1 <= y0:
        return Drawn(_box(hull), (0, 0, 0, 0), hull)
    full = canvas
    canvas = full[y0:y1, x0:x1]
    origin = np.array([x0, y0], float)
    local = hull - origin
    h, w = canvas.shape[:2]
    # the shadow, cast away from the light, then the die's rounded edges in its body's shade
    if shadow > 0:
        sil: np.ndarray = np.zeros((h, w), np.float32)
        drop = -light[:2] / max(light[2], 0.3) * size * 0.12
        cv2.fillPoly(sil, [np.round((local + drop) * 16).astype(np.int32)], 1.0, cv2.LINE_AA, 4)
        sil = cv2.GaussianBlur(sil, (0, 0), max(0.5, size * 0.06))
        canvas *= 1 - shadow * sil[..., None]
    body = A.material(rng, look.body, A.FACE, look.material)
    edge_shade = ambient + (1 - ambient) * 0.5
    outline = np.zeros((h, w), np.float32)
    cv2.fillPoly(outline, [np.round(local * 16).astype(np.int32)], 1.0, cv2.LINE_AA, 4)
    tint = np.array(look.body, np.float32) * edge_shade * rng.uniform(0.75, 0.95)
    canvas *= 1 - outline[..., None]
    canvas += outline[..., None] * tint
    projected = [p - origin for p in projected]
    shrink = float(rng.uniform(0.86, 0.97))
    rounding = float(rng.uniform(0.04, 0.16))
    mask = _face_mask(look.kind, rounding)
    top_box = (0, 0, 0, 0)
    for (corners, value), points in zip(faces, projected):
        middle = corners.mean(axis=0)
        normal = middle / np.linalg.norm(middle)
        if np.dot(normal, cam - middle) <= 0:
            continue  # faces away from the camera
        shaded = ambient + (1 - ambient) * max(0.0, float(np.dot(normal, light))) * rng.uniform(0.9, 1.1)
        centre2 = points.mean(axis=0)
        inner = centre2 + (points - centre2) * shrink
        if look.kind == "d6":
            src = np.array([[0, 0], [A.FACE, 0], [A.FACE, A.FACE], [0, A.FACE]], dtype=np.float32)
            dst = inner
        else:
            src = np.vstack([A.TRIANGLE, A.TRIANGLE[1] + A.TRIANGLE[2] - A.TRIANGLE[0]])
            dst = np.vstack([inner, inner[1] + inner[2] - inner[0]])
        # print the face the right way round (not mirrored), turned so any side may be up
        turn = int(rng.integers(len(points)))
        order = list(np.roll(np.arange(len(points)), turn))
        d = dst[: len(points)][order]
        cross = (d[1, 0] - d[0, 0]) * (d[2, 1] - d[0, 1]) - (d[1, 1] - d[0, 1]) * (d[2, 0] - d[0, 0])
        if cross < 0:
            order = [order[0]] + order[1:][::-1]
            d = dst[: len(points)][order]
        if look.kind == "d8":
            d = np.vstack([d, d[1] + d[2] - d[0]])
        H = cv2.getPerspectiveTransform(np.asarray(src, dtype=np.float32), np.asarray(d, dtype=np.float32))
        art = face_art(rng, look, value, body) * shaded
        is_top = value == look.value and normal[2] > 0.9
        if is_top and glare > 0:
            gx, gy = rng.uniform(0.2, 0.8, 2) * A.FACE
            yy, xx = np.mgrid[0:A.FACE, 0:A.FACE]
            spot = np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * (A.FACE * rng.uniform(0.08, 0.25)) ** 2))
            art = art + (glare * 255 * spot)[..., None].astype(np.float32)
        _paste(canvas, np.clip(art, 0, 255).astype(np.float32), mask, H)
        if is_top:
            top_box = _box(points + origin)
    return Drawn(_box(hull), top_box, hull)


def random_look(rng: np.random.Generator, kind: str | None = None, style: str | None = None,
                value: int | None = None, emblems: tuple[tuple[int, str], ...] = ()) -> DieLook:
    """A die of any kind, style, colour and material (or the ones asked for)."""
    if style == "astro":
        kind = "d8"
    elif style == "pips":
        kind = "d6"
    kind = kind or ("d6" if rng.random() < 0.5 else "d8")
    if style is None:
        choices = ("pips", "pips", "numerals") if kind == "d6" else ("numerals", "astro")
        style = str(rng.choice(choices))
    value = value or int(rng.integers(1, FACES[kind] + 1))
    body = A.random_colour(rng)
    ink = A.ink_for(rng, body, float(rng.uniform(45, 110)))
    material = str(rng.choice(A.MATERIALS))
    return DieLook(kind, value, style, body, ink, material, emblems)


def random_pose(rng: np.random.Generator, top_down: float = 0.5) -> Pose:
    """A camera straight above (share `top_down` of the time, turned any way) or at a slant."""
    if rng.random() < top_down:
        return Pose(float(rng.uniform(72, 90)), float(rng.uniform(0, 360)), float(rng.uniform(0, 360)),
                    float(rng.uniform(0, 360)), float(rng.uniform(8, 40)))
    return Pose(float(rng.uniform(30, 72)), float(rng.uniform(0, 360)), float(rng.uniform(0, 360)),
                float(rng.normal(0, 8)), float(rng.uniform(6, 30)))
