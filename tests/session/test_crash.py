"""SIGKILL at random moments: the resumed game is always the one after the acknowledged events, and the file is intact.

A real child process applies a long script (the `nova-table session apply` command, and a
library child that also undoes and redoes); the test kills it with SIGKILL many times, at
random moments (during start-up, or while it is writing), resumes the game in a fresh
process-independent opening and compares with the script. An event whose commit had finished
but whose ack was not yet printed may be there too: at most that one, never fewer.
"""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
from contextlib import closing
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO, Any, TextIO

from assistant.session.games import StateFile
from tests.session.conftest import FOLDS, ROOT, endless_text, script

CLI_KILLS = 32
UNDO_KILLS = 12


def integrity(path: Path) -> str:
    with closing(sqlite3.connect(path)) as db:
        return "; ".join(row[0] for row in db.execute("PRAGMA integrity_check"))


class Acks:
    """Reads a child's stdout on a thread (so the pipe never fills) and counts the ack lines."""

    def __init__(self, stream: IO[str]) -> None:
        self.lines: list[dict[str, Any]] = []
        self.changed = threading.Condition()
        self.ended = False
        self.thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self.thread.start()

    def _read(self, stream: IO[str]) -> None:
        for line in stream:
            with self.changed:
                try:
                    self.lines.append(json.loads(line))
                except json.JSONDecodeError:
                    pass  # a line cut by the kill was not an ack
                self.changed.notify_all()
        with self.changed:
            self.ended = True
            self.changed.notify_all()

    def wait_for(self, count: int, timeout: float = 30.0) -> None:
        with self.changed:
            self.changed.wait_for(lambda: len(self.lines) >= count or self.ended, timeout)

    def join(self) -> list[dict[str, Any]]:
        self.thread.join(timeout=30)
        return self.lines


def kill_at_random(command: list[str], stdin: TextIO | int, rng: random.Random) -> tuple[list[dict[str, Any]], bool]:
    """Run `command`, SIGKILL it at a random moment; its acks, and whether it was killed while writing.

    One kill in five falls at a random time during start-up (opening the file, resuming the
    game); the others after a random number of acks (0 to 60) and a random fraction of an
    append, so that they land anywhere in the write of an event, whatever the disk's speed.
    """
    child = subprocess.Popen(command, stdin=stdin, stdout=subprocess.PIPE, text=True, cwd=ROOT)
    assert child.stdout is not None
    acks = Acks(child.stdout)
    if rng.random() < 0.2:
        time.sleep(rng.uniform(0.0, 0.3))
    else:
        acks.wait_for(rng.randint(1, 61))
        time.sleep(rng.uniform(0.0, 0.002))
    writing = child.poll() is None and bool(acks.lines)
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    return acks.join(), writing


def test_sigkill_during_apply_loses_no_acknowledged_event(tmp_path: Path) -> None:
    rng = random.Random(20240611)
    scenario = tmp_path / "endless.toml"
    scenario.write_text(endless_text(), encoding="utf-8")
    state = tmp_path / "games.db"
    events = script(endless_text(), 4000, seed=11)
    made = subprocess.run([sys.executable, "-m", "assistant", "session", "new", "--scenario", str(scenario),
                           "--state", str(state)], cwd=ROOT, capture_output=True, text=True)  # fmt: skip
    assert made.returncode == 0, made.stderr
    fold = FOLDS("mission", endless_text(), "test")
    expected_state, stored = fold.initial(), 0
    kills_while_writing = extra_commits = 0
    for _ in range(CLI_KILLS):
        rest = tmp_path / "rest.jsonl"
        rest.write_text("".join(json.dumps(e) + "\n" for e in events[stored:]), encoding="utf-8")
        with rest.open(encoding="utf-8") as stdin:
            command = [sys.executable, "-m", "assistant", "session", "apply", "--state", str(state)]
            acks, writing = kill_at_random(command, stdin, rng)
        kills_while_writing += writing
        acknowledged = stored + sum(1 for ack in acks if "seq" in ack)
        assert [ack["seq"] for ack in acks if "seq" in ack] == list(range(stored + 1, acknowledged + 1))
        assert integrity(state) == "ok"
        with StateFile(state, folds=FOLDS) as games:
            journal = games.journal()
            head = journal.head
            assert head in (acknowledged, acknowledged + 1), (head, acknowledged)
            extra_commits += head - acknowledged
            assert journal.events(stored + 1, journal.length) == events[stored:head]
            for event in events[stored:head]:
                expected_state = fold.apply(expected_state, event)
            assert journal.fold.dump(journal.state) == fold.dump(expected_state)
        stored = head
    assert stored < len(events), "the script ran out: make it longer"
    assert kills_while_writing >= CLI_KILLS // 2, kills_while_writing
    print(f"{CLI_KILLS} kills ({kills_while_writing} while writing), {stored} events kept,"
          f" {extra_commits} committed but not yet acknowledged")  # fmt: skip


def undo_redo_script(count: int, seed: int) -> list[dict[str, Any]]:
    """Operations mixing events (valid where they are played) with undos and redos."""
    from assistant.demo.autoplay import next_event

    rng = random.Random(seed)
    fold = FOLDS("mission", endless_text(), "test")
    line: list[dict[str, Any]] = []
    head = 0
    states = [fold.initial()]  # states[i]: after line[:i]
    ops: list[dict[str, Any]] = []
    while len(ops) < count:
        roll = rng.random()
        if roll < 0.2 and head > 0:
            ops.append({"op": "undo"})
            head -= 1
        elif roll < 0.3 and head < len(line):
            ops.append({"op": "redo"})
            head += 1
        else:
            event = next_event(states[head], rng, gentle=True)
            assert event is not None
            ops.append({"op": "event", "event": event})
            line, states = line[:head] + [event], states[: head + 1] + [fold.apply(states[head], event)]
            head += 1
    return ops


def replay_ops(ops: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], int]:
    line: list[dict[str, Any]] = []
    head = 0
    for op in ops:
        if op["op"] == "event":
            line, head = line[:head] + [op["event"]], head + 1
        else:
            head += -1 if op["op"] == "undo" else 1
    return line, head


def test_sigkill_during_undo_and_redo_loses_nothing_acknowledged(tmp_path: Path) -> None:
    rng = random.Random(7)
    ops = undo_redo_script(3000, seed=12)
    ops_file = tmp_path / "ops.jsonl"
    ops_file.write_text("".join(json.dumps(op) + "\n" for op in ops), encoding="utf-8")
    state = tmp_path / "games.db"
    with StateFile(state, create=True, folds=FOLDS, snapshot_every=25) as games:
        games.new_game(endless_text(), "endless.toml")
    done = 0
    for _ in range(UNDO_KILLS):
        command = [sys.executable, "-m", "tests.session.crash_child", str(state), str(ops_file), str(done)]
        acks, _ = kill_at_random(command, subprocess.DEVNULL, rng)
        acknowledged = done + len(acks)
        assert integrity(state) == "ok"
        with StateFile(state, folds=FOLDS, snapshot_every=25) as games:
            journal = games.journal()
            found = (journal.events(1, journal.length), journal.head)
            candidates = [replay_ops(ops[:acknowledged]), replay_ops(ops[: acknowledged + 1])]
            assert found in candidates
            done = acknowledged + candidates.index(found)
            fold = journal.fold
            expected = fold.initial()
            for event in found[0][: found[1]]:
                expected = fold.apply(expected, event)
            assert fold.dump(journal.state) == fold.dump(expected)
    assert done < len(ops)
