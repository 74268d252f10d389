"""Set-up numbers, Phase III cards, Phase V, Phase VI and the final score, with the Status rulebook's examples."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from assistant.status import (
    Continent,
    Faction,
    Official,
    Phase,
    Seat,
    StatusError,
    StatusGame,
    apply,
    deck_size,
    final_score,
    monitor_size,
    priority,
    resolve_card,
    starting_track,
)

MANO, RAGIONE, PUGNO, MILIZIA = Faction.MANO, Faction.RAGIONE, Faction.PUGNO, Faction.MILIZIA
AM, EU, AF, AS = Continent.AM, Continent.EU, Continent.AF, Continent.AS


def table(phase: Phase, track: dict[Faction, int], status: dict[Faction, int], **changes: Any) -> StatusGame:
    """A game in progress in round 2 at `phase`, seated in the order of `track`, the first holding Priority."""
    seats = tuple(Seat(f, space, status[f]) for f, space in track.items())
    state = StatusGame(seats=seats, priority=seats[0].faction, round=2, phase=phase, deck=4)
    return replace(state, **changes)


@pytest.mark.parametrize(("factions", "deck", "monitor"), [(2, 12, 3), (3, 16, 4), (4, 20, 5)])
def test_setup_deck_and_monitor_by_group_size(factions: int, deck: int, monitor: int) -> None:
    """Setup 2 and 3, Phase I's table: 12 / 16 / 20 cards; 3 / 4 / 5 on the Monitor; four rounds use the deck."""
    assert deck_size(factions) == deck
    assert monitor_size(factions) == monitor
    assert deck_size(factions) == 4 * monitor_size(factions)  # "when there are no more cards in the Event deck"


def test_setup_military_from_space_5_then_clockwise() -> None:
    """Setup 7: the Priority holder on 5; clockwise, each other on the free space of immediately higher value."""
    seating = [MANO, MILIZIA, PUGNO, RAGIONE]
    assert starting_track(seating, PUGNO) == {PUGNO: 5, RAGIONE: 6, MANO: 7, MILIZIA: 8}
    with pytest.raises(StatusError, match="2 to 4 Factions"):
        starting_track([MANO], MANO)
    with pytest.raises(StatusError, match="at the table twice"):
        starting_track([MANO, MANO], MANO)


def test_card_1_russian_invasion_the_highest_sum_takes_reward_and_card() -> None:
    """Phase III, Card 1: 4 + 1 on the left against 2 + 2 on the right; the coin gives the right side +3, so the
    Ragione and the Mano gain a Status point; the Milizia, whose only Official is a 4, has the highest sum: +1
    Status (the Reward) and the card. (The 1 is placed as the Pugno's: the text names no owner.)"""
    track = {MANO: 4, RAGIONE: 5, PUGNO: 6, MILIZIA: 7}
    status = {MANO: 3, RAGIONE: 3, PUGNO: 3, MILIZIA: 3}
    placed = (Official(MILIZIA, card=1), Official(PUGNO, card=1), Official(RAGIONE, card=1), Official(MANO, card=1))
    state = table(Phase.III, track, status, monitor=(1,), officials=placed)
    state = apply(state, {"type": "status", "faction": "ragione", "points": 1})  # the effect, right side won
    state = apply(state, {"type": "status", "faction": "mano", "points": 1})
    state = apply(state, {"type": "resolve_card", "card": 1, "reward": 1,
                          "officials": {"milizia": [4], "pugno": [1], "ragione": [2], "mano": [2]}})  # fmt: skip
    assert state.status == {MANO: 4, RAGIONE: 4, PUGNO: 3, MILIZIA: 4}
    assert state.seat(MILIZIA).cards == 1 and sum(s.cards for s in state.seats) == 1
    assert state.track == track  # no tie: nobody moves
    assert state.monitor == ()
    assert sorted((o.faction, o.value) for o in state.officials) == [
        (MANO, 2), (MILIZIA, 4), (PUGNO, 1), (RAGIONE, 2)]  # shown until the Officials are taken back


def test_card_2_humanitarian_aid_tie_won_on_the_military_track() -> None:
    """Phase III, Card 2: the Pugno and the Ragione tie; the Ragione is further ahead, wins, moves back and swaps
    with the Mano on space 6, then takes the Wild Income token (no Status) and the card."""
    track = {PUGNO: 4, MILIZIA: 5, MANO: 6, RAGIONE: 7}
    result = resolve_card({PUGNO: [3], RAGIONE: [1, 2]}, track)
    assert result.sums == {PUGNO: 3, RAGIONE: 3}
    assert result.winner is RAGIONE and result.tied == (PUGNO, RAGIONE)
    assert result.track == {PUGNO: 4, MILIZIA: 5, MANO: 7, RAGIONE: 6}
    state = table(Phase.III, track, dict.fromkeys(track, 2), monitor=(2,),
                  officials=(Official(PUGNO, card=2, value=3), Official(RAGIONE, card=2), Official(RAGIONE, card=2)))  # fmt: skip
    state = apply(state, {"type": "resolve_card", "officials": {"pugno": [3], "ragione": [2, 1]}})
    assert state.track == result.track
    assert state.status == dict.fromkeys(track, 2)  # the Reward is an Income token
    assert state.seat(RAGIONE).cards == 1


