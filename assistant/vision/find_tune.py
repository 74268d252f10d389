"""Find, tuned: the finder network in PyTorch, and fine-tuned on a table's own pictures (`dice learn`).

    pictures whose every die is labelled, whole-die boxes -> random CROP x CROP views at the scales the
    finder reads them (SCALES of the working image), mirrored, turned, relit
    -> the shipped finder (models/finder.pt) trained on them for STEPS batches of BATCH at a peak rate of RATE,
       its batch norms kept; loss: CenterNet's focal loss on the centre map, L1 on offset and log size
    -> exported to ONNX: the profile's finder (profile.py)

calibration/train_finder.py trains the shipped finder with the same network, views and loss. PyTorch is
needed here only; find.py runs the exported network.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from assistant.vision import find

WEIGHTS = Path(__file__).resolve().parent / "models" / "finder.pt"
CHANNELS = (32, 64, 128, 192)  # the shipped finder's widths
CROP = 256  # a training view's side, network pixels
BATCH = 8
# Tray, learned from photos 1-10 and finding the other 4 at find.SIDE: 91.2 % found, 2.0 false a picture;
# after 150 batches at 1e-3: 98.8 % (the false finds on the tablecloth outside the tray, which the face
# network's "none" learns).
STEPS = 150
RATE = 1e-3
SCALES = (0.4, 1.1)  # a view's scale, of the working image (find.SIDE and find.FINE are 0.5 and 1 of 640 px)


def network(channels: tuple[int, int, int, int] = CHANNELS) -> tuple[Any, Any]:
    """The finder to train (its five outputs raw), and what is exported of it (the centre chance squashed
    to 0..1): a depthwise-separable encoder to 1/16 and back to 1/4 (find.STRIDE)."""
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    def cbr(i: int, o: int, s: int = 1, k: int = 3, d: int = 1, g: int = 1) -> nn.Sequential:
        return nn.Sequential(nn.Conv2d(i, o, k, s, padding=d * (k // 2), dilation=d, groups=g, bias=False),
                             nn.BatchNorm2d(o), nn.ReLU(inplace=True))

    def sep(i: int, o: int, s: int = 1, d: int = 1) -> nn.Sequential:
        return nn.Sequential(cbr(i, i, s, 3, d, g=i), cbr(i, o, 1, 1))

    class Net(nn.Module):
        def __init__(self, c: tuple[int, int, int, int]) -> None:
            super().__init__()
            self.s1 = cbr(3, c[0], 2)
            self.s2 = nn.Sequential(sep(c[0], c[1], 2), sep(c[1], c[1]))
            self.s3 = nn.Sequential(sep(c[1], c[2], 2), sep(c[2], c[2]))
            self.s4 = nn.Sequential(sep(c[2], c[3], 2), sep(c[3], c[3]), sep(c[3], c[3], d=2))
            self.f3, self.l3 = cbr(c[3] + c[2], c[2], k=1), sep(c[2], c[2])
            self.f2, self.l2 = cbr(c[2] + c[1], c[1], k=1), sep(c[1], c[1])
            self.head = nn.Conv2d(c[1], 5, 1)  # find.py's outputs
            with torch.no_grad():
                bias = self.head.bias
                assert bias is not None
                bias.zero_()
                bias[0] = -4.0  # few cells hold a centre

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            x = x * (1 / 255.0) - 0.5
            x2 = self.s2(self.s1(x))
            x3 = self.s3(x2)
            x4 = self.s4(x3)
            y = self.l3(self.f3(torch.cat([F.interpolate(x4, scale_factor=2.0, mode="nearest"), x3], 1)))
            y = self.l2(self.f2(torch.cat([F.interpolate(y, scale_factor=2.0, mode="nearest"), x2], 1)))
            out: torch.Tensor = self.head(y)
            return out

    class Exported(nn.Module):
        def __init__(self, net: nn.Module) -> None:
            super().__init__()
            self.net = net

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            y = self.net(x)
            return torch.cat([torch.sigmoid(y[:, :1]), y[:, 1:]], 1)

    net = Net(channels)
    return net, Exported(net)


def export(exported: Any) -> bytes:
    """The finder as ONNX: (N, 3, H, W) B, G, R levels in, find.py's five maps out."""
    import torch

    exported.eval()
    out = io.BytesIO()
    torch.onnx.export(exported, (torch.zeros(1, 3, 240, 320),), out,  # type: ignore[arg-type]
                      input_names=["image"], output_names=["found"],
                      dynamic_axes={"image": {0: "n", 2: "h", 3: "w"}, "found": {0: "n", 2: "h", 3: "w"}},
                      opset_version=13, dynamo=False)
    return out.getvalue()


