#!/usr/bin/env python3
"""Print the four ArUco markers that mark the dice tray's corners, on one A4 sheet at 300 dpi.

    .venv/bin/python calibration/make_markers.py markers.png [--mm 30]

Cut them out and stick them at the tray's corners, outside the rolling area, with id 0 at the
top-left as the camera sees it, then 1 top-right, 2 bottom-right, 3 bottom-left (docs/vision.md).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from assistant.vision.tray import CORNER_IDS, DICTIONARY  # noqa: E402

NAMES = ("0 top-left", "1 top-right", "2 bottom-right", "3 bottom-left")


def sheet(mm: float = 30.0, dpi: int = 300) -> np.ndarray:
    px_per_mm = dpi / 25.4
    page = np.full((int(297 * px_per_mm), int(210 * px_per_mm)), 255, np.uint8)
    side = int(mm * px_per_mm)
    dictionary = cv2.aruco.getPredefinedDictionary(DICTIONARY)
    for n, marker in enumerate(CORNER_IDS):
        image = cv2.aruco.generateImageMarker(dictionary, marker, side)
        x = int((20 + (n % 2) * 100) * px_per_mm)
        y = int((30 + (n // 2) * 120) * px_per_mm)
        page[y : y + side, x : x + side] = image
        cv2.putText(page, NAMES[n], (x, y + side + int(8 * px_per_mm)), cv2.FONT_HERSHEY_SIMPLEX,
                    1.2, 0, 3, cv2.LINE_AA)
    return page


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--mm", type=float, default=30.0, help="marker side in millimetres")
    args = parser.parse_args()
    cv2.imwrite(str(args.out), sheet(args.mm))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
