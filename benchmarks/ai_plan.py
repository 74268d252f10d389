"""Median cost of the Enemy AI: `plan(state)` at each step of the demo skirmish, and folding its events.

    .venv/bin/python benchmarks/ai_plan.py

`plan` runs on every screen refresh and inside the fold of each `ai_answer` and `enemy_attack`
event, so it bounds how fast a journal replays. Prints medians; asserts nothing.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from assistant.rules.game import apply, new_game  # noqa: E402
from assistant.rules.instructions import plan  # noqa: E402
from assistant.session.scenario_file import parse_scenario  # noqa: E402
from tests.ai.test_skirmish import DEMO, play  # noqa: E402


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        _, events, _ = play(Path(folder) / "game.db")
    scenario = parse_scenario(DEMO.read_text(encoding="utf-8"))
    states = [new_game(scenario)]
    for event in events:
        states.append(apply(states[-1], event))
    plans = []
    for state in states:
        start = time.perf_counter()
        plan(state)
        plans.append(time.perf_counter() - start)
    folds = []
    for _ in range(5):
        start = time.perf_counter()
        state = new_game(scenario)
        for event in events:
            state = apply(state, event)
        folds.append(time.perf_counter() - start)
    print(f"demo skirmish: {len(events)} events, {sum(e['type'] == 'ai_answer' for e in events)} AI answers")
    print(f"plan(state): median {statistics.median(plans) * 1e6:.0f} us, max {max(plans) * 1e6:.0f} us over {len(plans)} states")
    print(f"fold of the whole game: median {statistics.median(folds) * 1e3:.1f} ms ({statistics.median(folds) / len(events) * 1e6:.0f} us an event)")


if __name__ == "__main__":
    main()
