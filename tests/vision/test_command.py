"""`nova-table dice read|learn|render`: the JSON lines, and clear answers for bad input."""

from __future__ import annotations

import json
import os
import shutil
import struct
import subprocess
import sys
import zlib
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest


def dice(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "assistant", "dice", *args], capture_output=True, text=True,
                          timeout=120, env=env)


def lines(done: subprocess.CompletedProcess[str]) -> list[dict[str, Any]]:
    return [json.loads(line) for line in done.stdout.splitlines() if line.strip()]


def test_read_prints_one_json_line_per_image_in_the_issue_shape(rendered_pips: Path) -> None:
    entries = [json.loads(line) for line in rendered_pips.read_text().splitlines()][:4]
    paths = [str(rendered_pips.parent / e["image"]) for e in entries]
    done = dice("read", *paths)
    assert done.returncode == 0, done.stderr
    out = lines(done)
    assert [o["image"] for o in out] == paths
    for record, entry in zip(out, entries):
        assert set(record) == {"image", "dice"}
        for die in record["dice"]:
            assert set(die) == {"kind", "value", "confidence", "box"}  # pip d6: no symbol
            assert die["kind"] in ("d6", "d8")
            assert die["value"] is None or isinstance(die["value"], int)
            assert 0.0 <= die["confidence"] <= 1.0
            assert len(die["box"]) == 4 and all(isinstance(v, int) for v in die["box"])
        assert sorted(d["value"] for d in record["dice"]) == sorted(d["value"] for d in entry["dice"])


def test_bad_inputs_get_a_clear_message_and_the_others_are_still_read(tmp_path: Path, rendered_pips: Path) -> None:
    good = rendered_pips.parent / json.loads(rendered_pips.read_text().splitlines()[0])["image"]
    corrupt = tmp_path / "corrupt.jpg"
    corrupt.write_bytes(b"\xff\xd8\xff\xe0 this is not really a jpeg")
    text = tmp_path / "notes.png"
    text.write_text("hello")
    empty = tmp_path / "empty.png"
    empty.write_bytes(b"")
    missing = tmp_path / "missing.png"
    tray = tmp_path / "empty-tray.png"
    cv2.imwrite(str(tray), np.full((480, 640, 3), (40, 110, 50), np.uint8))
    bare = tmp_path / "bare-felt.png"  # tile-sized, so read as one die cropped close: but there is none
    felt = np.full((120, 120, 3), (40, 110, 50), np.float32) + np.random.default_rng(0).normal(0, 1.5, (120, 120, 3))
    cv2.imwrite(str(bare), felt.clip(0, 255).astype(np.uint8))
    done = dice("read", str(corrupt), str(text), str(empty), str(missing), str(tray), str(bare), str(good))
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    out = lines(done)
    assert len(out) == 7
    for record, path in zip(out[:4], (corrupt, text, empty, missing)):
        assert record["dice"] == [] and str(path) in record["error"]
        assert str(path) in done.stderr
    assert "no such file" in out[3]["error"] and "empty file" in out[2]["error"]
    for record, path in zip(out[4:6], (tray, bare)):
        assert record == {"image": str(path), "dice": []}
        assert f"{path}: no dice found" in done.stderr
    assert out[6]["dice"], "the good image after the bad ones is still read"


def test_a_picture_too_large_is_refused_from_its_header_and_a_pipe_is_not_waited_on(tmp_path: Path) -> None:
    """A PNG whose header says 20000 x 20000 (a few hundred bytes: decoded, 1.2 GB) is refused before it is
    decoded, and a named pipe is not read (it would be waited on for ever)."""
    ok, small = cv2.imencode(".png", np.zeros((8, 8, 3), np.uint8))
    assert ok
    png = bytearray(small.tobytes())
    png[16:24] = struct.pack(">II", 20000, 20000)  # IHDR's width and height
    png[29:33] = struct.pack(">I", zlib.crc32(bytes(png[12:29])))  # and its checksum, so the header is sound
    huge = tmp_path / "huge.png"
    huge.write_bytes(bytes(png))
    pipe = tmp_path / "pipe.jpg"
    os.mkfifo(pipe)
    done = dice("read", str(huge), str(pipe))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert [record["error"] for record in lines(done)] == [
        f"{huge}: too large (over 50000000 pixels)", f"{pipe}: not a regular file (a pipe or a device), not an image"]


