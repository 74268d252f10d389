"""Dice profiles: the face network fine-tuned on a table's own dice (tune.py), and the finder fine-tuned on
its pictures (find_tune.py: learned where every die of a picture is labelled), in one JSON file.

    {"format": "nova-table-dice-profile", "version": 5,
     "network": "<base64 of the ONNX network>", "sha256": "<its SHA-256>",
     "finder": "<base64 of the ONNX finder>", "finder_sha256": "<its SHA-256>",   # where it learned one
     "faces": {"d6:3": 12, ...},            # labelled dice it learned from, per face
     "learned_from": ["manifest", ...],
     "check": "held out: ..."}              # what the held-out check said when it was learned

Profiles of earlier readers (versions 1 and 2: examples of the first reader's embeddings; 3: a network
that read grey crops; 4: one that read 64-pixel crops) are refused with a word to learn them again: the
networks they were made for are gone.
"""

from __future__ import annotations

import base64
import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from assistant.files import PROFILE, Refused, read_file, same_file, write_file
from assistant.reading import NotJSON, loads
from assistant.vision.errors import ModelError, ProfileError, why_not_written
from assistant.vision.find import Finder
from assistant.vision.read import CLASSES, FaceNet

FORMAT = "nova-table-dice-profile"
VERSION = 5
UNUSABLE = "not a dice profile this Nova Table can use"
FIELDS = ("format", "version", "network", "sha256", "finder", "finder_sha256", "faces", "learned_from", "check")


@dataclass
class Profile:
    """A fine-tuned face network, a fine-tuned finder or None (the shipped one finds), and what they were learned from."""

    network: bytes
    faces: dict[str, int] = field(default_factory=dict)
    learned_from: list[str] = field(default_factory=list)
    check: str = ""
    name: str = ""  # where it was read from, for messages
    sources: list[Path] = field(default_factory=list)  # files it was learned from (not saved): never written over
    finder: bytes | None = None

    def text(self) -> str:
        """The profile as its file holds it."""
        data = {"format": FORMAT, "version": VERSION, "network": base64.b64encode(self.network).decode("ascii"),
                "sha256": hashlib.sha256(self.network).hexdigest(), "faces": self.faces,
                "learned_from": self.learned_from, "check": self.check}
        if self.finder is not None:
            data |= {"finder": base64.b64encode(self.finder).decode("ascii"),
                     "finder_sha256": hashlib.sha256(self.finder).hexdigest()}
        return json.dumps(data, separators=(",", ":")) + "\n"

    def save(self, path: Path) -> None:
        """Write the profile to `path` whole or not at all (a profile there before stays until the new one is written);
        through a symbolic link, to the file it names (the link stays)."""
        text = self.text()
        try:
            if any(same_file(path, source) for source in self.sources):
                raise Refused(path, "the profile is learned from this file: write the profile to another file")
            path.parent.mkdir(parents=True, exist_ok=True)
            write_file(path, text, "the profile")
        except Refused as bad:  # not a regular file, a file it is learned from, a loop of links
            raise ProfileError(str(bad)) from None
        except OSError as bad:
            raise ProfileError(f"{path}: cannot write the profile ({why_not_written(path.parent, bad)})") from None


def parse(text: str, name: str) -> Profile:
    try:
        data = loads(text)
    except NotJSON as bad:
        raise ProfileError(f"{name}: not a dice profile (not JSON: {bad})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ProfileError(f"{name}: not a dice profile (no \"format\": \"{FORMAT}\")")
    version = data.get("version")
    if version in (1, 2, 3, 4) and not isinstance(version, bool):
        raise ProfileError(f"{name}: learned by an earlier dice reader, whose networks are gone: learn it again "
                           "(nova-table dice learn, or dice calibrate)")
    if isinstance(version, bool) or version != VERSION:  # true == 1 in Python, not in the file
        raise ProfileError(f"{name}: {UNUSABLE}: profile version {json.dumps(version)[:20]}, this reader knows {VERSION}")
    unknown = sorted(set(data) - set(FIELDS))
    if unknown:  # a name changed by hand or by a damaged byte ("fhnder": the finder would be left out unsaid)
        raise ProfileError(f"{name}: {UNUSABLE}: a field it does not know, {json.dumps(unknown[0])[:40]}")
    network = _network(data, "network", "sha256", name)
    finder = _network(data, "finder", "finder_sha256", name) if {"finder", "finder_sha256"} & set(data) else None
    faces, learned_from, check = data.get("faces", {}), data.get("learned_from", []), data.get("check", "")
    if not isinstance(faces, dict) or not all(k in CLASSES and isinstance(v, int) for k, v in faces.items()):
        raise ProfileError(f"{name}: {UNUSABLE}: \"faces\" must count dice by face (\"d6:3\": 12, ...)")
    if not isinstance(learned_from, list) or not isinstance(check, str):
        raise ProfileError(f"{name}: {UNUSABLE}: \"learned_from\" must be a list and \"check\" a text")
    return Profile(network, faces, [str(s) for s in learned_from], check, name, finder=finder)


def _network(data: dict[str, object], key: str, sha: str, name: str) -> bytes:
    """The ONNX bytes of a profile's `key` (base64), checked against its SHA-256 (`sha`)."""
    try:
        network = base64.b64decode(str(data[key]), validate=True)
    except (KeyError, ValueError):  # binascii.Error, and ValueError for text that is not ASCII
        raise ProfileError(f"{name}: {UNUSABLE}: no \"{key}\" (base64 of an ONNX network)") from None
    if hashlib.sha256(network).hexdigest() != data.get(sha):
        raise ProfileError(f"{name}: damaged: its {key} does not match its SHA-256: learn it again")
    return network


def fit(profile: Profile) -> Profile:
    """`profile`, its networks loaded and tried on what the reader feeds them (network.load), or ProfileError
    naming its file and each network that is wrong."""
    wrong = []
    for make, net in ((FaceNet, profile.network), (Finder, profile.finder)):
        if net is None:
            continue
        try:
            make(net, name=profile.name)
        except ModelError as bad:
            wrong.append(str(bad).removeprefix(f"{profile.name}: "))
    if wrong:
        raise ProfileError(f"{profile.name}: {'; '.join(wrong)}: learn it again")
    return profile


def load(path: Path) -> Profile:
    """The profile at `path`, checked whole (`fit`), or `ProfileError` saying what is wrong."""
    try:
        text = read_file(path, PROFILE).decode("utf-8")
    except FileNotFoundError:
        raise ProfileError(f"{path}: no such profile file") from None
    except Refused as bad:  # a folder, a pipe (waited on for ever), a device, too large
        raise ProfileError(str(bad)) from None
    except (OSError, UnicodeDecodeError) as bad:
        raise ProfileError(f"{path}: cannot read the profile ({bad})") from None
    return fit(parse(text, str(path)))
