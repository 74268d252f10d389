"""Keeping the settled views a watch reads, as a manifest draft that `dice learn` takes once corrected."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from assistant.vision.dice import Die
from assistant.vision.errors import ManifestError, SourceError
from assistant.vision.learn import learn
from assistant.vision.manifest import Entry, read_manifest
from assistant.vision.snapshots import LEFT_OUT, READ, Snapshots, drawn
from assistant.vision.watch import watch


def kept_by_watch(folder: Path, seed: int) -> list[dict[str, Any]]:
    readings: list[dict[str, Any]] = []
    watch(f"render:{seed}", tray=False, kind="d6", profile_path=None, max_frames=36, emit=readings.append,
          save=folder)
    return readings


def test_each_settled_view_is_kept_with_what_was_read_and_a_second_watch_adds_to_it(tmp_path: Path) -> None:
    folder = tmp_path / "my-dice"
    first = kept_by_watch(folder, 3)
    assert [r["saved"] for r in first] == ["images/roll-0001.png", "images/roll-0002.png", "images/roll-0003.png"]
    lines = [json.loads(x) for x in (folder / "manifest.jsonl").read_text().splitlines()]
    for reading, line in zip(first, lines, strict=True):
        assert line["image"] == reading["saved"] and line["complete"] is True and line["box"] == "whole_die"
        assert [(d["kind"], d["value"], d["box"]) for d in line["dice"]] == \
            [(d["kind"], d["value"], d["box"]) for d in reading["dice"]]
        picture = cv2.imread(str(folder / line["image"]))
        seen = cv2.imread(str(folder / "seen" / Path(line["image"]).name))
        assert picture is not None and seen is not None
        assert picture.shape == seen.shape == (480, 640, 3)
        changed = np.any(picture != seen, axis=2)
        near = np.zeros_like(changed)
        for d in line["dice"]:
            x, y, w, h = d["box"]
            near[max(0, y - 30):y + h + 4, max(0, x - 4):x + w + 60] = True
            assert changed[y, x + w // 2] and changed[y + h, x + w // 2]  # the box's edges are drawn
        assert not changed[~near].any()  # the rest of the view is the picture read
    before = {p.name: p.read_bytes() for p in (folder / "images").iterdir()}
    second = kept_by_watch(folder, 4)
    assert [r["saved"] for r in second] == ["images/roll-0004.png", "images/roll-0005.png", "images/roll-0006.png"]
    assert all((folder / "images" / name).read_bytes() == data for name, data in before.items())
    assert len((folder / "manifest.jsonl").read_text().splitlines()) == 6
    # the draft is what `dice learn` takes: every line a labelled photo (a die not read would name its line)
    entries = list(read_manifest(folder / "manifest.jsonl"))
    assert all(isinstance(e, Entry) for e in entries), entries
    profile = learn(folder / "manifest.jsonl", report=lambda _s: None, steps=2)
    assert sum(profile.faces.values()) == sum(len(r["dice"]) for r in first + second)


def test_a_die_not_read_is_kept_as_null_and_learn_names_its_line(tmp_path: Path) -> None:
    image = np.full((120, 160, 3), 90, np.uint8)
    dice = [Die("d6", 5, 0.98, (10, 20, 30, 30)), Die("d8", None, 0.4, (80, 40, 36, 36), note="doubtful")]
    kept = Snapshots(tmp_path)
    assert kept.keep(image, dice) == "images/roll-0001.png"
    line = json.loads((tmp_path / "manifest.jsonl").read_text())
    assert line["dice"] == [{"kind": "d6", "value": 5, "box": [10, 20, 30, 30]},
                            {"kind": "d8", "value": None, "box": [80, 40, 36, 36]}]
    (entry,) = read_manifest(tmp_path / "manifest.jsonl")
    assert isinstance(entry, ManifestError) and "manifest.jsonl:1" in str(entry) and "got None" in str(entry)
    red, green = drawn(image, dice)[40, 80], drawn(image, dice)[20, 20]
    assert red[2] > 200 and green[1] > 150  # the die not read is boxed in red, the one read in green


def test_dice_left_out_are_drawn_as_such_and_make_the_line_incomplete(tmp_path: Path) -> None:
    image = np.full((120, 160, 3), 90, np.uint8)
    kept = Snapshots(tmp_path)
    kept.keep(image, [Die("d6", 5, 1.0, (10, 20, 30, 30))], left_out=[(80, 40, 36, 36)])
    line = json.loads((tmp_path / "manifest.jsonl").read_text())
    assert line["complete"] is False and [d["box"] for d in line["dice"]] == [[10, 20, 30, 30]]
    seen = cv2.imread(str(tmp_path / "seen" / "roll-0001.png"))
    assert seen is not None
    assert list(seen[40, 100]) == list(LEFT_OUT) and list(seen[20, 20]) == list(READ)  # each box's top edge
    assert not np.array_equal(seen[25:40, 80:160], image[25:40, 80:160])  # and its words above it


def test_a_folder_that_cannot_be_written_is_a_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    with pytest.raises(SourceError, match="a-file/kept: cannot keep the views there .*a-file is a file, not a folder"):
        Snapshots(blocker / "kept")
    (tmp_path / "views").mkdir()
    (tmp_path / "views" / "images").write_text("in the way")
    with pytest.raises(SourceError, match=r"views: cannot keep the views there \(.*views/images is a file, not a folder\)"):
        Snapshots(tmp_path / "views")
