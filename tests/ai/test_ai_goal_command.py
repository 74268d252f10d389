"""`nova-table resolve` with `ai_goal`: the issue's request and response, through the real command."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.machine import serve
from tests.test_resolve import resolve


def goal(edition: str, area: int, mission: dict[str, Any] | None, *heroes: tuple[str, int, int, int, bool], **extra: Any) -> dict[str, Any]:
    return {"op": "ai_goal", "edition": edition, "control_area": area, "mission_goal": mission,
            "heroes": [{"id": i, "threat": t, "distance": d, "wounds": w, "ko": ko} for i, t, d, w, ko in heroes], **extra}  # fmt: skip


def test_the_books_examples_through_the_command() -> None:
    example_5, ai_priority, below, regardless, players, die, nobody = resolve(
        goal("classic", 3, {"threat": 5}, ("novice", 4, 2, 0, False), ("scum", 6, 3, 0, False)),
        goal("renaissance", 4, None, ("vincenzo", 8, 4, 0, False), ("sofia", 3, 1, 0, False)),
        goal("classic", 3, {"threat": 5}, ("novice", 4, 2, 0, False), ("scum", 6, 4, 0, False)),
        goal("renaissance", 3, {"threat": None}, ("scum", 9, 1, 0, False)),
        goal("renaissance", 3, None, ("a", 2, 2, 1, False), ("b", 2, 2, 1, False)),
        goal("classic", 3, None, ("a", 2, 2, 1, False), ("b", 2, 2, 1, False)),
        goal("renaissance", 3, None, ("a", 2, 2, 1, True)),
    )
    assert example_5 == {"goal": "scum", "candidates": [], "reason": "scum (TV 6): in the Control Area, TV 5 or more; the highest TV"}
    assert ai_priority["goal"] == "vincenzo" and ai_priority["candidates"] == []
    assert below["goal"] == "mission" and "TV of 5 or more" in below["reason"]
    assert regardless["goal"] == "mission" and "no Threat Level" in regardless["reason"]
    assert players["goal"] is None and players["candidates"] == ["a", "b"] and "players choose" in players["reason"]
    assert die["goal"] is None and die["candidates"] == ["a", "b"] and "Roll a d6" in die["reason"]
    assert nobody == {"goal": None, "candidates": [], "reason": "every Hero is KO: no goal"}


def test_tie_breaks_closest_then_wounds_and_a_profile_priority() -> None:
    closest, wounded, profile = resolve(
        goal("renaissance", 5, None, ("a", 4, 3, 0, False), ("b", 4, 2, 0, False)),
        goal("renaissance", 5, None, ("a", 4, 2, 1, False), ("b", 4, 2, 3, False)),
        goal("renaissance", 5, None, ("a", 4, 2, 1, False), ("b", 1, 3, 0, False), priority=["farthest", "standard"]),
    )
    assert closest["goal"] == "b" and "the closest" in closest["reason"]
    assert wounded["goal"] == "b" and "the most Wound Tokens" in wounded["reason"]
    assert profile["goal"] == "b"


def test_bad_requests_name_the_field() -> None:
    answers = resolve(
        {"op": "ai_goal", "heroes": []},
        goal("renaissance", -1, None),
        goal("renaissance", 3, {"threat": "high"}),
        goal("renaissance", 3, {"threat": 2, "x": 1}),
        {**goal("renaissance", 3, None), "heroes": [{"id": "a", "threat": 1}]},
        goal("renaissance", 3, None, ("a", 1, 1, 0, False), ("a", 2, 2, 0, False)),
        goal("renaissance", 3, None, ("a", 1, 1, 0, False), priority=["bravest"]),
        goal("renaissance", 3, None, ("a", 1, 1, 0, False), priority=["highest_mind", "standard"]),
        goal("third", 3, None),
        code=1,
    )
    fields = ["control_area", "control_area", "mission_goal.threat", "mission_goal.x", "heroes[0].distance",
              "heroes[1].id", "priority[0]", "heroes[0].mind", "edition"]  # fmt: skip
    for answer, field in zip(answers, fields, strict=True):
        assert answer["error"].startswith(field + ":"), (field, answer)


@settings(max_examples=100, deadline=None)
@given(st.fixed_dictionaries({
    "op": st.just("ai_goal"),
    "control_area": st.one_of(st.integers(-2, 8), st.text(max_size=2)),
    "mission_goal": st.one_of(st.none(), st.fixed_dictionaries({"threat": st.one_of(st.none(), st.integers(-1, 8))})),
    "heroes": st.lists(st.fixed_dictionaries({
        "id": st.sampled_from(["a", "b", "c", "mission"]), "threat": st.integers(-1, 8), "distance": st.integers(-1, 9),
        "wounds": st.integers(0, 4), "ko": st.booleans()}), max_size=4),
}))  # fmt: skip
def test_any_ai_goal_request_gets_an_answer(request: dict[str, Any]) -> None:
    answer = serve(json.dumps(request))
    assert "error" in answer or set(answer) == {"goal", "candidates", "reason"}
    if "goal" in answer and answer["goal"] not in (None, "mission"):
        assert answer["goal"] in {h["id"] for h in request["heroes"] if not h["ko"]}
