"""calibration/face_marks.py: each face of a rendered die's atlas carries its own numeral's marks."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import cv2
import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]


def module(name: str) -> ModuleType:
    sys.path.insert(0, str(ROOT / "calibration"))
    try:
        spec = importlib.util.spec_from_file_location(name, ROOT / "calibration" / f"{name}.py")
        assert spec is not None and spec.loader is not None
        found = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(found)
        return found
    finally:
        sys.path.remove(str(ROOT / "calibration"))


marks, faces = module("face_marks"), module("die_faces")


@pytest.fixture(scope="module")
def glyphs(tmp_path_factory: pytest.TempPathFactory) -> None:
    path = tmp_path_factory.mktemp("glyphs") / "glyphs.npz"
    marks.write_glyphs(path, marks.fonts()[:2])
    marks.load_glyphs(path)


def cells(kind: str, atlas: np.ndarray) -> list[np.ndarray]:
    columns, _ = marks.GRID[kind]
    c = marks.CELL
    return [atlas[(i // columns) * c:(i // columns + 1) * c, (i % columns) * c:(i % columns + 1) * c]
            for i in range(len(faces.NUMERALS[kind]))]


def test_a_pip_d6_shows_on_each_face_as_many_pips_as_its_numeral(glyphs: None) -> None:
    rng = np.random.default_rng(3)
    atlas = marks.atlas(rng, "d6", marks.die_style(rng, "d6", "pips"), faces.NUMERALS["d6"])
    for value, cell in zip(faces.NUMERALS["d6"], cells("d6", atlas)):
        blobs = cv2.connectedComponents((cell > 0.5).astype(np.uint8))[0] - 1
        assert blobs == value


def test_a_d8_face_is_marked_inside_its_triangle_and_nowhere_else(glyphs: None) -> None:
    rng = np.random.default_rng(4)
    for look in ("numerals", "astro"):
        atlas = marks.atlas(rng, "d8", marks.die_style(rng, "d8", look), faces.NUMERALS["d8"])
        inside = np.zeros((marks.CELL, marks.CELL), np.uint8)
        cv2.fillPoly(inside, [marks.D8_TRIANGLE.astype(np.int32)], 1)
        for cell in cells("d8", atlas):
            assert cell[inside == 1].sum() > 20 and cell[inside == 0].max() < 0.05


def test_the_nova_d8_carries_a_symbol_beside_the_numeral_but_on_2_and_3(glyphs: None) -> None:
    style = marks.die_style(np.random.default_rng(5), "d8", "astro")
    plain = dict(style, look="numerals")
    for value in range(1, 9):
        astro = marks.face_mask(np.random.default_rng(6), style, "d8", value)
        numeral = marks.face_mask(np.random.default_rng(6), plain, "d8", value)
        parts = cv2.connectedComponents((astro > 0.5).astype(np.uint8))[0] - 1
        assert (parts > cv2.connectedComponents((numeral > 0.5).astype(np.uint8))[0] - 1) == (value not in (2, 3))


def test_each_face_is_mapped_to_its_own_cell() -> None:
    for kind in ("d6", "d8"):
        columns, rows = marks.GRID[kind]
        for index, face in enumerate(faces.MESHES[kind][1]):
            uv = np.array(marks.cell_uv(kind, index, len(face)))
            column, row = index % columns, index // columns
            assert (uv[:, 0] >= column / columns).all() and (uv[:, 0] <= (column + 1) / columns).all()
            assert (1 - uv[:, 1] >= row / rows).all() and (1 - uv[:, 1] <= (row + 1) / rows).all()
