"""The calibration screen's work off the main loop: showing the camera each face, then learning, on threads.

    Showing: stops the table's camera, opens the source for the kind chosen, and walks `vision.guide.Guide`
             (the same steps as `nova-table dice calibrate`), posting each step, the frames at most
             FRAMES_PER_SECOND, and `Moved` once the view at rest last read changes, to the main loop;
             `Ended` when every face is shown, stopped or failed
    Learning: `vision.learn.checked` on the views' manifest (the check, then the profile), posting `Progress`
             from each step of the fine-tunes; `Learned` with the profile (not written yet), or `Ended` with why

Each thread only posts pygame events (`inputs.post_calibration`, with the work that posts it: a message of work
cancelled before is known by it); the main loop alone touches the app. `stop` ends either at the next frame or
the next step of a fine-tune; what was kept stays kept (the views' folder goes on next time).
"""

from __future__ import annotations

import importlib.util
import os
import threading
import time
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from assistant.ui.inputs import post_calibration

if TYPE_CHECKING:
    from assistant.ui.devices import TableCamera
    from assistant.vision.heldout import Comparison
    from assistant.vision.profile import Profile

FRAMES_PER_SECOND = 10  # the live view is drawn anew at most this often (a Pi's screen has other work)
PROFILE_NAME = "dice.profile.json"
JOIN_SECONDS = 30.0  # how long closing the app waits for a calibration's thread: a frame, or a fine-tune's step


