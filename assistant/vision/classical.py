"""The classical reading of one die-like region, without a network: pips (round, one size, in a
d6's layout) or glyphs (a numeral and an astro symbol, told by the profile's examples).

    die_views(image) -> per region: the die's own colour, a contrast map of what is unlike it
    ClassicalReader.read_view(view) -> pips (d6) or numeral + symbol (d8, numeral d6) -> Die

`reader.py` uses it where the face network withholds a value, where there is no face profile,
and for the whole frame when the learned detector is missing (the classical segmentation).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from assistant.vision import glyphs as G
from assistant.vision import pips as P
from assistant.vision import segment as S
from assistant.vision.dice import ASTRO_BY_VALUE, FACES, Die
from assistant.vision.profile import Profile


MARK_CONTRAST = 60  # contrast (Lab distance x CONTRAST_GAIN) that surely makes a pixel part of a mark
MIN_MARK_CONTRAST = 24  # and below which no pixel is a mark, however faint the die's signs
CONTRAST_GAIN = 1.5
BODY_CONTRAST = 55  # contrast below which a pixel is the die's own colour (its faces, not its signs)
HOPELESS_ASPECT, HOPELESS_FILL = 6.0, 0.25  # beyond these a region is not even dice in a row
MAX_ASPECT = 2.2  # a die's outline, even seen at a slant, is at most this much longer than wide
MIN_FILL = 0.5  # and fills at least this much of its minimum-area rectangle
HOPELESS = 0.15  # an unreadable region whose signs are this unlike any die's is not reported
SIGN_CONFIDENCE = 0.7  # numerals and symbols are read by likeness, so they must be surer than pips
MIN_CONFIDENCE = 0.5  # below this a die is reported unreadable (value None), never guessed
OFF_CENTRE = 0.15  # pips whose middle is further than this share of the face from its centre are doubtful
PIP_STEP = (0.75, 4.5)  # a d6's pip grid step, in pip diameters (about 1.3 to 2 on real dice)
HIDDEN_PIP_CONFIDENCE = 0.85  # a layout completed by one pip the picture's edge hides
GROUP_FIT = 0.8  # each die's part of the pips of touching dice must fit a layout this well
SYMBOL_SHARE = 0.12  # a second sign at least this share of the numeral's area is its symbol
TRIANGLE_FILL = 0.72  # a top face filling less of its min-area rectangle is a triangle: no pips there
D8_FILL = 0.83  # mean of outline and top-face fills of their min-area rectangles, below it a d8:
# a d6 from above is a square in a square (~0.9 and ~0.95), a d8 a hexagon (~0.76) round a triangle (~0.58)


@dataclass(frozen=True, eq=False)
class DieView:
    """One die-like region of the working image, ready to be read."""

    box: tuple[int, int, int, int]  # working-image pixels
    contrast: np.ndarray  # uint8, how unlike the die's own colour each pixel is (0 outside the die)
    cut: np.ndarray  # uint8, nonzero where the die meets the picture's edge
    rim: np.ndarray  # uint8, nonzero on a thin band just inside the die's outline
    inside: np.ndarray  # bool, the die's own pixels (contrast is 0 elsewhere, and may be 0 on it)
    area: float
    shape_fill: float
    die_shaped: bool = True
    tile: bool = False

    @property
    def side(self) -> float:
        return float(np.sqrt(self.area))

    def pips(self) -> list[P.Pip]:
        """The pips on it (found once, then remembered)."""
        cache = self.__dict__.setdefault("_pips", [])
        if not cache:
            cache.append(P.find_pips(self.contrast, self.area, self.cut))
        return list(cache[0])


@dataclass(frozen=True, eq=False)
class TopFace:
    glyphs: list[G.Glyph]  # the signs on it
    fill: float  # its hull's share of its min-area rectangle: ~1 for a square, ~0.5 for a triangle
    centre: tuple[float, float] | None = None  # of its min-area rectangle, in the die crop
    size: float = 0.0  # the square root of that rectangle's area
    ups: tuple[float, ...] = ()  # the turns (degrees) that would bring a sign on it upright


def ups(hull: np.ndarray, fill: float, rect_angle: float) -> tuple[float, ...]:
    """The turns that stand a sign upright on this face: towards each corner of a d8's triangle
    (its numerals point at a corner), along each side of a d6's square."""
    if fill < TRIANGLE_FILL:
        _, triangle = cv2.minEnclosingTriangle(hull.reshape(-1, 1, 2).astype(np.float32))
        if triangle is None:
            return ()
        corners = triangle.reshape(-1, 2)
        middle = corners.mean(axis=0)
        # turning by (direction's angle + 90) degrees brings that direction to straight up
        return tuple(float(np.degrees(np.arctan2(c[1] - middle[1], c[0] - middle[0]))) + 90.0 for c in corners)
    return tuple(-rect_angle + 90.0 * k for k in range(4))


