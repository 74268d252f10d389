"""Everything that gives a saved game its meaning is checked when read: a byte changed on the card is said, with the
state file and the game, and never played, shown or exported as if it were the game (issue 65)."""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import sqlite3
import tempfile
from contextlib import closing
from functools import cache
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.session.database import SQLITE_MAGIC
from assistant.session.games import StateFile
from tests.session.conftest import DEMO, FOLDS, Nova, endless_text, fold_state, script


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def flipped(path: Path, needle: bytes, at: int, mask: int) -> None:
    """One byte of `path` flipped by `mask`: the one `at` bytes into the first `needle`, as a bad card would."""
    data = bytearray(path.read_bytes())
    where = data.index(needle)
    assert data.find(needle, where + 1) == -1 or needle.startswith(b"health"), needle
    data[where + at] ^= mask
    path.write_bytes(bytes(data))


def test_a_bit_flipped_in_the_saved_scenario_is_said_and_never_played_or_exported(nova: Nova, tmp_path: Path) -> None:
    """F1: one bit of Valerio's `health = 6` in the copy of the scenario saved with the game made `show` exit 0 with
    his health 7, and `export` copied the changed text."""
    state = tmp_path / "games.db"
    nova.json("session", "new", "--scenario", DEMO, "--state", state)
    assert nova.json("session", "show", "--state", state)[0]["scenario"]["heroes"][0]["health"] == 6
    flipped(state, b"health = 6", len("health = "), 0x01)  # '6' -> '7'
    before = digest(state)
    out = tmp_path / "game.jsonl"
    for args in (("show",), ("export",), ("export", "--out", str(out)), ("apply",), ("undo",)):
        code, shown, err = nova("session", *args, "--state", state, stdin='{"type": "end_activation"}\n')
        assert code == 1 and "health" not in shown, (args, shown)
        assert f"{state}: game 1 is damaged (the copy of its scenario saved with it no longer matches its checksum" in err, (args, err)
    assert not out.exists() and digest(state) == before


def test_a_changed_title_edition_status_or_time_of_a_game_is_said(nova: Nova, tmp_path: Path) -> None:
    """The rest of a game's row that says what it is (kind, title, edition, source, status, start and last
    times) is sealed too: `list` and `export` showed a changed title or time with no word."""
    state = tmp_path / "games.db"
    original = tmp_path / "original.db"
    nova.json("session", "new", "--scenario", DEMO, "--state", state)
    nova.json("session", "apply", "--state", state, stdin='{"type": "spend_ap", "ap": 2, "action": "move"}\n')
    original.write_bytes(state.read_bytes())
    for change in ("title = replace(title, 'Sisto', 'Sistp')", "edition = 'first'", "status = 'archived'",
                   "scenario_source = scenario_source || 'x'", "created_at = replace(created_at, '-', '+')",
                   "updated_at = replace(updated_at, ':', ';')", "kind = 'status'"):  # fmt: skip
        state.write_bytes(original.read_bytes())
        with closing(sqlite3.connect(state)) as db:
            db.execute(f"UPDATE games SET {change}")
            db.commit()
        for args in (("show",), ("list",), ("export",)):
            code, _, err = nova("session", *args, "--state", state)
            assert code == 1 and f"{state}: game 1 is damaged (" in err and "checksum" in err, (change, args, err)


def test_archive_and_resume_seal_a_game_again_and_refuse_a_damaged_one(nova: Nova, tmp_path: Path) -> None:
    """A status change seals the row again (the game still shows); one on a damaged row would seal the damage
    as sound: it is refused and the file left as it is, and `delete` still takes the game away."""
    state = tmp_path / "games.db"
    nova.json("session", "new", "--scenario", DEMO, "--state", state)
    nova.json("session", "new", "--scenario", DEMO, "--state", state)
    assert [g["status"] for g in nova.json("session", "archive", "--game", "1", "--state", state)] == ["archived"]
    assert nova.json("session", "resume", "--game", "1", "--state", state)[0]["status"] == "active"
    nova.json("session", "show", "--game", "1", "--state", state)
    with closing(sqlite3.connect(state)) as db:
        db.execute("UPDATE games SET title = 'Skirmish at the Ponte Sistp' WHERE id = 2")
        db.commit()
    before = digest(state)
    for action in ("archive", "resume", "list"):
        code, out, err = nova("session", action, "--game", "2", "--state", state) if action != "list" else \
            nova("session", "list", "--state", state)  # fmt: skip
        assert code == 1 and f"{state}: game 2 is damaged (what it is," in err, (action, err)
        assert digest(state) == before, action
    assert [json.loads(line)["game"] for line in out.splitlines()] == [1]  # the game not damaged still listed
    assert nova.json("session", "delete", "--game", "2", "--state", state)[0]["deleted"] is True
    assert [g["game"] for g in nova.json("session", "list", "--state", state)] == [1]


