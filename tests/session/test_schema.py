"""Schema version and migrations: a new file is stamped, an older file is migrated whole (with a backup) or not at all."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from assistant.session import schema
from assistant.session.errors import NoSuchGame, SessionError, StateFileError
from assistant.session.games import StateFile
from assistant.session.status_fold import setup_text
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


def test_a_deleted_games_number_is_never_given_to_another_game(state_path: Path) -> None:
    """Two programs on one file: the table holds game 2 and another program deletes it and starts a game. SQLite
    gave the new game the free number 2, and the table's next move went into it, checked against the old
    game's rules. Numbers are now never given again (AUTOINCREMENT): the table is told its game is gone."""
    events = script(endless_text(), 3, seed=7)
    with StateFile(state_path, create=True, folds=FOLDS) as table:
        table.new_game(endless_text(), "first.toml")
        table.new_game(endless_text(), "endless.toml")
        journal = table.journal(2)
        journal.append(events[0])
        with StateFile(state_path, folds=FOLDS) as other:
            other.delete(2)
            assert other.new_game(endless_text(), "other.toml").id == 3
        with pytest.raises(NoSuchGame, match="no game 2"):
            journal.append(events[1])
        assert table.game(3).head == 0 and table.journal(3).events() == []


def as_schema_4(path: Path) -> None:
    """A file as schema 4 wrote it: no checksums of the games' rows, those of events and heads without their times."""
    with closing(sqlite3.connect(path)) as db:
        db.execute("ALTER TABLE games DROP COLUMN crc")
        db.execute("ALTER TABLE games DROP COLUMN scenario_crc")
        db.executemany("UPDATE events SET crc = ? WHERE game_id = ? AND seq = ?",
                       [(schema.checksum(game, seq, body), game, seq)
                        for game, seq, body in db.execute("SELECT game_id, seq, body FROM events").fetchall()])  # fmt: skip
        db.executemany("UPDATE games SET head_crc = ? WHERE id = ?",
                       [(schema.checksum(game, head, "head"), game) for game, head in db.execute("SELECT id, head FROM games").fetchall()])
        db.execute("PRAGMA user_version = 4")
        db.commit()


def as_schema_1(path: Path) -> None:
    """A file written by this Nova Table made as schema 1 wrote it: no checksums (3), games numbered without
    AUTOINCREMENT (2)."""
    as_schema_4(path)
    with closing(sqlite3.connect(path)) as db:
        db.execute("ALTER TABLE events DROP COLUMN crc")
        db.execute("ALTER TABLE snapshots DROP COLUMN crc")
        db.execute("ALTER TABLE games DROP COLUMN head_crc")
        db.execute("PRAGMA foreign_keys = OFF")
        db.execute(f"CREATE TABLE games_v1 (id INTEGER PRIMARY KEY, {schema._GAMES})")
        db.execute("INSERT INTO games_v1 SELECT * FROM games")
        db.execute("DROP TABLE games")
        db.execute("ALTER TABLE games_v1 RENAME TO games")
        db.execute(schema._ONE_CAMPAIGN)
        db.execute("DELETE FROM sqlite_sequence")  # (SQLite keeps the table once made)
        db.execute("PRAGMA user_version = 1")
        db.commit()


def test_a_file_of_schema_1_keeps_its_games_and_events_when_its_games_are_rebuilt(state_path: Path) -> None:
    """Schema 2 rebuilds the games table (SQLite's way to make its numbers AUTOINCREMENT): the events and
    snapshots that name the games, by foreign keys that delete them with their game, stay whole; schema 3
    gives each event and snapshot its checksum."""
    events = script(endless_text(), 30, seed=9)
    with StateFile(state_path, create=True, folds=FOLDS, snapshot_every=10) as games:
        for source in ("a.toml", "b.toml", "c.toml"):
            games.new_game(endless_text(), source)
        for game in (1, 3):
            journal = games.journal(game)
            for event in events:
                journal.append(event)
        games.delete(2)
        campaign = games.campaign_id()
    as_schema_1(state_path)
    assert pragma(state_path, "user_version") == 1
    with StateFile(state_path, folds=FOLDS) as games:
        assert sorted(g.id for g in games.games(campaign=True)) == [1, 3, campaign]
        for game in (1, 3):
            assert games.journal(game).events() == events and games.journal(game).head == 30
        assert games.db.execute("SELECT game_id, seq FROM snapshots").fetchall() == [(1, 10), (1, 20), (1, 30), (3, 10), (3, 20), (3, 30)]
        sums = games.db.execute("SELECT game_id, seq, state, crc FROM snapshots").fetchall()
        assert len(sums) == 6 and all(crc == schema.checksum(game, seq, text) for game, seq, text, crc in sums)
        assert all(crc == schema.event_checksum(game, seq, body, recorded) for game, seq, body, recorded, crc
                   in games.db.execute("SELECT game_id, seq, body, recorded_at, crc FROM events"))  # fmt: skip
        assert len(games.games(campaign=True)) == 3  # each row checked: its checksums made by the migration
        games.delete(campaign)
        assert games.new_game(endless_text(), "d.toml").id == campaign + 1  # the highest number, not given again
    assert pragma(state_path, "user_version") == schema.SCHEMA_VERSION == 5
    assert pragma(Path(f"{state_path}.schema-1.bak"), "user_version") == 1


