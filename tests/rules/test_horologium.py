"""The Horologium: hands, stops, order in a sector, forced Wait, reactions; the books' examples."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from assistant.rules.edition import Edition
from assistant.rules.errors import RuleError
from assistant.rules.horologium import (
    SECTORS,
    Clock,
    Side,
    Token,
    ahead,
    forced_wait,
    next_activation,
    overtaken,
    sector_order,
    step,
)

sector = st.integers(1, 12)


def test_the_hour_hand_moves_when_the_minute_hand_reaches_or_passes_twelve() -> None:
    # Renaissance "Horologium": whenever the Minute Hand reaches or passes XII, the Hour Hand moves.
    assert Clock(1, 11).forward(1) == Clock(2, 12)  # reaches XII
    assert Clock(1, 11).forward(6) == Clock(2, 5)  # passes XII
    assert Clock(2, 12).forward(3) == Clock(2, 3)  # leaving XII is not reaching it
    assert Clock(1, 3).forward(12) == Clock(2, 3)
    with pytest.raises(RuleError):
        Clock(1, 3).forward(-1)


def test_the_gipsy_sector_after_eleven_o_clock() -> None:
    gipsy = Token("gipsy", Side.ENEMY, 5, swiftness=6)
    activation = next_activation(Clock(1, 11), [gipsy])
    assert activation.clock == Clock(2, 5)
    assert activation.order == ("gipsy",)
    assert activation.ties == ()


def test_first_edition_example_2_sector_five() -> None:
    # Sector V: Gipsy (Ra 6), Apprentice (Ra 5), Squire (Ra 5), Crossbowman (Ra 4): the Gipsy first.
    tokens = [
        Token("apprentice", Side.HERO, 5, 5),
        Token("crossbowman", Side.ENEMY, 5, 4),
        Token("squire", Side.HERO, 5, 5),
        Token("gipsy", Side.ENEMY, 5, 6),
    ]
    order, ties = sector_order(tokens)
    assert order[0] == "gipsy"
    assert order[-1] == "crossbowman"
    assert set(order[1:3]) == {"apprentice", "squire"}
    assert ties == (("apprentice", "squire"),)  # two Heroes with Ra 5: the players choose


def test_enemies_go_before_heroes_on_equal_swiftness_and_events_before_everyone() -> None:
    # Renaissance "Models Activation" and "Event Tokens".
    tokens = [
        Token("valerio", Side.HERO, 3, 4),
        Token("guards", Side.ENEMY, 3, 4),
        Token("bell", Side.EVENT, 3),
        Token("witch", Side.ENEMY, 3, 4),
    ]
    order, ties = sector_order(tokens)
    assert order[0] == "bell"
    assert order[-1] == "valerio"
    assert ties == (("guards", "witch"),)  # a tie among Enemies is the players' to order


def test_the_hand_moves_to_the_next_occupied_sector_and_stays_while_tokens_there_must_act() -> None:
    tokens = [Token("a", Side.HERO, 3, 4), Token("b", Side.ENEMY, 8, 4)]
    assert next_activation(Clock(1, 3), tokens).clock == Clock(1, 3)
    assert next_activation(Clock(1, 4), tokens).clock == Clock(1, 8)
    assert next_activation(Clock(1, 9), tokens).clock == Clock(2, 3)


def test_a_ko_token_that_already_drew_its_injury_is_met_again_a_full_turn_later() -> None:
    # Renaissance "KO Hero": the token never leaves its sector; the hand meets it every turn.
    ko = Token("sofia", Side.HERO, 6, 4, ko=True)
    activation = next_activation(Clock(1, 6), [ko], done=["sofia"])
    assert activation.clock == Clock(2, 6)
    assert activation.order == ("sofia",)
    with pytest.raises(RuleError, match="never leaves"):
        ko.moved(1)
    assert ko.moved(0) == ko


def test_valerio_spends_five_action_points() -> None:
    # Renaissance "Horologium" example: move 1 AP, Sword attack 3 AP, move 1 AP: five sectors.
    token = Token("valerio", Side.HERO, 2, 5)
    for ap in (1, 3, 1):
        token = token.moved(ap)
    assert token.sector == 7


def test_the_apprentice_example_1() -> None:
    # First edition, Example 1: sector III, 5 AP: moves 2 squares, arcane bolt 3 AP -> 5 sectors.
    token = Token("apprentice", Side.HERO, 3, 5).moved(2).moved(3)
    assert token.sector == 8


R, C = Edition.RENAISSANCE, Edition.CLASSIC


def test_valerio_must_wait_to_reach_the_enemy_token() -> None:
    # Renaissance "Hero or Ally Activation" 2e example: Valerio in XII, the next Enemy token in V;
    # he moves 3 squares (3 AP) and must Wait the 2 AP left to reach V.
    assert forced_wait(start=12, position=3, ap_left=2, enemy_sectors=[5, 9], edition=R) == (2, 5)
    # with the Enemy token in VI he still reaches V, spending all his remaining AP
    assert forced_wait(start=12, position=3, ap_left=2, enemy_sectors=[6, 9], edition=R) == (2, 5)


def test_the_apprentice_example_3_reaches_the_crossbowmen() -> None:
    # First edition, Example 3: moved 3 (III to VI), next enemy token in VII: 1 AP to reach it.
    assert forced_wait(start=3, position=6, ap_left=2, enemy_sectors=[7, 11], edition=C) == (1, 7)


@pytest.mark.parametrize("edition", [R, C])
def test_forced_wait_after_an_enemy_token_is_reached_or_with_no_ap_left(edition: Edition) -> None:
    # already reached or passed an Enemy token: no Wait
    assert forced_wait(start=12, position=5, ap_left=1, enemy_sectors=[5, 9], edition=edition) == (0, 5)
    assert forced_wait(start=12, position=6, ap_left=1, enemy_sectors=[5, 9], edition=edition) == (0, 6)
    # no AP left: nothing to spend
    assert forced_wait(start=12, position=3, ap_left=0, enemy_sectors=[5, 9], edition=edition) == (0, 3)
    # no Enemy token at all: nothing to reach
    assert forced_wait(start=12, position=3, ap_left=2, enemy_sectors=[], edition=edition) == (0, 3)


def test_the_renaissance_exceptions_to_the_forced_wait() -> None:
    # only one Enemy token on the Horologium: the rule is ignored
    assert forced_wait(start=12, position=1, ap_left=4, enemy_sectors=[5], edition=R) == (0, 1)
    # an Enemy token in the starting sector is not "reached": the next one counts
    assert forced_wait(start=4, position=5, ap_left=3, enemy_sectors=[4, 7], edition=R) == (2, 7)


def test_the_first_edition_forced_wait_has_no_exceptions() -> None:
    # "In any case, a hero must spend their AP until the first sector occupied by an enemy has been
    # passed": a single Enemy token counts (Apprentice, Ra 5, in III, 1 AP spent, the one token in VII)
    assert forced_wait(start=3, position=4, ap_left=4, enemy_sectors=[7], edition=C) == (3, 7)
    # an Enemy token in the starting sector is passed by any move, as for its reaction (`overtaken`)
    assert forced_wait(start=4, position=5, ap_left=3, enemy_sectors=[4, 9], edition=C) == (0, 5)
    assert overtaken(start=4, moved=1, enemies=[Token("e", Side.ENEMY, 4, 3)]) == ("e",)
    # and the Hero who has not moved yet passes it with 1 AP
    assert forced_wait(start=4, position=4, ap_left=3, enemy_sectors=[4, 9], edition=C) == (1, 5)


@given(start=sector, moved=st.integers(0, 6), ap_left=st.integers(0, 6), enemies=st.lists(sector, max_size=5),
       edition=st.sampled_from(Edition))  # fmt: skip
def test_forced_wait_invariants(start: int, moved: int, ap_left: int, enemies: list[int], edition: Edition) -> None:
    position = step(start, moved)
    wait, end = forced_wait(start, position, ap_left, enemies, edition)
    assert 0 <= wait <= ap_left
    assert end == step(position, wait)
    if wait:
        here = SECTORS if edition is R else 1
        distances = [ahead(start, e) or here for e in enemies]
        # the Hero never overshoots the first Enemy token, and stops on it unless out of AP
        assert moved + wait <= min(distances)
        assert moved + wait == min(distances) or wait == ap_left
    elif ap_left and enemies and not (edition is R and len(enemies) == 1):
        # no Wait only where an Enemy token is already reached or passed
        assert any(ahead(start, e) <= moved and (ahead(start, e) or edition is C and moved) for e in enemies)


def test_first_edition_reaction_when_a_hero_token_overtakes_an_enemy_token() -> None:
    # First edition "Reaction": a Hero token moving past an Enemy token.
    enemies = [Token("faun", Side.ENEMY, 5, 4), Token("centaur", Side.ENEMY, 8, 5), Token("here", Side.ENEMY, 2, 3)]
    assert overtaken(start=2, moved=4, enemies=enemies) == ("faun", "here")  # 2 -> 6 passes V
    assert overtaken(start=2, moved=3, enemies=enemies) == ("here",)  # stops on V: reached, not passed
    assert overtaken(start=2, moved=0, enemies=enemies) == ()


tokens_strategy = st.lists(
    st.builds(
        Token,
        id=st.text("abcdefgh", min_size=1, max_size=4),
        side=st.sampled_from(list(Side)),
        sector=sector,
        swiftness=st.integers(0, 8),
    ),
    min_size=1,
    max_size=10,
    unique_by=lambda t: t.id,
)


@given(tokens=tokens_strategy, hour=st.integers(0, 5), minute=sector)
def test_next_activation_is_the_nearest_occupied_sector_and_time_never_goes_back(
    tokens: list[Token], hour: int, minute: int
) -> None:
    clock = Clock(hour, minute)
    activation = next_activation(clock, tokens)
    assert activation.clock.absolute >= clock.absolute
    assert activation.clock.hour >= clock.hour
    here = {t.id for t in tokens if t.sector == activation.clock.minute}
    assert set(activation.order) == here  # every token of the sector, none lost, none added
    assert len(activation.order) == len(here)
    skipped = range(1, ahead(minute, activation.clock.minute))
    assert not any(t.sector == step(minute, d) for t in tokens for d in skipped)


@given(tokens=tokens_strategy)
def test_the_order_in_a_sector_is_total_apart_from_the_ties_it_reports(tokens: list[Token]) -> None:
    order, ties = sector_order(tokens)
    assert sorted(order) == sorted(t.id for t in tokens)
    by_id = {t.id: t for t in tokens}
    tied = {i: n for n, group in enumerate(ties) for i in group}
    for group in ties:  # a tie group keeps its place: its members are side by side
        positions = sorted(order.index(i) for i in group)
        assert positions == list(range(positions[0], positions[0] + len(group)))
    for before, after in zip(order, order[1:]):
        a, b = by_id[before], by_id[after]
        if a.side is Side.EVENT or b.side is Side.EVENT:
            assert not (b.side is Side.EVENT and a.side is not Side.EVENT)
            continue
        key_a = (-a.swiftness, a.side is not Side.ENEMY)
        key_b = (-b.swiftness, b.side is not Side.ENEMY)
        if key_a == key_b:
            assert tied.get(before) is not None and tied.get(before) == tied.get(after)
        else:
            assert key_a < key_b


@given(start=sector, moves=st.lists(st.integers(0, 8), max_size=10))
def test_a_token_moved_any_way_stays_on_the_dial(start: int, moves: list[int]) -> None:
    token = Token("t", Side.HERO, start, 5)
    for sectors in moves:
        token = token.moved(sectors)
        assert 1 <= token.sector <= SECTORS
    assert token.sector == step(start, sum(moves))


def test_bad_values_name_the_field() -> None:
    with pytest.raises(RuleError, match="minute"):
        Clock(1, 13)
    with pytest.raises(RuleError, match="sector"):
        Token("x", Side.HERO, 0)
    with pytest.raises(RuleError, match="ko"):
        Token("x", Side.ENEMY, 3, ko=True)
    with pytest.raises(RuleError, match="enemy_sectors"):
        forced_wait(1, 2, 1, [3, 14], R)
    with pytest.raises(RuleError, match="side"):
        Side.parse("villain")
