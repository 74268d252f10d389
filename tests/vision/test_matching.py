"""Matching read dice to labelled dice by box centre: one to one, nearest first."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from assistant.vision.matching import centre, inside, match

boxes = st.lists(st.tuples(st.integers(0, 500), st.integers(0, 500), st.integers(1, 80), st.integers(1, 80)),
                 max_size=8)


@given(boxes, boxes)
def test_every_pair_is_one_to_one_and_centred(labelled: list[tuple[int, int, int, int]],
                                               found: list[tuple[int, int, int, int]]) -> None:
    pairs = match(labelled, found)
    assert len(set(pairs.values())) == len(pairs)
    for i, j in pairs.items():
        assert inside(centre(labelled[i]), found[j]) or inside(centre(found[j]), labelled[i])


@given(boxes)
def test_the_same_boxes_match_themselves(labelled: list[tuple[int, int, int, int]]) -> None:
    # distinct centres: each box is nearest to itself
    unique = list({centre(b): b for b in labelled}.values())
    assert match(unique, unique) == {i: i for i in range(len(unique))}


def test_a_top_face_label_matches_the_whole_die_around_it() -> None:
    assert match([(110, 110, 10, 10)], [(100, 100, 40, 40), (300, 300, 40, 40)]) == {0: 0}
    assert match([(110, 110, 10, 10)], [(200, 100, 40, 40)]) == {}
