"""Profiles: saved and loaded unchanged; broken files refused with a reason; learning helps."""

from __future__ import annotations

import base64
import json
import os
import re
import stat
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.vision.errors import ProfileError
from assistant.vision.learn import learn
from assistant.vision.glyphs import DESCRIBED
from assistant.vision.profile import SECOND, SHIPPED_FACES, UNUSABLE, WIDTHS, Profile, load
from assistant.vision.reader import DiceReader
from tests.vision.test_reader import score


@settings(max_examples=20, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["n:1", "n:8", "sym:sun", "u:3"]),
                          st.lists(st.floats(-1, 1, width=32), min_size=5, max_size=5)), min_size=1, max_size=6))
def test_a_profile_round_trips(tmp_path_factory: pytest.TempPathFactory, examples: list[tuple[str, list[float]]]) -> None:
    profile = Profile(learned_from=["test"])
    for label, vec in examples:  # each as long as its kind's vectors are: the numbers given, then halves
        profile.add(label, np.pad(np.array(vec, np.float32), (0, WIDTHS[label.split(":")[0]] - len(vec)),
                                  constant_values=0.5))
    path = tmp_path_factory.mktemp("p") / "p.json"
    profile.save(path)
    again = load(path)
    assert again.labels == profile.labels and again.learned_from == ["test"]
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
    profile.add("n:3", np.ones(DESCRIBED, np.float32))
    profile.save(tmp_path / "mine.json")
    before = (tmp_path / "mine.json").read_text()
    (tmp_path / "a-file").write_text("not a folder")
    for where in (tmp_path / "a-file" / "mine.json", tmp_path / "a-file" / "below" / "mine.json"):
        with pytest.raises(ProfileError) as caught:
            profile.save(where)
        assert str(caught.value) == f"{where}: cannot write the profile ({tmp_path / 'a-file'} is a file, not a folder)"
    profile.add("n:4", np.full(DESCRIBED, 2, np.float32))
    profile.save(tmp_path / "mine.json")  # written over whole
    assert (tmp_path / "mine.json").read_text() != before and len(load(tmp_path / "mine.json")) == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file", "mine.json"]


def shipped(change: Callable[[dict[str, Any]], None], path: Path) -> Path:
    """The shipped profile of white pip d6, changed by `change` (as by hand), written to `path`."""
    data = json.loads(resources.files("assistant.vision").joinpath("models", SHIPPED_FACES).read_text())
    change(data)
    path.write_text(json.dumps(data))
    return path


def cut(data: dict[str, Any], keep: Callable[[str], bool] = lambda label: True, size: int = 32) -> None:
    """Every example `keep` names cut to its first `size` float16s."""
    for ex in data["examples"]:
        if keep(ex["label"]):
            ex["f16"] = base64.b64encode(base64.b64decode(ex["f16"])[: 2 * size]).decode()


def first_of(kind: str) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """The first example of `kind` ("d6", "n", ...) in a profile's data."""
    return lambda data: next(e for e in data["examples"] if e["label"].split(":")[0] == kind)


