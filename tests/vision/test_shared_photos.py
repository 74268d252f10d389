"""The reader on real photos from ../shared/dice (never in the repo): a guard against regressions.

The floors are well below the benchmark's figures (docs/vision.md) and far below the issue's
targets: they catch a reader that broke, not one that is merely short of the goal. Each test
skips with a message when the photos are not there.
"""

from __future__ import annotations

import json

import cv2
import pytest

from assistant.vision.faces import grey_of
from assistant.vision.matching import match
from assistant.vision.reader import DiceReader
from tests.vision.conftest import shared_set


def tally(name: str, limit: int, reader: DiceReader | None = None, start: int = 0) -> tuple[int, int, int]:
    """(labelled, right, misread) over `limit` pictures of a shared set, from picture `start`."""
    manifest = shared_set(name)
    reader = reader or DiceReader()
    labelled = right = misread = 0
    for line in manifest.read_text().splitlines()[start:start + limit]:
        entry = json.loads(line)
        image = cv2.imread(str(manifest.parent / entry["image"]))
        assert image is not None, entry["image"]
        dice = reader.read(image).dice
        pairs = match([d["box"] for d in entry["dice"]], [d.box for d in dice])
        labelled += len(entry["dice"])
        for i, j in pairs.items():
            if dice[j].value == entry["dice"][i]["value"]:
                right += 1
            elif dice[j].value is not None:
                misread += 1
    return labelled, right, misread


def test_top_down_pip_tiles_are_read() -> None:
    labelled, right, misread = tally("d6-pip-tiles", 120)
    assert right >= 0.93 * labelled and misread <= 0.02 * labelled


def test_oblique_webcam_dice_are_mostly_read_and_seldom_misread() -> None:
    labelled, right, misread = tally("webcam-two-white-d6-valid", 40)
    assert right >= 0.65 * labelled and misread <= 0.1 * labelled


def test_marbled_d8_are_reported_unreadable_rather_than_guessed() -> None:
    labelled, right, misread = tally("d8-marbled-tiles", 60)
    assert misread <= 0.05 * labelled


FOUND_FLOOR, FALSE_CEILING = 0.9, 0.15  # the benchmark measured 97 % found, 0.02 false per image (all 86 frames)


def test_the_detector_finds_the_webcam_dice_with_few_false_ones() -> None:
    """The learned detector alone on the first 40 webcam -valid frames (never trained on)."""
    from assistant.vision.detector import MODEL

    if not MODEL.exists():
        pytest.skip(f"{MODEL} is not built")
    manifest = shared_set("webcam-two-white-d6-valid")
    reader = DiceReader()
    labelled = found = false = 0
    for line in manifest.read_text().splitlines()[:40]:
        entry = json.loads(line)
        image = cv2.imread(str(manifest.parent / entry["image"]))
        assert image is not None, entry["image"]
        dets = reader.find(image)
        pairs = match([d["box"] for d in entry["dice"]], [d.box for d in dets])
        labelled += len(entry["dice"])
        found += len(pairs)
        false += len(dets) - len(pairs)
    assert found >= FOUND_FLOOR * labelled and false <= FALSE_CEILING * 40


def test_the_shipped_profile_of_white_pip_dice_reads_photos_it_never_saw_better_than_the_classical_reading() -> None:
    shipped = DiceReader()
    assert shipped.faces is not None  # the face network reads, refitted on models/white_pips.profile.json
    labelled, right, misread = tally("webcam-two-white-d6-valid", 40, shipped)
    _, classical_right, _ = tally("webcam-two-white-d6-valid", 40, DiceReader(use_built_in=False))
    assert DiceReader(use_built_in=False).faces is None
    assert right >= 0.9 * labelled and misread <= 0.03 * labelled and right > classical_right


def test_a_box_on_one_pip_of_a_2_is_not_read_as_a_1() -> None:
    """webcam TRAIN two_37.jpg: the detector's box on its 2 sits on one pip; the first network's crop
    alone reads a sure 1 (0.99), seen 1.6 times wider it is not a 1, so that 1 is withheld
    (faces.look_wider); the reader, with both face networks, withholds it."""
    manifest = shared_set("webcam-two-white-d6-train")
    image = cv2.imread(str(manifest.parent / "images" / "two_37.jpg"))
    faces = DiceReader().faces
    assert image is not None and faces is not None
    box = (127, 323, 46, 49)  # the detector's box, as it finds it on this frame
    values, symbols = faces.probabilities(faces.embed(image, [box]), "auto")
    alone = faces.decide(values[0], symbols[0], box, faces.threshold, faces.trust)
    assert alone is not None and alone.value == 1  # what the one look says
    (wider,) = faces.look_wider(grey_of(image), [alone], "auto")
    assert wider is not None and wider.value is None and "wider" in wider.note
    (die,) = faces.read_many(image, [box])
    assert die is not None and die.value is None


def test_a_table_that_calibrates_on_a_few_photos_reads_the_others_no_worse() -> None:
    """A profile learned from mixed-oblique-d6's first 16 photos (many dice sets, all oblique) adds to
    the shipped white pip photos: the other 72 are read as well as without it (measured: 161 right and
    15 misread of 388 against 161 and 17; 164 / 20 against 166 / 21 before pips counted in a frame had
    to agree with the face reader). Learned alone, the refitted heads lost what the shipped photos
    taught: 67 right."""
    from assistant.vision.learn import entries_of, learn_entries

    manifest = shared_set("mixed-oblique-d6")
    profile = learn_entries(entries_of(manifest, lambda _said: None)[:16], report=lambda _said: None)
    labelled, right, misread = tally("mixed-oblique-d6", 72, DiceReader(), start=16)
    _, calibrated_right, calibrated_misread = tally("mixed-oblique-d6", 72, DiceReader(profile=profile), start=16)
    assert calibrated_right >= right - 0.03 * labelled and calibrated_misread <= misread + 0.01 * labelled
