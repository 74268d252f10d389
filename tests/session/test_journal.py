"""The journal: events stored only when the rules accept them, undo, redo, the dropped branch, snapshots, resume."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from assistant.session.errors import EventRefused, NothingToUndo
from assistant.session.games import StateFile
from tests.session.conftest import FOLDS, demo_text, endless_text, fold_state, script


def count_rows(path: Path, table: str) -> int:
    with closing(sqlite3.connect(path)) as db:
        return int(db.execute(f"SELECT count(*) FROM {table}").fetchone()[0])


def test_the_state_is_the_fold_of_the_stored_events(games: StateFile) -> None:
    events = script(endless_text(), 40, seed=3)
    games.new_game(endless_text(), "endless.toml")
    journal = games.journal()
    for event in events:
        journal.append(event)
    assert journal.head == 40
    assert journal.events() == events
    assert journal.fold.dump(journal.state) == fold_state(endless_text(), events)


def test_a_refused_event_is_reported_with_its_field_and_not_stored(games: StateFile, state_path: Path) -> None:
    games.new_game(demo_text(), "demo.toml")
    journal = games.journal()
    journal.append({"type": "spend_ap", "ap": 2, "action": "move"})
    before = journal.fold.dump(journal.state)
    with pytest.raises(EventRefused, match=r"^ap: .* 3 AP left, not 9"):
        journal.append({"type": "spend_ap", "ap": 9, "action": "move"})
    with pytest.raises(EventRefused, match="type"):
        journal.append({"type": "teleport"})
    assert journal.head == 1
    assert journal.fold.dump(journal.state) == before
    assert count_rows(state_path, "events") == 1


def test_an_event_longer_than_a_line_of_apply_is_not_stored(games: StateFile, state_path: Path) -> None:
    """From any caller (the screen, an import): what is stored can be exported and read back by `session apply`."""
    games.new_game(demo_text(), "demo.toml")
    journal = games.journal()
    with pytest.raises(EventRefused, match=r"^an event is at most 65536 characters as JSON, not 70052$"):
        journal.append({"type": "spend_ap", "ap": 2, "action": "move", "note": "x" * 70_000})
    assert journal.head == 0 and count_rows(state_path, "events") == 0


def test_undo_then_redo_walks_the_journal_both_ways(games: StateFile) -> None:
    events = script(endless_text(), 10, seed=4)
    games.new_game(endless_text(), "endless.toml")
    journal = games.journal()
    for event in events:
        journal.append(event)
    for back in range(1, 11):
        assert journal.undo() == events[-back]
        assert journal.fold.dump(journal.state) == fold_state(endless_text(), events[:-back])
    with pytest.raises(NothingToUndo, match="nothing to undo"):
        journal.undo()
    for forward in range(10):
        assert journal.redo() == events[forward]
    with pytest.raises(NothingToUndo, match="nothing to redo"):
        journal.redo()
    assert journal.fold.dump(journal.state) == fold_state(endless_text(), events)


def test_a_new_event_after_undo_drops_the_undone_branch(games: StateFile, state_path: Path) -> None:
    first = script(endless_text(), 8, seed=5)
    games.new_game(endless_text(), "endless.toml")
    journal = games.journal()
    for event in first:
        journal.append(event)
    for _ in range(3):
        journal.undo()
    assert journal.can_redo() and journal.length == 8
    replacement = {"type": "threat", "hero": "valerio", "delta": 2}
    assert replacement != first[5]
    journal.append(replacement)
    assert journal.head == journal.length == 6
    assert not journal.can_redo()
    assert journal.events() == first[:5] + [replacement]
    assert count_rows(state_path, "events") == 6
    assert journal.fold.dump(journal.state) == fold_state(endless_text(), first[:5] + [replacement])


def test_a_snapshot_is_stored_every_n_events_and_resume_starts_from_it(state_path: Path) -> None:
    events = script(endless_text(), 250, seed=7)
    with StateFile(state_path, create=True, folds=FOLDS, snapshot_every=50) as games:
        games.new_game(endless_text(), "endless.toml")
        journal = games.journal()
        for event in events:
            journal.append(event)
    with closing(sqlite3.connect(state_path)) as db:
        seqs = [row[0] for row in db.execute("SELECT seq FROM snapshots ORDER BY seq")]
    assert seqs == [50, 100, 150, 200, 250]

    applied: list[int] = []
    with StateFile(state_path, folds=counting(applied), snapshot_every=50) as games:
        journal = games.journal()
        journal.undo()  # head 249: from the snapshot at 200, 49 events
        assert journal.fold.dump(journal.state) == fold_state(endless_text(), events[:249])
    assert len(applied) == 49


def counting(applied: list[int]):  # type: ignore[no-untyped-def]
    """The real folds, counting every event they fold into `applied`."""

    def folds(kind: str, text: str | None, source: str):  # type: ignore[no-untyped-def]
        fold = FOLDS(kind, text, source)
        real_apply = fold.apply

        def apply(state, event):  # type: ignore[no-untyped-def]
            applied.append(1)
            return real_apply(state, event)

        fold.apply = apply  # type: ignore[method-assign]
        return fold

    return folds


def test_snapshots_of_another_version_are_not_trusted(state_path: Path) -> None:
    events = script(endless_text(), 120, seed=8)
    with StateFile(state_path, create=True, folds=FOLDS, snapshot_every=50) as games:
        games.new_game(endless_text(), "endless.toml")
        journal = games.journal()
        for event in events:
            journal.append(event)
    with closing(sqlite3.connect(state_path)) as db:  # as if an older Nova Table had written nonsense
        db.execute("UPDATE snapshots SET fold = 'nova-table 0.0.1 rules', state = '{\"bogus\": 1}'")
        db.commit()
    applied: list[int] = []
    with StateFile(state_path, folds=counting(applied), snapshot_every=50) as games:
        journal = games.journal()
        assert journal.fold.dump(journal.state) == fold_state(endless_text(), events)
    assert len(applied) == 120  # replayed from the first event
    applied.clear()
    with StateFile(state_path, folds=counting(applied), snapshot_every=50) as games:  # the replay left a snapshot at 120
        journal = games.journal()
        assert journal.fold.dump(journal.state) == fold_state(endless_text(), events)
        assert len(applied) == 0
        # and at 50 and 100, which it passed: an undo folds from 100 (19 events), not from the start (119) each time
        journal.undo()
        assert len(applied) == 19 and journal.fold.dump(journal.state) == fold_state(endless_text(), events[:119])
        journal.undo()
        assert len(applied) == 19 + 18
    with closing(sqlite3.connect(state_path)) as db:
        assert [row[0] for row in db.execute("SELECT seq FROM snapshots WHERE fold != 'nova-table 0.0.1 rules' ORDER BY seq")] == [50, 100, 120]


def test_a_second_process_view_follows_the_changes_of_the_first(state_path: Path) -> None:
    events = script(endless_text(), 12, seed=9)
    with StateFile(state_path, create=True, folds=FOLDS) as one, StateFile(state_path, folds=FOLDS) as two:
        one.new_game(endless_text(), "endless.toml")
        left, right = one.journal(), two.journal()
        for index, event in enumerate(events):
            (left if index % 2 else right).append(event)
        assert left.events() == right.events() == events
        right.undo()
        assert left.head == 11
        assert left.fold.dump(left.state) == fold_state(endless_text(), events[:11])
        left.redo()
        assert right.fold.dump(right.state) == fold_state(endless_text(), events)


def test_the_file_is_in_wal_mode_with_full_sync(games: StateFile) -> None:
    assert games.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert games.db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
