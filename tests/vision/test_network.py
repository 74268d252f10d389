"""The networks run by onnxruntime and by OpenCV's dnn (its stand-in where onnxruntime has no wheels)
give the same outputs, and the reader the same dice."""

from __future__ import annotations

import numpy as np
import pytest

from assistant.vision import crop, find, network, read
from assistant.vision.reader import DiceReader
from assistant.vision.render import scene
from tests.vision.conftest import on_opencv

needs_onnxruntime = pytest.mark.skipif(network.onnxruntime() is None, reason="onnxruntime is not installed here")


@needs_onnxruntime
@pytest.mark.parametrize("model, shapes", [
    (find.MODEL, [(1, 3, 240, 320), (1, 3, 480, 640), (1, 3, 320, 224)]),  # a frame; its fine look; a tall one
    (read.MODEL, [(5, 3, crop.SIDE, crop.SIDE)]),
])
def test_both_runtimes_give_the_same_outputs(model: object, shapes: list[tuple[int, ...]],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    fast = network.load(model, "network")  # type: ignore[arg-type]
    on_opencv(monkeypatch)
    slow = network.load(model, "network")  # type: ignore[arg-type]
    assert (fast.runtime, slow.runtime) == ("onnxruntime", "opencv")
    rng = np.random.default_rng(1)
    for shape in shapes:
        batch = rng.uniform(0, 255, shape).astype(np.float32)
        a, b = fast.run(batch), slow.run(batch)
        assert a.shape == b.shape and a.shape[0] == shape[0]
        assert float(np.abs(a - b).max()) < 1e-3 * max(1.0, float(np.abs(b).max()))


@needs_onnxruntime
def test_the_reader_reads_the_same_dice_on_either_runtime(monkeypatch: pytest.MonkeyPatch) -> None:
    frames = [scene(np.random.default_rng(seed), (640, 480), style=style).image
              for seed, style in ((11, "pips"), (12, "astro"), (13, None), (14, "numerals"))]

    def readings(runtime: str) -> list[list[tuple[str, int | None, tuple[int, int, int, int]]]]:
        reader = DiceReader("auto")
        assert {reader.finder.net.runtime, reader.faces.net.runtime} == {runtime}
        return [[(d.kind, d.value, d.box) for d in reader.read(f).dice] for f in frames]

    fast = readings("onnxruntime")
    on_opencv(monkeypatch)
    slow = readings("opencv")
    assert fast == slow
    assert sum(len(dice) for dice in fast) >= 8 and any(d[1] is not None for dice in fast for d in dice)
