"""Goal choice: the rulebooks' AI examples with their numbers, and what the AI asks (and does not)."""

from __future__ import annotations

import pytest

from assistant.rules.ai import Goal, GoalView, HeroFacts, decide_goal, distance_oracle, settle_goal
from assistant.rules.edition import Edition
from assistant.rules.errors import RuleError
from assistant.rules.questions import Question, die_legend, die_pick
from assistant.rules.scenario import MissionGoal

R, C = Edition.RENAISSANCE, Edition.CLASSIC


def view(edition: Edition, heroes: tuple[HeroFacts, ...], area: int = 3, threat: int | None | str = "none",
         priority: tuple[str, ...] = ("standard",), stealth: bool = False) -> GoalView:  # fmt: skip
    mission = None if threat == "none" else MissionGoal("relic", "Take the relic", threat)  # type: ignore[arg-type]
    return GoalView(edition, "guard/1", "Guard 1", area, heroes, mission, priority, stealth)


def asked(v: GoalView, distances: dict[str, int]) -> tuple[Goal | Question, list[Question]]:
    """Settle the goal from distances, recording every question the AI asked."""
    questions: list[Question] = []
    oracle = distance_oracle(distances)

    def recording(question: Question) -> tuple[str, ...] | None:
        questions.append(question)
        return oracle(question)

    step, _ = settle_goal(v, recording)
    return step, questions


def test_renaissance_example_ai_priority_papal_guard_goes_for_vincenzo() -> None:
    # "Example: AI Priority": Vincenzo (Threat Level 8) and Sofia (Threat Level 3) are inside the
    # Papal Guard's Control Area; Sofia is closer, yet the Papal Guard moves toward Vincenzo.
    heroes = (HeroFacts("sofia", "Sofia", 3), HeroFacts("vincenzo", "Vincenzo", 8))
    goal, questions = asked(view(R, heroes, area=4), {"sofia": 1, "vincenzo": 4})
    assert isinstance(goal, Goal) and goal.hero == "vincenzo" and not goal.mission
    assert goal.steps == ("area", "threat")
    # one tap: Vincenzo is asked first (highest Threat Level), and nobody asks for a distance
    assert [q.kind for q in questions] == ["in_area"]
    assert questions[0].about == ("vincenzo",)


def test_first_edition_example_5_swiss_guard_goes_for_the_scum() -> None:
    # Example 5: Swiss Guard Ca 3, mission TV 5; the Novice (TV 4) and the Scum (TV 6) are in his Ca.
    heroes = (HeroFacts("novice", "Novice", 4), HeroFacts("scum", "Scum", 6))
    goal, questions = asked(view(C, heroes, area=3, threat=5), {"novice": 2, "scum": 3})
    assert isinstance(goal, Goal) and goal.hero == "scum"
    # the Novice's TV is below the mission's: the AI does not even ask where he is
    assert [q.about for q in questions] == [("scum",)]


def test_first_edition_example_5_without_the_scum_the_guard_keeps_to_the_mission() -> None:
    heroes = (HeroFacts("novice", "Novice", 4), HeroFacts("scum", "Scum", 6))
    goal, questions = asked(view(C, heroes, area=3, threat=5), {"novice": 2, "scum": 4})
    assert isinstance(goal, Goal) and goal.mission and goal.hero is None
    assert len(questions) == 1


@pytest.mark.parametrize("edition", [R, C])
def test_a_threat_equal_to_the_missions_is_a_threat(edition: Edition) -> None:
    heroes = (HeroFacts("a", "A", 5),)
    goal, _ = asked(view(edition, heroes, threat=5), {"a": 1})
    assert isinstance(goal, Goal) and goal.hero == "a"


def test_a_goal_without_threat_level_is_pursued_regardless_and_nothing_is_asked() -> None:
    heroes = (HeroFacts("a", "A", 30),)
    goal = decide_goal(view(R, heroes, threat=None), {})
    assert isinstance(goal, Goal) and goal.mission and goal.steps == ("mission",)


def test_the_distance_is_asked_only_among_heroes_tied_on_threat() -> None:
    heroes = (HeroFacts("a", "A", 5), HeroFacts("b", "B", 5), HeroFacts("c", "C", 2))
    goal, questions = asked(view(R, heroes, area=4), {"a": 3, "b": 2, "c": 1})
    assert isinstance(goal, Goal) and goal.hero == "b"
    assert [q.kind for q in questions] == ["in_area", "in_area", "closest"]
    assert questions[-1].about == ("a", "b")  # C (closer still, but lower Threat Level) is not in it
    assert goal.steps == ("area", "threat", "closest")


def test_renaissance_ties_go_threat_then_closest_then_wounds_then_the_players() -> None:
    heroes = (HeroFacts("a", "A", 5, wounds=1), HeroFacts("b", "B", 5, wounds=2), HeroFacts("c", "C", 5, wounds=2))
    goal, _ = asked(view(R, heroes), {"a": 2, "b": 2, "c": 3})
    assert isinstance(goal, Goal) and goal.hero == "b" and goal.steps == ("area", "threat", "closest", "most_wounds")
    tied = (HeroFacts("a", "A", 5, wounds=2), HeroFacts("b", "B", 5, wounds=2))
    question, _ = asked(view(R, tied), {"a": 2, "b": 2})
    assert isinstance(question, Question) and question.kind == "choose" and question.options == ("a", "b")
    chosen = decide_goal(view(R, tied), {**_answers(view(R, tied), {"a": 2, "b": 2}), question.key: ("b",)})
    assert isinstance(chosen, Goal) and chosen.hero == "b" and chosen.steps[-1] == "players"


