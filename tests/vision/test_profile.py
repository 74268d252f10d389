"""Profiles: saved and loaded unchanged; broken files refused with a reason; written whole or not at all."""

from __future__ import annotations

import base64
import json
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from assistant.vision.errors import ProfileError
from assistant.vision.learn import learn
from assistant.vision.profile import UNUSABLE, Profile, load
from assistant.vision.read import CLASSES, MODEL
from tests.vision import nets


def network() -> bytes:
    return MODEL.read_bytes()


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 9), st.dictionaries(st.sampled_from(CLASSES[1:]), st.integers(1, 99)),
       st.text(max_size=40), st.none() | st.integers(0, 9))
def test_a_profile_round_trips(tmp_path_factory: pytest.TempPathFactory, seed: int, faces: dict[str, int],
                               check: str, finder_seed: int | None) -> None:
    path = tmp_path_factory.mktemp("p") / "p.json"
    model, finder = nets.face(seed), None if finder_seed is None else nets.finder(finder_seed)
    Profile(model, faces, ["test"], check, finder=finder).save(path)
    again = load(path)
    assert (again.network, again.faces, again.learned_from, again.check, again.name, again.finder) == (
        model, faces, ["test"], check, str(path), finder)


def written(tmp_path: Path, change: Callable[[dict[str, Any]], None]) -> Path:
    """A profile file, changed by `change` (as by hand)."""
    path = tmp_path / "q.json"
    Profile(nets.face(), {"d6:1": 3}, ["m.jsonl"], "held out: fine", finder=nets.finder()).save(path)
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize("change, message", [
    (lambda d: d.update(learned_from=5), '"learned_from" must be a list and "check" a text'),
    (lambda d: d.update(check=None), '"learned_from" must be a list and "check" a text'),
    (lambda d: d.update(faces={"d6:7": 1}), '"faces" must count dice by face'),
    (lambda d: d.update(faces={"d6:1": "3"}), '"faces" must count dice by face'),
    (lambda d: d.update(faces=[]), '"faces" must count dice by face'),
    (lambda d: d.pop("network"), 'no "network"'),
    (lambda d: d.update(network="not base64!"), 'no "network"'),
    (lambda d: d.update(finder="not base64!"), 'no "finder"'),
    (lambda d: d.update(network="\x80"), 'no "network"'),  # not ASCII: base64's own ValueError
    (lambda d: d.update(fhnder=d.pop("finder")), 'a field it does not know, "fhnder"'),
    (lambda d: d.update(version=True), "profile version true, this reader knows 5"),
    (lambda d: d.update(version=99), "profile version 99, this reader knows 5"),
])
def test_a_profile_changed_by_hand_is_refused_naming_the_file_and_the_fault(
        tmp_path: Path, change: Callable[[dict[str, Any]], None], message: str) -> None:
    path = written(tmp_path, change)
    with pytest.raises(ProfileError) as caught:
        load(path)
    assert str(caught.value).startswith(f"{path}: {UNUSABLE}: ") and message in str(caught.value)


@pytest.mark.parametrize("key", ["network", "finder"])
def test_a_profile_whose_network_changed_on_the_card_is_said_damaged(tmp_path: Path, key: str) -> None:
    path = written(tmp_path, lambda d: d.update({key: base64.b64encode(b"an ONNX netwark").decode()}))
    with pytest.raises(ProfileError, match=f"^{path}: damaged: its {key} does not match its SHA-256: learn it again$"):
        load(path)


def test_a_profile_without_a_finder_finds_with_the_shipped_one(tmp_path: Path) -> None:
    """Pictures of single dice (tiles) teach no finder: such a profile carries none, and is read as before."""
    def without_finder(data: dict[str, Any]) -> None:
        del data["finder"], data["finder_sha256"]

    path = written(tmp_path, without_finder)
    assert load(path).finder is None


@pytest.mark.parametrize("version", [1, 2, 3, 4])
def test_a_profile_of_an_earlier_reader_is_refused_with_a_word_to_learn_it_again(tmp_path: Path, version: int) -> None:
    path = tmp_path / "old.json"
    path.write_text(json.dumps({"format": "nova-table-dice-profile", "version": version, "examples": []}))
    with pytest.raises(ProfileError, match=f"^{path}: learned by an earlier dice reader, whose networks are gone: "
                                           r"learn it again \(nova-table dice learn, or dice calibrate\)$"):
        load(path)


