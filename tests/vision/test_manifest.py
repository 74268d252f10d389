"""Manifest lines: good ones parse to entries, bad ones to errors that name the line and the fault."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from assistant.vision.errors import ManifestError
from assistant.vision.manifest import Entry, parse_line, read_manifest

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
    entry = parse_line(line, Path("/sets/x"), 3)
    assert entry.image == Path("/sets/x/images/a.jpg")
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
    assert "w, h > 0" in messages[3]
    assert "missing \"image\"" in messages[4]
    assert f"{manifest}:8:" in messages[5]


def test_a_missing_manifest_is_an_error_not_a_crash(tmp_path: Path) -> None:
    try:
        list(read_manifest(tmp_path / "nope.jsonl"))
    except ManifestError as bad:
        assert "cannot read the manifest" in str(bad)
    else:
        raise AssertionError("expected ManifestError")
