"""The one way in and the one way out of the files the project reads from and writes for a user.

In, `read_file`: opened without blocking (a named pipe does not hang it), regular files only (a device such as
/dev/zero would be read without end), at most the bound of its kind (`Kind`: far above anything real).
Out, `writing`: written beside the target and renamed over it once whole and on the disk; a target that is not a
regular file (a device, a pipe, a folder) or that is a file the command reads (the state file and its log) is
refused before anything is written. Each refusal is a `Refused`, an OSError whose message names the file.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import sys
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Literal, TextIO, overload

MiB = 1 << 20


@dataclass(frozen=True)
class Kind:
    """A kind of file read from a user: its name in messages ("a scenario file") and the most bytes one may hold."""

    name: str
    limit: int

    def bound(self) -> str:
        return f"{self.limit // MiB} MiB" if self.limit % MiB == 0 else f"{self.limit} bytes"


SCENARIO = Kind("a scenario file", 1 * MiB)  # the demo skirmish is 3 KB
CARD = Kind("a card file", 1 * MiB)  # a hero sheet or an enemy card: under 1 KB
HARDWARE = Kind("a hardware file", 1 * MiB)  # a few lines
EXPORT = Kind("a game export", 64 * MiB)  # a long game is thousands of events of a few hundred bytes
MANIFEST = Kind("a manifest", 64 * MiB)  # a line of a few hundred bytes a picture
PROFILE = Kind("a profile file", 256 * MiB)  # two networks in base64: about 20 MB
IMAGE = Kind("an image", 256 * MiB)  # 50 megapixels (images.MAX_PIXELS) uncompressed is 150 MB


class Refused(OSError):
    """A file the way in or out does not take: `strerror` says why, `filename` names it."""

    def __init__(self, path: str | Path, why: str) -> None:
        super().__init__(errno.EINVAL, why, str(path))

    def __str__(self) -> str:
        return f"{self.filename}: {self.strerror}"


def _too_large(path: str | Path, kind: Kind) -> Refused:
    return Refused(path, f"larger than {kind.bound()}, the most {kind.name} may hold")


def _not_regular(path: str | Path, mode: int, what: str) -> Refused:
    if stat.S_ISDIR(mode):
        return Refused(path, f"a folder, not {what}")
    return Refused(path, f"not a regular file (a pipe or a device), not {what}")


def read_file(path: str | Path, kind: Kind) -> bytes:
    """The bytes of the regular file `path`; `Refused` for anything else or anything past `kind`'s bound, OSError
    (FileNotFoundError, PermissionError...) where it cannot be opened."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)  # a pipe opens at once, with no writer too
    try:
        info = os.fstat(fd)  # of the file opened, not of what the name may lead to by the time it is read
        if not stat.S_ISREG(info.st_mode):
            raise _not_regular(path, info.st_mode, kind.name)
        if info.st_size > kind.limit:
            raise _too_large(path, kind)
    except BaseException:
        os.close(fd)
        raise
    with os.fdopen(fd, "rb") as handle:
        data = handle.read(kind.limit + 1)  # it may grow while read
    if len(data) > kind.limit:
        raise _too_large(path, kind)
    return data


def read_stdin(kind: Kind) -> bytes:
    """What stdin holds (its bytes; a text stream's as UTF-8), or `Refused` past `kind`'s bound."""
    stream = getattr(sys.stdin, "buffer", None)
    if stream is not None:
        data: bytes = stream.read(kind.limit + 1)
    else:  # a stream of text put in its place (tests)
        data = sys.stdin.read(kind.limit + 1).encode("utf-8", "surrogateescape")
    if len(data) > kind.limit:
        raise _too_large("<stdin>", kind)
    return data


