"""bootstrap.py's own judgements, on stand-in folders (installing for real is what CI's first step does)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]


def bootstrap() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bootstrap", ROOT / "bootstrap.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_venv_moved_with_its_clone_is_made_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A clone moved (or copied) elsewhere keeps a .venv whose scripts (pip's among them) name the old place:
    they no longer start, so bootstrap makes the venv again rather than saying all is well."""
    boot = bootstrap()
    venv = tmp_path / "moved" / ".venv"
    (venv / "bin").mkdir(parents=True)
    python = venv / "bin" / "python"
    python.write_text("#!/bin/sh\nexit 0\n")  # a Python whose pip answers
    python.chmod(0o755)
    monkeypatch.setattr(boot, "VENV", venv)
    monkeypatch.setattr(boot, "PYTHON", python)
    pip = venv / "bin" / "pip"
    pip.write_text(f"#!{tmp_path / 'before' / '.venv' / 'bin' / 'python3'}\nimport pip\n")
    assert not boot.venv_works()
    pip.write_text(f"#!{venv / 'bin' / 'python3'}\nimport pip\n")
    assert boot.venv_works()


def test_on_a_pi_the_venv_gets_a_simplejpeg_for_its_own_numpy() -> None:
    """picamera2 from apt imports simplejpeg; apt's is built for Bookworm's numpy 1.24 and fails beside the venv's
    numpy 2 (tests/hardware/test_camera_stack.py): on a Pi the camera extra installs PyPI's, built for both."""
    import tomllib

    boot = bootstrap()
    assert "camera" in boot.extras_for(False, True) and "camera" not in boot.extras_for(True, False)
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert extras["camera"] == ["simplejpeg>=1.8"] and "simplejpeg>=1.8" in extras["test"]


def test_the_tests_tools_missing_here_are_asked_of_apt_graphviz_among_them(monkeypatch: pytest.MonkeyPatch) -> None:
    """As root on Debian, `--test` installs from apt what the tests run: `dot` (graphviz) draws the wiring
    (tests/hardware/test_wiring_diagram.py) beside openscad, systemd-analyze and node."""
    boot = bootstrap()
    ran: list[list[str]] = []
    monkeypatch.setattr(boot.shutil, "which", lambda command: "/usr/bin/apt-get" if command == "apt-get" else None)
    monkeypatch.setattr(boot.os, "geteuid", lambda: 0)
    monkeypatch.setattr(boot.subprocess, "run", lambda args, **kwargs: ran.append(list(args)))
    monkeypatch.setattr(boot, "fetch_bookworm_layer", lambda: None)
    boot.install_test_tools()
    install = next(args for args in ran if args[:2] == ["apt-get", "install"])
    assert {"graphviz", "openscad", "systemd", "nodejs", "npm"} <= set(install)
