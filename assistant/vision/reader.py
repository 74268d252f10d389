"""The dice reader: every die in a frame, with kind, value, confidence and box.

    frame -> drop masked bands -> working size -> foreground (unlike the plain background)
          -> die-sized blobs -> per die: its own colour, a contrast map of what is unlike it
          -> pips (round, one size, d6 layout) or glyphs (numeral + astro symbol, via the profile)
          -> Die(kind, value or None, confidence, box in the frame's pixels)
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from assistant.vision import glyphs as G
from assistant.vision import pips as P
from assistant.vision import segment as S
from assistant.vision.dice import ASTRO_BY_VALUE, FACES, Die, Reading
from assistant.vision.images import check_frame
from assistant.vision.profile import Profile, built_in

MARK_CONTRAST = 40  # contrast (Lab distance x CONTRAST_GAIN) that makes a pixel part of a mark
CONTRAST_GAIN = 1.5
MIN_CONFIDENCE = 0.5  # below this a die is reported unreadable (value None), never guessed
D8_SHAPE_FILL = 0.9  # die area / min-area rectangle: a square fills ~0.95 of it, a hexagon ~0.87


@dataclass(frozen=True)
class DieView:
    """One die-like region of the working image, ready to be read."""

    box: tuple[int, int, int, int]  # working-image pixels
    contrast: np.ndarray  # uint8, how unlike the die's own colour each pixel is (0 outside the die)
    cut: np.ndarray  # uint8, nonzero where the die meets the picture's edge
    rim: np.ndarray  # uint8, nonzero on a thin band just inside the die's outline
    area: float
    shape_fill: float

    @property
    def side(self) -> float:
        return float(np.sqrt(self.area))


def scale_for(shape: tuple[int, ...]) -> float:
    """The factor that brings a frame to the working size (never enlarging)."""
    return min(1.0, S.WORK_SIDE / max(shape[:2]))


def die_views(image: np.ndarray, tile: bool) -> list[DieView]:
    """Every die-like region of `image` (working size), with its contrast map."""
    lab = S.to_lab(image)
    fg = S.foreground(image, lab, tile)
    h, w = image.shape[:2]
    if tile:
        min_area, max_area = 0.08 * h * w, float(h * w)
    else:
        min_area, max_area = 0.0003 * h * w, 0.12 * h * w
    edge = np.zeros((h, w), np.uint8)
    edge[[0, -1], :] = 255
    edge[:, [0, -1]] = 255
    found = S.blobs(fg, min_area, max_area)
    if tile and found:
        found = [max(found, key=lambda b: b.area)]
    views = []
    ellipse = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
    for blob in found:
        x, y, bw, bh = blob.box
        crop = lab[y : y + bh, x : x + bw]
        shrink = max(1, int(round(0.04 * np.sqrt(blob.area))))
        inner = cv2.erode(blob.mask, ellipse, iterations=shrink)
        if not inner.any():
            continue
        body = np.median(crop[inner > 0], axis=0)
        diff = np.sqrt(((crop - body) ** 2).sum(axis=2)) * CONTRAST_GAIN
        contrast = np.clip(diff, 0, 255).astype(np.uint8)
        contrast[inner == 0] = 0
        cut = cv2.dilate(edge[y : y + bh, x : x + bw], ellipse, iterations=2) & blob.mask
        rect = cv2.minAreaRect(blob.contour)
        fill = blob.area / max(rect[1][0] * rect[1][1], 1.0)
        rim = cv2.subtract(inner, cv2.erode(inner, ellipse, iterations=2))
        rim[cut > 0] = 0
        views.append(DieView(blob.box, contrast, cut, rim, blob.area, fill))
    return views


class DiceReader:
    """Reads the dice in BGR frames. `kind` is "auto", "d6" or "d8"; `profile` adds learned dice."""

    def __init__(self, kind: str = "auto", profile: Profile | None = None, use_built_in: bool = True) -> None:
        if kind not in ("auto", "d6", "d8"):
            raise ValueError(f"kind must be auto, d6 or d8, not {kind!r}")
        self.kind = kind
        base = built_in() if use_built_in else Profile()
        self.profile = base.merged(profile) if profile is not None else base
        self._numerals = self.profile.subset("n:")
        self._symbols = self.profile.subset("sym:")

    # -- one die -------------------------------------------------------------------------

    def read_pips(self, view: DieView, glyphs: list[G.Glyph]) -> Die | None:
        """The die read as a pip d6, or None when its marks are not pips."""
        found = P.find_pips(view.contrast, view.area, view.cut)
        if not 1 <= len(found) <= 6:
            return None
        size = float(np.median([p.size for p in found]))
        # every sizeable mark on the die must be one of the pips
        unexplained = 0
        for g in glyphs:
            has_pip = any(
                g.box[0] - 1 <= p.centre[0] <= g.box[0] + g.box[2] + 1
                and g.box[1] - 1 <= p.centre[1] <= g.box[1] + g.box[3] + 1
                for p in found
            )
            if not has_pip and g.extent > 0.6 * size:
                unexplained += 1
            elif has_pip and g.extent > 2.2 * size and len(found) == 1:
                return None  # a numeral or symbol, not a pip
        fit = P.layout_fit(found)
        confidence = fit * (0.6**unexplained)
        value = len(found) if confidence >= MIN_CONFIDENCE else None
        return Die("d6", value, confidence, view.box, note="" if value else "pips out of pattern")

    @staticmethod
    def pick_glyphs(view: DieView, glyphs: list[G.Glyph]) -> tuple[G.Glyph | None, G.Glyph | None]:
        """The numeral (the big sign nearest the die's centre) and the symbol beside it, if any."""
        if not glyphs:
            return None, None
        h, w = view.contrast.shape
        centre = np.array([w / 2.0, h / 2.0])

        def centrality(g: G.Glyph) -> float:
            return float(np.hypot(*(np.array(g.centre) - centre))) / view.side - 0.5 * g.extent / view.side

        numeral = min(glyphs, key=centrality)
        near = [g for g in glyphs if g is not numeral
                and np.hypot(*(np.array(g.centre) - np.array(numeral.centre))) < 1.3 * numeral.extent]
        symbol = min(near, key=lambda g: np.hypot(*(np.array(g.centre) - np.array(numeral.centre)))) if near else None
        return numeral, symbol

    def glyphs_of(self, view: DieView) -> tuple[G.Glyph | None, G.Glyph | None]:
        return self.pick_glyphs(view, self.marks_of(view))

    def read_glyphs(self, view: DieView, glyphs: list[G.Glyph]) -> Die:
        """The die read from its numeral (and astro symbol) against the profile."""
        kind = self.kind if self.kind != "auto" else ("d8" if view.shape_fill < D8_SHAPE_FILL else "d6")
        if not glyphs or len(self._numerals[1]) == 0:
            return Die(kind, None, 0.0, view.box, note="no numeral found" if glyphs else "no marks")
        numeral, sym = self.pick_glyphs(view, glyphs)
        assert numeral is not None
        label, confidence = G.nearest(G.describe(numeral.mask), *self._numerals)
        value = int(label.split(":")[1])
        symbol = None
        if sym is not None and len(self._symbols[1]):
            sym_label, sym_conf = G.nearest(G.describe(sym.mask), *self._symbols)
            if sym_conf >= MIN_CONFIDENCE:
                symbol = sym_label.split(":")[1]
                if ASTRO_BY_VALUE.get(value) != symbol:
                    # the symbol contradicts the numeral: take the reading they agree on, if any is close
                    confidence *= 0.3
        if value > FACES[kind]:
            if self.kind == "auto" and value <= FACES["d8"]:
                kind = "d8"
            else:
                confidence = 0.0
        if confidence < MIN_CONFIDENCE:
            return Die(kind, None, confidence, view.box, symbol, note=f"doubtful {label}")
        return Die(kind, value, confidence, view.box, symbol)

    @staticmethod
    def marks_of(view: DieView) -> list[G.Glyph]:
        """The signs on a die: marks grouped into glyphs, less its edges and shading."""
        mask = (view.contrast > MARK_CONTRAST).astype(np.uint8) * 255
        # marks that run into the die's outline are its edges and shading, not signs on its face
        n, labels = cv2.connectedComponents(mask)
        if n > 1:
            on_rim = np.unique(labels[(view.rim > 0) & (mask > 0)])
            mask[np.isin(labels, on_rim[on_rim > 0])] = 0
        return G.group_marks(mask, view.side, max(3.0, 0.003 * view.area))

    def read_view(self, view: DieView) -> Die | None:
        """The die `view` shows, or None when nothing on it is a sign."""
        glyphs = self.marks_of(view)
        if not glyphs:
            return None  # nothing on it: not a die we can see
        if self.kind in ("auto", "d6"):
            die = self.read_pips(view, glyphs)
            if die is not None:
                return die
        return self.read_glyphs(view, glyphs)

    # -- a frame -------------------------------------------------------------------------

    def read(self, frame: np.ndarray) -> Reading:
        """Every die in a BGR frame, boxes in the frame's own pixels, top to bottom."""
        frame = check_frame(frame)
        top, bottom, left, right = S.content_window(frame)
        frame = frame[top:bottom, left:right]
        scale = scale_for(frame.shape)
        work = frame if scale == 1.0 else cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        tile = S.is_tile(frame.shape)
        dice = []
        for view in die_views(work, tile):
            die = self.read_view(view)
            if die is None:
                continue
            x, y, w, h = view.box
            box = (int(round(x / scale)) + left, int(round(y / scale)) + top,
                   int(round(w / scale)), int(round(h / scale)))
            dice.append(Die(die.kind, die.value, die.confidence, box, die.symbol, die.note))
        dice.sort(key=lambda d: (d.box[1] + d.box[3] / 2, d.box[0]))
        return Reading(tuple(dice))
