"""The learned dice detector: decoding its output, its threshold calibration, and the dice it finds."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.vision import detector as D
from assistant.vision.detector import Detection, DetectorError, DiceDetector, choose_threshold, decode, input_size
from assistant.vision.matching import match
from assistant.vision.reader import DiceReader
from assistant.vision.render import scene


def output_with(peaks: list[tuple[int, int, float]], shape: tuple[int, int] = (60, 80), reach: float = 2.0) -> np.ndarray:
    """A network output with a centre of the given strength at each (cell x, cell y), the whole die
    `reach` cells each way from it."""
    out = np.zeros((D.CHANNELS, *shape), np.float32)
    for gx, gy, strength in peaks:
        out[0, gy, gx] = strength
        out[1:3, gy, gx] = 0.5  # the middle of the cell
        out[3:5, gy, gx] = np.log(3.0)  # a top face three cells across
        out[5:9, gy, gx] = np.log1p(reach)
    return out


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 78), st.integers(1, 58), st.floats(0.0, 1.0)), max_size=8,
                unique_by=lambda p: (p[0] // 3, p[1] // 3)))
def test_every_sure_isolated_centre_is_one_detection_inside_the_frame(peaks: list[tuple[int, int, float]]) -> None:
    far = [p for p in peaks if all(max(abs(p[0] - q[0]), abs(p[1] - q[1])) > 1 for q in peaks if q is not p)]
    # dice two cells apart touch: each whole die reaches just short of the other's centre
    found = decode(output_with(far, reach=0.9), (8.0, 8.0), 0.35, (480, 640), smooth=0)
    expected = {(gx, gy) for gx, gy, s in far if s > 0.35}
    assert {(int(d.centre[0] // 8), int(d.centre[1] // 8)) for d in found} == expected
    for d in found:
        x, y, w, h = d.box
        assert 0 <= x and 0 <= y and x + w <= 640 and y + h <= 480
        assert x <= d.centre[0] <= x + w and y <= d.centre[1] <= y + h
    assert [d.score for d in found] == sorted((d.score for d in found), reverse=True)


def test_a_second_peak_inside_a_surer_die_is_the_same_die() -> None:
    # a peak 2 cells from a surer one whose whole die reaches 3 cells each way: one die
    found = decode(output_with([(10, 20, 0.9), (12, 20, 0.5)], reach=3.0), (8.0, 8.0), 0.35, smooth=0)
    assert len(found) == 1 and found[0].score == pytest.approx(0.9)
    # the same peaks when the surer die is small (reaches 1 cell): two dice side by side
    assert len(decode(output_with([(10, 20, 0.9), (12, 20, 0.5)], reach=0.9), (8.0, 8.0), 0.35, smooth=0)) == 2


def test_smoothing_ranks_a_blob_of_sure_cells_above_a_lone_spike_of_the_same_height() -> None:
    out = output_with([(10, 20, 0.6), (40, 30, 0.6)])
    out[0, 29:32, 39:42] = np.maximum(out[0, 29:32, 39:42], 0.45)  # a die lights its neighbours too
    found = decode(out, (8.0, 8.0), 0.3)
    assert [(int(d.centre[0] // 8), int(d.centre[1] // 8)) for d in found] == [(40, 30)]
    assert len(decode(out, (8.0, 8.0), 0.3, smooth=0)) == 2


def test_a_decoded_die_has_the_sizes_the_network_gave() -> None:
    (d,) = decode(output_with([(10, 20, 0.9)]), (8.0, 8.0), 0.35, smooth=0)
    assert d.centre == pytest.approx((84.0, 164.0))
    assert d.top[2:] == (24, 24)  # three cells of 8 pixels
    assert d.box == (68, 148, 32, 32)  # two cells each way


def test_input_sides_are_multiples_of_16_and_keep_the_frames_shape() -> None:
    assert input_size((480, 640)) == (320, 240)
    assert input_size((640, 640)) == (320, 320)
    w, h = input_size((333, 500))
    assert w % 16 == 0 and h % 16 == 0 and abs(w / h - 500 / 333) < 0.1


def test_calibration_keeps_real_dice_and_drops_false_ones_on_complete_pictures() -> None:
    # dice score 0.3 to 0.9; false detections 0.2 to 0.28 on complete pictures
    scored = [([(0.3, True), (0.9, True), (0.2, False), (0.25, False)], 2, True),
              ([(0.5, True), (0.28, False)], 1, True)]
    t = choose_threshold(scored)
    assert 0.25 < t <= 0.3
    # on pictures with unlabelled dice, unmatched detections are no evidence against a threshold
    assert choose_threshold([([(0.2, True), (0.18, False)], 1, False)]) <= 0.2


def test_a_missing_model_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="model is missing"):
        DiceDetector(tmp_path / "none.onnx")


@pytest.mark.parametrize("content", [b"", b"\x08\x07 not a protobuf at all", b"ir_version: 7"])
def test_a_corrupt_model_is_a_clear_error_naming_the_file(tmp_path: Path, content: bytes, runtime: str) -> None:
    bad = tmp_path / "broken.onnx"
    bad.write_bytes(content)
    with pytest.raises(DetectorError, match="broken.onnx: the dice detector's model is corrupt"):
        DiceDetector(bad)


def test_a_missing_or_corrupt_verifier_is_a_clear_error_naming_the_file(tmp_path: Path, runtime: str) -> None:
    with pytest.raises(FileNotFoundError, match="none.onnx: the dice verifier's model is missing"):
        DiceDetector(verifier=tmp_path / "none.onnx")
    bad = tmp_path / "broken.onnx"
    bad.write_bytes(b"\x08\x07 not a protobuf at all")
    with pytest.raises(DetectorError, match="broken.onnx: the dice verifier's model is corrupt"):
        DiceDetector(verifier=bad)
    with pytest.raises(DetectorError, match="not the dice verifier's network"):
        DiceDetector(verifier=D.MODEL)  # the centre network: maps, not one score a crop


def test_a_model_of_another_network_is_refused(tmp_path: Path, runtime: str) -> None:
    import onnx
    from onnx import TensorProto, helper

    # a valid ONNX model whose output is the input itself: 3 maps, not the detector's CHANNELS
    graph = helper.make_graph([helper.make_node("Identity", ["image"], ["out"])], "other",
                              [helper.make_tensor_value_info("image", TensorProto.FLOAT, [1, 3, None, None])],
                              [helper.make_tensor_value_info("out", TensorProto.FLOAT, [1, 3, None, None])])
    path = tmp_path / "other.onnx"
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), str(path))
    with pytest.raises(DetectorError, match="not the dice detector's network"):
        DiceDetector(path)


def test_warming_up_loads_the_detector_before_any_frame(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    reader = DiceReader()
    assert reader._detector is True  # not loaded yet
    reader.warm()
    assert isinstance(reader._detector, DiceDetector) and reader.problem is None
    bad = tmp_path / "dice_detector.onnx"
    bad.write_bytes(b"garbage")
    monkeypatch.setattr(D, "MODEL", bad)
    broken = DiceReader()
    broken.warm()  # says what is missing before the first roll, as `watch` prints it
    assert broken.problem is not None and str(bad) in broken.problem


def test_without_a_usable_model_the_reader_falls_back_and_says_why(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    bad = tmp_path / "dice_detector.onnx"
    bad.write_bytes(b"garbage")
    monkeypatch.setattr(D, "MODEL", bad)
    shot = scene(np.random.default_rng(3), count=3, style="pips")
    reader = DiceReader()
    reading = reader.read(shot.image)
    assert reader.detector is None
    assert reader.problem is not None and str(bad) in reader.problem
    assert "classical segmentation" in reader.problem
    # the classical segmentation still finds and reads the rendered dice
    pairs = match([d["box"] for d in shot.dice], [d.box for d in reading.dice])
    assert len(pairs) == 3
    assert sum(reading.dice[j].value == shot.dice[i]["value"] for i, j in pairs.items()) >= 2


def test_the_command_warns_once_when_the_model_is_unusable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    import argparse
    import json

    import cv2

    from assistant.vision.command import run_read

    bad = tmp_path / "dice_detector.onnx"
    bad.write_bytes(b"garbage")
    monkeypatch.setattr(D, "MODEL", bad)
    paths = []
    for i in range(2):
        path = tmp_path / f"tray{i}.png"
        cv2.imwrite(str(path), scene(np.random.default_rng(20 + i), count=2, style="pips").image)
        paths.append(str(path))
    assert run_read(argparse.Namespace(images=paths, kind="auto", profile=None)) == 0
    out, err = capsys.readouterr()
    assert [json.loads(line)["image"] for line in out.splitlines()] == paths
    assert err.count("corrupt or not an ONNX model") == 1 and "Traceback" not in err


needs_model = pytest.mark.skipif(not D.MODEL.exists(), reason="the detector's model is not built")


@needs_model
def test_the_detector_finds_rendered_dice_and_nothing_on_an_empty_tray() -> None:
    det = DiceDetector()
    rng = np.random.default_rng(77)
    labelled = found = false = 0
    for _ in range(12):
        shot = scene(rng, (640, 480))
        dets = det.detect(shot.image)
        pairs = match([d["box"] for d in shot.dice], [d.box for d in dets])
        labelled += len(shot.dice)
        found += len(pairs)
        false += len(dets) - len(pairs)
    assert found >= 0.95 * labelled and false <= 2
    assert det.detect(np.full((480, 640, 3), (40, 110, 50), np.uint8)) == []


@needs_model
def test_the_verifier_parts_dice_from_the_centre_maps_other_peaks() -> None:
    """On rendered scenes of a seed range no network trained on (busy tables, tokens, pips), the
    first pass's candidates: the verifier scores the dice high and the rest low, and the detector with
    it finds more dice, with fewer false ones, than the centre map alone at its old threshold (0.20)."""
    from calibration import dice_scenes as DS

    det = DiceDetector()
    net = D.detector_network()
    sure: dict[bool, list[float]] = {True: [], False: []}
    alone = [0, 0]  # found, false: the centre map at 0.20
    both = [0, 0]  # the centre and the verifier at THRESHOLD
    for seed in range(5100, 5130):
        shot = DS.scene(np.random.default_rng(seed))
        truth = [lb.whole if lb.whole else lb.top for lb in shot.labels]
        out, scale = D.output(net, shot.image)
        candidates = decode(out, scale, D.CANDIDATE, shot.image.shape)
        hit = set(match(truth, [d.box for d in candidates]).values())
        crops = np.stack([D.crop(shot.image, d.box) for d in candidates]).transpose(0, 3, 1, 2)
        for j, logit in enumerate(det.verifier.run(crops).reshape(-1)):
            sure[j in hit].append(float(1 / (1 + np.exp(-logit))))
            if candidates[j].score >= 0.20:
                alone[j not in hit] += 1
        verified = det.verified(shot.image, candidates)
        pairs = match(truth, [d.box for d in verified])
        both[0] += len(pairs)
        both[1] += len(verified) - len(pairs)
    assert np.median(sure[True]) > 0.8 and np.median(sure[False]) < 0.1, (np.median(sure[True]), np.median(sure[False]))
    assert both[0] >= alone[0] and both[1] < 0.7 * alone[1], (both, alone)


def test_a_die_leaning_on_another_is_reported_unreadable_never_guessed() -> None:
    shot = scene(np.random.default_rng(5), count=1, style="pips")
    x, y, w, h = shot.dice[0]["box"]
    reader = DiceReader()
    work = shot.image
    flat = Detection(0.9, (x + w / 2, y + h / 2), (x, y, w, h), (x, y, w, h), leaning=0.05)
    leaning = Detection(0.9, (x + w / 2, y + h / 2), (x, y, w, h), (x, y, w, h), leaning=0.9)
    (read,) = reader.read_detected(work, [flat])
    (lean,) = reader.read_detected(work, [leaning])
    assert read.value == shot.dice[0]["value"]
    assert lean.value is None and lean.note == "leaning" and lean.box == (x, y, w, h)
    assert lean.to_json()["why"] == "leans on something"  # what the table is told


@needs_model
def test_find_gives_boxes_in_the_frames_own_pixels() -> None:
    shot = scene(np.random.default_rng(11), count=3, style="pips")
    reader = DiceReader()
    big = np.kron(shot.image, np.ones((2, 2, 1), np.uint8))  # the same picture, twice the size
    small_dets, big_dets = reader.find(shot.image), reader.find(big)
    assert len(small_dets) == len(big_dets) == 3
    for a in small_dets:
        b = min(big_dets, key=lambda d: abs(d.centre[0] - 2 * a.centre[0]) + abs(d.centre[1] - 2 * a.centre[1]))
        assert np.allclose(b.centre, 2 * np.array(a.centre), atol=6)


def test_a_found_die_the_face_reader_cannot_read_is_reported_unreadable_never_dropped_or_guessed() -> None:
    # a plain table: nothing there for the face reader to read, whatever the detector said
    work = np.full((480, 640, 3), (40, 110, 50), np.uint8)
    sure = Detection(0.95, (320.0, 240.0), (300, 220, 40, 40), (295, 215, 50, 50), leaning=0.0)
    unsure = Detection(0.4, (100.0, 100.0), (80, 80, 40, 40), (75, 75, 50, 50), leaning=0.0)
    dice = DiceReader().read_detected(work, [sure, unsure])
    assert [(d.value, d.box) for d in dice] == [(None, sure.box), (None, unsure.box)]
    assert all(d.to_json()["value"] is None for d in dice)


def solid_tray(seed: int) -> tuple[np.ndarray, list[tuple[int, int, int, int]]]:
    """Five solid dice (d6 with pips, d8 with numerals, any colour) seen at 45 to 80 degrees of
    elevation on green felt, and their whole-die boxes (a seed range training never used)."""
    from calibration import dice_scenes as DS

    rng = np.random.default_rng(seed)
    image = np.zeros((480, 640, 3), np.float32) + np.array([60, 100, 50], np.float32)
    image += rng.normal(0, 3, (480, 640, 1)).astype(np.float32)
    boxes = []
    for x, y in ((120, 140), (320, 130), (520, 150), (200, 340), (440, 330)):
        kind = "d8" if rng.random() < 0.3 else "d6"
        patch, alpha, _ = DS.draw_solid(kind, int(rng.integers(1, 7)), "pips" if kind == "d6" else "numerals",
                                        rng.uniform(45, 80), rng.uniform(45, 80), 0.0, rng)
        h, w = alpha.shape
        x0, y0 = int(x - w / 2), int(y - h / 2)
        DS.paste(image, patch, alpha, x0, y0)
        ys, xs = np.nonzero(alpha > 0.5)
        boxes.append((int(xs.min()) + x0, int(ys.min()) + y0, int(xs.max() - xs.min()) + 1, int(ys.max() - ys.min()) + 1))
    return np.clip(image, 0, 255).astype(np.uint8), boxes


@needs_model
def test_the_detector_finds_solid_dice_at_a_slant_with_their_whole_boxes() -> None:
    det = DiceDetector()
    for seed in range(6):
        image, truth = solid_tray(seed)
        dets = det.detect(image)
        pairs = match(truth, [d.box for d in dets])
        assert len(pairs) == len(truth) and len(dets) == len(truth), (seed, dets)
        for i, j in pairs.items():
            (x, y, w, h), got = truth[i], dets[j].box
            size = (w * h) ** 0.5
            centre_error = np.hypot(got[0] + got[2] / 2 - x - w / 2, got[1] + got[3] / 2 - y - h / 2)
            assert centre_error < 0.35 * size
            assert 0.5 < ((got[2] * got[3]) / (w * h)) ** 0.5 < 1.5


def test_a_mirrored_frame_gives_the_mirrored_dice() -> None:
    # the detector averages its outputs for the frame and its mirror image: what it finds is the same
    # either way round, boxes mirrored (to a pixel or two of rounding)
    shot = scene(np.random.default_rng(21), count=5, style="pips")
    frame = np.ascontiguousarray(shot.image)
    width = frame.shape[1]
    found = DiceDetector().detect(frame)
    mirrored = DiceDetector().detect(np.ascontiguousarray(frame[:, ::-1]))
    assert len(found) == len(mirrored) >= 4
    back = sorted((width - x - w, y, w, h) for x, y, w, h in (d.box for d in mirrored))
    for a, b in zip(sorted(d.box for d in found), back):
        assert max(abs(p - q) for p, q in zip(a, b)) <= 2


def note_sides(detector: DiceDetector, sides: list[int]) -> None:
    """Make `detector` note in `sides` the input side of each pass of its network."""
    real = detector.raw

    def raw(frame: np.ndarray, side: int = D.INPUT_SIDE) -> tuple[np.ndarray, tuple[float, float]]:
        sides.append(side)
        return real(frame, side)

    detector.raw = raw  # type: ignore[method-assign]


def test_dice_too_big_for_the_network_are_found_again_in_a_smaller_frame() -> None:
    """Dice 120 px across in a 640 px frame (whole boxes up to 85 px at the network's 320 px input,
    where it takes pips for dice): the frame is read again smaller."""
    reader = DiceReader()
    detector = reader.detector
    assert detector is not None
    sides: list[int] = []
    note_sides(detector, sides)
    dice = right = wrong = extra = again = 0
    for seed in range(7000, 7020):  # the rule's constants were chosen on other seeds
        shot = scene(np.random.default_rng(seed), (640, 480), count=3, style="pips", die_side=120, tilt=0.0,
                     background=(128, 128, 128))
        sides.clear()
        read = reader.read(shot.image).dice
        assert sides[0] == D.INPUT_SIDE and len(sides) <= 2 and all(D.SMALLEST_SIDE <= s < D.INPUT_SIDE for s in sides[1:])
        again += len(sides) == 2
        pairs = match([d["box"] for d in shot.dice], [d.box for d in read])
        dice += len(shot.dice)
        right += sum(read[j].value == shot.dice[i]["value"] for i, j in pairs.items())
        wrong += sum(read[j].value not in (None, shot.dice[i]["value"]) for i, j in pairs.items())
        extra += len(read) - len(pairs)
    # measured: 51 of 53 right, 2 misread (a 2 whose box sits on one pip, read as a 1), 1 extra die: one pip
    # of a 2 on a die 148 px across, found beside the whole die (cut out, a pip on a face looks like a die
    # showing 1 to the verifier). Before the verifier: 51, 2 and no extra die, read again in 16 of the 20
    # frames; in one pass, before faces.look_wider: 47 right, 6 misread, 4 extra
    assert again >= 10 and right >= 49 and wrong <= 3 and extra <= 1, (again, dice, right, wrong, extra)


def test_dice_of_the_size_the_network_reads_well_are_read_in_one_pass() -> None:
    detector = DiceDetector()
    sides: list[int] = []
    note_sides(detector, sides)
    for seed in range(7100, 7106):
        detector.detect(scene(np.random.default_rng(seed), (640, 480), count=3, die_side=60).image)
    assert sides == [D.INPUT_SIDE] * 6


@needs_model
@pytest.mark.parametrize("seed, found", [(3, True), (8, False), (21, True)])
def test_a_die_cut_by_the_pictures_edge_is_reported_unreadable_and_the_others_are_read(seed: int, found: bool) -> None:
    """A die a third to a half outside the picture shows part of its face, which may be part of
    another number: it is reported (value None), never guessed; the whole dice beside it are read.
    Seed 8's die, 43 % out, is not found at all: the verifier scores the part in view 0.27 (measured;
    `dice_hard.py`'s cut view: 10 of its 40 cut dice not found, 9 before the verifier)."""
    rng = np.random.default_rng(seed)
    shot = scene(rng, count=3, style="pips")
    left = min(shot.dice, key=lambda d: d["box"][0])
    x, _y, w, _h = left["box"]
    shift = -(x + int(w * rng.uniform(0.35, 0.5)))  # that die's left third to half goes out of the picture
    moved = np.roll(shot.image, shift, axis=1)
    moved[:, shift:] = shot.image[:, -1:]  # what comes in on the right is the table's edge colour
    reading = DiceReader().read(moved)
    boxes = {id(d): (d["box"][0] + shift, d["box"][1], d["box"][2], d["box"][3]) for d in shot.dice}
    cut = [d for d in reading.dice if d.box[0] == 0]
    assert len(cut) == found and all(d.value is None and d.note == "cut by the picture's edge" for d in cut)
    assert all(d.to_json()["why"] == "is partly out of view" for d in cut)
    assert all("why" not in d.to_json() for d in reading.dice if d.value is not None)
    whole = [d for d in shot.dice if boxes[id(d)][0] > 0]
    pairs = match([boxes[id(d)] for d in whole], [d.box for d in reading.dice])
    assert len(pairs) == len(whole)
    assert all(reading.dice[j].value == whole[i]["value"] for i, j in pairs.items())
    detections = [d for d in DiceReader().find(moved) if d.box[0] == 0]
    assert len(detections) == found and all(d.cut > 0.1 for d in detections)