@pytest.mark.parametrize("text, message", [
    ("", "not JSON"),
    ("[]", "not a dice profile"),
    ('{"format": "something else"}', "not a dice profile"),
])
def test_what_is_no_profile_is_refused_with_a_reason(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "p.json"
    path.write_text(text)
    with pytest.raises(ProfileError, match=message):
        load(path)


def test_dice_read_refuses_a_profile_whose_face_network_or_finder_cannot_run(tmp_path: Path, rendered_pips: Path) -> None:
    from tests.vision.test_command import dice

    path = tmp_path / "p.json"
    Profile(b"not ONNX at all", {"d6:1": 1}).save(path)
    image = rendered_pips.parent / json.loads(rendered_pips.read_text().splitlines()[0])["image"]
    done = dice("read", "--profile", str(path), str(image))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"nova-table dice: {path}: the face network cannot be loaded ("), done.stderr
    Profile(network(), {"d6:1": 1}, finder=b"not ONNX either").save(path)
    done = dice("read", "--profile", str(path), str(image))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"nova-table dice: {path}: the finder network cannot be loaded ("), done.stderr


def test_a_profile_that_cannot_be_written_is_a_clear_error_and_leaves_no_part_behind(tmp_path: Path) -> None:
    profile = Profile(network(), {"d6:3": 1})
    profile.save(tmp_path / "mine.json")
    before = (tmp_path / "mine.json").read_text()
    (tmp_path / "a-file").write_text("not a folder")
    for where in (tmp_path / "a-file" / "mine.json", tmp_path / "a-file" / "below" / "mine.json"):
        with pytest.raises(ProfileError) as caught:
            profile.save(where)
        assert str(caught.value) == f"{where}: cannot write the profile ({tmp_path / 'a-file'} is a file, not a folder)"
    profile.faces["d6:4"] = 2
    profile.save(tmp_path / "mine.json")  # written over whole
    assert (tmp_path / "mine.json").read_text() != before and load(tmp_path / "mine.json").faces == profile.faces
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file", "mine.json"]


@pytest.mark.parametrize("text", ['{"format": "nova-table-dice-profile", "n": ' + "9" * 5000 + "}", "[" * 100000])
def test_json_past_pythons_limits_is_not_a_profile(tmp_path: Path, text: str) -> None:
    path = tmp_path / "p.json"
    path.write_text(text)
    with pytest.raises(ProfileError, match="not a dice profile"):
        load(path)


def test_a_profile_is_not_written_over_what_is_no_regular_file(tmp_path: Path) -> None:
    profile = Profile(nets.face(), {"d6:3": 1})
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "folder").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "fifo")
    for where, what in (("fifo", "not a regular file (a pipe or a device)"), ("folder", "a folder"),
                        ("link", "not a regular file (a pipe or a device)")):
        with pytest.raises(ProfileError) as caught:
            profile.save(tmp_path / where)
        assert str(caught.value) == f"{tmp_path / where}: {what}: write the profile to a file; nothing was written"
    assert stat.S_ISFIFO((tmp_path / "fifo").stat().st_mode) and (tmp_path / "link").is_symlink()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fifo", "folder", "link"]


def test_a_profile_saved_through_a_symbolic_link_is_written_to_its_file_and_the_link_stays(tmp_path: Path) -> None:
    profile = Profile(nets.face(), {"d6:3": 1})
    (tmp_path / "kept").mkdir()
    link = tmp_path / "my-dice.profile.json"
    link.symlink_to(tmp_path / "kept" / "dice.json")  # not there yet: made
    for count in (1, 2):
        profile.save(link)
        assert link.is_symlink() and load(tmp_path / "kept" / "dice.json").faces["d6:3"] == count
        profile.faces["d6:3"] += 1
    assert sorted(p.name for p in (tmp_path / "kept").iterdir()) == ["dice.json"]
    (tmp_path / "la").symlink_to(tmp_path / "lb")
    (tmp_path / "lb").symlink_to(tmp_path / "la")
    with pytest.raises(ProfileError, match="a symbolic link that leads round in a loop"):
        profile.save(tmp_path / "la")  # was Python's RuntimeError


