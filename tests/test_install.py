"""The dice commands in the user's own install, not the tests' venv: a fresh venv of exactly what the Quick start
installs (`.[fast]`), then of what a Pi gets but its camera stack (`.[fast,learn]`, which needs apt's picamera2);
`dice read` and `dice learn` on a few rendered dice there. The test extra adds what these lack (onnx hid that
`dice learn` could not export its network): only a real install shows it. Skipped only where PyPI is unreachable."""

from __future__ import annotations

import os
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
INSTALL_SECONDS = 1800  # only a hung pip waits this long (torch from the local disk: a minute or two)
RUN_SECONDS = 900  # only a hung command waits this long (a tiny learn: well under a minute of CPU)


def unreachable() -> str:
    """Why PyPI cannot be reached from here ("" where it can)."""
    try:
        with urllib.request.urlopen("https://pypi.org/simple/pip/", timeout=30):
            return ""
    except OSError as error:
        return str(error)


class Venv:
    """A venv made with this Python's own `-m venv`, Nova Table installed into it as bootstrap.py does."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        subprocess.run([sys.executable, "-m", "venv", str(folder)], check=True, timeout=INSTALL_SECONDS)
        self.env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
        self.env |= {"PIP_DISABLE_PIP_VERSION_CHECK": "1", "SDL_VIDEODRIVER": "dummy"}

    def install(self, extras: str) -> None:
        done = subprocess.run([str(self.folder / "bin" / "python"), "-m", "pip", "install", "--quiet", "--editable",
                               f"{ROOT}[{extras}]"], capture_output=True, text=True, env=self.env, cwd=ROOT,
                              timeout=INSTALL_SECONDS)  # fmt: skip
        if done.returncode != 0:
            why = unreachable()
            if why:
                pytest.skip(f"PyPI is unreachable from here ({why}): a fresh install cannot be made")
            pytest.fail(f"pip install .[{extras}] failed: {done.stderr[-3000:]}")

    def packages(self) -> set[str]:
        listed = subprocess.run([str(self.folder / "bin" / "python"), "-m", "pip", "list", "--format=freeze"],
                                capture_output=True, text=True, env=self.env, check=True, timeout=RUN_SECONDS)
        return {line.split("==")[0].lower() for line in listed.stdout.splitlines()}

    def dice(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(self.folder / "bin" / "nova-table"), "dice", *args], capture_output=True, text=True,
                              env=self.env, cwd=self.folder, timeout=RUN_SECONDS)  # fmt: skip


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Venv]:
    yield Venv(tmp_path_factory.mktemp("install") / "venv")


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory, venv: Venv) -> Path:
    """A manifest of two rendered pictures of dice (made in the fresh venv: `dice render` needs nothing more)."""
    folder = tmp_path_factory.mktemp("rendered")
    venv.install("fast")
    made = venv.dice("render", str(folder), "--count", "2", "--seed", "3")
    assert made.returncode == 0, made.stderr
    return folder / "manifest.jsonl"


def test_the_quick_starts_install_reads_dice_and_says_how_to_add_the_learning(venv: Venv, rendered: Path) -> None:
    """`.[fast]`: the reader runs, with onnxruntime; `dice learn` says what it needs, without a traceback."""
    assert {"onnxruntime", "opencv-python-headless", "nova-table"} <= venv.packages()
    assert "torch" not in venv.packages()
    picture = rendered.parent / "images" / "render_3_00000.png"
    read = venv.dice("read", str(picture))
    assert read.returncode == 0 and read.stdout.startswith('{"image": '), read.stderr
    learn = venv.dice("learn", str(rendered), "--out", str(rendered.parent / "none.profile.json"), "--steps", "2")
    assert learn.returncode != 0 and "torch" in learn.stderr and "Traceback" not in learn.stderr, learn.stderr
    assert not (rendered.parent / "none.profile.json").exists()


def test_the_pis_install_learns_a_profile_and_reads_with_it(venv: Venv, rendered: Path) -> None:
    """`.[fast,learn]` (the same venv, the learning added as a Pi's bootstrap adds it): `dice learn` writes a
    profile (its network exported to ONNX) that `dice read` reads with."""
    venv.install("fast,learn")
    assert {"torch", "efficientnet-lite-pytorch"} <= venv.packages()
    profile = rendered.parent / "table.profile.json"
    learn = venv.dice("learn", str(rendered), "--out", str(profile), "--steps", "2")
    assert learn.returncode == 0 and "Traceback" not in learn.stderr, learn.stderr
    assert profile.is_file()
    read = venv.dice("read", "--profile", str(profile), str(rendered.parent / "images"))
    assert read.returncode == 0 and read.stdout.count('{"image": ') == 2, read.stderr
