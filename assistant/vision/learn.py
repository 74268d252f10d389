"""Learn a dice profile from labelled photos.

For the learned face reader (`faces.py`): the face network's embedding of every labelled die
(its box as labelled), "d6:V" / "d8:V", and the second face network's, "lite:d6:V", from which
the reader refits their value heads, and for every labelled d8 the close-up d8 network's
embeddings, "c8:V" (one per quarter turn of its crop), from which it refits that network's head.
For the classical reader: the signs it cannot already read by method ("n:V", "u:V", "sym:NAME").
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

import cv2
import numpy as np

from assistant.vision import glyphs as G
from assistant.vision import segment as S
from assistant.vision.calibrate import missing_faces
from assistant.vision.classical import DieView, die_views, ways_up
from assistant.vision.command import say
from assistant.vision.errors import ImageError, ManifestError, ModelError
from assistant.vision.faces import FaceReader
from assistant.vision.images import load_image
from assistant.vision.manifest import Entry, LabelledDie, check_in_picture, read_manifest
from assistant.vision.matching import match
from assistant.vision.profile import CLOSE, SECOND, Profile
from assistant.vision.reader import DiceReader, scale_for


def _views(image: np.ndarray) -> tuple[list[DieView], float, int, int]:
    top, bottom, left, right = S.content_window(image)
    image = image[top:bottom, left:right]
    scale = scale_for(image.shape)
    work = image if scale == 1.0 else cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    return die_views(work, S.is_tile(image.shape)), scale, left, top


def learn_entry(entry: Entry, image: np.ndarray, reader: DiceReader, profile: Profile) -> int:
    """Add what `entry`'s labelled dice teach to `profile`; return how many examples were added."""
    views, scale, left, top = _views(image)
    boxes = [
        (v.box[0] / scale + left, v.box[1] / scale + top, v.box[2] / scale, v.box[3] / scale) for v in views
    ]
    pairs = match([d.box for d in entry.dice], boxes)
    added = 0
    for i, j in pairs.items():
        label, view = entry.dice[i], views[j]
        known = reader.classical.read_view(view)
        if known is not None and known.value == label.value and known.kind == label.kind:
            continue  # already read right by method (pips) or by the profile: nothing to teach
        face = reader.classical.top_face(view)
        numeral, symbol = reader.classical.sign_and_symbol(view, face.glyphs)  # the numeral, and the symbol alone
        if numeral is None:
            continue
        profile.add(f"n:{label.value}", G.describe(numeral.mask))
        added += 1
        for turn in ways_up(view, face, label.kind):  # every way up the face allows: one is the numeral's own
            profile.add(f"u:{label.value}", G.upright(numeral.mask, turn))
            added += 1
        if symbol is not None and label.symbol:
            profile.add(f"sym:{label.symbol}", G.describe(symbol.mask))
            added += 1
    return added


def learn_faces(labelled: Iterable[tuple[np.ndarray, Sequence[LabelledDie]]], profile: Profile,
                faces: FaceReader | None = None) -> int:
    """Add the face networks' embeddings of every labelled die to `profile`, and the close-up d8
    network's of every labelled d8 (when `faces` has it); return how many dice were learned."""
    faces = faces or FaceReader()
    profile.model = faces.net.identity
    second = faces.second[0] if faces.second is not None else None
    profile.second_model = second.identity if second is not None else None
    added = 0
    for image, dice in labelled:
        if not dice:
            continue
        crops = faces.crops(image, [d.box for d in dice])  # both face networks read the same crops
        for die, vector in zip(dice, faces.net.embed(crops)):
            profile.add(f"{die.kind}:{die.value}", vector)
            added += 1
        if second is not None:
            for die, vector in zip(dice, second.embed(crops)):
                profile.add(f"{SECOND}{die.kind}:{die.value}", vector)
        d8 = [d for d in dice if d.kind == "d8"]
        if d8 and faces.d8 is not None:
            profile.d8_model = faces.d8.identity
            turns = faces.embed_closer(image, [d.box for d in d8])  # (turns, dice, D)
            for die, views in zip(d8, turns.transpose(1, 0, 2)):
                for vector in views:  # the die's turns in a row: held out together (calibrate.trust)
                    profile.add(f"{CLOSE}{die.value}", vector)
    return added


def entries_of(manifest: Path, report: Callable[[str], None]) -> list[Entry]:
    """The usable lines of `manifest`; the others are reported, then skipped."""
    entries = []
    for item in read_manifest(manifest):
        if isinstance(item, ManifestError):
            report(f"skipped: {item}")
        else:
            entries.append(item)
    return entries


def learn_entries(entries: Iterable[Entry], use_built_in: bool = True,
                  report: Callable[[str], None] = say, classical: bool = True,
                  model: Path | None = None) -> Profile:
    """A profile learned from the labelled photos `entries`; a photo that cannot be loaded, or whose boxes are
    not in it, is reported, then skipped."""
    reader = DiceReader(use_built_in=use_built_in)
    faces: FaceReader | None
    try:
        faces = FaceReader(model=model)
    except ModelError as bad:  # no face model here: the classical reader's signs are still learned
        report(f"no face embeddings learned: {bad}")
        faces = None
    profile = Profile()
    for item in entries:
        profile.sources.append(item.image)
        try:
            image = load_image(item.image)
            check_in_picture(item, image.shape)
        except ImageError as bad:
            report(f"{item.manifest}:{item.line}: skipped: {bad}")
            continue
        except ManifestError as bad:  # it names the line
            report(f"skipped: {bad}")
            continue
        if faces is not None:
            learn_faces([(image, item.dice)], profile, faces)
        if classical:
            learn_entry(item, image, reader, profile)
    return profile


def learn(manifest: Path, use_built_in: bool = True,
          report: Callable[[str], None] = say, classical: bool = True,
          model: Path | None = None) -> Profile:
    """A profile learned from every usable line of `manifest`; problems are reported, then skipped.

    It holds the face network's embedding of every labelled die and, with `classical`, the signs
    the classical reader could not read by method. With `use_built_in`, only what the
    rendered-dice profile does not already read right is learned for the classical reader.
    """
    profile = learn_entries(entries_of(manifest, report), use_built_in, report, classical, model)
    profile.learned_from = [str(manifest)]
    profile.sources.append(manifest)
    for kind, faces_missing in missing_faces(profile.embeddings()[1]).items():
        report(f"{kind} faces {', '.join(map(str, faces_missing))} are not in {manifest}: the {kind} are read as "
               "before (photograph every face a few times to calibrate them)")
    return profile
