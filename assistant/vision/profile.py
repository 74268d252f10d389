"""Dice profiles: labelled examples of a table's own dice that teach the reader those dice.

A profile is a JSON file:

    {"format": "nova-table-dice-profile", "version": 2, "model": "<face model id>",
     "second_model": "<second face model id>", "d8_model": "<close-up d8 model id>",
     "learned_from": ["manifest or description", ...],
     "examples": [{"label": "d6:3", "f16": "<base64 of little-endian float16s>"}, ...]}

(an example may also give its vector as a plain list: {"label": "sym:sun", "vector": [...]}).

Labels of the learned face reader (`faces.py`): "d6:V" / "d8:V" is the face network's embedding
of a labelled die showing V, "none" of a region that is no die; "model" names the network that
made them (a profile from another network is refused: learn it again). "c8:V" is the close-up d8
network's embedding of a labelled d8 showing V, one per quarter turn of its crop (the model's
turns, in a row); "d8_model" names that network. "lite:d6:V" (and "lite:none", "lite:d8:V") is
the second face network's embedding of the same die (`facenet.SECOND_MODEL`), "second_model" names
it; a profile without them (learned before that network shipped) is read by the first alone.
Labels of the classical reader (version 1 profiles hold only these): "n:V" is the sign that means
value V (a numeral, or a custom emblem such as a skull for 1), described so that any turn of it
looks the same; "u:V" the same sign stood upright; "sym:NAME" a Nova Aetas astro symbol.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import json
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import numpy as np

from assistant.reading import NotJSON, loads
from assistant.vision.dice import FACES
from assistant.vision.errors import ProfileError, why_not_written
from assistant.vision.facenet import CLASSES
from assistant.vision.glyphs import DESCRIBED, UPRIGHT

FORMAT = "nova-table-dice-profile"
VERSION = 2
VERSIONS = (1, 2)  # version 1: classical examples only, no "model"
EMBEDDING_LABELS = CLASSES  # the face network's classes: "none", "d6:V", "d8:V"
CLOSE = "c8:"  # the close-up d8 network's examples: "c8:V"
SECOND = "lite:"  # the second face network's examples: "lite:d6:V"
SHIPPED_FACES = "white_pips.profile.json"
BUILT_IN = "rendered_profile.json"  # learned from rendered dice only, shipped beside this module
WIDTHS = {"n": DESCRIBED, "sym": DESCRIBED, "u": UPRIGHT}  # the numbers in a classical example, by its label's kind
UNUSABLE = "not a dice profile this Nova Table can use"
VALUES = {str(v) for v in range(1, max(FACES.values()) + 1)}  # the values "n:V", "u:V" and "c8:V" may name


@dataclass
class Profile:
    labels: list[str] = field(default_factory=list)
    rows: list[np.ndarray] = field(default_factory=list)  # one vector per label; lengths differ by kind
    learned_from: list[str] = field(default_factory=list)
    model: str | None = None  # the face network whose embeddings the "d6:V" / "d8:V" examples are
    d8_model: str | None = None  # the close-up d8 network whose embeddings the "c8:V" examples are
    second_model: str | None = None  # the second face network whose embeddings the "lite:..." examples are
    name: str = "profile"  # the file it was read from, for messages
    sources: list[Path] = field(default_factory=list)  # the files it was learned from: `save` writes over none

    def __len__(self) -> int:
        return len(self.labels)

    def subset(self, prefix: str) -> tuple[np.ndarray, list[str]]:
        """The examples whose label starts with `prefix` (one kind of vector), and their labels."""
        return self._where(lambda label: label.startswith(prefix))

    def embeddings(self) -> tuple[np.ndarray, list[str]]:
        """The face network's examples ("none", "d6:V", "d8:V") and their labels."""
        return self._where(lambda label: label in EMBEDDING_LABELS)

    def close_embeddings(self) -> tuple[np.ndarray, list[str]]:
        """The close-up d8 network's examples, labelled as its classes ("d8:V")."""
        rows, labels = self.subset(CLOSE)
        return rows, ["d8:" + label[len(CLOSE):] for label in labels]

    def second_embeddings(self) -> tuple[np.ndarray, list[str]]:
        """The second face network's examples, labelled as its classes ("d6:V")."""
        rows, labels = self.subset(SECOND)
        return rows, [label[len(SECOND):] for label in labels]

    def _where(self, wanted: Callable[[str], bool]) -> tuple[np.ndarray, list[str]]:
        keep = [i for i, label in enumerate(self.labels) if wanted(label)]
        if not keep:
            return np.zeros((0, 1), np.float32), []
        return np.vstack([self.rows[i] for i in keep]), [self.labels[i] for i in keep]

    def add(self, label: str, vector: np.ndarray) -> None:
        self.rows.append(np.asarray(vector, np.float32).ravel())
        self.labels.append(label)

    def merged(self, other: Profile) -> Profile:
        for mine, theirs in ((self.model, other.model), (self.d8_model, other.d8_model),
                             (self.second_model, other.second_model)):
            if mine and theirs and mine != theirs:
                raise ProfileError(f"profiles of two face models ({mine}, {theirs}) cannot be merged")
        return Profile(self.labels + other.labels, self.rows + other.rows, self.learned_from + other.learned_from,
                       self.model or other.model, self.d8_model or other.d8_model,
                       self.second_model or other.second_model)

    def save(self, path: Path) -> None:
        """Write the profile to `path` whole or not at all (a profile there before stays until the new one is written);
        through a symbolic link, to the file it names (the link stays)."""
        data = {
            "format": FORMAT,
            "version": VERSION,
            "model": self.model,
            "d8_model": self.d8_model,
            "second_model": self.second_model,
            "learned_from": self.learned_from,
            "examples": [
                {"label": label, "f16": base64.b64encode(vec.astype("<f2").tobytes()).decode("ascii")}
                for label, vec in zip(self.labels, self.rows)
            ],
        }
        if path.exists() and not path.is_file():
            raise ProfileError(f"{path}: not a regular file: write the profile to a file")
        if any(same_file(path, source) for source in self.sources):
            raise ProfileError(f"{path}: the profile is learned from this file: write the profile to another file")
        try:
            target = path.resolve() if path.is_symlink() else path
        except (RuntimeError, OSError):  # Python 3.11 says a loop of links with RuntimeError
            raise ProfileError(f"{path}: a symbolic link that leads round in a loop: write the profile to a file") from None
        part = None
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            handle, part = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                umask = os.umask(0o022)
                os.umask(umask)
                os.fchmod(out.fileno(), 0o666 & ~umask)  # as the user's files are made, not mkstemp's 0600
                out.write(json.dumps(data, separators=(",", ":")) + "\n")
            os.replace(part, target)
        except OSError as bad:
            if part is not None:
                with contextlib.suppress(OSError):
                    os.unlink(part)
            raise ProfileError(f"{path}: cannot write the profile ({why_not_written(target.parent, bad)})") from None


