"""What a die's faces carry, drawn as one mask per die (an atlas of its faces) for calibration/photo_dice_scene.py.

Numerals in a TrueType font (DejaVu: free licence; Liberation and Noto: SIL OFL), drawn with pygame's FreeType,
with a bar or a dot under 6 and 9 (or neither); a d6's pips; the Nova Aetas d8's Sun, Star and Moon beside the
numeral (faceart.symbol_alpha, on the values dice.ASTRO_BY_VALUE gives). Cell i of the atlas is face i of
die_faces.MESHES: a d8's in a 4 x 2 grid, its triangle apex up (faceart.TRIANGLE), a d6's in a 3 x 2 grid.
"""

from __future__ import annotations

import glob
import os
from pathlib import Path

import cv2
import numpy as np

from assistant.vision.dice import ASTRO_BY_VALUE
from assistant.vision.faceart import FACE, TRIANGLE, pips_alpha, symbol_alpha

CELL = 128  # pixels a face
GRID = {"d8": (4, 2), "d6": (3, 2)}  # columns, rows
FONT_FILES = ("/usr/share/fonts/truetype/dejavu/DejaVuS[ae]*.ttf", "/usr/share/fonts/truetype/liberation/*.ttf",
              "/usr/share/fonts/truetype/noto/NotoS[ae][nr]*-*.ttf")
# the triangle of a d8 face in a cell, and the point its numeral is centred on (the triangle's centroid)
D8_TRIANGLE = TRIANGLE * (CELL / FACE)
D8_CENTRE = (float(D8_TRIANGLE[:, 0].mean()), float(D8_TRIANGLE[:, 1].mean()))


def fonts() -> list[str]:
    """The font files numerals are drawn in (only the licences above), in name order."""
    found = sorted({f for pattern in FONT_FILES for f in glob.glob(pattern)
                    if "NotoSansMono" in f or "Noto" not in f or f.split("/")[-1].split("-")[0] in
                    ("NotoSans", "NotoSerif", "NotoSansDisplay", "NotoSerifDisplay")})
    if not found:
        raise SystemExit("no DejaVu, Liberation or Noto fonts in /usr/share/fonts/truetype (apt install "
                         "fonts-dejavu-core fonts-liberation fonts-noto-core)")
    return found


GLYPHS: dict[str, np.ndarray] = {}  # "FONT:DIGIT": the digit's ink, 0..255, cut to it (write_glyphs, load_glyphs)


def write_glyphs(path: Path, files: list[str] | None = None) -> None:
    """Every digit 1 to 9 in every font of `files` (else `fonts()`), 96 px tall, into the .npz `path` (pygame's
    FreeType draws them; Blender's Python cannot load pygame beside its own SDL, so it reads them from there)."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame.freetype

    pygame.freetype.init()
    out = {}
    for file in files or fonts():
        font = pygame.freetype.Font(file, 96)
        font.antialiased = True
        for digit in "123456789":
            raw, (w, h) = font.render_raw(digit)
            ink = np.frombuffer(raw, np.uint8).reshape(h, w)
            ys, xs = np.nonzero(ink > 12)
            out[f"{file}:{digit}"] = ink[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    np.savez_compressed(path, **out)


def load_glyphs(path: Path) -> None:
    with np.load(path) as z:
        GLYPHS.update({name: z[name] for name in z.files})


def glyphs(path: str, text: str, height: float) -> np.ndarray:
    """`text` (a digit) in the font at `path`, scaled to `height` pixels, as a 0..1 mask."""
    ink = GLYPHS[f"{path}:{text}"].astype(np.float32) / 255
    scale = height / ink.shape[0]
    return cv2.resize(ink, (max(1, round(ink.shape[1] * scale)), max(1, round(height))), interpolation=cv2.INTER_AREA)


def paste(mask: np.ndarray, art: np.ndarray, centre: tuple[float, float]) -> None:
    """Lay `art` (0..1) on `mask` centred at `centre` (x, y), keeping the larger of the two."""
    h, w = art.shape
    x, y = int(round(centre[0] - w / 2)), int(round(centre[1] - h / 2))
    x0, y0 = max(x, 0), max(y, 0)
    x1, y1 = min(x + w, mask.shape[1]), min(y + h, mask.shape[0])
    if x1 > x0 and y1 > y0:
        mask[y0:y1, x0:x1] = np.maximum(mask[y0:y1, x0:x1], art[y0 - y:y1 - y, x0 - x:x1 - x])


def numeral(rng: np.random.Generator, style: dict, value: int, height: float, centre: tuple[float, float]) -> np.ndarray:
    """A CELL-square 0..1 mask of `value` in the die's font, with its 6/9 mark."""
    mask = np.zeros((CELL, CELL), np.float32)
    art = glyphs(style["font"], str(value), height)
    h, w = art.shape
    mark = style["mark"] if value in (6, 9) else None
    dy = h * 0.12 if mark else 0.0
    paste(mask, art, (centre[0], centre[1] - dy))
    if mark == "bar":
        t = max(2, round(h * 0.09))
        bar = np.ones((t, max(3, round(w * 0.8))), np.float32)
        paste(mask, bar, (centre[0], centre[1] - dy + h / 2 + t * 1.6))
    elif mark == "dot":
        r = max(2, round(h * 0.07))
        dot = np.zeros((2 * r + 1, 2 * r + 1), np.float32)
        cv2.circle(dot, (r, r), r, 1.0, -1, cv2.LINE_AA)
        paste(mask, dot, (centre[0] + w / 2 + r * 1.5, centre[1] - dy + h / 2 - r))
    return mask


