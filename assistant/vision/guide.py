"""Calibrate a table's own dice by showing the camera each face: `nova-table dice calibrate`, and the table app's
calibration screen (assistant/ui/calibrate_screen.py), both through `Guide`, one step at a time.

    for each face of the kind (d6: 1..6, d8: 1..8) still short of VIEWS views in the folder:
        Asked: "turn every d8 so 3 is on top ..." -> wait until the dice come to rest (watch.settled_views)
        -> the reader finds them -> Seen: every die found is labelled with the face asked
        -> the view is kept (snapshots.py: images/, seen/ with the labels drawn, manifest.jsonl), or not and why
    then the profile is learned from the folder's manifest (`nova-table dice learn`)

No manifest to write by hand: the face asked is the label. A view is not kept where no die is
found, where the number of dice is not the number the table said it would show, where a die
lies partly out of view, or where nothing changed since the view kept before. A die
found where the view kept before looks the same (`unmoved`: not turned, or not a die at all) is
not labelled. The reader's own reading of each kept view is set beside the
labels: where it read a die otherwise, that is said (a die not turned, or one the table's dice
read wrong before calibration). The folder is added to, never overwritten: a calibration stopped
half-way (the camera unplugged, Ctrl-C, Cancel on the screen) goes on from the faces still short when run again.
"""

from __future__ import annotations

import json
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from assistant.files import MANIFEST, read_file, write_file
from assistant.vision.command import say as said_on_stderr
from assistant.vision.dice import FACES, VIEWS, Box, Die
from assistant.vision.manifest import Entry, read_manifest
from assistant.vision.reader import DiceReader
from assistant.vision.snapshots import Snapshots
from assistant.vision.sources import FrameSource
from assistant.vision.tray import TrayFinder, TrayView
from assistant.vision.watch import settled_views


def views_kept(manifest: Path, kind: str) -> Counter[int]:
    """How many views of each face of `kind` the manifest holds (a view counts once for each face in it)."""
    kept: Counter[int] = Counter()
    if manifest.exists():
        for entry in read_manifest(manifest):
            if isinstance(entry, Entry):
                kept.update({d.value for d in entry.dice if d.kind == kind})
    return kept


def forget(manifest: Path, kind: str) -> int:
    """The views of `kind` left out of `manifest`, to show its faces anew (the table app's "show anew"): its
    other lines stay as they were, and the pictures stay in the folder. How many views were left out."""
    if not manifest.exists():
        return 0
    lines = read_file(manifest, MANIFEST).decode("utf-8").splitlines(keepends=True)
    kept = [line for line in lines if not _only(line, kind)]
    if len(kept) < len(lines):
        write_file(manifest, "".join(kept), "the manifest")  # whole or not at all
    return len(lines) - len(kept)


def _only(line: str, kind: str) -> bool:
    """Whether a manifest line is a view of dice of `kind` only (a line that is not one is kept as it is)."""
    try:
        dice = json.loads(line).get("dice")
    except (ValueError, AttributeError):
        return False
    return isinstance(dice, list) and bool(dice) and all(isinstance(d, dict) and d.get("kind") == kind for d in dice)


def asking(kind: str, value: int, view: int, views: int, dice: int | None) -> str:
    which = f"all {dice} {kind}" if dice else f"every {kind}"
    return (f"{kind} face {value}, view {view} of {views}: turn {which} so that {value} is on top, spread "
            "them on the tray (not touching), and take your hands away")


def refused(found: list[Die], dice: int | None, still: list[bool] | None = None) -> str | None:
    """Why a view at rest is not kept, or None. `still`: whether each die is `unmoved`."""
    if not found:
        return "no dice seen: are they on the tray, and in the light?"
    if still and all(still):
        return "nothing changed since the view kept before: pick the dice up, turn them, and spread them again"
    if dice is not None and len(found) != dice:
        return f"{len(found)} {'die' if len(found) == 1 else 'dice'} seen, {dice} expected: spread them apart, all in view"
    if odd := [d for d in found if d.why]:
        return f"a die {odd[0].why}: spread them, all in view"
    return None


SAME_LOOK = 0.9  # a die's middle this alike (correlation of its fine detail) in the view kept before: unmoved
MIDDLE = 0.7  # the share of a die's box (each way) compared: its top face, less the table around


def detail(image: np.ndarray, box: Box) -> np.ndarray:
    """The fine detail (grey, less a blur of it) of the middle MIDDLE of `box` in `image`."""
    x, y, w, h = box
    half_w, half_h = int(w * MIDDLE / 2), int(h * MIDDLE / 2)
    cx, cy = x + w // 2, y + h // 2
    crop = image[max(0, cy - half_h):max(0, cy + half_h), max(0, cx - half_w):max(0, cx + half_w)]
    if crop.size == 0:
        return np.zeros((0, 0), np.float32)
    grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY).astype(np.float32)
    fine: np.ndarray = grey - cv2.GaussianBlur(grey, (0, 0), max(1.0, w / 12))
    return fine


