"""The face network at the table: its crop is well defined for any box, and a broken model is refused."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.vision import facenet as F
from assistant.vision.errors import ModelError, VisionError
from assistant.vision.faces import FaceReader

MODEL = F.default_model()  # the shipped face model
MODELS = MODEL.parent


@settings(max_examples=40, deadline=None)
@given(st.integers(16, 300), st.integers(16, 300),
       st.tuples(st.floats(-400, 400), st.floats(-400, 400), st.floats(1, 500), st.floats(1, 500)))
def test_any_box_of_any_picture_gives_one_input_sized_crop(h: int, w: int, box: tuple[float, float, float, float]) -> None:
    image = np.random.default_rng(h * w).integers(0, 256, (h, w, 3), dtype=np.uint8)
    crop = F.prepare(image, box)
    assert crop.shape == (F.INPUT, F.INPUT) and crop.dtype == np.uint8


def test_the_crop_is_centred_on_the_box() -> None:
    image = np.full((200, 300, 3), 200, np.uint8)
    image[90:110, 140:160] = 0  # a dark square: the box's middle
    crop = F.prepare(image, (130, 80, 40, 40))
    middle = crop[F.INPUT // 2 - 4 : F.INPUT // 2 + 4, F.INPUT // 2 - 4 : F.INPUT // 2 + 4]
    assert middle.max() < 40 and crop[:4].min() > 150  # dark middle, light border


def test_a_smaller_input_is_the_input_sized_crop_shrunk_as_training_makes_it() -> None:
    image = np.random.default_rng(3).integers(0, 256, (120, 160, 3), dtype=np.uint8)
    box = (40, 30, 50, 44)
    small = F.prepare(image, box, F.D8_CONTEXT, F.D8_INPUT)
    assert small.shape == (F.D8_INPUT, F.D8_INPUT) and small.dtype == np.uint8
    whole = F.prepare(image, box, F.D8_CONTEXT)  # what train_faces.py caches ...
    assert np.array_equal(F.shrink(whole, F.D8_INPUT), small)  # ... and shrinks, one crop or a stack
    assert np.array_equal(F.shrink(np.stack([whole, whole]), F.D8_INPUT)[1], small)
    assert F.shrink(np.zeros((0, F.INPUT, F.INPUT), np.uint8), F.D8_INPUT).shape == (0, F.D8_INPUT, F.D8_INPUT)


def test_the_network_gives_one_embedding_per_crop() -> None:
    net = FaceReader(model=MODEL).net
    crops = np.random.default_rng(1).integers(0, 256, (5, F.INPUT, F.INPUT), dtype=np.uint8)
    out = net.embed(crops)
    assert out.shape == (5, net.dim) and np.isfinite(out).all()
    # one crop alone gives what it gives in a batch
    assert np.allclose(net.embed(crops[2:3])[0], out[2], atol=1e-4)


def _copy_model(tmp_path: Path, name: str = F.MODEL) -> Path:
    """A copy of a shipped model and its heads (the JSON file of the model's name) in tmp_path."""
    model = tmp_path / name
    shutil.copy(MODELS / name, model)
    shutil.copy((MODELS / name).with_suffix(".json"), model.with_suffix(".json"))
    return model


def test_the_close_up_d8_model_ships_with_its_own_heads_and_crop() -> None:
    net = F.FaceNet(F.d8_model())
    assert net.context == F.D8_CONTEXT and 0.0 < net.threshold < 1.0
    assert net.identity != F.FaceNet(MODEL).identity
    assert net.input == F.D8_INPUT and F.FaceNet(MODEL).input == F.INPUT  # each model's JSON says its input side
    crops = np.random.default_rng(2).integers(0, 256, (3, net.input, net.input), dtype=np.uint8)
    assert net.embed(crops).shape == (3, net.dim)
    reader = FaceReader(model=MODEL)
    assert reader.crops(np.zeros((80, 80, 3), np.uint8), [(10, 10, 40, 40)], reader.d8).shape == (1, F.D8_INPUT, F.D8_INPUT)


def test_the_second_face_model_ships_reading_the_first_ones_crops() -> None:
    first, second = F.FaceNet(MODEL), F.FaceNet(F.second_model())
    assert (second.input, second.context, second.dim) == (first.input, first.context, first.dim)
    assert second.identity != first.identity and 0.0 < second.threshold < 1.0
    crops = np.random.default_rng(3).integers(0, 256, (3, first.input, first.input), dtype=np.uint8)
    assert second.embed(crops).shape == first.embed(crops).shape == (3, first.dim)
    assert not np.allclose(F.unit(second.embed(crops)), F.unit(first.embed(crops)), atol=0.05)


def test_heads_that_name_an_engine_opencv_lacks_are_refused(tmp_path: Path) -> None:
    model = _copy_model(tmp_path, F.SECOND_MODEL)
    meta = json.loads(model.with_suffix(".json").read_text())
    assert meta["opencv_engine"] == "ENGINE_NEW"  # OpenCV's dnn runs Lite0 faster on its new engine
    meta["opencv_engine"] = "ENGINE_FASTEST"
    model.with_suffix(".json").write_text(json.dumps(meta))
    with pytest.raises(ModelError, match="not the heads of this face model .opencv_engine ENGINE_FASTEST"):
        F.FaceNet(model)


def test_heads_that_give_an_impossible_input_side_are_refused(tmp_path: Path) -> None:
    model = _copy_model(tmp_path, F.D8_MODEL)
    meta = json.loads(model.with_suffix(".json").read_text())
    meta["input"] = 4 * F.INPUT
    model.with_suffix(".json").write_text(json.dumps(meta))
    with pytest.raises(ModelError, match="not the heads"):
        F.FaceNet(model)


@pytest.mark.parametrize("name", [F.MODEL, F.D8_MODEL, F.SECOND_MODEL])
def test_a_corrupt_model_file_is_refused_with_a_clear_error(tmp_path: Path, name: str) -> None:
    model = _copy_model(tmp_path, name)
    data = bytearray(model.read_bytes())
    data[len(data) // 2 : len(data) // 2 + 64] = b"\0" * 64
    model.write_bytes(bytes(data))
    with pytest.raises(ModelError, match="does not match"):
        F.FaceNet(model)


def test_a_model_that_is_not_onnx_is_refused_with_a_clear_error(tmp_path: Path, runtime: str) -> None:
    model = _copy_model(tmp_path)
    model.write_bytes(b"this is not a network")
    meta = json.loads(model.with_suffix(".json").read_text())
    import hashlib

    meta["onnx_sha256"] = hashlib.sha256(model.read_bytes()).hexdigest()  # heads "match": the runtime must refuse
    model.with_suffix(".json").write_text(json.dumps(meta))
    with pytest.raises(ModelError, match="cannot load the face model") as refused:
        F.FaceNet(model)
    assert F.FaceNet().net.runtime == runtime
    assert "Traceback" not in str(refused.value) and len(str(refused.value).splitlines()) == 1


@pytest.mark.parametrize("change, message", [
    (lambda m: m.unlink(), "cannot read the face model"),
    (lambda m: m.with_suffix(".json").write_text("{"), "not JSON"),
    (lambda m: m.with_suffix(".json").unlink(), "cannot read the face model's heads"),
])
def test_a_missing_or_broken_model_is_a_vision_error(tmp_path: Path, change, message: str) -> None:  # type: ignore[no-untyped-def]
    model = _copy_model(tmp_path)
    change(model)
    with pytest.raises(VisionError, match=message):
        FaceReader(model=model)


def test_without_the_close_up_d8_model_the_face_reader_reads_on_and_says_why(tmp_path: Path) -> None:
    from assistant.vision.render import tile

    model = _copy_model(tmp_path, F.D8_MODEL)
    model.write_bytes(model.read_bytes()[:1000])  # cut short: its heads no longer match it
    reader = FaceReader(model=MODEL, d8_model=model)
    assert reader.d8 is None and reader.problem is not None
    assert str(model) in reader.problem and "face network alone" in reader.problem
    shot = tile(np.random.default_rng(8), style="astro")
    die = reader.read(shot.image, shot.dice[0]["box"], kind="d8")
    assert die is None or die.kind == "d8"  # read by the first network: an answer, not a crash


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 4), st.integers(1, 5), st.integers(0, 2**32 - 1))
def test_turns_taken_together_are_chances_whatever_their_order(turns: int, n: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    chances = F.softmax(rng.normal(0, 3, (turns, n, len(F.CLASSES))))
    together = F.agreed(chances)
    assert together.shape == (n, len(F.CLASSES)) and np.allclose(together.sum(1), 1.0)
    assert np.allclose(F.agreed(chances[::-1]), together)
    if turns == 1:
        assert np.allclose(together, chances[0], atol=1e-9)


def test_a_class_is_sure_taken_together_only_where_every_turn_leans_to_it() -> None:
    sure, split = np.full(len(F.CLASSES), 0.01), np.full(len(F.CLASSES), 0.01)
    sure[3] = 1.0
    split[5] = 1.0
    one_turn_says_5 = np.stack([sure, sure, sure, split])[:, None] / np.stack([sure, sure, sure, split]).sum(1)[:, None, None]
    together = F.agreed(one_turn_says_5)[0]
    assert together.argmax() == 3 and together[3] > one_turn_says_5[:, 0, 3].mean()  # surer than the plain mean
    every_turn_says_3 = np.stack([sure] * 4)[:, None] / sure.sum()
    assert F.agreed(every_turn_says_3)[0, 3] == pytest.approx(every_turn_says_3[0, 0, 3])


def test_a_model_read_at_four_turns_reads_a_crop_turned_a_quarter_the_same(tmp_path: Path) -> None:
    """A model whose JSON asks for 4 turns is read at all four (`embed_turned`), so the same crop
    turned by a quarter gives the same chances; the shipped first model is read at one, as before."""
    model = _copy_model(tmp_path)
    meta = json.loads(model.with_suffix(".json").read_text())
    meta["turns"] = 4
    model.with_suffix(".json").write_text(json.dumps(meta))
    reader = FaceReader(model=model)
    crops = np.random.default_rng(5).integers(0, 256, (3, F.INPUT, F.INPUT), dtype=np.uint8)
    turned = reader.net.embed_turned(crops)
    assert turned.shape == (4, 3, reader.net.dim)
    assert np.allclose(turned[1], reader.net.embed(np.rot90(crops, 1, (1, 2))), atol=1e-4)
    values, symbols = reader.taken_together(turned, "auto")
    again, again_symbols = reader.taken_together(reader.net.embed_turned(np.rot90(crops, 1, (1, 2)).copy()), "auto")
    assert np.allclose(values, again, atol=1e-4) and np.allclose(symbols, again_symbols, atol=1e-4)
    one = FaceReader(model=MODEL)  # read at one turn, a turned crop gives other chances
    assert one.net.turns == json.loads(MODEL.with_suffix(".json").read_text()).get("turns", 1) == 1
    first = one.taken_together(one.net.embed_turned(crops), "auto")[0]
    assert not np.allclose(first, one.taken_together(one.net.embed_turned(np.rot90(crops, 1, (1, 2)).copy()), "auto")[0],
                           atol=1e-4)
    assert np.allclose(first, F.softmax(one.net.heads.scale * F.unit(one.net.embed(crops)) @ one.values.T), atol=1e-5)


def test_without_the_second_face_model_the_first_reads_alone_and_says_why(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    from assistant.vision.reader import DiceReader
    from assistant.vision.render import tile

    model = _copy_model(tmp_path, F.SECOND_MODEL)
    model.write_bytes(model.read_bytes()[:1000])  # cut short: its heads no longer match it
    monkeypatch.setattr(F, "second_model", lambda: model)
    reader = DiceReader()
    assert reader.faces is not None and reader.faces.second is None
    assert reader.problem is not None and str(model) in reader.problem
    assert reader.problem.endswith("reading with the first face network alone")
    assert reader.values_by.startswith("face network refitted on the profile")
    shot = tile(np.random.default_rng(8), style="pips")
    die = reader.faces.read(shot.image, shot.dice[0]["box"])
    assert die is not None and die.value == shot.dice[0]["value"]  # read by the first network alone
    monkeypatch.undo()
    assert DiceReader().values_by.startswith("face networks refitted")  # the shipped pair, once it is there again