def _target(path: Path, what: str, keep: Iterable[str | Path]) -> Path:
    """The file `path` names to write (through a symbolic link, the file it leads to), or `Refused`."""
    try:
        target = path.resolve() if path.is_symlink() else path
    except (RuntimeError, OSError):  # Python 3.11 says a loop of links with RuntimeError
        raise Refused(path, f"a symbolic link that leads round in a loop: write {what} to a file") from None
    try:
        mode = os.stat(target).st_mode
    except OSError:
        return target  # not there (yet): made by the rename, or the system says why not when the writing starts
    if not stat.S_ISREG(mode):
        raise Refused(path, f"{'a folder' if stat.S_ISDIR(mode) else 'not a regular file (a pipe or a device)'}: "
                            f"write {what} to a file; nothing was written")  # fmt: skip
    for kept in keep:
        if same_file(target, kept):
            named = "" if str(kept) == str(path) else f" (it is {kept})"
            raise Refused(path, f"a file this command reads{named}: write {what} to another file; "
                                "nothing was written")  # fmt: skip
    return target


def same_file(a: str | Path, b: str | Path) -> bool:
    """Whether `a` and `b` name one file: one path once links are followed, or one device and inode (a hard link)."""
    if os.path.realpath(a) == os.path.realpath(b):  # one name, there or not (a log SQLite has yet to make)
        return True
    try:
        return os.path.samefile(a, b)
    except OSError:  # one of them is not there
        return False


def state_files(state: str | Path) -> list[str]:
    """A state file and the files SQLite keeps beside it: none of them to be written over."""
    return [str(state), *(f"{state}{end}" for end in ("-wal", "-shm", "-journal"))]


def check_target(path: Path, what: str = "it", keep: Iterable[str | Path] = ()) -> None:
    """`Refused` (or the system's OSError) where `writing(path, ...)` would be refused: tried, and left as it was."""
    target = _target(path, what, keep)
    handle, part = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
    os.close(handle)
    os.unlink(part)


@overload
def writing(path: Path, what: str = ..., keep: Iterable[str | Path] = ..., *,
            binary: Literal[False] = ...) -> contextlib.AbstractContextManager[TextIO]: ...  # fmt: skip
@overload
def writing(path: Path, what: str = ..., keep: Iterable[str | Path] = ..., *,
            binary: Literal[True]) -> contextlib.AbstractContextManager[BinaryIO]: ...  # fmt: skip
def writing(path: Path, what: str = "it", keep: Iterable[str | Path] = (), *,
            binary: bool = False) -> contextlib.AbstractContextManager[TextIO | BinaryIO]:  # fmt: skip
    """A file to write in place of `path` (UTF-8 text, or bytes): written beside it, put in its place whole once
    the block ends, removed if it raises. `Refused` first where `path` is not a regular file or is one of `keep`
    (files the command reads); `what` names what is written, for the messages."""
    return _writing(path, what, keep, binary)


@contextlib.contextmanager
def _writing(path: Path, what: str, keep: Iterable[str | Path], binary: bool) -> Iterator[TextIO | BinaryIO]:
    target = _target(Path(path), what, keep)
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)  # a file written over keeps its permissions
    except OSError:
        umask = os.umask(0o022)
        os.umask(umask)
        mode = 0o666 & ~umask  # as the user's files are made, not mkstemp's 0600
    handle, part = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
    try:
        out: TextIO | BinaryIO = os.fdopen(handle, "wb") if binary else os.fdopen(handle, "w", encoding="utf-8")
        with out:
            os.fchmod(out.fileno(), mode)
            yield out
            out.flush()
            os.fsync(out.fileno())
        os.replace(part, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(part)
        raise
    with contextlib.suppress(OSError):  # the rename itself on the disk, where the system lets a folder be synced
        folder = os.open(target.parent, os.O_RDONLY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)


def write_file(path: Path, data: str | bytes, what: str = "it", keep: Iterable[str | Path] = ()) -> None:
    """`data` written in place of `path` whole, through `writing`."""
    if isinstance(data, bytes):
        with writing(path, what, keep, binary=True) as out:
            out.write(data)
    else:
        with writing(path, what, keep) as text:
            text.write(data)
