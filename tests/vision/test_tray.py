"""The tray: found by its ArUco corner markers, warped to a square top view; else the whole frame."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from assistant.vision.dice import Die
from assistant.vision.matching import centre, inside
from assistant.vision.reader import DiceReader
from assistant.vision.render import scene
from assistant.vision.tray import DICTIONARY, TrayFinder, TrayView

SIDE = 480
MARK = 80


def tray_picture(seed: int) -> tuple[np.ndarray, list[dict[str, Any]]]:
    """A top view of a tray with dice, with markers 0..3 just outside its corners."""
    # a matte grey tray, as docs/vision.md asks for: the test is of the tray, not of dice the tray's colour
    shot = scene(np.random.default_rng(seed), (SIDE, SIDE), count=3, style="pips", tilt=0.0,
                 background=(128, 128, 128))
    page = np.full((SIDE + 2 * MARK, SIDE + 2 * MARK, 3), 255, np.uint8)
    page[MARK : MARK + SIDE, MARK : MARK + SIDE] = shot.image
    dictionary = cv2.aruco.getPredefinedDictionary(DICTIONARY)
    places = [(0, 0), (SIDE + MARK, 0), (SIDE + MARK, SIDE + MARK), (0, SIDE + MARK)]
    for marker, (x, y) in enumerate(places):
        square = cv2.aruco.generateImageMarker(dictionary, marker, MARK - 30)
        page[y + 15 : y + MARK - 15, x + 15 : x + MARK - 15] = cv2.cvtColor(square, cv2.COLOR_GRAY2BGR)
    labels = [dict(d, box=[d["box"][0] + MARK, d["box"][1] + MARK, d["box"][2], d["box"][3]]) for d in shot.dice]
    return page, labels


def camera_view(page: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """The page as a camera at a slant sees it in a 640x480 frame, and that page -> frame homography."""
    s = page.shape[0]
    src = np.array([[0, 0], [s, 0], [s, s], [0, s]], np.float32)
    dst = np.array([[120, 40], [520, 40], [600, 460], [40, 460]], np.float32) + rng.uniform(-25, 25, (4, 2)).astype(np.float32)
    h = cv2.getPerspectiveTransform(src, dst)
    return cv2.warpPerspective(page, h, (640, 480), borderValue=(90, 90, 90)), h


def read_tray(seed: int) -> tuple[list[dict[str, Any]], list[Die], np.ndarray, TrayView]:
    """A tray of `seed` seen at a slant, found and read: its labels, the dice read (boxes in view
    pixels), the page -> frame homography and the tray's view.

    The tray is under test; the dice are found and read by the reader as at the table."""
    rng = np.random.default_rng(seed)
    page, labels = tray_picture(seed)
    frame, page_to_frame = camera_view(page, rng)
    view = TrayFinder(side=SIDE).find(frame)
    assert view.markers == 4 and view.homography is not None
    return labels, list(DiceReader().read(view.image).dice), page_to_frame, view


MISREAD, EXTRA = 4, 9  # over the 40 trays below


def test_the_tray_is_found_warped_and_its_dice_read_with_boxes_in_frame_pixels() -> None:
    """Trays of seeds 0 to 39: each die read lies, in frame pixels, on a labelled die; its value is right
    or withheld, but for a few: measured on 2026-12-06, 3 misread and 7 dice reported on a die another
    die is reported on (a pip of a big die taken for a die of its own); the first reader, 0 and 0."""
    misread = extra = 0
    for seed in range(40):
        labels, dice, page_to_frame, view = read_tray(seed)
        assert dice  # the boxes' way back to the frame is checked on every tray
        frame_to_page = np.linalg.inv(page_to_frame)
        owners = []
        for die in dice:
            c = cv2.perspectiveTransform(np.array([[centre(view.to_frame(die.box))]], np.float32), frame_to_page)[0, 0]
            owner = [i for i, label in enumerate(labels) if inside((float(c[0]), float(c[1])), label["box"])]
            assert len(owner) == 1, (seed, die)
            misread += die.value not in (labels[owner[0]]["value"], None)
            owners += owner
        extra += len(owners) - len(set(owners))
    assert misread <= MISREAD and extra <= EXTRA, (misread, extra)


def test_nearly_every_die_on_a_tray_is_found_and_read() -> None:
    """Over 100 trays (300 dice; seeds 0 to 99) nearly all the dice are read right, in frame pixels."""
    right = total = 0
    for seed in range(100):
        labels, dice, page_to_frame, view = read_tray(seed)
        total += len(labels)
        for label in labels:
            c = cv2.perspectiveTransform(np.array([[centre(label["box"])]], np.float32), page_to_frame)[0, 0]
            there = [d for d in dice if inside((float(c[0]), float(c[1])), view.to_frame(d.box))]
            right += len(there) == 1 and there[0].value == label["value"]
    assert total == 300 and right >= 0.93 * total  # measured 284 (the first reader: 297 or more)


def test_a_hidden_marker_keeps_the_view_and_none_means_the_whole_frame() -> None:
    page, labels = tray_picture(3)
    frame, page_to_frame = camera_view(page, np.random.default_rng(0))
    finder = TrayFinder(side=SIDE)
    full = finder.find(frame)
    hidden = frame.copy()
    corner = cv2.perspectiveTransform(np.array([[[SIDE + 1.5 * MARK, SIDE + 1.5 * MARK]]], np.float32), page_to_frame)[0, 0]
    cv2.circle(hidden, (int(corner[0]), int(corner[1])), 45, (90, 90, 90), -1)  # a hand over marker 2
    later = finder.find(hidden)
    assert full.homography is not None and later.homography is not None  # the four markers' view, kept
    assert later.markers == 3 and np.array_equal(later.homography, full.homography)
    # a fresh finder completes the fourth corner: the three seen land where they belong
    guess = TrayFinder(side=SIDE).find(hidden)
    assert guess.markers == 3 and guess.homography is not None
    inner = [[MARK - 15, MARK - 15], [SIDE + MARK + 15, MARK - 15], [MARK - 15, SIDE + MARK + 15]]  # markers' inner corners
    seen = cv2.perspectiveTransform(np.array([inner], np.float32),
                                    page_to_frame)
    mapped = cv2.perspectiveTransform(seen, guess.homography)[0]
    assert np.abs(mapped - np.array([[0, 0], [SIDE, 0], [0, SIDE]], np.float32)).max() < 12
    bare = np.full((480, 640, 3), 120, np.uint8)
    fallback = TrayFinder().find(bare)
    assert fallback.homography is None and fallback.image is bare


def test_the_printed_marker_sheet_is_found_by_the_tray_finder() -> None:
    import importlib.util
    from pathlib import Path

    script = Path(__file__).resolve().parents[2] / "calibration" / "make_markers.py"
    spec = importlib.util.spec_from_file_location("make_markers", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    page = module.sheet(mm=30.0, dpi=100)
    _, ids, _ = TrayFinder().detector.detectMarkers(page)
    assert ids is not None and sorted(int(i) for i in ids.ravel()) == [0, 1, 2, 3]


def test_watching_a_tray_without_markers_says_once_that_the_whole_frame_is_read() -> None:
    """A maker who asked for the tray (`--tray`) and whose camera sees no markers is told, once."""
    from assistant.vision.sources import RenderedSource
    from assistant.vision.watch import settled_views

    said: list[str] = []
    views = list(settled_views(RenderedSource(seed=3, rolls=2, moving=2, still=4), TrayFinder(), said.append))
    assert len(views) == 2 and all(view is not None and view.homography is None for _, _, view in views)
    assert said == ["render: no tray markers seen (0 of ids 0 to 3): reading the whole frame until they are "
                    "(docs/vision.md, \"Tray and settling\")"]
