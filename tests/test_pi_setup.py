"""`python3 bootstrap.py --pi`, rehearsed under a folder (`--root`): the files it writes, the unit enabled there
by systemctl's own --root and checked by `systemd-analyze verify`, and a second run that changes nothing."""

from __future__ import annotations

import getpass
import grp
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from assistant.hardware.config import load_config
from assistant.hardware.ports import MICROPYTHON_PID, PICO_VID

ROOT = Path(__file__).resolve().parents[1]


def setup(root: Path, env: dict[str, str] | None = None) -> str:
    done = subprocess.run([sys.executable, str(ROOT / "bootstrap.py"), "--pi", "--root", str(root)],
                          capture_output=True, text=True, timeout=120, env=env)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout


def with_picamera2(folder: Path, cameras: str) -> dict[str, str]:
    """The environment for a setup whose Python imports a stand-in picamera2 that sees `cameras` (a Python list)."""
    (folder / "picamera2").mkdir(parents=True)
    (folder / "picamera2" / "__init__.py").write_text(
        f"class Picamera2:\n    @staticmethod\n    def global_camera_info():\n        return {cameras}\n")
    return dict(os.environ, PYTHONPATH=os.pathsep.join([str(folder), os.environ.get("PYTHONPATH", "")]))


def verify(unit: Path) -> str:
    """What `systemd-analyze verify` says of `unit` ("" when all is well; its exit status is 1 for an error)."""
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze is missing (Debian's systemd package: bootstrap.py --test installs it as root)")
    done = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, timeout=120)
    return f"{done.returncode} {done.stdout}{done.stderr}".strip()


def test_the_pi_setup_writes_a_unit_systemd_accepts_and_enables_it(tmp_path: Path) -> None:
    said = setup(tmp_path)
    unit = tmp_path / "etc/systemd/system/nova-table.service"
    text = unit.read_text()
    user = getpass.getuser()
    assert f"\nUser={user}\n" in text and f"\nGroup={grp.getgrgid(os.getgid()).gr_name}\n" in text
    assert f"ExecStart={ROOT}/.venv/bin/nova-table play --fullscreen\n" in text and "/home/pi" not in text
    assert "\nType=notify\n" in text and "\nWatchdogSec=10\n" in text and "udev-settle" not in text
    assert verify(unit) == "0"
    assert (tmp_path / "etc/systemd/system/multi-user.target.wants/nova-table.service").is_symlink()
    assert "nova-table enabled: it starts at boot" in said and "left to you:" in said
    broken = tmp_path / "broken.service"  # the check can fail: a unit whose program is not there
    broken.write_text(text.replace(f"ExecStart={ROOT}/.venv", "ExecStart=/nowhere/.venv"))
    assert verify(broken).startswith("1 ") and "is not executable" in verify(broken)


def test_the_pi_setup_run_again_changes_no_file_and_keeps_the_makers_hardware_file(tmp_path: Path) -> None:
    setup(tmp_path)
    hardware = tmp_path / "etc/nova-table/hardware.toml"
    config = load_config(hardware)
    assert (config.encoder.a, config.encoder.b, config.encoder.button, config.board.port) == (17, 27, 22, "auto")
    assert config.camera.source == "none"  # picamera2 is not here: said where it is set, and why
    assert 'source = "none"  # no camera seen: picamera2 cannot look (' in hardware.read_text()
    hardware.write_text(hardware.read_text().replace("a = 17", "a = 5"))  # the maker's own pins
    again = setup(tmp_path)
    assert "/etc/" not in again.split("left to you:")[0]  # no file written, nothing enabled again
    assert "nova-table enabled" not in again
    assert load_config(hardware).encoder.a == 5
    rules = (tmp_path / "etc/udev/rules.d/60-nova-table.rules").read_text()
    assert f'ATTRS{{idVendor}}=="{PICO_VID:04x}", ATTRS{{idProduct}}=="{MICROPYTHON_PID:04x}"' in rules


def test_the_camera_is_looked_for_with_picamera2_and_none_seen_is_said(tmp_path: Path) -> None:
    """picamera2 itself (apt's, which the table opens the camera with) says which cameras there are; where it sees
    none, the hardware file and the words at the end say so."""
    seen = setup(tmp_path / "one", with_picamera2(tmp_path / "lib1", "[{'Model': 'imx708', 'Location': 2}]"))
    assert load_config(tmp_path / "one" / "etc/nova-table/hardware.toml").camera.source == "picamera"
    assert "camera picamera (imx708 2)" in seen and "no camera seen" not in seen
    none = setup(tmp_path / "none", with_picamera2(tmp_path / "lib0", "[]"))
    hardware = tmp_path / "none" / "etc/nova-table/hardware.toml"
    assert load_config(hardware).camera.source == "none"
    assert 'source = "none"  # no camera seen: picamera2 finds none' in hardware.read_text()
    assert "no camera seen: picamera2 finds none (the ribbon? docs/pi-setup.md): once a camera is connected, set " \
           'source = "picamera"' in none.split("left to you:")[1]


def test_the_display_libraries_sdl_loads_for_kms_are_asked_of_apt(tmp_path: Path) -> None:
    """pygame-ce's SDL opens the screen by KMS/DRM with the system's libdrm, libgbm, libEGL and libGLESv2 (and Mesa's
    GPU driver): on a system that has none of them, the setup asks apt for them."""
    bare = tmp_path / "bin"
    bare.mkdir()
    (bare / "dpkg-query").write_text("#!/bin/sh\nexit 1\n")  # a system with none of the packages
    (bare / "dpkg-query").chmod(0o755)
    said = setup(tmp_path / "root", dict(os.environ, PATH=f"{bare}{os.pathsep}{os.environ['PATH']}"))
    install = next(line for line in said.splitlines() if "would run: apt-get install" in line).split()
    assert {"libdrm2", "libgbm1", "libegl1", "libgles2", "libgl1-mesa-dri", "python3-picamera2"} <= set(install)
