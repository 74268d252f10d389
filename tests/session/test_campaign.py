"""The Renaissance campaign sheet: the Rest Phase rules it keeps, its refusals, and its round trip to JSON."""

from __future__ import annotations

import json
from functools import reduce
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.session.campaign import CampaignError, CampaignSheet, apply

START: list[dict[str, Any]] = [
    {"type": "add_hero", "hero": "valerio", "name": "Valerio", "class": "Squire"},
    {"type": "add_hero", "hero": "sofia", "name": "Sofia", "class": "Huntress"},
]


def sheet_after(*events: dict[str, Any]) -> CampaignSheet:
    return reduce(apply, [*START, *events], CampaignSheet())


def test_advancing_a_class_needs_destiny_card_2_three_skills_and_2_experience() -> None:
    # "Acquiring Class Advancement": at least 3 Skills of the Basic Class, Destiny Card 2, 2 XP.
    skills = [{"type": "acquire_skill", "hero": "valerio", "skill": f"Skill {n}", "cost": 1} for n in range(3)]
    advance = {"type": "advance_class", "hero": "valerio", "class": "Knight", "bond": "Lance", "upgrade": "physique"}
    destiny = [{"type": "resolve_destiny", "hero": "valerio", "card": n} for n in (1, 2)]
    with pytest.raises(CampaignError, match="Destiny Card 2"):
        sheet_after({"type": "gain_experience", "xp": 5}, *skills, destiny[0], advance)
    with pytest.raises(CampaignError, match="needs 3 skills first, has 2"):
        sheet_after({"type": "gain_experience", "xp": 5}, *skills[:2], *destiny, advance)
    with pytest.raises(CampaignError, match="needs 2 Experience Points"):
        sheet_after({"type": "gain_experience", "xp": 4}, *skills, *destiny, advance)
    with pytest.raises(CampaignError, match="^bond: "):  # step 4: the Hero gains the Bound Equipment of the new Class
        sheet_after({"type": "gain_experience", "xp": 5}, *skills, *destiny, {k: v for k, v in advance.items() if k != "bond"})
    sheet = sheet_after({"type": "gain_experience", "xp": 5}, *skills, *destiny, advance)
    valerio = sheet.hero("valerio")
    assert (valerio.advanced_class, valerio.bond, valerio.upgrade, valerio.experience_spent) == ("Knight", "Lance", "physique", 5)
    assert sheet.hero("sofia").experience_spent == 0  # every hero gains the party's XP; each spends their own


def destiny(*cards: int) -> list[dict[str, Any]]:
    return [{"type": "resolve_destiny", "hero": "valerio", "card": n} for n in cards]


ADVANCED: list[dict[str, Any]] = [
    {"type": "gain_experience", "xp": 5},
    *({"type": "acquire_skill", "hero": "valerio", "skill": f"Skill {n}", "cost": 1} for n in range(3)),
    {"type": "advance_class", "hero": "valerio", "class": "Knight", "bond": "Lance", "upgrade": "physique"},
]


def test_destiny_cards_come_in_order_and_four_in_all() -> None:
    """"Destiny Cards": Card 1 gives Card 2 "and so on, until they gain four of the six"; the first 2 are the Basic
    Class's, "the other 4 are bound in pairs to their respective Advanced Classes"."""
    with pytest.raises(CampaignError, match="^card: Valerio gains Destiny Card 2 after resolving Card 1$"):
        sheet_after(*destiny(2))
    with pytest.raises(CampaignError, match="^card: Destiny Cards 3 to 6 belong to the Advanced Classes; Valerio has none yet$"):
        sheet_after(*destiny(1, 2, 3))
    advanced = [*destiny(1, 2), *ADVANCED]
    with pytest.raises(CampaignError, match="^card: Valerio gains Destiny Card 4 after resolving Card 3$"):
        sheet_after(*advanced, *destiny(4))
    for pair in ((3, 4), (5, 6)):  # which pair is the chosen class's is the cards' own: the first one resolved says
        assert sheet_after(*advanced, *destiny(*pair)).hero("valerio").destiny_resolved == (1, 2, *pair)
    with pytest.raises(CampaignError, match="^card: Valerio's Advanced Class gives Destiny Cards 3 and 4, not 5"):
        sheet_after(*advanced, *destiny(3, 5))
    with pytest.raises(CampaignError, match="^card: Valerio's Advanced Class gives Destiny Cards 5 and 6, not 3"):
        sheet_after(*advanced, *destiny(5, 6, 3))


def test_an_injury_the_hero_already_has_is_drawn_again() -> None:
    """"Injury Cards": a Hero who draws an Injury they already have discards it and draws a new one."""
    scar = {"type": "injury", "hero": "valerio", "injury": "Scar"}
    with pytest.raises(CampaignError, match="^injury: Valerio already has 'Scar': discard it and draw another$"):
        sheet_after(scar, scar)
    healed = sheet_after(scar, {"type": "heal_injury", "hero": "valerio", "injury": "Scar"}, scar)
    assert healed.hero("valerio").injuries == ("Scar",)  # healed at the Chyrurgeon, it can be drawn again


def test_at_most_three_side_missions_and_the_treasury_never_goes_negative() -> None:
    missions = [{"type": "side_mission", "id": f"S{n}", "title": f"Side {n}"} for n in range(4)]
    with pytest.raises(CampaignError, match="at most 3 side missions"):
        sheet_after(*missions)
    sheet = sheet_after(*missions[:3], {"type": "side_mission_done", "id": "S1"}, missions[3])
    assert [m[0] for m in sheet.side_missions] == ["S0", "S2", "S3"]
    with pytest.raises(CampaignError, match="^amount: the Treasury has 5 Florins, cannot pay 6"):
        sheet_after({"type": "florins", "amount": 5}, {"type": "florins", "amount": -6})
    with pytest.raises(CampaignError, match="^amount: the Treasury has 1 Elementum, cannot take 2"):
        sheet_after({"type": "reagents", "reagent": "Elementum", "amount": 1}, {"type": "reagents", "reagent": "Elementum", "amount": -2})


