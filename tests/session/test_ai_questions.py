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


def test_heroes_told_equally_close_are_not_asked_about_again_for_the_goal(games: StateFile) -> None:
    """The issue's table: "Several" (Sofia and Eleonora equally close), "Is Sofia within 6 squares?", and then again
    "Who is closest to Slingers 2: Sofia or Eleonora?". The Profile's "closest", then the Standard's Threat Level,
    closest and Wound Tokens: the second "closest" is the first one's answer, so the Threat Level picks Sofia."""
    text = mission("renaissance", {"slingers": 1, "valerio": 2, "sofia": 3, "eleonora": 4}, hero_toml("valerio"),
                   hero_toml("sofia", threat=3), hero_toml("eleonora"), enemy_toml("slingers", SLING, models=2, extra=CLOSEST_FIRST))
    journal = journal_of(games, text)
    first = asked(journal)
    assert first.text == "Who is closest to Slingers 1 itself: Valerio, Sofia or Eleonora? (tap all who are equally close)"
    answer(journal, "closest", ["sofia", "eleonora"])
    answer(journal, "in_area", "yes")
    assert asked(journal).kind == "reach"  # before: "Who is closest to Slingers 1: Sofia or Eleonora?" again
    assert goals(journal) == ["Slingers 1 goes for Sofia (Threat Level 3): in the Control Area; the closest then the highest Threat Level."]


def test_an_older_journal_that_answered_the_repeat_still_folds_and_decides_the_same(games: StateFile) -> None:
    """A game saved by the Nova Table that asked the repeat holds its answer: it is taken, and changes nothing."""
    text = mission("renaissance", {"slingers": 1, "valerio": 2, "sofia": 3, "eleonora": 4}, hero_toml("valerio"),
                   hero_toml("sofia", threat=3), hero_toml("eleonora"), enemy_toml("slingers", SLING, models=2, extra=CLOSEST_FIRST))
    journal = journal_of(games, text)
    answer(journal, "closest", ["sofia", "eleonora"])
    answer(journal, "in_area", "yes")
    journal.append({"type": "ai_answer", "question": "slingers/1:closest:sofia:eleonora", "answer": ["sofia", "eleonora"]})
    assert asked(journal).kind == "reach" and goals(journal)[0].startswith("Slingers 1 goes for Sofia")
    assert state_of(journal).notes[-1].startswith("Who is closest to Slingers 1 itself: Sofia or Eleonora?")


def test_a_goal_ko_chosen_again_from_the_same_square_asks_nothing_told_already(games: StateFile) -> None:
    """"KO Hero": the Hero is placed prone where they are; docs/ai.md 13: with AP left the model chooses again. It has
    not moved and nobody else has: Sofia, as close as Valerio, is the closest left and inside the Control Area."""
    journal = guards(games, hero_toml("valerio", threat=3, health=3), hero_toml("sofia"), hero_toml("eleonora"))
    first = asked(journal)
    assert first.text == "Who is closest to Guards 1: Valerio, Sofia or Eleonora? (tap all who are equally close)"  # one model
    answer(journal, "closest", ["valerio", "sofia"])
    answer(journal, "in_area", "yes")
    answer(journal, "reach", "0")
    roll(journal, "valerio", [1, 1, 1])  # 3 wounds: Valerio is KO, 3 AP left
    assert state_of(journal).hero("valerio").ko
    after = asked(journal)
    assert after.kind == "reach" and after.about == ("sofia",)  # before: closest of Sofia and Eleonora, then Sofia's area
    assert goals(journal)[1] == "Guards 1 goes for Sofia (Threat Level 0): in the Control Area."


def test_a_model_that_moved_is_asked_again_and_told_why(games: StateFile) -> None:
    """The same, but the Guards moved a square before the attack: their distances changed, so they are asked."""
    journal = guards(games, hero_toml("valerio", threat=3, health=3), hero_toml("sofia"), hero_toml("eleonora"))
    answer(journal, "closest", ["valerio", "sofia"])
    answer(journal, "in_area", "yes")
    answer(journal, "reach", "1")
    roll(journal, "valerio", [1, 1, 1])
    again = asked(journal)
    assert again.kind == "closest" and again.about == ("sofia", "eleonora")
    assert again.text == "Valerio is KO: who is closest now to Guards 1: Sofia or Eleonora? (tap all who are equally close)"


def test_a_hero_s_dash_in_the_enemy_activation_makes_the_ai_ask_again(games: StateFile) -> None:
    """"Dash": "performed immediately by the Model who gains it, even if it is not the Active Model": a Hero moved,
    so what the table said of distances before no longer stands."""
    journal = guards(games, hero_toml("valerio", threat=3, health=3), hero_toml("sofia"), hero_toml("eleonora"))
    answer(journal, "closest", ["valerio", "sofia"])
    answer(journal, "in_area", "yes")
    answer(journal, "reach", "0")
    roll(journal, "valerio", [1, 1, 1])
    assert asked(journal).kind == "reach"
    journal.append({"type": "declare_move", "movement": "dash", "hero": "sofia", "adjacent": []})
    again = asked(journal)
    assert again.kind == "closest" and again.about == ("sofia", "eleonora")


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
    after = asked(journal)
    assert after.kind == "reach" and after.about == ("sofia",)  # before: "Valerio and Sofia tie for Guards 1's goal: the players choose."
