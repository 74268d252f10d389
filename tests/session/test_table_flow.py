"""Issue 49: the game flow replayed through the session journal, as a table would play it, and the book's outcome.

Each test stores its events in a real journal (`StateFile`, the SQLite file `nova-table session apply` writes)
and reads the state and the AI's plan from the fold, as the table app does.
"""

from __future__ import annotations

from typing import Any

import pytest

from assistant.rules.horologium import Clock
from assistant.rules.instructions import plan
from assistant.rules.state import GameState
from assistant.session.errors import EventRefused
from assistant.session.games import StateFile
from tests.session.conftest import demo_text


def journal_of(games: StateFile, text: str, *events: dict[str, Any]) -> Any:
    games.new_game(text, "flow.toml")
    journal = games.journal()
    for event in events:
        journal.append(event)
    return journal


def state_of(journal: Any) -> GameState:
    state: GameState = journal.state
    return state


# --- 7. The end of a mission -------------------------------------------------------------------


def test_three_heroes_ko_end_the_mission_as_its_paragraph_says(games: StateFile) -> None:
    """"End of a Mission": "Each Victory or Defeat condition will instruct players to read a paragraph"; 3 KO is one."""
    ko = [{"type": "damage", "hero": hero, "wounds": health} for hero, health in (("sofia", 5), ("vincenzo", 5), ("eleonora", 4))]
    journal = journal_of(games, demo_text(), *ko)
    assert state_of(journal).over == "ko"
    assert plan(state_of(journal)).steps[0].text == (
        "The mission is over: 3 Heroes KO; read the paragraph the mission gives for it: victory or defeat.")
    journal.append({"type": "end_mission", "result": "victory"})  # a mission whose paragraph makes it a victory
    assert state_of(journal).over == "victory: heroes KO"
    with pytest.raises(EventRefused, match="over"):
        journal.append({"type": "end_mission", "result": "defeat"})


def test_an_end_hour_past_xii_is_reached_on_the_next_round(games: StateFile) -> None:
    """A start at hour 11 and an end at hour 1: two hours on, not refused."""
    text = demo_text().replace("hour = 1        # the hour hand", "hour = 11       # the hour hand")
    text = text.replace("[end]\nhour = 3", "[end]\nhour = 1").replace("hour = 2\nminute = 6", "hour = 12\nminute = 6")
    journal = journal_of(games, text)
    assert state_of(journal).clock == Clock(11, 1)  # Valerio's token, sector I of hour 11's round
    for _ in range(200):
        state = state_of(journal)
        if state.over is not None:
            break
        if state.due:
            journal.append({"type": "resolve_event", "event": state.due[0]})
        elif state.turn is None:
            journal.append({"type": "resolve_event", "event": state.queue[0]} if not state.ties else {"type": "order", "ids": list(state.ties[0])})
        elif state.side_of(state.turn.token).value == "hero" and state.turn.ap_left:
            journal.append({"type": "spend_ap", "ap": state.turn.ap_left, "action": "move"})
        else:
            journal.append({"type": "end_activation"})
    assert state_of(journal).over == "time" and state_of(journal).clock == Clock(13, 12)  # hour I of the next round
    journal.append({"type": "end_mission", "result": "victory"})
    assert state_of(journal).over == "victory: time is up"
