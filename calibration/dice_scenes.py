"""Synthetic training scenes for the dice detector: solid dice seen at a slant on varied tables.

Unlike `assistant.vision.render` (dice drawn face-on from above, on plain trays), this draws each
die as a solid: a cube (pips or numerals) or an octahedron (numerals), turned, seen from a camera
at 30 to 90 degrees of elevation, every visible face textured, lit and shaded, with a soft
shadow; on procedural tables (felt, wood, granite, carpet, board-game clutter, seams, cables);
with dice that touch, dice cut by the picture's edge, dice leaning on others, blank cubes and
tokens that are NOT dice, uneven light, focus and motion blur, noise and JPEG loss.

Every label is exact: the top face's centre and box, the whole die's box, and whether the die
leans (its top face tilted by more than LEAN_DEGREES). A training tool only: nothing at run time
imports it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

LEAN_DEGREES = 18.0
TEX = 64  # face texture side, pixels

PIP_CELLS = {
    1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)],
}
FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_COMPLEX)


@dataclass
class Label:
    centre: tuple[float, float]  # the top face's centre, frame pixels
    top: tuple[float, float, float, float]  # the top face's box x, y, w, h (w, h < 0: unknown)
    whole: tuple[float, float, float, float] | None  # the whole die's box, None when unknown
    leaning: bool = False
    kind: str = "d6"
    value: int = 0


@dataclass
class Scene:
    image: np.ndarray
    labels: list[Label] = field(default_factory=list)


# -- colours -------------------------------------------------------------------------------


def random_colour(rng: np.random.Generator) -> np.ndarray:
    """A die body colour, BGR: whites and ivories, reds, blacks, and any hue at all."""
    pick = rng.random()
    if pick < 0.3:
        base = rng.uniform(200, 255) - np.array([rng.uniform(0, 40), rng.uniform(0, 20), 0])  # white, ivory
    elif pick < 0.5:
        base = np.array([rng.uniform(10, 70), rng.uniform(10, 60), rng.uniform(120, 230)])  # reds
    elif pick < 0.6:
        base = np.full(3, rng.uniform(15, 60))  # black, grey
    else:
        hsv = np.array([[[rng.integers(0, 180), rng.integers(60, 256), rng.integers(60, 256)]]], np.uint8)
        base = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0].astype(np.float64)
    return np.clip(base + rng.normal(0, 8, 3), 0, 255)


def ink_for(body: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Marks that stand out from the body: dark on light, light on dark, sometimes coloured."""
    light = body.mean() > 128
    if rng.random() < 0.2:
        hsv = np.array([[[rng.integers(0, 180), rng.integers(120, 256), rng.integers(90 if light else 180, 256)]]], np.uint8)
        ink: np.ndarray = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0].astype(np.float64)
        if abs(ink.mean() - body.mean()) > 50:
            return ink
    plain: np.ndarray = np.full(3, rng.uniform(0, 50)) if light else np.full(3, rng.uniform(200, 255))
    return plain


# -- face textures -------------------------------------------------------------------------


