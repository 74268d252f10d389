"""Schema version and migrations: a new file is stamped, an older file is migrated whole (with a backup) or not at all."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from assistant.session import schema
from assistant.session.errors import StateFileError
from assistant.session.games import StateFile
from tests.session.conftest import FOLDS, endless_text, script


def pragma(path: Path, name: str) -> int:
    with closing(sqlite3.connect(path)) as db:
        return int(db.execute(f"PRAGMA {name}").fetchone()[0])


def tables(path: Path) -> set[str]:
    with closing(sqlite3.connect(path)) as db:
        return {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def saved(path: Path) -> list[dict[str, object]]:
    events = script(endless_text(), 20, seed=41)
    with StateFile(path, create=True, folds=FOLDS) as games:
        games.new_game(endless_text(), "endless.toml")
        journal = games.journal()
        for event in events:
            journal.append(event)
    return events


def test_a_new_file_is_stamped_with_the_schema_version_and_application_id(state_path: Path) -> None:
    saved(state_path)
    assert pragma(state_path, "user_version") == schema.SCHEMA_VERSION == len(schema.MIGRATIONS)
    assert pragma(state_path, "application_id") == schema.APPLICATION_ID
    assert {"meta", "games", "events", "snapshots"} <= tables(state_path)


def test_an_older_file_is_migrated_and_a_backup_kept(state_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    events = saved(state_path)
    old = len(schema.MIGRATIONS)

    def add_notes(db: sqlite3.Connection) -> None:
        db.execute("CREATE TABLE notes (game_id INTEGER, text TEXT)")
        db.execute("INSERT INTO notes SELECT id, 'migrated' FROM games")

    monkeypatch.setattr(schema, "MIGRATIONS", [*schema.MIGRATIONS, add_notes])
    with StateFile(state_path, folds=FOLDS) as games:
        assert games.journal().events() == events
        assert games.db.execute("SELECT text FROM notes").fetchall() == [("migrated",)]
    assert pragma(state_path, "user_version") == old + 1
    backup = Path(f"{state_path}.schema-{old}.bak")
    assert pragma(backup, "user_version") == old and "notes" not in tables(backup)
    monkeypatch.setattr(schema, "MIGRATIONS", schema.MIGRATIONS[:old])
    with StateFile(backup, folds=FOLDS) as games:  # the backup is a whole game, openable as it was
        assert games.journal().events() == events


def test_a_failing_migration_changes_nothing(state_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    saved(state_path)
    old = len(schema.MIGRATIONS)

    def half_done(db: sqlite3.Connection) -> None:
        db.execute("CREATE TABLE half (x)")
        db.execute("INSERT INTO no_such_table VALUES (1)")

    monkeypatch.setattr(schema, "MIGRATIONS", [*schema.MIGRATIONS, half_done])
    with pytest.raises(StateFileError, match=f"cannot bring the file to schema {old + 1}"):
        StateFile(state_path, folds=FOLDS)
    assert pragma(state_path, "user_version") == old
    assert "half" not in tables(state_path)
