"""Crop: each found die cut out for the face network, as it was cut in training.

A square around the box's centre, CONTEXT times the box's longer side, the picture's edge repeated
where the square leaves it, in colour (B, G, R), at SIDE pixels (calibration/train_reader.py cuts its
training crops with the same function, turned and scaled a little). Colour, not grey: fine-tuned on 5
tiles a face of the marbled d8, the same network read 96 % of the other tiles by its best guess in
colour, 71 % in grey.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

SIDE = 96  # the face network's input side, pixels
CONTEXT = 1.25  # crop side / the die's box's longer side

BoxF = tuple[float, float, float, float]


def colour(image: np.ndarray) -> np.ndarray:
    """`image` in B, G, R (grey converted; colour kept)."""
    return image if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)


def cut(image: np.ndarray, centre: tuple[float, float], side: float, angle: float = 0.0) -> np.ndarray:
    """The SIDE x SIDE view of `image` of a square `side` wide around `centre`, turned by `angle` degrees."""
    scale = SIDE / max(side, 1.0)
    m = cv2.getRotationMatrix2D(centre, angle, scale)
    m[0, 2] += SIDE / 2 - centre[0]
    m[1, 2] += SIDE / 2 - centre[1]
    flags = cv2.INTER_AREA if scale < 2 / 3 else cv2.INTER_LINEAR
    return cv2.warpAffine(image, m, (SIDE, SIDE), flags=flags, borderMode=cv2.BORDER_REPLICATE)


def crop(image: np.ndarray, box: BoxF, context: float = CONTEXT) -> np.ndarray:
    """The face network's view of the die in `box` (x, y, w, h): SIDE x SIDE x 3 uint8, B, G, R."""
    x, y, w, h = box
    return cut(colour(image), (x + w / 2.0, y + h / 2.0), max(w, h) * context)


def batch(image: np.ndarray, boxes: Sequence[BoxF], context: float = CONTEXT) -> np.ndarray:
    """The crops of `boxes` as the network's (N, 3, SIDE, SIDE) float32 input (B, G, R levels 0..255)."""
    c = colour(image)
    if not boxes:
        return np.zeros((0, 3, SIDE, SIDE), np.float32)
    return planes(np.stack([crop(c, b, context) for b in boxes]))


def planes(crops: np.ndarray) -> np.ndarray:
    """(N, SIDE, SIDE, 3) uint8 crops as the network's (N, 3, SIDE, SIDE) float32 input."""
    return np.ascontiguousarray(crops.transpose(0, 3, 1, 2), dtype=np.float32)
