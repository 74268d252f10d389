"""The pictures printed on dice faces, and the materials dice are made of, for the renderers.

A face is drawn flat, square (`FACE` pixels a side), as the die's maker printed it: a d6 face
fills the square; a d8 face is the equilateral triangle `TRIANGLE` inside it. Every drawing
takes a random generator, so that a seed repeats a picture exactly.

    body = material(rng, colour, FACE)                 # plain, marbled, speckled, pearl, gradient
    art = d6_face(rng, body, ink, value, "pips")       # or "numerals"
    art = d8_face(rng, body, ink, value, astro=True)   # numeral + Sun / Star / Moon
"""

from __future__ import annotations

import cv2
import numpy as np

from assistant.vision.dice import ASTRO_BY_VALUE

FACE = 64  # side of a face's flat picture, pixels
# a d8 face: an equilateral triangle, apex up, filling the square's width
TRIANGLE = np.array([[FACE / 2, FACE * 0.067], [FACE * 0.0, FACE * 0.933], [FACE * 1.0, FACE * 0.933]],
                    dtype=np.float32)
FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_TRIPLEX,
         cv2.FONT_HERSHEY_COMPLEX, cv2.FONT_HERSHEY_PLAIN)
MATERIALS = ("plain", "plain", "marbled", "speckled", "pearl", "gradient")

PIP_CELLS = {
    1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)],
}

Colour = tuple[float, float, float]


def smooth_noise(rng: np.random.Generator, side: int, cells: int) -> np.ndarray:
    """Noise in 0..1 that varies over about `side / cells` pixels (random grid, cubic resize)."""
    grid = rng.random((cells + 1, cells + 1)).astype(np.float32)
    return np.clip(cv2.resize(grid, (side, side), interpolation=cv2.INTER_CUBIC), 0, 1)


def random_colour(rng: np.random.Generator) -> Colour:
    """A die or table colour, BGR 0..255, anywhere from black to white and through every hue."""
    hsv = np.array([[[rng.integers(0, 180), rng.integers(0, 256), rng.integers(15, 256)]]], dtype=np.uint8)
    if rng.random() < 0.3:  # white, ivory, grey and black dice are common
        hsv[0, 0, 1] = rng.integers(0, 40)
    return tuple(float(v) for v in cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0])  # type: ignore[return-value]


def lightness(colour: Colour) -> float:
    b, g, r = colour
    return 0.114 * b + 0.587 * g + 0.299 * r


def ink_for(rng: np.random.Generator, body: Colour, min_contrast: float = 70.0) -> Colour:
    """An ink that stands out from `body` in lightness by at least `min_contrast` (0..255)."""
    light = lightness(body)
    for _ in range(20):
        ink = random_colour(rng) if rng.random() < 0.4 else ((20.0,) * 3 if light > 128 else (240.0,) * 3)
        if rng.random() < 0.15:  # gold and silver inks
            ink = (40.0, 170.0, 210.0) if rng.random() < 0.5 else (190.0, 190.0, 190.0)
        if abs(lightness(ink) - light) >= min_contrast:
            return ink
    return (15.0,) * 3 if light > 128 else (245.0,) * 3


def material(rng: np.random.Generator, body: Colour, side: int = FACE, kind: str | None = None) -> np.ndarray:
    """A `side`-square float32 BGR picture of the die's body: plain, marbled, speckled, pearl, gradient."""
    kind = kind or str(rng.choice(MATERIALS))
    base: np.ndarray = np.empty((side, side, 3), np.float32)
    base[:] = body
    if kind == "marbled":
        # veins: a sine of a warped coordinate, between the body and a second colour
        other = np.array(random_colour(rng), np.float32)
        yy, xx = np.mgrid[0:side, 0:side].astype(np.float32) / side
        a = rng.uniform(0, np.pi)
        warp = smooth_noise(rng, side, 3) * rng.uniform(2, 6) + smooth_noise(rng, side, 7) * rng.uniform(0.5, 2)
        veins = 0.5 + 0.5 * np.sin(rng.uniform(4, 14) * (np.cos(a) * xx + np.sin(a) * yy) + warp * np.pi)
        share = rng.uniform(0.3, 0.7)
        mix = np.clip((veins - share) * rng.uniform(2, 8) + 0.5, 0, 1)[..., None]
        base = base * (1 - mix) + other * mix
    elif kind == "speckled":
        dots = (rng.random((side, side)) < rng.uniform(0.01, 0.05)).astype(np.float32)
        dots = cv2.GaussianBlur(dots, (0, 0), 0.7)[..., None] * rng.uniform(0.3, 0.9)
        base = base * (1 - dots) + np.array(random_colour(rng), np.float32) * dots
    elif kind == "pearl":
        shimmer = smooth_noise(rng, side, 4)[..., None]
        base = base * (0.85 + 0.3 * shimmer)
    elif kind == "gradient":
        other = np.array(random_colour(rng), np.float32)
        t = np.linspace(0, 1, side, dtype=np.float32)
        ramp = (t[None, :] if rng.random() < 0.5 else t[:, None])[..., None] * rng.uniform(0.2, 0.6)
        base = base * (1 - ramp) + other * ramp
    grain = rng.normal(0, rng.uniform(0, 4), (side, side, 1)).astype(np.float32)
    out: np.ndarray = np.clip(base + grain, 0, 255)
    return out


