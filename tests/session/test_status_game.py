"""A game of Nova Lectio: Status in the session journal: played through to its final count, undone, redone and
resumed mid-game, listed, exported and imported, like every game; its setup checked as a scenario is."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assistant.session.errors import EventRefused, ExchangeError, ScenarioError
from assistant.session.exchange import export_game, import_game
from assistant.session.fold import default_folds
from assistant.session.games import StateFile, seal_game
from assistant.session.status_fold import setup_text, status_fold
from tests.session.conftest import Nova
from tests.session.status_script import BEFORE_THE_COUNT, FACTIONS, FINAL, OUTCOME, PRIORITY, whole_game

SETUP = setup_text(FACTIONS, PRIORITY)


def tracks(state: Any) -> dict[str, dict[str, int]]:
    return {"status": {str(f): n for f, n in state.status.items()}, "military": {str(f): n for f, n in state.track.items()}}


def replayed(events: list[dict[str, Any]]) -> dict[str, Any]:
    """The state after `events`, folded from scratch, with no journal and no database."""
    fold = status_fold(SETUP, "test")
    state = fold.initial()
    for event in events:
        state = fold.apply(state, json.loads(json.dumps(event)))
    return fold.dump(state)


def test_a_four_round_game_for_three_factions_plays_through_the_journal_to_its_final_score(state_path: Path) -> None:
    """Undo in the middle of round 2 (back to Phase II, an Official taken back), redo, then the rest; the plug
    pulled in round 3 (another opening of the file while the first is still open, as after a crash, snapshots
    every 7 events among the events it resumes from); the outcome is the one worked out by hand."""
    events = whole_game()
    middle = next(i for i, e in enumerate(events) if e["type"] == "resolve_card" and i > 30)  # round 2, Phase III
    with StateFile(state_path, create=True, snapshot_every=7) as games:
        info = games.new_game(SETUP, "the table", "status")
        assert (info.kind, info.title) == ("status", "Status: Mano Invisibile, Ragione di Stato, Nuova Milizia")
        journal = games.journal()
        for event in events[:middle]:
            journal.append(event)
        for _ in range(3):  # the advance to Phase III, then the last two Officials sent
            journal.undo()
        assert journal.fold.dump(journal.state) == replayed(events[: middle - 3])
        assert str(journal.state.phase) == "II" and str(journal.state.to_play) == "ragione"
        journal.redo()
        assert journal.fold.dump(journal.state) == replayed(events[: middle - 2])
        with pytest.raises(EventRefused, match="Nuova Milizia's turn"):  # the Mano is not next: refused, nothing stored
            journal.append({"type": "send_official", "faction": "mano", "card": 1, "value": None})
        plug = next(i for i, e in enumerate(events) if e["type"] == "increase_status" and i > 60)  # round 3, Phase V
        for event in events[middle - 2 : plug]:
            journal.append(event)
        with StateFile(state_path, snapshot_every=7) as resumed:  # the table back on after the plug was pulled
            again = resumed.journal()
            assert again.head == plug and again.fold.dump(again.state) == replayed(events[:plug])
            for event in events[plug:-1]:
                again.append(event)
            assert tracks(again.state) == BEFORE_THE_COUNT and str(again.state.phase) == "end"
            again.append(FINAL)
            assert tracks(again.state) == {"status": OUTCOME["status"], "military": OUTCOME["military"]}
            assert str(again.state.winner) == OUTCOME["winner"] and again.state.notes[-1].startswith("Nuova Milizia wins")
        assert journal.fold.dump(journal.state) == replayed(events)  # the first opening sees the game whole too
        journal.undo()  # the final count taken back: entered again, differently
        assert str(journal.state.phase) == "end" and journal.state.winner is None
        assert games.db.execute("SELECT count(*) FROM snapshots").fetchone()[0] >= len(events) // 7 - 1


def test_a_status_game_is_listed_shown_exported_and_imported_by_the_command(nova: Nova, tmp_path: Path) -> None:
    state, other = str(tmp_path / "games.db"), str(tmp_path / "other.db")
    code, out, _ = nova("session", "new", "--status", "mano,ragione,milizia", "--priority", "mano", "--state", state)
    assert code == 0 and json.loads(out)["kind"] == "status"
    lines = "".join(json.dumps(event) + "\n" for event in whole_game())
    code, out, _ = nova("session", "apply", "--state", state, stdin=lines)
    assert code == 0 and len(out.splitlines()) == len(whole_game())
    code, out, _ = nova("session", "undo", "--state", state)
    assert code == 0 and json.loads(out)["undone"]["type"] == "final_score"
    code, out, _ = nova("session", "list", "--state", state)
    listed = json.loads(out)
    assert (listed["kind"], listed["events"], listed["undone"]) == ("status", len(whole_game()) - 1, 1)
    exported = tmp_path / "status.jsonl"
    assert nova("session", "export", "--state", state, "--out", str(exported))[0] == 0
    code, out, _ = nova("session", "import", "--state", other, str(exported))
    assert code == 0 and json.loads(out)["kind"] == "status"
    assert nova("session", "redo", "--state", other)[0] == 0  # the undone final count travelled with it
    shown = json.loads(nova("session", "show", "--state", other)[1])
    assert shown == replayed(whole_game()) and shown["winner"] == OUTCOME["winner"]


@pytest.mark.parametrize(("factions", "priority", "says"), [
    (["mano"], None, "factions: Status is played by 2 to 4 Factions, not 1"),
    (["mano", "mano"], None, "factions[1]: Mano Invisibile is at the table twice"),
    (["mano", "papa"], None, "factions[1]: must be one of mano, ragione, milizia, pugno, not 'papa'"),
    (["mano", "ragione"], "pugno", "priority: Pugno del Popolo is not at the table"),
])  # fmt: skip
def test_a_wrong_table_is_refused_with_the_field_at_fault_and_no_game_is_made(
        state_path: Path, factions: list[str], priority: str | None, says: str) -> None:  # fmt: skip
    with StateFile(state_path, create=True) as games:
        with pytest.raises(ScenarioError) as refused:
            games.new_game(setup_text(factions, priority), "--status", "status")
        assert str(refused.value) == f"--status: {says}"
        assert games.games() == []


def test_a_damaged_setup_or_a_second_start_is_said_and_changes_nothing(state_path: Path) -> None:
    with StateFile(state_path, create=True) as games:
        games.new_game(SETUP, "the table", "status")
        journal = games.journal()
        journal.append(whole_game()[0])
        with pytest.raises(EventRefused, match="already started"):
            journal.append(json.loads(SETUP))
        games.db.execute("UPDATE games SET scenario_text = '{\"type\": \"start\", \"factions\": [\"mano\"' WHERE id = 1")
        seal_game(games.db, 1)  # as sealed by a Nova Table that saved it so (changed on the card: its checksum says)
        with pytest.raises(ScenarioError, match=r"saved with game 1\): not a Status table's setup: not JSON"):
            games.journal(1)
        assert games.db.execute("SELECT count(*) FROM events").fetchone()[0] == 1


def test_an_export_of_a_status_game_without_its_setup_or_with_a_wrong_event_imports_nothing(state_path: Path,
                                                                                           tmp_path: Path) -> None:  # fmt: skip
    with StateFile(state_path, create=True) as games:
        games.new_game(SETUP, "the table", "status")
        for event in whole_game()[:5]:
            games.journal().append(event)
        lines: list[str] = []

        class Out:
            def write(self, text: str) -> None:
                lines.extend(text.splitlines())

        export_game(games, None, Out())  # type: ignore[arg-type]
        header = json.loads(lines[0])
        no_setup = [json.dumps(dict(header, scenario_text=None)), *lines[1:]]
        with pytest.raises(ExchangeError, match="x.jsonl:1: scenario_text: a status export carries its setup"):
            import_game(games, no_setup, "x.jsonl")
        wrong = [*lines[:2], lines[2].replace('"ragione"', '"mano"'), *lines[3:]]  # the Mano sends twice
        with pytest.raises(ExchangeError, match="x.jsonl:3: event 2 is refused by the rules: faction: it is Ragione"):
            import_game(games, wrong, "x.jsonl")
        assert len(games.games()) == 1


def test_an_unknown_kind_of_game_is_said(state_path: Path) -> None:
    with pytest.raises(Exception, match="kind 'chess', which this Nova Table does not know"):
        default_folds("chess", "", "games.db (game 3)")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(moves=st.lists(st.sampled_from(["play", "play", "play", "undo", "redo"]), max_size=60),
       every=st.sampled_from([2, 3, 100]))  # fmt: skip
def test_any_walk_of_play_undo_and_redo_is_the_replay_of_the_surviving_events(moves: list[str], every: int) -> None:
    """Playing the script on, undoing and redoing in any order (snapshots every 2, 3 or 100 events): after every
    step the state is the fold of the surviving events from scratch, and another opening of the file agrees."""
    script = whole_game()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "games.db"
        with StateFile(path, create=True, snapshot_every=every) as games:
            games.new_game(SETUP, "the table", "status")
            journal = games.journal()
            head, stored = 0, 0  # the script's events that survive, and that are stored (redo brings them back)
            for move in moves:
                if move == "play" and head < len(script):
                    journal.append(script[head])
                    head = stored = head + 1
                elif move == "undo" and head > 0:
                    assert journal.undo() == script[head - 1]
                    head -= 1
                elif move == "redo" and head < stored:
                    assert journal.redo() == script[head]
                    head += 1
                else:
                    continue
                assert journal.fold.dump(journal.state) == replayed(script[:head])
            with StateFile(path, snapshot_every=every) as other:
                again = other.journal()
                assert (again.head, again.length) == (head, stored)
                assert again.fold.dump(again.state) == replayed(script[:head])
