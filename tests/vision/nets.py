"""Small ONNX networks written with the `onnx` package, of the shapes the reader feeds its networks and reads back
(find.FITS, read.FITS): for profiles made in tests, and swapped or changed, for profiles the reader must refuse."""

from __future__ import annotations

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from assistant.vision.find import STRIDE
from assistant.vision.read import CLASSES, SYMBOLS


def _model(nodes: list[onnx.NodeProto], weights: dict[str, np.ndarray], fed: list[str | int | None],
           gives: list[str | int | None], name: str) -> bytes:
    graph = helper.make_graph(nodes, name, [helper.make_tensor_value_info("x", TensorProto.FLOAT, fed)],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, gives)],
                              [numpy_helper.from_array(v.astype(np.float32), k) for k, v in weights.items()])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 7  # what onnxruntime and OpenCV of these years read
    onnx.checker.check_model(model)
    written: bytes = model.SerializeToString()
    return written


def finder(seed: int = 0) -> bytes:
    """(n, 3, h, w) -> (n, 5, h / STRIDE, w / STRIDE): a pooled 1 x 1 convolution, its centre map squashed to 0..1."""
    w = np.random.default_rng(seed).normal(0, 0.1, (5, 3, 1, 1))
    nodes = [helper.make_node("AveragePool", ["x"], ["p"], kernel_shape=[STRIDE, STRIDE], strides=[STRIDE, STRIDE]),
             helper.make_node("Conv", ["p", "w"], ["y"])]
    return _model(nodes, {"w": w}, ["n", 3, "h", "w"], ["n", 5, "h4", "w4"], "finder")


def face(seed: int = 0) -> bytes:
    """(n, 3, 96, 96) -> (n, len(CLASSES) + len(SYMBOLS)): the crop's mean colour, weighed."""
    rng = np.random.default_rng(seed)
    out = len(CLASSES) + len(SYMBOLS)
    nodes = [helper.make_node("GlobalAveragePool", ["x"], ["p"]), helper.make_node("Flatten", ["p"], ["f"]),
             helper.make_node("Gemm", ["f", "w", "b"], ["y"], transB=1)]
    return _model(nodes, {"w": rng.normal(0, 0.1, (out, 3)), "b": rng.normal(0, 0.1, out)}, ["n", 3, 96, 96],
                  ["n", out], "face")