def test_a_folder_argument_reads_the_pictures_in_it(rendered_pips: Path) -> None:
    done = dice("read", str(rendered_pips.parent / "images"))
    assert len(lines(done)) == len(rendered_pips.read_text().splitlines())


def test_a_folder_without_pictures_and_a_picture_opencv_cannot_decode_are_named_without_opencvs_own_noise(
        tmp_path: Path) -> None:
    folder = tmp_path / "photos"
    folder.mkdir()
    (folder / "notes.txt").write_text("the pictures are on the phone")
    deep = tmp_path / "float.tiff"  # 32-bit float samples: OpenCV's TIFF reader warns and gives up
    cv2.imwrite(str(deep), np.random.default_rng(1).random((64, 64, 3)).astype(np.float32))
    done = dice("read", str(folder), str(deep))
    assert done.returncode == 1
    first, second = lines(done)
    assert first == {"image": str(folder), "dice": [], "error": f"{folder}: no pictures in this folder "
                     "(.bmp, .jpeg, .jpg, .png, .tif, .tiff, .webp)"}
    assert second["dice"] == [] and "not a picture OpenCV can decode" in second["error"]
    assert done.stderr.splitlines() == [f"nova-table dice: {first['error']}", f"nova-table dice: {second['error']}"]


def test_a_folder_that_cannot_be_read_and_a_picture_in_it_are_said_unreadable_and_a_strip_too_narrow() -> None:
    """A folder without read permission stopped `dice read` in a traceback, and a picture inside it was said
    not to exist; a 16 x 40000 strip stopped it in OpenCV's resize (its short side went to 0 pixels at the
    working size). Each is now an error line, and the next picture is read. (Root reads every folder: run
    as root, the reader runs in a user namespace of its own, where root's files are still its own but root's
    power over others' permissions is gone, so the interpreter starts wherever the clone is.)"""
    as_user = ["unshare", "--user"] if os.geteuid() == 0 else []
    if as_user and subprocess.run([*as_user, sys.executable, "-c", ""], capture_output=True).returncode != 0:
        pytest.skip("running as root where `unshare --user` cannot start Python: no way to drop root's reads")
    import tempfile

    top = Path(tempfile.mkdtemp(prefix="nova-unreadable-"))  # not under pytest's tmp_path: that is the user's only
    try:
        top.chmod(0o755)
        locked = top / "locked"
        locked.mkdir()
        cv2.imwrite(str(locked / "a.png"), np.full((64, 64, 3), 200, np.uint8))
        locked.chmod(0)
        strip = top / "strip.png"
        cv2.imwrite(str(strip), np.full((40000, 16, 3), 200, np.uint8))
        tray = top / "tray.png"
        cv2.imwrite(str(tray), np.full((480, 640, 3), (40, 110, 50), np.uint8))
        done = subprocess.run([*as_user, sys.executable, "-m", "assistant", "dice", "read", str(locked),
                               str(locked / "a.png"), str(strip), str(tray)], capture_output=True, text=True,
                              timeout=120, env={**os.environ, "HOME": str(top)})  # fmt: skip
    finally:
        (top / "locked").chmod(0o755)
        shutil.rmtree(top)
    assert "Traceback" not in done.stderr, done.stderr
    assert [record.get("error") for record in lines(done)] == [
        f"{locked}: cannot read this folder (Permission denied)",
        f"{locked / 'a.png'}: cannot read (Permission denied)",
        "frame: too long and narrow (16x40000 pixels) to hold a die at 640 pixels",
        None,
    ]


def test_a_video_that_is_not_one_is_said_once_without_ffmpegs_own_lines(tmp_path: Path) -> None:
    """FFmpeg wrote "[mov,mp4,m4a,3gp,3g2,mj2 @ 0x...] moov atom not found" to stderr past OpenCV's logging,
    before the source's own message."""
    text = tmp_path / "roll.mp4"
    text.write_text("not a video\n")
    done = dice("watch", "--no-tray", "--source", f"video:{text}")
    assert done.returncode == 2
    assert done.stderr.splitlines() == [f"nova-table dice: video:{text}: OpenCV cannot open it"], done.stderr


