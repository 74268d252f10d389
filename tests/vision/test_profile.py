"""Profiles: saved and loaded unchanged; broken files refused with a reason; learning helps."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.vision.errors import ProfileError
from assistant.vision.learn import learn
from assistant.vision.profile import Profile, load
from assistant.vision.reader import DiceReader
from tests.vision.test_reader import score


@settings(max_examples=20, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["n:1", "n:8", "sym:sun"]),
                          st.lists(st.floats(-1, 1, width=32), min_size=5, max_size=5)), max_size=6))
def test_a_profile_round_trips(tmp_path_factory: pytest.TempPathFactory, examples: list[tuple[str, list[float]]]) -> None:
    profile = Profile(learned_from=["test"])
    for label, vec in examples:
        profile.add(label, np.array(vec, np.float32))
    path = tmp_path_factory.mktemp("p") / "p.json"
    profile.save(path)
    again = load(path)
    assert again.labels == profile.labels and again.learned_from == ["test"]
    if examples:
        # vectors are stored as float16: equal to about three significant digits
        assert all(np.allclose(a, b, atol=1e-3, rtol=1e-3) for a, b in zip(again.rows, profile.rows))


@pytest.mark.parametrize("text, message", [
    ("", "not JSON"),
    ("[]", "not a dice profile"),
    (json.dumps({"format": "nova-table-dice-profile", "version": 99, "examples": []}), "version 99"),
    (json.dumps({"format": "nova-table-dice-profile", "version": 1, "examples": [{"label": "n:1"}]}),
     "example 0"),
])
def test_broken_profiles_are_refused_with_a_reason(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "p.json"
    path.write_text(text)
    with pytest.raises(ProfileError, match=message):
        load(path)


def test_learning_from_labelled_pictures_teaches_a_reader_that_knew_nothing(
    tmp_path: Path, rendered_astro_tiles: Path
) -> None:
    from assistant.vision.render import write_set

    train = write_set(tmp_path / "train", 250, seed=7, tiles=True, style="astro")
    blank = DiceReader(kind="d8", use_built_in=False)
    labelled, _, right_before, _ = score(blank, rendered_astro_tiles)
    assert right_before == 0  # nothing to compare signs with: every die unreadable, none guessed
    profile = learn(train, use_built_in=False, report=lambda s: None)
    assert len(profile) > 0 and profile.learned_from == [str(train)]
    taught = DiceReader(kind="d8", profile=profile, use_built_in=False)
    _, _, right_after, _ = score(taught, rendered_astro_tiles)
    assert right_after >= 0.7 * labelled


def test_a_profile_that_cannot_be_written_is_a_clear_error_and_leaves_no_part_behind(tmp_path: Path) -> None:
    profile = Profile()
    profile.add("n:3", np.ones(8, np.float32))
    profile.save(tmp_path / "mine.json")
    before = (tmp_path / "mine.json").read_text()
    (tmp_path / "a-file").write_text("not a folder")
    with pytest.raises(ProfileError, match="a-file/mine.json: cannot write the profile"):
        profile.save(tmp_path / "a-file" / "mine.json")
    profile.add("n:4", np.zeros(8, np.float32))
    profile.save(tmp_path / "mine.json")  # written over whole
    assert (tmp_path / "mine.json").read_text() != before and len(load(tmp_path / "mine.json")) == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file", "mine.json"]
