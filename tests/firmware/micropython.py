"""Run firmware code under MicroPython itself: its WebAssembly build from npm, on node (both installed by
`bootstrap.py --test`), with `standins/` in place of the board's `machine` and `neopixel`."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
BUILD = ROOT / ".venv" / "tools" / "node_modules" / "@micropython" / "micropython-webassembly-pyscript" / "micropython.mjs"


def run_micropython(script: str, tmp_path: Path) -> str:
    """Run `script` under MicroPython with firmware/ and the stand-ins importable; its output (it must not raise)."""
    node = shutil.which("node")
    if node is None or not BUILD.is_file():
        pytest.skip(f"MicroPython's WebAssembly build or node missing ({BUILD}): bootstrap.py --test installs them "
                    "where npm (or apt, as root) can be had, and said why not")
    path = tmp_path / "under_test.py"
    path.write_text(script)
    result = subprocess.run([node, str(HERE / "micropython.mjs"), str(BUILD), str(path), str(ROOT / "firmware"),
                             str(HERE / "standins")], capture_output=True, text=True, timeout=120)  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout
