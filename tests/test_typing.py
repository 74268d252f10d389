"""The package is typed to `mypy --strict`, the tests to mypy; the rules core imports nothing of pygame, cv2 or I/O."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "assistant"
TESTS = ROOT / "tests"
ALLOWED = {
    "__future__", "collections", "dataclasses", "enum", "functools", "itertools", "math", "reprlib", "types",
    "typing", "assistant",
}  # reprlib: a value's repr cut short, for error messages (rules/errors.py)


def test_mypy_strict_passes_on_the_whole_package() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", str(PACKAGE)],
        capture_output=True, text=True, timeout=600, cwd=ROOT,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_passes_on_the_tests() -> None:
    """The tests type-check too, under the project's mypy config (pyproject.toml)."""
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-incremental", str(TESTS)],
        capture_output=True, text=True, timeout=600, cwd=ROOT,
    )
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("core, own", [("rules", ("assistant.rules",)), ("status", ("assistant.status", "assistant.rules"))])
def test_the_pure_cores_import_only_pure_modules(core: str, own: tuple[str, ...]) -> None:
    """The rules cores (Nova Aetas's, and Status's, which uses the first's codec) import nothing impure."""
    for path in (PACKAGE / core).glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                assert name.split(".")[0] in ALLOWED, f"{path.name} imports {name}"
                if name.startswith("assistant"):
                    assert name.startswith(own), f"{path.name} imports {name}"
