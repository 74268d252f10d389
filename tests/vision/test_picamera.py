"""The Pi camera through picamera2, stood in for by a camera whose automatic exposure follows the room's
light and whose frames show what its controls let through: its exposure held and let go, a camera held
by another program, one that stalls (lost)."""

from __future__ import annotations

import sys
import time
import types
from concurrent.futures import Future
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from assistant.vision.errors import SourceError
from assistant.vision.exposure import DRIFT, ExposureHold, brightness
from assistant.vision.picamera import PiCameraSource
from assistant.vision.render import scene
from assistant.vision.sources import RenderedSource
from assistant.vision.watch import watch

BASE_EXPOSURE = 10000  # microseconds, in a room of light 1.0


def done(result: Any) -> Future[Any]:
    """A picamera2 job (asked for with wait=False) that has its result."""
    job: Future[Any] = Future()
    job.set_result(result)
    return job


class StandInCamera:
    """picamera2.Picamera2 as the Pi camera stack answers the calls picamera.py makes: frames of a
    rolled, then resting, tray; the room's light halves at frame DARK; with automatic exposure on,
    the camera has made up for the light by the next frame, and with it held, frames darken."""

    DARK = 30
    events: list[tuple[str, Any]] = []

    stall_after: int | None = None  # frames given before the camera stalls (its ribbon cable worked loose)
    fail_to_stop = False  # a stalled camera may fail to stop
    stall_metadata = False  # its metadata never comes (the stall falls as the exposure is held)

    def __init__(self) -> None:
        rng = np.random.default_rng(11)
        self.rolling = [scene(rng, (640, 480), count=3).image for _ in range(5)]
        self.resting = scene(rng, (640, 480), count=3).image.astype(np.float32)
        self.frame = 0
        self.auto = True
        self.exposure = float(BASE_EXPOSURE)
        self.controls: dict[str, Any] = {}

    def light(self) -> float:
        return 1.0 if self.frame < self.DARK else 0.5

    def create_video_configuration(self, main: dict[str, Any]) -> dict[str, Any]:
        return {"main": main}

    def configure(self, config: dict[str, Any]) -> None:
        assert config["main"]["format"] == "RGB888"

    def start(self) -> None:
        pass

    def set_controls(self, controls: dict[str, Any]) -> None:
        self.events.append(("controls", dict(controls)))
        if "AeEnable" in controls:
            self.auto = bool(controls["AeEnable"])
        if "ExposureTime" in controls:
            self.exposure = float(controls["ExposureTime"])

    def capture_metadata(self, wait: bool | None = None) -> Future[dict[str, Any]]:
        assert wait is False  # picamera2 would wait for ever on a camera that stalled
        if self.stall_metadata:
            return Future()  # never done
        return done({"ExposureTime": int(self.exposure), "AnalogueGain": 1.5, "ColourGains": (1.9, 1.6)})

    def capture_array(self, stream: str, wait: bool | None = None) -> Future[np.ndarray]:
        assert stream == "main" and wait is False
        if self.stall_after is not None and self.frame >= self.stall_after:
            return Future()  # never done
        picture = self.rolling[self.frame] if self.frame < len(self.rolling) else self.resting
        shown = np.clip(picture * self.light() * self.exposure / BASE_EXPOSURE, 0, 255).astype(np.uint8)
        if self.auto:  # its automatic exposure catches up with the room's light for the next frame
            self.exposure = BASE_EXPOSURE / self.light()
        self.frame += 1
        return done(shown)  # "RGB888": B, G, R in memory

    def wait(self, job: Future[Any], timeout: float | None = None) -> Any:
        return job.result(timeout)  # as picamera2's Job.get_result: TimeoutError when not done in time

    def stop(self) -> None:
        if self.fail_to_stop:
            raise RuntimeError("Camera frontend has timed out!")

    def close(self) -> None:
        self.events.append(("closed", None))


def stand_in_camera_module(monkeypatch: pytest.MonkeyPatch, camera: Callable[[], Any]) -> types.ModuleType:
    """picamera2 importable, its Picamera2 being `camera`."""
    module = types.ModuleType("picamera2")
    module.Picamera2 = camera  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "picamera2", module)
    return module


@pytest.fixture
def stand_in_picamera2(monkeypatch: pytest.MonkeyPatch) -> type[StandInCamera]:
    stand_in_camera_module(monkeypatch, StandInCamera)
    StandInCamera.events = []
    monkeypatch.setattr(StandInCamera, "stall_after", None)
    monkeypatch.setattr(StandInCamera, "fail_to_stop", False)
    monkeypatch.setattr(StandInCamera, "stall_metadata", False)
    return StandInCamera


def test_the_pi_camera_is_held_at_the_first_rest_and_let_go_when_the_light_changes(
        stand_in_picamera2: type[StandInCamera], capsys: pytest.CaptureFixture[str]) -> None:
    events = stand_in_picamera2.events
    watch("picamera", tray=False, kind="d6", profile_path=None, max_frames=60,
          emit=lambda reading: events.append(("reading", reading["frame"])))
    said = capsys.readouterr().err
    controls = [(i, c) for i, (what, c) in enumerate(events) if what == "controls"]
    readings = [(i, f) for i, (what, f) in enumerate(events) if what == "reading"]
    # held before the first reading, at what the camera had chosen itself
    assert controls[0][1] == {"AeEnable": False, "AwbEnable": False, "ExposureTime": BASE_EXPOSURE,
                              "AnalogueGain": 1.5, "ColourGains": (1.9, 1.6)}
    assert controls[0][0] < readings[0][0] and readings[0][1] < StandInCamera.DARK
    # the room darkens: the held frames darken, the next rest lets the camera choose again ...
    assert controls[1][1] == {"AeEnable": True, "AwbEnable": True}
    assert readings[1][1] > StandInCamera.DARK
    # ... it makes up for the light, and the rest after that holds its new choice
    assert controls[2][1]["ExposureTime"] == 2 * BASE_EXPOSURE and controls[2][1]["AeEnable"] is False
    assert len(controls) == 3 and events[-1] == ("closed", None)
    assert "picamera: exposure and white balance held (AeEnable False" in said
    assert "picamera: the light changed" in said and "the camera chooses its exposure again" in said


