"""The finder fine-tuned at the table (find_tune.py): it starts from the finder that finds, and its views keep each
die in its box. (That a tuned finder finds more of a table's dice: test_shared_photos.py, the tray.)"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.vision import find_tune
from assistant.vision.find import MODEL
from assistant.vision.network import load
from assistant.vision.render import scene

torch = pytest.importorskip("torch", reason="dice learn needs PyTorch (the test extra installs it)")


def test_the_weights_learn_starts_from_are_the_finder_that_finds() -> None:
    from assistant.vision.tune import weights

    net, exported = find_tune.network()
    net.load_state_dict(weights(find_tune.WEIGHTS))
    image = scene(np.random.default_rng(5), (640, 480), count=6).image
    x = image.transpose(2, 0, 1)[None].astype(np.float32)
    shipped = load(MODEL, "finder network").run(x)[0]
    again = load(find_tune.export(exported), "finder network").run(x)[0]
    assert shipped.shape == (5, 120, 160)
    assert np.abs(shipped - again).max() < 1e-3


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**31))
def test_a_training_view_keeps_every_die_in_its_box(seed: int) -> None:
    """Bright squares on black, viewed at another scale, mirrored and turned: each box still holds its square."""
    rng = np.random.default_rng(seed)
    image = np.zeros((480, 640, 3), np.uint8)
    boxes = []
    for _ in range(4):
        w = float(rng.integers(30, 80))
        x, y = float(rng.integers(0, 640 - 80)), float(rng.integers(0, 480 - 80))
        image[int(y):int(y + w), int(x):int(x + w)] = 255
        boxes.append((x, y, w, w))
    view, moved = find_tune.view(image, np.array(boxes, np.float32), rng)
    grey = view.max(axis=2).astype(np.float32)
    assert view.shape == (find_tune.CROP, find_tune.CROP, 3) and moved.shape == (4, 4)
    for x, y, w, h in moved:
        x0, y0, x1, y1 = (int(round(v)) for v in (x + 0.3 * w, y + 0.3 * h, x + 0.7 * w, y + 0.7 * h))
        if x0 >= 0 and y0 >= 0 and x1 <= find_tune.CROP and y1 <= find_tune.CROP and x1 - x0 >= 2 and y1 - y0 >= 2:
            assert grey[y0:y1, x0:x1].mean() > 60, (x, y, w, h)