def face_mask(rng: np.random.Generator, style: dict, kind: str, value: int) -> np.ndarray:
    """One face's marks, CELL square, 0..1: pips, a numeral, or numeral and astro symbol (a Nova Aetas d8)."""
    if kind == "d6":
        if style["look"] == "pips":
            return pips_alpha(rng, value, CELL)
        return numeral(rng, style, value, CELL * style["size"], (CELL / 2, CELL / 2))
    cx, cy = D8_CENTRE
    symbol = ASTRO_BY_VALUE[value] if style["look"] == "astro" else None
    if symbol is None:
        return numeral(rng, style, value, CELL * style["size"] * 0.72, (cx, cy + CELL * 0.03))
    h, r = CELL * style["size"] * 0.55, CELL * 0.09
    num_at, sym_at = ((cx, cy - CELL * 0.05), (cx, cy + CELL * 0.21)) if style["layout"] == 0 else \
        ((cx, cy + CELL * 0.08), (cx, cy - CELL * 0.17))
    return np.maximum(numeral(rng, style, value, h, num_at), symbol_alpha(symbol, sym_at, r, CELL, rng))


def die_style(rng: np.random.Generator, kind: str, look: str) -> dict:
    """How a die's faces are drawn: `look` "pips" / "numerals" (d6), "numerals" / "astro" (d8); a font, a 6/9 mark."""
    return {"look": look, "font": str(rng.choice(sorted({k.rsplit(":", 1)[0] for k in GLYPHS}))), "size": float(rng.uniform(0.42, 0.6)),
            "mark": str(rng.choice(["bar", "bar", "dot", "none"])), "layout": int(rng.integers(2))}


def atlas(rng: np.random.Generator, kind: str, style: dict, numerals: tuple[int, ...]) -> np.ndarray:
    """A die's face masks, 0..1, face i (numeral `numerals[i]`) in cell i, rows from the top."""
    columns, rows = GRID[kind]
    out = np.zeros((rows * CELL, columns * CELL), np.float32)
    for i, value in enumerate(numerals):
        r, c = divmod(i, columns)
        out[r * CELL:(r + 1) * CELL, c * CELL:(c + 1) * CELL] = face_mask(rng, style, kind, value)
    return out


def cell_uv(kind: str, index: int, corners: int) -> list[tuple[float, float]]:
    """The UV of each corner of face `index` in the atlas (Blender's: v up from the bottom): a d8's triangle
    apex, lower left, lower right; a d6's square counter-clockwise from the lower left."""
    columns, rows = GRID[kind]
    r, c = divmod(index, columns)
    points = D8_TRIANGLE if kind == "d8" else np.array([[0, CELL], [CELL, CELL], [CELL, 0], [0, 0]], float)
    assert len(points) == corners
    return [((c * CELL + x) / (columns * CELL), 1 - (r * CELL + y) / (rows * CELL)) for x, y in points]