def test_reading_the_campaign_sheet_before_its_first_event_makes_nothing(nova: Nova, tmp_path: Path) -> None:
    """`show --game campaign` made the sheet in a file it opened to read."""
    state = tmp_path / "games.db"
    nova.json("session", "new", "--scenario", DEMO, "--state", state)
    before = digest(state)
    for action in ("show", "export"):
        code, _, err = nova("session", action, "--game", "campaign", "--state", state)
        assert code == 1 and f"{state}: no campaign sheet yet (its first event makes it" in err, (action, err)
    assert digest(state) == before
    nova.json("session", "apply", "--game", "campaign", "--state", state, stdin='{"type": "florins", "amount": 2}\n')
    assert nova.json("session", "show", "--game", "campaign", "--state", state)[0]["florins"] == 2


def test_a_flipped_recorded_at_is_said_and_not_exported(nova: Nova, tmp_path: Path) -> None:
    """A flipped digit of an event's time was exported with no word."""
    state = tmp_path / "games.db"
    events = script(endless_text(), 5, seed=3)
    with StateFile(state, create=True, folds=FOLDS) as games:
        games.new_game(endless_text(), "endless.toml")
        for event in events:
            games.journal().append(event)
        (recorded,) = games.db.execute("SELECT recorded_at FROM events WHERE seq = 3").fetchone()
    flipped(state, recorded.encode(), len("2026-12-07T23:"), 0x01)  # a minute
    out = tmp_path / "game.jsonl"
    for args in (("export",), ("export", "--out", str(out)), ("show",)):
        code, printed, err = nova("session", *args, "--state", state)
        assert code == 1 and printed == "" and f"{state}: game 1: stored event 3 is damaged" in err, (args, err)
    assert not out.exists()


def test_every_damage_message_names_the_state_file(nova: Nova, tmp_path: Path) -> None:
    """The damaged-event message named the game and the event, not the file (a table may keep several)."""
    state = tmp_path / "games.db"
    events = script(endless_text(), 30, seed=8)
    with StateFile(state, create=True, folds=FOLDS) as games:
        games.new_game(endless_text(), "endless.toml")
        for event in events:
            games.journal().append(event)
    original = state.read_bytes()
    for sql, says in (("UPDATE events SET body = body || ' ' WHERE seq = 12", "game 1: stored event 12 is damaged"),
                      ("UPDATE games SET head = 3", "game 1 is damaged (how many of its events stand, 3,"),
                      ("DELETE FROM events WHERE seq = 20", "game 1: event 20 is missing from the journal")):  # fmt: skip
        state.write_bytes(original)
        with closing(sqlite3.connect(state)) as db:
            db.execute(sql)
            db.commit()
        for args in (("show",), ("undo",), ("export",)):
            code, _, err = nova("session", *args, "--state", state)
            if args == ("export",) and "missing" in says:
                says = "game 1 is damaged (its 29 stored events do not run from 1 up to its head"
            assert code == 1 and f"{state}: {says}" in err, (sql, args, err)


def test_show_and_export_never_write_not_even_a_snapshot_they_pass_over(nova: Nova, tmp_path: Path) -> None:
    """`show` and `export` open the file to read, yet stored a fresh snapshot where the replay passed a damaged
    one: a write from a command that only reads. Only a writing command mends it."""
    state = tmp_path / "games.db"
    events = script(endless_text(), 150, seed=31)
    with StateFile(state, create=True, folds=FOLDS) as games:
        games.db.execute("PRAGMA synchronous = OFF")  # (fast: no power is cut here)
        games.new_game(endless_text(), "endless.toml")
        journal = games.journal()
        for event in events:
            journal.append(event)
    with closing(sqlite3.connect(state)) as db:
        (text,) = db.execute("SELECT state FROM snapshots WHERE seq = 100").fetchone()
        db.execute("UPDATE snapshots SET state = ? WHERE seq = 100", (text.replace('"count":100', '"count":101', 1),))
        db.commit()
    before = digest(state)
    for args in (("show",), ("export",), ("list",), ("show",)):
        nova.json("session", *args, "--state", state)
        assert digest(state) == before, args
    shown = nova.json("session", "show", "--state", state)[0]
    assert shown == fold_state(endless_text(), events)
    nova("session", "apply", "--state", state)  # a writing command (no event): the replay's snapshots stored
    with StateFile(state, folds=FOLDS) as games:
        assert games.db.execute("SELECT seq FROM snapshots ORDER BY seq").fetchall() == [(100,), (150,)]
        (text,) = games.db.execute("SELECT state FROM snapshots WHERE seq = 100").fetchone()
        assert '"count":100' in text


