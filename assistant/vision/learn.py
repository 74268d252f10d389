"""Learn a table's own dice: the finder and the face network fine-tuned on labelled pictures of them (`dice learn`).

    manifest lines -> each picture at working size; each labelled die cut where the finder finds it
    (the box the reader will cut at the table), or from its label's box where the finder misses it;
    in pictures whose every die is labelled, what the finder takes for a die and is none, as "none"
    -> find_tune.tune: the shipped finder fine-tuned on the pictures whose every die is labelled (whole boxes);
       the dice cut again where it finds them
    -> tune.tune: the shipped network fine-tuned on them -> a profile of both (profile.py)
    -> the check: every HOLD-th picture held out, learned from the rest, then read with and without
       (heldout.py), said in a line; then the profile is learned from every picture, going on from the
       check's networks (a third of the batches)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from assistant.vision import find_tune, pytorch, tune
from assistant.vision.command import say
from assistant.vision.crop import CONTEXT
from assistant.vision.dice import FACES
from assistant.vision.errors import ImageError, ManifestError, ProfileError
from assistant.vision.find import Finder
from assistant.vision.heldout import Comparison, compare
from assistant.vision.images import load_image, working
from assistant.vision.manifest import Entry, check_in_picture, read_manifest
from assistant.vision.matching import inside, match
from assistant.vision.profile import Profile
from assistant.vision.read import CLASSES

FINDER_SHARE = 0.2  # of a fine-tune's progress, the finder's (about a fifth of the time)
TOP_TO_WHOLE = 1.35  # a top-face label's longer side to the whole die's, where the finder missed the die


def entries_of(manifest: Path, report: Callable[[str], None]) -> list[Entry]:
    """The usable lines of `manifest`; the others are reported, then skipped."""
    entries = []
    for item in read_manifest(manifest):
        if isinstance(item, ManifestError):
            report(f"skipped: {item}")
        else:
            entries.append(item)
    return entries


class Examples:
    """The labelled dice of some pictures, as tune.tune takes them."""

    def __init__(self) -> None:
        self.images: list[np.ndarray] = []  # each picture at working size, B, G, R
        self.dice: list[tune.Labelled] = []
        self.complete: list[bool] = []
        self.sources: list[Path] = []
        self.labels: list[tuple[Entry, np.ndarray, bool, bool]] = []  # per picture: its line, its label boxes
        # in working pixels (N x 4), whether it is a tile, whether dice the finder misses are cut from their labels

    @property
    def faces(self) -> dict[str, int]:
        return dict(sorted(Counter(CLASSES[d.label] for d in self.dice if d.label).items()))

    def add(self, entry: Entry, image: np.ndarray, finder: Finder, missed: bool = True) -> None:
        """The labelled dice of `entry` (its picture `image`); `missed`: dice the finder misses too, cut from their labels."""
        work, scale, left, top, tile = working(image)
        labels = np.array([((d.box[0] - left) * scale, (d.box[1] - top) * scale, d.box[2] * scale, d.box[3] * scale)
                           for d in entry.dice], np.float32).reshape(-1, 4)
        self.cut(entry, work, labels, tile, finder, missed)

    def cut(self, entry: Entry, work: np.ndarray, labels: np.ndarray, tile: bool, finder: Finder, missed: bool) -> None:
        """The labelled dice of `entry`, its working image `work` and label boxes there, as `finder` finds them."""
        index = len(self.images)
        self.images.append(work)
        self.labels.append((entry, labels, tile, missed))
        self.complete.append(entry.complete and not tile)
        boxes = [tuple(float(v) for v in box) for box in labels]
        found = [] if tile else [f.box for f in finder.find(work)]
        pairs = match(boxes, found)
        for i, (die, box) in enumerate(zip(entry.dice, boxes)):
            if not (tile or missed or i in pairs):
                continue
            if tile:
                side = max(work.shape[:2]) / CONTEXT  # the reader cuts a tile whole
                centre = (work.shape[1] / 2, work.shape[0] / 2)
            else:
                x, y, w, h = found[pairs[i]] if i in pairs else box
                side = max(w, h) * (TOP_TO_WHOLE if i not in pairs and entry.box_style == "top_face" else 1.0)
                centre = (x + w / 2, y + h / 2)
            self.dice.append(tune.Labelled(index, centre, side, CLASSES.index(f"{die.kind}:{die.value}")))
        if self.complete[-1]:  # what the finder takes for a die and is none: the table's own look-alikes
            taken = set(pairs.values())  # (not a part of a labelled die, a pip: its crop shows the die's face)
            for j, (x, y, w, h) in enumerate(found):
                if j not in taken and not any(inside((x + w / 2, y + h / 2), box) for box in boxes):
                    self.dice.append(tune.Labelled(index, (x + w / 2, y + h / 2), max(w, h), 0))

    def whole(self) -> list[tuple[np.ndarray, np.ndarray]]:
        """The pictures a finder can learn from: every die labelled with its whole box (a top face's box does not
        say where the die's edges are: a webcam set's hug the pips), not a tile; each with those boxes."""
        return [(work, labels) for work, (entry, labels, tile, _) in zip(self.images, self.labels)
                if entry.complete and not tile and entry.box_style != "top_face"]

    def again(self, finder: Finder) -> Examples:
        """The same labelled pictures, their dice cut where `finder` finds them."""
        out = Examples()
        out.sources = self.sources
        for work, (entry, labels, tile, missed) in zip(self.images, self.labels):
            out.cut(entry, work, labels, tile, finder, missed)
        return out


def examples(entries: Iterable[Entry], report: Callable[[str], None] = say) -> Examples:
    """The labelled dice of `entries`; a picture that cannot be loaded, or whose boxes are not in it, is
    reported, then skipped."""
    finder = Finder()
    out = Examples()
    for entry in entries:
        out.sources.append(entry.image)
        try:
            image = load_image(entry.image)
            check_in_picture(entry, image.shape)
        except ImageError as bad:
            report(f"{entry.manifest}:{entry.line}: skipped: {bad}")
            continue
        except ManifestError as bad:  # it names the line
            report(f"skipped: {bad}")
            continue
        out.add(entry, image, finder)
    return out


@dataclass(frozen=True)
class Weights:
    """What a learn ends with, in PyTorch: the face network's and the finder's weights (None: the shipped finder)."""

    network: dict[str, Any]
    finder: dict[str, Any] | None


def learned(found: Examples, learned_from: Sequence[str], progress: Callable[[float], None] = lambda s: None,
            steps: int | None = None, start: Weights | None = None) -> tuple[Profile, Weights]:
    """A profile of the finder fine-tuned on `found`'s pictures whose every die is labelled with its whole box
    (where there are any), then the face network on its dice (each for `steps` batches: as many as find_tune
    and tune.plan say when None; from `start`, learned from most of them, a third as many), and its weights."""
    if not found.faces:
        raise ProfileError(f"nothing to learn in {', '.join(learned_from)}: no usable labelled die")
    pytorch.check()
    pictures = found.whole()
    finder, finder_weights = None, None
    if pictures:  # the finder first, so that the dice are cut, and its look-alikes learned, as it will find them
        finder, finder_weights = find_tune.tune(pictures, steps, lambda share: progress(FINDER_SHARE * share),
                                                start=start.finder if start else None)
        found = found.again(Finder(finder))
    share = FINDER_SHARE if pictures else 0.0
    network, weights = tune.tune(found.images, found.dice, found.complete, steps,
                                 lambda done: progress(share + (1 - share) * done), start=start.network if start else None)
    profile = Profile(network, found.faces, list(learned_from), sources=list(found.sources), finder=finder)
    return profile, Weights(weights, finder_weights)


def learn_examples(found: Examples, learned_from: Sequence[str], progress: Callable[[float], None] = lambda s: None,
                   steps: int | None = None) -> Profile:
    """A profile learned from `found` (`learned`)."""
    return learned(found, learned_from, progress, steps)[0]


def checked(manifest: Path, entries: Sequence[Entry], found: Examples, steps: int | None = None,
            checking: Callable[[float], None] = lambda s: None, learning: Callable[[float], None] = lambda s: None,
            report: Callable[[str], None] = say) -> tuple[Profile, Comparison | None]:
    """A profile learned from `found` (the dice of `entries`, lines of `manifest`), and first the check
    (heldout.py: learned without some of the pictures, reading those), reported; the profile's `check` says it.
    The profile goes on from the check's networks (`learned`'s `start`). `checking` and `learning`: each
    fine-tune's progress, 0 to 1."""
    starts: list[Weights] = []

    def without(part: Sequence[Entry]) -> Profile:
        profile, weights = learned(examples(part, lambda _said: None), [str(manifest)], checking, steps)
        starts.append(weights)
        return profile

    comparison = compare(entries, without)
    if comparison is not None:
        report(str(comparison))
    profile, _ = learned(found, [str(manifest)], learning, steps, starts[0] if starts else None)
    profile.check = "" if comparison is None else str(comparison)
    profile.sources.append(manifest)
    return profile, comparison


def learn(manifest: Path, report: Callable[[str], None] = say, steps: int | None = None) -> Profile:
    """A profile learned from every usable line of `manifest`; problems are reported, then skipped."""
    found = examples(entries_of(manifest, report), report)
    say_missing(found.faces, manifest, report)
    profile = learn_examples(found, [str(manifest)], steps=steps)
    profile.sources.append(manifest)
    return profile


def say_missing(faces: dict[str, int], manifest: Path, report: Callable[[str], None]) -> None:
    """Say which faces of each kind learned have no labelled die in `manifest`."""
    for kind in sorted({label.split(":")[0] for label in faces}):
        missing = [str(v) for v in range(1, FACES[kind] + 1) if f"{kind}:{v}" not in faces]
        if missing:
            report(f"{kind} faces {', '.join(missing)} are not in {manifest}: they are not learned "
                   "(photograph every face a few times to calibrate them)")
