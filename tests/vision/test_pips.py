"""The pip layout check: any d6 face fits under any turn, scale and tilt; broken layouts do not."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from assistant.vision.pips import Pip, layout_fit
from assistant.vision.render import PIP_CELLS



def placed(cells: list[tuple[int, int]], angle: float, scale: float, shear: float, squash: float) -> list[Pip]:
    c, s = np.cos(angle), np.sin(angle)
    m = np.array([[c, -s], [s, c]]) @ np.array([[1.0, shear], [0.0, squash]]) * scale
    singular = np.linalg.svd(m, compute_uv=False)
    roundness = float(singular[1] / singular[0])  # the pips are squashed as the face is
    return [Pip(tuple(m @ np.array(cell, float) + 100.0), 5.0, roundness) for cell in cells]


@given(st.integers(1, 6), st.floats(0, 2 * np.pi), st.floats(5, 40), st.floats(-0.3, 0.3), st.floats(0.5, 1.0))
def test_every_face_fits_under_any_affine_view(value: int, angle: float, scale: float, shear: float,
                                               squash: float) -> None:
    assert layout_fit(placed(PIP_CELLS[value], angle, scale, shear, squash)) > 0.95


@given(st.floats(0, 2 * np.pi), st.floats(5, 40), st.integers(0, 5))
def test_a_six_with_a_pip_missing_is_not_a_five(angle: float, scale: float, missing: int) -> None:
    cells = [c for i, c in enumerate(PIP_CELLS[6]) if i != missing]
    assert layout_fit(placed(cells, angle, scale, 0.0, 1.0)) < 0.5


def test_three_pips_in_a_bent_line_do_not_fit() -> None:
    assert layout_fit([Pip((0, 0), 4), Pip((10, 8), 4), Pip((20, 0), 4)]) < 0.5


@given(st.floats(0, 2 * np.pi), st.floats(5, 40))
def test_a_six_with_a_row_hidden_is_not_a_four(angle: float, scale: float) -> None:
    # seen square-on (round pips), two rows of a 6 are an oblong twice as wide as tall
    cells = [(-1, -1), (1, -1), (-1, 0), (1, 0)]
    assert layout_fit(placed(cells, angle, scale, 0.0, 1.0)) < 0.5
    assert layout_fit(placed(PIP_CELLS[4], angle, scale, 0.0, 1.0)) > 0.95


@given(st.integers(1, 6), st.integers(1, 6), st.floats(0, 2 * np.pi), st.floats(0, 2 * np.pi), st.floats(8, 20))
def test_the_pips_of_two_touching_dice_are_parted_die_by_die(a: int, b: int, turn_a: float, turn_b: float,
                                                             step: float) -> None:
    from assistant.vision.pips import split_groups

    first = placed(PIP_CELLS[a], turn_a, step, 0.0, 1.0)
    # the second die sits beside the first: its middle four pip-steps away (faces touch)
    second = [Pip((p.centre[0] + 4.2 * step, p.centre[1]), p.size, p.roundness)
              for p in placed(PIP_CELLS[b], turn_b, step, 0.0, 1.0)]
    parts = split_groups(first + second)
    if len(parts) == 2:
        assert sorted(len(p) for p in parts) == sorted([a, b])
        assert all(layout_fit(p) > 0.95 for p in parts)
    else:
        # when the two dice's pips are spaced like one die's, they are left whole, not misparted
        assert len(parts) == 1


@given(st.integers(0, 5), st.floats(0, 2 * np.pi), st.floats(8, 20))
def test_a_pip_broken_by_the_dies_outline_completes_the_six(missing: int, angle: float, step: float) -> None:
    from assistant.vision.pips import hidden_pip

    six = placed(PIP_CELLS[6], angle, step, 0.0, 1.0)
    seen = [p for i, p in enumerate(six) if i != missing]
    no_edge = np.zeros((400, 400), np.uint8)
    # where the lost pip was there is a broken mark: the six is completed there and only there
    found = hidden_pip(seen, no_edge, [six[missing].centre])
    assert found is not None and np.hypot(*np.subtract(found.centre, six[missing].centre)) < 1.0
    assert layout_fit(seen + [found]) > 0.9
    # with no evidence of a pip anywhere, nothing is invented
    assert hidden_pip(seen, no_edge, []) is None


@given(st.floats(0, 2 * np.pi), st.floats(8, 20))
def test_a_five_is_left_a_five(angle: float, step: float) -> None:
    assert layout_fit(placed(PIP_CELLS[5], angle, step, 0.0, 1.0)) > 0.95