# -- any bytes ------------------------------------------------------------------------------------------------


@cache
def _parser() -> argparse.ArgumentParser:
    from assistant.cli import build_parser

    return build_parser()


def _run(*args: str) -> tuple[int, str, str]:
    """`nova-table ARGS` in this process: exit code, stdout, stderr (a traceback fails the test)."""
    parsed = _parser().parse_args(list(args))
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = int(parsed.run(parsed))
    return code, out.getvalue(), err.getvalue()


READS = (("session", "show"), ("session", "export"), ("session", "list"))


@cache
def _small_game() -> tuple[bytes, dict[tuple[str, str], str], list[tuple[int, int]]]:
    """A small state file (a game of 12 events with snapshots, the campaign sheet), what each read prints, and
    where its stored texts lie in it (the scenario, the title, the times, the events, the snapshots)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "games.db"
        with StateFile(path, create=True, folds=FOLDS, snapshot_every=5) as games:
            games.new_game(endless_text(), "endless.toml")
            journal = games.journal()
            for event in script(endless_text(), 12, seed=2):
                journal.append(event)
            games.journal("campaign").append({"type": "florins", "amount": 3})
            games.resume(1)
            texts = [row[0][:400] for row in games.db.execute(
                "SELECT scenario_text FROM games WHERE id = 1 UNION ALL SELECT title FROM games UNION ALL "
                "SELECT created_at FROM games UNION ALL SELECT updated_at FROM games UNION ALL SELECT body FROM events "
                "UNION ALL SELECT recorded_at FROM events UNION ALL SELECT state FROM snapshots")]  # fmt: skip
        printed = {}
        for args in READS:
            code, out, err = _run(*args, "--state", str(path))
            assert code == 0, err
            printed[args] = out
        data = path.read_bytes()
        starts = [(data.find(text.encode()), len(text.encode())) for text in texts]
        return data, printed, [(start, start + size) for start, size in starts if start >= 0]


def _said_or_unchanged(data: bytes, printed: dict[tuple[str, str], str] | None) -> None:
    """Each read of `data` as a state file prints what the intact game prints (`printed`), or refuses with a
    message on stderr and prints nothing; the file itself is never changed by a read."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "games.db"
        path.write_bytes(data)
        for args in READS:
            code, out, err = _run(*args, "--state", str(path))
            if code == 0 and printed is not None:
                assert out == printed[args], args
            else:  # `list` lists the games not damaged
                listed = set(printed[args].splitlines()) if printed is not None and args[1] == "list" else set()
                assert code == 1 and set(out.splitlines()) <= listed, (args, code, out, err)
                assert err.startswith(f"nova-table session {args[1]}: "), err
                assert "\n" == err[-1] and "Traceback" not in err, err
            assert path.read_bytes() == data, args


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_a_state_file_with_any_byte_flipped_is_the_same_game_or_said(data: st.DataObject) -> None:
    original, printed, texts = _small_game()
    anywhere = st.integers(0, len(original) - 1)
    offset = data.draw(st.one_of(anywhere, st.sampled_from(texts).flatmap(lambda span: st.integers(*span))), label="offset")
    mask = data.draw(st.integers(1, 255), label="mask")
    damaged = bytearray(original)
    damaged[offset] ^= mask
    _said_or_unchanged(bytes(damaged), printed)


@settings(max_examples=40, deadline=None)
@given(st.one_of(st.binary(max_size=600), st.binary(min_size=84, max_size=600).map(lambda tail: SQLITE_MAGIC + tail)))
def test_any_bytes_as_a_state_file_are_said(data: bytes) -> None:
    _said_or_unchanged(data, None)