def as_schema_3(path: Path) -> None:
    """A file as schema 3 wrote it: its games' kind only "mission" or "campaign"."""
    as_schema_4(path)
    with closing(sqlite3.connect(path)) as db:
        db.execute("PRAGMA foreign_keys = OFF")
        db.execute(f"CREATE TABLE games_v3 (id INTEGER PRIMARY KEY AUTOINCREMENT, {schema._GAMES}, head_crc INTEGER)")
        db.execute("INSERT INTO games_v3 SELECT * FROM games")
        (given,) = db.execute("SELECT seq FROM sqlite_sequence WHERE name = 'games'").fetchone()
        db.execute("DROP TABLE games")
        db.execute("ALTER TABLE games_v3 RENAME TO games")
        db.execute(schema._ONE_CAMPAIGN)
        db.execute("UPDATE sqlite_sequence SET seq = ? WHERE name = 'games'", (given,))
        db.execute("PRAGMA user_version = 3")
        db.commit()


def test_a_file_of_schema_3_takes_games_of_status_and_keeps_its_own(state_path: Path) -> None:
    """Schema 4 rebuilds the games table for its new kind, "status": the missions, their events and checksums
    stay whole, and the number of the game deleted last (the highest) is still never given again."""
    events = script(endless_text(), 12, seed=5)
    with StateFile(state_path, create=True, folds=FOLDS, snapshot_every=5) as games:
        for source in ("a.toml", "b.toml", "c.toml"):
            games.new_game(endless_text(), source)
        journal = games.journal(2)
        for event in events:
            journal.append(event)
        games.delete(3)
    as_schema_3(state_path)
    with closing(sqlite3.connect(state_path)) as db:
        with pytest.raises(sqlite3.IntegrityError, match="CHECK"):  # what schema 3 could not hold
            db.execute("INSERT INTO games (kind, title, created_at, updated_at) VALUES ('status', 't', 'x', 'x')")
    with StateFile(state_path, folds=FOLDS) as games:
        assert [g.id for g in games.games()] == [1, 2]
        assert games.journal(2).events() == events and games.journal(2).head == 12
        assert games.db.execute("SELECT game_id, seq FROM snapshots").fetchall() == [(2, 5), (2, 10)]
        status = games.new_game(setup_text(["mano", "ragione"]), "the table", "status")
        assert (status.id, status.kind, games.game(2).kind) == (4, "status", "mission")
    assert pragma(state_path, "user_version") == schema.SCHEMA_VERSION == 5
    assert pragma(Path(f"{state_path}.schema-3.bak"), "user_version") == 3


def test_a_file_of_schema_4_has_its_games_sealed_and_a_damaged_event_stays_damaged(state_path: Path) -> None:
    """Schema 5 seals what each game is (its row, its scenario) and puts each event's and head's time in their
    checksums: a game of schema 4 opens as it was, an event that failed its old checksum is not sealed as
    sound, and a text that is not UTF-8 does not stop the file from opening (the game is said damaged)."""
    events = script(endless_text(), 12, seed=5)
    with StateFile(state_path, create=True, folds=FOLDS, snapshot_every=5) as games:
        for source in ("a.toml", "b.toml", "c.toml"):
            games.new_game(endless_text(), source)
        for game in (1, 2):
            for event in events:
                games.journal(game).append(event)
        games.journal("campaign").append({"type": "florins", "amount": 3})
        games.archive(3)
        shown = games.journal(1).fold.dump(games.journal(1).state)
    as_schema_4(state_path)
    with closing(sqlite3.connect(state_path)) as db:
        db.execute("UPDATE events SET body = replace(body, '\"type\"', '\"typo\"') WHERE game_id = 2 AND seq = 3")
        db.execute("UPDATE games SET title = CAST(CAST(title AS BLOB) || X'E9' AS TEXT) WHERE id = 3")
        db.commit()
    with StateFile(state_path, folds=FOLDS) as games:
        assert games.journal(1).fold.dump(games.journal(1).state) == shown and games.journal(1).events() == events
        with pytest.raises(SessionError, match=f"{state_path}: game 2: stored event 3 is damaged .its bytes no longer match"):
            games.journal(2).events()
        with pytest.raises(StateFileError, match="not UTF-8"):
            games.game(3)
        assert games.game("campaign").title == "Campaign sheet" and games.game(1).status == "active"
        rows = games.db.execute(f"SELECT id, {schema.MEANING}, crc, scenario_text, scenario_crc FROM games WHERE id != 3")
        for game, *meaning, crc, text, scenario_crc in rows:
            assert (crc, scenario_crc) == (schema.game_checksum(game, meaning), schema.scenario_checksum(game, text))
    assert pragma(state_path, "user_version") == schema.SCHEMA_VERSION == 5
    assert pragma(Path(f"{state_path}.schema-4.bak"), "user_version") == 4
