"""Renaissance "Dice Re-roll" through the session journal: a Test's re-rolls are part of its event."""

from __future__ import annotations

from typing import Any

import pytest

from assistant.session.errors import EventRefused
from assistant.session.games import StateFile
from tests.session.conftest import demo_text

# The book's example: Sofia attacks a Slinger (Defense 5) with 3 dice, Star 5, Sun 6, 3; the Slinger's Dodge
# re-rolls the 6 to a 2; her Lucky Token re-rolls that die to Star 7: 2 Successes, 2 Wounds to the Slinger.
SOFIAS_ATTACK = {"type": "hero_attack", "hero": "sofia", "group": "slingers", "model": 1, "kind": "physical", "ap": 3,
                 "dice": [5, 6, 3], "defense": 5,
                 "rerolls": [{"die": 1, "value": 2, "by": "enemy"}, {"die": 1, "value": 7, "by": "hero"}]}


def sofias_turn(games: StateFile) -> Any:
    games.new_game(demo_text(), "demo.toml")
    journal = games.journal()
    journal.append({"type": "end_activation"})  # Valerio's; Sofia's token is next (sector II)
    assert journal.state.turn.token == "sofia"
    return journal


def slinger(journal: Any) -> Any:
    return journal.state.group("slingers").models[0]


def test_the_dice_reroll_example_is_one_event_and_undo_takes_the_whole_test_back(games: StateFile) -> None:
    journal = sofias_turn(games)
    journal.append(SOFIAS_ATTACK)
    assert slinger(journal).wounds == 2  # 2 Successes on 5, 7, 3 inflict 2 Wounds: the Slinger (Health 2) falls
    assert slinger(journal).defeated
    (body,) = games.db.execute("SELECT body FROM events WHERE seq = 2").fetchone()
    assert '"rerolls"' in body and '"by":"enemy"' in body.replace(" ", "")
    journal.undo()
    assert slinger(journal).wounds == 0 and journal.state.turn.ap_left == 6
    journal.redo()
    assert slinger(journal).defeated


def test_dodge_alone_leaves_one_success(games: StateFile) -> None:
    """Had Sofia kept her Lucky Token, Dodge's re-roll leaves 5, 2, 3: 1 Success, 1 Wound (the re-rolls are
    computed, not only stored)."""
    journal = sofias_turn(games)
    journal.append({**SOFIAS_ATTACK, "rerolls": [{"die": 1, "value": 2, "by": "enemy"}]})
    assert slinger(journal).wounds == 1 and not slinger(journal).defeated


def test_a_reroll_the_book_forbids_is_refused_and_nothing_is_stored(games: StateFile) -> None:
    journal = sofias_turn(games)
    twice = {**SOFIAS_ATTACK, "rerolls": [{"die": 2, "value": 4, "by": "hero"}, {"die": 2, "value": 8, "by": "hero"}]}
    with pytest.raises(EventRefused, match=r"rerolls\[1\]\.die: die 2 was re-rolled by the Hero's own .*Dice Re-roll"):
        journal.append(twice)
    with pytest.raises(EventRefused, match=r"rerolls\[0\]\.value: a d8 has no face 9"):
        journal.append({**SOFIAS_ATTACK, "rerolls": [{"die": 0, "value": 9, "by": "hero"}]})
    assert games.db.execute("SELECT count(*) FROM events").fetchone() == (1,)
    assert slinger(journal).wounds == 0
