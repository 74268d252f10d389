"""The dice reader: every die in a frame, with kind, value, confidence and box.

    frame -> drop masked bands -> working size (at most 640 px)
          -> the learned detector (detector.py): every die's centre, its box, whether it leans
          -> per die, its box read by the face network refitted on a profile (faces.FaceReader;
             the shipped white pip d6, and the table's own beside them), and by the classical reading
             (`read_box_classically`) where that withholds a value, or without a face profile
             (a die that leans on another, or that neither can read: value None)
          -> Die(kind, value or None, confidence, box in the frame's pixels)

A picture that is one die, cropped close (a tile), is read as one box. Without the detector's
model (or with neither onnxruntime nor OpenCV's dnn module) frames fall back to the classical segmentation (classical.py):
    foreground (unlike the plain background) -> die-sized blobs -> per die: its own colour, a
    contrast map of what is unlike it -> pips (round, one size, d6 layout) or glyphs (numeral +
    astro symbol, via the profile). `ClassicalReader.read_view` is that reading of one region.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from assistant.vision import segment as S
from assistant.vision.classical import ClassicalReader, die_views, plausible
from assistant.vision.detector import Detection, DetectorError, DiceDetector
from assistant.vision.dice import CUT_NOTE, LEANS_NOTE, Box, Die, Reading, in_rows
from assistant.vision.errors import ImageError, ModelError, ProfileError
from assistant.vision.faces import FaceReader, check_kind
from assistant.vision.images import MIN_SIDE, check_frame
from assistant.vision.profile import Profile, built_in, shipped_faces
from assistant.vision.render import STYLE_OF_KIND, scene

LEANING = 0.5  # the detector's lean score above which a die is reported unreadable (it leans on another)
CUT = 0.1  # a die whose whole box lies this much outside the picture is cut by its edge: reported unreadable
BLANK = 4.0  # a tile whose grey varies less than this (standard deviation) shows one colour: no die
READ_MARGIN = 0.3  # the classical reading crops the die's box grown by this share on each side
LEAN = 0.5  # the close-up d8 network's chance, at least, of a d8 numeral the classical reading matched
PART_OF = {1: 2, 3: 6}  # a face reader's guess seen on part of a face: one pip of a 2, one row of a 6


def scale_for(shape: tuple[int, ...]) -> float:
    """The factor that brings a frame to the working size (never enlarging)."""
    return min(1.0, S.WORK_SIDE / max(shape[:2]))


def to_frame(box: Box, scale: float, left: int, top: int) -> Box:
    """A box of the working image in the frame's own pixels (`DiceReader.working`'s scale and offsets)."""
    return (int(round(box[0] / scale)) + left, int(round(box[1] / scale)) + top,
            int(round(box[2] / scale)), int(round(box[3] / scale)))


class DiceReader:
    """Reads the dice in BGR frames. `kind` is "auto", "d6" or "d8"; `profile` adds learned dice."""

    def __init__(self, kind: str = "auto", profile: Profile | None = None, use_built_in: bool = True,
                 detector: DiceDetector | None | bool = True, threshold: float | None = None) -> None:
        """`detector`: True loads the learned detector when it is there (else the classical
        segmentation is used), False always uses the classical one, or pass a DiceDetector.
        `threshold`: the detector's centre threshold (None: its default, or a table's calibration)."""
        self.kind = check_kind(kind)
        # the white pip d6 photos that ship with Nova Table: they teach the face networks beside a table's own dice
        shipped = shipped_faces() if use_built_in else Profile()
        base = built_in() if use_built_in else Profile()
        self.profile = base.merged(profile if profile is not None else shipped)
        self.classical = ClassicalReader(self.kind, self.profile)  # where the face network withholds, or is absent
        self._detector: DiceDetector | None | bool = detector
        self._threshold = threshold
        if isinstance(detector, DiceDetector) and threshold is not None:
            detector.threshold = threshold
        self.problem: str | None = None  # what the reader does without (a model missing or broken), if anything
        # the face network reads the boxes only with a profile learned by it (the shipped one, and
        # the table's own from `nova-table dice learn`): its bare head is less sure (docs/vision.md)
        self.faces: FaceReader | None = None
        if (profile is not None and profile.embeddings()[1]) or shipped.embeddings()[1]:
            try:
                self.faces = FaceReader(kind, profile, shipped=shipped)  # a given profile's problem is said at once
            except (ModelError, ProfileError) as bad:
                if profile is not None:
                    raise
                self.problem = f"{bad}; reading values by the classical reading instead"
            else:
                self.problem = self.faces.problem

    @property
    def values_by(self) -> str:
        """What reads each die's value: the face network refitted on a profile, or the classical reading."""
        if self.faces is not None:
            closer = ", d8 by the close-up d8 network" if self.faces.d8 is not None and self.kind != "d6" else ""
            networks = "face networks" if self.faces.second is not None else "face network"
            return f"{networks} refitted on the profile{closer} (classical reading where it withholds)"
        return "classical reading of each box"

    @property
    def detector(self) -> DiceDetector | None:
        """The learned detector, loaded on first use; None when absent or switched off."""
        if self._detector is True:
            try:
                self._detector = DiceDetector(threshold=self._threshold)
            except (FileNotFoundError, DetectorError) as bad:
                # no model file, a corrupt one, or an OpenCV without dnn: the classical segmentation
                self._detector = None
                self.problem = f"{bad}; finding dice by the classical segmentation instead"
        return self._detector if isinstance(self._detector, DiceDetector) else None

    def warm(self) -> None:
        """Pay now what the first frames would: the detector's loading (what is missing is then in
        `problem`), OpenCV's colour tables, which its first Lab conversion in a process builds
        (about 0.2 s here) when the classical reading is first needed, and the networks' first
        runs (one rendered frame of the dice this reader reads, read and thrown away)."""
        self.detector
        S.to_lab(np.zeros((1, 1, 3), np.uint8))
        self.read(scene(np.random.default_rng(0), (640, 480), count=4, style=STYLE_OF_KIND[self.kind]).image)

    # -- a frame -------------------------------------------------------------------------

    @property
    def threshold(self) -> float | None:
        """The detector's centre threshold in use (None without the detector)."""
        return self.detector.threshold if self.detector is not None else None

    @staticmethod
    def working(frame: np.ndarray) -> tuple[np.ndarray, float, int, int, bool]:
        """The frame without masked bands, at working size: (image, scale, left, top, is a tile)."""
        frame = check_frame(frame)
        h, w = frame.shape[:2]
        top, bottom, left, right = S.content_window(frame)
        frame = frame[top:bottom, left:right]
        scale = scale_for(frame.shape)
        if min(frame.shape[:2]) * scale < MIN_SIDE:  # a strip: at the working size its short side would go
            raise ImageError(f"frame: too long and narrow ({w}x{h} pixels) to hold a die at {S.WORK_SIDE} pixels")
        work = frame if scale == 1.0 else cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        return work, scale, left, top, S.is_tile(frame.shape)

    def find(self, frame: np.ndarray) -> list[Detection]:
        """What the detector finds in a frame, boxes in the frame's pixels, before any reading
        (none for a tile, or without the detector)."""
        work, scale, left, top, tile = self.working(frame)
        if tile or self.detector is None:
            return []
        return [Detection(d.score, (d.centre[0] / scale + left, d.centre[1] / scale + top),
                          to_frame(d.top, scale, left, top), to_frame(d.box, scale, left, top), d.leaning, d.cut)
                for d in self.detector.detect(work)]

    def read(self, frame: np.ndarray) -> Reading:
        """Every die in a BGR frame, boxes in the frame's own pixels, in reading order (`in_rows`)."""
        work, scale, left, top, tile = self.working(frame)
        if tile:
            dice = self.read_tile(work)
        elif self.detector is not None:
            dice = self.read_detected(work, self.detector.detect(work))
        else:
            dice = self.read_segmented(work)
        return Reading(in_rows([replace(die, box=to_frame(die.box, scale, left, top)) for die in dice]))

    def read_boxes(self, work: np.ndarray, boxes: list[Box], tops: list[Box] | None = None) -> list[Die | None]:
        """What each box of `work` shows: with a face profile, the face reader's answer (one batch),
        and the classical reading where the face reader withholds a value; else the classical reading.
        `tops`: the dice's top faces' boxes, for the face reader's second look: the detector gives
        them for the boxes of a frame; a tile (the picture is the die) has none. Each die's box is the box given."""
        if self.faces is None:
            return [self.read_box_classically(work, box) for box in boxes]
        read = self.faces.read_many(work, boxes, tops=tops)
        for i, (die, box) in enumerate(zip(read, boxes)):
            if die is None or die.value is None:
                other = self.read_box_classically(work, box)
                if other is not None and other.value is not None and (doubt := self.doubt(work, other, die,
                                                                                          tops is not None)):
                    other = replace(other, value=None, note=doubt)
                read[i] = other if other is not None and (other.value is not None or die is None) else die
        return read

    def doubt(self, work: np.ndarray, die: Die, face: Die | None, framed: bool) -> str | None:
        """Why the value the classical reading gave `die`, where the face reader withheld one (`face`),
        may not stand. One dark mark counted as a pip is any mark (a numeral, one pip of a bigger
        face): a 1 only if the face reader leaned to 1 too, and in a frame (`framed`: a detector's
        box, not a tile) only if it saw a 1 surely there (withheld by its wider look): rendered
        dice at a slant had 21 of 25 such 1s wrong, a numeral or one pip of another face. A d8
        numeral matched by shape stands only where the close-up d8 network leans to it too, with at
        least LEAN of its chance (not a shaken die's near-even spread): alone,
        the matching misreads blurred and glaring numerals (chosen on rendered hard views and webcam
        TRAIN: docs/vision-history.md). In a frame, pips counted stand only where the face reader
        leaned to that value too, or to the part of it a box slipped onto one pip or one row shows
        (PART_OF: a 2 it saw as a 1, a 6 as a 3): at a slant the count takes in a side face's pips,
        and alone it misread 22 of the 33 dice it gave on rendered slanted scenes; and no reading by
        method stands in a frame where the face reader took the die for another kind (a d6 numeral
        matched on a d8: twenty-seventh session, docs/vision-history.md)."""
        assert self.faces is not None
        if die.note == "pips" and die.value == 1 and (face is None or face.guess != 1
                                                      or framed and face.confidence < self.faces.threshold):
            return "one mark, and no (sure) 1 to the face reader"
        if framed:  # the face reader's doubtful kind and guess must bear a reading by method out
            guess = None if face is None else face.guess
            if face is not None and face.kind != die.kind:
                return f"read as a {die.kind} by method, the face reader took it for a {face.kind}"
            if die.note == "pips" and guess != die.value and PART_OF.get(guess or 0) != die.value:
                return f"{die.value} pips counted, the face reader " + (f"leaned to {guess}" if guess else "saw no face")
        if die.kind == "d8" and self.faces.d8 is not None:
            close, _ = self.faces.read_closer(work, [die.box])
            leaning = int(np.argmax(close[0, 1:])) + 1
            if leaning != die.value:
                return f"numeral matched as {die.value}, the close-up d8 network leans to {leaning}"
            if close[0, leaning] < LEAN:
                return f"numeral matched as {die.value}, the close-up d8 network gives it only {close[0, leaning]:.2f}"
        return None

    def read_box_classically(self, work: np.ndarray, box: Box) -> Die | None:
        """The classical reading of one box: the die cut out with a margin of its background,
        segmented as a tile, read by `ClassicalReader.read_view`."""
        x, y, bw, bh = box
        h, w = work.shape[:2]
        mx, my = READ_MARGIN * bw, READ_MARGIN * bh
        x0, y0 = max(0, int(round(x - mx))), max(0, int(round(y - my)))
        x1, y1 = min(w, int(round(x + bw + mx))), min(h, int(round(y + bh + my)))
        if x1 - x0 < 8 or y1 - y0 < 8:
            return None
        views = die_views(np.ascontiguousarray(work[y0:y1, x0:x1]), True)
        die = self.classical.read_view(views[0]) if views else None
        return None if die is None else replace(die, box=box)

    def read_tile(self, work: np.ndarray) -> list[Die]:
        """A picture that is one die, cropped close: it is reported, read or not; one of a single
        colour throughout (a crop of bare table, a blank picture) holds no die."""
        h, w = work.shape[:2]
        if float(cv2.cvtColor(work, cv2.COLOR_BGR2GRAY).std()) < BLANK:
            return []
        (die,) = self.read_boxes(work, [(0, 0, w, h)])
        if die is None:
            return [Die(self.classical.unread_kind, None, 0.0, (0, 0, w, h), note="no marks")]
        return [die]

    def read_detected(self, work: np.ndarray, found: list[Detection]) -> list[Die]:
        """The dice the detector found, each read by the face reader on its own box (working pixels).

        Whether a die is there is the detector's call (its threshold was chosen on held-out frames);
        what it shows is the face reader's. A die the face reader cannot read, one that leans on
        another (its top face is not the face that counts), or one cut by the picture's edge is
        reported with value None: never a silent guess, and never silently dropped."""
        read = self.read_boxes(work, [det.box for det in found], [det.top for det in found]) if found else []
        dice = []
        for det, die in zip(found, read):  # each read die's box is already det.box
            if die is None:
                die = Die(self.classical.unread_kind, None, 0.0, det.box, note="no face read")
            if det.leaning > LEANING:
                die = Die(die.kind, None, min(die.confidence, 1.0 - det.leaning), det.box, note=LEANS_NOTE)
            elif det.cut > CUT:  # what shows of its face may be another number's part
                die = Die(die.kind, None, die.confidence, det.box, note=CUT_NOTE)
            dice.append(die)
        return dice

    def read_segmented(self, work: np.ndarray) -> list[Die]:
        """The classical path: regions unlike the background, each read by `read_view`."""
        dice = []
        for view in die_views(work, False):
            die = self.classical.read_view(view)
            if self.kind != "d8" and (die is None or die.value is None or not view.die_shaped):
                groups = self.classical.read_pip_groups(view)
                found = groups if groups else ([die] if die is not None else [])
            else:
                found = [die] if die is not None else []
            for die in found:
                if view.die_shaped or (die.value is not None and die.note == "pips"):
                    dice.append(die)
        return plausible(dice)
