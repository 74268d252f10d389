"""Manifest lines: good ones parse to entries, bad ones to errors that name the line and the fault."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from assistant.vision.errors import ManifestError
from assistant.vision.errors import ProfileError
from assistant.vision.learn import learn
from assistant.vision.manifest import Entry, check_in_picture, parse_line, read_manifest

dice_st = st.lists(
    st.one_of(
        st.builds(lambda v, b: {"kind": "d6", "value": v, "box": b}, st.integers(1, 6),
                  st.tuples(st.integers(0, 600), st.integers(0, 600), st.integers(1, 90), st.integers(1, 90))
                  .map(list)),
        st.builds(lambda v, b: {"kind": "d8", "value": v, "box": b}, st.integers(1, 8),
                  st.tuples(st.integers(0, 600), st.integers(0, 600), st.integers(1, 90), st.integers(1, 90))
                  .map(list)),
    ),
    max_size=8,
)


@given(dice_st, st.booleans(), st.sampled_from(["top_face", "whole_die", "tile"]))
def test_a_well_formed_line_round_trips(dice: list[dict[str, Any]], complete: bool, style: str) -> None:
    line = json.dumps({"image": "images/a.jpg", "dice": dice, "complete": complete, "box": style})
    entry = parse_line(line, Path("/sets/x/manifest.jsonl"), 3)
    assert entry.image == Path("/sets/x/images/a.jpg") and entry.manifest == Path("/sets/x/manifest.jsonl")
    assert entry.complete is complete and entry.box_style == style and entry.line == 3
    assert [(d.kind, d.value, list(d.box)) for d in entry.dice] == [(d["kind"], d["value"], d["box"]) for d in dice]


def test_each_bad_line_is_reported_with_its_number_and_the_rest_are_read(tmp_path: Path) -> None:
    manifest = tmp_path / "manifest.jsonl"
    manifest.write_text("\n".join([
        json.dumps({"image": "a.png", "dice": [{"kind": "d6", "value": 3, "box": [0, 0, 9, 9]}]}),
        "{broken",
        json.dumps({"image": "b.png", "dice": [{"kind": "d6", "value": 7, "box": [0, 0, 9, 9]}]}),
        json.dumps({"image": "c.png", "dice": [{"kind": "d20", "value": 3, "box": [0, 0, 9, 9]}]}),
        json.dumps({"image": "d.png", "dice": [{"kind": "d8", "value": 8, "box": [0, 0, 0, 9]}]}),
        json.dumps({"dice": []}),
        "",
        json.dumps({"image": "e.png", "dice": [], "box": "sideways"}),
        json.dumps({"image": "f.png", "dice": [{"kind": "d8", "value": 8, "box": [1, 2, 3, 4]}]}),
    ]))
    items = list(read_manifest(manifest))
    assert [type(i) for i in items] == [Entry, ManifestError, ManifestError, ManifestError, ManifestError,
                                        ManifestError, ManifestError, Entry]
    messages = [str(i) for i in items if isinstance(i, ManifestError)]
    assert messages[0].startswith(f"{manifest}:2: not JSON")
    assert "d6 value must be an integer 1..6, got 7" in messages[1]
    assert "kind must be one of" in messages[2]
    assert "w, h of at least 1 pixel" in messages[3]
    assert "missing \"image\"" in messages[4]
    assert f"{manifest}:8:" in messages[5]


def test_a_missing_manifest_is_an_error_not_a_crash(tmp_path: Path) -> None:
    try:
        list(read_manifest(tmp_path / "nope.jsonl"))
    except ManifestError as bad:
        assert "cannot read the manifest" in str(bad)
    else:
        raise AssertionError("expected ManifestError")


@pytest.mark.parametrize("die, message", [
    ({"kind": ["d6"], "value": 1, "box": [1, 2, 3, 4]}, "die kind must be one of ['d6', 'd8'], got ['d6']"),
    ({"kind": {"a": 1}, "value": 1, "box": [1, 2, 3, 4]}, "die kind must be one of ['d6', 'd8'], got {'a': 1}"),
    ({"kind": "d6", "value": 1, "box": [float("nan"), 220, 78, 86]}, "box [nan, 220, 78, 86] is not in any picture"),
    ({"kind": "d6", "value": 1, "box": [float("inf"), 220, 78, 86]}, "box [inf, 220, 78, 86] is not in any picture"),
    ({"kind": "d6", "value": 1, "box": [1e300, 1e300, 1e300, 1e300]}, "is not in any picture"),
    ({"kind": "d6", "value": 1, "box": [99999999999999999999999, 0, 10, 10]}, "is not in any picture"),
    ({"kind": "d6", "value": 1, "box": [0, 0, 0.1, 0.1]}, "box must be [x, y, w, h] with w, h of at least 1 pixel"),
    ({"kind": "d6", "value": 1, "box": [0, 0, "9", 9]}, "box must be [x, y, w, h], four numbers"),
])
def test_a_die_with_a_bad_kind_or_box_is_a_manifest_error_naming_the_line(tmp_path: Path, die: dict[str, Any],
                                                                         message: str) -> None:
    manifest = tmp_path / "manifest.jsonl"
    manifest.write_text(json.dumps({"image": "a.png", "dice": [die]}) + "\n")
    (item,) = read_manifest(manifest)
    assert isinstance(item, ManifestError)
    assert str(item).startswith(f"{manifest}:1: ") and message in str(item)


@pytest.mark.parametrize("line, message", [
    ('{"image": "a.png", "dice": [], "x": ' + "9" * 5000 + "}", "not JSON (a number of more than 4300 digits)"),
    ("[" * 100000, "not JSON (nested too deeply)"),
])
def test_json_past_pythons_limits_is_a_line_that_is_not_json(tmp_path: Path, line: str, message: str) -> None:
    manifest = tmp_path / "manifest.jsonl"
    manifest.write_text(line + "\n")
    (item,) = read_manifest(manifest)
    assert isinstance(item, ManifestError) and str(item).startswith(f"{manifest}:1: {message}")


@pytest.mark.parametrize("box, where", [([-5000, -5000, 10, 10], "outside"), ([640, 0, 10, 10], "outside"),
                                        ([0, 480, 10, 10], "outside"), ([0, 0, 641, 10], "larger than"),
                                        ([-5, -5, 20, 20], None), ([630, 470, 20, 20], None), ([0, 0, 640, 480], None)])
def test_a_box_must_lie_in_its_picture(box: list[int], where: str | None) -> None:
    entry = parse_line(json.dumps({"image": "a.png", "dice": [{"kind": "d6", "value": 2, "box": box}]}),
                       Path("/sets/x/manifest.jsonl"), 4)
    if where is None:
        check_in_picture(entry, (480, 640, 3))
        return
    with pytest.raises(ManifestError) as caught:
        check_in_picture(entry, (480, 640, 3))
    assert str(caught.value) == (f"/sets/x/manifest.jsonl:4: box {box} is {where} the picture /sets/x/a.png "
                                 "(640x480 pixels)")


def test_learn_skips_a_line_whose_box_is_outside_its_picture(tmp_path: Path, rendered_pips: Path) -> None:
    first = json.loads(rendered_pips.read_text().splitlines()[0])
    manifest = tmp_path / "manifest.jsonl"
    image = str(rendered_pips.parent / first["image"])
    manifest.write_text(json.dumps({"image": image, "dice": [{"kind": "d6", "value": 1, "box": [-5000, -5000, 10, 10]}]})
                        + "\n")
    said: list[str] = []
    with pytest.raises(ProfileError, match="nothing to learn"):
        learn(manifest, report=said.append)
    assert f"skipped: {manifest}:1: box [-5000, -5000, 10, 10] is outside the picture {image} (640x480 pixels)" in said
