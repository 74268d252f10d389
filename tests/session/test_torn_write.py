"""A power cut in the middle of writing an event: the torn write loses that event only, never an earlier one.

The write-ahead log is copied before and after one more event is committed; a torn write is
the log cut anywhere inside the new event's frames (or cut and followed by garbage, as a half
written sector leaves it). Opening such a file must give exactly the earlier events, intact.
"""

from __future__ import annotations

import random
import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

from assistant.session.games import StateFile
from tests.session.conftest import FOLDS, endless_text, fold_state, script


def copy_pair(source: Path, target: Path) -> None:
    shutil.copyfile(source, target)
    shutil.copyfile(f"{source}-wal", f"{target}-wal")


def test_a_torn_write_loses_at_most_the_event_being_written(tmp_path: Path) -> None:
    events = script(endless_text(), 31, seed=21)
    live = tmp_path / "live.db"
    before, after = tmp_path / "before.db", tmp_path / "after.db"
    with StateFile(live, create=True, folds=FOLDS) as games:  # kept open: the log is not checkpointed
        games.new_game(endless_text(), "endless.toml")
        journal = games.journal()
        for event in events[:30]:
            journal.append(event)
        copy_pair(live, before)
        journal.append(events[30])
        copy_pair(live, after)
    assert before.read_bytes() == after.read_bytes()  # only the log changed
    old_log = Path(f"{before}-wal").read_bytes()
    new_log = Path(f"{after}-wal").read_bytes()
    assert len(new_log) > len(old_log) and new_log.startswith(old_log)

    rng = random.Random(5)
    cuts = sorted({len(old_log)} | {rng.randrange(len(old_log), len(new_log)) for _ in range(12)})
    for index, cut in enumerate(cuts):
        for garbage in (False, True):
            torn = tmp_path / f"torn-{index}-{garbage}.db"
            shutil.copyfile(after, torn)
            tail = bytes(rng.getrandbits(8) for _ in range(len(new_log) - cut)) if garbage else b""
            Path(f"{torn}-wal").write_bytes(new_log[:cut] + tail)
            with StateFile(torn, folds=FOLDS) as games:
                journal = games.journal()
                assert journal.head == 30, (cut, garbage)
                assert journal.events() == events[:30]
                assert journal.fold.dump(journal.state) == fold_state(endless_text(), events[:30])
            with closing(sqlite3.connect(torn)) as db:
                assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"

    whole = tmp_path / "whole.db"
    copy_pair(after, whole)
    with StateFile(whole, folds=FOLDS) as games:
        assert games.journal().events() == events