def unmoved(before: np.ndarray | None, image: np.ndarray, found: list[Die]) -> list[bool]:
    """For each die found in `image`, whether its place looks the same in `before` (the view kept last,
    as the camera saw it): a die neither moved nor turned since, or something that is no die (a
    token, a mark on the tray). Measured on 480 rendered dice turned in place (3 to 5 or 6): at most 0.89;
    the same dice under heavy camera noise (6 grey levels): at least 0.92."""
    if before is None or before.shape != image.shape:
        return [False] * len(found)
    out = []
    for die in found:
        a, b = detail(before, die.box), detail(image, die.box)
        alike = float(cv2.matchTemplate(a, b, cv2.TM_CCOEFF_NORMED)[0, 0]) if a.size >= 16 else 0.0
        out.append(alike >= SAME_LOOK)  # NaN (a flat patch) is not alike
    return out


@dataclass(frozen=True)
class Asked:
    """The table is asked to show face `value` of `kind`: view `view` of `views`."""

    kind: str
    value: int
    view: int
    views: int
    dice: int | None = None

    def __str__(self) -> str:
        return asking(self.kind, self.value, self.view, self.views, self.dice)


@dataclass(frozen=True)
class Seen:
    """A view at rest and the dice the reader found in it (its own reading of each), with face `value` asked:
    kept as `name` in the folder, its dice labelled with that face but for those `still` (unchanged since the
    view kept before: left out); or not kept, and `why`."""

    kind: str
    value: int
    found: tuple[Die, ...]
    view: TrayView | None  # the tray's view the dice were found in (their boxes are in it), or None: the frame
    why: str | None = None
    name: str = ""
    still: tuple[bool, ...] = ()

    @property
    def kept(self) -> bool:
        return self.why is None

    @property
    def moved(self) -> list[Die]:
        """The dice labelled with the face asked (all found, but those left out)."""
        return [d for d, same in zip(self.found, self.still or [False] * len(self.found)) if not same]

    def in_frame(self, box: Box) -> Box:
        """`box` of a die found, in the camera frame's pixels."""
        return self.view.to_frame(box) if self.view is not None else box

    def words(self, manifest: Path) -> str:
        """What the command line says of it (`manifest`: the folder's, to correct a line in)."""
        if self.why is not None:
            return f"not kept: {self.why}"
        moved, left_out = self.moved, len(self.found) - len(self.moved)
        kind, value = self.kind, self.value
        other = [str(d.value) for d in moved if d.value is not None and (d.kind, d.value) != (kind, value)]
        said = f"kept {self.name}: {len(moved)} {kind} showing {value}"
        if left_out:
            said += (f"; {left_out} left out, unchanged since the view kept before (a die not "
                     "turned, or no die)")
        if other:
            said += (f"; before calibration {len(other)} of them read as {', '.join(other)}: look at seen/"
                     f"{Path(self.name).name}, and if a die did not show {value}, correct its line in "
                     f"{manifest} and run `nova-table dice learn` on it")
        return said


Step = Asked | Seen


class Guide:
    """Asks for each face of `kind` until `snapshots`' folder holds `views` views of it, one step at a time
    (`steps`); `short` says the faces still short. A source that can play the player (`ask`, the rendered
    stand-in) is told which face is asked. `say`: the camera's own notes (exposure held, no tray markers);
    `stop`, once set, ends the steps at the next frame."""

    def __init__(self, source: FrameSource, reader: DiceReader, kind: str, snapshots: Snapshots,
                 views: int = VIEWS, dice: int | None = None, finder: TrayFinder | None = None,
                 say: Callable[[str], None] = said_on_stderr, stop: threading.Event | None = None) -> None:
        self.source, self.reader, self.kind, self.snapshots = source, reader, kind, snapshots
        self.views, self.dice, self.finder, self.say, self.stop = views, dice, finder, say, stop
        self.kept = views_kept(snapshots.manifest, kind)

    def short(self) -> list[int]:
        """The faces of the kind still short of their views."""
        return [v for v in range(1, FACES[self.kind] + 1) if self.kept[v] < self.views]

    def steps(self) -> Iterator[Step]:
        rests = settled_views(self.source, self.finder, self.say, stop=self.stop)
        before: np.ndarray | None = None  # the view kept last
        for value in self.short():
            while self.kept[value] < self.views:
                yield Asked(self.kind, value, self.kept[value] + 1, self.views, self.dice)
                if (ask := getattr(self.source, "ask", None)) is not None:
                    ask(self.kind, value)
                while True:
                    rest = next(rests, None)
                    if rest is None:
                        return
                    _frame, seen, view = rest
                    found = list(self.reader.read(seen).dice)
                    still = unmoved(before, seen, found)
                    if (why := refused(found, self.dice, still)) is None:
                        break
                    yield Seen(self.kind, value, tuple(found), view, why)
                moved = [d for d, same in zip(found, still) if not same]
                left_out = [d.box for d, same in zip(found, still) if same]
                name = self.snapshots.keep(seen, [Die(self.kind, value, 1.0, d.box) for d in moved], left_out)
                before = seen
                self.kept[value] += 1
                yield Seen(self.kind, value, tuple(found), view, name=name, still=tuple(still))


def calibrate(source: FrameSource, reader: DiceReader, kind: str, snapshots: Snapshots, say: Callable[[str], None],
              views: int = VIEWS, dice: int | None = None, finder: TrayFinder | None = None) -> list[int]:
    """Ask for each face of `kind` until `snapshots`' folder holds `views` views of it, each step said in a line;
    return the faces still short (none: every face shown)."""
    guide = Guide(source, reader, kind, snapshots, views, dice, finder, say)
    for step in guide.steps():
        say(step.words(snapshots.manifest) if isinstance(step, Seen) else str(step))
    return guide.short()
