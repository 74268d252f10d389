"""One ONNX network, run by onnxruntime where it is installed, else by OpenCV's dnn module.

onnxruntime runs these small networks 2 to 3.6 times faster than OpenCV's dnn on one thread here
(whole frames 1.5 times: `benchmarks/dice_runtimes.py`); it has wheels for 64-bit Linux (x86_64, aarch64: a Pi 4 or 5 on 64-bit
Raspberry Pi OS) and none for 32-bit ARM, where OpenCV's dnn, always present, runs them.
Either way a network uses as many threads as OpenCV is set to (`cv2.setNumThreads`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np


class NetworkError(Exception):
    """The model cannot be loaded (corrupt, not ONNX, an operation the runtime lacks) or cannot run
    on the batch given; one line, the runtime's own reason."""


def onnxruntime() -> Any | None:
    """The onnxruntime module, or None where it is not installed."""
    try:
        import onnxruntime as ort
    except ImportError:
        return None
    return ort


def runtime() -> str:
    """What runs the networks here, with its version: for benchmarks' and logs' headers."""
    ort = onnxruntime()
    return f"onnxruntime {ort.__version__}" if ort is not None else f"OpenCV {cv2.__version__} dnn"


class Network:
    """`run(batch)` gives the model's first output for an (N, C, H, W) float32 batch.

    `engine`: OpenCV 5's dnn engine for the fallback ("ENGINE_NEW" or "ENGINE_CLASSIC"; the faster one
    differs by network)."""

    def __init__(self, path: Path | bytes, engine: str, name: str = "") -> None:
        """`path`: the model's file, or its bytes (a profile's network: `name` says whose, in messages)."""
        self.path = path if isinstance(path, Path) else Path(name or "network")
        source = str(path) if isinstance(path, Path) else path
        ort = onnxruntime()
        self.runtime = "opencv" if ort is None else "onnxruntime"
        if ort is not None:
            options = ort.SessionOptions()
            options.intra_op_num_threads = max(1, cv2.getNumThreads())
            options.inter_op_num_threads = 1
            # no worker threads spinning between runs: on the Pi the touchscreen wants those cores
            options.add_session_config_entry("session.intra_op.allow_spinning", "0")
            options.log_severity_level = 3  # errors only: its warnings are not the table's business
            try:
                self.session = ort.InferenceSession(source, options, providers=["CPUExecutionProvider"])
            except Exception as bad:  # noqa: BLE001 - onnxruntime raises its own kinds for a bad file
                raise NetworkError(_line(bad, self.path)) from None
            self.input = self.session.get_inputs()[0].name
            return
        if not hasattr(cv2, "dnn"):
            raise NetworkError("this OpenCV has no dnn module")
        chosen = getattr(cv2.dnn, engine, None)  # OpenCV 4 has one engine
        try:
            data = source if isinstance(source, str) else np.frombuffer(source, np.uint8)
            self.net = cv2.dnn.readNetFromONNX(data) if chosen is None else cv2.dnn.readNetFromONNX(data, chosen)
        except Exception as bad:  # noqa: BLE001 - cv2.error, and what its importer lets through
            raise NetworkError(_line(bad, self.path)) from None

    def run(self, batch: np.ndarray) -> np.ndarray:
        batch = np.ascontiguousarray(batch, np.float32)
        try:
            if self.runtime == "onnxruntime":
                out = self.session.run(None, {self.input: batch})[0]
            else:
                self.net.setInput(batch)
                out = self.net.forward()
        except Exception as bad:  # noqa: BLE001 - each runtime raises its own kinds
            raise NetworkError(_line(bad, self.path)) from None
        return np.asarray(out, np.float32)

    def takes(self) -> tuple[object, ...] | None:
        """The input's shape as the model declares it, a side left open by its name (None where OpenCV runs it)."""
        return tuple(self.session.get_inputs()[0].shape) if self.runtime == "onnxruntime" else None


Shape = tuple[int, ...]
REINSTALL = "reinstall Nova Table (python3 bootstrap.py)"


def load(path: Path | bytes, what: str, name: str = "", fits: Sequence[tuple[Shape, Shape]] = ()) -> Network:
    """A network to run, or ModelError saying what is wrong with it (`what`: which network, in words). `fits`: the
    shapes of batches its caller feeds it, each with the output's it reads back: each tried on zeros (on either
    runtime: the shapes an ONNX file declares may be symbolic, and OpenCV runs some networks on what they do not
    declare)."""
    from assistant.vision.errors import ModelError

    where = str(path) if isinstance(path, Path) else name or "network"
    if isinstance(path, Path) and not path.is_file():
        raise ModelError(f"{where}: the {what} is missing: {REINSTALL}")
    try:
        net = Network(path, "ENGINE_NEW", name)
    except NetworkError as bad:
        raise ModelError(f"{where}: the {what} cannot be loaded ({bad})") from None
    for fed, gives in fits:
        why = misfit(net, fed, gives)
        if why is not None:  # a shipped model is reinstalled; a profile's caller says what to do
            raise ModelError(f"{where}: the {what} does not fit the reader ({why})"
                             + (f": {REINSTALL}" if isinstance(path, Path) else ""))
    return net


def misfit(net: Network, fed: Shape, gives: Shape) -> str | None:
    """How `net` fails a batch of zeros of shape `fed` or gives an output of another shape than `gives`; None: it fits."""
    try:
        out = net.run(np.zeros(fed, np.float32))
    except NetworkError as bad:
        takes = net.takes()
        other = takes is not None and (len(takes) != len(fed) or any(isinstance(t, int) and t != f
                                                                       for t, f in zip(takes, fed)))
        return f"fed {dims(fed)} it fails: " + (f"it takes {dims(takes or ())}" if other else str(bad))
    if out.shape != gives:
        return f"fed {dims(fed)} it gives {dims(out.shape)}, not {dims(gives)}"
    return None


def dims(shape: Sequence[object]) -> str:
    """A shape in words: "2 x 3 x 96 x 96"."""
    return " x ".join(str(side) for side in shape) or "a single number"


def _line(bad: Exception, path: Path) -> str:
    """The line of a runtime's error that says what went wrong (onnxruntime's first, OpenCV's last), less
    what the caller's message already says."""
    lines = str(bad).strip().splitlines() or [type(bad).__name__]
    text = next((line for line in lines if line.startswith("[ONNXRuntimeError]")), lines[-1])
    text = re.sub(r"^\[ONNXRuntimeError\] : \d+ : (\w+) : ", r"\1: ", text)
    return text.replace(f"Load model from {path} failed:", "").strip()[-160:]
