"""The Pi camera stack on Raspberry Pi OS Bookworm: picamera2 from apt imports apt's simplejpeg, built for
Bookworm's numpy 1.24, in a venv whose numpy is 2.x. Stood in for by the real old packages (numpy 1.24.2 and
simplejpeg 1.7.2 from PyPI, which `bootstrap.py --test` unpacks into .venv/tools/bookworm), put behind the
venv's own on the path as a venv made with the system's packages has them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from assistant.vision.errors import SourceError
from assistant.vision.picamera import FOCUS_CM, PiCameraSource
from tests.vision.test_picamera import StandInCamera, stand_in_camera_module

BOOKWORM = Path(__file__).resolve().parents[2] / ".venv" / "tools" / "bookworm"


@pytest.fixture
def bookworm() -> Path:
    if not (BOOKWORM / "simplejpeg").is_dir():
        pytest.skip(f"{BOOKWORM}: not there (bootstrap.py --test fetches it where PyPI has its wheels: Python 3.11, "
                    "x86_64 or aarch64)")  # fmt: skip
    return BOOKWORM


def python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)


def test_the_venv_imports_simplejpeg_for_its_own_numpy_with_bookworms_behind_it(bookworm: Path) -> None:
    """What picamera2 does at import (`import simplejpeg`), then a frame encoded and read back: it failed
    with "numpy.dtype size changed" until the venv got a simplejpeg of its own (bootstrap.py's camera extra)."""
    done = python(f"""
import sys
sys.path.append({str(bookworm)!r})  # the system's packages come after the venv's
import numpy, simplejpeg
frame = numpy.full((48, 64, 3), 90, numpy.uint8)
back = simplejpeg.decode_jpeg(simplejpeg.encode_jpeg(frame, quality=95, colorspace="BGR"), colorspace="BGR")
print(numpy.__version__.split(".")[0], back.shape, abs(int(back.mean()) - 90) <= 2)
""")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["2", "(48,", "64,", "3)", "True"]


def test_the_stand_in_layer_is_the_clash_itself(bookworm: Path) -> None:
    """Bookworm's simplejpeg beside the venv's numpy 2 fails as picamera2 issues #1088, #1170 and #1211 say
    (so the test above proves something)."""
    done = python(f"import sys, numpy\nsys.path.insert(0, {str(bookworm)!r})\nimport simplejpeg")
    assert done.returncode == 1 and "numpy.dtype size changed, may indicate binary incompatibility" in done.stderr


def test_a_camera_stack_that_cannot_be_imported_is_said_with_why_and_what_to_do(
        bookworm: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """PiCameraSource caught only ImportError: the player saw "Camera stopped" and the journal a traceback."""
    (tmp_path / "picamera2").mkdir()
    (tmp_path / "picamera2" / "__init__.py").write_text("import simplejpeg\n")  # as picamera2 starts
    monkeypatch.delitem(sys.modules, "picamera2", raising=False)
    monkeypatch.delitem(sys.modules, "simplejpeg", raising=False)
    monkeypatch.setattr(sys, "path", [str(tmp_path), str(bookworm), *sys.path])  # (numpy is the venv's: imported)
    with pytest.raises(SourceError) as said:
        PiCameraSource()
    assert "picamera2 cannot be imported (ValueError: numpy.dtype size changed" in str(said.value)
    assert str(said.value).endswith("run python3 bootstrap.py again, which installs one for it")


class FocusingCamera(StandInCamera):
    """A Camera Module 3: picamera2 lists the autofocus controls among its `camera_controls`."""

    camera_controls: dict[str, Any] = {"AfMode": (0, 2, 0), "LensPosition": (0.0, 15.0, 1.0), "ExposureTime": (1, 66666, 0)}


def test_the_lens_is_held_on_the_tray_where_the_camera_can_focus(monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing set AfMode or LensPosition: the lens sat where it was, at infinity or wherever it hunted."""
    stand_in_camera_module(monkeypatch, FocusingCamera)
    FocusingCamera.events = []
    camera = PiCameraSource()
    assert FocusingCamera.events[0] == ("controls", {"AfMode": 0, "LensPosition": round(100 / FOCUS_CM, 2)})
    assert 3.0 < 100 / FOCUS_CM < 5.0  # 20 to 33 cm: the tray's distance, in dioptres
    camera.close()
    stand_in_camera_module(monkeypatch, StandInCamera)  # a camera with a fixed lens (Camera Module 2, HQ): none
    StandInCamera.events = []
    PiCameraSource().close()
    assert [what for what, _ in StandInCamera.events] == ["closed"]