def test_a_corrupt_profile_is_refused_clearly(tmp_path: Path, rendered_pips: Path) -> None:
    bad = tmp_path / "p.json"
    bad.write_text("{\"format\": \"something else\"}")
    done = dice("read", "--profile", str(bad), str(rendered_pips.parent / "images"))
    assert done.returncode == 2
    assert "not a dice profile" in done.stderr and "Traceback" not in done.stderr


def test_a_profile_that_is_a_pipe_is_refused_not_waited_on(tmp_path: Path, rendered_pips: Path) -> None:
    pipe = tmp_path / "p.json"
    os.mkfifo(pipe)
    done = dice("read", "--profile", str(pipe), str(rendered_pips.parent / "images"))
    assert done.returncode == 2 and f"{pipe}: not a regular file (a pipe or a device), not a profile" in done.stderr


def test_learn_skips_unreadable_manifest_lines_with_a_message(tmp_path: Path, rendered_astro_tiles: Path) -> None:
    manifest = tmp_path / "manifest.jsonl"
    good = rendered_astro_tiles.read_text().splitlines()[:10]
    fixed = [json.dumps({**json.loads(g), "image": str(rendered_astro_tiles.parent / json.loads(g)["image"])})
             for g in good]
    manifest.write_text("\n".join(["not json", "{\"image\": \"gone.png\", \"dice\": []}", *fixed]) + "\n")
    done = dice("learn", str(manifest), "--out", str(tmp_path / "p.json"), "--steps", "1")
    assert done.returncode == 0, done.stderr
    assert f"{manifest}:1: not JSON" in done.stderr
    assert "gone.png: no such file" in done.stderr
    assert (tmp_path / "p.json").exists()


@pytest.mark.parametrize("text", ["garbage\n", "", "{\"image\": \"gone.png\", \"dice\": []}\n"])
def test_learn_with_nothing_to_learn_fails_and_leaves_the_profile_there_untouched(tmp_path: Path, text: str) -> None:
    manifest = tmp_path / "m" / "manifest.jsonl"
    manifest.parent.mkdir()
    manifest.write_text(text)
    out = tmp_path / "mine.profile.json"
    out.write_bytes(b"a good profile, learned before")
    done = dice("learn", str(manifest), "--out", str(out))
    assert done.returncode == 1, done.stderr
    assert f"{manifest}: nothing to learn (no usable labelled die in it); {out} is left as it was" in done.stderr
    assert out.read_bytes() == b"a good profile, learned before"
    assert "learned 0" not in done.stderr and "Traceback" not in done.stderr


def test_learn_will_not_write_the_profile_over_its_manifest_nor_under_a_file(tmp_path: Path) -> None:
    manifest = tmp_path / "manifest.jsonl"
    manifest.write_text("{\"image\": \"gone.png\", \"dice\": []}\n")
    done = dice("learn", str(manifest), "--out", str(manifest))
    assert done.returncode == 2 and f"{manifest}: is the manifest: write the profile to another file" in done.stderr
    assert manifest.read_text() == "{\"image\": \"gone.png\", \"dice\": []}\n"


@pytest.mark.parametrize("args, message", [
    (["--count", "-1"], "argument --count: '-1' is not a whole number of 1 or more"),
    (["--count", "0"], "argument --count: '0' is not a whole number of 1 or more"),
    (["--seed", "-1"], "argument --seed: '-1' is not a whole number of 0 or more"),
    (["--kind", "d6", "--style", "astro"], "--style astro draws d8 only, not d6: leave out --kind, or use --style numerals"),
    (["--kind", "d8", "--style", "pips"], "--style pips draws d6 only, not d8"),
])
def test_render_refuses_numbers_and_styles_it_cannot_draw(tmp_path: Path, args: list[str], message: str) -> None:
    done = dice("render", str(tmp_path / "out"), *args)
    assert done.returncode == 2
    assert message in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "out").exists()