def filled(kind: str, value: float) -> Callable[[dict[str, Any]], None]:
    """The first example of `kind` with every one of its numbers set to `value`."""
    def change(data: dict[str, Any]) -> None:
        ex = first_of(kind)(data)
        ex["f16"] = base64.b64encode(np.full(len(base64.b64decode(ex["f16"])) // 2, value, "<f2").tobytes()).decode()
    return change


@pytest.mark.parametrize("change, message", [
    (lambda d: d.update(learned_from=5), '"learned_from" must be a list (of what it was learned from), not 5'),
    (lambda d: d.update(learned_from=None), '"learned_from" must be a list (of what it was learned from), not null'),
    (cut, 'example 12 ("n:1") holds 32 numbers, not 232'),
    (lambda d: d.update(examples=[{"label": e["label"], "vector": [0.1] * 10} for e in d["examples"]]),
     'example 12 ("n:1") holds 10 numbers, not 232'),
    (lambda d: first_of("n")(d).update(label="u:1"),
     '("u:1") holds 232 numbers, not 256'),
    (lambda d: d.update(examples=[]), "it holds no examples"),
    (lambda d: d.update(examples=[{"label": "zz:1", "vector": [0.1] * 10}]),
     'example 0 has the label "zz:1", which no reader uses'),
    (lambda d: first_of("n")(d).update(label="n:9"), 'has the label "n:9"'),
    (lambda d: d.update(d8_model="0123456789abcdef",
                        examples=[dict(e, label="c8:3") for e in d["examples"] if e["label"].startswith("d6:")][:4]),
     'its close-up d8 examples ("c8:V") are read only beside the face network\'s ("d6:V", "d8:V"), and it holds none'),
    (filled("d6", np.nan), 'example 0 ("d6:1") holds NaN or infinity'),
    (filled("d6", np.inf), 'example 0 ("d6:1") holds NaN or infinity'),
    (filled("d6", 0.0), 'example 0 ("d6:1") holds only zeros'),
    (filled("n", 0.0), '("n:1") holds only zeros'),
    (lambda d: d.update(version=True), "profile version true, this reader knows 1 and 2"),
])
def test_a_profile_changed_by_hand_is_refused_naming_the_file_and_the_fault(
        tmp_path: Path, change: Callable[[dict[str, Any]], None], message: str) -> None:
    """A given profile takes the place of the shipped one: one that teaches nothing would read worse, silently."""
    path = shipped(change, tmp_path / "q.json")
    with pytest.raises(ProfileError) as caught:
        load(path)
    assert str(caught.value).startswith(f"{path}: not a dice profile this Nova Table can use: ")
    assert message in str(caught.value)


@pytest.mark.parametrize("change", [
    lambda d: cut(d, lambda label: label.startswith("d6:")),
    lambda d: cut(d, lambda label: label.startswith(SECOND)),
    lambda d: d.update(examples=[dict(e, f16=base64.b64encode(np.ones(10, "<f2").tobytes()).decode())
                                 for e in d["examples"] if e["label"].startswith("d6:")]),
])
def test_face_examples_of_another_length_than_the_models_are_refused_naming_the_file(
        tmp_path: Path, change: Callable[[dict[str, Any]], None]) -> None:
    path = shipped(change, tmp_path / "q.json")
    profile = load(path)  # each kind's vectors as long as each other: only the model can tell
    with pytest.raises(ProfileError) as caught:
        DiceReader(profile=profile)
    assert str(caught.value).startswith(f"{path}: not a dice profile this Nova Table can use: its examples of face "
                                        "model ")
    assert "learn it again" in str(caught.value)


def test_the_second_face_networks_examples_are_read_beside_the_first_and_named_by_their_model(tmp_path: Path) -> None:
    """A profile of both face networks is read by the two together; one learned before the second
    network shipped (no "lite:" examples) by the first alone; one whose second network's examples
    name another model, or none, is refused naming the file."""
    both = DiceReader(profile=load(shipped(lambda d: None, tmp_path / "both.json"))).faces
    assert both is not None and both.second is not None
    older = shipped(lambda d: d.update(second_model=None, examples=[e for e in d["examples"]
                                                                    if not e["label"].startswith(SECOND)]),
                    tmp_path / "older.json")
    alone = DiceReader(profile=load(older)).faces
    assert alone is not None and alone.second is None
    other = shipped(lambda d: d.update(second_model="0123456789abcdef"), tmp_path / "other.json")
    with pytest.raises(ProfileError, match=re.escape(f"{other}: {UNUSABLE}: its second network's examples were "
                                                     "learned with model 0123456789abcdef")):
        DiceReader(profile=load(other))
    unnamed = shipped(lambda d: d.update(second_model=None), tmp_path / "unnamed.json")
    with pytest.raises(ProfileError, match=re.escape(f"{unnamed}: second face network's examples without the "
                                                     '"second_model" that made them')):
        load(unnamed)


@pytest.mark.parametrize("text", ['{"format": "nova-table-dice-profile", "n": ' + "9" * 5000 + "}", "[" * 100000])
def test_json_past_pythons_limits_is_not_a_profile(tmp_path: Path, text: str) -> None:
    path = tmp_path / "p.json"
    path.write_text(text)
    with pytest.raises(ProfileError, match="not a dice profile"):
        load(path)


def test_dice_read_refuses_a_profile_that_teaches_nothing(tmp_path: Path, rendered_pips: Path) -> None:
    from tests.vision.test_command import dice

    path = shipped(lambda d: d.update(examples=[]), tmp_path / "empty.json")
    image = rendered_pips.parent / json.loads(rendered_pips.read_text().splitlines()[0])["image"]
    done = dice("read", "--profile", str(path), str(image))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == f"nova-table dice: {path}: not a dice profile this Nova Table can use: it holds no examples\n"


def test_a_profile_is_not_written_over_what_is_no_regular_file(tmp_path: Path) -> None:
    profile = Profile()
    profile.add("n:3", np.ones(DESCRIBED, np.float32))
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "folder").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "fifo")
    for where in (tmp_path / "fifo", tmp_path / "folder", tmp_path / "link"):
        with pytest.raises(ProfileError) as caught:
            profile.save(where)
        assert str(caught.value) == f"{where}: not a regular file: write the profile to a file"
    assert stat.S_ISFIFO((tmp_path / "fifo").stat().st_mode) and (tmp_path / "link").is_symlink()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fifo", "folder", "link"]