def default_profile() -> Path:
    """The table's own dice where neither `--dice-profile` nor the hardware file names a profile: what the
    calibration screen writes, in the user's data folder ($XDG_DATA_HOME/nova-table, ~/.local/share/nova-table),
    and what `play` reads then."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "nova-table" / PROFILE_NAME


def has_pytorch() -> bool:
    """Whether the fine-tune can run here (the `learn` extra: PyTorch and the face network's code), not imported."""
    return all(importlib.util.find_spec(name) is not None for name in ("torch", "efficientnet_lite_pytorch"))


def install_words() -> str:
    """How a maker adds PyTorch, as `dice learn` says it."""
    from assistant.vision.pytorch import ADD

    return ADD


@dataclass(frozen=True)
class Frame:
    """The camera's newest frame (BGR)."""

    image: np.ndarray


@dataclass(frozen=True)
class Moved:
    """The camera's view changed since the view at rest last read: its dice are not where they were found."""


@dataclass(frozen=True)
class Progress:
    """Learning: `phase` 0 the check (learned without some views), 1 the profile (every view); `share` of it done."""

    phase: int
    share: float


@dataclass(frozen=True)
class Learned:
    """The profile learned (not written yet) and the held-out check (None: too few views to hold any out)."""

    profile: Profile
    check: Comparison | None


@dataclass(frozen=True)
class Ended:
    """A thread's end: `short` faces still to show (Showing), or why it failed ("" for none)."""

    short: tuple[int, ...] = ()
    why: str = ""


class Cancelled(Exception):
    """The screen was left: the fine-tune stops at its next step."""


class Work:
    """A thread of the calibration; `stop()` asks it to end, `join` waits for it."""

    def __init__(self) -> None:
        self.halt = threading.Event()
        self.thread = threading.Thread(target=self._run, name=f"calibration-{type(self).__name__.lower()}", daemon=True)

    def start(self) -> Work:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.halt.set()

    def close(self) -> None:
        """Stopped, and waited for (the app closing: a thread left inside OpenCV or PyTorch at exit aborts it)."""
        self.stop()
        self.thread.join(JOIN_SECONDS)

    @property
    def done(self) -> bool:
        return not self.thread.is_alive()

    def post(self, message: object) -> None:
        post_calibration(self, message)

    def _run(self) -> None:
        try:
            self.post(self.run())
        except Cancelled:
            self.post(Ended(why="cancelled"))
        except Exception as error:  # the camera, the folder, the network: said on the screen, the table goes on
            from assistant.vision.errors import VisionError

            if not isinstance(error, (VisionError, OSError)):
                self.post(traceback.format_exc())  # for the journal: a fault of ours, where it lies
            self.post(Ended(why=str(error) if isinstance(error, (VisionError, OSError)) else
                            f"{type(error).__name__}: {error}"))

    def run(self) -> object:  # pragma: no cover - each work has its own
        raise NotImplementedError


class Showing(Work):
    """Ask for each face of `kind` until `folder` holds `views` views of it (`vision.guide`), the table's camera
    (`camera`) stopped first: one camera, one reader of it."""

    def __init__(self, camera: TableCamera, kind: str, folder: Path, views: int) -> None:
        super().__init__()
        self.camera, self.kind, self.folder, self.views = camera, kind, folder, views
        self.shown = 0.0  # when a frame was posted last
        self.last: np.ndarray | None = None  # the frame read last
        self.since: Any = None  # a settle.SettleDetector anchored on the view at rest last read, till it moves

    def run(self) -> Ended:
        from assistant.vision.guide import Guide, Seen
        from assistant.vision.reader import DiceReader
        from assistant.vision.settle import SettleDetector
        from assistant.vision.snapshots import Snapshots
        from assistant.vision.sources import open_source
        from assistant.vision.tray import TrayFinder

        self.camera.stop()
        reader = DiceReader(self.kind)
        reader.warm()
        with open_source(self.camera.source, self.kind) as source:
            guide = Guide(Live(source, self.frame), reader, self.kind, Snapshots(self.folder), self.views,
                          finder=TrayFinder() if self.camera.tray else None, say=self.note, stop=self.halt)
            for step in guide.steps():
                if isinstance(step, Seen) and self.last is not None:  # the frame read last is the view at rest
                    self.since = SettleDetector()
                    self.since.update(self.last)
                    self.post(Frame(self.last))
                self.post(step)
            return Ended(tuple(guide.short()), "cancelled" if self.halt.is_set() else "")

    def frame(self, image: np.ndarray) -> None:
        self.last = image
        if self.since is not None:
            self.since.update(image)
            if self.since.still == 1:  # not the view at rest any more: a run of another view begins
                self.since = None
                self.post(Moved())
        now = time.monotonic()
        if now - self.shown >= 1 / FRAMES_PER_SECOND:
            self.shown = now
            self.post(Frame(image))

    def note(self, words: str) -> None:
        self.post(words)  # the camera's own notes (exposure held, no tray markers): for the log


class Live:
    """A frame source that hands each frame it gives to `shown` too (the screen's live view); otherwise the
    source itself (its `ask`, `lock` and the rest)."""

    def __init__(self, source: Any, shown: Any) -> None:
        self._source, self._shown = source, shown

    def read(self) -> np.ndarray | None:
        frame: np.ndarray | None = self._source.read()
        if frame is not None:
            self._shown(frame)
        return frame

    def __getattr__(self, name: str) -> Any:
        return getattr(self._source, name)


class Learning(Work):
    """The profile learned from the views of `manifest` (`steps` batches a fine-tune: as tune.plan says where None)."""

    def __init__(self, manifest: Path, steps: int | None) -> None:
        super().__init__()
        self.manifest, self.steps = manifest, steps

    def run(self) -> Learned:
        from assistant.vision.errors import ProfileError
        from assistant.vision.learn import checked, entries_of, examples
        from assistant.vision import pytorch

        pytorch.check()  # PyTorch importable, before the views are read
        entries = entries_of(self.manifest, self.note)
        found = examples(entries, self.note)
        if not found.faces:
            raise ProfileError("no view kept to learn from: show the camera each face first")
        profile, check = checked(self.manifest, entries, found, self.steps, self.progress(0), self.progress(1),
                                 self.note)
        return Learned(profile, check)

    def progress(self, phase: int) -> Any:
        def done(share: float) -> None:
            if self.halt.is_set():
                raise Cancelled
            self.post(Progress(phase, share))

        return done

    def note(self, words: str) -> None:
        if self.halt.is_set():
            raise Cancelled
        self.post(words)
