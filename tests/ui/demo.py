"""The demo skirmish for the tests: the bundled TOML file through the session's loader."""

from __future__ import annotations

from assistant.rules.scenario import Scenario
from assistant.ui.table import demo_path, load_scenario


def demo_scenario() -> Scenario:
    return load_scenario(demo_path())
