"""A Status game folded through `apply`: a scripted four-round game for three Factions, and the refusals."""

from __future__ import annotations

import json
from typing import Any

import pytest

from assistant.rules.errors import RuleError
from assistant.status import (
    Faction,
    Phase,
    StatusError,
    StatusGame,
    apply,
    event_from_dict,
    event_to_dict,
    new_game,
)

RAGIONE, MILIZIA, PUGNO, MANO = Faction.RAGIONE, Faction.MILIZIA, Faction.PUGNO, Faction.MANO
START = {"type": "start", "factions": ["ragione", "milizia", "pugno"], "priority": "ragione"}
ADVANCE = {"type": "advance"}


def run(state: StatusGame, *events: dict[str, Any]) -> StatusGame:
    for event in events:
        # every event goes through JSON and back, as the journal stores it
        event = event_to_dict(event_from_dict(json.loads(json.dumps(event))))
        state = apply(state, event)
        assert StatusGame.from_dict(json.loads(json.dumps(state.to_dict()))) == state
    return state


def send(faction: str, where: str, value: int | None = None) -> dict[str, Any]:
    """`where`: "c2" for the second card on the Monitor, "n1" for Newspaper space 1."""
    place = {"card": int(where[1:])} if where[0] == "c" else {"newspaper": int(where[1:])}
    return {"type": "send_official", "faction": faction, **place, "value": value}


def card(reward: int = 0, **officials: list[int]) -> dict[str, Any]:
    return {"type": "resolve_card", "officials": officials, "reward": reward}


def increase(faction: str, points: int) -> dict[str, Any]:
    return {"type": "increase_status", "faction": faction, "points": points}