def same_file(a: Path, b: Path) -> bool:
    """Whether `a` and `b` are one file: one path once resolved, or links to one file."""
    try:
        return a.resolve() == b.resolve() or os.path.samefile(a, b)
    except (OSError, RuntimeError):  # one of them is not there, or a loop of links (RuntimeError on Python 3.11)
        return False


def parse(text: str, name: str) -> Profile:
    try:
        data = loads(text)
    except NotJSON as bad:
        raise ProfileError(f"{name}: not a dice profile (not JSON: {bad})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ProfileError(f"{name}: not a dice profile (no \"format\": \"{FORMAT}\")")
    version = data.get("version")
    if isinstance(version, bool) or version not in VERSIONS:  # true == 1 in Python, not in the file
        raise ProfileError(f"{name}: {UNUSABLE}: profile version {json.dumps(version)}, this reader knows "
                           f"{' and '.join(map(str, VERSIONS))}")
    model, d8_model, second_model = data.get("model"), data.get("d8_model"), data.get("second_model")
    for key, value in (("model", model), ("d8_model", d8_model), ("second_model", second_model)):
        if value is not None and not isinstance(value, str):
            raise ProfileError(f"{name}: \"{key}\" must be the face model's id (a string)")
    examples, learned_from = data.get("examples"), data.get("learned_from", [])
    if not isinstance(examples, list):
        raise ProfileError(f"{name}: \"examples\" must be a list")
    if not isinstance(learned_from, list):
        raise ProfileError(f"{name}: {UNUSABLE}: \"learned_from\" must be a list (of what it was learned from), "
                           f"not {json.dumps(learned_from)}")
    profile = Profile(learned_from=[str(s) for s in learned_from], model=model, d8_model=d8_model,
                      second_model=second_model, name=name)
    widths = dict(WIDTHS)  # and, as the file gives them, the face network's and the close-up d8 network's
    for i, ex in enumerate(examples):
        try:
            label = str(ex["label"])
            if "f16" in ex:
                vector = np.frombuffer(base64.b64decode(ex["f16"], validate=True), "<f2").astype(np.float32)
            else:
                vector = np.asarray(ex["vector"], np.float32)
            if vector.ndim != 1:
                raise ValueError("not a row of numbers")
        except (KeyError, TypeError, ValueError, binascii.Error):
            raise ProfileError(f"{name}: example {i} is not {{label, vector}}") from None
        if not known(label):
            raise ProfileError(f"{name}: {UNUSABLE}: example {i} has the label \"{label}\", which no reader uses "
                               "(none, d6:1..6, d8:1..8, lite:..., c8:1..8, n:1..8, u:1..8, sym:NAME)")
        finite = np.isfinite(vector).all()
        if not finite or not vector.any():
            raise ProfileError(f"{name}: {UNUSABLE}: example {i} (\"{label}\") holds "
                               f"{'NaN or infinity' if not finite else 'only zeros'}")
        kind = "face" if label in EMBEDDING_LABELS else label.split(":")[0]  # one network's embeddings: one length
        if widths.setdefault(kind, vector.size) != vector.size:
            raise ProfileError(f"{name}: {UNUSABLE}: example {i} (\"{label}\") holds {vector.size} numbers, "
                               f"not {widths[kind]}")
        profile.add(label, vector)
    if not profile.labels:
        raise ProfileError(f"{name}: {UNUSABLE}: it holds no examples")
    if not profile.embeddings()[1] and profile.close_embeddings()[1]:
        raise ProfileError(f"{name}: {UNUSABLE}: its close-up d8 examples (\"c8:V\") are read only beside the face "
                           "network's (\"d6:V\", \"d8:V\"), and it holds none")
    if model is None and profile.embeddings()[1]:
        raise ProfileError(f"{name}: face examples without the \"model\" that made them")
    if d8_model is None and profile.close_embeddings()[1]:
        raise ProfileError(f"{name}: close-up d8 examples without the \"d8_model\" that made them")
    if second_model is None and profile.second_embeddings()[1]:
        raise ProfileError(f"{name}: second face network's examples without the \"second_model\" that made them")
    return profile


def known(label: str) -> bool:
    """Whether some reader uses examples labelled `label` (the module's docstring lists them)."""
    kind, _, value = label.partition(":")
    return (label.removeprefix(SECOND) in EMBEDDING_LABELS or (kind == "sym" and value != "")
            or (kind in ("n", "u", CLOSE[:-1]) and value in VALUES))


def load(path: Path) -> Profile:
    """The profile at `path`, or `ProfileError` saying what is wrong."""
    if path.is_dir():
        raise ProfileError(f"{path}: a folder, not a profile file")
    if path.exists() and not path.is_file():  # a pipe would be waited on for ever
        raise ProfileError(f"{path}: not a regular file (a pipe or a device), not a profile")
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ProfileError(f"{path}: no such profile file") from None
    except (OSError, UnicodeDecodeError) as bad:
        raise ProfileError(f"{path}: cannot read the profile ({bad})") from None
    return parse(text, str(path))


def shipped_faces() -> Profile:
    """The face network's profile of white pip d6 that ships with Nova Table (`models/white_pips.profile.json`,
    learned by `nova-table dice learn` from the webcam TRAIN photos only); empty if it is not there."""
    return packaged("models", SHIPPED_FACES)


def built_in() -> Profile:
    """The profile learned from rendered dice that ships with Nova Table (empty if not built yet)."""
    return packaged(BUILT_IN)


def packaged(*parts: str) -> Profile:
    """A profile shipped inside assistant/vision (empty if it is not there)."""
    ref = resources.files("assistant.vision").joinpath(*parts)
    try:
        text = ref.read_text(encoding="utf-8")
    except (FileNotFoundError, OSError):
        return Profile()
    return parse(text, "/".join(parts))
