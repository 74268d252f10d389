"""Dice profiles: labelled glyph descriptors that teach the reader a set of dice.

A profile is a JSON file:

    {"format": "nova-table-dice-profile", "version": 1,
     "learned_from": ["manifest or description", ...],
     "examples": [{"label": "n:3", "vector": [...]}, {"label": "sym:sun", "vector": [...]}]}

Labels: "n:V" is the sign that means value V (a numeral, or a custom emblem such as a skull
for 1); "sym:NAME" is a Nova Aetas astro symbol (sun, star, moon).
"""

from __future__ import annotations

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
    vectors: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), np.float32))
    learned_from: list[str] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.labels)

    def subset(self, prefix: str) -> tuple[np.ndarray, list[str]]:
        """The examples whose label starts with `prefix`, and their labels."""
        keep = [i for i, label in enumerate(self.labels) if label.startswith(prefix)]
        return self.vectors[keep], [self.labels[i] for i in keep]

    def add(self, label: str, vector: np.ndarray) -> None:
        row = vector.astype(np.float32)[None, :]
        self.vectors = row if len(self.labels) == 0 else np.vstack([self.vectors, row])
        self.labels.append(label)

    def merged(self, other: Profile) -> Profile:
        if len(other) == 0:
            return self
        if len(self) == 0:
            return other
        return Profile(self.labels + other.labels, np.vstack([self.vectors, other.vectors]),
                       self.learned_from + other.learned_from)

    def save(self, path: Path) -> None:
        data = {
            "format": FORMAT,
            "version": VERSION,
            "learned_from": self.learned_from,
            "examples": [
                {"label": label, "vector": [round(float(v), 4) for v in vec]}
                for label, vec in zip(self.labels, self.vectors)
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
    width = None
    for i, ex in enumerate(examples):
        try:
            label, vector = str(ex["label"]), np.asarray(ex["vector"], np.float32)
        except (KeyError, TypeError, ValueError):
            raise ProfileError(f"{name}: example {i} is not {{label, vector}}") from None
        if vector.ndim != 1 or (width is not None and vector.size != width):
            raise ProfileError(f"{name}: example {i} has a vector of the wrong length")
        width = vector.size
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
