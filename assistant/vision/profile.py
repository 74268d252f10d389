"""Dice profiles: labelled glyph descriptors that teach the reader a set of dice.

A profile is a JSON file:

    {"format": "nova-table-dice-profile", "version": 1,
     "learned_from": ["manifest or description", ...],
     "examples": [{"label": "n:3", "f16": "<base64 of little-endian float16s>"}, ...]}

(an example may also give its vector as a plain list: {"label": "sym:sun", "vector": [...]}).

Labels: "n:V" is the sign that means value V (a numeral, or a custom emblem such as a skull
for 1), described so that any turn of it looks the same; "u:V" the same sign stood upright (one
example for each way up its face allows); "sym:NAME" a Nova Aetas astro symbol (sun, star, moon).
"""

from __future__ import annotations

import base64
import binascii
import json
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import numpy as np

from assistant.vision.errors import ProfileError

FORMAT = "nova-table-dice-profile"
VERSION = 1
BUILT_IN = "rendered_profile.json"  # learned from rendered dice only, shipped beside this module


@dataclass
class Profile:
    labels: list[str] = field(default_factory=list)
    rows: list[np.ndarray] = field(default_factory=list)  # one vector per label; lengths differ by kind
    learned_from: list[str] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.labels)

    def subset(self, prefix: str) -> tuple[np.ndarray, list[str]]:
        """The examples whose label starts with `prefix` (one kind of vector), and their labels."""
        keep = [i for i, label in enumerate(self.labels) if label.startswith(prefix)]
        if not keep:
            return np.zeros((0, 1), np.float32), []
        return np.vstack([self.rows[i] for i in keep]), [self.labels[i] for i in keep]

    def add(self, label: str, vector: np.ndarray) -> None:
        self.rows.append(np.asarray(vector, np.float32).ravel())
        self.labels.append(label)

    def merged(self, other: Profile) -> Profile:
        return Profile(self.labels + other.labels, self.rows + other.rows, self.learned_from + other.learned_from)

    def save(self, path: Path) -> None:
        data = {
            "format": FORMAT,
            "version": VERSION,
            "learned_from": self.learned_from,
            "examples": [
                {"label": label, "f16": base64.b64encode(vec.astype("<f2").tobytes()).decode("ascii")}
                for label, vec in zip(self.labels, self.rows)
            ],
        }
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(data, separators=(",", ":")) + "\n")


def parse(text: str, name: str) -> Profile:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as bad:
        raise ProfileError(f"{name}: not a dice profile (not JSON: {bad.msg})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ProfileError(f"{name}: not a dice profile (no \"format\": \"{FORMAT}\")")
    if data.get("version") != VERSION:
        raise ProfileError(f"{name}: profile version {data.get('version')!r}, this reader knows {VERSION}")
    examples = data.get("examples")
    if not isinstance(examples, list):
        raise ProfileError(f"{name}: \"examples\" must be a list")
    profile = Profile(learned_from=[str(s) for s in data.get("learned_from", [])])
    widths: dict[str, int] = {}
    for i, ex in enumerate(examples):
        try:
            label = str(ex["label"])
            if "f16" in ex:
                vector = np.frombuffer(base64.b64decode(ex["f16"], validate=True), "<f2").astype(np.float32)
            else:
                vector = np.asarray(ex["vector"], np.float32)
        except (KeyError, TypeError, ValueError, binascii.Error):
            raise ProfileError(f"{name}: example {i} is not {{label, vector}}") from None
        kind = label.split(":")[0]
        if vector.ndim != 1 or widths.setdefault(kind, vector.size) != vector.size:
            raise ProfileError(f"{name}: example {i} has a vector of the wrong length")
        profile.add(label, vector)
    return profile


def load(path: Path) -> Profile:
    """The profile at `path`, or `ProfileError` saying what is wrong."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ProfileError(f"{path}: no such profile file") from None
    except (OSError, UnicodeDecodeError) as bad:
        raise ProfileError(f"{path}: cannot read the profile ({bad})") from None
    return parse(text, str(path))


def built_in() -> Profile:
    """The profile learned from rendered dice that ships with Nova Table (empty if not built yet)."""
    ref = resources.files("assistant.vision").joinpath(BUILT_IN)
    try:
        text = ref.read_text(encoding="utf-8")
    except (FileNotFoundError, OSError):
        return Profile()
    return parse(text, BUILT_IN)
