"""Watch a frame source: when the dice settle, read them once and hand the reading on."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

from assistant.vision.command import say, warmed
from assistant.vision.errors import CameraLost, SourceError
from assistant.vision.exposure import ExposureHold
from assistant.vision.profile import load
from assistant.vision.reader import DiceReader
from assistant.vision.settle import STILL_FRAMES, SettleDetector
from assistant.vision.snapshots import Snapshots
from assistant.vision.sources import FrameSource, Roll, open_source
from assistant.vision.tray import TrayFinder, TrayView


def settled_views(source: FrameSource, finder: TrayFinder | None, say: Callable[[str], None] = say,
                  max_frames: int = 0, stop: threading.Event | None = None
                  ) -> Iterator[tuple[int, np.ndarray, TrayView | None]]:
    """(frame number, the picture to read, the tray's view or None) each time the dice come to rest:
    the tray's top view with `finder`, else the frame. It ends when the source does, after
    `max_frames` (0: no limit), or once `stop` is set; a camera that stops giving frames raises
    CameraLost, a source that gives not one frame (every picture of a folder unusable) SourceError.
    A camera that can hold its exposure holds it
    from the first rest on (`exposure.ExposureHold`); what it does is said."""
    settle = SettleDetector()
    hold = ExposureHold(source)
    count = 0
    unmarked = False  # said that no tray markers were seen
    while (max_frames <= 0 or count < max_frames) and not (stop is not None and stop.is_set()):
        frame = source.read()
        if frame is None:
            if source.live:
                raise CameraLost(source.name)
            if count == 0:
                raise SourceError(f"{source.name}: not one frame could be read from it")
            return
        count += 1
        if not settle.update(frame):
            continue
        if note := hold.settled(frame):
            say(note)
        view = finder.find(frame) if finder is not None else None
        if view is not None and view.homography is None and not unmarked:
            say(f"{source.name}: no tray markers seen ({view.markers} of ids 0 to 3): reading the whole frame "
                "until they are (docs/vision.md, \"Tray and settling\")")
            unmarked = True
        yield count, (view.image if view is not None else frame), view


def watch(source_spec: str, *, tray: bool, kind: str, profile_path: Path | None, max_frames: int,
          emit: Callable[[dict[str, Any]], None], stop: threading.Event | None = None,
          save: Path | None = None, rolling: Callable[[], Roll | None] | None = None) -> int:
    """Read every settled view from the source (`settled_views`); `emit` gets {"frame", "dice"} per
    reading. With `save`, each view read is kept there with its reading (`snapshots.py`), and its
    record says where ("saved"). `rolling`: the roll the table makes now, for the rendered stand-in
    (`sources.RenderedSource`)."""
    snapshots = Snapshots(save) if save is not None else None  # a folder it cannot write to: said first
    reader = warmed(DiceReader(kind, load(profile_path) if profile_path else None))
    if snapshots is not None:
        say(f"keeping each settled view in {snapshots.folder}: check {snapshots.manifest} against "
            f"{snapshots.folder / 'seen'}, then `nova-table dice learn {snapshots.manifest} --out PROFILE`")
    read = False  # any view
    with open_source(source_spec, reader.kind, rolling) as source:
        for count, seen, view in settled_views(source, TrayFinder() if tray else None, max_frames=max_frames,
                                               stop=stop):
            read = True
            reading = reader.read(seen)
            dice = [d.to_json() if view is None else dict(d.to_json(), box=list(view.to_frame(d.box)))
                    for d in reading.dice]
            record: dict[str, Any] = {"frame": count, "source": source.name, "dice": dice}
            if snapshots is not None:
                record["saved"] = snapshots.keep(seen, reading.dice)
            emit(record)
        if not read and not (stop is not None and stop.is_set()):
            say(f"{source.name}: no view came to rest, so nothing was read (a view is read once "
                f"{STILL_FRAMES} frames in a row look the same: photos that all differ never do)")
            return 1
    return 0
