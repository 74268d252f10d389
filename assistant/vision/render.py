"""Render synthetic dice with exact labels: d6 with pips or numerals, d8 with numerals and astro symbols.

Each die is drawn face-on from above (a d6 shows a rounded square; a d8 resting on a face shows a
hexagon with its top face a triangle in the middle), then turned, placed on a plain background,
and the whole picture is tilted, lit unevenly, blurred and given sensor noise. Labels are exact:
the renderer knows what it drew.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TypedDict

import cv2
import numpy as np

from assistant.files import write_file
from assistant.vision.dice import ASTRO_BY_VALUE, FACES
from assistant.vision.errors import VisionError, why_not_written
from assistant.vision.images import encoded

FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_COMPLEX)
STYLES = ("pips", "numerals", "astro")  # d6 pips, numerals (d6 or d8), Nova Aetas d8 with symbols

# (body, ink) colour pairs, BGR: white/black, red/white, black/white, green/white, blue/white, ivory/red ...
PALETTE = (
    ((235, 235, 235), (20, 20, 20)),
    ((40, 40, 190), (240, 240, 240)),
    ((30, 30, 30), (235, 235, 235)),
    ((60, 140, 40), (245, 245, 245)),
    ((170, 90, 30), (245, 245, 245)),
    ((200, 230, 240), (30, 30, 170)),
    ((40, 170, 230), (20, 20, 20)),
    ((120, 60, 120), (230, 230, 230)),
)
STYLE_OF_KIND = {"auto": None, "d6": "pips", "d8": "astro"}  # the dice a reader of each kind reads, as drawn here
KIND_OF_STYLE = {style: kind for kind, style in STYLE_OF_KIND.items() if style}  # one kind only ("numerals": either)


def draws(style: str | None, kind: str | None) -> bool:
    """Whether dice of `style` can be of `kind` (either being None: any)."""
    return kind is None or KIND_OF_STYLE.get(style or "", kind) == kind
BACKGROUNDS = ((60, 120, 50), (200, 200, 200), (90, 90, 95), (160, 190, 210), (120, 60, 40), (45, 45, 50))


@dataclass(frozen=True)
class Spec:
    """What one rendered die shows."""

    kind: str
    value: int
    style: str
    body: tuple[int, int, int]
    ink: tuple[int, int, int]

    @property
    def symbol(self) -> str | None:
        return ASTRO_BY_VALUE[self.value] if self.style == "astro" else None


def draw_symbol(canvas: np.ndarray, symbol: str, centre: tuple[float, float], r: float, colour: tuple[int, ...]) -> None:
    """Draw a Sun (disc and rays), a Star (five points) or a Moon (crescent) of radius `r`."""
    cx, cy = centre
    s = 16  # fixed-point shift for sub-pixel drawing
    def pt(x: float, y: float) -> tuple[int, int]:
        return (int(round(x * s)), int(round(y * s)))
    if symbol == "sun":
        cv2.circle(canvas, pt(cx, cy), int(r * 0.5 * s), colour, -1, cv2.LINE_AA, 4)
        for k in range(8):
            a = k * np.pi / 4
            cv2.line(canvas, pt(cx + np.cos(a) * r * 0.68, cy + np.sin(a) * r * 0.68),
                     pt(cx + np.cos(a) * r, cy + np.sin(a) * r), colour, max(1, int(r * 0.16)), cv2.LINE_AA, 4)
    elif symbol == "star":
        points = []
        for k in range(10):
            a = -np.pi / 2 + k * np.pi / 5
            rr = r if k % 2 == 0 else r * 0.42
            points.append(pt(cx + np.cos(a) * rr, cy + np.sin(a) * rr))
        cv2.fillPoly(canvas, [np.array(points, np.int32)], colour, cv2.LINE_AA, 4)
    elif symbol == "moon":
        mask = np.zeros(canvas.shape[:2], np.uint8)
        cv2.circle(mask, pt(cx, cy), int(r * s), 255, -1, cv2.LINE_AA, 4)
        cv2.circle(mask, pt(cx + r * 0.55, cy - r * 0.25), int(r * 0.85 * s), 0, -1, cv2.LINE_AA, 4)
        canvas[mask > 127] = colour
    else:
        raise ValueError(f"unknown symbol {symbol!r}")


def draw_numeral(canvas: np.ndarray, value: int, centre: tuple[float, float], height: float,
                 colour: tuple[int, ...], font: int, angle: float = 0.0) -> None:
    """Draw `value` centred at `centre`, `height` pixels tall, turned by `angle` degrees."""
    text = str(value)
    thickness = max(1, int(round(height / 9)))
    scale = cv2.getFontScaleFromHeight(font, int(round(height)), thickness)
    (tw, th), base = cv2.getTextSize(text, font, scale, thickness)
    side = int(max(tw, th + base) * 1.6) + 4
    patch: np.ndarray = np.zeros((side, side), np.uint8)
    cv2.putText(patch, text, ((side - tw) // 2, (side + th) // 2), font, scale, 255, thickness, cv2.LINE_AA)
    if value in (6, 9):  # the bar under 6 and 9 that tells them apart
        y = (side + th) // 2 + max(2, thickness + 1)
        cv2.line(patch, ((side - tw) // 2, y), ((side + tw) // 2, y), 255, thickness, cv2.LINE_AA)
    if angle:
        m = cv2.getRotationMatrix2D((side / 2, side / 2), angle, 1.0)
        patch = cv2.warpAffine(patch, m, (side, side))
    x0, y0 = int(round(centre[0] - side / 2)), int(round(centre[1] - side / 2))
    blend(canvas, patch, (x0, y0), colour)


def blend(canvas: np.ndarray, alpha: np.ndarray, at: tuple[int, int], colour: tuple[int, ...]) -> None:
    """Paint `colour` onto `canvas` through the 0..255 `alpha` patch placed with its corner at `at`."""
    x0, y0 = at
    h, w = alpha.shape
    H, W = canvas.shape[:2]
    ax0, ay0 = max(0, -x0), max(0, -y0)
    cx0, cy0 = max(0, x0), max(0, y0)
    cx1, cy1 = min(W, x0 + w), min(H, y0 + h)
    if cx1 <= cx0 or cy1 <= cy0:
        return
    a = alpha[ay0 : ay0 + cy1 - cy0, ax0 : ax0 + cx1 - cx0].astype(np.float32)[..., None] / 255.0
    region = canvas[cy0:cy1, cx0:cx1].astype(np.float32)
    canvas[cy0:cy1, cx0:cx1] = (region * (1 - a) + np.array(colour, np.float32) * a).astype(np.uint8)


PIP_CELLS = {
    1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)],
}


def sprite(spec: Spec, side: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """The die drawn face-on from above: a BGR picture `side` pixels square and its 0/255 mask."""
    img = np.zeros((side, side, 3), np.uint8)
    mask = np.zeros((side, side), np.uint8)
    body = np.array(spec.body, np.float32)
    c = side / 2.0
    font = FONTS[int(rng.integers(len(FONTS)))]
    if spec.kind == "d6":
        half = side * 0.46
        radius = int(side * rng.uniform(0.06, 0.14))
        r = cv2.boxPoints(((c, c), (2 * half - 2 * radius, 2 * half - 2 * radius), 0))
        for (x, y) in r:
            cv2.circle(mask, (int(x), int(y)), radius, 255, -1, cv2.LINE_AA)
        cv2.rectangle(mask, (int(c - half + radius), int(c - half)), (int(c + half - radius), int(c + half)), 255, -1)
        cv2.rectangle(mask, (int(c - half), int(c - half + radius)), (int(c + half), int(c + half - radius)), 255, -1)
        img[:] = body.astype(np.uint8)
        if spec.style == "pips":
            step = half * rng.uniform(0.5, 0.58)
            pr = half * rng.uniform(0.14, 0.2)
            for (i, j) in PIP_CELLS[spec.value]:
                cv2.circle(img, (int((c + i * step) * 16), int((c + j * step) * 16)), int(pr * 16), spec.ink, -1,
                           cv2.LINE_AA, 4)
        else:
            draw_numeral(img, spec.value, (c, c), half * rng.uniform(0.8, 1.0), spec.ink, font)
    else:
        R = side * 0.48
        hexagon = np.array([(c + R * np.cos(a), c + R * np.sin(a)) for a in np.arange(6) * np.pi / 3 + np.pi / 6])
        cv2.fillPoly(mask, [hexagon.astype(np.int32)], 255, cv2.LINE_AA)
        top = hexagon[::2]  # alternate corners: the triangle facing the camera
        img[:] = (body * 0.72).astype(np.uint8)  # the three slanted side faces, in shade
        cv2.fillPoly(img, [top.astype(np.int32)], spec.body, cv2.LINE_AA)
        # side faces show their own numerals, foreshortened, as a real d8 does
        others = [v for v in range(1, 9) if v != spec.value]
        for k in range(3):
            a, b = hexagon[2 * k], hexagon[(2 * k + 2) % 6]
            mid = (a + b) / 2.0
            out = hexagon[2 * k + 1]
            centre = mid * 0.35 + out * 0.65
            v = int(rng.choice(others))
            angle = float(np.degrees(np.arctan2(out[1] - c, out[0] - c))) - 90
            draw_numeral(img, v, (centre[0], centre[1]), R * 0.22, tuple(int(x * 0.8) for x in spec.ink), font, -angle)
        tri_centre = top.mean(axis=0)
        if spec.symbol is None and spec.style == "astro" or spec.style == "numerals":
            draw_numeral(img, spec.value, (tri_centre[0], tri_centre[1]), R * 0.5, spec.ink, font)
        else:
            draw_numeral(img, spec.value, (tri_centre[0], tri_centre[1] - R * 0.1), R * 0.4, spec.ink, font)
            draw_symbol(img, str(spec.symbol), (tri_centre[0], tri_centre[1] + R * 0.3), R * 0.12, spec.ink)
    # light from above: a soft gradient over the die
    g = np.linspace(rng.uniform(0.85, 1.0), rng.uniform(1.0, 1.12), side, dtype=np.float32)
    shade = np.outer(g, np.ones(side, np.float32)) if rng.random() < 0.5 else np.outer(np.ones(side, np.float32), g)
    img = np.clip(img.astype(np.float32) * shade[..., None], 0, 255).astype(np.uint8)
    return img, mask


def random_spec(rng: np.random.Generator, style: str | None = None, kind: str | None = None,
                value: int | None = None) -> Spec:
    style = style or str(rng.choice([s for s in STYLES if draws(s, kind)]))
    kind = KIND_OF_STYLE.get(style) or kind or str(rng.choice(["d6", "d8"]))
    drawn = int(rng.integers(1, FACES[kind] + 1))  # drawn even when `value` is given: the same rolls follow
    value = drawn if value is None else value
    body, ink = PALETTE[int(rng.integers(len(PALETTE)))]
    jitter = rng.integers(-15, 16, 3)
    b, g, r = (int(np.clip(v + j, 0, 255)) for v, j in zip(body, jitter))
    return Spec(kind, value, style, (b, g, r), ink)


class Label(TypedDict):
    """A rendered die's label, as a manifest line holds it, and the style it was drawn in."""

    kind: str
    value: int
    symbol: str | None
    style: str
    box: list[int]  # the whole die: x, y, w, h


