"""Stand-ins for calibrate_work.learn_apart, run in the learning's process: the learning library crashing it."""

from __future__ import annotations

import os
import resource
import signal
from pathlib import Path
from typing import Any

from assistant.ui.calibrate_work import Progress, learn_apart


def illegal_instruction(manifest: Path, steps: int | None, out: Any) -> None:
    """A step learned, then a SIGILL, as PyTorch's on a CPU without the instructions it was built for."""
    out.send(Progress(0, 0.5))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # no core file left behind
    os.kill(os.getpid(), signal.SIGILL)


def raising(manifest: Path, steps: int | None, out: Any) -> None:
    """The real learning, its fine-tune raising PyTorch's kind of error."""
    from assistant.vision import learn

    def fails(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("could not create a primitive descriptor for a convolution forward propagation primitive")

    learn.checked = fails
    learn_apart(manifest, steps, out)
