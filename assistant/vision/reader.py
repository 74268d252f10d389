"""The dice reader: every die in a frame, with kind, value, confidence and box.

    frame -> without masked bands, at most 640 px (the working image: images.working)
          -> find (find.py): each die's whole box       | a picture that is one die, cropped close
          -> crop (crop.py): each box cut for reading   | (a tile): the picture is its box
          -> read (read.py): the face network's chances (the shipped network, or a profile's)
             (a die it is unsure of (doubt.doubtful) read again turned three ways, its chances the mean)
          -> doubt (doubt.py): no die, a value, or `None` where it is not sure
          -> Die(kind, value or None, confidence, box in the frame's pixels), in reading order
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from assistant.vision import crop, doubt
from assistant.vision.dice import Box, Die, Reading, in_rows
from assistant.vision.find import Finder
from assistant.vision.images import working
from assistant.vision.profile import Profile
from assistant.vision.read import FaceNet, Scores

BLANK = 4.0  # a tile whose grey varies less than this (standard deviation) shows one colour: no die
KINDS = ("auto", "d6", "d8")


def check_kind(kind: str) -> str:
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}, not {kind!r}")
    return kind


def to_frame(box: tuple[float, float, float, float], scale: float, left: int, top: int) -> Box:
    """A box of the working image in the frame's own pixels."""
    return (int(round(box[0] / scale)) + left, int(round(box[1] / scale)) + top,
            int(round(box[2] / scale)), int(round(box[3] / scale)))


class DiceReader:
    """Reads the dice in BGR frames. `kind` is "auto", "d6" or "d8"; `profile`: a table's own dice (`dice learn`)."""

    def __init__(self, kind: str = "auto", profile: Profile | None = None) -> None:
        self.kind = check_kind(kind)
        self.profile = profile
        self.finder = Finder(profile.finder, name=profile.name) if profile is not None and profile.finder else Finder()
        self.faces = FaceNet(profile.network, profile.name) if profile is not None else FaceNet()

    def warm(self) -> None:
        """Pay now what the first frame would: each network's first run."""
        self.read(np.full((480, 640, 3), 128, np.uint8))

    def scores(self, crops: np.ndarray) -> Scores:
        """The face network's chances for each crop, those of a die it is unsure of from a second look."""
        first = self.faces.scores(crops)
        return self.faces.again(crops, first, doubt.doubtful(first, self.kind))

    def read(self, frame: np.ndarray) -> Reading:
        """Every die in a BGR frame, boxes in the frame's own pixels, in reading order (`in_rows`)."""
        work, scale, left, top, tile = working(frame)
        if tile:
            if float(cv2.cvtColor(work, cv2.COLOR_BGR2GRAY).std()) < BLANK:
                return Reading()
            h, w = work.shape[:2]
            dice = doubt.judge(self.scores(crop.batch(work, [(0.0, 0.0, float(w), float(h))], context=1.0)),
                               [(0, 0, w, h)], self.kind, work.shape, keep=True)
        else:
            found = self.finder.finds(work)
            boxes = [f.box for f in found]
            whole: list[Box] = [(round(x), round(y), round(w), round(h)) for x, y, w, h in boxes]
            dice = doubt.judge(self.scores(crop.batch(work, boxes)), whole, self.kind, work.shape,
                               [f.score for f in found], maybe=[f.maybe for f in found])
        return Reading(in_rows([replace(d, box=to_frame(d.box, scale, left, top)) for d in dice]))
