"""Several saved games side by side (list, resume, archive, delete) and export / import through `nova-table session`."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from assistant.session.errors import SessionError
from assistant.session.games import StateFile
from tests.session.conftest import DEMO, Nova, demo_text, endless_text, fold_state, script


def play(nova: Nova, state: Path, events: list[dict[str, object]], game: str | None = None) -> None:
    where = ["--game", game] if game else []
    answers = nova.json("session", "apply", "--state", state, *where, stdin="".join(json.dumps(e) + "\n" for e in events))
    assert [a["seq"] for a in answers] == list(range(answers[0]["seq"], answers[0]["seq"] + len(events)))


def test_games_side_by_side_list_resume_archive_delete(nova: Nova, tmp_path: Path) -> None:
    state = tmp_path / "games.db"
    scenario = tmp_path / "endless.toml"
    scenario.write_text(endless_text())
    first, second = script(endless_text(), 7, seed=1), script(endless_text(), 4, seed=2)
    assert nova.json("session", "new", "--scenario", scenario, "--state", state)[0]["game"] == 1
    play(nova, state, first)
    assert nova.json("session", "new", "--scenario", DEMO, "--state", state)[0]["game"] == 2
    nova.json("session", "resume", "--state", state, "--game", "1")
    extra = {"type": "threat", "hero": "sofia", "delta": 1}
    play(nova, state, [extra])  # to game 1, the current one again
    listed = nova.json("session", "list", "--state", state)
    assert [(g["game"], g["events"], g["current"], g["status"]) for g in listed] == [
        (1, 8, True, "active"), (2, 0, False, "active")]  # fmt: skip
    assert listed[1]["title"] == "Skirmish at the Ponte Sisto"

    nova.json("session", "archive", "--state", state, "--game", "1")
    listed = nova.json("session", "list", "--state", state)
    assert [(g["game"], g["status"], g["current"]) for g in listed] == [(1, "archived", False), (2, "active", True)]
    assert [g["game"] for g in nova.json("session", "list", "--state", state, "--active")] == [2]
    play(nova, state, second)  # the current game is now game 2
    shown = nova.json("session", "show", "--state", state, "--game", "1")[0]
    assert shown == fold_state(endless_text(), first + [extra])
    assert nova.json("session", "show", "--state", state)[0] == fold_state(DEMO.read_text(), second)

    assert nova.json("session", "resume", "--state", state, "--game", "1")[0]["status"] == "active"
    deleted = nova.json("session", "delete", "--state", state, "--game", "2")[0]
    assert deleted["deleted"] and deleted["game"] == 2
    assert [g["game"] for g in nova.json("session", "list", "--state", state)] == [1]
    code, _, err = nova("session", "show", "--state", state, "--game", "2")
    assert code == 1 and "no game 2" in err


def test_export_then_import_on_another_device_gives_the_same_game(nova: Nova, tmp_path: Path) -> None:
    here, there = tmp_path / "here.db", tmp_path / "there.db"
    scenario = tmp_path / "endless.toml"
    scenario.write_text(endless_text())
    events = script(endless_text(), 230, seed=3)
    nova.json("session", "new", "--scenario", scenario, "--state", here)
    play(nova, here, events)
    for _ in range(5):
        nova.json("session", "undo", "--state", here)
    exported = tmp_path / "game.jsonl"
    assert nova.json("session", "export", "--state", here, "--out", exported)[0]["events"] == 230
    imported = nova.json("session", "import", "--state", there, exported)[0]
    assert imported["events"] == 225 and imported["undone"] == 5 and imported["current"]
    assert nova.json("session", "show", "--state", there)[0] == nova.json("session", "show", "--state", here)[0]
    assert nova.json("session", "show", "--state", there)[0] == fold_state(endless_text(), events[:225])
    redone = nova.json("session", "redo", "--state", there)[0]
    assert redone["redone"] == events[225]
    # the export of the import is the same file but for when it was last changed
    again = tmp_path / "again.jsonl"
    code, out, _ = nova("session", "export", "--state", there)
    assert code == 0
    again.write_text(out)
    original = [json.loads(line) for line in exported.read_text().splitlines()]
    copied = [json.loads(line) for line in again.read_text().splitlines()]
    for header in (original[0], copied[0]):
        del header["updated_at"], header["head"]  # the redo above moved the copy on by one
    assert original == copied


def test_the_campaign_sheet_lives_in_the_same_file_with_undo(nova: Nova, tmp_path: Path) -> None:
    state = tmp_path / "games.db"
    nova.json("session", "new", "--scenario", DEMO, "--state", state)
    sheet_events: list[dict[str, object]] = [
        {"type": "add_hero", "hero": "valerio", "name": "Valerio", "class": "Squire"},
        {"type": "gain_experience", "xp": 3},
        {"type": "acquire_skill", "hero": "valerio", "skill": "Shield Wall", "cost": 2},
        {"type": "florins", "amount": 12},
        {"type": "side_mission", "id": "S1", "title": "The Lost Relic"},
        {"type": "next_mission", "mission": "1.0 Rome", "town": "Rome"},
    ]
    play(nova, state, sheet_events, game="campaign")
    code, out, _ = nova("session", "apply", "--state", state, "--game", "campaign",
                        stdin=json.dumps({"type": "acquire_skill", "hero": "valerio", "skill": "Charge", "cost": 2}) + "\n")  # fmt: skip
    assert code == 1 and "cost: Valerio has 1 Experience Points to spend, the skill costs 2" in out
    sheet = nova.json("session", "show", "--state", state, "--game", "campaign")[0]
    assert sheet["florins"] == 12 and sheet["next_mission"] == "1.0 Rome"
    assert sheet["heroes"][0]["skills"] == [{"name": "Shield Wall", "cost": 2}]
    assert sheet["heroes"][0]["experience_available"] == 1
    nova.json("session", "undo", "--state", state, "--game", "campaign")
    assert nova.json("session", "show", "--state", state, "--game", "campaign")[0]["next_mission"] is None
    listed = nova.json("session", "list", "--state", state)
    assert [g["game"] for g in listed] == [1, "campaign"]
    assert nova.json("session", "show", "--state", state)[0]["scenario"]["title"] == "Skirmish at the Ponte Sisto"


def test_without_state_the_file_of_nova_table_play_is_used(nova: Nova, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NOVA_TABLE_STATE", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    nova.json("session", "new", "--scenario", DEMO)
    assert (tmp_path / "data" / "nova-table" / "table.db").is_file()
    chosen = tmp_path / "chosen.db"
    monkeypatch.setenv("NOVA_TABLE_STATE", str(chosen))
    nova.json("session", "new", "--scenario", DEMO)
    assert [g["game"] for g in nova.json("session", "list")] == [1] and chosen.is_file()


def test_play_and_session_read_the_state_setting_alike(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An empty NOVA_TABLE_STATE (a blank line in a service file) is unset, and ~ in it is the home folder,
    for `play` as for `session`."""
    from assistant.session.command import default_state
    from assistant.ui.command import default_state_path

    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("NOVA_TABLE_STATE", "")
    assert default_state_path() == Path(default_state()) == tmp_path / "data" / "nova-table" / "table.db"
    monkeypatch.setenv("NOVA_TABLE_STATE", "~/games/table.db")
    assert default_state_path() == Path(default_state()) == tmp_path / "home" / "games" / "table.db"


def test_eight_tables_starting_games_in_one_new_file_at_once_all_start(tmp_path: Path) -> None:
    """Each opener read the file's schema version, its application id and its tables one at a time, so one
    that read across another's first commit called the new file "an SQLite database of another program";
    and turning the file to write-ahead logging said "database is locked" at once (SQLite's busy timeout
    does not wait there). Now they all start their game, in 20 files of 8 at once."""
    refused: list[str] = []
    for trial in range(20):
        path = tmp_path / f"{trial}.db"
        start = threading.Barrier(8)

        def new_game() -> None:
            start.wait()
            try:
                with StateFile(path, create=True) as games:
                    games.new_game(demo_text(), "demo.toml")
            except SessionError as error:
                refused.append(str(error))

        threads = [threading.Thread(target=new_game) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        with StateFile(path) as games:
            assert len(games.games()) == 8
    assert refused == []
