"""A state file SQLite cannot write (a card gone read-only, a folder in the way, a name too long), and marks in
it that name nothing (a gap in a journal, a current game that is not there): a clear message, nothing lost."""

from __future__ import annotations

import json
import resource
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest

from assistant.session.errors import SessionError, StateFileError
from assistant.session.games import StateFile
from assistant.session.schema import head_checksum
from tests.session.conftest import DEMO, FOLDS, Nova, endless_text, script
from tests.session.test_broken_inputs import digest, refuses_and_keeps, saved_game


def test_a_write_sqlite_refuses_mid_game_stores_nothing_and_says_where(state_path: Path) -> None:
    """The card remounted read-only under a running game (SQLite's query_only stands in for it): the event,
    the undo and a new game are refused with the file's name, the game stays as it was, and once the card
    can be written again the same event is stored."""
    events = script(endless_text(), 3, seed=5)
    with StateFile(state_path, create=True, folds=FOLDS) as games:
        games.new_game(endless_text(), "endless.toml")
        journal = games.journal()
        journal.append(events[0])
        before = journal.state
        games.db.execute("PRAGMA query_only = ON")
        for change in (lambda: journal.append(events[1]), journal.undo,
                       lambda: games.new_game(endless_text(), "endless.toml")):  # fmt: skip
            with pytest.raises(StateFileError) as refused:
                change()
            assert str(state_path) in str(refused.value) and "read-only or full" in str(refused.value)
            assert journal.state == before and journal.head == 1
        assert [g.id for g in games.games()] == [1]
        games.db.execute("PRAGMA query_only = OFF")
        assert journal.append(events[1]) == 2
    with StateFile(state_path, folds=FOLDS) as games:
        assert games.journal().head == 2


def test_a_folder_in_the_way_of_the_write_ahead_log(nova: Nova, state_path: Path) -> None:
    """SQLite cannot make the file's -wal beside it (here a folder holds the name; in a read-only folder it is
    the same): every command says it cannot use the file, and does not call it damaged."""
    saved_game(state_path, 20)
    Path(f"{state_path}-wal").mkdir()
    before = state_path.read_bytes()
    for args in (("apply",), ("undo",), ("new", "--scenario", str(DEMO))):
        code, _, err = nova("session", *args, "--state", state_path, stdin='{"type": "end_activation"}\n')
        assert code == 1 and "SQLite cannot use it" in err and "damaged" not in err and "Traceback" not in err, err
    # what only reads takes the file as it is (as on a card gone read-only): the game can still be seen and exported
    assert nova.json("session", "show", "--state", state_path)[0]["count"] == 20
    assert nova.json("session", "list", "--state", state_path)[0]["events"] == 20
    code, out, _ = nova("session", "export", "--state", state_path)
    assert code == 0 and out.count("\n") == 22  # the header, 20 events, the end line
    assert state_path.read_bytes() == before


def test_a_state_file_where_a_file_is_in_the_way_or_the_name_is_too_long(nova: Nova, tmp_path: Path) -> None:
    blocker = tmp_path / "afile"
    blocker.write_text("not a folder\n")
    for state in (blocker / "games.db", blocker / "a" / "b" / "games.db"):
        code, _, err = nova("session", "new", "--scenario", str(DEMO), "--state", state)
        assert code == 1 and f"a file is in the way ({blocker})" in err
    assert blocker.read_text() == "not a folder\n"
    long = tmp_path / ("x" * 300) / "games.db"
    code, _, err = nova("session", "list", "--state", long)
    assert code == 1 and "cannot read it" in err and "Traceback" not in err


def test_a_gap_in_the_journal_is_reported_not_played_over(nova: Nova, state_path: Path) -> None:
    """An event missing from the journal (a damaged file, a hand's edit) is said, with its number; the game is
    not replayed without it, and the file is left as it is."""
    saved_game(state_path, 12)
    for edit, said in (("DELETE FROM events WHERE seq = 5", "event 5 is missing"),
                       # the last one moved into the gap: its number is in its checksum (schema 3)
                       ("UPDATE events SET seq = 5 WHERE seq = 12", "stored event 5 is damaged (its bytes no longer match")):  # fmt: skip
        with closing(sqlite3.connect(state_path)) as db, db:
            db.execute(edit)
        before = digest(state_path)
        code, _, err = nova("session", "show", "--state", state_path)
        assert code == 1 and said in err, err
        with StateFile(state_path, folds=FOLDS) as games, pytest.raises(SessionError, match=said.replace("(", r"\(")):
            games.journal()
        assert digest(state_path) == before