def test_saving_a_profile_keeps_a_users_file_named_like_its_part_and_leaves_nothing_when_it_fails(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    profile = Profile(nets.face(), {"d6:3": 1})
    mine = tmp_path / "mine.json"
    (tmp_path / "mine.json.part").write_text("the user's own")
    old = os.umask(0o027)
    try:
        profile.save(mine)
    finally:
        os.umask(old)
    assert (tmp_path / "mine.json.part").read_text() == "the user's own" and load(mine).faces == {"d6:3": 1}
    assert stat.S_IMODE(mine.stat().st_mode) == 0o640  # as the user's umask makes files
    before = mine.read_bytes()

    def fail(*_args: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", fail)
    profile.faces["d6:4"] = 1
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
    done = dice("learn", str(manifest), "--out", str(image), "--steps", "1")
    assert done.returncode == 2 and image.read_bytes() == photo
    assert f"nova-table dice: {image}: the profile is learned from this file: write the profile to another file" \
        in done.stderr.splitlines()
    profile = learn(manifest, report=lambda _said: None, steps=1)
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
    learn(manifest, steps=1)
    said = capsys.readouterr().err.splitlines()
    assert f"nova-table dice: {manifest}:2: skipped: {tmp_path / 'nope.png'}: no such file" in said
    assert said and all(line.startswith("nova-table dice: ") for line in said)
    assert any(" faces " in line and f"are not in {manifest}" in line for line in said)


@pytest.mark.parametrize("face, finder, wrong", [
    (nets.finder, nets.face, ["face network", "finder network"]),  # swapped, as by hand: each SHA-256 its own
    (nets.face, nets.face, ["finder network"]),
    (nets.finder, None, ["face network"]),
])
def test_a_profile_whose_networks_are_of_the_wrong_shape_is_refused_naming_the_file_and_each(
        tmp_path: Path, runtime: str, face: Callable[[], bytes], finder: Callable[[], bytes] | None,
        wrong: list[str]) -> None:
    path = tmp_path / "p.json"
    Profile(face(), {"d6:1": 1}, finder=None if finder is None else finder()).save(path)
    with pytest.raises(ProfileError) as caught:
        load(path)
    said = str(caught.value)
    assert said.startswith(f"{path}: the {wrong[0]} does not fit the reader (fed ") and said.endswith(": learn it again")
    assert [what for what in ("face network", "finder network") if what in said] == wrong, said


def test_the_shipped_networks_pass_the_same_check_and_one_of_the_wrong_shape_is_said(
        runtime: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from assistant.vision import find
    from assistant.vision.errors import ModelError
    from assistant.vision.find import Finder
    from assistant.vision.read import FaceNet

    Finder(), FaceNet()  # each fits what the reader feeds it
    monkeypatch.setattr(find, "MODEL", MODEL)  # the face network where the finder belongs
    with pytest.raises(ModelError, match=f"^{MODEL}: the finder network does not fit the reader \\(fed 2 x 3 x 64 x 96 "
                                         r"it .*\): reinstall Nova Table \(python3 bootstrap.py\)$"):
        Finder()


def test_dice_read_with_the_shipped_networks_swapped_in_a_profile_says_so_and_reads_nothing(
        tmp_path: Path, rendered_pips: Path) -> None:
    from assistant.vision import find
    from tests.vision.test_command import dice

    path = tmp_path / "swapped.json"
    Profile(find.MODEL.read_bytes(), {"d6:1": 1}, finder=network()).save(path)
    image = rendered_pips.parent / json.loads(rendered_pips.read_text().splitlines()[0])["image"]
    done = dice("read", "--profile", str(path), str(image))
    assert (done.returncode, done.stdout) == (2, "") and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.startswith(f"nova-table dice: {path}: the face network does not fit the reader (fed 1 x 3 x 96 "
                                  "x 96 it gives 1 x 5 x 24 x 24, not 1 x 19); the finder network does not fit")
    assert len(done.stderr.splitlines()) == 1


# A small valid profile, once for the module, for the properties below: any bytes as a profile file, and this one with
# any byte changed, give a clear message or a profile that reads exactly as before (the same two networks: reading
# depends on nothing else), never a traceback.
VALID = Profile(nets.face(), {"d6:3": 12, "d8:7": 1}, ["m.jsonl"], "held out: fine", finder=nets.finder()).text()
JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
                    max_leaves=6)


def loaded_or_said(tmp_path_factory: pytest.TempPathFactory, data: bytes) -> Profile | None:
    """The profile `data` is, or None where it is refused with a message naming its file (any other error fails)."""
    path = tmp_path_factory.mktemp("fuzz") / "p.json"
    path.write_bytes(data)
    try:
        return load(path)
    except ProfileError as bad:
        assert str(bad).startswith(f"{path}: ") and len(str(bad)) < 600 and "\n" not in str(bad)
        return None


@settings(max_examples=40, deadline=None)
@given(st.binary(max_size=200) | st.text(max_size=200).map(str.encode) | st.fixed_dictionaries(
    {"format": st.just("nova-table-dice-profile"), "version": st.just(5) | JSON},
    optional={key: JSON for key in ("network", "sha256", "finder", "finder_sha256", "faces", "learned_from", "check",
                                    "extra")}).map(lambda d: json.dumps(d).encode()))
def test_any_bytes_as_a_profile_file_are_said_or_a_profile(tmp_path_factory: pytest.TempPathFactory, data: bytes) -> None:
    assert loaded_or_said(tmp_path_factory, data) is None  # no such bytes hold two networks and their SHA-256


@settings(max_examples=40, deadline=None)
@example(VALID.index('"finder"') + 2, ord("h"))  # "fhnder": the finder would be left out, unsaid
@example(VALID.index('"finder_sha256"') + 2, ord("h"))
@example(VALID.index('"faces"') + 2, ord("b"))
@given(st.integers(0, len(VALID) - 1), st.integers(0, 255))
def test_a_profile_with_a_byte_changed_is_said_or_reads_as_before(
        tmp_path_factory: pytest.TempPathFactory, where: int, byte: int) -> None:
    data = bytearray(VALID.encode())
    assume(data[where] != byte)
    data[where] = byte
    again = loaded_or_said(tmp_path_factory, bytes(data))
    assert again is None or (again.network, again.finder) == (nets.face(), nets.finder())
