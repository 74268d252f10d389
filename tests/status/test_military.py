"""The Military track ("Military Power"): the book's three examples, ties, and properties of every move."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.status import Faction, StatusError, break_tie, move
from assistant.status.military import FIRST_SPACE, check_track

MANO, RAGIONE, PUGNO, MILIZIA = Faction.MANO, Faction.RAGIONE, Faction.PUGNO, Faction.MILIZIA


def test_example_1_forward_pushes_the_indicators_back() -> None:
    """Example 1 (A, B): Mano, Ragione, Pugno, Milizia on 4, 5, 6, 7; the Ragione advances 2 onto the Milizia's
    space, pushing it back 1, which pushes the Pugno back in turn."""
    before = {MANO: 4, RAGIONE: 5, PUGNO: 6, MILIZIA: 7}
    after = move(before, RAGIONE, 2)
    assert after == {MANO: 4, RAGIONE: 7, PUGNO: 5, MILIZIA: 6}
    assert before == {MANO: 4, RAGIONE: 5, PUGNO: 6, MILIZIA: 7}  # the track given is not changed


def test_example_2_one_space_back_onto_an_indicator_swaps_them() -> None:
    """Example 2 (C, D): the Ragione moves back 1 onto the Pugno's space: the two swap. (The picture's spaces are
    not in the text; the Pugno is placed right behind the Ragione, as the words require.)"""
    after = move({MANO: 4, PUGNO: 5, RAGIONE: 6, MILIZIA: 7}, RAGIONE, -1)
    assert after == {MANO: 4, PUGNO: 6, RAGIONE: 5, MILIZIA: 7}


def test_example_3_back_onto_a_row_pushes_every_other_indicator_forward() -> None:
    """Example 3 (E, F): the Milizia moves back 4 onto space 4, the Mano's; it pushes all the others forward by 1.
    (From 8, four spaces back to 4, with the others on 4, 5, 6.)"""
    after = move({MANO: 4, RAGIONE: 5, PUGNO: 6, MILIZIA: 8}, MILIZIA, -4)
    assert after == {MANO: 5, RAGIONE: 6, PUGNO: 7, MILIZIA: 4}


def test_a_move_onto_a_free_space_jumps_over_the_others() -> None:
    assert move({MANO: 4, RAGIONE: 5, PUGNO: 6}, MANO, 3) == {MANO: 7, RAGIONE: 5, PUGNO: 6}


def test_a_move_back_past_the_first_space_stops_there() -> None:
    assert move({MANO: 2, RAGIONE: 5}, MANO, -4) == {MANO: FIRST_SPACE, RAGIONE: 5}
    assert move({MANO: 1, RAGIONE: 2, PUGNO: 3}, PUGNO, -5) == {MANO: 2, RAGIONE: 3, PUGNO: 1}


def test_phase_iii_card_2_tie_the_winner_swaps_back() -> None:
    """Phase III, Card 2: the Pugno and the Ragione tie; the Ragione is further ahead, wins, and moves back 1 onto
    space 6, the Mano's: the two swap."""
    tie = break_tie({PUGNO: 4, MILIZIA: 5, MANO: 6, RAGIONE: 7}, [PUGNO, RAGIONE])
    assert tie.winner is RAGIONE
    assert tie.track == {PUGNO: 4, MILIZIA: 5, MANO: 7, RAGIONE: 6}


def test_a_tie_needs_two_factions_on_the_track() -> None:
    with pytest.raises(StatusError, match="two Factions"):
        break_tie({MANO: 4, RAGIONE: 5}, [MANO])
    with pytest.raises(StatusError, match="Pugno del Popolo has no indicator"):
        break_tie({MANO: 4, RAGIONE: 5}, [MANO, PUGNO])


def test_a_track_with_two_indicators_on_one_space_is_refused() -> None:
    with pytest.raises(StatusError, match="both on space 5"):
        check_track({MANO: 5, RAGIONE: 5})
    with pytest.raises(StatusError, match="starts at space 1"):
        check_track({MANO: 0, RAGIONE: 5})


@st.composite
def tracks(draw: st.DrawFn) -> dict[Faction, int]:
    factions = draw(st.lists(st.sampled_from(list(Faction)), min_size=2, max_size=4, unique=True))
    spaces = draw(st.lists(st.integers(FIRST_SPACE, 14), min_size=len(factions), max_size=len(factions), unique=True))
    return dict(zip(factions, spaces))


@settings(max_examples=300)
@given(tracks(), st.data())
def test_moves_never_stack_or_lose_an_indicator(track: dict[Faction, int], data: st.DataObject) -> None:
    for _ in range(data.draw(st.integers(1, 6))):
        faction = data.draw(st.sampled_from(sorted(track)))
        steps = data.draw(st.integers(-8, 8))
        after = move(track, faction, steps)
        assert set(after) == set(track)  # nobody lost, nobody added
        assert len(set(after.values())) == len(after)  # one indicator a space
        assert min(after.values()) >= FIRST_SPACE
        assert after[faction] == max(FIRST_SPACE, track[faction] + steps)  # the mover lands where it was sent
        others = {f for f in track if f is not faction and after[f] != track[f]}
        assert all(abs(after[f] - track[f]) == 1 for f in others)  # the pushed move one space
        track = after


@settings(max_examples=300)
@given(tracks(), st.data())
def test_a_tie_winner_ends_one_step_back_or_swapped(track: dict[Faction, int], data: st.DataObject) -> None:
    tied = data.draw(st.lists(st.sampled_from(sorted(track)), min_size=2, unique=True))
    tie = break_tie(track, tied)
    assert tie.winner in tied and all(track[tie.winner] >= track[f] for f in tied)
    assert tie.track[tie.winner] == track[tie.winner] - 1
    behind = [f for f in track if track[f] == track[tie.winner] - 1]
    moved = {f for f in track if tie.track[f] != track[f]}
    assert moved == {tie.winner, *behind}
    for f in behind:  # swapped: onto the space the winner left
        assert tie.track[f] == track[tie.winner]
    assert len(set(tie.track.values())) == len(tie.track)
