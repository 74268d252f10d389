#!/usr/bin/env python3
"""Make `.venv` beside this file and install Nova Table into it (standard library only).

    python3 bootstrap.py          # the app and what it needs (onnxruntime too, where it has wheels)
    python3 bootstrap.py --pi     # on a Raspberry Pi: all of it, started at boot (pi_setup.py)
    python3 bootstrap.py --test   # and what the tests need (openscad, graphviz and node from apt, as root, and
                                  # MicroPython's WebAssembly build from npm, into .venv/tools)

Works on a fresh Debian or Raspberry Pi OS with only Python 3.11+: where Debian left out
`ensurepip` (the python3-venv package), pip itself is fetched from PyPI. On a Raspberry Pi
the environment sees the system packages, so picamera2 and lgpio from apt are importable.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import urllib.parse
import urllib.request
import venv
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
PYTHON = VENV / "bin" / "python"
TOOLS = VENV / "tools"  # the tests' npm packages
MICROPYTHON = "@micropython/micropython-webassembly-pyscript@1.27.0"  # the firmware's logic runs on it (tests/firmware)
BOOKWORM = TOOLS / "bookworm"  # old system packages standing in for a Pi's (fetch_bookworm_layer)
TEST_COMMANDS = {"openscad": "openscad", "dot": "graphviz", "systemd-analyze": "systemd", "node": "nodejs",
                 "npm": "npm"}  # command: apt package


def on_raspberry_pi() -> bool:
    try:
        return "raspberry pi" in Path("/proc/device-tree/model").read_text().lower()
    except OSError:
        return False


def has_ensurepip() -> bool:
    try:
        import ensurepip  # noqa: F401
    except ImportError:
        return False
    return True


def venv_works() -> bool:
    if not PYTHON.exists():
        return False
    pip = VENV / "bin" / "pip"
    if pip.exists() and not pip.read_text(errors="replace").startswith(f"#!{VENV}/bin/"):
        return False  # a venv moved here with its folder: its scripts still name the old place
    probe = subprocess.run([str(PYTHON), "-m", "pip", "--version"], capture_output=True)
    return probe.returncode == 0


def fetch_pip_wheel(folder: Path) -> Path:
    """Download the newest pip wheel from PyPI (for Pythons whose ensurepip was removed)."""
    index = "https://pypi.org/pypi/pip/json"
    with urllib.request.urlopen(index, timeout=60) as reply:
        release = json.load(reply)
    wheel = next(f for f in release["urls"] if f["filename"].endswith(".whl"))
    target = folder / wheel["filename"]
    with urllib.request.urlopen(urllib.parse.urljoin(index, wheel["url"]), timeout=120) as reply:
        target.write_bytes(reply.read())
    return target


def make_venv() -> None:
    system = on_raspberry_pi()
    print(f"bootstrap: creating {VENV}" + (" (with system packages: picamera2, lgpio)" if system else ""))
    if has_ensurepip():
        venv.EnvBuilder(with_pip=True, clear=True, system_site_packages=system).create(VENV)
        return
    print("bootstrap: this Python has no ensurepip; fetching pip from PyPI")
    venv.EnvBuilder(with_pip=False, clear=True, system_site_packages=system).create(VENV)
    with tempfile.TemporaryDirectory() as tmp:
        wheel = fetch_pip_wheel(Path(tmp))
        subprocess.run([str(PYTHON), str(wheel / "pip"), "install", "--quiet", str(wheel)], check=True)


def extras_for(test: bool, pi: bool) -> list[str]:
    """pyproject.toml's extras to install: on a Pi, `dice learn` and `dice calibrate` at the table (PyTorch's
    CPU build, aarch64), and a simplejpeg for the venv's numpy, which picamera2 from apt imports (camera)."""
    return (["test"] if test else []) + (["learn", "camera"] if pi else [])


def fetch_bookworm_layer() -> None:
    """Stand-ins for Raspberry Pi OS Bookworm's apt packages that picamera2 imports: its numpy (1.24.2) and a
    simplejpeg built for numpy 1.x, as apt's is (PyPI's 1.7.2), unpacked into BOOKWORM for the camera stack's test."""
    if (BOOKWORM / "simplejpeg").is_dir():
        return
    print("bootstrap: fetching numpy 1.24.2 and simplejpeg 1.7.2 from PyPI (Bookworm's camera stack, for the tests)")
    with tempfile.TemporaryDirectory() as tmp:
        fetched = subprocess.run([str(PYTHON), "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary", ":all:",
                                  "--dest", tmp, "numpy==1.24.2", "simplejpeg==1.7.2"], capture_output=True, text=True)
        if fetched.returncode != 0:
            print("bootstrap: no wheels of them for this Python or system: the camera stack's test will be skipped")
            return
        for wheel in Path(tmp).glob("*.whl"):
            with zipfile.ZipFile(wheel) as unpacked:
                unpacked.extractall(BOOKWORM)