def paint(canvas: np.ndarray, alpha: np.ndarray, colour: Colour) -> None:
    """Paint `colour` onto float `canvas` through `alpha` (0..1, same size)."""
    a = alpha[..., None]
    canvas *= 1 - a
    canvas += a * np.array(colour, np.float32)


def numeral_alpha(rng: np.random.Generator, value: int, height: float, side: int = FACE,
                  centre: tuple[float, float] | None = None, underline: bool | None = None) -> np.ndarray:
    """A 0..1 mask of `value` written `height` pixels tall at `centre`, in a random Hershey font."""
    font = FONTS[int(rng.integers(len(FONTS)))]
    italic = cv2.FONT_ITALIC if rng.random() < 0.15 else 0
    thickness = max(1, int(round(height * rng.uniform(0.07, 0.16))))
    text = str(value)
    scale = cv2.getFontScaleFromHeight(font, int(round(height)), thickness)
    (tw, th), _ = cv2.getTextSize(text, font | italic, scale, thickness)
    cx, cy = centre or (side / 2, side / 2)
    mask = np.zeros((side, side), np.uint8)
    cv2.putText(mask, text, (int(round(cx - tw / 2)), int(round(cy + th / 2))), font | italic, scale, 255,
                thickness, cv2.LINE_AA)
    if underline if underline is not None else (value in (6, 9) and rng.random() < 0.6):
        y = int(round(cy + th / 2 + max(2, thickness + 1)))
        cv2.line(mask, (int(cx - tw / 2), y), (int(cx + tw / 2), y), 255, thickness, cv2.LINE_AA)
    return mask.astype(np.float32) / 255.0


def symbol_alpha(symbol: str, centre: tuple[float, float], r: float, side: int = FACE,
                 rng: np.random.Generator | None = None) -> np.ndarray:
    """A 0..1 mask of a Sun (disc and rays), a Star (five points) or a Moon (crescent) of radius `r`."""
    s = 16  # fixed-point shift for sub-pixel drawing
    cx, cy = centre
    mask = np.zeros((side, side), np.uint8)

    def pt(x: float, y: float) -> tuple[int, int]:
        return (int(round(x * s)), int(round(y * s)))

    spin = float(rng.uniform(-0.3, 0.3)) if rng is not None else 0.0
    if symbol == "sun":
        rays = int(rng.integers(8, 13)) if rng is not None else 8
        cv2.circle(mask, pt(cx, cy), int(r * 0.5 * s), 255, -1, cv2.LINE_AA, 4)
        for k in range(rays):
            a = spin + k * 2 * np.pi / rays
            cv2.line(mask, pt(cx + np.cos(a) * r * 0.66, cy + np.sin(a) * r * 0.66),
                     pt(cx + np.cos(a) * r, cy + np.sin(a) * r), 255, max(1, int(round(r * 0.16))), cv2.LINE_AA, 4)
    elif symbol == "star":
        points = []
        for k in range(10):
            a = -np.pi / 2 + spin * 0.3 + k * np.pi / 5
            rr = r if k % 2 == 0 else r * 0.42
            points.append(pt(cx + np.cos(a) * rr, cy + np.sin(a) * rr))
        cv2.fillPoly(mask, [np.array(points, np.int32)], 255, cv2.LINE_AA, 4)
    elif symbol == "moon":
        cv2.circle(mask, pt(cx, cy), int(r * s), 255, -1, cv2.LINE_AA, 4)
        a = -0.45 + spin
        cv2.circle(mask, pt(cx + r * 0.6 * np.cos(a), cy + r * 0.6 * np.sin(a)), int(r * 0.85 * s), 0, -1,
                   cv2.LINE_AA, 4)
    else:
        raise ValueError(f"unknown symbol {symbol!r}")
    return mask.astype(np.float32) / 255.0


