"""Property: any sequence of actions, undos and redos gives the state of replaying the surviving events from scratch."""

from __future__ import annotations

import random
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assistant.demo.autoplay import next_event
from assistant.session.errors import EventRefused, NothingToUndo
from assistant.session.games import StateFile
from tests.session.conftest import FOLDS, demo_text, fold_state

Step = tuple[str, int]

steps = st.lists(
    st.one_of(
        st.tuples(st.just("play"), st.integers(0, 2**32 - 1)),
        st.tuples(st.just("undo"), st.just(0)),
        st.tuples(st.just("redo"), st.just(0)),
        st.tuples(st.just("refused"), st.just(0)),
    ),
    max_size=50,
)


def run_steps(path: Path, actions: list[Step], snapshot_every: int) -> tuple[list[dict[str, Any]], int]:
    """Play `actions` on a journal while keeping the expected line of events by hand; check after each step."""
    text = demo_text()
    line: list[dict[str, Any]] = []  # every stored event, the undone ones included
    head = 0
    with StateFile(path, create=True, folds=FOLDS, snapshot_every=snapshot_every) as games:
        games.new_game(text, "demo.toml")
        journal = games.journal()
        for action, seed in actions:
            if action == "play":
                event = next_event(journal.state, random.Random(seed))
                if event is None:  # the mission is over: nothing left to play
                    continue
                journal.append(event)
                line, head = line[:head] + [event], head + 1
            elif action == "undo":
                if head == 0:
                    try:
                        journal.undo()
                    except NothingToUndo:
                        continue
                    raise AssertionError("undo at the start must fail")
                assert journal.undo() == line[head - 1]
                head -= 1
            elif action == "redo":
                if head == len(line):
                    try:
                        journal.redo()
                    except NothingToUndo:
                        continue
                    raise AssertionError("redo with nothing undone must fail")
                assert journal.redo() == line[head]
                head += 1
            else:
                try:
                    journal.append({"type": "spend_ap", "ap": 99, "action": "fly"})
                except EventRefused:
                    pass
                else:
                    raise AssertionError("the rules must refuse 99 AP")
            assert journal.head == head and journal.length == len(line)
            assert journal.fold.dump(journal.state) == fold_state(text, line[:head])
    return line, head


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(actions=steps, snapshot_every=st.sampled_from([2, 3, 100]))
def test_any_actions_undos_and_redos_equal_replaying_the_surviving_events(actions: list[Step], snapshot_every: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "games.db"
        line, head = run_steps(path, actions, snapshot_every)
        with StateFile(path, folds=FOLDS, snapshot_every=snapshot_every) as games:  # resumed by another opening
            journal = games.journal()
            assert journal.events() == line[:head]
            assert journal.events(1, journal.length) == line
            assert journal.fold.dump(journal.state) == fold_state(demo_text(), line[:head])
