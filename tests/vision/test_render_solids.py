"""The solid renderer's labels are exact: the top face is the value, boxes hold the die, seeds repeat."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.vision.crop import SIDE
from assistant.vision.read import CLASSES, SYMBOLS
from assistant.vision.dice import FACES
from assistant.vision.render import class_index, face_sample
from assistant.vision.solids import DieLook, Pose, draw_die, random_look, solid_faces


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(["d6", "d8"]), st.integers(1, 8), st.floats(0, 360), st.integers(0, 2**31 - 1))
def test_faces_carry_every_value_once_with_opposites_adding_up(kind: str, value: int, yaw: float, seed: int) -> None:
    value = min(value, FACES[kind])
    faces = solid_faces(kind, value, yaw, np.random.default_rng(seed))
    assert sorted(v for _, v in faces) == list(range(1, FACES[kind] + 1))
    normals = {v: c.mean(axis=0) / np.linalg.norm(c.mean(axis=0)) for c, v in faces}
    top = max(normals, key=lambda v: normals[v][2])
    assert top == value and normals[value][2] > 0.99  # the value's face looks straight up
    for v, n in normals.items():  # the face opposite each face shows total - value
        assert np.allclose(normals[FACES[kind] + 1 - v], -n, atol=1e-6)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**31 - 1), st.floats(30, 90), st.floats(20, 90))
def test_the_top_face_lies_inside_the_die_and_the_die_is_where_asked(seed: int, elevation: float, size: float) -> None:
    rng = np.random.default_rng(seed)
    canvas = np.full((200, 200, 3), 120, np.float32)
    look = random_look(rng)
    drawn = draw_die(canvas, rng, look, (100.0, 100.0), size, Pose(elevation, 30.0, 10.0, 0.0, 15.0))
    x, y, w, h = drawn.box
    tx, ty, tw, th = drawn.top_box
    assert abs(max(w, h) - size) <= 2 and abs(x + w / 2 - 100) <= 2 and abs(y + h / 2 - 100) <= 2
    assert tw > 0 and x - 1 <= tx and tx + tw <= x + w + 1 and y - 1 <= ty and ty + th <= y + h + 1
    assert (canvas[y : y + h, x : x + w] != 120).any()  # something was drawn there


def test_a_die_seen_from_above_shows_only_its_top_face_seen_at_a_slant_more() -> None:
    look = DieLook("d6", 5, "pips", (230.0, 230.0, 230.0), (20.0, 20.0, 20.0))
    above = draw_die(np.zeros((160, 160, 3), np.float32), np.random.default_rng(1), look, (80, 80), 60, Pose(90.0))
    slant = draw_die(np.zeros((160, 160, 3), np.float32), np.random.default_rng(1), look, (80, 80), 60, Pose(40.0))
    assert above.top_box[2] * above.top_box[3] > 0.8 * above.box[2] * above.box[3]
    assert slant.top_box[3] < 0.7 * slant.box[3]  # the top face is foreshortened, side faces show


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**31 - 1))
def test_training_crops_are_labelled_in_range_and_repeat_from_a_seed(seed: int) -> None:
    crop, label, symbol = face_sample(np.random.default_rng(seed))
    again = face_sample(np.random.default_rng(seed))
    assert crop.shape == (SIDE, SIDE, 3) and crop.dtype == np.uint8
    assert 0 <= label < len(CLASSES) and 0 <= symbol < len(SYMBOLS)
    assert np.array_equal(crop, again[0]) and (label, symbol) == again[1:]
    if symbol:  # a symbol is only ever on a Nova Aetas d8
        assert CLASSES[label].startswith("d8")
    assert class_index(None, None) == 0 and CLASSES[class_index("d8", 7)] == "d8:7"
