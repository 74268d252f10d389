"""`nova-table resolve`'s Status operations, through the real command as the other resolve tests do."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.machine import serve
from tests.test_resolve import resolve

BOOK = {"mano": 4, "ragione": 5, "pugno": 6, "milizia": 7}  # "Military Power", Example 1


def test_the_four_operations_with_the_books_examples() -> None:
    forward, back, tie, priority, final = resolve(
        {"op": "status_military", "track": BOOK, "faction": "ragione", "steps": 2},
        {"op": "status_military", "track": {"mano": 4, "ragione": 5, "pugno": 6, "milizia": 8}, "faction": "milizia",
         "steps": -4},
        {"op": "status_tie", "tied": ["ragione", "pugno"], "track": {"pugno": 4, "milizia": 5, "mano": 6, "ragione": 7}},
        {"op": "status_priority", "status": {"milizia": 4, "ragione": 4, "mano": 5},
         "track": {"milizia": 7, "ragione": 4, "mano": 5}},
        {"op": "status_final", "status": {"ragione": 10, "milizia": 10}, "assets": {"ragione": 0, "milizia": 0},
         "continents": {"ragione": {"AM": 3, "EU": 1, "AF": 1, "AS": 1}, "milizia": {"AM": 2, "EU": 2, "AF": 3, "AS": 2}},
         "track": {"ragione": 5, "milizia": 6}},
    )  # fmt: skip
    assert forward == {"track": {"mano": 4, "ragione": 7, "pugno": 5, "milizia": 6}}  # Example 1
    assert back == {"track": {"mano": 5, "ragione": 6, "pugno": 7, "milizia": 4}}  # Example 3
    assert tie == {"winner": "ragione", "track": {"pugno": 4, "milizia": 5, "mano": 7, "ragione": 6}}  # Card 2
    assert priority == {"priority": "ragione"}  # Phase VI example: nobody moves
    assert final == {"status": {"ragione": 12, "milizia": 15}, "track": {"ragione": 5, "milizia": 6}, "winner": "milizia"}


def test_final_ties_move_the_track_and_the_winner_is_the_highest_military() -> None:
    (answer,) = resolve({
        "op": "status_final", "status": {"mano": 5, "pugno": 5}, "assets": {"mano": 4, "pugno": 4},
        "continents": {"mano": {"AM": 1, "EU": 1, "AF": 0, "AS": 0}, "pugno": {"AM": 1, "EU": 1, "AF": 0, "AS": 0}},
        "track": {"mano": 6, "pugno": 5}})  # fmt: skip
    # Assets: the Mano (6) wins and swaps back; America: the Pugno (now 6); Europe: the Mano again
    assert answer == {"status": {"mano": 7, "pugno": 6}, "track": {"mano": 5, "pugno": 6}, "winner": "mano"}


def test_negative_steps_move_back_and_zero_stays() -> None:
    back, still = resolve(
        {"op": "status_military", "track": {"mano": 4, "pugno": 5, "ragione": 6, "milizia": 7}, "faction": "ragione",
         "steps": -1},
        {"op": "status_military", "track": BOOK, "faction": "mano", "steps": 0},
    )  # fmt: skip
    assert back == {"track": {"mano": 4, "pugno": 6, "ragione": 5, "milizia": 7}}  # Example 2: a swap
    assert still == {"track": BOOK}


def test_bad_lines_get_an_error_naming_the_field_and_the_next_line_is_served() -> None:
    answers = resolve(
        {"op": "status_military", "track": BOOK, "faction": "dogi", "steps": 1},
        {"op": "status_military", "track": {"mano": 4, "ragione": 4}, "faction": "mano", "steps": 1},
        {"op": "status_military", "track": {"mano": 0, "ragione": 4}, "faction": "mano", "steps": 1},
        {"op": "status_military", "track": {"mano": 3, "ragione": 4}, "faction": "pugno", "steps": 1},
        {"op": "status_military", "track": {"mano": 3}, "faction": "mano", "steps": 1},
        {"op": "status_military", "track": BOOK, "faction": "mano", "steps": 1.5},
        {"op": "status_military", "track": BOOK, "faction": "mano"},
        {"op": "status_tie", "tied": ["mano"], "track": BOOK},
        {"op": "status_tie", "tied": ["mano", "mano"], "track": BOOK},
        {"op": "status_tie", "tied": ["mano", "pugno"], "track": {"mano": 3, "ragione": 4}},
        {"op": "status_priority", "status": {"mano": 1}, "track": {"mano": 3, "ragione": 4}},
        {"op": "status_priority", "status": {"mano": 1, "ragione": 2, "pugno": 3}, "track": {"mano": 3, "ragione": 4}},
        {"op": "status_priority", "status": {"mano": -1, "ragione": 2}, "track": {"mano": 3, "ragione": 4}},
        {"op": "status_final", "status": {"mano": 1, "ragione": 2}, "assets": {"mano": 1, "ragione": 2},
         "continents": {"mano": {"AM": 1}, "ragione": {"Oceania": 1}}, "track": {"mano": 3, "ragione": 4}},
        {"op": "status_final", "status": {"mano": 1, "ragione": 2}, "assets": {"mano": 1, "ragione": 2},
         "continents": {"mano": {}, "ragione": {}}, "track": {"mano": 3, "ragione": 4}, "round": 4},
        {"op": "status_priority", "status": {"mano": 1, "ragione": 2}, "track": {"mano": 3, "ragione": 4}},
        code=1,
    )  # fmt: skip
    fields = ["faction", "track.ragione", "track.mano", "faction", "track", "steps", "steps", "tied", "tied[1]",
              "tied[1]", "status.ragione", "status.pugno", "status.mano", "continents.ragione.Oceania", "round"]
    assert len(answers) == len(fields) + 1
    for answer, field in zip(answers, fields):
        assert answer["error"].startswith(field + ":"), (field, answer)
    assert answers[1]["error"].endswith("both on space 4: a space holds one indicator")
    assert answers[-1] == {"priority": "mano"}


@pytest.mark.parametrize("op", ["status_military", "status_tie", "status_priority", "status_final"])
def test_each_status_operation_names_a_missing_field(op: str) -> None:
    assert serve(json.dumps({"op": op}))["error"] == "track: missing"
    answer = serve(json.dumps({"op": op, "track": {"mano": 3, "pugno": 4}}))
    assert answer["error"].split(":")[0] in {"faction", "tied", "status"}
    assert answer["error"].endswith("missing")


@settings(max_examples=200)
@given(st.fixed_dictionaries(
    {"op": st.sampled_from(["status_military", "status_tie", "status_priority", "status_final"])},
    optional={key: st.recursive(
        st.none() | st.booleans() | st.integers(-3, 12) | st.sampled_from(["mano", "ragione", "pugno", "milizia", "AM"]),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
            st.sampled_from(["mano", "ragione", "pugno", "milizia", "AM", "EU", "AF", "AS"]), inner, max_size=4),
        max_leaves=10,
    ) for key in ("track", "faction", "steps", "tied", "status", "assets", "continents")},
))  # fmt: skip
def test_any_status_request_gets_an_answer_never_a_crash(request: dict[str, Any]) -> None:
    answer = serve(json.dumps(request))
    assert isinstance(answer, dict)
    if "error" in answer:
        assert isinstance(answer["error"], str) and ":" in answer["error"]
    else:
        track = answer.get("track")
        if track is not None:
            assert len(set(track.values())) == len(track)
