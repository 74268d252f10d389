"""The Pi Camera (Camera Module 3) through picamera2, imported only when used.

picamera2 comes from apt on Raspberry Pi OS, not from PyPI:

    sudo apt install python3-picamera2

(bootstrap.py makes the venv with system packages on a Pi, so it is importable there.)
Frames are asked for as "RGB888", which picamera2 lays out as B, G, R: OpenCV's order.
`lock()` freezes exposure, gain and white balance at what the camera chose, so that the dice look
the same from roll to roll, and `unlock()` lets it choose again (`exposure.ExposureHold` says when).
A camera that gives no frame for STALLED seconds (its ribbon cable loose: libcamera's "Camera frontend
has timed out", after which picamera2 would wait for ever) or whose capture fails is lost: `read`
gives None, and the table looks for it again as for an unplugged USB camera. A picamera2 older than
0.3.17 (its changelog: "Timeout support waiting for asynchronous requests to complete")
has no timeout on its wait: there frames are waited for as it waits, and that is said.
"""

from __future__ import annotations

import importlib.util
import inspect
import logging
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np

from assistant.vision.errors import CameraLost, SourceError
from assistant.vision.sources import _Closing

STALLED = 2.0  # seconds without a frame (or its metadata) before the Pi camera counts as lost
FOCUS_CM = 25.5  # the lens to the tray: the printed mast's height (hardware/nova_table.scad); autofocus would hunt
CLASH = ("; a package from apt (simplejpeg) is built for another numpy than the venv's: run python3 bootstrap.py "
         "again, which installs one for it")
OLD = ("picamera: this picamera2 cannot stop waiting for a camera that stalls (a loose ribbon cable would then "
       "stop the dice reading until a restart): update it with sudo apt update && sudo apt full-upgrade")
log = logging.getLogger(__name__)


def takes_timeout(wait: Callable[..., Any]) -> bool:
    """Whether picamera2's `Picamera2.wait` takes a timeout (0.3.17 on)."""
    try:
        return "timeout" in inspect.signature(wait).parameters
    except (TypeError, ValueError):  # no signature to read: as the old one
        return False


def available() -> bool:
    """Whether picamera2 is installed and sees a camera."""
    if importlib.util.find_spec("picamera2") is None:
        return False
    try:
        from picamera2 import Picamera2

        return bool(Picamera2.global_camera_info())
    except Exception:  # noqa: BLE001 - any failure of the camera stack means: not available
        return False


def busy(bad: BaseException) -> str:
    """A hint where the camera is held by another program (libcamera serves one at a time): picamera2
    then says "Camera __init__ sequence did not complete", raised from "Failed to acquire camera:
    Device or resource busy"."""
    chain: list[BaseException] = []
    link: BaseException | None = bad
    while link is not None and link not in chain:
        chain.append(link)
        link = link.__cause__ or link.__context__
    if any("busy" in str(e) or "acquire" in str(e) for e in chain):
        return ("; another program holds the camera, and only one can use it at a time (the table's "
                "service stops with `sudo systemctl stop nova-table`)")
    return ""


def focus(supported: dict[str, Any], cm: float = FOCUS_CM) -> dict[str, Any]:
    """The controls that hold the lens on the tray `cm` away, where the camera can focus (Camera Module 3;
    picamera2's `camera_controls` says): manual focus (AfMode 0), LensPosition in dioptres (1 / metres)."""
    if "AfMode" not in supported or "LensPosition" not in supported:
        return {}
    return {"AfMode": 0, "LensPosition": round(100.0 / cm, 2)}


class PiCameraSource(_Closing):
    live = True

    def __init__(self, size: tuple[int, int] = (1280, 960), controls: dict[str, Any] | None = None) -> None:
        try:
            from picamera2 import Picamera2
        except ImportError:
            raise SourceError("picamera: picamera2 is not installed (sudo apt install python3-picamera2)") from None
        except Exception as bad:  # noqa: BLE001 - its own imports failing (ValueError: numpy's binary clash)
            hint = CLASH if "numpy.dtype size changed" in str(bad) else ""
            raise SourceError(f"picamera: picamera2 cannot be imported ({type(bad).__name__}: {bad}){hint}") from None
        self.name = "picamera"
        try:
            self.camera = Picamera2()
            config = self.camera.create_video_configuration(main={"size": size, "format": "RGB888"})
            self.camera.configure(config)
            controls = {**focus(getattr(self.camera, "camera_controls", {})), **(controls or {})}
            if controls:
                self.camera.set_controls(controls)
            self.camera.start()
            self.timeout = {"timeout": STALLED} if takes_timeout(self.camera.wait) else {}
            if not self.timeout:
                log.warning(OLD)
        except Exception as bad:  # noqa: BLE001 - libcamera raises many kinds
            if hasattr(self, "camera"):  # opened but not started: let go, or the next try finds it busy
                self.close()
            raise SourceError(f"picamera: cannot start the camera ({bad}){busy(bad)}") from None

    def waited(self, capture: Callable[..., Any]) -> Any:
        """What `capture` (a picamera2 capture method) gives, waited for at most STALLED seconds
        (TimeoutError after that): picamera2's own wait has no end. An old picamera2: waited for as it waits."""
        return self.camera.wait(capture(wait=False), **self.timeout)

    def read(self) -> np.ndarray | None:
        """The next frame; None when the camera is lost (no frame for STALLED seconds, or its capture failed)."""
        try:
            frame = self.waited(partial(self.camera.capture_array, "main"))
        except Exception as bad:  # noqa: BLE001 - libcamera fails in many ways; every one means: lost
            log.warning("picamera: no frame (%s: %s)", type(bad).__name__, bad)
            return None
        return np.ascontiguousarray(frame[:, :, :3])

    def lock(self) -> dict[str, Any]:
        """Freeze exposure, gain and white balance at their current values; return them. A camera that gives
        no metadata for STALLED seconds is lost (CameraLost), as one that gives no frame."""
        try:
            meta = self.waited(self.camera.capture_metadata)
        except Exception as bad:  # noqa: BLE001 - as in read
            log.warning("picamera: no metadata (%s: %s)", type(bad).__name__, bad)
            raise CameraLost(self.name) from None
        controls = {
            "AeEnable": False,
            "AwbEnable": False,
            "ExposureTime": int(meta["ExposureTime"]),
            "AnalogueGain": float(meta["AnalogueGain"]),
            "ColourGains": tuple(meta["ColourGains"]),
        }
        self.camera.set_controls(controls)
        return controls

    def unlock(self) -> None:
        """Let the camera choose exposure, gain and white balance again."""
        self.camera.set_controls({"AeEnable": True, "AwbEnable": True})

    def close(self) -> None:
        """Stop and let go of the camera; a camera lost may fail to, which is logged, not raised: the table
        goes on to look for it again."""
        for step in (self.camera.stop, self.camera.close):
            try:
                step()
            except Exception as bad:  # noqa: BLE001 - as in read
                log.warning("picamera: %s failed (%s: %s)", step.__name__, type(bad).__name__, bad)
