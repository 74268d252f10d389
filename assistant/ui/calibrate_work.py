"""The calibration screen's work off the main loop: showing the camera each face, then learning, on threads.

    Showing: stops the table's camera, opens the source for the kind chosen, and walks `vision.guide.Guide`
             (the same steps as `nova-table dice calibrate`), posting each step, the frames at most
             FRAMES_PER_SECOND, and `Moved` once the view at rest last read changes, to the main loop;
             `Ended` when every face is shown, stopped or failed
    Learning: `vision.learn.checked` on the views' manifest (the check, then the profile) in a process of its own
             (`learn_apart`: a crash of PyTorch, a SIGILL or SIGSEGV, ends that process, not the table), posting
             `Progress` from each step of the fine-tunes; `Learned` with the profile (not written yet), or `Ended`
             with why (an error's last line, the signal that ended the process)

Each thread only posts pygame events (`inputs.post_calibration`, with the work that posts it: a message of work
cancelled before is known by it); the main loop alone touches the app. `stop` ends either at the next frame or,
the learning's process ended, at once; what was kept stays kept (the views' folder goes on next time).
"""

from __future__ import annotations

import importlib.util
import multiprocessing
import os
import signal
import threading
import time
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

    from assistant.ui.devices import TableCamera
    from assistant.vision.heldout import Comparison
    from assistant.vision.profile import Profile

FRAMES_PER_SECOND = 10  # the live view is drawn anew at most this often (a Pi's screen has other work)
PROFILE_NAME = "dice.profile.json"
JOIN_SECONDS = 30.0  # how long closing the app waits for a calibration's thread: a frame, or a fine-tune's step
LOOK_SECONDS = 0.1  # how often the learning's thread looks whether it was stopped, or its process ended


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
        from assistant.ui.inputs import post_calibration  # (here: the learning's process has no pygame)

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


@dataclass(frozen=True)
class Failed:
    """The learning's process: an error stopped it (`why`: its last line), and where it lay, for the journal ("" for
    a problem of the views, said alone)."""

    why: str
    trace: str = ""


class Learning(Work):
    """The profile learned from the views of `manifest` (`steps` batches a fine-tune: as tune.plan says where None),
    in a process of its own: its messages posted as they come; `stop` ends it."""

    def __init__(self, manifest: Path, steps: int | None) -> None:
        super().__init__()
        self.manifest, self.steps = manifest, steps

    def run(self) -> Learned:
        from assistant.vision.errors import VisionError

        spawn = multiprocessing.get_context("spawn")  # a fresh interpreter: no copy of the app's threads or display
        heard, said = spawn.Pipe(duplex=False)
        apart = spawn.Process(target=learn_apart, args=(self.manifest, self.steps, said), name="nova-table-learning",
                              daemon=True)
        apart.start()
        said.close()  # the process's end alone now: when it ends, `heard` says so
        try:
            while not self.halt.is_set():
                if not heard.poll(LOOK_SECONDS):
                    continue
                try:
                    message = heard.recv()
                except EOFError:  # the process ended before it said it was done
                    apart.join()
                    raise VisionError(ended_why(apart.exitcode)) from None
                if isinstance(message, Learned):
                    return message
                if isinstance(message, Failed):
                    if message.trace:
                        self.post(message.trace)  # for the journal: a fault of ours, or of the library, where it lies
                    raise VisionError(message.why)
                self.post(message)
            raise Cancelled
        finally:
            heard.close()
            if apart.is_alive():
                apart.kill()
            apart.join()


def ended_why(code: int | None) -> str:
    """Why the learning's process ended without a profile, from its exit status (negative: the signal that ended it)."""
    if code is not None and code < 0:
        number = -code
        name = signal.Signals(number).name if number in signal.valid_signals() else f"signal {number}"
        return f"the learning's process was ended by {name} ({signal.strsignal(number) or 'a signal'})"
    return f"the learning's process ended with exit status {code} before it was done"


def learn_apart(manifest: Path, steps: int | None, out: Connection) -> None:
    """The learning's process: `vision.learn.checked` on `manifest`, each note and step sent on `out`, then `Learned`,
    or `Failed` with why."""
    from assistant.vision import pytorch
    from assistant.vision.errors import ProfileError, VisionError
    from assistant.vision.learn import checked, entries_of, examples

    def progress(phase: int) -> Any:
        return lambda share: out.send(Progress(phase, share))

    try:
        pytorch.check()  # PyTorch importable, before the views are read (as `dice learn`)
        entries = entries_of(manifest, out.send)
        found = examples(entries, out.send)
        if not found.faces:
            raise ProfileError("no view kept to learn from: show the camera each face first")
        profile, check = checked(manifest, entries, found, steps, progress(0), progress(1), out.send)
        out.send(Learned(profile, check))
    except (VisionError, OSError) as problem:  # the views, the folder: said on the screen
        out.send(Failed(str(problem)))
    except Exception as error:  # a fault of ours or of PyTorch: said, and where it lies for the journal
        out.send(Failed(f"{type(error).__name__}: {error}", traceback.format_exc()))
    finally:
        out.close()