def test_render_into_a_file_or_a_folder_it_cannot_make_says_so(tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("x")
    done = dice("render", str(tmp_path / "afile"), "--count", "2")
    assert done.returncode == 2, done.stderr
    assert f"{tmp_path / 'afile'}: cannot render into it ({tmp_path / 'afile'} is a file, not a folder)" in done.stderr
    assert (tmp_path / "afile").read_text() == "x"
    done = dice("render", "/proc/x", "--count", "1")
    assert done.returncode == 2 and "/proc/x: cannot render into it (" in done.stderr
    assert "Traceback" not in done.stderr


def test_render_writes_over_no_manifest_nor_picture_already_there(tmp_path: Path) -> None:
    """A folder kept by `watch --save` or `calibrate` (labels corrected by hand, photos of the table's dice) is
    not rendered into: nothing in it is written over."""
    kept = tmp_path / "kept"
    (kept / "images").mkdir(parents=True)
    (kept / "manifest.jsonl").write_text('{"image": "images/roll-0001.png", "dice": []}\n')
    (kept / "images" / "render_1_00000.png").write_text("mine")
    for folder in (kept, tmp_path / "pictures-only"):
        if folder.name == "pictures-only":
            (folder / "images").mkdir(parents=True)
            (folder / "images" / "render_1_00000.png").write_text("mine")
        done = dice("render", str(folder), "--count", "1", "--seed", "1")
        assert done.returncode == 2 and "Traceback" not in done.stderr
        assert f"{folder}: already holds a manifest or pictures; render into a new or empty folder" in done.stderr
        assert (folder / "images" / "render_1_00000.png").read_text() == "mine"
    assert (kept / "manifest.jsonl").read_text() == '{"image": "images/roll-0001.png", "dice": []}\n'
    assert dice("render", str(tmp_path / "new"), "--count", "1").returncode == 0


def test_watch_on_photos_that_never_come_to_rest_says_nothing_was_read(tmp_path: Path) -> None:
    """Three different pictures are three moving frames: the dice never rest, and that is said, exit 1."""
    from assistant.vision.render import write_set

    write_set(tmp_path, 3, seed=8)
    done = dice("watch", "--source", f"folder:{tmp_path / 'images'}")
    assert done.returncode == 1 and done.stdout == ""
    assert (f"folder:{tmp_path / 'images'}: no view came to rest, so nothing was read (a view is read once 3 frames "
            "in a row look the same") in done.stderr


def test_watch_and_calibrate_use_the_camera_the_hardware_file_names(tmp_path: Path) -> None:
    """Without --source, `watch` and `calibrate` open the hardware file's [camera] source (the table's own, as
    `play` does), and `watch` without --profile reads with its profile; a bad file is named, exit 2."""
    from assistant.hardware.config import SEARCH
    from assistant.vision.render import write_set

    if SEARCH[0].is_file():
        pytest.skip(f"{SEARCH[0]} comes before the home folder's file on this machine")

    write_set(tmp_path, 3, seed=8)
    settings = tmp_path / "home" / ".config" / "nova-table" / "hardware.toml"
    settings.parent.mkdir(parents=True)
    settings.write_text(f'[camera]\nsource = "folder:{tmp_path / "images"}"\n')
    env = {**os.environ, "HOME": str(tmp_path / "home")}
    del env["NOVA_TABLE_HARDWARE"]  # the tests' own settings (tests/conftest.py), in place of the search
    done = dice("watch", env=env)
    assert done.returncode == 1 and f"folder:{tmp_path / 'images'}: no view came to rest" in done.stderr
    done = dice("calibrate", "--kind", "d6", "--out", str(tmp_path / "p.json"), env=env)
    assert done.returncode == 1 and f"folder:{tmp_path / 'images'} ended before every face was shown" in done.stderr
    settings.write_text(f'[camera]\nsource = "folder:{tmp_path / "images"}"\nprofile = "mine.json"\n')
    done = dice("watch", "--tray", env=env)  # the file's profile, from the file's folder, with a --tray given
    assert done.returncode == 2
    assert f"{settings}: [camera] profile: {settings.parent / 'mine.json'}: no such profile file" in done.stderr
    settings.write_text('[camera]\ntray = "yes"\n')
    done = dice("watch", env=env)
    assert done.returncode == 2 and f"{settings}: [camera] tray: must be bool" in done.stderr
    assert "Traceback" not in done.stderr
    # all said on the command line: the file is not read, bad as it is
    done = dice("calibrate", "--kind", "d6", "--out", str(tmp_path / "p.json"), "--source",
                f"folder:{tmp_path / 'images'}", "--no-tray", env=env)
    assert done.returncode == 1 and "ended before every face was shown" in done.stderr


def test_a_picture_name_too_long_for_the_system_is_no_such_file(tmp_path: Path) -> None:
    long = tmp_path / ("y" * 300 + ".png")
    done = dice("read", str(long))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert lines(done) == [{"image": str(long), "dice": [], "error": f"{long}: no such file"}]
    manifest = tmp_path / "manifest.jsonl"
    manifest.write_text(json.dumps({"image": long.name, "dice": [{"kind": "d6", "value": 1, "box": [1, 2, 30, 30]}]}))
    done = dice("learn", str(manifest), "--out", str(tmp_path / "p.json"))
    assert done.returncode == 1 and f"skipped: {long}: no such file" in done.stderr
    assert "Traceback" not in done.stderr


def test_an_empty_picture_name_is_refused_not_read_as_the_current_folder(tmp_path: Path, rendered_pips: Path) -> None:
    """Path("") is the current folder: `dice read ''` read every picture there (a screenshot read as a 5)."""
    done = subprocess.run([sys.executable, "-m", "assistant", "dice", "read", ""], capture_output=True, text=True,
                          timeout=120, cwd=rendered_pips.parent)  # fmt: skip
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.endswith("nova-table dice read: error: argument IMAGE: an empty name is no picture\n")


def test_the_dice_command_does_not_load_opencv_for_help() -> None:
    probe = "import sys, assistant.cli as c; c.build_parser(); print('cv2' in sys.modules, 'numpy' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert done.stdout.split() == ["False", "False"], done.stdout + done.stderr


def test_read_names_the_astro_symbol_of_a_nova_aetas_d8(tmp_path: Path) -> None:
    from assistant.vision.render import write_set

    manifest = write_set(tmp_path, 6, seed=5, tiles=True, style="astro")
    entries = [json.loads(line) for line in manifest.read_text().splitlines()]
    done = dice("read", "--kind", "d8", *(str(tmp_path / e["image"]) for e in entries))
    assert done.returncode == 0, done.stderr
    for record, entry in zip(lines(done), entries):
        (die,) = record["dice"]
        label = entry["dice"][0]
        assert die["value"] == label["value"]
        assert die.get("symbol") == label.get("symbol")  # Sun on 8, 6, 4; Star on 7, 5; Moon on 1; none on 2, 3


@pytest.mark.parametrize("action", [["learn", "MANIFEST", "--out", "OUT"],
                                    ["calibrate", "--kind", "d6", "--out", "OUT", "--source", "render", "--views", "1"]])
def test_learning_without_pytorch_says_how_to_add_it_before_any_work(tmp_path: Path, action: list[str]) -> None:
    """PyTorch (the `learn` extra) left out, or installed broken: `learn` and `calibrate` say so and how to add it,
    before a picture is read or a face asked for; no traceback, nothing written."""
    from assistant.vision.pytorch import ADD
    from assistant.vision.render import write_set

    manifest = write_set(tmp_path / "set", 2, seed=9, style="pips")  # pictures whose every die is labelled
    out = tmp_path / "p.json"
    (tmp_path / "stand-in" / "torch").mkdir(parents=True)  # a torch that cannot be imported, found first
    (tmp_path / "stand-in" / "torch" / "__init__.py").write_text("raise ImportError('a broken install')\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path / "stand-in"), os.getcwd(),
                                                         os.environ.get("PYTHONPATH", "")])}
    done = dice(*[{"MANIFEST": str(manifest), "OUT": str(out)}.get(a, a) for a in action], env=env)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.splitlines() == [f"nova-table dice: learning the dice needs PyTorch (torch cannot be imported: "
                                        f"a broken install): add it with {ADD}"]
    assert not out.exists() and not (tmp_path / "p-views").exists()
