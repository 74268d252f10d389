"""Load a picture from disk, turning every way it can fail into an `ImageError` with a reason."""

from __future__ import annotations

import errno
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import cv2
import numpy as np

from assistant.files import IMAGE, Refused, read_file
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
        data = np.frombuffer(read_file(path, IMAGE), dtype=np.uint8)
    except Refused as bad:  # a folder, a pipe (waited on for ever), a device (read without end), too large
        raise ImageError(str(bad)) from None
    except OSError as bad:
        if bad.errno in (errno.ENOENT, errno.ENOTDIR, errno.ENAMETOOLONG):  # (a name too long: none can be)
            raise ImageError(f"{path}: no such file") from None
        raise ImageError(f"{path}: cannot read ({bad.strerror or bad})") from None  # no permission to it or its folder
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


def encoded(image: np.ndarray, name: str | Path) -> bytes:
    """`image` as the bytes of a file named `name` (PNG for roll-0001.png), to write through files.write_file."""
    ok, data = cv2.imencode(Path(name).suffix or ".png", image)
    if not ok:
        raise ImageError(f"{name}: OpenCV cannot encode the picture")
    return data.tobytes()


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


WORK_SIDE = 640  # frames are read at most this many pixels on their longer side
TILE_SIDE = 200  # a picture this small or smaller, roughly square, is one cropped die


def is_tile(shape: tuple[int, ...]) -> bool:
    """A small, roughly square picture: one die cropped close."""
    h, w = shape[:2]
    return max(h, w) <= TILE_SIDE and 0.7 <= w / h <= 1.43


def content_window(image: np.ndarray) -> tuple[int, int, int, int]:
    """(top, bottom, left, right) bounds of the picture without masked bands at its edges.

    A band is a run of edge rows (or columns) all of one and the same colour; bands that would
    leave less than half the picture are not taken for masks (a picture of stripes).
    """
    h, w = image.shape[:2]

    def run(lines: list[np.ndarray]) -> int:
        first = lines[0].reshape(-1, image.shape[2])[0]
        n = 0
        for line in lines:
            if not (line == first).all():
                break
            n += 1
        return n

    top = run([image[i] for i in range(h // 4)]) if h >= 4 else 0
    bottom = h - (run([image[h - 1 - i] for i in range(h // 4)]) if h >= 4 else 0)
    left = run([image[:, j] for j in range(w // 4)]) if w >= 4 else 0
    right = w - (run([image[:, w - 1 - j] for j in range(w // 4)]) if w >= 4 else 0)
    return top, bottom, left, right


def working(frame: np.ndarray) -> tuple[np.ndarray, float, int, int, bool]:
    """The frame without masked bands, at most WORK_SIDE pixels: (image, scale, left, top, is a tile).
    A frame's box (x, y) is the working image's (x / scale + left, y / scale + top)."""
    frame = check_frame(frame)
    h, w = frame.shape[:2]
    top, bottom, left, right = content_window(frame)
    frame = frame[top:bottom, left:right]
    scale = min(1.0, WORK_SIDE / max(frame.shape[:2]))
    if min(frame.shape[:2]) * scale < MIN_SIDE:  # a strip: at the working size its short side would go
        raise ImageError(f"frame: too long and narrow ({w}x{h} pixels) to hold a die at {WORK_SIDE} pixels")
    work = frame if scale == 1.0 else cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    return work, scale, left, top, is_tile(frame.shape)
