"""Shared fixtures: rendered dice made once per test session, and the shared photo sets."""

from __future__ import annotations

from pathlib import Path

import pytest

SHARED_DICE = Path(__file__).resolve().parents[3] / "shared" / "dice"


@pytest.fixture(scope="session")
def rendered_pips(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from assistant.vision.render import write_set

    return write_set(tmp_path_factory.mktemp("pips"), 40, seed=101, tiles=False, style="pips")


@pytest.fixture(scope="session")
def rendered_astro_tiles(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from assistant.vision.render import write_set

    return write_set(tmp_path_factory.mktemp("astro"), 60, seed=102, tiles=True, style="astro")


def on_opencv(monkeypatch: pytest.MonkeyPatch) -> None:
    """Networks loaded from now on run on OpenCV's dnn, as where onnxruntime is not installed (32-bit ARM)."""
    from assistant.vision import network

    monkeypatch.setattr(network, "onnxruntime", lambda: None)


@pytest.fixture(params=["onnxruntime", "opencv"])
def runtime(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """The runtime the networks loaded in the test run on: onnxruntime, or OpenCV's dnn."""
    from assistant.vision import network

    if request.param == "opencv":
        on_opencv(monkeypatch)
    elif network.onnxruntime() is None:
        pytest.skip("onnxruntime is not installed here")
    return str(request.param)


def shared_set(name: str) -> Path:
    """The manifest of a shared photo set, or skip the test saying why."""
    manifest = SHARED_DICE / name / "manifest.jsonl"
    if not manifest.exists():
        pytest.skip(f"shared dice photos not found at {manifest.parent} (they are never in the repo)")
    return manifest