def test_a_small_change_of_light_keeps_the_hold_and_sources_without_one_are_left_alone() -> None:
    calls: list[str] = []

    class Holdable:
        name = "cam"

        def lock(self) -> dict[str, Any]:
            calls.append("lock")
            return {"ExposureTime": 1}

        def unlock(self) -> None:
            calls.append("unlock")

    frame = scene(np.random.default_rng(2), (320, 240), count=2).image
    hold = ExposureHold(Holdable())
    assert hold.settled(frame) is not None and calls == ["lock"]
    slightly = np.clip(frame * (DRIFT - 0.1), 0, 255).astype(np.uint8)
    assert brightness(slightly) > brightness(frame)
    assert hold.settled(slightly) is None and calls == ["lock"]
    with RenderedSource(seed=1) as rendered:
        assert ExposureHold(rendered).settled(frame) is None


def test_a_camera_held_by_another_program_says_what_to_do(monkeypatch: pytest.MonkeyPatch) -> None:
    class Held:
        """picamera2 while `nova-table play` (or any program) has the camera open."""

        def __init__(self) -> None:
            try:
                raise RuntimeError("Failed to acquire camera: Device or resource busy")
            except RuntimeError:
                raise RuntimeError("Camera __init__ sequence did not complete.")  # noqa: B904 - as picamera2 does

    class Absent:
        def __init__(self) -> None:
            raise IndexError("list index out of range")  # picamera2 with no camera plugged in

    module = stand_in_camera_module(monkeypatch, Held)
    with pytest.raises(SourceError) as held:
        PiCameraSource()
    assert str(held.value) == (
        "picamera: cannot start the camera (Camera __init__ sequence did not complete.); another program holds "
        "the camera, and only one can use it at a time (the table's service stops with `sudo systemctl stop "
        "nova-table`)")
    module.Picamera2 = Absent  # type: ignore[attr-defined]
    with pytest.raises(SourceError) as absent:
        PiCameraSource()
    assert str(absent.value) == "picamera: cannot start the camera (list index out of range)"


def test_a_pi_camera_that_stalls_is_lost_and_let_go(stand_in_picamera2: type[StandInCamera],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """picamera2 waits for ever for a frame that does not come (a loose ribbon cable: libcamera's frontend
    times out); the source waits STALLED seconds, then the camera is lost (CameraLost, as an unplugged USB
    camera is) and let go even though it fails to stop, so that it can be opened again."""
    from assistant.vision import picamera
    from assistant.vision.errors import CameraLost

    monkeypatch.setattr(picamera, "STALLED", 0.2)
    monkeypatch.setattr(stand_in_picamera2, "stall_after", 12)
    monkeypatch.setattr(stand_in_picamera2, "fail_to_stop", True)
    readings: list[dict[str, Any]] = []
    started = time.monotonic()
    with pytest.raises(CameraLost, match="picamera gives no frames any more"):
        watch("picamera", tray=False, kind="d6", profile_path=None, max_frames=0, emit=readings.append)
    assert time.monotonic() - started < 30  # not for ever
    assert len(readings) == 1  # the roll read before the stall
    assert stand_in_picamera2.events[-1] == ("closed", None)


def test_a_pi_camera_that_stalls_as_its_exposure_is_held_is_lost(stand_in_picamera2: type[StandInCamera],
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The stall comes right after the frame that rests the tray, as the exposure is held (its metadata
    never comes): lost, as a camera that gives no frame, not stopped for good."""
    from assistant.vision import picamera
    from assistant.vision.errors import CameraLost

    monkeypatch.setattr(picamera, "STALLED", 0.2)
    monkeypatch.setattr(stand_in_picamera2, "stall_metadata", True)
    with pytest.raises(CameraLost, match="picamera gives no frames any more"):
        watch("picamera", tray=False, kind="d6", profile_path=None, max_frames=0, emit=lambda reading: None)
    assert stand_in_picamera2.events[-1] == ("closed", None)


def test_an_old_picamera2_whose_wait_has_no_timeout_still_gives_frames_and_says_so(
        stand_in_picamera2: type[StandInCamera], monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """picamera2 before 0.3.17 has `wait(job)` alone: asked with a timeout, every frame failed
    (TypeError) and the camera was lost over and over. Frames are waited for as it waits, and it is said once."""
    from assistant.vision import picamera

    def old_wait(self: StandInCamera, job: Future[Any]) -> Any:
        return job.result()

    with caplog.at_level("WARNING", logger=picamera.__name__):
        with PiCameraSource() as new:
            assert new.read() is not None
        assert picamera.OLD not in caplog.text
        monkeypatch.setattr(stand_in_picamera2, "wait", old_wait)
        with PiCameraSource() as old:
            frames = [old.read() for _ in range(3)]
    assert all(frame is not None and frame.shape == (480, 640, 3) for frame in frames)
    assert caplog.text.count(picamera.OLD) == 1