def square_face(value: int, body: np.ndarray, ink: np.ndarray, style: str, rng: np.random.Generator,
                look: dict[str, float]) -> tuple[np.ndarray, np.ndarray]:
    img = np.empty((TEX, TEX, 3), np.uint8)
    img[:] = np.clip(body, 0, 255)
    mask = np.zeros((TEX, TEX), np.uint8)
    r = int(TEX * look["round"])
    m = int(TEX * 0.03)
    cv2.rectangle(mask, (m + r, m), (TEX - 1 - m - r, TEX - 1 - m), 255, -1)
    cv2.rectangle(mask, (m, m + r), (TEX - 1 - m, TEX - 1 - m - r), 255, -1)
    for cx, cy in ((m + r, m + r), (TEX - 1 - m - r, m + r), (m + r, TEX - 1 - m - r), (TEX - 1 - m - r, TEX - 1 - m - r)):
        cv2.circle(mask, (cx, cy), r, 255, -1)
    c = TEX / 2
    if style == "pips":
        step, pr = TEX * look["step"], TEX * look["pip"]
        for i, j in PIP_CELLS[value]:
            centre = (int((c + i * step) * 16), int((c + j * step) * 16))
            cv2.circle(img, centre, int(pr * 16), ink.tolist(), -1, cv2.LINE_AA, 4)
            if look["engraved"]:
                cv2.circle(img, centre, int(pr * 16), (ink * 0.6).tolist(), 1, cv2.LINE_AA, 4)
    elif style == "numerals":
        text = str(value)
        font = FONTS[int(look["font"])]
        scale = cv2.getFontScaleFromHeight(font, int(TEX * 0.5), 3)
        (tw, th), _ = cv2.getTextSize(text, font, scale, 3)
        cv2.putText(img, text, (int(c - tw / 2), int(c + th / 2)), font, scale, ink.tolist(), 3, cv2.LINE_AA)
    return img.astype(np.float32), mask


def triangle_face(value: int, body: np.ndarray, ink: np.ndarray, rng: np.random.Generator,
                  look: dict[str, float]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    img = np.empty((TEX, TEX, 3), np.uint8)
    img[:] = np.clip(body, 0, 255)
    h = TEX * 0.866
    corners = np.array([[TEX / 2, 1], [1, h], [TEX - 1, h]], np.float32)
    mask = np.zeros((TEX, TEX), np.uint8)
    cv2.fillPoly(mask, [corners.astype(np.int32)], 255, cv2.LINE_AA)
    centre = corners.mean(axis=0)
    font = FONTS[int(look["font"])]
    text = str(value)
    scale = 0.9
    (tw, th), _ = cv2.getTextSize(text, font, scale, 2)
    cv2.putText(img, text, (int(centre[0] - tw / 2), int(centre[1] + th / 2)), font, scale, ink.tolist(), 2, cv2.LINE_AA)
    return img.astype(np.float32), mask, corners


# -- solids --------------------------------------------------------------------------------


def rot_x(a: float) -> np.ndarray:
    c, s = np.cos(a), np.sin(a)
    return np.array([[1, 0, 0], [0, c, -s], [0, s, c]])


def rot_z(a: float) -> np.ndarray:
    c, s = np.cos(a), np.sin(a)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])


def rot_axis(axis: np.ndarray, a: float) -> np.ndarray:
    axis = axis / np.linalg.norm(axis)
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    turn: np.ndarray = np.eye(3) + np.sin(a) * k + (1 - np.cos(a)) * k @ k
    return turn


def align(src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    """The rotation taking unit vector `src` to unit vector `dst`."""
    v = np.cross(src, dst)
    c = float(np.dot(src, dst))
    if np.linalg.norm(v) < 1e-9:
        return np.eye(3) if c > 0 else rot_x(np.pi)
    return rot_axis(v, float(np.arccos(np.clip(c, -1, 1))))


def cube_faces(value: int, rng: np.random.Generator) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, int]]:
    """(normal, u axis, v axis, value) per face; `value` on +z, opposite faces sum to 7."""
    rest = [p for p in ((1, 6), (2, 5), (3, 4)) if value not in p]
    a, b = (int(rng.choice(rest[0])), int(rng.choice(rest[1])))
    e = np.eye(3)
    return [
        (e[2], e[0], e[1], value), (-e[2], e[0], -e[1], 7 - value),
        (e[0], e[1], e[2], a), (-e[0], -e[1], e[2], 7 - a),
        (e[1], -e[0], e[2], b), (-e[1], e[0], e[2], 7 - b),
    ]


OCTA_SIGNS = [np.array(s, float) for s in
              ((1, 1, 1), (1, 1, -1), (1, -1, 1), (1, -1, -1), (-1, 1, 1), (-1, 1, -1), (-1, -1, 1), (-1, -1, -1))]


