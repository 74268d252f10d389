"""Frame sources behind one interface: a folder of images, OpenCV capture, rendered dice, picamera2.

Every source has `read() -> frame or None` (None: no more frames) and `close()`, and is a
context manager; a `live` one is a camera, whose None means it is lost, not done. `open_source(spec)`
chooses one by name, or by what is present ("auto"): picamera2 on a Pi with a camera, else the first
OpenCV camera, else rendered dice.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Protocol

import numpy as np

from assistant.vision.command import say, whole
from assistant.vision.errors import ImageError, SourceError
from assistant.vision.images import IMAGE_SUFFIXES, check_frame, load_image, quiet_opencv

if TYPE_CHECKING:
    from assistant.vision.render import Label  # the renderer loads only when rendered dice are asked for

DROPPED = 1.0  # seconds of failed reads a USB camera is given before it counts as lost (a dropped frame is not)
Roll = tuple[str, int]  # the kind ("d6", "d8") and the number of dice a roll takes (0: not said)
STAND_IN = "no camera found: rendered dice stand in"  # what `auto` says when it opens rendered dice


class FrameSource(Protocol):
    """What gives frames: `read()` the next one (BGR), or None when there are no more."""

    name: str
    live: bool  # a camera: no frame from it means it is lost (unplugged), not that it is done

    def read(self) -> np.ndarray | None: ...


class _Closing:
    name = "source"
    live = False

    def read(self) -> np.ndarray | None:  # pragma: no cover - every source overrides
        raise NotImplementedError

    def close(self) -> None:
        pass

    def __enter__(self) -> _Closing:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def frames(self) -> Iterator[np.ndarray]:
        """Every frame until the source runs dry."""
        while (frame := self.read()) is not None:
            yield frame


class ImageFolderSource(_Closing):
    """The pictures in a folder, in name order; unusable files are reported and skipped."""

    def __init__(self, folder: Path, loop: bool = False,
                 report: Callable[[str], None] = lambda s: print(s, file=sys.stderr)) -> None:
        if not folder.is_dir():
            raise SourceError(f"{folder}: {'not a folder' if folder.exists() else 'no such folder'}")
        try:
            self.paths = sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        except OSError as bad:
            raise SourceError(f"{folder}: cannot read this folder ({bad.strerror or bad})") from None
        if not self.paths:
            raise SourceError(f"{folder}: no pictures in it")
        self.name = f"folder:{folder}"
        self.loop = loop
        self.report = report
        self.index = 0
        self.current: Path | None = None

    def read(self) -> np.ndarray | None:
        while True:
            if self.index >= len(self.paths):
                if not self.loop:
                    return None
                self.index = 0
            path = self.paths[self.index]
            self.index += 1
            try:
                frame = load_image(path)
            except ImageError as bad:
                self.report(f"skipped: {bad}")
                if not self.loop and self.index >= len(self.paths):
                    return None
                continue
            self.current = path
            return frame


class CaptureSource(_Closing):
    """OpenCV's VideoCapture: a USB webcam by index, or a video file."""

    def __init__(self, target: int | str, size: tuple[int, int] | None = (640, 480)) -> None:
        import cv2

        self.name = f"camera:{target}" if isinstance(target, int) else f"video:{target}"
        self.live = isinstance(target, int)
        if isinstance(target, str) and not Path(target).exists():
            raise SourceError(f"{target}: no such video file")
        with quiet_opencv():  # OpenCV's own warnings on a camera it cannot open: ours says it
            try:
                self.capture = cv2.VideoCapture(target)
            except cv2.error:  # a camera number too big for OpenCV
                raise SourceError(f"{self.name}: OpenCV cannot open it") from None
        if not self.capture.isOpened():
            raise SourceError(f"{self.name}: OpenCV cannot open it")
        if isinstance(target, int) and size is not None:
            self.capture.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
            self.capture.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])

    def read(self) -> np.ndarray | None:
        """The next frame; None at a video's end, or from a camera that gave none for DROPPED seconds."""
        given_up = time.monotonic() + DROPPED
        while True:
            ok, frame = self.capture.read()
            if ok and frame is not None:
                break
            if not self.live or time.monotonic() >= given_up:
                return None
            time.sleep(0.05)
        try:
            return check_frame(frame, self.name)
        except ImageError as bad:
            raise SourceError(str(bad)) from None

    def close(self) -> None:
        self.capture.release()


