"""Frame sources: an image folder, OpenCV capture of a video we write, rendered rolls, picamera2's absence."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from assistant.vision import picamera
from assistant.vision.errors import SourceError
from assistant.vision.render import scene
from assistant.vision.sources import CaptureSource, ImageFolderSource, RenderedSource, check_spec, open_source
from assistant.vision.watch import watch


def test_an_image_folder_yields_its_pictures_and_skips_broken_ones(tmp_path: Path) -> None:
    rng = np.random.default_rng(1)
    for name in ("a.png", "c.png"):
        cv2.imwrite(str(tmp_path / name), scene(rng, (160, 120), count=1).image)
    (tmp_path / "b.png").write_bytes(b"garbage")
    (tmp_path / "notes.txt").write_text("not a picture")
    reports: list[str] = []
    with ImageFolderSource(tmp_path, report=reports.append) as source:
        frames = list(source.frames())
    assert len(frames) == 2 and all(f.shape == (120, 160, 3) for f in frames)
    assert len(reports) == 1 and "b.png" in reports[0]


def test_missing_or_empty_folders_are_source_errors(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="no such folder"):
        ImageFolderSource(tmp_path / "nope")
    (tmp_path / "a-file").write_text("not a folder")
    with pytest.raises(SourceError, match="a-file: not a folder"):
        open_source(f"folder:{tmp_path / 'a-file'}")
    with pytest.raises(SourceError, match="no pictures"):
        ImageFolderSource(tmp_path)


def write_video(path: Path, frames: list[np.ndarray]) -> None:
    h, w = frames[0].shape[:2]
    out = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 10, (w, h))
    assert out.isOpened()
    for frame in frames:
        out.write(frame)
    out.release()


def test_opencv_capture_reads_a_video_and_watch_reads_each_settled_roll(tmp_path: Path) -> None:
    source = RenderedSource(seed=4, rolls=3, moving=3, still=6, style="pips")
    frames, labels = [], []
    while (frame := source.read()) is not None:
        frames.append(frame)
        labels.append(source.labels)
    video = tmp_path / "rolls.avi"
    write_video(video, frames)
    with CaptureSource(str(video), size=None) as capture:
        got = list(capture.frames())
    assert len(got) == len(frames) and got[0].shape == frames[0].shape
    readings: list[dict[str, Any]] = []
    watch(f"video:{video}", tray=False, kind="auto", profile_path=None, max_frames=0, emit=readings.append)
    assert len(readings) == 3  # one reading per roll, once the dice lie still
    for reading in readings:
        expected = labels[reading["frame"] - 1]
        assert sorted(d["value"] for d in reading["dice"]) == sorted(d["value"] for d in expected)


def test_a_folder_that_cannot_be_read_is_a_source_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`watch --source folder:DIR` on a folder without read permission stopped in a traceback."""
    def denied(self: Path) -> Iterator[Path]:
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "iterdir", denied)  # (the tests may run as root, whom no permission stops)
    with pytest.raises(SourceError, match=f"^{tmp_path}: cannot read this folder \\(Permission denied\\)$"):
        open_source(f"folder:{tmp_path}")


def test_a_missing_video_is_a_source_error(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="no such video"):
        CaptureSource(str(tmp_path / "nope.avi"))


def test_a_camera_that_is_not_there_is_one_clear_line_not_opencvs_warnings(capfd: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SourceError, match="camera:97: OpenCV cannot open it"):
        open_source("camera:97")
    assert "WARN" not in capfd.readouterr().err
    assert cv2.utils.logging.getLogLevel() != cv2.utils.logging.LOG_LEVEL_ERROR  # OpenCV's level is put back


@pytest.mark.parametrize("spec, message", [
    ("telescope", "unknown source"), ("camera:x", "needs a number"),
    ("picamera:3", "^picamera:3: picamera takes nothing after it"), ("video:", "^video:: video:FILE needs the file$"),
    ("folder:", "^folder:: folder:DIR needs the folder$"),
    ("render:abc", "^render:abc: render:N needs a number 0 or more$"),
    ("render:-1", "^render:-1: render:N needs a number 0 or more$"),
    ("camera:99999999999999999999", "^camera:99999999999999999999: OpenCV cannot open it$"),
])
def test_bad_source_names_are_refused(spec: str, message: str) -> None:
    with pytest.raises(SourceError, match=message):
        open_source(spec)


