"""`nova-table dice calibrate`: the table shows each face when asked; the views are labelled by the face asked."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from assistant.vision.dice import Die
from assistant.vision.guide import calibrate, refused, unmoved, views_kept
from assistant.vision.matching import match
from assistant.vision.profile import load
from assistant.vision.reader import DiceReader
from assistant.vision.render import STYLE_OF_KIND, Label, scene
from assistant.vision.snapshots import LEFT_OUT, Snapshots
from assistant.vision.sources import RenderedSource

ROOT = Path(__file__).resolve().parents[2]


class Table:
    """What was said, and the dice truly lying on the rendered tray each time a view was kept."""

    def __init__(self, source: RenderedSource) -> None:
        self.source = source
        self.said: list[str] = []
        self.truth: list[list[Label]] = []

    def say(self, line: str) -> None:
        self.said.append(line)
        if line.startswith("kept "):
            self.truth.append(list(self.source.labels))


def manifest_lines(folder: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (folder / "manifest.jsonl").read_text().splitlines()]


def test_each_face_is_asked_for_and_every_die_of_a_kept_view_is_labelled_with_it(tmp_path: Path) -> None:
    source = RenderedSource(seed=11)
    table = Table(source)
    short = calibrate(source, DiceReader("d8"), "d8", Snapshots(tmp_path), table.say, views=2)
    assert short == []
    asked = [line for line in table.said if line.startswith("d8 face")]
    assert asked[:3] == [
        "d8 face 1, view 1 of 2: turn every d8 so that 1 is on top, spread them on the tray (not touching), "
        "and take your hands away",
        "d8 face 1, view 2 of 2: turn every d8 so that 1 is on top, spread them on the tray (not touching), "
        "and take your hands away",
        "d8 face 2, view 1 of 2: turn every d8 so that 2 is on top, spread them on the tray (not touching), "
        "and take your hands away"]
    lines = manifest_lines(tmp_path)
    assert [line["image"] for line in lines] == [f"images/roll-{n:04d}.png" for n in range(1, 17)]
    assert len(table.truth) == 16
    for face, (line, truth) in enumerate(zip(lines, table.truth), start=0):
        value = face // 2 + 1
        assert {(d["kind"], d["value"]) for d in line["dice"]} == {("d8", value)}
        assert {d["value"] for d in truth} == {value}  # the stand-in showed the face asked
        pairs = match([d["box"] for d in truth], [d["box"] for d in line["dice"]])
        assert len(pairs) == len(truth) == len(line["dice"])  # each die on the tray labelled, nothing else
        assert (tmp_path / line["image"]).exists() and (tmp_path / "seen" / Path(line["image"]).name).exists()
    assert views_kept(tmp_path / "manifest.jsonl", "d8") == {v: 2 for v in range(1, 9)}
    assert views_kept(tmp_path / "manifest.jsonl", "d6") == {}


def test_a_calibration_cut_short_goes_on_from_the_faces_still_short(tmp_path: Path) -> None:
    first = Table(RenderedSource(seed=5, rolls=5))  # the camera is unplugged after 5 rolls
    short = calibrate(first.source, DiceReader("d6"), "d6", Snapshots(tmp_path), first.say, views=2)
    kept = views_kept(tmp_path / "manifest.jsonl", "d6")
    assert kept[1] == 2 and kept[3] <= 1 and short == [v for v in range(1, 7) if kept[v] < 2] and 6 in short
    before = (tmp_path / "manifest.jsonl").read_text()
    second = Table(RenderedSource(seed=6))
    assert calibrate(second.source, DiceReader("d6"), "d6", Snapshots(tmp_path), second.say, views=2) == []
    asked = [line for line in second.said if line.startswith("d6 face")]
    assert asked[0].startswith(f"d6 face {short[0]}, view {kept[short[0]] + 1} of 2")
    assert not any(line.startswith("d6 face 1,") for line in asked)
    assert (tmp_path / "manifest.jsonl").read_text().startswith(before)  # nothing kept before is lost
    assert views_kept(tmp_path / "manifest.jsonl", "d6") == {v: 2 for v in range(1, 7)}


def test_views_without_the_dice_said_are_not_kept(tmp_path: Path) -> None:
    class OneShort(Table):
        """Each face is first shown with one of the 3 dice missing; told so, the player brings it."""

        def say(self, line: str) -> None:
            super().say(line)
            self.source.count = 2 if line.startswith("d6 face") else 3

    table = OneShort(RenderedSource(seed=2))
    assert calibrate(table.source, DiceReader("d6"), "d6", Snapshots(tmp_path), table.say, views=1, dice=3) == []
    lines = manifest_lines(tmp_path)
    assert len(lines) == 6 and all(len(line["dice"]) == 3 for line in lines)
    refusals = [line for line in table.said if line.startswith("not kept")]
    # each face's first rest is refused; a die the detector misses in a later one is refused too
    assert refusals.count("not kept: 2 dice seen, 3 expected: spread them apart, all in view") >= 6
    assert all(re.fullmatch(r"not kept: [0-9] di(c)?e seen, 3 expected: spread them apart, all in view", line)
               for line in refusals)


def test_why_a_view_at_rest_is_not_kept() -> None:
    flat = Die("d6", 4, 0.99, (10, 10, 30, 30))
    cut = Die("d6", None, 0.5, (0, 60, 12, 30), note="cut by the picture's edge")
    assert refused([], None) == "no dice seen: are they on the tray, and in the light?"
    assert refused([flat, flat], 3) == "2 dice seen, 3 expected: spread them apart, all in view"
    assert refused([flat], 2) == "1 die seen, 2 expected: spread them apart, all in view"
    assert refused([cut, flat], 2) == "a die is partly out of view: spread them, all in view"
    assert refused([flat, flat, flat], 3) is None and refused([flat], None) is None
    assert refused([flat, flat], 2, [True, True]) == ("nothing changed since the view kept before: pick the dice "
                                                      "up, turn them, and spread them again")
    assert refused([flat, flat], 2, [True, False]) is None and refused([flat], None, [False]) is None


def test_a_die_neither_moved_nor_turned_since_the_view_before_is_told_apart_from_one_turned() -> None:
    """The same rendered dice at the same places showing 3, then 5 (pips) or 6: every one has changed;
    the same view again under camera noise: none has."""
    for style, other in (("pips", 5), ("astro", 6), ("numerals", 6)):
        for seed in range(3):
            three = scene(np.random.default_rng(seed), (640, 480), 4, style=style, value=3, noise=0.0)
            turned = scene(np.random.default_rng(seed), (640, 480), 4, style=style, value=other, noise=0.0)
            noisy = scene(np.random.default_rng(seed), (640, 480), 4, style=style, value=3, noise=4.0)
            assert [d["box"] for d in turned.dice] == [d["box"] for d in three.dice]  # the same places
            dice = [Die("d6", 3, 1.0, tuple(d["box"])) for d in three.dice]  # type: ignore[arg-type]
            assert unmoved(three.image, turned.image, dice) == [False] * 4
            assert unmoved(three.image, noisy.image, dice) == [True] * 4
            assert unmoved(None, three.image, dice) == [False] * 4


class Frames:
    """A camera that shows these rests in turn, the dice tumbling between them (other rendered dice), then ends."""

    name = "frames"
    live = False  # it ends: the calibration is over, not the camera lost

    def __init__(self, rests: list[np.ndarray]) -> None:
        self.frames: list[np.ndarray] = []
        for n, rest in enumerate(rests):
            self.frames += [scene(np.random.default_rng(900 + 10 * n + k), (640, 480), 3, noise=0.0).image for k in range(3)]
            self.frames += [rest] * 6

    def read(self) -> np.ndarray | None:
        return self.frames.pop(0) if self.frames else None


def test_dice_that_stayed_put_between_views_are_not_labelled_and_a_view_where_nothing_changed_is_not_kept(
        tmp_path: Path) -> None:
    """The left half of the tray is left as it was (dice not turned, or tokens that are no dice): its
    dice are left out of the second view; a third rest with nothing changed is not kept."""
    grey = (120, 120, 120)

    def half(seed: int) -> np.ndarray:
        return scene(np.random.default_rng(seed), (320, 480), 2, style="pips", value=1, noise=0.0, background=grey).image

    left, right, other_right = half(31), half(36), half(40)
    first, second = np.hstack([left, right]), np.hstack([left, other_right])
    table = Table(RenderedSource())  # only its `say`; the frames are these
    reader = DiceReader("d6")
    found = [len(reader.read(view).dice) for view in (first, second)]
    on_left = [sum(d.centre[0] < 320 for d in reader.read(view).dice) for view in (first, second)]
    assert on_left[0] == on_left[1] == 2 and found == [4, 4]
    short = calibrate(Frames([first, second, second]), reader, "d6", Snapshots(tmp_path), table.say, views=2)
    assert short == [2, 3, 4, 5, 6]  # the frames ended while face 2 was asked
    lines = manifest_lines(tmp_path)
    assert [len(line["dice"]) for line in lines] == [4, 2] and [line["complete"] for line in lines] == [True, False]
    assert all(die["box"][0] >= 320 for die in lines[1]["dice"])  # only the right half's dice, which changed
    orange = [np.all(cv2.imread(str(tmp_path / "seen" / f"roll-000{n}.png")) == LEFT_OUT, axis=2) for n in (1, 2)]
    assert not orange[0].any() and orange[1][:, :320].sum() > 100 and not orange[1][:, 320:].any()  # seen/ says so
    kept = [line for line in table.said if line.startswith("kept ")]
    assert kept[1] == ("kept images/roll-0002.png: 2 d6 showing 1; 2 left out, unchanged since the view kept "
                       "before (a die not turned, or no die)")
    assert "not kept: nothing changed since the view kept before: pick the dice up, turn them, and spread them again" \
        in table.said


def test_a_die_read_otherwise_before_calibration_is_pointed_out(tmp_path: Path) -> None:
    """A player who left a die showing another face is told where to look; the view is kept as asked."""
    class Careless(RenderedSource):
        def ask(self, kind: str, value: int) -> None:
            super().ask(kind, value)
            self.value = 5 if value == 1 else value  # the first face asked: every die left on 5

    table = Table(Careless(seed=4))
    calibrate(table.source, DiceReader("d6"), "d6", Snapshots(tmp_path), table.say, views=1)
    kept = [line for line in table.said if line.startswith("kept ")]
    assert {d["value"] for d in table.truth[0]} == {5} and len(table.truth[0]) == 5
    assert kept[0].startswith("kept images/roll-0001.png: 5 d6 showing 1; before calibration 5 of them read as "
                              "5, 5, 5, 5, 5: look at seen/roll-0001.png, and if a die did not show 1, correct its "
                              f"line in {tmp_path / 'manifest.jsonl'}")
    assert {d["value"] for d in manifest_lines(tmp_path)[0]["dice"]} == {1}  # kept as asked, for the player to mend


def command(tmp_path: Path, *args: str) -> subprocess.Popen[str]:
    # Ctrl-C as at a terminal, even where this runs in a background job, whose SIGINT is ignored and
    # would be inherited (Python then installs no KeyboardInterrupt handler)
    return subprocess.Popen([sys.executable, "-m", "assistant", "dice", "calibrate", *args], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def test_the_command_learns_a_profile_that_reads_the_table_s_dice(tmp_path: Path) -> None:
    run = command(tmp_path, "--kind", "d8", "--source", "render:8", "--views", "2", "--out", "mine.profile.json",
                  "--steps", "30")
    out, err = run.communicate(timeout=600)
    assert run.returncode == 0, err
    assert out == ""  # stdout stays free for JSON; the conversation is on stderr
    assert "watching render; keeping the views in mine-views" in err and "learned" in err and "held out" in err
    profile = load(tmp_path / "mine.profile.json")
    assert set(profile.faces) == {f"d8:{v}" for v in range(1, 9)}
    reader = DiceReader("d8", profile)
    shot = scene(np.random.default_rng(77), (640, 480), count=4, style=STYLE_OF_KIND["d8"])
    read = reader.read(shot.image).dice
    pairs = match([d["box"] for d in shot.dice], [d.box for d in read])
    assert sorted(int(str(d["value"])) for d in shot.dice) == sorted(read[j].value or 0 for j in pairs.values())


def test_a_source_that_ends_early_and_ctrl_c_keep_what_was_shown(tmp_path: Path) -> None:
    folder = tmp_path / "pictures"
    folder.mkdir()
    shot = scene(np.random.default_rng(0), (640, 480), count=2, style="pips", value=1)
    for n in range(5):  # one picture of two d6 showing 1, five times over: the dice at rest, once
        cv2.imwrite(str(folder / f"{n}.png"), shot.image)
    run = command(tmp_path, "--kind", "d6", "--source", f"folder:{folder}", "--out", "p.json", "--views", "1")
    _out, err = run.communicate(timeout=120)
    assert run.returncode == 1, err
    assert "kept images/roll-0001.png: 2 d6 showing 1" in err
    assert (f"folder:{folder} ended before every face was shown (views still to show: d6 faces 2, 3, 4, 5, 6); "
            "the views kept are in p-views: the same command goes on from there") in err
    assert not (tmp_path / "p.json").exists() and len(manifest_lines(tmp_path / "p-views")) == 1

    run = command(tmp_path, "--kind", "d6", "--source", "render:1", "--out", "q.json")
    deadline = time.monotonic() + 120
    assert run.stderr is not None
    while time.monotonic() < deadline:
        if run.stderr.readline().startswith("nova-table dice: kept images/roll-0002.png"):
            break
    run.send_signal(signal.SIGINT)
    _out, err = run.communicate(timeout=60)
    assert run.returncode == 130
    assert "stopped; the views kept so far are in q-views: the same command goes on from there" in err
    assert len(manifest_lines(tmp_path / "q-views")) >= 2


@pytest.mark.parametrize("views", ["0", "-1", "five"])
def test_a_number_of_views_that_is_no_number_is_refused(tmp_path: Path, views: str) -> None:
    run = command(tmp_path, "--kind", "d6", "--out", "p.json", "--views", views)
    _out, err = run.communicate(timeout=60)
    assert run.returncode == 2 and f"{views!r} is not a whole number of 1 or more" in err


def test_a_profile_path_that_is_a_folder_and_a_source_that_cannot_open_are_said_before_anything_is_kept(
        tmp_path: Path) -> None:
    """Said at once, not after every face was shown; and no views folder is left behind."""
    (tmp_path / "p.json").mkdir()
    run = command(tmp_path, "--kind", "d6", "--out", "p.json", "--source", "render")
    _out, err = run.communicate(timeout=60)
    assert run.returncode == 2 and "p.json: is a folder: give the profile a file name" in err
    assert not (tmp_path / "p-views").exists()
    run = command(tmp_path, "--kind", "d6", "--out", "q.json", "--source", f"folder:{tmp_path / 'none'}")
    _out, err = run.communicate(timeout=60)
    assert run.returncode == 2 and "none: no such folder" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.json"]
