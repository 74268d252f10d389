"""First-edition Enemy Skills: the squares an AP buys (Chivalry) and the phases of an enemy's activation."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from assistant.rules.edition import Edition
from assistant.rules.enemy_skills import activation_phases, ap_for, squares_per_ap
from tests.ai.tables import enemy


@given(squares=st.integers(0, 40), per_ap=st.integers(1, 3))
def test_the_ap_a_move_costs_are_the_fewest_that_cover_its_squares(squares: int, per_ap: int) -> None:
    ap = ap_for(squares, per_ap)
    assert ap * per_ap >= squares and (ap - 1) * per_ap < squares or squares == ap == 0


def test_chivalry_doubles_the_squares_of_an_ap_in_the_first_edition_only() -> None:
    knight = enemy("papal_knight", skills=("Chivalry",))
    assert squares_per_ap(Edition.CLASSIC, knight) == 2
    assert squares_per_ap(Edition.RENAISSANCE, knight) == 1  # a Renaissance card says its own movement
    assert squares_per_ap(Edition.CLASSIC, enemy("guards")) == 1
    assert ap_for(5, 2) == 3  # the Papal Knight's 5 squares: 3 of its 6 AP


def test_an_enemy_without_skills_has_the_status_and_equipment_phases_only() -> None:
    assert [rule for _, rule in activation_phases(enemy("guards"))] == ["Activation of enemies"] * 2