@dataclass(frozen=True)
class Rendered:
    image: np.ndarray
    dice: list[Label]


def scene(rng: np.random.Generator, size: tuple[int, int] = (640, 480), count: int | None = None,
          style: str | None = None, kind: str | None = None, die_side: int | None = None,
          tilt: float = 0.12, blur: float = 1.2, noise: float = 4.0,
          background: tuple[int, int, int] | None = None, touching: bool = False,
          value: int | None = None) -> Rendered:
    """A picture of `count` dice (1..6 when None; more than 6 drawn small) on a plain background, with exact labels;
    `touching`: each die after the first laid against one already there; `value`: every die shows it."""
    w, h = size
    count = int(rng.integers(1, 7)) if count is None else count
    bg = np.array(BACKGROUNDS[int(rng.integers(len(BACKGROUNDS)))], np.float32) + rng.uniform(-20, 20, 3)
    if background is not None:
        bg = np.array(background, np.float32)
    image: np.ndarray = np.empty((h, w, 3), np.float32)
    image[:] = bg
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    light = 1.0 + rng.uniform(-0.15, 0.15) * (xx / w - 0.5) + rng.uniform(-0.15, 0.15) * (yy / h - 0.5)
    image *= light[..., None]
    image += rng.normal(0, 3.0, (h, w, 1)).astype(np.float32)  # the tray's own texture
    image = np.clip(image, 0, 255).astype(np.uint8)
    smallest, biggest = int(min(w, h) * 0.1), int(min(w, h) * 0.2)
    # more than 6 dice (an attack of 12) at the smallest size, so that all of them fit
    side = die_side or (smallest if count > 6 else int(rng.integers(smallest, biggest)))
    placed: list[tuple[float, float, float]] = []
    dice: list[Label] = []
    label_masks: list[np.ndarray] = []
    for _ in range(count):
        spec = random_spec(rng, style, kind, value)
        art, mask = sprite(spec, side, rng)
        for _attempt in range(40):
            cx, cy = rng.uniform(side, w - side), rng.uniform(side, h - side)
            near = 0.8  # centres this many times two sides' sum apart, at least
            if touching and placed:  # beside a die already there: their sides meet, or nearly
                px, py, ps = placed[int(rng.integers(len(placed)))]
                turn, reach = rng.uniform(0, 2 * np.pi), rng.uniform(0.6, 0.7) * (side + ps)
                cx, cy, near = px + reach * np.cos(turn), py + reach * np.sin(turn), 0.6
                if not (side <= cx <= w - side and side <= cy <= h - side):
                    continue
            if all((cx - px) ** 2 + (cy - py) ** 2 > (near * (side + ps)) ** 2 for px, py, ps in placed):
                break
        else:
            continue
        placed.append((cx, cy, side))
        angle = rng.uniform(0, 360)
        m: np.ndarray = cv2.getRotationMatrix2D((side / 2, side / 2), angle, 1.0)
        m[:, 2] += (cx - side / 2, cy - side / 2)
        warped = cv2.warpAffine(art, m, (w, h), flags=cv2.INTER_LINEAR)
        wmask = cv2.warpAffine(mask, m, (w, h), flags=cv2.INTER_LINEAR)
        # a soft shadow, down and to the side of the light
        shadow = cv2.GaussianBlur(wmask, (0, 0), side * 0.08)
        shadow = np.roll(shadow, (int(side * 0.06), int(side * 0.04)), axis=(0, 1)).astype(np.float32) / 255.0
        image = (image.astype(np.float32) * (1 - 0.45 * shadow[..., None])).astype(np.uint8)
        a = wmask.astype(np.float32)[..., None] / 255.0
        image = (image.astype(np.float32) * (1 - a) + warped.astype(np.float32) * a).astype(np.uint8)
        label_masks.append(wmask)
        dice.append({"kind": spec.kind, "value": spec.value, "symbol": spec.symbol, "style": spec.style, "box": []})
    # the camera: a slight tilt (perspective), focus blur and sensor noise
    d = tilt * min(w, h)
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float32)
    corners_moved = np.array([[0, 0], [0, 0], [1, 0], [1, 0]], dtype=np.float32)
    dst = src + rng.uniform(-d, d, (4, 2)).astype(np.float32) * corners_moved * 0.5
    dst[:2, 0] += rng.uniform(0, d) * np.array([1, -1], dtype=np.float32)
    H = cv2.getPerspectiveTransform(src, dst)
    image = cv2.warpPerspective(image, H, (w, h), borderMode=cv2.BORDER_REPLICATE)
    for label, mask in zip(dice, label_masks):
        warped = cv2.warpPerspective(mask, H, (w, h))
        x, y, bw, bh = cv2.boundingRect((warped > 127).astype(np.uint8))
        label["box"] = [int(x), int(y), int(bw), int(bh)]
    if blur > 0:
        sigma = rng.uniform(0.3, blur)
        image = cv2.GaussianBlur(image, (0, 0), sigma)
    if noise > 0:
        image = np.clip(image.astype(np.float32) + rng.normal(0, noise, image.shape), 0, 255).astype(np.uint8)
    return Rendered(image, dice)