def draw_solid(kind: str, value: int, style: str, size: float, elevation: float, lean: float,
               rng: np.random.Generator, blank: bool = False) -> tuple[np.ndarray, np.ndarray, dict[str, object]]:
    """One die (or a blank cube, `blank`) about `size` pixels across: BGR float, alpha 0..1, and
    its top face's centre and corners relative to the patch."""
    body = random_colour(rng)
    ink = ink_for(body, rng)
    look = {"round": rng.uniform(0.08, 0.25), "step": rng.uniform(0.24, 0.3), "pip": rng.uniform(0.07, 0.11),
            "engraved": float(rng.random() < 0.3), "font": float(rng.integers(len(FONTS)))}
    marble = rng.random() < 0.15
    yaw = rng.uniform(0, 2 * np.pi)
    tilt = rot_axis(np.array([np.cos(yaw + 1), np.sin(yaw + 1), 0.0]), np.radians(lean)) if lean else np.eye(3)
    if kind == "d8":
        rest = align(np.ones(3) / np.sqrt(3), np.array([0, 0, 1.0]))
        scale = size / 2.1
    else:
        rest = np.eye(3)
        scale = size / 2.6
    R = rot_x(np.radians(90 - elevation)) @ tilt @ rot_z(yaw) @ rest
    light = np.array([rng.uniform(-0.6, 0.6), rng.uniform(-0.6, 0.6), 1.0])
    light /= np.linalg.norm(light)
    ambient, diffuse = rng.uniform(0.35, 0.7), rng.uniform(0.3, 0.7)
    pad = 4
    side = int(np.ceil(size * 1.25)) + 2 * pad
    c = side / 2

    def project(p: np.ndarray) -> np.ndarray:
        q = R @ p
        return np.array([c + scale * q[0], c - scale * q[1]])

    world_up = np.array([0.0, 0.0, 1.0])
    faces: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []  # (texture, mask, affine, normal)
    top_info: dict[str, object] = {}
    best_up = -2.0
    if kind == "d8":
        values = [value] + [int(v) for v in rng.permutation([v for v in range(1, 9) if v != value])]
        for sign, shown in zip(OCTA_SIGNS, values):
            verts = [np.array([sign[0], 0, 0]), np.array([0, sign[1], 0]), np.array([0, 0, sign[2]])]
            n = sign / np.sqrt(3)
            nc = R @ n
            if nc[2] <= 0.05:
                continue
            if np.dot(sign, np.ones(3)) < 0:
                verts = [verts[0], verts[2], verts[1]]
            tex, mask, corners = triangle_face(shown, body, ink, rng, look)
            dst = np.array([project(p) for p in verts], np.float32)
            faces.append((tex, mask, cv2.getAffineTransform(corners, dst), nc))
            up = float((tilt @ rot_z(yaw) @ rest @ n) @ world_up)
            if up > best_up:
                best_up = up
                top_info = {"centre": dst.mean(axis=0), "corners": dst, "up": up}
    else:
        for n, u, v, val in cube_faces(value, rng):
            nc = R @ n
            if nc[2] <= 0.05:
                continue
            style_here = "blank" if blank else style
            tex, mask = square_face(val, body, ink, style_here, rng, look)
            corners3 = [n - u - v, n + u - v, n - u + v, n + u + v]
            dst = np.array([project(p) for p in corners3], np.float32)
            m = cv2.getAffineTransform(np.array([[0, 0], [TEX, 0], [0, TEX]], np.float32), dst[:3])
            faces.append((tex, mask, m, nc))
            up = float((tilt @ rot_z(yaw) @ n) @ world_up)
            if up > best_up:
                best_up = up
                top_info = {"centre": project(n), "corners": dst, "up": up}
    # the silhouette in a darker shade of the body shows as the die's edges between its faces
    edge_mask = np.zeros((side, side), np.float32)
    for tex, mask, m, nc in faces:
        full = cv2.warpAffine(np.full((TEX, TEX), 255, np.uint8), m, (side, side), flags=cv2.INTER_LINEAR)
        edge_mask = np.maximum(edge_mask, full.astype(np.float32) / 255.0)
    canvas = np.zeros((side, side, 3), np.float32) + (body * rng.uniform(0.3, 0.6)).astype(np.float32)
    alpha = edge_mask * rng.uniform(0.85, 1.0) if kind == "d6" else edge_mask
    for tex, mask, m, nc in faces:
        n_world = np.linalg.inv(rot_x(np.radians(90 - elevation))) @ nc
        shade = ambient + diffuse * max(0.0, float(n_world @ light))
        t = tex * shade
        if marble:
            noise = cv2.resize(rng.normal(0, 1, (6, 6)).astype(np.float32), (TEX, TEX), interpolation=cv2.INTER_CUBIC)
            t = t * (1 + 0.18 * noise[..., None])
        warped = cv2.warpAffine(t, m, (side, side), flags=cv2.INTER_LINEAR)
        wm = cv2.warpAffine(mask, m, (side, side), flags=cv2.INTER_LINEAR).astype(np.float32) / 255.0
        canvas = canvas * (1 - wm[..., None]) + warped * wm[..., None]
    if rng.random() < 0.35:  # a glint of specular light
        gx, gy = top_info["centre"] + rng.normal(0, size * 0.15, 2)  # type: ignore[operator]
        spot = np.zeros((side, side), np.float32)
        cv2.circle(spot, (int(gx), int(gy)), max(1, int(size * rng.uniform(0.03, 0.12))), 1.0, -1)
        spot = cv2.GaussianBlur(spot, (0, 0), max(0.8, size * 0.03)) * rng.uniform(0.5, 1.0)
        canvas = canvas * (1 - spot[..., None]) + 255 * spot[..., None]
    top_info["leaning"] = np.degrees(np.arccos(np.clip(best_up, -1, 1))) > LEAN_DEGREES
    return np.clip(canvas, 0, 255), np.clip(alpha, 0, 1), top_info