def test_phase_v_two_sets_then_no_more() -> None:
    """Phase V: the Milizia discards 2 Assets of each type for 2 Status points, reaching the Ragione; its third set
    cannot buy a third point."""
    track = {RAGIONE: 5, MILIZIA: 6}
    state = table(Phase.V, track, {RAGIONE: 5, MILIZIA: 3}, increased=(RAGIONE,))
    with pytest.raises(StatusError, match="at most 2 Status points"):
        apply(state, {"type": "increase_status", "faction": "milizia", "points": 3})
    state = apply(state, {"type": "increase_status", "faction": "milizia", "points": 2})
    assert state.status[MILIZIA] == state.status[RAGIONE] == 5
    with pytest.raises(StatusError, match="has had its turn in this phase: at most 2"):
        apply(state, {"type": "increase_status", "faction": "milizia", "points": 1})


def test_phase_vi_priority_tie_goes_to_the_faction_furthest_back_and_nobody_moves() -> None:
    """Phase VI: the Milizia and the Ragione have the same Status points; the Ragione is further back on the
    Military track and takes the Priority token; no indicator moves."""
    track = {MILIZIA: 7, PUGNO: 5, RAGIONE: 4, MANO: 6}
    status = {MILIZIA: 4, PUGNO: 6, RAGIONE: 4, MANO: 5}
    assert priority(status, track) is RAGIONE
    state = apply(table(Phase.V, track, status), {"type": "advance"})
    assert state.phase is Phase.VI and state.priority is RAGIONE and state.track == track
    assert priority({MANO: 2, PUGNO: 3}, {MANO: 9, PUGNO: 1}) is MANO  # fewest points first; the track only in a tie


def test_two_faction_continent_count() -> None:
    """End of the Game, two Factions: the Ragione (3 AM, 1 EU, 1 AF, 1 AS) scores 2: one set and America; the
    Milizia (2 AM, 2 EU, 3 AF, 2 AS) scores 5: two sets and Europe, Africa, Asia."""
    status = {RAGIONE: 10, MILIZIA: 10}
    track = {RAGIONE: 5, MILIZIA: 6}
    continents = {RAGIONE: {AM: 3, EU: 1, AF: 1, AS: 1}, MILIZIA: {AM: 2, EU: 2, AF: 3, AS: 2}}
    score = final_score(status, {RAGIONE: 0, MILIZIA: 0}, continents, track)
    assert {f: score.status[f] - status[f] for f in status} == {RAGIONE: 2, MILIZIA: 5}
    assert score.winner is MILIZIA and score.track == track
    assert [(a.faction, a.points) for a in score.awards] == [
        (RAGIONE, 1), (MILIZIA, 1), (MILIZIA, 1), (MILIZIA, 1), (RAGIONE, 1), (MILIZIA, 2)]  # fmt: skip


def test_final_ties_settled_one_after_another_on_the_changing_track() -> None:
    """End of the Game: the most Assets, then America, Europe, Africa, Asia; each tie goes to the Faction furthest
    ahead, which steps back, so the next tie may go the other way."""
    status = {MANO: 5, PUGNO: 5}
    track = {MANO: 6, PUGNO: 5}
    even = {AM: 1, EU: 1, AF: 1, AS: 0}
    score = final_score(status, {MANO: 4, PUGNO: 4}, {MANO: even, PUGNO: even}, track)
    winners = [a.faction for a in score.awards]
    assert winners == [MANO, PUGNO, MANO, PUGNO]  # Assets, America, Europe, Africa; nobody has Asia
    assert all(a.tied == (MANO, PUGNO) for a in score.awards)
    assert score.track == track  # four swaps
    assert score.status == {MANO: 7, PUGNO: 7}
    assert score.winner is MANO  # a tie in points: the highest Military Power, and nobody moves


def test_final_score_with_nothing_to_count_gives_nothing() -> None:
    zero = dict.fromkeys(Continent, 0)
    score = final_score({MANO: 3, PUGNO: 4}, {MANO: 0, PUGNO: 0}, {MANO: zero, PUGNO: zero}, {MANO: 8, PUGNO: 5})
    assert score.status == {MANO: 3, PUGNO: 4} and score.awards == () and score.winner is PUGNO


def test_final_score_needs_every_faction() -> None:
    with pytest.raises(StatusError, match="same Factions"):
        final_score({MANO: 3, PUGNO: 4}, {MANO: 0}, {}, {MANO: 8, PUGNO: 5})
