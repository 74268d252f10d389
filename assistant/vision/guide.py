"""Calibrate a table's own dice by showing the camera each face: `nova-table dice calibrate`.

    for each face of the kind (d6: 1..6, d8: 1..8) still short of VIEWS views in the folder:
        say "turn every d8 so 3 is on top ..." -> wait until the dice come to rest (watch.settled_views)
        -> the reader finds them -> every die found is labelled with the face asked
        -> the view is kept (snapshots.py: images/, seen/ with the labels drawn, manifest.jsonl)
    then the profile is learned from the folder's manifest (`nova-table dice learn`)

No manifest to write by hand: the face asked is the label. A view is not kept where no die is
found, where the number of dice is not the number the table said it would show, or where a die
leans or lies partly out of view. The reader's own reading of each kept view is set beside the
labels: where it read a die otherwise, that is said (a die not turned, or one the table's dice
read wrong before calibration). The folder is added to, never overwritten: a calibration stopped
half-way (the camera unplugged, Ctrl-C) goes on from the faces still short when run again.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path

from assistant.vision.dice import FACES, VIEWS, Die
from assistant.vision.manifest import Entry, read_manifest
from assistant.vision.reader import DiceReader
from assistant.vision.snapshots import Snapshots
from assistant.vision.sources import FrameSource
from assistant.vision.tray import TrayFinder
from assistant.vision.watch import settled_views


def views_kept(manifest: Path, kind: str) -> Counter[int]:
    """How many views of each face of `kind` the manifest holds (a view counts once for each face in it)."""
    kept: Counter[int] = Counter()
    if manifest.exists():
        for entry in read_manifest(manifest):
            if isinstance(entry, Entry):
                kept.update({d.value for d in entry.dice if d.kind == kind})
    return kept


def asking(kind: str, value: int, view: int, views: int, dice: int | None) -> str:
    which = f"all {dice} {kind}" if dice else f"every {kind}"
    return (f"{kind} face {value}, view {view} of {views}: turn {which} so that {value} is on top, spread "
            "them on the tray (not touching), and take your hands away")


def refused(found: list[Die], dice: int | None) -> str | None:
    """Why a view at rest is not kept, or None."""
    if not found:
        return "no dice seen: are they on the tray, and in the light?"
    if dice is not None and len(found) != dice:
        return f"{len(found)} {'die' if len(found) == 1 else 'dice'} seen, {dice} expected: spread them apart, all in view"
    if odd := [d for d in found if d.why]:
        return f"a die {odd[0].why}: lay each die flat, all in view"
    return None


def calibrate(source: FrameSource, reader: DiceReader, kind: str, snapshots: Snapshots, say: Callable[[str], None],
              views: int = VIEWS, dice: int | None = None, finder: TrayFinder | None = None) -> list[int]:
    """Ask for each face of `kind` until `snapshots`' folder holds `views` views of it; return the
    faces still short (none: every face shown). A source that can play the player (`ask`, the
    rendered stand-in) is told which face is asked."""
    kept = views_kept(snapshots.manifest, kind)
    short = [v for v in range(1, FACES[kind] + 1) if kept[v] < views]
    rests = settled_views(source, finder, say)
    for value in short:
        while kept[value] < views:
            say(asking(kind, value, kept[value] + 1, views, dice))
            if (ask := getattr(source, "ask", None)) is not None:
                ask(kind, value)
            while True:
                rest = next(rests, None)
                if rest is None:
                    return [v for v in short if kept[v] < views]
                _frame, seen, _view = rest
                found = list(reader.read(seen).dice)
                if (why := refused(found, dice)) is None:
                    break
                say(f"not kept: {why}")
            labelled = [Die(kind, value, 1.0, d.box) for d in found]
            name = snapshots.keep(seen, labelled)
            kept[value] += 1
            other = [str(d.value) for d in found if d.value is not None and (d.kind, d.value) != (kind, value)]
            said = f"kept {name}: {len(found)} {kind} showing {value}"
            if other:
                said += (f"; before calibration {len(other)} of them read as {', '.join(other)}: look at seen/"
                         f"{Path(name).name}, and if a die did not show {value}, correct its line in "
                         f"{snapshots.manifest} and run `nova-table dice learn` on it")
            say(said)
    return []
