"""The face reader: rendered dice of every face read right, no value when unsure, bad input answered."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.vision import facenet as F
from assistant.vision.dice import ASTRO_BY_VALUE, FACES, Box
from assistant.vision.faces import FaceReader
from assistant.vision.profile import shipped_faces

MODEL = F.default_model()  # the shipped face model
from assistant.vision.render import face_sample, scene, tile

PER_FACE = 12
RIGHT_CLOSE_UP = 78  # of 80 rendered Nova d8 tiles, read as d8 by the close-up network (measured 79, none wrong)
RIGHT_TOGETHER = 11  # of 12 rendered pip tiles, read by the two face networks together (measured 12)
WITHHELD_APART = 10  # of those 12, withheld when the two lean apart (measured 11)
D6_ROWS = np.flatnonzero([c.startswith("d6") for c in F.CLASSES])


@pytest.fixture(scope="module")
def reader() -> FaceReader:
    return FaceReader(model=MODEL)


def rate(reader: FaceReader, crops: np.ndarray, want: list[str], kind: str = "auto") -> tuple[float, float]:
    dice = reader.read_crops(crops, [(0, 0, 1, 1)] * len(crops), kind)
    right = sum(d is not None and f"{d.kind}:{d.value}" == w for d, w in zip(dice, want))
    wrong = sum(d is not None and d.value is not None and f"{d.kind}:{d.value}" != w for d, w in zip(dice, want))
    return right / len(want), wrong / len(want)


# the network's best class on solid rendered dice (any slant, blur, busy tables; many are hard to
# read by eye), measured 0.82 / 0.61 / 0.51 / 0.55 with the shipped model: floors below that
BEST_AT_LEAST = {"pips": 0.7, "numerals": 0.45, "astro": 0.45}


@pytest.mark.parametrize("kind, style", [("d6", "pips"), ("d6", "numerals"), ("d8", "numerals"), ("d8", "astro")])
def test_solid_rendered_dice_of_every_face_are_mostly_named_and_hardly_ever_misread(reader: FaceReader, kind: str,
                                                                                    style: str) -> None:
    rng = np.random.default_rng(4242)  # the training crops come from other seeds
    crops, want = [], []
    for value in range(1, FACES[kind] + 1):
        for _ in range(PER_FACE):
            crops.append(face_sample(rng, none_share=0.0, kind=kind, style=style, value=value)[0])
            want.append(f"{kind}:{value}")
    best = reader.probabilities(reader.net.embed(np.stack(crops)), "auto")[0].argmax(1)
    named = float(np.mean([F.CLASSES[b] == w for b, w in zip(best, want)]))
    assert named >= BEST_AT_LEAST[style], f"{style} {kind}: best class right on {100 * named:.1f}%"
    _, wrong = rate(reader, np.stack(crops), want)
    assert wrong <= 0.04, f"{style} {kind}: {100 * wrong:.1f}% misread"  # unsure ones are withheld


def test_flat_rendered_nova_aetas_d8_tiles_are_read_close_up_with_their_symbols(reader: FaceReader) -> None:
    rng = np.random.default_rng(777)
    shots = [tile(rng, style="astro") for _ in range(80)]
    values = np.array([s.dice[0]["value"] for s in shots])
    crops = np.stack([F.prepare(s.image, s.dice[0]["box"]) for s in shots])  # type: ignore[arg-type]
    p_value, p_symbol = reader.probabilities(reader.net.embed(crops), "d8")
    assert np.mean(p_value.argmax(1) == values + 6) >= 0.85  # the first network alone (measured 0.93)
    symbols = [F.SYMBOLS.index(ASTRO_BY_VALUE[int(v)] or "none") for v in values]
    assert np.mean(p_symbol.argmax(1) == symbols) >= 0.9  # its symbol head (measured 0.96)
    # read as a d8, the close-up network reads them (the first network alone: 49 of 80 at its threshold)
    dice = [reader.read(s.image, s.dice[0]["box"], kind="d8") for s in shots]
    right = [d for d, v in zip(dice, values) if d is not None and d.value == v]
    wrong = [d for d, v in zip(dice, values) if d is not None and d.value not in (None, v)]
    assert len(right) >= RIGHT_CLOSE_UP and not wrong
    for d in right:  # a symbol reported is the value's own
        assert d.symbol is None or d.symbol == ASTRO_BY_VALUE[d.value]  # type: ignore[index]
    marked = [d for d in right if ASTRO_BY_VALUE[d.value] is not None]  # type: ignore[index]
    named = [d for d in marked if d.symbol == ASTRO_BY_VALUE[d.value]]  # type: ignore[index]
    assert marked and len(named) >= 0.9 * len(marked)  # and the symbol is read, not just left out


def test_auto_sends_only_the_likely_d8_to_the_close_up_network(reader: FaceReader) -> None:
    rng = np.random.default_rng(778)
    pips = [tile(rng, style="pips") for _ in range(20)]
    astro = [tile(rng, style="astro") for _ in range(20)]
    seen: list[int] = []
    real = reader.read_closer

    def counted(image: np.ndarray, boxes: Sequence[Box]) -> tuple[np.ndarray, np.ndarray]:
        seen.append(len(boxes))
        return real(image, boxes)

    reader.read_closer = counted  # type: ignore[method-assign]
    try:
        d6 = [reader.read(s.image, s.dice[0]["box"]) for s in pips]
        looked_at_d6 = len(seen)
        d8 = [reader.read(s.image, s.dice[0]["box"]) for s in astro]
    finally:
        del reader.read_closer
    assert looked_at_d6 <= 1 and all(d is None or d.kind == "d6" or d.value is None for d in d6)
    assert len(seen) - looked_at_d6 >= 18  # the first network's d8 go closer
    assert sum(d is not None and d.value == s.dice[0]["value"] for d, s in zip(d8, astro)) >= 18


def test_a_profile_that_taught_d8_to_the_first_network_only_reads_them_by_it() -> None:
    """A profile learned without the close-up network (no "c8:V" examples): its d8 by its refitted head."""
    from assistant.vision.profile import Profile

    net = F.FaceNet(MODEL)
    rng = np.random.default_rng(3)
    d6_only = Profile(model=net.identity)
    for v in range(1, 7):
        d6_only.add(f"d6:{v}", rng.normal(size=net.dim))
    every_d8 = [f"d8:{v}" for v in range(1, 9)]
    with_d8 = d6_only.merged(Profile(every_d8, list(rng.normal(size=(8, net.dim)).astype(np.float32)),
                                     model=net.identity))
    assert FaceReader(profile=d6_only, model=MODEL).d8 is not None
    assert FaceReader(profile=with_d8, model=MODEL).d8 is None  # the table's own d8, by its refitted head
    # one d8 face shown: not a calibration of the d8 (it would read every d8 as a 3): left out
    one_d8 = d6_only.merged(Profile(["d8:3"], [rng.normal(size=net.dim).astype(np.float32)], model=net.identity))
    plain, partial, sixes = (FaceReader(profile=p, model=MODEL) for p in (None, one_d8, d6_only))
    assert partial.d8 is not None and np.array_equal(partial.values, sixes.values)
    assert not np.array_equal(sixes.values, plain.values)  # the d6 faces, all shown, are refitted


def test_the_table_without_a_die_is_not_read_as_one(reader: FaceReader) -> None:
    rng = np.random.default_rng(99)
    blanks: list[np.ndarray] = []
    while len(blanks) < 60:
        crop, label, _ = face_sample(rng, none_share=1.0)
        blanks.append(crop)
    dice = reader.read_crops(np.stack(blanks), [(0, 0, 1, 1)] * len(blanks))
    given_values = [d for d in dice if d is not None and d.value is not None]
    assert len(given_values) <= 3  # "not a die" or unreadable, hardly ever a value


def test_a_box_in_a_scene_is_read_as_its_die_and_the_box_is_given_back(reader: FaceReader) -> None:
    shot = scene(np.random.default_rng(5), count=4, style="pips")
    for label in shot.dice:
        die = reader.read(shot.image, label["box"])
        assert die is not None and die.box == tuple(label["box"])
        assert die.value in (None, label["value"])  # never a wrong value here


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(0.001, 1.0), min_size=len(F.CLASSES), max_size=len(F.CLASSES)),
       st.lists(st.floats(0.001, 1.0), min_size=len(F.SYMBOLS), max_size=len(F.SYMBOLS)))
def test_a_value_is_only_given_when_sure_and_never_against_its_symbol(values: list[float], symbols: list[float]) -> None:
    reader = FaceReader(model=MODEL)
    v = np.array(values) / sum(values)
    s = np.array(symbols) / sum(symbols)
    die = reader.decide(v, s, (0, 0, 10, 10), reader.threshold, reader.trust)
    if v[0] >= 0.5:
        assert die is None
        return
    assert die is not None and die.box == (0, 0, 10, 10)
    if die.value is not None:
        assert die.confidence >= reader.threshold
        assert f"{die.kind}:{die.value}" == F.CLASSES[int(np.argmax(v[1:])) + 1]
        if die.kind == "d8" and s.max() >= 0.6 and F.SYMBOLS[int(np.argmax(s))] != "none":
            assert ASTRO_BY_VALUE[die.value] == F.SYMBOLS[int(np.argmax(s))]


def test_a_kind_leaves_out_the_other_kinds_values(reader: FaceReader) -> None:
    rng = np.random.default_rng(31)
    crops = np.stack([face_sample(rng, none_share=0.0)[0] for _ in range(30)])
    for kind in ("d6", "d8"):
        for die in reader.read_crops(crops, [(0, 0, 1, 1)] * len(crops), kind):
            assert die is None or die.kind == kind


@pytest.mark.parametrize("region", [(10, 10, 0, 5), (1, 2, 3), "box", None])
def test_a_region_that_is_no_box_is_refused_with_a_reason(reader: FaceReader, region: object) -> None:
    with pytest.raises(ValueError, match="box"):
        reader.read(np.zeros((50, 50, 3), np.uint8), region)  # type: ignore[arg-type]


def test_odd_pictures_and_boxes_get_an_answer_not_a_crash(reader: FaceReader) -> None:
    grey = np.full((40, 40), 128, np.uint8)
    plain = reader.read(grey, (5, 5, 20, 20))
    assert plain is None or plain.value is None  # a plain grey picture holds no value
    outside = reader.read(np.zeros((60, 60, 3), np.uint8), (500, 500, 30, 30))
    assert outside is None or outside.value is None  # nothing there: no value
    assert reader.read_many(np.zeros((60, 60, 3), np.uint8), []) == []
    with pytest.raises(ValueError, match="kind"):
        FaceReader(kind="d20")


def test_kind_d8_is_read_by_the_close_up_network_alone_which_tells_a_bare_table_itself(reader: FaceReader) -> None:
    from assistant.vision.render import table

    rng = np.random.default_rng(779)
    astro = [tile(rng, style="astro") for _ in range(20)]
    bare = [np.clip(table(rng, 120, 160), 0, 255).astype(np.uint8) for _ in range(20)]

    def refused(crops: np.ndarray) -> np.ndarray:
        raise AssertionError("the first network was run for kind d8")

    reader.net.embed = refused  # type: ignore[method-assign]
    try:
        d8 = [reader.read(s.image, s.dice[0]["box"], kind="d8") for s in astro]
        blank = [reader.read(image, (50, 30, 60, 60), kind="d8") for image in bare]
    finally:
        del reader.net.embed
    assert sum(d is not None and d.value == s.dice[0]["value"] for d, s in zip(d8, astro)) >= 19
    assert all(d is None or d.value in (None, s.dice[0]["value"]) for d, s in zip(d8, astro))
    assert all(d is None or d.value is None for d in blank)  # no value read off a bare table
    assert sum(d is None for d in blank) >= 15  # mostly "not a die" (measured 20 of 20)


def test_dice_at_a_slant_read_with_their_top_faces_are_read_right_more_often_never_wrong_more(
        reader: FaceReader) -> None:
    from calibration import dice_scenes as DS  # the detector's renderer: the face network never trained on these seeds

    counts = {"whole": [0, 0], "with tops": [0, 0]}  # right, misread
    for seed in range(710000, 710040):
        shot = DS.scene(np.random.default_rng(seed))
        labels = [lb for lb in shot.labels if lb.whole and not lb.leaning and lb.top[2] > 4 and max(lb.whole[2:]) >= 30]
        boxes = [lb.whole for lb in labels if lb.whole is not None]  # all of them: each label has its whole die
        tops = [lb.top for lb in labels]  # sub-pixel float boxes: the reader crops them as they are
        for name, dice in (("whole", reader.read_many(shot.image, boxes)),
                           ("with tops", reader.read_many(shot.image, boxes, tops=tops))):  # type: ignore[arg-type]
            for lb, die in zip(labels, dice):
                if die is not None and die.value is not None:
                    counts[name][(die.kind, die.value) != (lb.kind, lb.value)] += 1
    # measured 26 right, 2 misread by the whole dice alone; 34 and 2 with their top faces (of 109)
    assert counts["with tops"][0] >= counts["whole"][0] + 5, counts
    assert counts["with tops"][1] <= counts["whole"][1], counts


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(st.floats(0.001, 1.0), min_size=len(F.CLASSES), max_size=len(F.CLASSES)),
                min_size=1, max_size=6), st.integers(0, 2**31))
def test_a_second_look_changes_only_doubtful_values_and_never_how_likely_each_kind_is(rows: list[list[float]],
                                                                                      seed: int) -> None:
    reader = FaceReader(model=MODEL)
    values = np.array(rows) / np.sum(rows, axis=1, keepdims=True)
    picture = np.random.default_rng(seed).integers(0, 256, (120, 160), np.uint8)
    tops = [(20.0 + 10 * i, 30.0, 25.0, 20.0) for i in range(len(values))]
    looked = reader.second_look(picture, values.copy(), tops, "auto")  # type: ignore[arg-type]  # float boxes, cropped as they are
    sure = (values[:, 0] < 0.5) & (values[:, 1:].max(1) >= reader.threshold)
    assert np.array_equal(looked[sure], values[sure])  # a sure first look stands
    d6 = [c.startswith("d6") for c in F.CLASSES]
    d8 = [c.startswith("d8") for c in F.CLASSES]
    assert np.allclose(looked[:, 0], values[:, 0])  # "not a die" is the first look's
    assert np.allclose(looked[:, d6].sum(1), values[:, d6].sum(1))  # so is each kind's share
    assert np.allclose(looked[:, d8].sum(1), values[:, d8].sum(1))
    assert np.all(looked >= 0)


def test_a_value_stands_only_where_both_face_networks_lean_to_it() -> None:
    """The two face networks' chances are taken together (facenet.agreed): rendered pip dice that
    both read are read; with the second network's value head turned to lean to the next face, the
    dice are withheld (one the first network read at 0.998 stands), never read as the second's lean."""
    rng = np.random.default_rng(4243)
    shots = [tile(rng, style="pips") for _ in range(12)]
    crops = np.stack([F.prepare(s.image, s.dice[0]["box"]) for s in shots])  # type: ignore[arg-type]
    values = [s.dice[0]["value"] for s in shots]
    pair = FaceReader(profile=shipped_faces())
    assert pair.second is not None
    boxes: list[Box] = [(0, 0, 1, 1)] * len(crops)
    read = pair.read_crops(crops, boxes, "d6")
    assert sum(d is not None and d.value == v for d, v in zip(read, values)) >= RIGHT_TOGETHER
    net, head = pair.second
    turned = head.copy()
    turned[D6_ROWS] = np.roll(head[D6_ROWS], 1, axis=0)  # the row of d6:v now answers for d6:v+1
    pair.second = (net, turned)
    again = pair.read_crops(crops, boxes, "d6")
    assert all(d is not None and d.value in (None, v) for d, v in zip(again, values)), again  # never its lean
    assert sum(d is not None and d.value is None for d in again) >= WITHHELD_APART, again