def test_small_dice_are_looked_for_again_in_the_frames_own_pixels(monkeypatch: pytest.MonkeyPatch) -> None:
    """Dice about 20 px across in a 640 px frame (under D.SMALL at the network's 320 px input): the
    frame is read again at its own 640 px, which finds dice the first pass missed and adds none."""
    detector = DiceDetector()
    sides: list[int] = []
    note_sides(detector, sides)
    shots = [scene(np.random.default_rng(seed), (640, 480), die_side=20) for seed in range(7300, 7320)]

    def tally() -> tuple[int, int]:
        found = extra = 0
        for shot in shots:
            dets = detector.detect(shot.image)
            pairs = match([d["box"] for d in shot.dice], [d.box for d in dets])
            found, extra = found + len(pairs), extra + len(dets) - len(pairs)
        return found, extra

    found, extra = tally()
    assert D.FINE in sides and set(sides) <= {D.INPUT_SIDE, D.FINE}
    monkeypatch.setattr(D, "SMALL", 0)  # the first pass alone
    sides.clear()
    found_once, extra_once = tally()
    assert sides == [D.INPUT_SIDE] * len(shots)
    # measured: 66 of 66 dice found with the second pass, 62 without (63 before the verifier); no extra die either way
    assert found > found_once and extra <= extra_once, (found, found_once, extra, extra_once)
