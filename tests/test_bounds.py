"""Bounds on a `resolve` or `session apply` line (`assistant/rules/bounds.py`): refused before any work, the next
line answered as usual, and an error quoting at most a short prefix of a bad value."""

from __future__ import annotations

import io
import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.machine import serve, serve_lines
from assistant.reading import bounded_lines
from assistant.rules.bounds import DICE, HEROES, LINE, QUOTED
from assistant.rules.errors import shown
from tests.test_resolve import resolve

NEXT = {"op": "test", "dice": [6], "threshold": 4}
NEXT_ANSWER = {"successes": 1, "astro": {"sun": 1, "star": 0, "moon": 0}}


def heroes(count: int) -> dict[str, Any]:
    return {"op": "ai_goal", "control_area": 3,
            "heroes": [{"id": f"h{i}", "threat": 1, "distance": 1} for i in range(count)]}  # fmt: skip


def test_twenty_thousand_heroes_are_refused_and_the_next_line_answered() -> None:
    """F5: 20,000 Heroes took ai_goal for ever, and the line after them waited too; 1,000 took 1.8 s."""
    too_long, many, within, after = resolve(heroes(20_000), heroes(1_000), heroes(HEROES), NEXT, code=1)
    assert too_long == {"error": f"request: longer than {LINE} characters (the line is skipped)"}
    assert many == {"error": f"heroes: must hold at most {HEROES} items, not 1000"}
    assert within["goal"] is None and len(within["candidates"]) == HEROES  # they tie: the players choose
    assert after == NEXT_ANSWER


def test_too_many_dice_are_refused() -> None:
    assert serve(json.dumps({"op": "test", "dice": [6] * (DICE + 1)})) == {
        "error": f"dice: must hold at most {DICE} items, not {DICE + 1}"}  # fmt: skip


def test_a_ten_megabyte_bad_value_gives_a_short_error() -> None:
    big = "x" * 10_000_000
    for request in ({"op": "test", "dice": big}, {"op": big}, {"op": "test", "dice": [1], big: 1},
                    {"op": "test", "edition": big, "dice": [1]}, {"op": "test", "dice": [1], "threshold": -int("9" * 4000)}):  # fmt: skip
        answer = serve(json.dumps(request))
        assert len(answer["error"]) < 200 + QUOTED, answer["error"][:300]
        assert "xxx..." in answer["error"] or "999..." in answer["error"], answer["error"]


def test_a_line_longer_than_the_bound_is_refused_and_the_next_answered() -> None:
    long_line = json.dumps({"op": "test", "dice": [6], "note": "y" * LINE})
    exact = json.dumps({"op": "test", "dice": [6], "threshold": 4, "x": ""})
    exact = exact.replace('"x": ""', '"x": "' + "z" * (LINE - len(exact)) + '"')
    assert len(exact) == LINE
    refused, at_the_bound, after = resolve(long_line, exact, NEXT, code=1)
    assert refused == {"error": f"request: longer than {LINE} characters (the line is skipped)"}
    assert at_the_bound["error"].startswith("x: unknown field")  # read whole, and answered
    assert after == NEXT_ANSWER


def test_bounded_lines_never_holds_more_than_the_bound() -> None:
    text = "ab\n" + "c" * 10 + "\n" + "d" * 5 + "\n" + "e" * 11 + "\nlast"
    assert list(bounded_lines(io.StringIO(text), 5)) == ["ab\n", None, "ddddd\n", None, "last"]


def test_shown_cuts_a_value_to_a_prefix() -> None:
    assert shown("abc") == "'abc'"
    assert shown("x" * 100) == "'" + "x" * (QUOTED - 1) + "..."
    assert shown(list(range(100))).startswith("[0, 1, 2")


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8) | st.sampled_from(
        ["op", "dice", "heroes", "tokens", "id", "threat", "distance", "edition", "kind", "target"]), inner, max_size=5),
    max_leaves=20,
)
OPS = st.sampled_from(["test", "hero_attack", "enemy_attack", "next_activation", "forced_wait", "ai_goal",
                       "status_military", "status_tie", "status_priority", "status_final", "x"])  # fmt: skip


@settings(max_examples=150, deadline=None)
@given(st.lists(st.one_of(JSON, st.builds(lambda op, rest: {**rest, "op": op}, OPS, st.dictionaries(st.text(max_size=8), JSON, max_size=5)),
                          st.text(max_size=30).filter(lambda t: "\n" not in t and "\r" not in t)), max_size=8))
def test_every_line_gets_exactly_one_json_answer(requests: list[Any]) -> None:
    lines = [r if isinstance(r, str) else json.dumps(r) for r in requests]
    lines = [line for line in lines if line.strip()] + [json.dumps(NEXT)]
    out = io.StringIO()
    serve_lines(io.StringIO("\n".join(lines) + "\n"), out)
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert len(answers) == len(lines)
    assert all(isinstance(a, dict) for a in answers)
    assert answers[-1] == NEXT_ANSWER


def test_a_number_past_a_million_is_refused_quoted_short() -> None:
    """Python reads numbers of 4,300 digits: one was said whole in "has 3 AP left, not 1000...000"."""
    answer = serve(json.dumps({"op": "forced_wait", "start": 1, "position": 2, "ap_left": 10**4000, "enemy_sectors": []}))
    assert answer == {"error": "ap_left: must be from -1000000 to 1000000, not " + "1" + "0" * 39 + "..."}
