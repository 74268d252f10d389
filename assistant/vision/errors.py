"""The exceptions of dice vision, each with a message a player or a developer can act on."""

from __future__ import annotations

import os
from pathlib import Path


class VisionError(Exception):
    """Base of every dice-vision error."""


class ImageError(VisionError):
    """An image could not be used: missing, unreadable, corrupt, empty or not a picture."""


class ManifestError(VisionError):
    """A manifest line could not be understood."""


class ProfileError(VisionError):
    """A dice profile file is missing, corrupt or of another version."""


class SourceError(VisionError):
    """A frame source could not be opened or stopped delivering frames."""


class CameraLost(SourceError):
    """A camera that gave frames gives none any more (unplugged, its cable bumped); `source` names it."""

    def __init__(self, source: str) -> None:
        super().__init__(f"{source} gives no frames any more (unplugged?)")
        self.source = source


class ModelError(VisionError):
    """The face model (ONNX file and its heads) is missing, corrupt or does not match."""


def why_not_written(folder: Path, bad: OSError) -> str:
    """Why nothing could be written into `folder`, in plain words: the file that stands where a folder
    must be (`folder` or one above it), else the system's reason."""
    blocker = next((p for p in (folder, *folder.parents) if os.path.isfile(p)), None)
    return f"{blocker} is a file, not a folder" if blocker is not None else str(bad.strerror or bad)
