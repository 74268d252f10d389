"""The package is typed to `mypy --strict`, the tests to mypy; the rules core imports nothing of pygame, cv2 or I/O."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "assistant"
TESTS = ROOT / "tests"
RULES = PACKAGE / "rules"
ALLOWED = {
    "__future__", "collections", "dataclasses", "enum", "functools", "itertools", "math", "types",
    "typing", "assistant",
}


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


def test_the_rules_import_only_pure_modules() -> None:
    for path in RULES.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                assert name.split(".")[0] in ALLOWED, f"{path.name} imports {name}"
                if name.startswith("assistant"):
                    assert name.startswith("assistant.rules"), f"{path.name} imports {name}"