def die_support(contrast: np.ndarray, mask: np.ndarray, core: np.ndarray) -> np.ndarray | None:
    """The convex hull of the body-coloured region that holds the die's middle, with a margin."""
    body = ((contrast < BODY_CONTRAST) & (mask > 0)).astype(np.uint8)
    n, labels = cv2.connectedComponents(body, connectivity=4)
    if n <= 1:
        return None
    overlap = np.bincount(labels[core > 0].ravel(), minlength=n)
    overlap[0] = 0
    best = int(np.argmax(overlap))
    if overlap[best] == 0:
        return None
    hull = np.zeros_like(mask)
    cv2.fillConvexPoly(hull, S.hull_of((labels == best).astype(np.uint8)), 255)
    # pips at the face's edge may break its outline: a margin of a few percent keeps them whole
    grow = max(1, int(round(0.05 * np.sqrt(float(np.count_nonzero(mask))))))
    ellipse = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * grow + 1, 2 * grow + 1))
    grown: np.ndarray = cv2.dilate(hull, ellipse) & mask
    return grown


def die_views(image: np.ndarray, tile: bool) -> list[DieView]:
    """Every die-like region of `image` (working size), with its contrast map."""
    fg = S.foreground(image, tile)
    h, w = image.shape[:2]
    if tile:
        min_area, max_area = 0.08 * h * w, float(h * w)
    else:
        min_area, max_area = 0.0003 * h * w, S.MAX_DIE_SHARE * h * w
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
        if not tile:
            (_, _), (rw, rh), _ = cv2.minAreaRect(blob.contour)
            if max(rw, rh) > HOPELESS_ASPECT * max(min(rw, rh), 1.0) or blob.area < HOPELESS_FILL * rw * rh:
                continue  # a cable or a seam: longer or emptier than even a row of touching dice
        crop = S.to_lab(image[y : y + bh, x : x + bw])
        shrink = max(1, int(round(0.04 * np.sqrt(blob.area))))
        inner = cv2.erode(blob.mask, ellipse, iterations=shrink)
        if not inner.any():
            continue
        # the die's own colour: the middle of it, where the top face is (signs are the minority there)
        core: np.ndarray = np.zeros_like(inner)
        cv2.circle(core, (bw // 2, bh // 2), max(2, int(0.3 * min(bw, bh))), 255, -1)
        core &= inner
        pixels = crop[core > 0] if core.any() else crop[inner > 0]
        body = np.median(pixels[:: max(1, len(pixels) // 400)], axis=0)  # a few hundred are plenty
        offset = crop - body.astype(np.float32)
        diff = cv2.sqrt(cv2.transform(offset * offset, np.ones((1, 3), np.float32))) * CONTRAST_GAIN
        contrast = np.clip(diff, 0, 255).astype(np.uint8)
        if not tile and int(contrast[inner > 0].max(initial=0)) < MIN_MARK_CONTRAST:
            continue  # nothing on it unlike its own colour: no pip, no numeral, so no die to read
        # the die itself: the hull of its body-coloured part around the middle (a die's faces are
        # convex), so that pips near its edge stay whole and its shadow stays out
        support = die_support(contrast, blob.mask, core)
        if support is not None and np.count_nonzero(support) >= 0.3 * np.count_nonzero(inner):
            inner = support
        contrast[inner == 0] = 0
        cut = cv2.dilate(edge[y : y + bh, x : x + bw], ellipse, iterations=2) & blob.mask
        rect = cv2.minAreaRect(blob.contour)
        fill = blob.area / max(rect[1][0] * rect[1][1], 1.0)
        sides = sorted(rect[1])
        # too long or too ragged for one die seen from above: a cable, a seam, a hand, or dice
        # run together; only pips in a die's layout are believed on such a region
        die_shaped = tile or (sides[1] <= MAX_ASPECT * max(sides[0], 1.0) and fill >= MIN_FILL)
        rim = cv2.subtract(inner, cv2.erode(inner, ellipse, iterations=2))
        rim[cut > 0] = 0
        views.append(DieView(blob.box, contrast, cut, rim, inner > 0, blob.area, fill, die_shaped, tile))
    return views


def ways_up(view: DieView, face: TopFace, kind: str) -> tuple[float, ...]:
    """The turns that may stand the die's numeral upright. When a d8's top triangle was not told
    from its side faces, the die's own hexagon still shows them (its corners are the triangle's
    and its neighbours')."""
    if kind == "d8" and face.fill >= TRIANGLE_FILL:
        return outline_ups(view)
    return face.ups


def outline_ups(view: DieView) -> tuple[float, ...]:
    """Turns towards each corner of the die's outline (a d8 from above: six), else every 30 degrees."""
    contours, _ = cv2.findContours(view.inside.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if contours:
        hull = cv2.convexHull(max(contours, key=cv2.contourArea))
        corners = cv2.approxPolyDP(hull, 0.04 * cv2.arcLength(hull, True), True).reshape(-1, 2)
        if 5 <= len(corners) <= 7:
            middle = corners.mean(axis=0)
            return tuple(float(np.degrees(np.arctan2(c[1] - middle[1], c[0] - middle[0]))) + 90.0 for c in corners)
    return tuple(float(a) for a in range(0, 360, 30))


def many_alike(glyphs: list[G.Glyph]) -> bool:
    """Three or more marks within a factor of two of each other's area: pips, not a numeral."""
    areas = sorted((g.area for g in glyphs), reverse=True)
    return len(areas) >= 3 and areas[2] >= 0.5 * areas[0]


def looks_like_d8(view: DieView, face: TopFace) -> bool:
    """A hexagon round a triangle (a d8 from above), not a square round a square (a d6)."""
    return (view.shape_fill + face.fill) / 2.0 < D8_FILL


def plausible(dice: list[Die]) -> list[Die]:
    """The dice, less unreadable regions that cannot be dice: far bigger than the dice read, or
    matching no sign at all. A die that is only doubtful stays, reported unreadable."""
    read = [d.box[2] * d.box[3] for d in dice if d.value is not None]
    typical = float(np.median(read)) if read else None
    kept = []
    for d in dice:
        if d.value is None:
            if d.confidence < HOPELESS:
                continue
            if typical is not None and d.box[2] * d.box[3] > 2.5 * typical:
                continue
        kept.append(d)
    return kept



class ClassicalReader:
    """Reads one die-like region (`DieView`) by its pips or its signs; `kind` is "auto", "d6" or
    "d8", `profile` holds the numerals, upright numerals and symbols learned ("n:", "u:", "sym:")."""

    def __init__(self, kind: str, profile: Profile) -> None:
        self.kind = kind
        self._numerals = profile.subset("n:")
        self._symbols = profile.subset("sym:")
        self._upright = profile.subset("u:")

    @property
    def unread_kind(self) -> str:
        """The kind reported for a die nothing could read: the reader's, or d6 when it reads any."""
        return self.kind if self.kind != "auto" else "d6"

    def read_pip_groups(self, view: DieView) -> list[Die]:
        """Dice that touch, read as one region: its pips parted die by die, each part a d6 layout."""
        found = view.pips()
        if len(found) < 2:
            return []
        parts = P.split_groups(found)
        if len(parts) < 2:
            return []
        dice = []
        for part in parts:
            fit = P.layout_fit(part)
            if not 1 <= len(part) <= 6 or fit < GROUP_FIT:
                return []  # one part is no die's face: do not guess at any
            size = float(np.median([p.size for p in part]))
            xs = [p.centre[0] for p in part]
            ys = [p.centre[1] for p in part]
            x0, y0 = int(min(xs) - 1.5 * size), int(min(ys) - 1.5 * size)
            x1, y1 = int(max(xs) + 1.5 * size), int(max(ys) + 1.5 * size)
            box = (view.box[0] + x0, view.box[1] + y0, x1 - x0, y1 - y0)
            dice.append(Die("d6", len(part), fit * 0.95, box, note="pips"))
        return dice

    def read_pips(self, view: DieView, glyphs: list[G.Glyph], face: TopFace | None = None) -> Die | None:
        """The die read as a pip d6, or None when its marks are not pips."""
        found = view.pips()
        if not 1 <= len(found) <= 6:
            return None
        size = float(np.median([p.size for p in found]))
        # every sizeable mark on the face must be one of the pips, and every pip a mark of its own size;
        # marks beyond the face (the pips of a side face, seen at a slant) do not count
        on_face = P.face_test(found)
        unexplained = 0
        for g in glyphs:
            gx, gy = int(g.centre[0]), int(g.centre[1])
            if not on_face((gx, gy)):
                continue
            inside = [p for p in found if g.box[0] - 1 <= p.centre[0] <= g.box[0] + g.box[2] + 1
                      and g.box[1] - 1 <= p.centre[1] <= g.box[1] + g.box[3] + 1]
            if inside and g.area > 1.6 * len(inside) * (np.pi * (size / 2 + 1) ** 2):
                return None  # a blob inside a bigger sign (a numeral's loop, a sun's disc): not pips
            if len(inside) == 1 and g.extent > 1.6 * size + 2:
                return None  # the thick part of a numeral (a 4's corner): a pip is a disc on its own
            if not inside and any(np.hypot(g.centre[0] - p.centre[0], g.centre[1] - p.centre[1]) < 0.9 * size
                                  for p in found):
                continue  # a sliver of a pip, cut off by the face's edge
            if not inside and g.extent > 1.5 * size:
                return None  # a sign bigger than a pip that holds none: a numeral or a symbol
            if not inside and g.extent > 0.6 * size:
                unexplained += 1
        fit = P.layout_fit(found)
        confidence = fit * (0.6**unexplained)
        step = P.pip_step(found)
        if step is not None and not PIP_STEP[0] * size <= step <= PIP_STEP[1] * size:
            confidence = 0.0  # pips of a d6 are spaced a pip or two apart: these marks are not
        if face is not None and face.centre is not None and face.size > 0 and (len(found) <= 2 or not view.cut.any()):
            # a d6 layout sits in the middle of its face: two stray blobs on a speckled die do not
            # (a die cut by the picture's edge shows only part of its face: there three or more pips
            # in a layout are evidence enough)
            middle = np.mean([p.centre for p in found], axis=0)
            off = float(np.hypot(*(middle - np.array(face.centre)))) / face.size
            confidence *= float(np.clip(1.0 - 3.0 * (off - OFF_CENTRE), 0.0, 1.0))
        value = len(found) if confidence >= MIN_CONFIDENCE else None
        if value is None and 2 <= len(found) <= 5 and unexplained <= 1:
            # the picture's edge may hide a pip, or the die's outline cut one into a broken mark:
            # if one more pip just there makes a d6 layout, the die shows that many (a 6 less a
            # corner is no 5: a 5 has its middle pip)
            broken = [(g.centre[0], g.centre[1]) for g in glyphs
                      if not any(g.box[0] - 1 <= p.centre[0] <= g.box[0] + g.box[2] + 1
                                 and g.box[1] - 1 <= p.centre[1] <= g.box[1] + g.box[3] + 1 for p in found)]
            hidden = P.hidden_pip(found, view.cut, broken)
            if hidden is not None:
                value, confidence = len(found) + 1, HIDDEN_PIP_CONFIDENCE * P.layout_fit(found + [hidden])
        return Die("d6", value, confidence, view.box, note="pips" if value else "pips out of pattern")

    @staticmethod
    def top_face(view: DieView) -> TopFace:
        """The die's top face (the even region around its centre) and the signs inside it."""
        inner = view.inside
        values = view.contrast[inner]
        if values.size < 10:
            return TopFace([], 1.0)
        otsu, _ = cv2.threshold(values.reshape(-1, 1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        sign_level = float(np.clip(otsu, MIN_MARK_CONTRAST, MARK_CONTRAST))
        face_level = float(np.clip(0.5 * sign_level, 12, 35))
        h, w = view.contrast.shape
        face = ((view.contrast < face_level) & inner).astype(np.uint8) * 255
        n, labels, stats, _ = cv2.connectedComponentsWithStats(face, connectivity=4)
        if n <= 1:
            return TopFace([], 1.0)
        core = np.zeros((h, w), np.uint8)
        cv2.circle(core, (w // 2, h // 2), max(2, int(0.25 * min(w, h))), 255, -1)
        overlap = np.bincount(labels[core > 0].ravel(), minlength=n)
        overlap[0] = 0
        top = int(np.argmax(overlap))
        if overlap[top] == 0:
            return TopFace([], 1.0)
        hull_points = S.hull_of((labels == top).astype(np.uint8))
        hull: np.ndarray = np.zeros((h, w), np.uint8)
        cv2.fillConvexPoly(hull, hull_points, 255)
        rect = cv2.minAreaRect(hull_points)
        fill = float(cv2.contourArea(hull_points)) / max(rect[1][0] * rect[1][1], 1.0)
        # signs sit inside the face, clear of its edges (whose shading is contrast too)
        hull = cv2.erode(hull, np.ones((3, 3), np.uint8), iterations=max(1, int(round(0.04 * view.side))))
        mask = ((view.contrast > sign_level) & (hull > 0)).astype(np.uint8) * 255
        # marks that run into the die's outline are its edges and shading, not signs on its face
        n, labels = cv2.connectedComponents(mask)
        if n > 1:
            on_rim = np.unique(labels[(view.rim > 0) & (mask > 0)])
            mask[np.isin(labels, on_rim[on_rim > 0])] = 0
        (cx, cy), (rw, rh), rect_angle = rect
        return TopFace(G.group_marks(mask, view.side, max(3.0, 0.003 * view.area)), fill, (cx, cy),
                       float(np.sqrt(max(rw * rh, 1.0))), ups(hull_points, fill, rect_angle))

    @staticmethod
    def sign_and_symbol(view: DieView, glyphs: list[G.Glyph]) -> tuple[G.Glyph | None, G.Glyph | None]:
        """The numeral (or emblem) on the top face, and the astro symbol beside it if any.

        The signs near the face's centre are grouped; the biggest is the numeral, and a second one
        of a symbol's size is the symbol. Without a second, the whole group is the numeral.
        """
        if not glyphs:
            return None, None
        h, w = view.contrast.shape
        centre = np.array([w / 2.0, h / 2.0])
        main = min(glyphs, key=lambda g: float(np.hypot(*(np.array(g.centre) - centre))) - 0.5 * g.extent)
        reach = 1.4 * main.extent
        group = [g for g in glyphs if np.hypot(*(np.array(g.centre) - np.array(main.centre))) <= reach]
        sign = G.merge(group)
        # the pieces of the group as drawn (not joined across small gaps): numeral, symbol, rays
        pieces = G.group_marks(sign.mask, 0.0, 2.0)
        pieces = [G.Glyph(p.mask, (p.box[0] + sign.box[0], p.box[1] + sign.box[1], p.box[2], p.box[3]), p.area)
                  for p in pieces]
        # the numeral is the tallest piece (a filled star can outweigh a thin 1 or 5, not outgrow it)
        ordered = sorted(pieces, key=lambda g: -g.extent)
        big = sorted(ordered[1:], key=lambda g: -g.area)
        if len(ordered) >= 2 and big[0].area >= SYMBOL_SHARE * ordered[0].area:
            numeral, symbol = ordered[0], big[0]
            ordered = [numeral, symbol] + [g for g in big[1:]]
            reach = 0.8 * symbol.extent  # a sun's rays are small pieces round its disc
            rays = [g for g in ordered[2:] if np.hypot(*(np.array(g.centre) - np.array(symbol.centre))) <=
                    reach + 0.5 * g.extent]
            rest = [g for g in ordered[2:] if g not in rays]
            return G.merge([numeral] + rest), G.merge([symbol] + rays)
        return sign, None

    def glyphs_of(self, view: DieView) -> tuple[G.Glyph | None, G.Glyph | None]:
        return self.sign_and_symbol(view, self.top_face(view).glyphs)

    def numeral_votes(self, sign: G.Glyph, face: TopFace) -> tuple[dict[str, float], float]:
        """The profile's vote on what the sign means: compared upright when the face tells which
        way is up and the profile has upright examples, else by the turn-proof descriptor."""
        examples, labels = self._upright
        if face.ups and len(labels):
            best: tuple[dict[str, float], float] = ({}, -1.0)
            for turn in face.ups:
                shares, closeness = G.votes(G.upright(sign.mask, turn), examples, labels, near=G.UPRIGHT_NEAR)
                if closeness > best[1]:
                    best = ({"n:" + k.split(":")[1]: v for k, v in shares.items()}, closeness)
            return best
        return G.votes(G.describe(sign.mask), *self._numerals)

    def read_glyphs(self, view: DieView, face: TopFace) -> Die:
        """The die read from the signs on its top face against the profile.

        On a Nova Aetas d8 the numeral and the astro symbol are read together: each value scores
        its numeral's vote times its symbol's vote (Sun 8/6/4, Star 7/5, Moon 1, none on 2/3),
        so a symbol that contradicts the numeral makes the die doubtful instead of misread.
        """
        kind = self.kind if self.kind != "auto" else ("d8" if looks_like_d8(view, face) else "d6")
        if not face.glyphs or len(self._numerals[1]) == 0:
            return Die(kind, None, 0.0, view.box, note="no numeral found" if face.glyphs else "no marks")
        if self.kind == "auto" and many_alike(face.glyphs):
            # several marks of one size on a square face are pips (blurred, or on a slant): a
            # numeral read from them would be a guess
            return Die(kind, None, 0.0, view.box, note="pips not readable")
        sign, sym = self.sign_and_symbol(view, face.glyphs)
        assert sign is not None
        face = replace(face, ups=ways_up(view, face, kind))
        shares, closeness = self.numeral_votes(sign, face)
        scores = {int(label.split(":")[1]): share for label, share in shares.items()}
        symbol = None
        if sym is not None and len(self._symbols[1]) and kind == "d8":
            sym_shares, sym_close = G.votes(G.describe(sym.mask), *self._symbols)
            symbol = max(sym_shares, key=lambda key: sym_shares[key]).split(":")[1]
            # a value with no symbol gets what a symbol unlike all three leaves over
            fit: dict[str | None, float] = {
                name.split(":")[1]: share * sym_close for name, share in sym_shares.items()
            }
            fit[None] = max(0.0, 1.0 - sym_close) * 0.5
            scores = {v: s * (fit.get(ASTRO_BY_VALUE.get(v), 0.0) + 0.02) for v, s in scores.items()}
        total = sum(scores.values())
        value = max(scores, key=lambda v: scores[v])
        confidence = (scores[value] / total if total > 0 else 0.0) * closeness
        if value > FACES[kind]:
            if self.kind == "auto" and value <= FACES["d8"]:
                kind = "d8"
            else:
                confidence = 0.0
        if confidence < SIGN_CONFIDENCE:
            return Die(kind, None, confidence, view.box, symbol, note=f"doubtful n:{value}")
        return Die(kind, value, confidence, view.box, symbol)

    def read_view(self, view: DieView) -> Die | None:
        """The die `view` shows, or None when nothing on it is a sign."""
        face = self.top_face(view)
        if self.kind == "d6" or (self.kind == "auto" and face.fill >= TRIANGLE_FILL):
            die = self.read_pips(view, face.glyphs, face)
            if die is not None:
                return die
        if not view.die_shaped:
            return None  # not shaped like one die: only pips in a d6 layout are believed there
        if not face.glyphs:
            # nothing on it: not a die we can see (unless the picture is that one die)
            return Die(self.unread_kind, None, 0.0, view.box, note="no marks") \
                if view.tile else None
        return self.read_glyphs(view, face)
