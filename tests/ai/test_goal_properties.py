"""Property tests of the goal choice against a plain reading of the books, on random tables."""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.rules.ai import CLASSIC_PRIORITIES, STANDARD_IN_AREA, Goal, GoalView, HeroFacts, settle_goal
from assistant.rules.ai import distance_oracle
from assistant.rules.edition import Edition
from assistant.rules.questions import Question
from assistant.rules.scenario import PRIORITY_FACTORS, MissionGoal

FACTORS = [f for f in PRIORITY_FACTORS if f != "standard"]


@dataclass(frozen=True)
class Table:
    edition: Edition
    area: int
    mission: MissionGoal | None
    heroes: tuple[HeroFacts, ...]
    distance: dict[str, int]
    priority: tuple[str, ...]


@st.composite
def tables(draw: st.DrawFn, profiles: bool = False) -> Table:
    count = draw(st.integers(0, 5))
    heroes = tuple(
        HeroFacts(f"h{i}", f"H{i}", draw(st.integers(0, 6)), draw(st.integers(0, 3)), draw(st.booleans().map(lambda b: b and draw(st.integers(0, 3)) == 0)),
                  health=draw(st.integers(3, 6)), mind=draw(st.integers(1, 4)), physique=draw(st.integers(1, 4)))  # fmt: skip
        for i in range(count)
    )
    distance = {h.id: draw(st.integers(1, 8)) for h in heroes}
    mission = draw(st.one_of(st.none(), st.builds(MissionGoal, st.just("goal"), st.just("the goal"), st.one_of(st.none(), st.integers(0, 6)))))
    priority: tuple[str, ...] = ("standard",)
    if profiles:
        priority = tuple(draw(st.lists(st.sampled_from(FACTORS), max_size=3, unique=True))) + ("standard",)
    return Table(draw(st.sampled_from(list(Edition))), draw(st.integers(0, 6)), mission, heroes, distance, priority)


def key(table: Table, factor: str, hero: HeroFacts) -> int:
    """Bigger is preferred: the book's factors read plainly."""
    d = table.distance[hero.id]
    return {
        "threat": hero.threat, "closest": -d, "farthest": d, "most_wounds": hero.wounds,
        "fewest_wounds": -hero.wounds, "lowest_health": hero.wounds - (hero.health or 0),
        "highest_mind": hero.mind or 0, "lowest_mind": -(hero.mind or 0),
        "highest_physique": hero.physique or 0, "lowest_physique": -(hero.physique or 0),
    }[factor]  # fmt: skip


def reference(table: Table) -> tuple[str, frozenset[str]]:
    """('mission' | 'hero' | 'none', the heroes still in the running) by the books, brute force."""
    mission = table.mission
    if mission is not None and mission.threat is None:
        return "mission", frozenset()
    alive = [h for h in table.heroes if not h.ko]
    pool = alive if mission is None else [h for h in alive if h.threat >= (mission.threat or 0)]
    inside = [h for h in pool if table.distance[h.id] <= table.area]
    profile = tuple(f for f in table.priority if f != "standard")
    if inside:
        left, chain = inside, profile + (CLASSIC_PRIORITIES if table.edition is Edition.CLASSIC else STANDARD_IN_AREA)
    elif mission is not None:
        return "mission", frozenset()
    elif not alive:
        return "none", frozenset()
    else:
        left, chain = alive, ("closest", "threat", "most_wounds")
    for factor in chain:
        best = max(key(table, factor, h) for h in left)
        left = [h for h in left if key(table, factor, h) == best]
    return "hero", frozenset(h.id for h in left)


def settle(table: Table) -> Goal | Question:
    view = GoalView(table.edition, "e/1", "E", table.area, table.heroes, table.mission, table.priority)
    step, _ = settle_goal(view, distance_oracle(table.distance))
    return step


@settings(max_examples=200, deadline=None)
@given(tables())
def test_the_goal_is_the_books_goal(table: Table) -> None:
    step = settle(table)
    kind, running = reference(table)
    if isinstance(step, Question):
        assert step.kind in ("choose", "roll") and kind == "hero"
        assert frozenset(step.about) == running and len(running) > 1
        return
    if kind == "mission":
        assert step.mission and step.hero is None
    elif kind == "none":
        assert step.hero is None and not step.mission
    else:
        assert running == {step.hero}


@settings(max_examples=200, deadline=None)
@given(tables())
def test_a_threat_in_the_control_area_is_always_the_goal_and_a_ko_hero_never_is(table: Table) -> None:
    step = settle(table)
    picked = set(step.about) if isinstance(step, Question) else ({step.hero} if step.hero else set())
    threshold = None if table.mission is None else table.mission.threat
    threats = {
        h.id for h in table.heroes
        if not h.ko and table.distance[h.id] <= table.area and (table.mission is None or (threshold is not None and h.threat >= threshold))
    }  # fmt: skip
    if threats:
        assert picked and picked <= threats
    assert not picked & {h.id for h in table.heroes if h.ko}


@settings(max_examples=200, deadline=None)
@given(tables())
def test_tie_breaks_are_applied_in_the_books_order(table: Table) -> None:
    step = settle(table)
    if not isinstance(step, Goal) or step.hero is None:
        return
    applied = [s for s in step.steps if s not in ("area", "anywhere", "players", "die")]
    inside = "anywhere" not in step.steps
    order = list(CLASSIC_PRIORITIES if table.edition is Edition.CLASSIC else STANDARD_IN_AREA) if inside else ["closest", "threat", "most_wounds"]
    assert applied == order[: len(applied)]


@settings(max_examples=150, deadline=None)
@given(tables(profiles=True))
def test_profile_card_priorities_then_standard(table: Table) -> None:
    step = settle(table)
    kind, running = reference(table)
    if isinstance(step, Question):
        assert frozenset(step.about) == running
    elif kind == "hero":
        assert running == {step.hero}
    else:
        assert step.hero is None and step.mission == (kind == "mission")


@settings(max_examples=150, deadline=None)
@given(tables())
def test_a_distance_is_asked_only_to_break_a_threat_tie_inside_the_area(table: Table) -> None:
    view = GoalView(table.edition, "e/1", "E", table.area, table.heroes, table.mission, table.priority)
    asked: list[Question] = []
    oracle = distance_oracle(table.distance)

    def recording(question: Question) -> tuple[str, ...] | None:
        asked.append(question)
        return oracle(question)

    settle_goal(view, recording)
    inside = any(q.kind == "in_area" and table.distance[q.about[0]] <= table.area for q in asked)
    for question in asked:
        if question.kind == "closest" and inside:
            tied = [h for h in table.heroes if h.id in question.about]
            assert len(tied) > 1 and len({h.threat for h in tied}) == 1
            assert all(table.distance[h.id] <= table.area for h in tied)
    assert len({q.key for q in asked}) == len(asked)  # nothing asked twice
