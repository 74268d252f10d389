"""calibration/die_faces.py: the face up of a turned d6 or d8, as the Blender dice renderer labels it."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[2]


def die_faces() -> ModuleType:
    spec = importlib.util.spec_from_file_location("die_faces", ROOT / "calibration" / "die_faces.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


faces = die_faces()


def test_every_face_has_its_numeral_once_and_opposites_sum() -> None:
    for kind, top in (("d6", 7), ("d8", 9)):
        numerals = faces.NUMERALS[kind]
        assert sorted(numerals) == list(range(1, top))
        n = faces.normals(kind)
        for i, j in enumerate(np.argmin(n @ n.T, axis=1)):
            assert np.allclose(n[i], -n[j])
            assert numerals[i] + numerals[j] == top


def test_normals_point_out_of_the_die() -> None:
    for kind in ("d6", "d8"):
        vertices, mesh = faces.MESHES[kind]
        for face, normal in zip(mesh, faces.normals(kind)):
            assert vertices[list(face)].mean(axis=0) @ normal > 0


def test_face_up_for_known_turns() -> None:
    assert faces.up_value("d6", np.eye(3)) == faces.NUMERALS["d6"][4]  # the +z face
    quarter = np.array([[1, 0, 0], [0, 0, -1], [0, 1, 0]], float)  # a quarter turn about x: +y goes up
    assert faces.up_value("d6", quarter) == faces.NUMERALS["d6"][2]
    assert faces.up_value("d6", np.diag([1.0, -1, -1])) == faces.NUMERALS["d6"][5]  # half a turn: -z up
    r1, r2, r3 = np.array([1, -1, 0]) / np.sqrt(2), np.array([1, 1, -2]) / np.sqrt(6), np.ones(3) / np.sqrt(3)
    d8 = [frozenset(f) for f in faces.D8_FACES]
    top, bottom = d8.index(frozenset({0, 2, 4})), d8.index(frozenset({1, 3, 5}))
    assert faces.up_value("d8", np.array([r1, r2, r3])) == faces.NUMERALS["d8"][top]  # (+,+,+) up
    assert faces.up_value("d8", np.array([r1, -r2, -r3])) == faces.NUMERALS["d8"][bottom]  # (-,-,-)
    assert faces.NUMERALS["d8"][top] + faces.NUMERALS["d8"][bottom] == 9


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["d6", "d8"]), st.integers(1, 8), st.floats(-np.pi, np.pi))
def test_a_die_laid_with_a_value_up_shows_it_level(kind: str, value: int, angle: float) -> None:
    value = 1 + (value - 1) % (6 if kind == "d6" else 8)
    rotation = faces.lay(kind, value, angle)
    assert np.allclose(rotation @ rotation.T, np.eye(3)) and np.isclose(np.linalg.det(rotation), 1)
    assert faces.up_value(kind, rotation) == value
    up = faces.normals(kind)[faces.up_face(kind, rotation)] @ rotation.T
    assert np.allclose(up, [0, 0, 1])
    # the die rests on its lowest vertices at rest_height below its centre
    vertices = faces.MESHES[kind][0] @ rotation.T
    assert np.isclose(vertices[:, 2].min(), -faces.rest_height(kind))