def install_test_tools() -> None:
    """What the tests run besides Python: openscad and dot (hardware/), systemd-analyze (systemd/) and node from apt,
    MicroPython's WebAssembly build from npm. What cannot be had is said (its tests then skip, saying so)."""
    wanted = sorted({package for command, package in TEST_COMMANDS.items() if shutil.which(command) is None})
    if wanted and os.geteuid() == 0 and shutil.which("apt-get"):
        print(f"bootstrap: installing {', '.join(wanted)} from apt (for the tests)")
        quiet = {"stdout": subprocess.DEVNULL, "env": dict(os.environ, DEBIAN_FRONTEND="noninteractive")}
        subprocess.run(["apt-get", "update", "-qq"], **quiet)
        subprocess.run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", *wanted], **quiet)
    elif wanted:
        print(f"bootstrap: the tests also need {', '.join(wanted)}: sudo apt install {' '.join(wanted)}")
    fetch_bookworm_layer()
    npm = shutil.which("npm")
    if npm is None:
        print(f"bootstrap: no npm: the firmware's tests under MicroPython ({MICROPYTHON}) will be skipped")
        return
    installed = TOOLS / "node_modules" / MICROPYTHON.rpartition("@")[0] / "package.json"
    if installed.exists() and json.loads(installed.read_text())["version"] == MICROPYTHON.rpartition("@")[2]:
        return
    print(f"bootstrap: installing {MICROPYTHON} from npm into {TOOLS}")
    TOOLS.mkdir(parents=True, exist_ok=True)
    subprocess.run([npm, "install", "--prefix", str(TOOLS), "--no-audit", "--no-fund", "--silent", MICROPYTHON])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--test", action="store_true", help="also install what the tests need")
    parser.add_argument("--pi", action="store_true", help="set up a Raspberry Pi: apt, groups, udev, the venv, "
                        "the hardware file, the service at boot (pi_setup.py)")
    parser.add_argument("--root", type=Path, default=None, help="with --pi: write the files under ROOT, print "
                        "the commands (a rehearsal)")
    args = parser.parse_args()
    if args.pi:
        import pi_setup

        return pi_setup.main(args.root)
    if sys.version_info < (3, 11):
        print(f"bootstrap: Nova Table needs Python 3.11 or newer, this is {sys.version.split()[0]}")
        return 1
    if not venv_works():
        make_venv()
    extras = extras_for(args.test, on_raspberry_pi())
    env = dict(os.environ, PIP_DISABLE_PIP_VERSION_CHECK="1", PYTHONWARNINGS="ignore")

    def install(target: str, quiet: bool = False) -> subprocess.CompletedProcess[bytes]:
        """pip install `target`; `quiet`: its errors kept back (in the result's stderr)."""
        print(f"bootstrap: installing {target} into {VENV}")
        return subprocess.run([str(PYTHON), "-m", "pip", "install", "--quiet", "--editable", target],
                              cwd=ROOT, env=env, capture_output=quiet)

    # "fast": onnxruntime, which has no wheels for some systems (32-bit ARM): without it OpenCV runs
    # the dice reader's networks, slower
    if args.test:
        install_test_tools()
    tried = install(f".[{','.join(extras + ['fast'])}]", quiet=True)
    if tried.returncode == 0:
        return 0
    if b"onnxruntime" not in tried.stderr:  # not onnxruntime's lack of a wheel: pip could not install at all
        sys.stderr.write(tried.stderr.decode(errors="replace"))
        print(f"bootstrap: pip could not install Nova Table (its words above): is PyPI reachable from here "
              f"(a proxy, PIP_INDEX_URL)? {VENV} is left as it was")
        return 1
    print("bootstrap: onnxruntime cannot be installed here (no wheel for this system?); "
          "OpenCV will run the dice reader's networks, about 2 times slower")
    return 0 if install(f".[{','.join(extras)}]" if extras else ".").returncode == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
