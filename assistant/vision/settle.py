"""Tell when the dice have settled: the frames stop changing; then again only after something moves.

    moving ---(`still_frames` frames in a row look the same)---> settled: read once
      ^                                                            |
      +-----------(a frame differs from the view read)-------------+
"""

from __future__ import annotations

import cv2
import numpy as np

SMALL = (320, 240)  # frames are compared at this size, blurred, so sensor noise does not count
CELL = 16  # pixels of SMALL: a square where one small die moving shows (0.2% of the view would miss it)

STILL_FRAMES = 3  # frames in a row that look the same, the first included: the tray is at rest


class SettleDetector:
    """Feed it every frame; `update` answers True exactly once each time the tray comes to rest.

    Each frame is compared with the first of the run that looks the same (not with the frame before:
    a die sliding a few pixels a frame adds up), and after a reading with the view read, so a die
    that moves on is read again where it stops. Two views look the same when, their difference in
    overall brightness taken out (flickering light, the exposure), under `moving_share` of the view
    changed by more than `pixel_change` grey levels, and no CELL square holds `cell_pixels` of those.
    """

    def __init__(self, still_frames: int = STILL_FRAMES, pixel_change: int = 18, moving_share: float = 0.002,
                 cell_pixels: int = 8) -> None:  # fmt: skip
        if still_frames < 2:
            raise ValueError(f"still_frames: at least 2 frames make a view at rest, not {still_frames}")
        self.still_frames = still_frames
        self.pixel_change = pixel_change
        self.moving_share = moving_share
        self.cell_pixels = cell_pixels
        self.anchor: np.ndarray | None = None  # the first view of the run, or the view read
        self.still = 0  # frames in the run
        self.armed = True  # a first still view is read too

    def moved(self, small: np.ndarray) -> bool:
        """Whether `small` (a frame at SMALL, grey, blurred) differs from the run's first view."""
        if self.anchor is None:
            return True
        difference = small.astype(np.int16) - self.anchor.astype(np.int16)
        difference -= np.int16(np.median(difference))  # the light as a whole: not the dice
        changed = (np.abs(difference) > self.pixel_change).astype(np.float32)
        if changed.mean() > self.moving_share:
            return True
        cells = cv2.resize(changed, (SMALL[0] // CELL, SMALL[1] // CELL), interpolation=cv2.INTER_AREA)
        return bool(cells.max() * CELL * CELL >= self.cell_pixels)

    def update(self, frame: np.ndarray) -> bool:
        small = cv2.GaussianBlur(cv2.cvtColor(cv2.resize(frame, SMALL, interpolation=cv2.INTER_AREA),
                                              cv2.COLOR_BGR2GRAY), (5, 5), 0)
        if self.moved(small):
            self.anchor, self.still, self.armed = small, 1, True
            return False
        self.still += 1
        if self.armed and self.still >= self.still_frames:
            self.armed = False
            return True
        return False
