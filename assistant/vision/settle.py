"""Tell when the dice have settled: the frames stop changing; then again only after something moves.

    moving ---(still for `still_frames` frames)---> settled: read once
      ^                                                |
      +------------(a frame differs again)-------------+
"""

from __future__ import annotations

import cv2
import numpy as np

SMALL = (160, 120)  # frames are compared at this size, blurred, so sensor noise does not count


STILL_FRAMES = 3  # frames in a row that hardly change: the tray is at rest


class SettleDetector:
    """Feed it every frame; `update` answers True exactly once each time the tray comes to rest."""

    def __init__(self, still_frames: int = STILL_FRAMES, pixel_change: int = 18, moving_share: float = 0.002) -> None:
        self.still_frames = still_frames
        self.pixel_change = pixel_change
        self.moving_share = moving_share
        self.previous: np.ndarray | None = None
        self.still = 0
        self.armed = True  # a first still view is read too

    def difference(self, frame: np.ndarray) -> float:
        """The share of the picture that changed since the last frame (0..1)."""
        small = cv2.GaussianBlur(cv2.cvtColor(cv2.resize(frame, SMALL, interpolation=cv2.INTER_AREA),
                                              cv2.COLOR_BGR2GRAY), (5, 5), 0)
        if self.previous is None:
            self.previous = small
            return 1.0
        changed = float(np.count_nonzero(cv2.absdiff(small, self.previous) > self.pixel_change)) / small.size
        self.previous = small
        return changed

    def update(self, frame: np.ndarray) -> bool:
        if self.difference(frame) > self.moving_share:
            self.still = 0
            self.armed = True
            return False
        self.still += 1
        if self.armed and self.still >= self.still_frames:
            self.armed = False
            return True
        return False
