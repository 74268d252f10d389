"""Benchmark: resuming a 5,000-event game, and appending one event, with the real rules core.

    .venv/bin/python benchmarks/session_resume.py [--events 5000] [--repeat 21]

Prints medians (and the 90th percentile) of:
- resume: open the state file (header check, quick_check), read the scenario, load the last
  snapshot and fold the events after it, at head 5,000 (a snapshot right there) and at head
  4,999 (the worst case: SNAPSHOT_EVERY - 1 events to fold), against the baseline of a
  replay of every event from scratch (no snapshot), measured in the same process;
- append: one event stored (rules `apply`, one SQLite transaction, fsync), against the
  baselines of the rules `apply` alone and of a bare one-row SQLite commit with the same
  pragmas on the same disk (the fsync that synchronous=FULL requires is most of the cost).
The target is about 0.1 s for the resume here (well under a second on a Pi 4).
"""

from __future__ import annotations

import argparse
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from assistant.demo.autoplay import endless, play  # noqa: E402
from assistant.session.fold import default_folds  # noqa: E402
from assistant.session.games import StateFile  # noqa: E402
from assistant.session.journal import SNAPSHOT_EVERY, Journal  # noqa: E402

DEMO = ROOT / "assistant" / "demo" / "skirmish.toml"


def timings(run: Callable[[], Any], repeat: int) -> list[float]:
    results = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        results.append(time.perf_counter() - start)
    return results


def report(name: str, seconds: list[float], baseline: list[float] | None = None, unit: str = "ms") -> None:
    scale = 1000.0 if unit == "ms" else 1e6
    median = statistics.median(seconds)
    p90 = sorted(seconds)[int(0.9 * (len(seconds) - 1))]
    line = f"{name:<58} median {median * scale:9.2f} {unit}   p90 {p90 * scale:9.2f} {unit}"
    if baseline is not None:
        line += f"   ({statistics.median(baseline) / median:5.1f}x faster than baseline)" if median < statistics.median(
            baseline) else f"   ({median / statistics.median(baseline):5.1f}x the baseline)"  # fmt: skip
    print(line)


def bare_commits(path: Path, count: int) -> list[float]:
    """The floor of an append on this disk: one row, one transaction, the same pragmas."""
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA synchronous = FULL")
    db.execute("CREATE TABLE t (seq INTEGER PRIMARY KEY, body TEXT)")
    rows = iter(range(count))

    def commit() -> None:
        db.execute("BEGIN IMMEDIATE")
        db.execute("INSERT INTO t VALUES (?, ?)", (next(rows), "x" * 120))
        db.execute("COMMIT")

    try:
        return timings(commit, count)
    finally:
        db.close()


def resume(path: Path) -> Any:
    with StateFile(path) as games:
        return games.journal().state


def replay_from_scratch(path: Path) -> Any:
    with StateFile(path) as games:
        journal = games.journal()
        fold = journal.fold
        state = fold.initial()
        for event in journal.events():
            state = fold.apply(state, event)
        return state


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=21)
    parser.add_argument("--appends", type=int, default=400)
    args = parser.parse_args()

    text = endless(DEMO.read_text(encoding="utf-8"))
    fold = default_folds("mission", text, "bench")
    script = list(play(fold.initial(), random.Random(1), args.events + args.appends, gentle=True))
    assert len(script) == args.events + args.appends
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.db"
        with StateFile(path, create=True) as games:
            games.new_game(text, "skirmish (no end time)")
            journal: Journal[Any] = games.journal()
            for event in script[: args.events]:
                journal.append(event)
        size = path.stat().st_size
        print(f"game of {args.events} events, snapshot every {SNAPSHOT_EVERY} events, file {size / 1024:.0f} KiB, "
              f"Python {sys.version.split()[0]}")  # fmt: skip

        scratch = timings(lambda: replay_from_scratch(path), max(5, args.repeat // 3))
        report(f"baseline: replay all {args.events} events, no snapshot", scratch)
        assert resume(path) == replay_from_scratch(path)
        report(f"resume at head {args.events} (snapshot there)", timings(lambda: resume(path), args.repeat), scratch)
        with StateFile(path) as games:
            games.journal().undo()
        report(f"resume at head {args.events - 1} ({SNAPSHOT_EVERY - 1} events after it)",
               timings(lambda: resume(path), args.repeat), scratch)  # fmt: skip
        with StateFile(path) as games:
            games.journal().redo()

        with StateFile(path) as games:
            journal = games.journal()
            extra = iter(script[args.events :])
            rules_only: list[float] = []
            state = journal.state
            for event in script[args.events :]:
                start = time.perf_counter()
                state = fold.apply(state, event)
                rules_only.append(time.perf_counter() - start)
            appends = timings(lambda: journal.append(next(extra)), args.appends)
        bare = bare_commits(Path(folder) / "bare.db", args.appends)
        report("baseline: rules apply of one event alone", rules_only, unit="us")
        report("baseline: one bare SQLite commit (WAL, synchronous=FULL)", bare, unit="us")
        report("append one event (apply, commit, fsync)", appends, bare, unit="us")
    return 0


if __name__ == "__main__":
    sys.exit(main())