def emblem_alpha(name: str, centre: tuple[float, float], r: float, side: int = FACE) -> np.ndarray:
    """A custom emblem (as board games print on a die's 1 or 6): "skull", "shield", "cross"."""
    s = 16
    cx, cy = centre
    mask = np.zeros((side, side), np.uint8)

    def pt(x: float, y: float) -> tuple[int, int]:
        return (int(round(x * s)), int(round(y * s)))

    if name == "skull":
        cv2.circle(mask, pt(cx, cy - r * 0.2), int(r * 0.75 * s), 255, -1, cv2.LINE_AA, 4)
        cv2.rectangle(mask, pt(cx - r * 0.45, cy + r * 0.2), pt(cx + r * 0.45, cy + r * 0.85), 255, -1, cv2.LINE_AA, 4)
        for dx in (-0.32, 0.32):
            cv2.circle(mask, pt(cx + dx * r, cy - r * 0.25), int(r * 0.22 * s), 0, -1, cv2.LINE_AA, 4)
        cv2.line(mask, pt(cx, cy + r * 0.35), pt(cx, cy + r * 0.85), 0, max(1, int(r * 0.1)), cv2.LINE_AA, 4)
    elif name == "shield":
        pts = [pt(cx - r * 0.8, cy - r * 0.8), pt(cx + r * 0.8, cy - r * 0.8), pt(cx + r * 0.7, cy + r * 0.1),
               pt(cx, cy + r * 0.9), pt(cx - r * 0.7, cy + r * 0.1)]
        cv2.fillPoly(mask, [np.array(pts, np.int32)], 255, cv2.LINE_AA, 4)
        cv2.fillPoly(mask, [np.array([pt(cx - r * 0.5, cy - r * 0.55), pt(cx, cy - r * 0.55), pt(cx, cy + r * 0.55),
                                      pt(cx - r * 0.45, cy + r * 0.05)], np.int32)], 0, cv2.LINE_AA, 4)
    elif name == "cross":
        w = r * 0.3
        cv2.rectangle(mask, pt(cx - w, cy - r), pt(cx + w, cy + r), 255, -1, cv2.LINE_AA, 4)
        cv2.rectangle(mask, pt(cx - r, cy - w), pt(cx + r, cy + w), 255, -1, cv2.LINE_AA, 4)
    else:
        raise ValueError(f"unknown emblem {name!r}")
    return mask.astype(np.float32) / 255.0


def pips_alpha(rng: np.random.Generator, value: int, side: int = FACE) -> np.ndarray:
    """The pips of a d6 face showing `value`, as a 0..1 mask."""
    c = side / 2
    step = side * rng.uniform(0.22, 0.29)
    radius = side * rng.uniform(0.065, 0.11)
    big_one = value == 1 and rng.random() < 0.3  # some dice have a bigger 1
    mask = np.zeros((side, side), np.uint8)
    for i, j in PIP_CELLS[value]:
        x, y = c + i * step + rng.normal(0, side * 0.004), c + j * step + rng.normal(0, side * 0.004)
        r = radius * (rng.uniform(1.4, 2.0) if big_one else 1.0)
        cv2.circle(mask, (int(x * 16), int(y * 16)), int(r * 16), 255, -1, cv2.LINE_AA, 4)
    return mask.astype(np.float32) / 255.0


def drilled(alpha: np.ndarray, canvas: np.ndarray, rng: np.random.Generator) -> None:
    """Shade the rim of drilled pips and engraved numerals (a thin dark or light edge)."""
    if rng.random() < 0.5:
        edge = cv2.GaussianBlur(alpha, (0, 0), 1.2) - alpha
        canvas += (edge * rng.uniform(-80, 40))[..., None]


def d6_face(rng: np.random.Generator, body: np.ndarray, ink: Colour, value: int, style: str,
            emblem: str | None = None) -> np.ndarray:
    """A d6 face (float32 BGR, FACE square) showing `value`: pips, a numeral, or a custom emblem."""
    art = body.copy()
    if emblem is not None:
        alpha = emblem_alpha(emblem, (FACE / 2, FACE / 2), FACE * rng.uniform(0.28, 0.36))
    elif style == "pips":
        alpha = pips_alpha(rng, value)
    else:
        alpha = numeral_alpha(rng, value, FACE * rng.uniform(0.42, 0.62))
    paint(art, alpha, ink)
    drilled(alpha, art, rng)
    return art


def d8_face(rng: np.random.Generator, body: np.ndarray, ink: Colour, value: int, astro: bool,
            layout: int | None = None) -> np.ndarray:
    """A d8 face (float32 BGR, FACE square, the triangle `TRIANGLE` apex up) showing `value`.

    Nova Aetas d8 (`astro`) carry the value's Sun, Star or Moon (none on 2 and 3) beside the
    numeral: below it, above it, or at its side (`layout` 0, 1, 2; random when None).
    """
    art = body.copy()
    cx, cy = float(TRIANGLE[:, 0].mean()), float(TRIANGLE[:, 1].mean())
    symbol = ASTRO_BY_VALUE[value] if astro else None
    if symbol is None:
        alpha = numeral_alpha(rng, value, FACE * rng.uniform(0.3, 0.42), centre=(cx, cy + FACE * 0.02))
    else:
        layout = int(rng.integers(3)) if layout is None else layout
        h = FACE * rng.uniform(0.26, 0.34)
        r = FACE * rng.uniform(0.07, 0.1)
        if layout == 0:
            num_at, sym_at = (cx, cy - FACE * 0.05), (cx, cy + FACE * 0.2)
        elif layout == 1:
            num_at, sym_at = (cx, cy + FACE * 0.08), (cx, cy - FACE * 0.17)
        else:
            side = 1 if rng.random() < 0.5 else -1
            num_at, sym_at = (cx - side * FACE * 0.08, cy + FACE * 0.05), (cx + side * FACE * 0.15, cy + FACE * 0.08)
        alpha = np.maximum(numeral_alpha(rng, value, h, centre=num_at),
                           symbol_alpha(symbol, sym_at, r, rng=rng))
    paint(art, alpha, ink)
    drilled(alpha, art, rng)
    return art