def test_a_scripted_four_round_game_for_three_factions() -> None:
    state = run(new_game(), START)
    # Setup: Ragione 5, Milizia 6, Pugno 7; the Milizia's Military Income token (Setup 11) moves it onto 7,
    # pushing the Pugno back to 6
    assert state.track == {RAGIONE: 5, MILIZIA: 7, PUGNO: 6}
    assert state.status == {RAGIONE: 1, MILIZIA: 1, PUGNO: 1}
    assert (state.round, state.phase, state.deck, state.monitor) == (1, Phase.II, 12, (1, 2, 3, 4))

    # Round 1, Phase II: Ragione, Milizia, Pugno, four times; the Milizia pays a Military Cost of 2 before its
    # second Official: from 7 onto the Ragione's 5, pushing it to 6 and the Pugno to 7
    state = run(state, send("ragione", "c1", 3), send("milizia", "c1"), send("pugno", "c2", 4),
                send("ragione", "c2"), send("milizia", "n1"), send("pugno", "c2", 1), send("ragione", "n1"))  # fmt: skip
    assert state.to_play is MILIZIA
    state = run(state, {"type": "military", "faction": "milizia", "steps": -2, "cost": True})
    assert state.track == {RAGIONE: 6, MILIZIA: 5, PUGNO: 7}
    state = run(state, send("milizia", "c3", 4), send("pugno", "n2"), send("ragione", "c3"),
                send("milizia", "c3"), send("pugno", "n2"))  # fmt: skip
    assert state.to_play is None
    # Phase III: card 4 has no Official and goes back in the box; the Newspaper effect costs the Ragione a point
    state = run(state, ADVANCE, {"type": "status", "faction": "ragione", "points": -1})
    assert state.monitor == (1, 2, 3) and state.status[RAGIONE] == 0
    state = run(state, card(1, ragione=[3], milizia=[3]))  # 3 against 3: the Ragione (6) wins, swaps with the Milizia
    assert state.track == {RAGIONE: 5, MILIZIA: 6, PUGNO: 7} and state.status[RAGIONE] == 1
    state = run(state, card(0, pugno=[4, 1], ragione=[2]), card(2, milizia=[4, 2], ragione=[1]))
    assert state.status == {RAGIONE: 1, MILIZIA: 3, PUGNO: 1}
    # Phase IV: the Milizia's Military Income: onto 7, pushing the Pugno back to 6
    state = run(state, ADVANCE)
    assert state.track == {RAGIONE: 5, MILIZIA: 7, PUGNO: 6} and state.officials == ()
    state = run(state, ADVANCE, increase("ragione", 2), increase("milizia", 1), increase("pugno", 0), ADVANCE)
    assert state.status == {RAGIONE: 3, MILIZIA: 4, PUGNO: 1}
    assert (state.phase, state.priority) == (Phase.VI, PUGNO)

    # Round 2: Phase I draws 4 more; the Pugno sends first
    state = run(state, ADVANCE)
    assert (state.round, state.phase, state.deck, state.monitor) == (2, Phase.I, 8, (1, 2, 3, 4))
    state = run(state, ADVANCE, send("pugno", "c1", 4), send("ragione", "c2", 4), send("milizia", "c1", 3),
                send("pugno", "c1", 1), send("ragione", "c2", 1), send("milizia", "c1", 2), send("pugno", "n1"),
                send("ragione", "n1"), send("milizia", "n2"), send("pugno", "n1"), send("ragione", "n1"),
                send("milizia", "n2"), ADVANCE)  # fmt: skip
    assert state.monitor == (1, 2)
    state = run(state, card(1, pugno=[4, 1], milizia=[3, 2]))  # 5 against 5: the Milizia (7) wins, swaps with the Pugno
    assert state.track == {RAGIONE: 5, MILIZIA: 6, PUGNO: 7} and state.status[MILIZIA] == 5
    state = run(state, card(0, ragione=[4, 1]), ADVANCE)
    assert state.track == {RAGIONE: 5, MILIZIA: 7, PUGNO: 6}
    state = run(state, ADVANCE, increase("pugno", 2), increase("ragione", 2), ADVANCE)  # the Milizia takes none
    assert state.status == {RAGIONE: 5, MILIZIA: 5, PUGNO: 3} and state.priority is PUGNO

    # Round 3
    state = run(state, ADVANCE, ADVANCE, send("pugno", "c1", 1), send("ragione", "c2", 4), send("milizia", "c2", 4),
                send("pugno", "c1", 2), send("ragione", "c2", 3), send("milizia", "c2", 2), send("pugno", "c1", 3),
                send("ragione", "n1"), send("milizia", "c3", 1), send("pugno", "c1", 4), send("ragione", "n1"),
                send("milizia", "c3", 3), ADVANCE)  # fmt: skip
    state = run(state, card(1, pugno=[1, 2, 3, 4]), card(1, ragione=[4, 3], milizia=[4, 2]), card(0, milizia=[1, 3]))
    state = run(state, ADVANCE)
    assert state.track == {RAGIONE: 5, MILIZIA: 8, PUGNO: 6}
    state = run(state, ADVANCE, increase("pugno", 2), increase("ragione", 0), increase("milizia", 2), ADVANCE)
    # Pugno and Ragione tie on 6: the Ragione is further back (5 against 6) and takes Priority; nobody moves
    assert state.status == {RAGIONE: 6, MILIZIA: 7, PUGNO: 6}
    assert state.priority is RAGIONE and state.track == {RAGIONE: 5, MILIZIA: 8, PUGNO: 6}

    # Round 4: the Pugno pays a Status Cost before its third Official
    state = run(state, ADVANCE, ADVANCE, send("ragione", "c1", 4), send("milizia", "c1"), send("pugno", "c2", 4),
                send("ragione", "c1", 3), send("milizia", "c1"), send("pugno", "c3", 3), send("ragione", "c2", 1),
                send("milizia", "c4", 1), {"type": "status", "faction": "pugno", "points": -1, "cost": True},
                send("pugno", "c3"), send("ragione", "n1"), send("milizia", "c4", 2), send("pugno", "c3"), ADVANCE)  # fmt: skip
    assert state.deck == 0
    state = run(state, card(1, ragione=[4, 3], milizia=[3, 4]))  # 7 against 7: the Milizia (8) wins, back to 7
    assert state.track == {RAGIONE: 5, MILIZIA: 7, PUGNO: 6}
    state = run(state, card(0, ragione=[1], pugno=[4]), card(1, pugno=[3, 2, 1]), card(0, milizia=[1, 2]))
    state = run(state, ADVANCE, ADVANCE, increase("ragione", 2), increase("milizia", 0), increase("pugno", 2), ADVANCE)
    assert state.status == {RAGIONE: 8, MILIZIA: 8, PUGNO: 8}
    assert state.track == {RAGIONE: 5, MILIZIA: 8, PUGNO: 6} and state.priority is RAGIONE
    assert {s.faction: s.cards for s in state.seats} == {RAGIONE: 3, MILIZIA: 5, PUGNO: 4}

    # The end: Assets tie Ragione-Pugno (the Pugno, ahead, wins and swaps back with the Ragione); America tie
    # Ragione-Milizia (the Milizia wins, back to 7); Europe the Milizia; Africa the Pugno; Asia tie Milizia-Pugno
    # (the Milizia, on 7, wins and swaps with the Ragione on 6); one set each
    state = run(state, ADVANCE)
    assert (state.round, state.phase, state.over) == (4, Phase.END, False)
    state = run(state, {"type": "final_score", "assets": {"ragione": 5, "milizia": 2, "pugno": 5}, "continents": {
        "ragione": {"AM": 2, "EU": 1, "AF": 1, "AS": 1},
        "milizia": {"AM": 2, "EU": 3, "AF": 1, "AS": 2},
        "pugno": {"AM": 1, "EU": 1, "AF": 2, "AS": 2}}})  # fmt: skip
    assert state.status == {RAGIONE: 9, MILIZIA: 12, PUGNO: 11}
    assert state.track == {RAGIONE: 7, MILIZIA: 6, PUGNO: 5}
    assert state.winner is MILIZIA and state.over
    assert state.count == 99  # 25 events in round 1, 22, 24, 26, then the end and the final score
    assert state.notes[-1] == "Nuova Milizia wins with 12 Status points"
    with pytest.raises(StatusError, match="the game is over: Nuova Milizia won"):
        apply(state, ADVANCE)


