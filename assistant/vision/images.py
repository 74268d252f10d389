"""Load a picture from disk, turning every way it can fail into an `ImageError` with a reason."""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import cv2
import numpy as np

from assistant.vision.errors import ImageError

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp"}  # what a folder of pictures is read for
MIN_SIDE = 16
MAX_PIXELS = 50_000_000  # as OPENCV_IO_MAX_IMAGE_PIXELS is set (assistant/vision/__init__.py)


@contextmanager
def quiet_opencv() -> Iterator[None]:
    """OpenCV's own warnings held back (a file or camera it cannot open): ours say what is wrong."""
    level = cv2.utils.logging.getLogLevel()
    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_ERROR)
    try:
        yield
    finally:
        cv2.utils.logging.setLogLevel(level)


def load_image(path: Path) -> np.ndarray:
    """The image at `path` as a BGR uint8 array, or `ImageError` saying what is wrong."""
    try:
        mode = os.stat(path).st_mode
    except OSError as bad:
        if bad.errno in (errno.ENOENT, errno.ENOTDIR, errno.ENAMETOOLONG):  # (a name too long: none can be)
            raise ImageError(f"{path}: no such file") from None
        raise ImageError(f"{path}: cannot read ({bad.strerror or bad})") from None  # no permission to its folder
    if stat.S_ISDIR(mode):
        raise ImageError(f"{path}: is a folder, not an image")
    if not stat.S_ISREG(mode):  # a named pipe would be waited on for ever, a device read without end
        raise ImageError(f"{path}: not a regular file (a pipe or a device), not an image")
    try:
        data = np.fromfile(str(path), dtype=np.uint8)
    except OSError as bad:
        raise ImageError(f"{path}: cannot read ({bad.strerror or bad})") from None
    if data.size == 0:
        raise ImageError(f"{path}: empty file")
    with quiet_opencv():
        try:
            image = cv2.imdecode(data, cv2.IMREAD_COLOR)
        except cv2.error as bad:  # OPENCV_IO_MAX_IMAGE_PIXELS (assistant/vision/__init__.py), read from the header
            if "MAX_IMAGE_PIXELS" not in str(bad):
                raise
            raise ImageError(f"{path}: too large (over {MAX_PIXELS} pixels)") from None
    if image is None:
        raise ImageError(f"{path}: not a picture OpenCV can decode (corrupt or another format)")
    return check_frame(image, str(path))


def check_frame(image: np.ndarray, name: str = "frame") -> np.ndarray:
    """`image` as 3-channel BGR uint8, or `ImageError` if it is too small, too big or blank."""
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    elif image.ndim == 3 and image.shape[2] == 4:
        image = cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    if image.ndim != 3 or image.shape[2] != 3:
        raise ImageError(f"{name}: unsupported image shape {image.shape}")
    if image.dtype != np.uint8:
        raise ImageError(f"{name}: unsupported pixel type {image.dtype}")
    h, w = image.shape[:2]
    if min(h, w) < MIN_SIDE:
        raise ImageError(f"{name}: too small ({w}x{h} pixels) to hold a die")
    if h * w > MAX_PIXELS:
        raise ImageError(f"{name}: too large ({w}x{h} pixels)")
    return image