@pytest.mark.parametrize("spec, message", [
    ("camera:", r"^camera:: camera:N needs the number after the colon \(camera alone is camera:0\)$"),
    ("video:/nowhere/roll.mp4", "^/nowhere/roll.mp4: no such video file$"),
    ("folder:/nowhere/rolls", "^/nowhere/rolls: no such folder$"),
])
def test_sources_that_cannot_be_there_are_refused_before_anything_opens(spec: str, message: str) -> None:
    """By `check_spec`, so `play --camera` says it at the start: a video or a folder that is not there
    started the table, and said "Camera stopped" only once it was looked at; "camera:" was camera 0."""
    with pytest.raises(SourceError, match=message):
        check_spec(spec)
    with pytest.raises(SourceError, match=message):
        open_source(spec)


def test_a_folder_or_a_video_under_the_home_folder_is_found_by_tilde(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """No shell expands ~ after "folder:" or "video:": `--camera folder:~/rolls` was taken as a folder "~"."""
    monkeypatch.setenv("HOME", str(tmp_path))
    (tmp_path / "rolls").mkdir()
    cv2.imwrite(str(tmp_path / "rolls" / "a.png"), np.full((120, 160, 3), 90, np.uint8))
    with open_source("folder:~/rolls") as source:
        assert source.read() is not None
    with pytest.raises(SourceError, match=f"^{tmp_path / 'roll.mp4'}: no such video file$"):
        check_spec("video:~/roll.mp4")


def test_a_negative_camera_number_is_refused_not_handed_to_opencv() -> None:
    """OpenCV's VideoCapture(-1) with no camera there crashes the process (exit 139): a subprocess here."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "assistant", "dice", "watch", "--source", "camera:-1", "--frames", "3"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert "nova-table dice: camera:-1: camera:N needs a number 0 or more" in done.stderr
    assert "Traceback" not in done.stderr


def test_auto_without_a_camera_says_that_rendered_dice_stand_in(monkeypatch: pytest.MonkeyPatch,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    from assistant.vision import sources

    def no_camera(target: object) -> CaptureSource:
        raise SourceError(f"camera:{target}: OpenCV cannot open it")

    monkeypatch.setattr(picamera, "available", lambda: False)
    monkeypatch.setattr(sources, "CaptureSource", no_camera)
    with open_source("auto", "d8") as source:
        assert source.name == "render"
    assert "nova-table dice: no camera found: rendered dice stand in" in capsys.readouterr().err


def test_a_folder_whose_every_picture_is_unusable_is_an_error_not_a_quiet_end(tmp_path: Path) -> None:
    (tmp_path / "a.png").write_bytes(b"garbage")
    (tmp_path / "b.jpg").write_text("not a picture")
    readings: list[dict[str, Any]] = []
    with pytest.raises(SourceError, match=f"folder:{tmp_path}: not one frame could be read from it"):
        watch(f"folder:{tmp_path}", tray=False, kind="auto", profile_path=None, max_frames=0, emit=readings.append)
    assert readings == []


def test_picamera_is_optional_and_says_how_to_install_it() -> None:
    if picamera.available():  # pragma: no cover - only on a Pi with a camera
        pytest.skip("a real Pi camera is present")
    with pytest.raises(SourceError, match="apt install python3-picamera2|cannot start"):
        picamera.PiCameraSource()


def test_the_watch_command_prints_a_line_per_settled_roll_and_keeps_the_views(tmp_path: Path) -> None:
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "assistant", "dice", "watch", "--source", "render:3",
                           "--frames", "36", "--save", str(tmp_path / "kept")], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = [json.loads(x) for x in done.stdout.splitlines()]
    assert len(lines) == 3 and all(line["dice"] for line in lines)
    assert all((tmp_path / "kept" / line["saved"]).is_file() for line in lines)
    assert f"keeping each settled view in {tmp_path / 'kept'}" in done.stderr


def test_watch_with_a_network_missing_says_which_and_how_to_mend_it(tmp_path: Path) -> None:
    """A face network lost from the install stops `watch` before the first frame, naming the file."""
    from assistant.vision import read

    missing = tmp_path / "reader.onnx"
    done = subprocess.run([sys.executable, "-c", "import sys; from pathlib import Path; from assistant.vision import read; "
                           f"read.MODEL = Path({str(missing)!r}); from assistant.cli import main; "
                           "sys.exit(main(['dice', 'watch', '--source', 'render:5', '--frames', '4']))"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [f"nova-table dice: {missing}: the face network is missing: reinstall Nova Table "
                                        "(python3 bootstrap.py)"], done.stderr
    assert read.MODEL.is_file()


def test_the_rendered_stand_in_rolls_the_dice_the_reader_reads() -> None:
    """`render` rolls Nova Aetas d8 for a d8 reader, pip d6 for a d6 one, and any dice for auto."""
    rolled: dict[str, set[tuple[object, object]]] = {}
    for kind in ("d8", "d6", "auto"):
        with open_source("render:4", kind) as source:
            assert isinstance(source, RenderedSource)
            rolled[kind] = set()
            for _ in range(12 * 4):  # four rolls
                source.read()
                rolled[kind] |= {(d["kind"], d["style"]) for d in source.labels}
    assert rolled["d8"] == {("d8", "astro")}
    assert rolled["d6"] == {("d6", "pips")}
    assert len(rolled["auto"]) >= 3  # pips, numerals and astro mixed in four rolls of any dice


def test_the_rendered_stand_in_throws_the_dice_the_table_rolls_now() -> None:
    """Told the roll the open form takes (kind, number of dice), each new roll throws those dice; told none,
    any dice again, 1 to 6 of them."""
    now: list[tuple[str, int] | None] = [None]
    rolled: list[tuple[set[tuple[str, str]], set[int]]] = []
    with open_source("render:4", "auto", rolling=lambda: now[0]) as source:
        assert isinstance(source, RenderedSource)
        for asked in (("d6", 2), ("d8", 4), None, ("d6", 3), ("d8", 12)):
            now[0] = asked
            styles: set[tuple[str, str]] = set()
            counts: set[int] = set()
            for _ in range(12 * 3):  # three rolls
                source.read()
                styles |= {(d["kind"], d["style"]) for d in source.labels}
                counts |= {len(source.labels)} if source.labels else set()
            rolled.append((styles, counts))
    assert rolled[0] == ({("d6", "pips")}, {2})
    assert rolled[1] == ({("d8", "astro")}, {4})
    assert len(rolled[2][0]) >= 2 and rolled[2][1] <= set(range(1, 7))  # any dice
    assert rolled[3] == ({("d6", "pips")}, {3})
    assert rolled[4] == ({("d8", "astro")}, {12})  # an attack of 12 dice: all on the tray


class Flaky:
    """A stand-in for OpenCV's capture of a USB camera that drops `drops` frames, then gives `frame`."""

    def __init__(self, drops: int, frame: np.ndarray) -> None:
        self.drops, self.frame = drops, frame

    def read(self) -> tuple[bool, np.ndarray | None]:
        self.drops -= 1
        return (False, None) if self.drops >= 0 else (True, self.frame)


def test_a_camera_that_drops_a_frame_goes_on_and_one_that_gives_none_is_lost(tmp_path: Path,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """A failed read from a camera is tried again for DROPPED seconds (a dropped frame is not the end);
    then it is lost, and watching it raises CameraLost, where a video's end simply ends."""
    from assistant.vision import sources
    from assistant.vision.errors import CameraLost
    from assistant.vision.watch import settled_views

    monkeypatch.setattr(sources, "DROPPED", 0.3)
    roll = RenderedSource(seed=4, rolls=1, moving=3, still=6, style="pips")
    video = tmp_path / "roll.avi"
    write_video(video, list(roll.frames()))
    camera = CaptureSource(str(video), size=None)
    assert not camera.live
    camera.live, camera.name = True, "camera:0"  # the video's end stands for a camera pulled out
    real, camera.capture = camera.capture, Flaky(3, np.zeros((480, 640, 3), np.uint8))  # type: ignore[assignment]
    frame = camera.read()
    assert frame is not None and frame.shape == (480, 640, 3)  # three drops, then a frame
    camera.capture = real
    rests = []
    with pytest.raises(CameraLost, match="camera:0 gives no frames"):
        for rest in settled_views(camera, None, lambda _: None):
            rests.append(rest)
            started = time.monotonic()
    assert len(rests) == 1  # the roll, read once it lay still; then the camera is gone ...
    assert time.monotonic() - started >= 0.3  # ... after DROPPED seconds without a frame
    with CaptureSource(str(video), size=None) as ended:  # a video that ends is done, not lost
        assert len(list(settled_views(ended, None, lambda _: None))) == 1
