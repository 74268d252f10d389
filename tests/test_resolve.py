"""`nova-table resolve`: JSON lines in, JSON lines out, through a real process."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.machine import serve


def resolve(*requests: Any, code: int = 0) -> list[dict[str, Any]]:
    """The answers of `nova-table resolve` to `requests`; its exit code must be `code` (1: some were refused)."""
    lines = "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in requests)
    done = subprocess.run(
        [sys.executable, "-m", "assistant", "resolve"], input=lines, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == code, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_the_issue_examples_through_the_command() -> None:
    answers = resolve(
        {"op": "test", "edition": "renaissance", "dice": [6, 6, 5, 2], "threshold": 5, "modifier": 0},
        {"op": "hero_attack", "edition": "renaissance", "kind": "physical", "dice": [5, 7, 3], "defense": 5,
         "target": {"health": 3, "wounds": 0, "immune_to_critical": False}},
        {"op": "enemy_attack", "edition": "classic", "kind": "physical", "hits": 2, "threshold": 5, "dice": [3, 1, 6]},
        {"op": "enemy_attack", "edition": "classic", "kind": "psychic", "contrast": 2, "threshold": 5,
         "dice": [2, 4, 5], "effect_wounds": 3},
        {"op": "next_activation", "edition": "renaissance", "minute": 11, "hour": 1,
         "tokens": [{"id": "gipsy", "side": "enemy", "sector": 5, "swiftness": 6, "ko": False}]},
        {"op": "forced_wait", "start": 12, "position": 3, "ap_left": 2, "enemy_sectors": [5, 9]},
        {"op": "forced_wait", "edition": "classic", "start": 3, "position": 4, "ap_left": 4, "enemy_sectors": [7]},
        {"op": "forced_wait", "start": 3, "position": 4, "ap_left": 4, "enemy_sectors": [7]},
    )
    assert answers == [
        {"successes": 3, "astro": {"sun": 2, "star": 1, "moon": 0}},
        {"successes": 2, "wounds": 2, "critical": False, "defeated": False, "threat": 1},
        {"successes": 1, "wounds": 1},
        {"successes": 1, "resisted": False, "wounds": 3},
        {"minute": 5, "hour": 2, "order": ["gipsy"], "ties": []},
        {"wait": 2, "end": 5},
        {"wait": 3, "end": 7},  # first edition: a single Enemy token counts
        {"wait": 0, "end": 4},  # Renaissance (the default): it does not
    ]


def test_psychic_hero_attack_all_or_nothing() -> None:
    base = {"op": "hero_attack", "kind": "psychic", "defense": 5, "required": 2, "effect_wounds": 1,
            "target": {"health": 2}, "astro_wounds": {"moon": 1}}
    missed, hit = resolve({**base, "dice": [7, 4, 1, 1]}, {**base, "dice": [7, 5, 1, 1]})
    assert missed == {"successes": 1, "wounds": 0, "critical": False, "defeated": False, "threat": 0}
    assert hit == {"successes": 2, "wounds": 3, "critical": False, "defeated": True, "threat": 2}
    # the same Moons printed before the Attack symbol: they wound whatever the successes
    early = {k: v for k, v in base.items() if k != "astro_wounds"} | {"astro_before": {"moon": 1}, "target": {"health": 4}}
    (missed,) = resolve({**early, "dice": [7, 4, 1, 1]})
    assert missed == {"successes": 1, "wounds": 2, "critical": False, "defeated": False, "threat": 1}


def test_enemy_attack_splits_the_wounds_between_the_hero_and_the_equipment() -> None:
    """First edition "Weapons and armour": the Squire's light armour (1 Wo) and three wounds: 1 on the armour, 2 on the
    sheet. Renaissance "Wound Tokens and Equipment": a Physical Attack's wounds only, not Unblockable ones, and an
    attack whose every wound is on the Equipment applies no Effect ("Effect")."""
    physical = {"op": "enemy_attack", "kind": "physical", "threshold": 5}
    squire, ren, unblockable, soulfire, plain, refused = resolve(
        {**physical, "edition": "classic", "hits": 3, "dice": [3, 1, 2], "resistance_left": 1},
        {**physical, "hits": 2, "dice": [3, 1, 2], "resistance_left": 3},
        {**physical, "hits": 2, "dice": [3, 1, 2], "resistance_left": 3, "unblockable": True},
        {"op": "enemy_attack", "kind": "psychic", "contrast": 2, "threshold": 5, "dice": [2, 4, 5], "effect_wounds": 3,
         "resistance_left": 2},
        {**physical, "hits": 2, "dice": [3, 1, 2]},
        {**physical, "hits": 2, "dice": [3, 1, 2], "resistance_left": -1},
        code=1,
    )
    assert squire == {"successes": 0, "wounds": 3, "on_hero": 2, "on_equipment": 1, "effects": True}
    assert ren == {"successes": 0, "wounds": 2, "on_hero": 0, "on_equipment": 2, "effects": False}
    assert unblockable == {"successes": 0, "wounds": 2, "on_hero": 2, "on_equipment": 0, "effects": True}
    assert soulfire == {"successes": 1, "resisted": False, "wounds": 3, "on_hero": 3, "on_equipment": 0, "effects": True}
    assert plain == {"successes": 0, "wounds": 2}  # without resistance_left, the answer is as it was
    assert refused == {"error": "resistance_left: must be at least 0, not -1"}


def test_order_and_ties_in_a_sector() -> None:
    (answer,) = resolve(
        {"op": "next_activation", "edition": "classic", "minute": 3, "hour": 1, "tokens": [
            {"id": "apprentice", "side": "hero", "sector": 5, "swiftness": 5},
            {"id": "squire", "side": "hero", "sector": 5, "swiftness": 5},
            {"id": "crossbowman", "side": "enemy", "sector": 5, "swiftness": 4},
            {"id": "gipsy", "side": "enemy", "sector": 5, "swiftness": 6},
            {"id": "plague", "side": "event", "sector": 5},
            {"id": "later", "side": "enemy", "sector": 7, "swiftness": 9},
        ]}
    )
    assert answer == {
        "minute": 5, "hour": 1,
        "order": ["plague", "gipsy", "apprentice", "squire", "crossbowman"],
        "ties": [["apprentice", "squire"]],
    }


def test_bad_lines_get_an_error_naming_the_field_and_the_next_line_is_served() -> None:
    answers = resolve(
        "this is not json",
        '{"op": "test", "dice": [6], "threshold": 1' + "0" * 5000 + "}",  # over Python's 4300 digits
        '{"op": ' + "[" * 30000 + "]" * 30000 + "}",  # (within the 64 Ki characters of a line)
        "[1, 2]",
        {"dice": [1]},
        {"op": "juggle"},
        {"op": "test", "dice": [3, 9]},
        {"op": "test", "dice": [3], "edition": "third"},
        {"op": "test", "dice": [3], "treshold": 4},
        {"op": "hero_attack", "kind": "physical", "dice": [5], "defense": 5, "target": {"health": 0}},
        {"op": "hero_attack", "kind": "magical", "dice": [5], "defense": 5, "target": {"health": 2}},
        {"op": "enemy_attack", "kind": "physical", "threshold": 5, "dice": [5]},
        {"op": "next_activation", "minute": 13, "hour": 1, "tokens": []},
        {"op": "next_activation", "minute": 3, "hour": 1, "tokens": [{"id": "a", "side": "dragon", "sector": 2}]},
        {"op": "forced_wait", "start": 12, "position": 3, "ap_left": -1, "enemy_sectors": [5]},
        {"op": "test", "dice": [6]},
        code=1,
    )
    assert all("error" in a for a in answers[:-1])
    assert answers[1]["error"] == "request: not JSON (a number of more than 4300 digits)"
    assert answers[2]["error"] == "request: not JSON (nested too deeply)"
    fields = ["request", "request", "request", "request", "op", "op", r"dice[1]", "edition", "treshold", "target.health", "kind",
              "hits", "minute", "tokens[0].side", "ap_left"]
    for answer, field in zip(answers, fields):
        assert answer["error"].startswith(field), (field, answer)
    assert answers[-1] == {"successes": 1, "astro": {"sun": 1, "star": 0, "moon": 0}}


@settings(max_examples=200)
@given(st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["op", "dice", "edition", "kind", "tokens", "minute", "hour", "target", "x"]), inner, max_size=5),
    max_leaves=12,
))
def test_any_json_gets_an_answer_never_a_crash(request: Any) -> None:
    answer = serve(json.dumps(request))
    assert isinstance(answer, dict)
    if "error" in answer:
        assert isinstance(answer["error"], str) and ":" in answer["error"]


@pytest.mark.parametrize("op", ["test", "hero_attack", "enemy_attack", "next_activation", "forced_wait"])
def test_each_operation_names_a_missing_field(op: str) -> None:
    answer = serve(json.dumps({"op": op}))
    assert answer["error"].split(":")[0] in {"dice", "kind", "hour", "minute", "start", "position", "enemy_sectors"}


def test_a_reader_that_stops_early_ends_the_answers_quietly() -> None:
    """`nova-table resolve | head -1`: the pipe closes under it; it stops without a traceback (141, as a shell's)."""
    request = json.dumps({"op": "test", "dice": [6], "threshold": 4}) + "\n"
    with subprocess.Popen([sys.executable, "-m", "assistant", "resolve"], stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE) as process:  # fmt: skip
        assert process.stdout is not None and process.stdin is not None and process.stderr is not None
        process.stdin.write(request.encode())
        process.stdin.flush()
        assert json.loads(process.stdout.readline())["successes"] == 1
        process.stdout.close()  # the reader has what it wanted
        try:
            process.stdin.write(request.encode() * 20000)
            process.stdin.close()
        except BrokenPipeError:
            pass  # it had already stopped
        assert process.wait(timeout=60) == 141
        assert b"Traceback" not in process.stderr.read()


def test_the_dice_reroll_example_through_the_command() -> None:
    """Renaissance "Dice Re-roll": Star 5, Sun 6, 3; Dodge re-rolls the 6 to a 2, the Lucky Token that die to 7."""
    rerolls = [{"die": 1, "value": 2, "by": "enemy"}, {"die": 1, "value": 7, "by": "hero"}]
    attack = {"op": "hero_attack", "kind": "physical", "dice": [5, 6, 3], "defense": 5, "target": {"health": 2}}
    answers = resolve(
        {**attack, "rerolls": rerolls},
        {"op": "test", "dice": [5, 6, 3], "threshold": 5, "rerolls": rerolls},
        {"op": "enemy_attack", "kind": "physical", "hits": 3, "dice": [5, 6, 3], "rerolls": rerolls[:1]},
        {"op": "test", "dice": [5, 6, 3], "rerolls": [{"die": 1, "value": 2, "by": "hero"}, {"die": 1, "value": 7, "by": "hero"}]},
        {"op": "test", "dice": [5, 6, 3], "rerolls": [{"die": 0, "value": 2, "by": "hero"}, {"die": 1, "value": 7, "by": "enemy"}]},
        {"op": "test", "dice": [5, 6, 3], "rerolls": [{"die": 3, "value": 2, "by": "hero"}]},
        {"op": "test", "dice": [5, 6, 3], "rerolls": [{"die": 0, "value": 9, "by": "hero"}]},
        {"op": "test", "dice": [5, 6, 3], "rerolls": [{"die": 0, "value": 2, "by": "table"}]},
        {"op": "test", "edition": "classic", "dice": [5, 6, 3], "rerolls": [{"die": 0, "value": 2, "by": "hero"},
                                                                              {"die": 0, "value": 6, "by": "hero"}]},
        code=1,
    )
    assert answers[:3] == [
        {"successes": 2, "wounds": 2, "critical": False, "defeated": True, "threat": 2, "dice": [5, 7, 3]},
        {"successes": 2, "astro": {"sun": 0, "star": 2, "moon": 0}, "dice": [5, 7, 3]},
        {"successes": 1, "wounds": 2, "dice": [5, 2, 3]},
    ]
    assert answers[3]["error"].startswith("rerolls[1].die: die 1 was re-rolled by the Hero's own")
    assert "Heroes Attacks" in answers[4]["error"] and answers[4]["error"].startswith("rerolls[1].die")
    assert answers[5] == {"error": "rerolls[0].die: there is no die 3 in a roll of 3 dice (the first is 0)"}
    assert answers[6] == {"error": "rerolls[0].value: a d8 has no face 9 (its faces are 1 to 8)"}
    assert answers[7]["error"].startswith("rerolls[0].by: must be one of enemy, hero")
    assert answers[8] == {"successes": 2, "astro": {"sun": 0, "star": 0, "moon": 0}, "dice": [6, 6, 3]}