def test_refusals_name_the_field() -> None:
    cases = [
        ({"type": "gain_experience", "xp": "many"}, "xp"),
        ({"type": "injury", "hero": "ezio", "injury": "Broken arm"}, "hero"),
        ({"type": "heal_injury", "hero": "sofia", "injury": "Broken arm"}, "injury"),
        ({"type": "inventory_remove", "item": "Rope"}, "item"),
        ({"type": "promote"}, "type"),
        ({"type": "add_hero", "hero": "valerio", "name": "Valerio", "class": "Squire"}, "hero"),
    ]
    for event, field in cases:
        with pytest.raises(CampaignError) as caught:
            sheet_after(event)
        assert str(caught.value).startswith(f"{field}: "), (event, caught.value)


EVENT = st.one_of(
    st.builds(lambda xp: {"type": "gain_experience", "xp": xp}, st.integers(1, 4)),
    st.builds(lambda a: {"type": "florins", "amount": a}, st.integers(-5, 20)),
    st.builds(lambda r, a: {"type": "reagents", "reagent": r, "amount": a}, st.sampled_from(["Elementum", "Alchemia"]), st.integers(-3, 5)),
    st.builds(lambda h, n, c: {"type": "acquire_skill", "hero": h, "skill": f"S{n}", "cost": c},
              st.sampled_from(["valerio", "sofia"]), st.integers(0, 9), st.integers(0, 3)),
    st.builds(lambda h, c: {"type": "resolve_destiny", "hero": h, "card": c}, st.sampled_from(["valerio", "sofia"]), st.integers(1, 6)),
    st.builds(lambda h: {"type": "advance_class", "hero": h, "class": "Knight", "bond": "Lance", "upgrade": "mind"},
              st.sampled_from(["valerio", "sofia"])),
    st.builds(lambda h, i: {"type": "injury", "hero": h, "injury": i}, st.sampled_from(["valerio", "sofia"]), st.sampled_from(["Scar", "Limp"])),
    st.builds(lambda i: {"type": "inventory_add", "item": i}, st.sampled_from(["Rope", "Lantern"])),
    st.builds(lambda n: {"type": "side_mission", "id": f"S{n}", "title": "Side"}, st.integers(0, 4)),
    st.builds(lambda n: {"type": "achievement", "achievement": str(n)}, st.integers(1, 30)),
    st.builds(lambda g, r, xp, p: {"type": "mission_end", "game": g, "title": "M", "result": r, "xp": xp, "reagents": {"Pecunia": p}},
              st.integers(1, 3), st.sampled_from(["victory", "defeat"]), st.integers(0, 4), st.integers(0, 3)),
)  # fmt: skip


DESTINY_SHEETS = {(), (1,), (1, 2), (1, 2, 3), (1, 2, 3, 4), (1, 2, 5), (1, 2, 5, 6)}


@settings(max_examples=150, deadline=None)
@given(st.lists(EVENT, max_size=30))
def test_the_sheet_survives_a_round_trip_through_json_and_keeps_its_invariants(events: list[dict[str, Any]]) -> None:
    sheet = sheet_after()
    for event in events:
        try:
            sheet = apply(sheet, event)
        except CampaignError:
            continue
        assert sheet.florins >= 0 and all(count > 0 for _, count in sheet.reagents)
        assert len(sheet.side_missions) <= 3
        assert len({game for game, _, _ in sheet.missions}) == len(sheet.missions)  # a game's end once
        assert all(hero.experience_spent <= sheet.experience for hero in sheet.heroes)
        for hero in sheet.heroes:
            assert hero.destiny_resolved in DESTINY_SHEETS and len(set(hero.injuries)) == len(hero.injuries)
            assert hero.advanced_class is not None or max(hero.destiny_resolved, default=0) <= 2
    assert CampaignSheet.from_dict(json.loads(json.dumps(sheet.to_dict()))) == sheet


def test_a_mission_s_end_brings_its_experience_and_reagents_once_per_game() -> None:
    """"Mission Phase": the Heroes "gain Experience Points and Reagents"; a campaign mission's end is one event, its
    game's: a second of the same game is refused (a tap twice would have given the Experience twice)."""
    end = {"type": "mission_end", "game": 3, "title": "The bridge", "result": "victory", "xp": 4,
           "reagents": {"Pecunia": 2, "Alchemia": 0}}  # fmt: skip
    sheet = sheet_after({"type": "reagents", "reagent": "Pecunia", "amount": 1}, end)
    assert (sheet.experience, sheet.reagents, sheet.missions) == (4, (("Pecunia", 3),), ((3, "The bridge", "victory"),))
    assert CampaignSheet.from_dict(json.loads(json.dumps(sheet.to_dict()))) == sheet
    with pytest.raises(CampaignError, match="game: the end of game 3 is on the campaign sheet already"):
        apply(sheet, end)
    with pytest.raises(CampaignError, match="result: expected victory or defeat"):
        apply(sheet, end | {"game": 4, "result": "draw"})
    with pytest.raises(CampaignError, match="reagents.Pecunia: expected a count of 0 or more"):
        apply(sheet, end | {"game": 4, "reagents": {"Pecunia": -1}})
    old = sheet.to_dict()
    del old["missions"]  # a sheet saved before missions were kept on it
    assert CampaignSheet.from_dict(old).missions == ()
