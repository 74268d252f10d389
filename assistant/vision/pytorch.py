"""PyTorch and the face network's code, which learning needs and reading does not: whether they can be imported
here, and how to add them (said here only). `dice learn`, `dice calibrate` and the calibration screen's learning
`check` before any work."""

from __future__ import annotations

import importlib

from assistant.vision.errors import VisionError

MODULES = ("torch", "efficientnet_lite_pytorch")
ADD = ".venv/bin/pip install -e '.[learn]' in Nova Table's folder"  # how a maker adds them (pyproject.toml's pins)


def missing() -> str | None:
    """Which of MODULES cannot be imported here, and why (None: learning can run)."""
    for name in MODULES:
        try:
            importlib.import_module(name)
        except (ImportError, OSError) as bad:  # not installed, or installed broken (a library of its own missing)
            return f"{name} cannot be imported: {(str(bad).strip().splitlines() or [type(bad).__name__])[0][:160]}"
    return None


def check() -> None:
    """Nothing where learning can run here, else VisionError saying what is missing and how to add it."""
    why = missing()
    if why is not None:
        raise VisionError(f"learning the dice needs PyTorch ({why}): add it with {ADD}")