# -- tables --------------------------------------------------------------------------------


def low_noise(rng: np.random.Generator, h: int, w: int, cells: int) -> np.ndarray:
    small = rng.normal(0, 1, (max(2, cells * h // w), max(2, cells))).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


def table(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    """A table or tray: felt, wood, granite, carpet, a plain sheet, or a busy game table."""
    kind = rng.choice(["plain", "felt", "wood", "granite", "carpet", "clutter", "board"],
                      p=[0.2, 0.15, 0.15, 0.12, 0.1, 0.14, 0.14])
    base = random_colour(rng) if rng.random() < 0.6 else rng.uniform(0, 255, 3)
    img: np.ndarray = np.empty((h, w, 3), np.float32)
    img[:] = base
    if kind in ("plain", "felt", "clutter", "board"):
        img += rng.normal(0, rng.uniform(1, 6 if kind != "felt" else 12), (h, w, 1)).astype(np.float32)
    elif kind == "wood":
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        warp = low_noise(rng, h, w, 4) * rng.uniform(5, 30)
        freq = rng.uniform(0.05, 0.4)
        ang = rng.uniform(0, np.pi)
        stripes = np.sin((xx * np.cos(ang) + yy * np.sin(ang)) * freq + warp)
        grain = rng.normal(0, 1, (h, 1)).astype(np.float32) if ang < 0.5 else rng.normal(0, 1, (1, w)).astype(np.float32)
        img *= (1 + 0.12 * stripes + 0.03 * grain)[..., None]
    elif kind == "granite":
        for scale in (1, 2, 4):
            spots: np.ndarray = rng.random((h // scale + 1, w // scale + 1)).astype(np.float32)
            spots = cv2.resize(spots, (w, h), interpolation=cv2.INTER_NEAREST)
            colour = random_colour(rng) if rng.random() < 0.5 else np.full(3, rng.uniform(0, 255))
            sel = spots < rng.uniform(0.05, 0.3)
            img[sel] = colour
        img = cv2.GaussianBlur(img, (0, 0), 0.7)
    elif kind == "carpet":
        img += rng.normal(0, 25, (h, w, 3)).astype(np.float32)
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.5, 1.5))
    if kind in ("clutter", "board"):
        img8 = np.clip(img, 0, 255).astype(np.uint8)
        clutter(img8, rng, hexes=kind == "board")
        img = img8.astype(np.float32)
    if rng.random() < 0.25:  # a seam, the table's edge, or another surface beyond it
        p0 = (int(rng.uniform(0, w)), 0)
        p1 = (int(rng.uniform(0, w)), h)
        if rng.random() < 0.5:
            other = np.array(p0 + p1)
            poly = np.array([p0, p1, (w if other[0] < w / 2 else 0, h), (w if other[0] < w / 2 else 0, 0)], np.int32)
            cv2.fillPoly(img, [poly], (random_colour(rng)).tolist())
        cv2.line(img, p0, p1, (base * 0.5).tolist(), int(rng.integers(1, 4)), cv2.LINE_AA)
    return img


def clutter(img: np.ndarray, rng: np.random.Generator, hexes: bool) -> None:
    """Things on a game table that are not dice: tiles, cards, tokens, text, cables, blank cubes."""
    h, w = img.shape[:2]
    if hexes:
        r = rng.uniform(20, 60)
        ox, oy = rng.uniform(0, w), rng.uniform(0, h)
        colours = [random_colour(rng) for _ in range(5)]
        for i in range(-6, 7):
            for j in range(-6, 7):
                cx = ox + (i + 0.5 * (j % 2)) * r * 1.75
                cy = oy + j * r * 1.5
                pts = np.array([(cx + r * np.cos(a), cy + r * np.sin(a)) for a in np.arange(6) * np.pi / 3 + np.pi / 6])
                cv2.fillPoly(img, [pts.astype(np.int32)], colours[int(rng.integers(5))].tolist(), cv2.LINE_AA)
                cv2.polylines(img, [pts.astype(np.int32)], True, (200, 220, 230), 2, cv2.LINE_AA)
                if rng.random() < 0.5:  # a number token
                    cv2.circle(img, (int(cx), int(cy)), int(r * 0.3), (190, 225, 240), -1, cv2.LINE_AA)
                    cv2.putText(img, str(int(rng.integers(2, 13))), (int(cx - r * 0.2), int(cy + r * 0.12)),
                                cv2.FONT_HERSHEY_SIMPLEX, r / 60, (20, 20, 20), 1, cv2.LINE_AA)
    for _ in range(int(rng.integers(2, 12))):
        colour = (random_colour(rng) if rng.random() < 0.7 else rng.uniform(0, 255, 3)).tolist()
        what = rng.random()
        x, y = int(rng.uniform(0, w)), int(rng.uniform(0, h))
        s = int(rng.uniform(6, 120))
        if what < 0.25:
            box = cv2.boxPoints(((x, y), (s, s * rng.uniform(0.5, 2)), rng.uniform(0, 180)))
            cv2.fillPoly(img, [box.astype(np.int32)], colour, cv2.LINE_AA)
        elif what < 0.45:
            cv2.circle(img, (x, y), max(3, s // 4), colour, -1, cv2.LINE_AA)
        elif what < 0.6:
            pts = np.cumsum(rng.normal(0, 30, (8, 2)), axis=0) + (x, y)
            cv2.polylines(img, [pts.astype(np.int32)], False, colour, int(rng.integers(2, 8)), cv2.LINE_AA)
        elif what < 0.75:
            cv2.putText(img, "".join(rng.choice(list("ABCDEFGHKMNRSTXZ0123456789"), int(rng.integers(2, 8)))),
                        (x, y), FONTS[int(rng.integers(4))], rng.uniform(0.4, 2.0), colour, int(rng.integers(1, 4)))
        else:
            pts = rng.uniform(-s, s, (int(rng.integers(3, 7)), 2)) + (x, y)
            cv2.fillPoly(img, [cv2.convexHull(pts.astype(np.int32))], colour, cv2.LINE_AA)


# -- scenes --------------------------------------------------------------------------------


def paste(img: np.ndarray, patch: np.ndarray, alpha: np.ndarray, x0: int, y0: int) -> None:
    h, w = img.shape[:2]
    ph, pw = alpha.shape
    ax0, ay0 = max(0, -x0), max(0, -y0)
    bx0, by0 = max(0, x0), max(0, y0)
    bx1, by1 = min(w, x0 + pw), min(h, y0 + ph)
    if bx1 <= bx0 or by1 <= by0:
        return
    a = alpha[ay0 : ay0 + by1 - by0, ax0 : ax0 + bx1 - bx0, None]
    p = patch[ay0 : ay0 + by1 - by0, ax0 : ax0 + bx1 - bx0]
    img[by0:by1, bx0:bx1] = img[by0:by1, bx0:bx1] * (1 - a) + p * a


def scene(rng: np.random.Generator, w: int = 640, h: int = 480, background: np.ndarray | None = None,
          known: list[Label] | None = None, crowd: bool = False) -> Scene:
    """A picture of 0 to 14 dice on a table, and their labels. `background` (a real frame) and
    its `known` labels may stand in for the table. `crowd`: 16 to 40 smaller dice, most of them
    touching others (a heap poured out of a dice bag)."""
    if background is not None:
        img = background.astype(np.float32).copy()
        h, w = img.shape[:2]
    else:
        img = table(rng, w, h)
    labels: list[Label] = list(known or [])
    elevation = float(rng.choice([rng.uniform(30, 60), rng.uniform(55, 90)]))
    base = float(np.exp(rng.uniform(np.log(12), np.log(45 if crowd else 110))))
    perspective = rng.uniform(0, 0.8) if elevation < 70 else 0.0
    if crowd:
        count, touching = int(rng.integers(16, 41)), 0.6
        heap = np.array([rng.uniform(0.25, 0.75) * w, rng.uniform(0.25, 0.75) * h])
    else:
        count, touching = int(rng.choice([0, 1, 2, 3, 4, 6, 8, 10, 14],
                                         p=[0.04, 0.14, 0.16, 0.14, 0.14, 0.12, 0.1, 0.08, 0.08])), 0.35
    placed: list[tuple[float, float, float]] = [(lb.centre[0], lb.centre[1], max(lb.top[2], 8)) for lb in labels]
    items = []
    for k in range(count + int(rng.integers(0, 3))):
        decoy = k >= count
        for _attempt in range(30):
            if placed and rng.random() < touching and not decoy:  # touching a die already placed
                px, py, ps = placed[int(rng.integers(len(placed)))]
                a = rng.uniform(0, 2 * np.pi)
                d = ps * rng.uniform(0.85, 1.15)
                x, y = px + d * np.cos(a), py + d * np.sin(a)
            elif crowd and not decoy:  # the heap: around its middle
                x, y = heap + rng.normal(0, base * 2.5, 2)
            else:
                x, y = rng.uniform(-0.02 * w, 1.02 * w), rng.uniform(-0.02 * h, 1.02 * h)
            size = base * (1 + perspective * (y / h - 0.5)) * rng.uniform(0.85, 1.15)
            if all(np.hypot(x - px, y - py) > 0.8 * (size + ps) / 2 for px, py, ps in placed):
                break
        else:
            continue
        placed.append((x, y, size))
        items.append((y, x, size, decoy))
    items.sort()  # far dice first: nearer ones may hide a part of them
    for y, x, size, decoy in items:
        kind = "d8" if rng.random() < 0.25 else "d6"
        style = "pips" if kind == "d6" and rng.random() < 0.8 else "numerals"
        value = int(rng.integers(1, 9 if kind == "d8" else 7))
        lean = float(rng.uniform(20, 45)) if rng.random() < 0.06 else float(rng.uniform(0, 6))
        el = float(np.clip(elevation + rng.normal(0, 4), 25, 90))
        if decoy and rng.random() < 0.5:  # a blank cube or a disc: not dice
            patch, alpha, info = draw_solid("d6", 1, "pips", size, el, lean, rng, blank=True)
        elif decoy:
            side = int(size * 1.3) + 4
            patch = np.zeros((side, side, 3), np.float32) + random_colour(rng)
            alpha = np.zeros((side, side), np.float32)
            cv2.ellipse(alpha, (side // 2, side // 2), (int(size / 2), int(size / 2 * el / 90)), 0, 0, 360, 1.0, -1,
                        cv2.LINE_AA)
            info = {}
        else:
            patch, alpha, info = draw_solid(kind, value, style, size, el, lean, rng)
        ph, pw = alpha.shape
        x0, y0 = int(round(x - pw / 2)), int(round(y - ph / 2))
        # the shadow: the die's silhouette, blurred, pushed away from the light
        shadow = cv2.GaussianBlur(alpha, (0, 0), max(1.0, size * rng.uniform(0.05, 0.15)))
        dx, dy = rng.normal(0, size * 0.12, 2)
        paste(img, np.zeros((ph, pw, 3), np.float32), shadow * rng.uniform(0.2, 0.55), x0 + int(dx), y0 + int(dy))
        paste(img, patch, alpha, x0, y0)
        if decoy:
            continue
        ys, xs = np.nonzero(alpha > 0.5)
        if len(xs) == 0:
            continue
        corners = info["corners"] + (x0, y0)  # type: ignore[operator]
        cx, cy = info["centre"] + np.array([x0, y0])
        tx0, ty0 = corners.min(axis=0)
        tx1, ty1 = corners.max(axis=0)
        whole = (float(xs.min() + x0), float(ys.min() + y0), float(xs.max() - xs.min() + 1), float(ys.max() - ys.min() + 1))
        labels.append(Label((float(cx), float(cy)), (float(tx0), float(ty0), float(tx1 - tx0), float(ty1 - ty0)),
                            whole, bool(info["leaning"]), kind, value))
    # a die covered by a nearer one, or mostly out of the picture, is not asked for
    labels = [lb for lb in labels if 0 <= lb.centre[0] < w and 0 <= lb.centre[1] < h]
    img = camera(img, rng)
    return Scene(img, labels)


def camera(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Uneven light, white balance, focus or motion blur, sensor noise, JPEG loss."""
    h, w = img.shape[:2]
    light = 1 + low_noise(rng, h, w, 3) * rng.uniform(0, 0.15)
    img = img * light[..., None] * rng.uniform(0.85, 1.15, 3).astype(np.float32) * rng.uniform(0.6, 1.3)
    r = rng.random()
    if r < 0.3:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.4, 1.6))
    elif r < 0.45:
        k = int(rng.integers(3, 10))
        kernel = np.zeros((k, k), np.float32)
        a = rng.uniform(0, np.pi)
        c = (k - 1) / 2
        cv2.line(kernel, (int(c - np.cos(a) * c), int(c - np.sin(a) * c)), (int(c + np.cos(a) * c), int(c + np.sin(a) * c)), 1.0)
        img = cv2.filter2D(img, -1, kernel / max(kernel.sum(), 1e-6))
    img = img + rng.normal(0, rng.uniform(0, 7), img.shape).astype(np.float32)
    out: np.ndarray = np.clip(img, 0, 255).astype(np.uint8)
    if rng.random() < 0.6:
        ok, data = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(35, 95))])
        decoded = cv2.imdecode(data, cv2.IMREAD_COLOR)
        if decoded is not None:  # the JPEG just encoded
            out = decoded
    return out