class RenderedSource(_Closing):
    """Rendered rolls: each roll shows dice tumbling for a few frames, then lying still.

    `labels` holds the exact dice of the frame last read (empty while they tumble). Asked to show a
    face (`ask`, as `dice calibrate` asks the table), it plays the player: the dice are picked up,
    and from then on every roll lands with that face up. `rolling`, where given, tells the roll the
    table makes now (`Roll`: as the open form asks; None: any dice): each roll throws those dice.
    """

    def __init__(self, seed: int = 0, rolls: int = 0, moving: int = 4, still: int = 8,
                 size: tuple[int, int] = (640, 480), style: str | None = None,
                 rolling: Callable[[], Roll | None] | None = None) -> None:
        self.name = "render"
        self.rolling = rolling
        self.throwing = style  # the style of this roll's dice
        self.rng = np.random.default_rng(seed)
        self.rolls, self.moving, self.still, self.size, self.style = rolls, moving, still, size, style
        self.roll = 0
        self.step = 0
        self.settled: np.ndarray | None = None
        self.labels: list[Label] = []
        self.noise = np.random.default_rng(seed + 1)
        self.value: int | None = None  # the face every die shows, once asked
        self.count: int | None = None  # the dice on the tray (None: 1 to 6, a new number each roll)

    def ask(self, kind: str, value: int) -> None:
        from assistant.vision.render import STYLE_OF_KIND

        self.value, self.style = value, STYLE_OF_KIND[kind]  # the style draws dice of that kind
        if self.step:  # picked up: this roll is over, a new one starts
            self.step = 0
            self.roll += 1

    def read(self) -> np.ndarray | None:
        from assistant.vision.render import STYLE_OF_KIND, scene

        if self.step == 0:
            if self.rolls and self.roll >= self.rolls:
                return None
            roll = self.rolling() if self.rolling is not None and self.value is None else None
            self.throwing = STYLE_OF_KIND[roll[0]] if roll is not None else self.style
            count = roll[1] if roll is not None and roll[1] > 0 else self.count
            shot = scene(self.rng, self.size, count, style=self.throwing, value=self.value, noise=0.0)
            self.settled, self.final_labels = shot.image, shot.dice
        assert self.settled is not None
        if self.step < self.moving:
            # tumbling: the dice are somewhere else every frame
            frame = scene(self.rng, self.size, style=self.throwing, noise=0.0).image
            self.labels = []
        else:
            frame = self.settled
            self.labels = list(self.final_labels)
        self.step += 1
        if self.step >= self.moving + self.still:
            self.step = 0
            self.roll += 1
        grain = self.noise.normal(0, 2.0, frame.shape)
        return np.clip(frame.astype(np.float32) + grain, 0, 255).astype(np.uint8)


def number_in(spec: str) -> int:
    """The N of `spec` ("camera:N", "render:N"; 0 when not given), or SourceError unless it is a whole number 0 or more."""
    name, _, arg = spec.partition(":")
    try:
        return whole(arg or "0")
    except argparse.ArgumentTypeError:
        raise SourceError(f"{spec}: {name}:N needs a number 0 or more") from None


def check_spec(spec: str) -> None:
    """SourceError unless `spec` is a source's name `open_source` takes (nothing is opened)."""
    name, colon, arg = spec.partition(":")
    if spec != "auto" and name not in ("picamera", "camera", "video", "folder", "render"):
        raise SourceError(f"{spec}: unknown source (picamera, camera:N, video:FILE, folder:DIR, render, auto)")
    if name == "picamera" and colon:
        raise SourceError(f"{spec}: picamera takes nothing after it (the Pi's camera)")
    needs = {"video": ("FILE", "file"), "folder": ("DIR", "folder")}
    if name in needs and not arg:
        raise SourceError(f"{spec}: {name}:{needs[name][0]} needs the {needs[name][1]}")
    if name == "video" and not os.path.isfile(path_in(spec)):
        raise SourceError(f"{path_in(spec)}: {'not a file' if os.path.exists(path_in(spec)) else 'no such video file'}")
    if name == "folder" and not os.path.isdir(path_in(spec)):
        raise SourceError(f"{path_in(spec)}: {'not a folder' if os.path.exists(path_in(spec)) else 'no such folder'}")
    if name in ("camera", "render"):
        if colon and not arg:
            raise SourceError(f"{spec}: {name}:N needs the number after the colon ({name} alone is {name}:0)")
        number_in(spec)


def path_in(spec: str) -> Path:
    """The FILE or DIR of "video:FILE" or "folder:DIR", ~ standing for the home folder (no shell expands it
    after the colon)."""
    return Path(spec.partition(":")[2]).expanduser()


def open_source(spec: str, kind: str = "auto", rolling: Callable[[], Roll | None] | None = None) -> _Closing:
    """The source named by `spec`: picamera, camera:N, video:FILE, folder:DIR, render[:SEED], or auto.
    Rendered rolls are of the dice a reader of `kind` reads (d8: Nova Aetas d8; d6: pip d6; auto: any),
    or the roll `rolling` tells for each (`RenderedSource`). `auto` with no camera opens rendered dice,
    and says that they stand in."""
    from assistant.vision.render import STYLE_OF_KIND

    check_spec(spec)
    if spec == "auto":
        from assistant.vision import picamera

        if picamera.available():
            return picamera.PiCameraSource()
        try:
            return CaptureSource(0)
        except SourceError:
            say(STAND_IN)
            return RenderedSource(style=STYLE_OF_KIND[kind], rolling=rolling)
    name, _, arg = spec.partition(":")
    if name == "picamera":
        from assistant.vision import picamera

        return picamera.PiCameraSource()
    if name == "camera":
        return CaptureSource(number_in(spec))
    if name == "video":
        return CaptureSource(str(path_in(spec)), size=None)
    if name == "folder":
        return ImageFolderSource(path_in(spec))
    return RenderedSource(seed=number_in(spec), style=STYLE_OF_KIND[kind], rolling=rolling)