def lay_hand(image: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """`image` (a scene) with a hand resting on it, reaching in from one of its edges: a flat, shaded
    palm, four fingers and a thumb of any skin tone, over whatever dice lie there; and the hand's
    mask (0..1), for the labels it hides."""
    h, w = image.shape[:2]
    s = float(rng.uniform(0.6, 1.2))
    edge = int(rng.integers(4))
    along = float(rng.uniform(0.2, 0.8))
    start = [(along * w, h + 40 * s), (along * w, -40 * s), (-40 * s, along * h), (w + 40 * s, along * h)][edge]
    angle = np.deg2rad((-90, 90, 0, 180)[edge] + rng.uniform(-30, 30))
    d = np.array([np.cos(angle), np.sin(angle)])
    n = np.array([-d[1], d[0]])
    palm = np.array(start) + d * 90 * s
    mask: np.ndarray = np.zeros((h, w), np.float32)

    def at(p: np.ndarray) -> tuple[int, int]:
        return int(p[0]), int(p[1])

    cv2.ellipse(mask, at(palm), (int(95 * s), int(80 * s)), float(np.rad2deg(angle)), 0, 360, 1.0, -1, cv2.LINE_AA)
    for off, length in ((-1.5, 120), (-0.5, 140), (0.5, 130), (1.5, 100)):
        base = palm + d * 60 * s + n * off * 36 * s
        tip = base + d * length * s * rng.uniform(0.6, 1.0)
        cv2.line(mask, at(base), at(tip), 1.0, int(30 * s), cv2.LINE_AA)
        cv2.circle(mask, at(tip), int(15 * s), 1.0, -1, cv2.LINE_AA)
    cv2.line(mask, at(palm), at(palm + n * 95 * s * rng.choice([-1, 1])), 1.0, int(34 * s), cv2.LINE_AA)
    mask = cv2.GaussianBlur(mask, (0, 0), 1.5)
    tone = float(rng.uniform(0, 1))  # from dark brown to pale (BGR), a little off either way
    skin = (np.array([35, 50, 80]) * (1 - tone) + np.array([170, 195, 240]) * tone + rng.uniform(-15, 15, 3))
    skin = skin.astype(np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    shade = np.clip(0.8 + 0.3 * ((xx - palm[0]) * d[0] + (yy - palm[1]) * d[1]) / (300 * s), 0.6, 1.2)
    hand = skin * shade[..., None] + rng.normal(0, 4, (h, w, 3)).astype(np.float32)
    out = image.astype(np.float32) * (1 - mask[..., None]) + hand * mask[..., None]
    return np.clip(out, 0, 255).astype(np.uint8), mask


def tile(rng: np.random.Generator, style: str | None = None, kind: str | None = None, side: int = 90) -> Rendered:
    """One die cropped close, like a tile: `side` pixels square."""
    big = scene(rng, (side * 2, side * 2), count=1, style=style, kind=kind, die_side=int(side * 0.75),
                tilt=0.05)
    if not big.dice:
        return big
    x, y, w, h = big.dice[0]["box"]
    cx, cy = x + w // 2, y + h // 2
    x0 = int(np.clip(cx - side // 2, 0, side))
    y0 = int(np.clip(cy - side // 2, 0, side))
    crop = big.image[y0 : y0 + side, x0 : x0 + side].copy()
    label = big.dice[0].copy()
    label["box"] = [0, 0, side, side]
    return Rendered(crop, [label])


def write_set(folder: Path, count: int, seed: int, *, tiles: bool = False, style: str | None = None,
              kind: str | None = None, size: tuple[int, int] = (640, 480)) -> Path:
    """Render `count` labelled pictures into `folder`/images with a manifest.jsonl; return its path.
    VisionError, saying why, where the folder cannot be written or already holds a manifest or pictures
    (a `watch --save` or `calibrate` folder: its labels and photos are not to be written over)."""
    rng = np.random.default_rng(seed)
    manifest = folder / "manifest.jsonl"
    if manifest.exists() or (folder / "images").is_dir() and any((folder / "images").iterdir()):
        raise VisionError(f"{folder}: already holds a manifest or pictures; render into a new or empty folder "
                          "(nothing was written)")
    lines = []
    try:
        (folder / "images").mkdir(parents=True, exist_ok=True)
        for i in range(count):
            shot = tile(rng, style, kind) if tiles else scene(rng, size, style=style, kind=kind)
            name = f"images/render_{seed}_{i:05d}.png"
            write_file(folder / name, encoded(shot.image, name), "the picture")
            dice = [{k: v for k, v in d.items() if k != "style" and v is not None} for d in shot.dice]
            lines.append(json.dumps({"image": name, "dice": dice, "complete": True,
                                     "box": "tile" if tiles else "whole_die"}))
        write_file(manifest, "\n".join(lines) + "\n", "the manifest")
    except OSError as bad:
        raise VisionError(f"{folder}: cannot render into it ({why_not_written(folder, bad)})") from None
    return manifest


# -- training crops for the face reader: solid dice (solids.py) on varied tables --------------------

# classes of the face network (read.CLASSES): 0 "none", 1..6 d6, 7..14 d8
SYMBOL_INDEX = {None: 0, "sun": 1, "star": 2, "moon": 3}


def class_index(kind: str | None, value: int | None) -> int:
    """The face network's class of a die (0: not a die)."""
    if kind is None or value is None:
        return 0
    return value if kind == "d6" else 6 + value


def table(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """A float32 BGR table top: plain, lit unevenly, felt, wood grain, or busy (a board, papers)."""
    from assistant.vision import faceart as A

    colour = np.array(A.random_colour(rng), np.float32)
    image = np.empty((h, w, 3), np.float32)
    image[:] = colour
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    look = rng.random()
    if look < 0.25:  # wood: stretched, warped stripes
        a = rng.uniform(0, np.pi)
        warp = cv2.resize(rng.random((4, 4)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
        stripes = np.sin((np.cos(a) * xx + np.sin(a) * yy) * rng.uniform(0.05, 0.4) + warp * rng.uniform(2, 8))
        image *= (1 + rng.uniform(0.05, 0.25) * stripes)[..., None]
    elif look < 0.45:  # felt or cloth: fine noise
        grain = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), rng.uniform(0.5, 2))
        image *= (1 + rng.uniform(0.03, 0.12) * grain)[..., None]
    elif look < 0.6:  # a busy table: shapes and lines of other colours
        for _ in range(int(rng.integers(2, 8))):
            c = A.random_colour(rng)
            p = rng.integers(0, [w, h], 2)
            q = p + rng.integers(-w // 2, w // 2, 2)
            if rng.random() < 0.5:
                cv2.rectangle(image, tuple(int(v) for v in p), tuple(int(v) for v in q), c, -1)
            else:
                cv2.line(image, tuple(int(v) for v in p), tuple(int(v) for v in q), c, int(rng.integers(1, 6)))
    light = 1 + rng.uniform(-0.3, 0.3) * (xx / w - 0.5) + rng.uniform(-0.3, 0.3) * (yy / h - 0.5)
    image *= light[..., None]
    return image


def streak(length: int, angle: float) -> np.ndarray:
    """A motion blur's kernel: a line `length` pixels long at `angle` degrees, summing to 1."""
    line = np.zeros((length, length), np.float32)
    line[length // 2, :] = 1
    turn = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), angle, 1)
    kernel = np.asarray(cv2.warpAffine(line, turn, (length, length)))
    out: np.ndarray = kernel / kernel.sum()
    return out


def camera_effects(rng: np.random.Generator, image: np.ndarray, die_side: float) -> np.ndarray:
    """What a camera does to a float32 picture: motion or focus blur, exposure, noise, JPEG. uint8 out."""
    if rng.random() < 0.25:  # motion blur: a short streak in any direction
        length = max(2, int(rng.uniform(0.03, 0.15) * die_side))
        kernel = np.zeros((length, length), np.float32)
        kernel[length // 2, :] = 1.0 / length
        m = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), float(rng.uniform(0, 180)), 1.0)
        kernel = np.asarray(cv2.warpAffine(kernel, m, (length, length)), dtype=np.float32)
        image = cv2.filter2D(image, -1, kernel / max(float(kernel.sum()), 1e-6))
    sigma = rng.uniform(0, 0.035) * die_side
    if sigma > 0.3:
        image = cv2.GaussianBlur(image, (0, 0), sigma)
    gain, offset = rng.uniform(0.6, 1.35), rng.uniform(-30, 30)
    tint = rng.uniform(0.85, 1.15, 3).astype(np.float32)
    image = image * gain * tint + offset
    image = 255.0 * (np.clip(image, 0, 255) / 255.0) ** rng.uniform(0.7, 1.4)
    image += rng.normal(0, rng.uniform(0, 9), image.shape).astype(np.float32)
    out: np.ndarray = np.clip(image, 0, 255).astype(np.uint8)
    if rng.random() < 0.5:
        ok, data = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(25, 96))])
        decoded = cv2.imdecode(data, cv2.IMREAD_COLOR)
        assert decoded is not None  # a JPEG just encoded here
        out = decoded
    return out


def tile_marks(rng: np.random.Generator, crop: np.ndarray) -> None:
    """Marks tiles cut from a montage may carry: a flat band at one edge, a line of text (uint8, in place)."""
    n = crop.shape[0]
    if rng.random() < 0.5:
        depth = int(rng.uniform(0.1, 0.25) * n)
        edge = int(rng.integers(4))
        value = int(rng.integers(0, 256))
        if edge == 0:
            crop[:depth] = value
        elif edge == 1:
            crop[-depth:] = value
        elif edge == 2:
            crop[:, :depth] = value
        else:
            crop[:, -depth:] = value
    else:
        text = "".join(str(rng.choice(list("ABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789:. "))) for _ in range(12))
        y = int(rng.integers(6, n // 3))
        cv2.putText(crop, text, (int(rng.integers(-10, 5)), y), cv2.FONT_HERSHEY_SIMPLEX, rng.uniform(0.25, 0.4),
                    (int(rng.choice([0, 255])),) * 3, 1, cv2.LINE_AA)


def face_sample(rng: np.random.Generator, none_share: float = 0.12, kind: str | None = None,
                style: str | None = None, value: int | None = None,
                emblems: tuple[tuple[int, str], ...] = (), context: float | None = None) -> tuple[np.ndarray, int, int]:
    """One training crop for the face network, cut `context` (default crop.CONTEXT) times its box:
    (SIDE x SIDE x 3 uint8, B, G, R; class index, symbol index).

    A solid die (any kind, style, colour, material, pose) on a random table, maybe with other dice
    around it and cut by the crop's edge, lit, shadowed, blurred, noisy; its box is the whole die
    or its top face, a little off; sometimes the picture is a tile cut close around it. A share
    `none_share` of the crops hold no die in the middle (class 0): table, clutter, a die's edge.
    """
    from assistant.vision.crop import CONTEXT, crop
    from assistant.vision import solids as D

    side = 160
    canvas = table(rng, side, side)
    die_side = float(rng.uniform(20, 88))
    light = np.array([rng.uniform(-0.6, 0.6), rng.uniform(-0.6, 0.6), 1.0])
    centre = np.array([side / 2, side / 2]) + rng.normal(0, 2, 2)
    empty = rng.random() < none_share
    # other dice around: they may reach into the crop's edge, never its middle
    for _ in range(int(rng.choice([0, 0, 1, 1, 2, 3]))):
        a = rng.uniform(0, 2 * np.pi)
        dist = die_side * rng.uniform(0.85, 1.4)
        at = centre + dist * np.array([np.cos(a), np.sin(a)])
        D.draw_die(canvas, rng, D.random_look(rng), (float(at[0]), float(at[1])), die_side * rng.uniform(0.8, 1.2),
                   D.random_pose(rng), light, shadow=float(rng.uniform(0, 0.5)))
    if empty:
        # nothing in the middle, or a die well off the middle (its edge in view), or a hand or a blot
        what = rng.random()
        if what < 0.35:
            a = rng.uniform(0, 2 * np.pi)
            at = centre + die_side * rng.uniform(0.65, 0.9) * np.array([np.cos(a), np.sin(a)])
            D.draw_die(canvas, rng, D.random_look(rng), (float(at[0]), float(at[1])), die_side, D.random_pose(rng),
                       light)
        elif what < 0.55:
            skin = np.array([rng.uniform(60, 160), rng.uniform(100, 190), rng.uniform(150, 240)], np.float32)
            mask: np.ndarray = np.zeros((side, side), np.float32)
            cv2.ellipse(mask, (int(centre[0] + rng.normal(0, 20)), int(centre[1] + rng.normal(0, 20))),
                        (int(die_side * rng.uniform(0.5, 1.5)), int(die_side * rng.uniform(0.3, 0.8))),
                        float(rng.uniform(0, 180)), 0, 360, 1.0, -1, cv2.LINE_AA)
            mask = cv2.GaussianBlur(mask, (0, 0), 2)[..., None]
            canvas = canvas * (1 - mask) + skin * mask
        look = None
        box = [centre[0] - die_side / 2, centre[1] - die_side / 2, die_side, die_side]
    else:
        look = D.random_look(rng, kind, style, value, emblems)
        drawn = D.draw_die(canvas, rng, look, (float(centre[0]), float(centre[1])), die_side, D.random_pose(rng),
                           light, shadow=float(rng.uniform(0, 0.5)), glare=float(rng.uniform(0.3, 0.8))
                           if rng.random() < 0.2 else 0.0)
        box = list(drawn.top_box if rng.random() < 0.4 and drawn.top_box[2] > 4 else drawn.box)
    image = camera_effects(rng, canvas, die_side)
    x, y, w, h = box
    jitter = max(w, h)
    cx = x + w / 2 + rng.normal(0, 0.05) * jitter
    cy = y + h / 2 + rng.normal(0, 0.05) * jitter
    s = rng.uniform(0.85, 1.2)
    w, h = w * s, h * s
    if rng.random() < 0.15:  # a tile: a square cut close around the die, read whole
        t = max(w, h) / rng.uniform(0.7, 1.0)
        x0, y0 = int(round(cx - t / 2)), int(round(cy - t / 2))
        cut = image[max(0, y0) : y0 + int(t), max(0, x0) : x0 + int(t)]
        view = crop(cut, (0, 0, cut.shape[1], cut.shape[0]), context or CONTEXT)
        if rng.random() < 0.5:
            tile_marks(rng, view)
    else:
        view = crop(image, (cx - w / 2, cy - h / 2, w, h), context or CONTEXT)
    if look is None:
        return view, 0, 0
    symbol = SYMBOL_INDEX[ASTRO_BY_VALUE[look.value]] if look.style == "astro" else 0
    return view, class_index(look.kind, look.value), symbol


def solid_tile(rng: np.random.Generator, side: int = 96, kind: str | None = None, style: str | None = None,
               value: int | None = None, emblems: tuple[tuple[int, str], ...] = ()) -> Rendered:
    """One solid die (solids.py) on a table, seen from above or at a slant, in a `side` square
    picture; its label's box is the whole die."""
    from assistant.vision import solids as D

    canvas = table(rng, side, side)
    look = D.random_look(rng, kind, style, value, emblems)
    size = side * float(rng.uniform(0.55, 0.75))
    drawn = D.draw_die(canvas, rng, look, (side / 2, side / 2), size, D.random_pose(rng), shadow=0.3)
    image = camera_effects(rng, canvas, size)
    label: Label = {"kind": look.kind, "value": look.value, "box": [int(v) for v in drawn.box],
                    "symbol": ASTRO_BY_VALUE[look.value] if look.style == "astro" else None, "style": look.style}
    return Rendered(image, [label])
