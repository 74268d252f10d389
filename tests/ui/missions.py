"""The small scenario files of the UI tests (`tests/ui/scenarios/*.toml`), read by the session's loader."""

from __future__ import annotations

from pathlib import Path

from assistant.rules.scenario import Scenario
from assistant.ui.table import load_scenario

FOLDER = Path(__file__).resolve().parent / "scenarios"


def mission(name: str) -> Scenario:
    """stealth, draft, hunt, classic or eclectic."""
    return load_scenario(FOLDER / f"{name}.toml")
