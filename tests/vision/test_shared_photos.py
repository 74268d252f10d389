"""The reader on real photos from ../shared/dice (never in the repo): a guard against regressions.

The floors are below the benchmark's figures (docs/vision.md): they catch a reader that broke, not
one that is merely short of the issue's targets. Each test skips with a message when the photos are
not there.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from assistant.vision.find import SIDE, Finder
from assistant.vision.learn import TOP_TO_WHOLE, entries_of, examples, learn_examples
from assistant.vision.matching import match
from assistant.vision.reader import DiceReader
from tests.vision.conftest import shared_set

# floors under the figures measured on 2026-12-06 (docs/vision.md, "Figures"), each noted where it is used
FLOOR_TILES = 0.9
FLOOR_WEBCAM = 0.9
FLOOR_FOUND_OBLIQUE, FLOOR_OBLIQUE = 0.65, 0.5
FLOOR_TRAY = 0.9


def tally(name: str, limit: int, reader: DiceReader | None = None, start: int = 0) -> tuple[int, int, int, int]:
    """(labelled, found, right, misread) over `limit` pictures of a shared set, from picture `start`."""
    manifest = shared_set(name)
    reader = reader or DiceReader()
    labelled = found = right = misread = 0
    for line in manifest.read_text().splitlines()[start:start + limit]:
        entry = json.loads(line)
        image = cv2.imread(str(manifest.parent / entry["image"]))
        assert image is not None, entry["image"]
        dice = reader.read(image).dice
        pairs = match([d["box"] for d in entry["dice"]], [d.box for d in dice])
        labelled += len(entry["dice"])
        found += len(pairs)
        for i, j in pairs.items():
            if dice[j].value == entry["dice"][i]["value"]:
                right += 1
            elif dice[j].value is not None:
                misread += 1
    return labelled, found, right, misread


def test_top_down_pip_tiles_are_read() -> None:
    labelled, _, right, misread = tally("d6-pip-tiles", 120)
    assert right >= FLOOR_TILES * labelled and misread <= 0.02 * labelled


def test_oblique_webcam_dice_are_found_and_read() -> None:
    labelled, found, right, misread = tally("webcam-two-white-d6-valid", 40)
    assert found >= 0.95 * labelled and right >= FLOOR_WEBCAM * labelled and misread <= 0.03 * labelled


def test_dice_of_many_colours_seen_low_are_found_and_mostly_read() -> None:
    labelled, found, right, misread = tally("mixed-oblique-d6", 40)
    assert found >= FLOOR_FOUND_OBLIQUE * labelled and right >= FLOOR_OBLIQUE * labelled, (labelled, found, right, misread)


def as_whole_dice(manifest: Path, lines: slice, out: Path) -> Path:
    """Lines of a "top_face" manifest of top-down photos as `dice watch --save` labels them: whole-die boxes (these
    hold the whole die seen from above, the die's sides around it: TOP_TO_WHOLE times larger)."""
    rows = []
    for line in manifest.read_text().splitlines()[lines]:
        entry = json.loads(line)
        entry["image"], entry["box"] = str(manifest.parent / entry["image"]), "whole_die"
        for die in entry["dice"]:
            x, y, w, h = die["box"]
            grow = (TOP_TO_WHOLE - 1) / 2
            die["box"] = [round(x - grow * w), round(y - grow * h), round(TOP_TO_WHOLE * w), round(TOP_TO_WHOLE * h)]
        rows.append(json.dumps(entry))
    out.write_text("\n".join(rows) + "\n")
    return out


def test_a_table_that_calibrates_on_ten_photos_of_its_tray_reads_the_other_four(tmp_path: Path) -> None:
    """The tray's blue marbled dice with a skull on some 1s and an emblem on some 6s: faces no network saw."""
    pytest.importorskip("torch", reason="dice learn needs PyTorch (the test extra installs it)")
    manifest = shared_set("tray-topdown-d6-calibrate")
    learned = as_whole_dice(manifest, slice(0, 10), tmp_path / "learned.jsonl")
    profile = learn_examples(examples(entries_of(learned, lambda _said: None), lambda _said: None), ["tray"])
    labelled, found, right, misread = tally("tray-topdown-d6-calibrate", 4, DiceReader(profile=profile), start=10)
    _, _, right_before, _ = tally("tray-topdown-d6-calibrate", 4, DiceReader(), start=10)
    assert right >= FLOOR_TRAY * labelled and right > right_before, (labelled, found, right, misread, right_before)
    # its finder learned the tray too: at find.SIDE both find all 80 held-out dice, the profile's surer of them
    # (mean 0.69 against 0.44, measured) and with fewer finds that are no die (5 against 11)
    assert profile.finder is not None
    held = examples(entries_of(as_whole_dice(manifest, slice(10, 14), tmp_path / "held.jsonl"), lambda _said: None),
                    lambda _said: None).whole()
    shipped, tuned = (finds(finder, held) for finder in (Finder(), Finder(profile.finder)))
    assert len(held) == 4 and tuned[0] > shipped[0] + 0.1 and tuned[1] <= shipped[1], (shipped, tuned)


def finds(finder: Finder, pictures: list[tuple[np.ndarray, np.ndarray]]) -> tuple[float, int]:
    """How sure `finder` is, at find.SIDE, of the labelled dice it finds in `pictures` (the mean), and how many
    finds are no labelled die."""
    sure, false = [], 0
    for work, boxes in pictures:
        found = finder.at(work, SIDE)
        pairs = match(list(boxes), [f.box for f in found])
        sure += [found[j].score for j in pairs.values()]
        false += len(found) - len(pairs)
    return float(np.mean(sure)), false
