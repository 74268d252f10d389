"""Calibration: the face network fine-tuned on a table's own dice (`dice learn`) reads faces it never saw."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from assistant.vision.heldout import HOLD, Tally, check, tally
from assistant.vision import learn as learning
from assistant.vision import tune as tuning
from assistant.vision.learn import checked, entries_of, examples, learn, learn_examples
from assistant.vision.manifest import Entry
from assistant.vision.profile import Profile, load
from assistant.vision.pytorch import ADD
from assistant.vision.reader import DiceReader
from assistant.vision.render import solid_tile

pytest.importorskip("torch", reason="dice learn needs PyTorch (the test extra installs it)")

# a board game's own d6: a skull for 1, a cross for 3, a shield for 6 (the networks never saw them)
EMBLEMS = ((1, "skull"), (3, "cross"), (6, "shield"))


def write_tiles(folder: Path, seed: int, per_face: int) -> Path:
    """Labelled photos (rendered) of the emblem dice, every face `per_face` times, and their manifest."""
    rng = np.random.default_rng(seed)
    (folder / "images").mkdir(parents=True)
    lines = []
    for i in range(per_face):
        for value in range(1, 7):
            shot = solid_tile(rng, kind="d6", style="pips", value=value, emblems=EMBLEMS)
            name = f"images/{value}_{i}.png"
            cv2.imwrite(str(folder / name), shot.image)
            die = {k: v for k, v in shot.dice[0].items() if k in ("kind", "value", "box")}
            lines.append(json.dumps({"image": name, "dice": [die], "complete": True, "box": "whole_die"}))
    (folder / "manifest.jsonl").write_text("\n".join(lines) + "\n")
    return folder / "manifest.jsonl"


def emblems_right(reader: DiceReader, entries: Sequence[Entry]) -> int:
    """How many of the emblem faces among `entries` `reader` reads right."""
    return tally(reader, [e for e in entries if e.dice[0].value in dict(EMBLEMS)]).right


def test_a_profile_reads_a_tables_emblem_faces_that_the_shipped_network_cannot(tmp_path: Path) -> None:
    learned = learn(write_tiles(tmp_path / "learn", seed=11, per_face=5), report=lambda _s: None, steps=150)
    assert learned.faces == {f"d6:{v}": 5 for v in range(1, 7)}
    learned.save(tmp_path / "table.profile.json")
    profile = load(tmp_path / "table.profile.json")
    others = entries_of(write_tiles(tmp_path / "read", seed=12, per_face=4), lambda _s: None)
    without, with_profile = emblems_right(DiceReader("d6"), others), emblems_right(DiceReader("d6", profile), others)
    # 12 emblem faces held out: measured 0 right without the profile, 6 with it on one thread (the colour reader)
    # (PyTorch's sums differ with its threads; 150 steps, where tune.plan gives 200 to 600)
    assert without <= 1 and with_profile >= 3, (without, with_profile)


def test_the_check_learns_without_every_fifth_picture_and_reads_those(tmp_path: Path) -> None:
    entries = entries_of(write_tiles(tmp_path / "emblems", seed=13, per_face=2), lambda _s: None)
    learned_from: list[list[Path]] = []

    def learn_from(rest: Sequence[Entry]) -> Profile:
        learned_from.append([e.image for e in rest])
        return learn_examples(examples(rest, lambda _s: None), ["test"], steps=2)

    said = check(entries, learn_from)
    held = [e.image for e in entries[HOLD - 1 :: HOLD]]
    assert len(learned_from) == 1 and sorted(learned_from[0] + held) == sorted(e.image for e in entries)
    assert not set(held) & set(learned_from[0])
    assert said.startswith(f"{len(held)} of its own pictures held out ({len(held)} dice) and read by a profile learned "
                           "from the others: ")
    assert check(entries[:1], learn_from) == ""  # one picture: none to hold out and learn without


def test_the_profile_goes_on_from_the_checks_networks_for_a_third_of_the_batches(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    manifest = write_tiles(tmp_path / "emblems", seed=14, per_face=1)
    entries = entries_of(manifest, lambda _s: None)
    starts: list[object] = []
    tune_once = tuning.tune

    def tune(*args: Any, **kwargs: Any) -> tuple[bytes, dict[str, Any]]:
        starts.append(kwargs.get("start"))
        return tune_once(*args, **kwargs)

    monkeypatch.setattr(tuning, "tune", tune)
    checking: list[float] = []
    profiling: list[float] = []
    profile, comparison = checked(manifest, entries, examples(entries, lambda _s: None), 6, checking.append,
                                  profiling.append, lambda _s: None)
    assert comparison is not None and comparison.held == 1
    assert len(checking) == 6 and len(profiling) == 2  # tiles: no finder; 6 batches, then a third of them
    assert starts[0] is None and isinstance(starts[1], dict)  # the check's from the shipped network, the profile's
    assert profile.faces == {f"d6:{v}": 1 for v in range(1, 7)}  # from the check's, learning every picture


def test_rendered_dice_in_each_batch_are_of_the_faces_the_table_did_not_show() -> None:
    from assistant.vision import tune
    from assistant.vision.read import CLASSES

    index = {c: i for i, c in enumerate(CLASSES)}
    ones = frozenset({index["d6:1"]})
    every_d6 = frozenset(index[f"d6:{v}"] for v in range(1, 7))
    # one face shown: KEEP of each batch; half the faces: in proportion; every face of its kind: one a batch
    assert tune.keep(ones) == round(tune.KEEP * tune.BATCH) == 4
    assert tune.keep(frozenset(index[f"d6:{v}"] for v in (1, 2, 3))) == 2
    assert tune.keep(every_d6) == tune.keep(frozenset(index[f"d8:{v}"] for v in range(1, 9))) == 1
    _, labels = tune.rendered(np.random.default_rng(3), 200, every_d6)
    assert len(labels) == 200 and not set(labels[:, 0]) & every_d6
    assert {CLASSES[c].split(":")[0] for c in labels[:, 0]} == {"none", "d8"}
    _, labels = tune.rendered(np.random.default_rng(3), 200, ones)
    assert index["d6:1"] not in labels[:, 0] and index["d6:2"] in labels[:, 0]


def test_views_of_upright_photos_stay_upright_and_a_tables_are_turned_any_way() -> None:
    """An oblique photo's top face is the one above: its training views turn at most `turn` degrees."""
    from assistant.vision import tune

    picture = np.zeros((200, 200, 3), np.uint8)
    picture[:100] = 230  # light above, dark below
    die = [tune.Labelled(0, (100.0, 100.0), 60.0, 1)]

    def upper_lighter(turn: float) -> float:
        crops, _ = tune.views(np.random.default_rng(4), [picture], die, [False], 200, turn)
        grey = crops.astype(float).mean(axis=3)
        return float(np.mean(grey[:, :40].mean(axis=(1, 2)) > grey[:, -40:].mean(axis=(1, 2))))

    assert upper_lighter(15.0) == 1.0
    assert 0.3 < upper_lighter(180.0) < 0.7


