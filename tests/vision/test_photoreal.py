"""calibration/photoreal.py: the scenes it asks Blender for, and the labels it keeps of what Blender saw."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration import photoreal as P
from calibration import photoreal_manifests as M


def pips_in(atlas: np.ndarray, uv: list[float]) -> int:
    """The marks in an atlas cell (given by its UV rectangle): blobs far from the cell's body colour."""
    h, w = atlas.shape[:2]
    u0, v0, u1, v1 = uv
    part = atlas[int(round((1 - v1) * h)):int(round((1 - v0) * h)), int(round(u0 * w)):int(round(u1 * w))].astype(np.float32)
    body = np.median(part.reshape(-1, 3), axis=0)
    far = np.abs(part - body).max(axis=2)
    marks = (far > max(40.0, 0.7 * float(far.max()))).astype(np.uint8)  # pips' cores, apart where their rims touch
    count, _labels = cv2.connectedComponents(marks)
    return int(count) - 1


def test_a_pip_d6_shows_each_face_value_where_its_normal_points_and_the_asked_value_on_top() -> None:
    for seed in range(40):
        rng = np.random.default_rng(seed)
        value = int(rng.integers(1, 7))
        atlas, cells, faces, look = P.d6_atlas(value, rng)
        if look["style"] != "pips":
            continue
        by_normal = {tuple(int(x) for x in f["normal"]): int(f["value"]) for f in faces}
        assert by_normal[(0, 0, 1)] == value
        for normal, shown in by_normal.items():
            assert by_normal[tuple(-x for x in normal)] == 7 - shown  # opposite faces add up to 7
            assert pips_in(atlas, cells[str(list(normal))]) == shown, (seed, normal)


def test_a_d8_shows_eight_values_once_each_and_the_asked_one_on_its_upper_face() -> None:
    rng = np.random.default_rng(3)
    _atlas, cells, faces, _look = P.d8_atlas(5, rng)
    assert sorted(f["value"] for f in faces) == list(range(1, 9))
    assert [f["value"] for f in faces if f["normal"] == [1, 1, 1]] == [5]
    assert set(cells) == {str(list(s)) for s in P.OCTA}


def test_a_scene_spec_lays_every_die_on_the_table_or_drops_it_onto_it(tmp_path: Path) -> None:
    for index in range(12):
        spec = P.scene_spec(index, 9, tmp_path, samples=4)
        assert (tmp_path / spec["table"]["texture"]).exists()
        for die in spec["dice"]:
            matrix = np.array(die["matrix"])
            turn = matrix[:3, :3]
            scale = np.linalg.norm(turn[:, 0])
            corners = (np.vstack([np.eye(3), -np.eye(3)]) if die["kind"] == "d8"
                       else np.array([[a, b, c] for a in (-0.5, 0.5) for b in (-0.5, 0.5) for c in (-0.5, 0.5)]))
            lowest = float((corners @ turn.T)[:, 2].min() + matrix[2, 3])
            if spec["frames"]:
                assert lowest > 0.0  # dropped from above the table
            else:
                assert abs(lowest) < 1e-9 * scale + 1e-12  # resting on it
            assert (tmp_path / die["atlas"]).exists()


def test_dice_hidden_or_leaning_are_not_labelled_and_leave_the_picture_incomplete(tmp_path: Path) -> None:
    work, out = tmp_path / "work", tmp_path / "out"
    work.mkdir()
    (out / "images").mkdir(parents=True)
    cv2.imwrite(str(work / "s1_000007.png"), np.full((48, 64, 3), 128, np.uint8))
    die = {"kind": "d6", "value": 4, "centre": [20.0, 20.0], "top": [10.0, 10.0, 20.0, 20.0],
           "whole": [8.0, 8.0, 24.0, 28.0], "visible": 1.0, "tilt": 2.0}
    shots = [
        {"image": "s1_000007.png", "width": 64, "height": 48, "dice": [die]},
        {"image": "s1_000007.png", "width": 64, "height": 48,
         "dice": [die, {**die, "value": 2, "visible": 0.5}, {**die, "value": 3, "tilt": 30.0},
                  {**die, "value": 1, "centre": [70.0, 20.0]}]},  # the last one's top face is out of the picture
    ]
    seen = work / "chunk.seen.jsonl"
    seen.write_text("".join(json.dumps(s) + "\n" for s in shots))
    assert P.finish(work, out, seen, seed=1) == (2, 2)
    lines = [json.loads(line) for line in (out / "manifest.jsonl").read_text().splitlines()]
    assert [line["complete"] for line in lines] == [True, False]
    assert [[d["value"] for d in line["dice"]] for line in lines] == [[4], [4]]
    assert lines[0]["dice"][0]["box"] == [10.0, 10.0, 20.0, 20.0] and lines[0]["box"] == "top_face"
    written = cv2.imread(str(out / lines[0]["image"]))
    assert written is not None and written.shape == (48, 64, 3)


