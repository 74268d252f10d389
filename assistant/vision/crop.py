"""Crop: each found die cut out for the face network, as it was cut in training.

A square around the box's centre, CONTEXT times the box's longer side, the picture's edge repeated
where the square leaves it, in grey, at SIDE pixels (calibration/train_reader.py cuts its training
crops with the same function, turned and scaled a little).
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

SIDE = 64  # the face network's input side, pixels
CONTEXT = 1.25  # crop side / the die's box's longer side

BoxF = tuple[float, float, float, float]


def grey(image: np.ndarray) -> np.ndarray:
    """`image` in grey (BGR converted; grey kept)."""
    return image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)


def cut(image: np.ndarray, centre: tuple[float, float], side: float, angle: float = 0.0) -> np.ndarray:
    """The SIDE x SIDE view of `image` (grey) of a square `side` wide around `centre`, turned by `angle` degrees."""
    scale = SIDE / max(side, 1.0)
    m = cv2.getRotationMatrix2D(centre, angle, scale)
    m[0, 2] += SIDE / 2 - centre[0]
    m[1, 2] += SIDE / 2 - centre[1]
    flags = cv2.INTER_AREA if scale < 2 / 3 else cv2.INTER_LINEAR
    return cv2.warpAffine(image, m, (SIDE, SIDE), flags=flags, borderMode=cv2.BORDER_REPLICATE)


def crop(image: np.ndarray, box: BoxF, context: float = CONTEXT) -> np.ndarray:
    """The face network's view of the die in `box` (x, y, w, h): SIDE x SIDE uint8 grey."""
    x, y, w, h = box
    return cut(grey(image), (x + w / 2.0, y + h / 2.0), max(w, h) * context)


def batch(image: np.ndarray, boxes: Sequence[BoxF], context: float = CONTEXT) -> np.ndarray:
    """The crops of `boxes` as the network's (N, 1, SIDE, SIDE) float32 input (grey levels 0..255)."""
    g = grey(image)
    if not boxes:
        return np.zeros((0, 1, SIDE, SIDE), np.float32)
    return np.stack([crop(g, b, context) for b in boxes])[:, None].astype(np.float32)