def photometric(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Light, colour and camera changes: brightness and contrast, white balance, a turn of every hue
    (white dice on wood become other dice on other tables), grey, blur, noise, JPEG loss."""
    out: np.ndarray = image.astype(np.float32)
    if rng.random() < 0.6:
        out = out * rng.uniform(0.65, 1.35) + rng.uniform(-25, 25)
    if rng.random() < 0.4:
        out = out * rng.uniform(0.8, 1.2, 3).astype(np.float32)
    out = np.clip(out, 0, 255).astype(np.uint8)
    r = rng.random()
    if r < 0.25:
        hsv = cv2.cvtColor(out, cv2.COLOR_BGR2HSV)
        hsv[..., 0] = ((hsv[..., 0].astype(np.int32) + int(rng.integers(0, 180))) % 180).astype(np.uint8)
        if rng.random() < 0.5:
            hsv[..., 1] = np.clip(hsv[..., 1].astype(np.float32) * rng.uniform(0.5, 2.0), 0, 255).astype(np.uint8)
        out = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)
    elif r < 0.35:
        out = out[..., rng.permutation(3)].copy()
    elif r < 0.42:
        out = cv2.cvtColor(cv2.cvtColor(out, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    if rng.random() < 0.2:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.5, 1.5))
    if rng.random() < 0.2:
        out = np.clip(out + rng.normal(0, rng.uniform(2, 8), out.shape), 0, 255).astype(np.uint8)
    if rng.random() < 0.15:
        ok, data = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(30, 90))])
        out = cv2.imdecode(data, cv2.IMREAD_COLOR)  # type: ignore[assignment]  # never None: it encoded it
    return out


def view(image: np.ndarray, boxes: np.ndarray, rng: np.random.Generator,
         scales: tuple[float, float] = SCALES) -> tuple[np.ndarray, np.ndarray]:
    """A random CROP x CROP view of `image` (its whole-die boxes N x 4) at a scale within `scales`, and its boxes there."""
    h, w = image.shape[:2]
    s = float(np.exp(rng.uniform(np.log(scales[0]), np.log(scales[1]))))
    sw, sh = w * s, h * s
    tx, ty = rng.uniform(min(0, CROP - sw), max(0, CROP - sw)), rng.uniform(min(0, CROP - sh), max(0, CROP - sh))
    mirror = rng.random() < 0.5
    m = np.array([[-s if mirror else s, 0, tx + sw if mirror else tx], [0, s, ty]], np.float32)
    out = cv2.warpAffine(image, m, (CROP, CROP), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REFLECT_101)
    b = boxes.copy()
    if len(b):
        x0, x1 = m[0, 0] * b[:, 0] + m[0, 2], m[0, 0] * (b[:, 0] + b[:, 2]) + m[0, 2]
        b = np.stack([np.minimum(x0, x1), b[:, 1] * s + ty, np.abs(x1 - x0), b[:, 3] * s], 1)
    for _ in range(int(rng.integers(4)) if rng.random() < 0.5 else 0):  # a quarter turn: (x, y) -> (y, CROP - x)
        out = np.ascontiguousarray(np.rot90(out))
        b = np.stack([b[:, 1], CROP - b[:, 0] - b[:, 2], b[:, 3], b[:, 2]], 1) if len(b) else b
    return photometric(out, rng), b


def targets(boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The centre map, the offset and log-size targets, and where they count, for one view."""
    o = CROP // find.STRIDE
    heat = np.zeros((o, o), np.float32)
    reg = np.zeros((4, o, o), np.float32)
    weight = np.zeros((o, o), np.float32)
    yy, xx = np.mgrid[0:o, 0:o].astype(np.float32)
    for x, y, w, h in boxes:
        cx, cy = (x + w / 2) / find.STRIDE, (y + h / 2) / find.STRIDE
        if not (0 <= cx < o and 0 <= cy < o) or w < 3 or h < 3:
            continue
        sigma = max(0.5, 0.1 * float(np.sqrt(w * h)) / find.STRIDE)
        heat = np.maximum(heat, np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * sigma**2)))
        gx, gy = int(cx), int(cy)
        heat[gy, gx] = 1.0
        reg[:, gy, gx] = [cx - gx, cy - gy, np.log(w / find.STRIDE), np.log(h / find.STRIDE)]
        weight[gy, gx] = 1.0
    return heat, reg, weight


def loss_of(net: Any, views: Sequence[tuple[np.ndarray, np.ndarray]]) -> Any:
    """The training loss of a batch of views: focal loss on the centre map, L1 on offset and log size at each centre."""
    import torch

    made = [targets(b) for _, b in views]
    x = torch.from_numpy(np.stack([v for v, _ in views])).permute(0, 3, 1, 2).float()
    heat, reg, weight = (torch.from_numpy(np.stack([t[k] for t in made])) for k in range(3))
    y = net(x)
    p = torch.sigmoid(y[:, 0]).clamp(1e-4, 1 - 1e-4)
    pos = heat.eq(1).float()
    focal = -(pos * (1 - p) ** 2 * torch.log(p) + (1 - pos) * (1 - heat) ** 4 * p**2 * torch.log(1 - p))
    weight = weight[:, None]
    return focal.sum() / pos.sum().clamp(min=1) + ((y[:, 1:] - reg).abs() * weight).sum() / weight.sum().clamp(min=1)


def tune(pictures: Sequence[tuple[np.ndarray, np.ndarray]], steps: int | None = None,
         progress: Callable[[float], None] = lambda share: None, seed: int = 0,
         start: dict[str, Any] | None = None) -> tuple[bytes, dict[str, Any]]:
    """The shipped finder (or the one of weights `start`, learned from some of these pictures: then tune.AGAIN of
    the batches) fine-tuned on `pictures` (B, G, R working images, each with every die's whole box, N x 4) for
    `steps` batches (None: STEPS), as ONNX bytes, and its weights."""
    import torch

    from assistant.vision.tune import again, fit, held, weights

    torch.manual_seed(seed)
    net, exported = network()
    net.load_state_dict(weights(WEIGHTS) if start is None else start)
    steps = steps or STEPS
    if start is not None:
        steps = again(steps)
    rng = np.random.default_rng(seed)
    fit(net, steps, RATE, lambda _step: loss_of(net, [view(*pictures[int(rng.integers(len(pictures)))], rng)
                                                      for _ in range(BATCH)]), progress)
    return export(exported), held(net)