def ready() -> StatusGame:
    return apply(new_game(), START)


@pytest.mark.parametrize(("events", "field", "why"), [
    ([ADVANCE], "type", "the game has not started"),
    ([START, START], "type", "already started"),
    ([{**START, "factions": ["ragione"]}], "factions", "2 to 4 Factions, not 1"),
    ([{**START, "factions": ["ragione", "ragione"]}], "factions[1]", "at the table twice"),
    ([{**START, "priority": "mano"}], "priority", "Mano Invisibile is not at the table"),
    ([{**START, "factions": ["ragione", "dogi"]}], "factions[1]", "must be one of mano, ragione, milizia, pugno"),
    ([START, send("milizia", "c1", 2)], "faction", "it is Ragione di Stato's turn to send an Official, not Nuova Milizia's"),
    ([START, send("mano", "c1", 2)], "faction", "Mano Invisibile is not playing"),
    ([START, send("ragione", "c5", 2)], "card", "no Event card 5 on the Monitor (cards: 1, 2, 3, 4)"),
    ([START, {"type": "send_official", "faction": "ragione", "value": 2}], "card", "either card"),
    ([START, {"type": "send_official", "faction": "ragione", "card": 1, "value": 5}], "value", "at most 4"),
    ([START, send("ragione", "c1", 2), send("milizia", "c1"), send("pugno", "c1"), send("ragione", "c2", 2)],
     "value", "already sent its 2 this round"),
    ([START, ADVANCE], "type", "0 of 12 Officials are sent: it is Ragione di Stato's turn"),
    ([START, card(0, ragione=[1])], "type", "resolved in Phase III - Resolving the Events; this is Phase II"),
    ([START, increase("ragione", 1)], "type", "in Phase V - Increasing Status"),
    ([START, {"type": "military", "faction": "pugno", "steps": -6, "cost": True}], "steps", "cannot move back 6"),
    ([START, {"type": "military", "faction": "pugno", "steps": 2, "cost": True}], "steps", "must be negative"),
    ([START, {"type": "status", "faction": "pugno", "points": -2, "cost": True}], "points", "has 1 Status points"),
    ([START, {"type": "status", "faction": "pugno", "points": 0}], "points", "no change"),
    ([START, {"type": "final_score", "assets": {}, "continents": {}}], "type", "comes after round 4"),
    ([START, {"type": "juggle"}], "type", "unknown event 'juggle'"),
    ([START, {"type": "advance", "phase": "III"}], "phase", "unknown field"),
])  # fmt: skip
def test_refusals_say_why(events: list[dict[str, Any]], field: str, why: str) -> None:
    state = new_game()
    *before, last = events
    for event in before:
        state = apply(state, event)
    with pytest.raises(RuleError) as refused:
        apply(state, last)
    assert isinstance(refused.value, StatusError) and isinstance(refused.value, ValueError)
    assert refused.value.field == field
    assert why in refused.value.message


def phase_iii() -> StatusGame:
    """Round 1, Phase III: the Ragione's 3 and a face-down Official of the Milizia on card 1; the rest elsewhere."""
    state = ready()
    state = run(state, send("ragione", "c1", 3), send("milizia", "c1"))
    for _ in range(10):
        assert state.to_play is not None
        state = apply(state, send(str(state.to_play), "n1"))
    return apply(state, ADVANCE)