def test_first_edition_ties_are_settled_by_a_die_the_table_rolls() -> None:
    tied = (HeroFacts("novice", "Novice", 6), HeroFacts("scum", "Scum", 6))
    v = view(C, tied, threat=5)
    question, _ = asked(v, {"novice": 2, "scum": 2})
    assert isinstance(question, Question) and question.kind == "roll"
    assert question.text == "Roll a d6 for Guard 1's target: 1-3 Novice, 4-6 Scum."
    answers = {**_answers(v, {"novice": 2, "scum": 2}), question.key: ("5",)}
    goal = decide_goal(v, answers)
    assert isinstance(goal, Goal) and goal.hero == "scum" and goal.steps[-1] == "die"


def test_a_die_that_does_not_split_evenly_is_rolled_again() -> None:
    assert die_legend(["A", "B", "C", "D"]) == "1 A, 2 B, 3 C, 4 D, roll again on 5-6"
    assert die_pick(["a", "b", "c", "d"], 5) is None
    tied = tuple(HeroFacts(h, h.upper(), 3) for h in "abcd")
    v = view(C, tied)
    answers = _answers(v, {h: 1 for h in "abcd"})
    first = decide_goal(v, answers)
    assert isinstance(first, Question) and first.kind == "roll"
    second = decide_goal(v, {**answers, first.key: ("6",)})
    assert isinstance(second, Question) and second.kind == "roll" and second.key != first.key
    goal = decide_goal(v, {**answers, first.key: ("6",), second.key: ("3",)})
    assert isinstance(goal, Goal) and goal.hero == "c"


def test_nobody_in_the_area_and_no_mission_goal_the_closest_hero_anywhere() -> None:
    # Renaissance step 4: the closest Hero, then the highest Threat Level, then the most wounds.
    heroes = (HeroFacts("a", "A", 9), HeroFacts("b", "B", 1), HeroFacts("c", "C", 4))
    goal, questions = asked(view(R, heroes, area=2), {"a": 9, "b": 5, "c": 5})
    assert isinstance(goal, Goal) and goal.hero == "c" and goal.steps == ("area", "anywhere", "closest", "threat")
    assert [q.kind for q in questions] == ["in_area"] * 3 + ["closest"]


def test_ko_heroes_are_never_considered() -> None:
    heroes = (HeroFacts("a", "A", 9, ko=True), HeroFacts("b", "B", 1))
    goal, questions = asked(view(R, heroes), {"a": 1, "b": 7})
    assert isinstance(goal, Goal) and goal.hero == "b"
    assert all("a" not in q.about for q in questions)
    everyone_ko = decide_goal(view(R, (HeroFacts("a", "A", 9, ko=True),)), {})
    assert isinstance(everyone_ko, Goal) and everyone_ko.hero is None and not everyone_ko.mission


def test_stealth_sets_the_control_area_to_one_and_never_targets_outside_it() -> None:
    heroes = (HeroFacts("a", "A", 9), HeroFacts("b", "B", 1))
    goal, questions = asked(view(R, heroes, area=6, stealth=True), {"a": 2, "b": 3})
    assert isinstance(goal, Goal) and goal.hero is None and not goal.mission
    assert {q.squares for q in questions} == {1}


def test_a_profile_card_order_comes_first_then_standard() -> None:
    heroes = (HeroFacts("a", "A", 9, mind=2), HeroFacts("b", "B", 1, mind=5), HeroFacts("c", "C", 3, mind=5))
    v = view(R, heroes, priority=("highest_mind", "standard"))
    goal, questions = asked(v, {"a": 1, "b": 2, "c": 3})
    # highest Mind among those in the area: B and C tie; Standard then takes the higher Threat Level
    assert isinstance(goal, Goal) and goal.hero == "c" and goal.steps == ("area", "highest_mind", "threat")
    assert [q.about for q in questions] == [("b",), ("c",)]  # A (Mind 2) cannot win: never asked


def test_a_profile_card_with_nobody_in_the_area_follows_standard() -> None:
    heroes = (HeroFacts("a", "A", 2, mind=2), HeroFacts("b", "B", 1, mind=5))
    goal, _ = asked(view(R, heroes, area=1, priority=("highest_mind", "standard")), {"a": 3, "b": 5})
    assert isinstance(goal, Goal) and goal.hero == "a" and goal.steps[-1] == "closest"


def test_a_profile_card_farthest_first() -> None:
    heroes = (HeroFacts("a", "A", 2), HeroFacts("b", "B", 1))
    goal, questions = asked(view(R, heroes, area=5, priority=("farthest", "standard")), {"a": 3, "b": 5})
    assert isinstance(goal, Goal) and goal.hero == "b"
    assert questions[-1].kind == "farthest"


def test_a_profile_factor_needing_a_sheet_value_says_which() -> None:
    with pytest.raises(RuleError, match="mind"):
        decide_goal(view(R, (HeroFacts("a", "A", 2),), priority=("highest_mind", "standard")), {})


def _answers(v: GoalView, distances: dict[str, int]) -> dict[str, tuple[str, ...]]:
    _, known = settle_goal(v, distance_oracle(distances))
    return known