@pytest.mark.parametrize("mark", ["abc", "99999999999999999999999", "999", "-1"])
def test_a_current_game_mark_that_names_no_game_resumes_the_game_played_last(state_path: Path, mark: str) -> None:
    with StateFile(state_path, create=True, folds=FOLDS) as games:
        first = games.new_game(endless_text(), "endless.toml")
        games.new_game(endless_text(), "endless.toml")
        games.db.execute("UPDATE games SET updated_at = '2999-01-01', head_crc = ? WHERE id = ?",
                         (head_checksum(first.id, 0, "2999-01-01"), first.id))  # played last  # fmt: skip
        games.db.execute("UPDATE meta SET value = ? WHERE key = 'current_game'", (mark,))
        assert games.game(None).id == first.id
        assert [g.id for g in games.games() if g.current] == [first.id]


@pytest.mark.parametrize("game", ["99999999999999999999999999", "0", "1" + "0" * 5000, "99", "0_1", "\u0661", "+1"])
def test_a_game_number_no_game_can_have(nova: Nova, state_path: Path, game: str) -> None:
    """Refused, and nothing changed: `resume --game 99` made 99 the current game before it found no game 99
    (the next `apply` went to the game played last), and Python's int() took "0_1" and an Arabic-Indic one
    for game 1 (`delete --game 0_1` deleted it)."""
    saved_game(state_path, 3)
    before = digest(state_path)
    for action in ("show", "resume", "archive", "delete", "export"):
        code, _, err = nova("session", action, "--state", state_path, "--game", game)
        assert code == 1 and "no game" in err and "Traceback" not in err, (action, err[-300:])
    assert digest(state_path) == before


def test_an_export_that_cannot_be_written_leaves_nothing_behind(nova: Nova, state_path: Path, tmp_path: Path) -> None:
    saved_game(state_path, 3)
    folder = tmp_path / "outdir"
    folder.mkdir()
    for target in (folder, tmp_path / "missing" / "game.jsonl"):
        code, _, err = nova("session", "export", "--state", state_path, "--out", target)
        assert code == 1 and str(target) in err and "nothing was written" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.db", "outdir"]
    assert list(folder.iterdir()) == []


def _on_a_full_card(*args: str | Path, stdin: str = "", room: int = 100_000) -> subprocess.CompletedProcess[str]:
    """`nova-table ARGS` in a child that can write no file past `room` bytes (RLIMIT_FSIZE): a card nearly full.
    (Python ignores SIGXFSZ, so the write fails, as on a full card, instead of killing the child.)"""
    return subprocess.run([sys.executable, "-m", "assistant", *map(str, args)], input=stdin, capture_output=True,
                          text=True, timeout=120, preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (room, room)))  # fmt: skip


def test_a_game_from_an_older_file_still_opens_on_a_full_card(state_path: Path) -> None:
    """A game with no snapshot to resume from (an older Nova Table's file) is replayed whole, and a snapshot
    is stored for the next resume; where the card is full that write fails and is skipped: `show` shows the
    game, and `apply` says it is not saved (both ended in a traceback from a ROLLBACK SQLite had done itself)."""
    events = script(endless_text(), 153, seed=3)
    with StateFile(state_path, create=True, folds=FOLDS) as table:  # the table app, holding the file open
        table.new_game(endless_text(), "endless.toml")
        journal = table.journal()
        for event in events[:150]:
            journal.append(event)
        table.db.execute("DELETE FROM snapshots")
        assert Path(f"{state_path}-wal").stat().st_size > 100_000  # the log the next write goes on growing
        room = state_path.stat().st_size  # the file cannot grow to take the log in: the log stays, full
        shown = _on_a_full_card("session", "show", "--state", state_path, room=room)
        assert shown.returncode == 0, shown.stderr
        assert json.loads(shown.stdout)["count"] == 150  # the state after the 150 events
        applied = _on_a_full_card("session", "apply", "--state", state_path, stdin=f"{json.dumps(events[150])}\n", room=room)
        assert applied.returncode == 1 and "Traceback" not in applied.stderr
        assert f"Not saved: is the card read-only or full? SQLite cannot write to {state_path}" in applied.stderr
        answer = json.loads(applied.stdout)  # the line answered as every refused line is (a script reads stdout)
        assert answer["line"] == 1 and answer["error"].startswith("Not saved: ") and answer["error"].endswith("; not stored")
        assert journal.head == 150
    with closing(sqlite3.connect(state_path)) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert db.execute("SELECT head FROM games").fetchall() == [(150,)]