@pytest.mark.parametrize(("officials", "field", "why"), [
    ({"ragione": [3]}, "officials.milizia", "missing: Nuova Milizia has 1 Official(s) on card 1"),
    ({"ragione": [3], "milizia": [2], "pugno": [1]}, "officials.pugno", "Pugno del Popolo has no Official on card 1"),
    ({"ragione": [4], "milizia": [2]}, "officials.ragione", "sent 3 face up here"),
    ({"ragione": [3], "milizia": [2, 1]}, "officials.milizia", "has 1 Official(s) on card 1, not 2"),
    ({"ragione": [3], "milizia": [5]}, "officials.milizia[0]", "1, 2, 3 or 4, not 5"),
])  # fmt: skip
def test_a_card_refuses_values_that_do_not_match_the_table(officials: dict[str, list[int]], field: str, why: str) -> None:
    state = phase_iii()
    assert state.monitor == (1,) and state.next_card == 1
    with pytest.raises(StatusError) as refused:
        apply(state, {"type": "resolve_card", "officials": officials})
    assert refused.value.field == field and why in refused.value.message
    with pytest.raises(StatusError, match="card 1 is next, not card 2"):
        apply(state, {"type": "resolve_card", "card": 2, "officials": {"ragione": [3], "milizia": [2]}})
    with pytest.raises(StatusError, match="card 1 still has Officials on it"):
        apply(state, ADVANCE)
    done = apply(state, {"type": "resolve_card", "officials": {"ragione": [3], "milizia": [2]}})
    assert done.seat(RAGIONE).cards == 1 and done.next_card is None
    with pytest.raises(StatusError, match="every Event card is resolved"):
        apply(done, {"type": "resolve_card", "officials": {"ragione": [3]}})


def test_a_faction_has_one_official_of_each_value_a_round() -> None:
    state = ready()
    state = run(state, send("ragione", "c1", 3), send("milizia", "c1"), send("pugno", "c1"),
                send("ragione", "c2"))  # fmt: skip
    for _ in range(8):
        assert state.to_play is not None
        state = apply(state, send(str(state.to_play), "n1"))
    state = run(state, ADVANCE, card(0, ragione=[3], milizia=[1], pugno=[2]))
    with pytest.raises(StatusError, match="numbered 1 to 4, one each: not two 3s"):
        apply(state, card(0, ragione=[3]))


def test_the_values_a_face_down_official_may_have_are_those_its_faction_does_not_show() -> None:
    """Personal Components, "4 Official pawns ... numbered 1 to 4": a value shown face up this round, or shown
    on a card resolved, is no face-down Official's."""
    state = ready()
    state = run(state, send("ragione", "c1", 3), send("milizia", "c1"), send("pugno", "c1", 2), send("ragione", "c2"))
    assert state.free_values(RAGIONE) == (1, 2, 4) and state.free_values(Faction.MILIZIA) == (1, 2, 3, 4)
    for _ in range(8):
        assert state.to_play is not None
        state = apply(state, send(str(state.to_play), "n1"))
    state = run(state, ADVANCE, card(0, ragione=[3], milizia=[1], pugno=[2]))
    assert state.free_values(Faction.MILIZIA) == (2, 3, 4)  # its 1, shown as card 1 resolved
    with pytest.raises(StatusError, match="numbered 1 to 4, one each: not two 3s"):
        apply(state, card(0, ragione=[3]))  # the core refuses what the form no longer offers
    assert apply(state, card(0, ragione=[state.free_values(RAGIONE)[0]])).next_card is None


def test_the_first_round_skips_phase_i_and_the_fourth_ends_the_game() -> None:
    state = ready()
    assert state.round == 1 and state.phase is Phase.II
    assert [n for n in state.notes if "Phase I was the setup" in n]


def test_no_military_income_when_the_milizia_is_absent_or_the_table_says_so() -> None:
    two = apply(new_game(), {"type": "start", "factions": ["mano", "pugno"], "priority": "pugno"})
    assert two.track == {MANO: 6, PUGNO: 5} and (two.deck, two.monitor) == (9, (1, 2, 3))
    none = apply(new_game(), {**START, "military_income": []})
    assert none.track == {RAGIONE: 5, MILIZIA: 6, PUGNO: 7}


def test_a_move_back_from_the_first_space_stays_and_says_so() -> None:
    state = apply(ready(), {"type": "military", "faction": "ragione", "steps": -9})
    assert state.track[RAGIONE] == 1
    state = apply(state, {"type": "military", "faction": "ragione", "steps": -1})
    assert state.track[RAGIONE] == 1
    assert state.notes == ("Military track: Ragione di Stato stays on space 1, the first of the track",)


def test_apply_never_changes_the_state_it_was_given() -> None:
    state = ready()
    before = state.to_dict()
    apply(state, {"type": "military", "faction": "ragione", "steps": 3})
    assert state.to_dict() == before


def test_a_damaged_snapshot_is_refused_naming_the_field() -> None:
    data = ready().to_dict()
    data["phase"] = "VII"
    with pytest.raises(RuleError, match="status game.phase"):
        StatusGame.from_dict(data)
