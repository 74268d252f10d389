"""Find the dice tray by the ArUco markers printed at its corners and warp it to a square top view.

The markers are DICT_4X4_50 ids 0, 1, 2, 3 at the tray's top-left, top-right, bottom-right and
bottom-left corners, outside the rolling area (calibration/make_markers.py prints them). The
tray's corner is each marker's corner nearest the middle of the four. With three markers seen,
the last view found with all four is kept (the camera and the tray do not move; a hand hides a
marker), or, before there was one, the fourth corner is completed as a parallelogram; with fewer,
the last view is kept, and before there was any, the whole frame is used.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

DICTIONARY = cv2.aruco.DICT_4X4_50
CORNER_IDS = (0, 1, 2, 3)  # top-left, top-right, bottom-right, bottom-left


def detector() -> cv2.aruco.ArucoDetector:
    return cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(DICTIONARY), cv2.aruco.DetectorParameters())


@dataclass(frozen=True)
class TrayView:
    image: np.ndarray  # the tray seen from above (or the whole frame)
    homography: np.ndarray | None  # frame -> view; None when the whole frame is used
    markers: int  # how many corner markers were seen in this frame

    def to_frame(self, box: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
        """A box in view pixels as the bounding box of the same region in frame pixels."""
        if self.homography is None:
            return box
        x, y, w, h = box
        corners = np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], dtype=np.float32).reshape(-1, 1, 2)
        back = cv2.perspectiveTransform(corners, np.linalg.inv(self.homography)).reshape(-1, 2)
        x0, y0 = np.floor(back.min(axis=0)).astype(int)
        x1, y1 = np.ceil(back.max(axis=0)).astype(int)
        return (int(x0), int(y0), int(x1 - x0), int(y1 - y0))


def tray_corners(corners: list[np.ndarray], ids: np.ndarray | None) -> np.ndarray | None:
    """The tray's four corners (TL, TR, BR, BL) from detected markers, or None if too few."""
    if ids is None:
        return None
    found: dict[int, np.ndarray] = {}
    for quad, marker in zip(corners, ids.ravel()):
        if int(marker) in CORNER_IDS and int(marker) not in found:
            found[int(marker)] = quad.reshape(4, 2)
    if len(found) < 3:
        return None
    middle = np.mean([q.mean(axis=0) for q in found.values()], axis=0)
    points: dict[int, np.ndarray] = {}
    for marker, quad in found.items():
        points[marker] = quad[np.argmin(((quad - middle) ** 2).sum(axis=1))]
    if len(points) == 3:
        missing = next(i for i in CORNER_IDS if i not in points)
        opposite = CORNER_IDS[(missing + 2) % 4]
        left, right = CORNER_IDS[(missing + 1) % 4], CORNER_IDS[(missing + 3) % 4]
        points[missing] = points[left] + points[right] - points[opposite]
    return np.array([points[i] for i in CORNER_IDS], dtype=np.float32)


class TrayFinder:
    """Warps frames to a square top view of the tray; remembers the last view it could find."""

    def __init__(self, side: int = 640) -> None:
        self.side = side
        self.detector = detector()
        self.homography: np.ndarray | None = None

    def find(self, frame: np.ndarray) -> TrayView:
        gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        corners, ids, _ = self.detector.detectMarkers(gray)
        quad = tray_corners(list(corners), ids)
        seen = 0 if ids is None else len(set(int(i) for i in ids.ravel()) & set(CORNER_IDS))
        # with a marker hidden (a hand), the view found with all four is better than a guessed corner
        if quad is not None and (seen == 4 or self.homography is None):
            target = np.array([[0, 0], [self.side, 0], [self.side, self.side], [0, self.side]], dtype=np.float32)
            self.homography = cv2.getPerspectiveTransform(quad, target)
        if self.homography is None:
            return TrayView(frame, None, seen)
        view = cv2.warpPerspective(frame, self.homography, (self.side, self.side))
        return TrayView(view, self.homography, seen)