def test_learn_says_how_it_did_held_out_and_writes_one_profile_file(tmp_path: Path) -> None:
    manifest = write_tiles(tmp_path / "emblems", seed=14, per_face=2)
    out = tmp_path / "p.json"
    done = subprocess.run([sys.executable, "-m", "assistant", "dice", "learn", str(manifest), "--out", str(out),
                           "--steps", "3"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    said = done.stderr.splitlines()
    held = [x for x in said if "dice) and read by a profile learned from the others" in x]
    assert len(held) == 1 and " right, " in held[0] and held[0].count("misread") == 2, done.stderr
    assert "nova-table dice: learning: 100 %" in said
    assert said[-1] == f"nova-table dice: learned 12 dice (d6:1 x2, d6:2 x2, d6:3 x2, d6:4 x2, d6:5 x2, d6:6 x2) from {manifest} into {out}"
    profile = load(out)
    assert profile.check == held[0].removeprefix("nova-table dice: ") and profile.learned_from == [str(manifest)]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["emblems", "p.json"]  # nothing half-written left


def test_learn_without_pytorch_says_how_to_add_it_and_writes_nothing(tmp_path: Path) -> None:
    manifest = write_tiles(tmp_path / "emblems", seed=15, per_face=1)
    out = tmp_path / "p.json"
    done = subprocess.run([sys.executable, "-c", "import sys; sys.modules['torch'] = None; from assistant.cli import main; "
                           f"sys.exit(main(['dice', 'learn', {str(manifest)!r}, '--out', {str(out)!r}]))"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.splitlines() == ["nova-table dice: learning the dice needs PyTorch (torch cannot be imported: import "
                                        f"of torch halted; None in sys.modules): add it with {ADD}"]
    assert not out.exists()


def test_what_the_finder_takes_for_a_die_is_learned_as_none_but_not_a_pip_of_a_labelled_die(tmp_path: Path) -> None:
    """In a picture whose every die is labelled, a find that is no die is learned as "none" (the table's
    look-alikes); a find inside a labelled die (a pip taken for a die) is not: its crop shows that die's face."""
    from assistant.vision.find import Found
    from assistant.vision.learn import Examples
    from assistant.vision.manifest import LabelledDie

    class Finds:  # what the finder answers for this picture: the die, a pip of it, a mark on the table
        def find(self, image: np.ndarray) -> list[Found]:
            return [Found((100, 100, 60, 60), 0.9), Found((112, 112, 12, 12), 0.4), Found((400, 300, 50, 50), 0.3)]

    entry = Entry(tmp_path / "a.png", (LabelledDie("d6", 5, (105, 105, 50, 50)),), True, "top_face", 1, tmp_path / "m.jsonl")
    found = Examples()
    found.add(entry, np.random.default_rng(0).integers(0, 256, (480, 640, 3), np.uint8), Finds())  # type: ignore[arg-type]
    assert [(d.label, d.centre) for d in found.dice] == [(5, (130.0, 130.0)), (0, (425.0, 325.0))]


def test_learn_from_pictures_whose_every_die_is_labelled_learns_the_finder_too_and_says_so(
        tmp_path: Path, rendered_pips: Path) -> None:
    out = tmp_path / "p.json"
    done = subprocess.run([sys.executable, "-m", "assistant", "dice", "learn", str(rendered_pips), "--out", str(out),
                           "--steps", "2"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert ("nova-table dice: the finder learned from the 40 pictures whose every die is labelled with its whole box"
            in done.stderr.splitlines()), done.stderr
    finder = load(out).finder
    assert finder is not None and finder != (Path(__file__).parents[2] / "assistant/vision/models/finder.onnx").read_bytes()