@pytest.mark.skipif(shutil.which("blender") is None, reason="Blender is not installed (apt install blender)")
def test_blender_renders_a_scene_whose_labelled_top_faces_are_dice(tmp_path: Path) -> None:
    out = tmp_path / "set"
    done = P.main(["--out", str(out), "--count", "2", "--samples", "4", "--workers", "1", "--seed", "5"])
    assert done == 0
    lines = [json.loads(line) for line in (out / "manifest.jsonl").read_text().splitlines()]
    assert len(lines) == 2 and any(line["dice"] for line in lines)
    for line in lines:
        image = cv2.imread(str(out / line["image"]))
        assert image is not None
        table = np.median(image.reshape(-1, 3), axis=0)
        for die in line["dice"]:
            x, y, w, h = (int(round(v)) for v in die["box"])
            part = image[max(0, y):y + h, max(0, x):x + w].reshape(-1, 3).astype(np.float32)
            assert np.abs(part - table).max(axis=1).mean() > 12  # a die there, not the bare table


def test_a_photoreal_folder_becomes_a_top_face_and_a_whole_die_training_folder(tmp_path: Path) -> None:
    work, folder = tmp_path / "work", tmp_path / "pr9"
    work.mkdir()
    (folder / "images").mkdir(parents=True)
    cv2.imwrite(str(work / "s9_000001.png"), np.full((48, 64, 3), 90, np.uint8))
    dice = [{"kind": "d6", "value": 5, "centre": [15.0, 15.0], "top": [10.0, 10.0, 12.0, 11.0],
             "whole": [8.0, 7.0, 16.0, 19.0], "visible": 1.0, "tilt": 1.0},
            {"kind": "d8", "value": 7, "centre": [40.0, 30.0], "top": [35.0, 25.0, 10.0, 9.0],
             "whole": [33.0, 22.0, 15.0, 17.0], "visible": 0.95, "tilt": 0.0}]
    seen = work / "chunk.seen.jsonl"
    seen.write_text(json.dumps({"image": "s9_000001.png", "width": 64, "height": 48, "dice": dice}) + "\n")
    assert P.finish(work, folder, seen, seed=9) == (1, 2)
    out = tmp_path / "train"
    assert M.main(["--out", str(out), str(folder)]) == 0
    for suffix, side, boxes in (("t", "top_face", [[10.0, 10.0, 12.0, 11.0], [35.0, 25.0, 10.0, 9.0]]),
                                ("w", "whole_die", [[8.0, 7.0, 16.0, 19.0], [33.0, 22.0, 15.0, 17.0]])):
        [line] = [json.loads(x) for x in (out / f"pr9{suffix}" / "manifest.jsonl").read_text().splitlines()]
        assert line["box"] == side
        assert [(d["kind"], d["value"], d["box"]) for d in line["dice"]] == [("d6", 5, boxes[0]), ("d8", 7, boxes[1])]
        image = cv2.imread(str(out / f"pr9{suffix}" / line["image"]))  # the path leads back to the folder's picture
        assert image is not None and image.shape == (48, 64, 3)


def test_a_folder_without_labels_is_refused_with_its_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "plain").mkdir()
    assert M.main(["--out", str(tmp_path / "train"), str(tmp_path / "plain")]) == 2
    assert "plain: no labels.jsonl" in capsys.readouterr().err
    assert not (tmp_path / "train").exists()
