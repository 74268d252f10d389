"""Broken inputs: each gets a clear message naming the file (and line, field), and nothing is lost or changed."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from assistant.rules.bounds import LINE
from assistant.session import schema
from assistant.session.errors import StateFileError
from assistant.session.games import StateFile, seal_game
from tests.session.conftest import DEMO, FOLDS, Nova, demo_text, endless_text, fold_state, script


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def saved_game(path: Path, count: int) -> list[dict[str, object]]:
    """A state file with one game of `count` events, closed (so the log is checkpointed into it)."""
    events = script(endless_text(), count, seed=31)
    with StateFile(path, create=True, folds=FOLDS) as games:
        games.new_game(endless_text(), "endless.toml")
        journal = games.journal()
        for event in events:
            journal.append(event)
    assert not Path(f"{path}-wal").exists()
    return events


def refuses_and_keeps(nova: Nova, path: Path, *expected: str) -> str:
    """Every command refuses `path` with a message holding `expected`, and leaves its bytes alone."""
    before = digest(path)
    messages = []
    for args in (("show",), ("list",), ("undo",), ("apply",), ("export",), ("new", "--scenario", str(DEMO))):
        code, out, err = nova("session", *args, "--state", path, stdin='{"type": "end_activation"}\n')
        assert code == 1, (args, out, err)
        assert str(path) in err
        for words in expected:
            assert words in err, (args, err)
        messages.append(err)
    assert digest(path) == before
    assert not Path(f"{path}-wal").is_file()
    return messages[0]


def test_a_truncated_file(nova: Nova, state_path: Path) -> None:
    saved_game(state_path, 400)
    data = state_path.read_bytes()
    state_path.write_bytes(data[: len(data) // 2])
    message = refuses_and_keeps(nova, state_path, "truncated", "left as it is")
    assert f"the file has {len(data) // 2} bytes" in message


def test_a_file_of_zeros(nova: Nova, state_path: Path) -> None:
    state_path.write_bytes(bytes(65536))
    refuses_and_keeps(nova, state_path, "all zeros", "not a Nova Table state file")


def test_a_file_whose_header_alone_is_zeros_is_not_called_all_zeros(nova: Nova, state_path: Path) -> None:
    """Told "all zeros", a player throws away a file whose 250 events are all still in it."""
    saved_game(state_path, 250)
    data = bytearray(state_path.read_bytes())
    data[:100] = bytes(100)
    state_path.write_bytes(bytes(data))
    message = refuses_and_keeps(nova, state_path, "has lost its header", "holds data", "keep the file")
    assert "all zeros" not in message


def test_a_file_of_a_newer_schema_version(nova: Nova, state_path: Path) -> None:
    saved_game(state_path, 5)
    with closing(sqlite3.connect(state_path)) as db:
        db.execute(f"PRAGMA user_version = {schema.SCHEMA_VERSION + 1}")
    refuses_and_keeps(nova, state_path, f"schema version {schema.SCHEMA_VERSION + 1}", "update Nova Table")


def test_a_damaged_page(nova: Nova, state_path: Path) -> None:
    saved_game(state_path, 400)
    data = bytearray(state_path.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    data[page * 3 : page * 3 + 200] = bytes([0x5A]) * 200  # scribble over the start of page 4
    state_path.write_bytes(bytes(data))
    refuses_and_keeps(nova, state_path, "damaged")


def test_not_a_database_another_programs_database_and_an_empty_file(nova: Nova, tmp_path: Path) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("shopping list\n" * 20)
    refuses_and_keeps(nova, text, "not an SQLite database")
    other = tmp_path / "other.db"
    with closing(sqlite3.connect(other)) as db:
        db.execute("CREATE TABLE photos (name TEXT)")
    refuses_and_keeps(nova, other, "another program")
    empty = tmp_path / "empty.db"
    empty.touch()
    code, _, err = nova("session", "show", "--state", empty)
    assert code == 1 and "empty" in err and empty.stat().st_size == 0


def test_a_missing_file_is_not_made_by_reading_it(nova: Nova, tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.db"
    code, _, err = nova("session", "show", "--state", missing)
    assert code == 1 and "no such state file" in err and str(missing) in err
    assert not missing.exists()


def test_a_scenario_with_a_typo_names_the_file_line_and_field(nova: Nova, tmp_path: Path) -> None:
    lines = demo_text().splitlines(keepends=True)
    typo_line = next(i for i, line in enumerate(lines) if line.startswith("physical_defense")) + 1
    lines[typo_line - 1] = lines[typo_line - 1].replace("physical_defense", "physical_defence")
    scenario = tmp_path / "typo.toml"
    scenario.write_text("".join(lines))
    state = tmp_path / "games.db"
    code, out, err = nova("session", "new", "--scenario", scenario, "--state", state)
    assert code == 1 and out == ""
    assert f"{scenario}:{typo_line}: enemies[1].physical_defence: unknown field; did you mean 'physical_defense'?" in err
    assert not state.exists()  # nothing starts from a half-read file

    saved = tmp_path / "saved.db"
    saved_game(saved, 10)
    before = digest(saved)
    code, _, err = nova("session", "new", "--scenario", scenario, "--state", saved)
    assert code == 1 and f"{scenario}:{typo_line}" in err
    assert digest(saved) == before


def test_an_event_the_rules_refuse_is_reported_and_not_stored(nova: Nova, state_path: Path) -> None:
    nova.json("session", "new", "--scenario", DEMO, "--state", state_path)
    good = {"type": "spend_ap", "ap": 2, "action": "move"}
    lines = [good, {"type": "spend_ap", "ap": 7, "action": "move"}, {"type": "hero_attack", "group": "papal_guards", "dice": [5]}]
    code, out, _ = nova("session", "apply", "--state", state_path, stdin="".join(json.dumps(e) + "\n" for e in lines))
    answers = [json.loads(line) for line in out.splitlines()]
    assert code == 1
    assert answers[0] == {"line": 1, "seq": 1, "type": "spend_ap"}
    assert answers[1]["line"] == 2 and answers[1]["error"].startswith("ap: Valerio has 3 AP left, not 7")
    assert answers[2]["line"] == 3 and answers[2]["error"].startswith("group:") and "papal_guards" in answers[2]["error"]
    with StateFile(state_path, folds=FOLDS) as games:
        assert games.journal().events() == [good]


def exported_lines(nova: Nova, tmp_path: Path, count: int) -> list[str]:
    """The lines of an export of a game of `count` events (saved in tmp_path/source.db)."""
    source = tmp_path / "source.db"
    saved_game(source, count)
    exported = tmp_path / "game.jsonl"
    nova.json("session", "export", "--state", source, "--out", exported)
    return exported.read_text().splitlines(keepends=True)


def test_a_torn_export_file_imports_nothing(nova: Nova, tmp_path: Path) -> None:
    lines = exported_lines(nova, tmp_path, 30)
    target = tmp_path / "target.db"
    nova.json("session", "new", "--scenario", DEMO, "--state", target)
    before = digest(target)

    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(lines[:20]))
    code, _, err = nova("session", "import", "--state", target, cut)
    assert code == 1 and f"{cut}:20" in err and "truncated" in err and "nothing was imported" in err

    edited = tmp_path / "edited.jsonl"
    bad = json.loads(lines[5])
    bad["event"] = {"type": "spend_ap", "ap": 40, "action": "move"}
    edited.write_text("".join(lines[:5] + [json.dumps(bad) + "\n"] + lines[6:]))
    code, _, err = nova("session", "import", "--state", target, edited)
    assert code == 1 and f"{edited}:6: event 5 is refused by the rules: ap:" in err

    garbled = tmp_path / "garbled.jsonl"
    garbled.write_text("".join(lines[:3] + ['{"seq": 3, "event": \n'] + lines[4:]))
    code, _, err = nova("session", "import", "--state", target, garbled)
    assert code == 1 and f"{garbled}:4: not JSON" in err

    latin = tmp_path / "latin.jsonl"  # a byte that is not UTF-8: named by its line and column, as a typed line's
    latin.write_bytes("".join(lines[:2]).encode() + b'{"seq": 2, "note": "caf\xe9"}\n' + "".join(lines[3:]).encode())
    code, _, err = nova("session", "import", "--state", target, latin)
    assert code == 1 and f"{latin}:3: not JSON (not UTF-8 text (a byte 0xE9 at column 24)); nothing was imported" in err
    for path, why in ((tmp_path, "a folder, not a game export; nothing was imported"),
                      (tmp_path / "gone.jsonl", "cannot read the file: No such file or directory")):
        code, _, err = nova("session", "import", "--state", target, path)
        assert code == 1 and err.endswith(f": {path}: {why}\n"), err
    code, _, err = nova("session", "import", "--state", target, "")
    assert code == 1 and err.endswith(": '': no file named (the path is empty)\n"), err
    with StateFile(target, folds=FOLDS) as games:
        assert [g.id for g in games.games()] == [1]
    assert digest(target) == before or not Path(f"{target}-wal").exists()


def test_opening_a_broken_file_in_code_raises_state_file_error(tmp_path: Path) -> None:
    zeros = tmp_path / "zeros.db"
    zeros.write_bytes(bytes(4096))
    with pytest.raises(StateFileError, match="all zeros"):
        StateFile(zeros)
    with pytest.raises(StateFileError, match="all zeros"):
        StateFile(zeros, create=True)  # never overwritten by a new game
    assert zeros.read_bytes() == bytes(4096)


TOO_LONG = "1" + "0" * 5000  # over Python's limit of 4300 digits for a number read from text
TOO_DEEP = "[" * 30000 + "]" * 30000  # (within the 64 Ki characters of an `apply` line)


def test_a_line_past_the_bound_is_refused_unread_and_the_next_stored(nova: Nova, state_path: Path) -> None:
    """`session apply` reads no line whole past 64 Ki characters: such a line is refused, the next one stored."""
    nova.json("session", "new", "--scenario", DEMO, "--state", state_path)
    good = {"type": "spend_ap", "ap": 2, "action": "move"}
    huge = json.dumps({**good, "note": "x" * 10_000_000})
    bad_value = json.dumps({"type": "spend_ap", "ap": 2, "action": "y" * 60_000})
    code, out, _ = nova("session", "apply", "--state", state_path, stdin=f"{huge}\n{bad_value}\n{json.dumps(good)}\n")
    assert code == 1
    assert [json.loads(line) for line in out.splitlines()] == [
        {"line": 1, "error": f"longer than {LINE} characters; not stored"},
        {"line": 2, "error": "action: must be at most 256 characters, not 60000: '" + "y" * 39 + "...; not stored"},
        {"line": 3, "seq": 1, "type": "spend_ap"}]  # fmt: skip


def test_lines_python_cannot_read_as_numbers_or_nesting_are_refused_line_by_line(nova: Nova, state_path: Path) -> None:
    nova.json("session", "new", "--scenario", DEMO, "--state", state_path)
    good = {"type": "spend_ap", "ap": 2, "action": "move"}
    lines = ['{"type": "spend_ap", "ap": ' + TOO_LONG + ', "action": "move"}', '{"type": ' + TOO_DEEP + "}",
             json.dumps(good)]  # fmt: skip
    code, out, _ = nova("session", "apply", "--state", state_path, stdin="".join(line + "\n" for line in lines))
    answers = [json.loads(line) for line in out.splitlines()]
    assert code == 1
    assert answers[0] == {"line": 1, "error": "not JSON (a number of more than 4300 digits); not stored"}
    assert answers[1] == {"line": 2, "error": "not JSON (nested too deeply); not stored"}
    assert answers[2] == {"line": 3, "seq": 1, "type": "spend_ap"}
    # a lone surrogate, which JSON's escapes can write: no text, SQLite could not store it (a traceback, the lines
    # after it never read); refused with its line, and the next line stored
    lone = '{"type": "end_activation", "note": "\\ud800"}'
    code, out, _ = nova("session", "apply", "--state", state_path, stdin=lone + "\n" + json.dumps(good) + "\n")
    answers = [json.loads(line) for line in out.splitlines()]
    assert answers == [{"line": 1, "error": "not JSON (a lone surrogate ('\\ud800') in a string: not text); not stored"},
                       {"line": 2, "seq": 2, "type": "spend_ap"}]  # fmt: skip
    # a Latin-1 byte (stdin is read with "surrogateescape"), and a key given twice (json kept the last: a guess)
    latin = '{"type": "end_activation", "note": "caf\udce9"}'
    twice = '{"type": "spend_ap", "ap": 1, "action": "move", "ap": 3}'
    code, out, _ = nova("session", "apply", "--state", state_path, stdin=latin + "\n" + twice + "\n")
    assert [json.loads(line) for line in out.splitlines()] == [
        {"line": 1, "error": "not JSON (not UTF-8 text (a byte 0xE9 at column 40)); not stored"},
        {"line": 2, "error": 'not JSON (the key "ap" twice in one object (which value is meant?)); not stored'}]

    exported = state_path.with_suffix(".jsonl")
    nova.json("session", "export", "--state", state_path, "--out", exported)
    lines = exported.read_text().splitlines(keepends=True)
    for number, bad in ((3, '{"end": ' + TOO_LONG + "}\n"), (2, TOO_DEEP + "\n")):
        edited = state_path.with_name(f"edited{number}.jsonl")
        edited.write_text("".join(lines[: number - 1] + [bad] + lines[number:]))
        code, _, err = nova("session", "import", "--state", state_path, edited)
        assert code == 1 and f"{edited}:{number}: not JSON (" in err and "nothing was imported" in err


@pytest.mark.parametrize(("added", "why"), [(f"deep = {TOO_DEEP[:6000]}{TOO_DEEP[-6000:]}", "nested too deeply"),
                                            (f"long = {TOO_LONG}", "a number of more than 4300 digits")])  # fmt: skip
def test_a_scenario_python_cannot_read_names_the_file(nova: Nova, tmp_path: Path, added: str, why: str) -> None:
    scenario = tmp_path / "mission.toml"
    scenario.write_text(added + "\n" + demo_text())
    code, _, err = nova("session", "new", "--scenario", scenario, "--state", tmp_path / "games.db")
    assert code == 1 and err.endswith(f"{scenario}: not valid TOML: {why}\n")


def test_a_scenario_over_before_it_starts_is_refused_at_its_end_line(nova: Nova, tmp_path: Path) -> None:
    lines = demo_text().splitlines(keepends=True)
    at = lines.index("[end]\n")
    start = next(i for i, line in enumerate(lines) if line.startswith("[horologium]"))
    hour, minute = (int(lines[start + n].split("=")[1].split("#")[0]) for n in (1, 2))
    lines[at + 1 : at + 3] = [f"hour = {hour}\n", f"minute = {minute}\n"]
    scenario = tmp_path / "over.toml"
    scenario.write_text("".join(lines))
    code, _, err = nova("session", "new", "--scenario", scenario, "--state", tmp_path / "games.db")
    assert code == 1 and f"{scenario}:{at + 1}: end: the mission would be over before it starts" in err
    lines[at + 1] = f"hour = {hour + 1}\n"  # an hour later: a mission of one hour, over before its bells ring
    scenario.write_text("".join(lines))
    code, _, err = nova("session", "new", "--scenario", scenario, "--state", tmp_path / "games.db")
    event = lines.index('id = "bells"\n')  # the line of its [[events]] header is the one before
    assert code == 1 and (f"{scenario}:{event}: events[1]: at hour 2, sector 6: the hands, which start at hour 1, sector 12, reach it only after "
                         "the mission's end ([end] at hour 2, sector 12)") in err
    lines[at + 1] = f"hour = {hour + 2}\n"  # two hours: the bells ring within it
    scenario.write_text("".join(lines))
    assert nova.json("session", "new", "--scenario", scenario, "--state", tmp_path / "games.db")[0]["game"] == 1


def test_a_scenario_whose_file_name_is_not_utf8_starts_a_game(nova: Nova, tmp_path: Path) -> None:
    name = os.fsdecode(bytes(tmp_path) + b"/mission\xff.toml")
    Path(name).write_text(demo_text())
    (info,) = nova.json("session", "new", "--scenario", name, "--state", tmp_path / "games.db")
    assert info["scenario"].endswith("mission\ufffd.toml") and info["title"] == "Skirmish at the Ponte Sisto"


def test_an_imported_game_takes_its_edition_from_its_scenario_and_needs_a_real_date(nova: Nova, tmp_path: Path) -> None:
    lines = exported_lines(nova, tmp_path, 5)
    header = json.loads(lines[0])
    assert header["edition"] == "renaissance"
    for changes, refused in (({"edition": "classic"}, ""), ({"created_at": "not a date"}, "created_at: expected a date"),
                             ({"scenario_source": {"a": 1}}, "scenario_source: expected text or null, got {'a': 1}"),
                             ({"edition": ["x"]}, "edition: expected text or null, got ['x']"),
                             ({"title": "\ud800"}, "not JSON (a lone surrogate ('\\ud800') in a string: not text)")):  # fmt: skip
        edited = tmp_path / "edited.jsonl"
        edited.write_text(json.dumps(dict(header, **changes)) + "\n" + "".join(lines[1:]))
        code, out, err = nova("session", "import", "--state", tmp_path / "target.db", edited)
        if refused:
            assert code == 1 and refused in err
        else:
            assert code == 0 and json.loads(out)["edition"] == "renaissance"


def test_a_stored_event_whose_text_is_damaged_is_said_damaged_and_not_exported(nova: Nova, state_path: Path) -> None:
    """An event's text cut short inside an intact page (an edit by hand, a bad sector SQLite's check misses):
    show and undo say the event is damaged (they blamed this version of the rules), and export writes no
    file, where it wrote one that import then refused."""
    saved_game(state_path, 20)
    with closing(sqlite3.connect(state_path)) as db:
        (body,) = db.execute("SELECT body FROM events WHERE seq = 5").fetchone()
        db.execute("UPDATE events SET body = ? WHERE seq = 5", (body[:-3],))
        db.commit()
    target = state_path.with_suffix(".jsonl")
    for args in (("show",), ("undo",), ("export", "--out", str(target))):
        code, _, err = nova("session", *args, "--state", state_path)
        assert code == 1 and "game 1: stored event 5 is damaged (its bytes no longer match their checksum" in err and "rules" not in err, (args, err)
    assert not target.exists() and not target.with_name(target.name + ".partial").exists()


def crashed(path: Path, count: int, seed: int) -> None:
    """`path` and its write-ahead log as a pulled plug leaves them: events in the log, not yet in the file."""
    events = script(endless_text(), count, seed=seed)
    with StateFile(path.with_name("writing.db"), create=True, folds=FOLDS) as games:
        games.new_game(endless_text(), "endless.toml")
        journal = games.journal()
        for event in events:
            journal.append(event)
        path.write_bytes(path.with_name("writing.db").read_bytes())  # copied while open: as the card held them
        Path(f"{path}-wal").write_bytes(Path(f"{path.with_name('writing.db')}-wal").read_bytes())
    assert Path(f"{path}-wal").stat().st_size > 0


def test_another_file_s_log_beside_a_game_is_refused_and_neither_file_is_changed(nova: Nova, tmp_path: Path) -> None:
    """A log left by another file's crash, beside a whole game (a copy put back on the card): the refusal
    said "left as it is", but closing the connection copied that log into the file, and the game was lost."""
    state = tmp_path / "games.db"
    saved_game(state, 250)
    crashed(tmp_path / "other.db", 40, seed=9)
    log = Path(f"{state}-wal")
    log.write_bytes(Path(f"{tmp_path / 'other.db'}-wal").read_bytes())
    before = (digest(state), digest(log))
    for args in (("show",), ("list",), ("apply",), ("export",)):
        code, _, err = nova("session", *args, "--state", state, stdin='{"type": "end_activation"}\n')
        assert code == 1 and f"{state} is damaged" in err, (args, err)
        assert (digest(state), digest(log)) == before, args
    log.unlink()
    Path(f"{state}-shm").unlink(missing_ok=True)
    assert nova.json("session", "list", "--state", state)[0]["events"] == 250  # the game, whole


def test_a_game_moved_away_after_a_crash_keeps_its_newest_events(nova: Nova, tmp_path: Path) -> None:
    """After a pulled plug the newest events are in table.db-wal: a new game at that name read that log as its
    own and deleted it. Now the new game is refused beside it; and once a command has opened the pair, the
    file holds every event on its own (moved or copied without its log)."""
    table = tmp_path / "table.db"
    crashed(table, 120, seed=5)
    moved = tmp_path / "moved.db"
    table.rename(moved)
    log = Path(f"{table}-wal")
    before = digest(log)
    code, _, err = nova("session", "new", "--scenario", DEMO, "--state", table)
    assert code == 1 and f"{log} holds the newest events of a game whose file is not beside it" in err, err
    assert digest(log) == before and not table.exists()
    moved.rename(table)
    assert nova.json("session", "resume", "--game", "1", "--state", table)[0]["events"] == 120  # opened: the log copied in
    alone = tmp_path / "alone.db"
    alone.write_bytes(table.read_bytes())  # the file by itself, as copied to a PC
    assert nova.json("session", "list", "--state", alone)[0]["events"] == 120


@pytest.mark.parametrize(("table", "column", "where"), [("games", "scenario_text", "id = 1"), ("games", "title", "id = 1"),
                                                         ("events", "body", "seq = 7")])  # fmt: skip
def test_a_stored_text_that_is_not_utf8_is_damage_said_not_a_traceback(nova: Nova, state_path: Path, table: str,
                                                                        column: str, where: str) -> None:  # fmt: skip
    """One byte gone bad in a stored text: sqlite3 raised OperationalError ("Could not decode to UTF-8 column")
    through `show`, `play`, `export` and `list`, a traceback where the players needed the file named."""
    saved_game(state_path, 20)
    with closing(sqlite3.connect(state_path)) as db:
        db.execute(f"UPDATE {table} SET {column} = CAST(CAST({column} AS BLOB) || X'E9' AS TEXT) WHERE {where}")
        db.commit()
    before = digest(state_path)
    refused = set()
    for args in (("show",), ("list",), ("export",)):
        code, _, err = nova("session", *args, "--state", state_path)
        if code:  # a command that does not read the text (`list` reads no scenario, `show` no title) shows the rest
            assert err.endswith(f": {state_path} is damaged: a text stored in it is not UTF-8 (a byte 0xE9); it was left as it is\n"), err
            refused.add(args[0])
    assert refused == ({"show", "list", "export"} if column == "title" else {"show", "export"})  # show checks the title
    assert digest(state_path) == before


def test_a_damaged_copy_of_the_scenario_in_the_state_file_is_not_blamed_on_the_file_on_disk(nova: Nova,
                                                                                               state_path: Path) -> None:  # fmt: skip
    """The game keeps its own copy of the scenario: a fault in that copy named the file on disk, where a
    player looking for it would not find it. Changed on the card, the copy fails its checksum; sealed as it
    is (a copy this Nova Table cannot read, saved by another), its fault is named in the copy."""
    saved_game(state_path, 5)
    with closing(sqlite3.connect(state_path)) as db:
        db.execute("UPDATE games SET scenario_text = replace(scenario_text, 'swiftness', 'swiftnesz') WHERE id = 1")
        db.commit()
    code, _, err = nova("session", "show", "--state", state_path)
    assert code == 1 and f"{state_path}: game 1 is damaged (the copy of its scenario saved with it no longer matches" in err
    with closing(sqlite3.connect(state_path)) as db:
        seal_game(db, 1)
        db.commit()
    code, _, err = nova("session", "show", "--state", state_path)
    assert code == 1 and f"{state_path} (the copy of endless.toml saved with game 1):" in err, err


def test_a_byte_changed_in_a_snapshot_or_an_event_is_caught_by_its_checksum(nova: Nova, state_path: Path) -> None:
    """SQLite keeps no checksum of a row: a digit changed in a snapshot showed a game the events never made, and
    one in an event's dice changed the game with no word. A snapshot that fails its checksum is passed over
    (the game replayed from the one before); an event that fails it is said damaged."""
    events = saved_game(state_path, 250)
    other = state_path.with_name("other.db")
    other.write_bytes(state_path.read_bytes())
    with closing(sqlite3.connect(state_path)) as db:
        (state,) = db.execute("SELECT state FROM snapshots WHERE seq = 200").fetchone()
        changed = state.replace('"count":200', '"count":201', 1)
        assert changed != state and len(changed) == len(state)
        db.execute("UPDATE snapshots SET state = ? WHERE seq = 200", (changed,))
        db.commit()
    shown = nova.json("session", "show", "--state", state_path)[0]
    assert shown == fold_state(endless_text(), events) and shown["count"] == 250
    with closing(sqlite3.connect(other)) as db:
        seq, body = next((seq, body) for seq, body in db.execute("SELECT seq, body FROM events WHERE seq > 220 ORDER BY seq")
                         if any(c.isdigit() for c in body))  # an AP or a die  # fmt: skip
        digit = next(i for i, c in enumerate(body) if c.isdigit())
        db.execute("UPDATE events SET body = ? WHERE seq = ?", (body[:digit] + str((int(body[digit]) + 1) % 10) + body[digit + 1:], seq))
        db.commit()
    for args in (("show",), ("export",)):  # export reads every event, not those after the last snapshot only
        code, _, err = nova("session", *args, "--state", other)
        assert code == 1 and f"stored event {seq} is damaged (its bytes no longer match their checksum" in err, err


def test_the_numbers_that_place_a_row_are_in_its_checksum_and_the_head_has_its_own(nova: Nova, state_path: Path) -> None:
    """Bits flipped in the numbers, not the texts: a game's head rewound it (and the next move deleted the events
    after it), an event's game number cut an export short, a snapshot's number skipped an event, and a text
    made a blob by a flipped type ended in a traceback. Each is said or passed over now."""
    events = saved_game(state_path, 250)
    original = state_path.read_bytes()

    def damaged(sql: str, *commands: str) -> list[str]:
        state_path.write_bytes(original)
        with closing(sqlite3.connect(state_path)) as db:
            db.execute(sql)
            db.commit()
        said = []
        for command in commands:
            code, _, err = nova("session", command, "--state", state_path, stdin=json.dumps(events[0]) + "\n")
            assert code == 1 and "Traceback" not in err, (sql, command, err)
            said.append(err)
        return said

    for err in damaged("UPDATE games SET head = head - 128 WHERE id = 1", "show", "apply", "export"):
        assert "game 1 is damaged" in err and "122" in err, err
    with closing(sqlite3.connect(state_path)) as db:
        assert db.execute("SELECT count(*) FROM events").fetchone() == (250,)  # nothing deleted by the refused move
    for err in damaged("UPDATE events SET game_id = 7 WHERE seq = 240", "show", "export"):
        assert "event 240 is missing" in err or "do not run from 1 up to its head" in err, err
    for err in damaged("UPDATE events SET body = CAST(body AS BLOB) WHERE seq = 230", "show", "export"):
        assert "stored event 230 is damaged (its bytes no longer match their checksum" in err, err
    damaged("UPDATE snapshots SET seq = 201 WHERE seq = 200")
    assert nova.json("session", "show", "--state", state_path)[0] == fold_state(endless_text(), events)  # passed over


def test_a_table_definition_gone_bad_is_said_as_damage_not_a_traceback(nova: Nova, state_path: Path) -> None:
    """quick_check passes a column's name changed in the schema; the first read said `no such column` in a traceback."""
    saved_game(state_path, 5)
    with closing(sqlite3.connect(state_path)) as db:
        db.execute("ALTER TABLE games RENAME COLUMN edition TO editiom")
        db.commit()
    code, _, err = nova("session", "list", "--state", state_path)
    assert code == 1 and err == (f"nova-table session list: {state_path} is damaged (SQLite says: no such column: "
                                 f"g.edition); it was left as it is\n"), err