def test_a_profile_saved_through_a_symbolic_link_is_written_to_its_file_and_the_link_stays(tmp_path: Path) -> None:
    profile = Profile()
    profile.add("n:3", np.ones(DESCRIBED, np.float32))
    (tmp_path / "kept").mkdir()
    link = tmp_path / "my-dice.profile.json"
    link.symlink_to(tmp_path / "kept" / "dice.json")  # not there yet: made
    for count in (1, 2):
        profile.save(link)
        assert link.is_symlink() and len(load(tmp_path / "kept" / "dice.json")) == count
        profile.add("n:4", np.ones(DESCRIBED, np.float32))
    assert sorted(p.name for p in (tmp_path / "kept").iterdir()) == ["dice.json"]
    (tmp_path / "la").symlink_to(tmp_path / "lb")
    (tmp_path / "lb").symlink_to(tmp_path / "la")
    with pytest.raises(ProfileError, match="a symbolic link that leads round in a loop"):
        profile.save(tmp_path / "la")  # was Python's RuntimeError


def test_saving_a_profile_keeps_a_users_file_named_like_its_part_and_leaves_nothing_when_it_fails(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    profile = Profile()
    profile.add("n:3", np.ones(DESCRIBED, np.float32))
    mine = tmp_path / "mine.json"
    (tmp_path / "mine.json.part").write_text("the user's own")
    old = os.umask(0o027)
    try:
        profile.save(mine)
    finally:
        os.umask(old)
    assert (tmp_path / "mine.json.part").read_text() == "the user's own" and len(load(mine)) == 1
    assert stat.S_IMODE(mine.stat().st_mode) == 0o640  # as the user's umask makes files
    before = mine.read_bytes()

    def fail(*_args: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", fail)
    profile.add("n:4", np.ones(DESCRIBED, np.float32))
    with pytest.raises(ProfileError, match="No space left on device"):
        profile.save(mine)
    assert mine.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine.json", "mine.json.part"]


def test_learn_does_not_write_the_profile_over_its_manifest_or_photos(tmp_path: Path) -> None:
    from assistant.vision.render import write_set
    from tests.vision.test_command import dice

    manifest = write_set(tmp_path / "set", 2, seed=9, style="pips")
    image = manifest.parent / json.loads(manifest.read_text().splitlines()[0])["image"]
    photo = image.read_bytes()
    done = dice("learn", str(manifest), "--out", str(image))
    assert done.returncode == 2 and image.read_bytes() == photo
    assert f"nova-table dice: {image}: the profile is learned from this file: write the profile to another file" \
        in done.stderr.splitlines()
    profile = learn(manifest, report=lambda _said: None)
    os.link(image, tmp_path / "linked.png")
    os.link(manifest, tmp_path / "linked.jsonl")
    (tmp_path / "near").symlink_to(image.parent)
    for out in (manifest, tmp_path / "linked.png", tmp_path / "linked.jsonl", tmp_path / "near" / image.name):
        with pytest.raises(ProfileError, match=f"^{out}: the profile is learned from this file"):
            profile.save(out)
    assert image.read_bytes() == photo and manifest.read_text().count("\n") == 2


def test_learn_names_the_manifest_line_of_a_photo_it_skips_and_says_so_as_the_command(
        tmp_path: Path, rendered_pips: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first = json.loads(rendered_pips.read_text().splitlines()[0])
    first["image"] = str(rendered_pips.parent / first["image"])
    manifest = tmp_path / "manifest.jsonl"
    manifest.write_text(json.dumps(first) + "\n" + json.dumps(dict(first, image="nope.png")) + "\n")
    learn(manifest)
    said = capsys.readouterr().err.splitlines()
    assert f"nova-table dice: {manifest}:2: skipped: {tmp_path / 'nope.png'}: no such file" in said
    assert said and all(line.startswith("nova-table dice: ") for line in said)
    assert any(" faces " in line and f"are not in {manifest}" in line for line in said)
