"""Issue 51, point 6: the AI asks only what the rules need and what the table has not told it already.

Replayed through the session journal as the table plays. The books make every distance a model's own (Renaissance
"Artificial Intelligence (AI)": "When an Enemy Model activates, carry out the following steps"; "Control Area":
"the number of Squares within which the Enemy is able to locate the most dangerous Hero"), so what the table said
for one model stands for that model only, and only while neither it nor a Hero moves; a KO Hero stays where it fell.
"""

from __future__ import annotations

from typing import Any

from assistant.rules.instructions import plan
from assistant.session.games import StateFile
from tests.session.test_table_flow import answer, enemy_toml, hero_toml, journal_of, mission, roll, state_of

SLING = 'name = "Sling"\nkind = "physical"\nap = 2\nrange = [2, 6]\nhits = 1\nthreshold = 5\n'
DART = 'name = "Dart"\nkind = "physical"\nap = 1\nrange = [1, 1]\nhits = 3\nthreshold = 5\n'
CLOSEST_FIRST = 'target_priority = ["closest", "standard"]'


def asked(journal: Any) -> Any:
    question = plan(state_of(journal)).question
    assert question is not None, [s.text for s in plan(state_of(journal)).steps]
    return question


def goals(journal: Any) -> list[str]:
    return [s.text for s in plan(state_of(journal)).steps if s.kind == "goal"]


def guards(games: StateFile, *heroes: str, priority: str = CLOSEST_FIRST) -> Any:
    """Guards (4 AP, a 1 AP Dart of 3 hits, Control Area 4) activate first, before the Heroes given."""
    tokens = {"guards": 1, **{h.split('"')[1]: 2 + n for n, h in enumerate(heroes)}}
    return journal_of(games, mission("renaissance", tokens, *heroes, enemy_toml("guards", DART, extra=priority)))


def test_a_ko_past_its_health_does_not_reopen_the_goal_it_ended(games: StateFile) -> None:
    """Valerio (1 Wound Token, Health 3) is the goal on Wound Tokens; 3 wounds KO him, 1 of them past his Health.
    The plan replays the activation as the Heroes stood when the Guards chose ("docs/ai.md" 22): it took all 3 off,
    saw Valerio unwounded, a tie, and asked the players after the fact who the goal was."""
    journal = guards(games, hero_toml("valerio", health=3), hero_toml("sofia"), priority='target_priority = ["standard"]')
    journal.append({"type": "damage", "hero": "valerio", "wounds": 1})
    answer(journal, "in_area", "yes")
    answer(journal, "in_area", "yes")
    answer(journal, "closest", ["valerio", "sofia"])
    chose = goals(journal)
    assert chose == ["Guards 1 goes for Valerio (Threat Level 0): in the Control Area; the highest Threat Level then the closest "
                     "then the most Wound Tokens."]  # fmt: skip
    answer(journal, "reach", "0")
    roll(journal, "valerio", [1, 1, 1])
    assert state_of(journal).hero("valerio").ko
    assert goals(journal)[0] == chose[0]
    assert asked(journal).kind != "choose"  # before: "Valerio and Sofia tie for Guards 1's goal: the players choose."
