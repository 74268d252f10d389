"""Open a state file safely: check it is an intact Nova Table file, set WAL and synchronous=FULL, migrate.

A file that is missing, empty, all zeros, truncated, damaged, another program's database or
written by a newer Nova Table is refused with a StateFileError naming it and saying what is
wrong; such a file is never written to.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import TypeVar
from urllib.parse import quote

from assistant.session import schema
from assistant.session.errors import StateFileError

SQLITE_MAGIC = b"SQLite format 3\x00"
LEFT_AS_IS = "it was left as it is"
T = TypeVar("T")


def _describe_header(path: Path, header: bytes, size: int, checkpoint_pending: bool) -> str | None:
    """Why these first bytes are not an intact SQLite file, or None if they look right (the page count of a
    file whose write-ahead log is not yet copied into it, `checkpoint_pending`, is not checked)."""
    if not header.startswith(SQLITE_MAGIC):
        if size and not header.strip(b"\x00"):
            if _holds_data(path):
                return (f"{path} has lost its header (its first bytes are zeros), but the rest of it holds data (the "
                        f"games may still be in it): keep the file, and start a new one elsewhere; {LEFT_AS_IS}")
            return f"{path} is all zeros (a write that never reached the disk?), not a Nova Table state file; {LEFT_AS_IS}"
        return f"{path} is not a Nova Table state file (it is not an SQLite database); {LEFT_AS_IS}"
    if len(header) < 100:
        return f"{path} is truncated: only {size} bytes, shorter than an SQLite header; {LEFT_AS_IS}"
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    pages = int.from_bytes(header[28:32], "big")
    size_is_valid = pages > 0 and header[24:28] == header[92:96]
    if size_is_valid and not checkpoint_pending and size < pages * page_size:
        return (
            f"{path} is truncated: its header says {pages} pages of {page_size} bytes ({pages * page_size} bytes)"
            f" but the file has {size} bytes; {LEFT_AS_IS}"
        )
    return None


def _holds_data(path: Path) -> bool:
    """Any byte of `path` not zero."""
    with path.open("rb") as handle:
        while chunk := handle.read(1 << 20):
            if chunk.strip(b"\x00"):
                return True
    return False


def _check_file(path: Path, create: bool) -> None:
    try:
        _check_header(path, create)
    except OSError as error:  # no permission to read it or its folder, a name too long, a folder that is a file
        raise StateFileError(f"{path}: cannot read it ({error.strerror or error}); {LEFT_AS_IS}") from error


def _check_header(path: Path, create: bool) -> None:
    if not path.exists():
        if create:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except (FileExistsError, NotADirectoryError) as error:
                blocker = next((p for p in path.parents if p.is_file()), path.parent)
                raise StateFileError(f"{path}: cannot make its folder: a file is in the way ({blocker})") from error
            except OSError as error:
                raise StateFileError(f"{path}: cannot make its folder {path.parent} ({error.strerror or error})") from error
            return
        raise StateFileError(f"{path}: no such state file (start a game with: nova-table session new --scenario FILE --state {path})")
    if not path.is_file():
        raise StateFileError(f"{path} is not a file")
    size = path.stat().st_size
    if size == 0:
        if create:
            return
        raise StateFileError(f"{path} is empty: it holds no game")
    # the log looked at first: a checkpoint writes the header's page before the others, and the log stays until
    # they are all written
    checkpoint_pending = _has_log(path)
    with path.open("rb") as handle:
        header = handle.read(100)
        size = os.fstat(handle.fileno()).st_size  # after the header: the file grows as they are written
    problem = _describe_header(path, header, size, checkpoint_pending)
    if problem:
        raise StateFileError(problem)


def _damaged(path: Path, error: sqlite3.Error | str) -> StateFileError:
    return StateFileError(f"{path} is damaged (SQLite says: {error}); {LEFT_AS_IS}")


class _Unusable(StateFileError):
    """SQLite could not use an intact file (`_unusable`)."""


def _unusable(path: Path | str, error: sqlite3.Error) -> StateFileError:
    """SQLite could not use an intact file: a read-only file, folder or card, a full card, a lock held."""
    return _Unusable(f"{path}: SQLite cannot use it ({error}): is it, its folder or the card read-only, or the "
                          f"card full? {LEFT_AS_IS}")


def _unsaved(path: str, error: sqlite3.Error) -> StateFileError:
    """A write SQLite could not make; said first what the players need (the screen shows two lines)."""
    return StateFileError(f"Not saved: is the card read-only or full? SQLite cannot write to {path} ({error}); "
                          f"nothing was changed in it")


class writing:
    """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK on any error. A write SQLite cannot make is a StateFileError
    naming the file (`_unsaved`): the table says so and goes on, with nothing stored."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as error:
            raise _unsaved(_file_of(self.db), error) from error

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None) -> None:
        if kind is None:
            try:
                self.db.execute("COMMIT")
                return
            except sqlite3.OperationalError as failed:
                error = failed
        rollback(self.db)
        if isinstance(error, sqlite3.OperationalError):
            raise _unsaved(_file_of(self.db), error) from error


def rollback(db: sqlite3.Connection) -> None:
    """ROLLBACK, where a transaction is still open: SQLite ends one itself when a COMMIT fails (a full
    card), and one it could not finish it rolls back when the file is next opened."""
    if db.in_transaction:
        try:
            db.execute("ROLLBACK")
        except sqlite3.Error:
            pass


def _file_of(db: sqlite3.Connection) -> str:
    try:
        return str(db.execute("PRAGMA database_list").fetchone()[2]) or "the state file"
    except sqlite3.Error:
        return "the state file"


def _write_ahead(connection: sqlite3.Connection, seconds: float = 10.0) -> str:
    """PRAGMA journal_mode = WAL, the journal mode it gives. Where another program is turning a new file to
    WAL at the same moment, SQLite says busy at once (its busy timeout does not wait for this lock): tried
    again until `seconds` have gone by, as the busy timeout would."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            return str(connection.execute("PRAGMA journal_mode = WAL").fetchone()[0])
        except sqlite3.OperationalError as error:
            if error.sqlite_errorcode != sqlite3.SQLITE_BUSY or time.monotonic() > deadline:
                raise
            time.sleep(0.02)


def _single(connection: sqlite3.Connection, sql: str) -> int:
    row = connection.execute(sql).fetchone()
    return int(row[0])


def _migrate(connection: sqlite3.Connection, path: Path) -> None:
    """Bring the file to the schema version of this code, in one transaction."""
    target = len(schema.MIGRATIONS)
    version = _single(connection, "PRAGMA user_version")
    if version > 0:
        backup = sqlite3.connect(f"{path}.schema-{version}.bak")
        try:
            connection.backup(backup)
        finally:
            backup.close()
    connection.execute("PRAGMA foreign_keys = OFF")  # a table rebuilt must not take its events with it
    connection.execute("BEGIN IMMEDIATE")
    try:
        version = _single(connection, "PRAGMA user_version")
        for step in range(version, target):
            schema.MIGRATIONS[step](connection)
        broken = connection.execute("PRAGMA foreign_key_check").fetchone()
        if broken is not None:
            raise sqlite3.IntegrityError(f"a row of {broken[0]} names no {broken[2]} row")
        connection.execute(f"PRAGMA user_version = {target}")
        connection.execute(f"PRAGMA application_id = {schema.APPLICATION_ID}")
        connection.execute("COMMIT")
    except BaseException as error:
        rollback(connection)
        if isinstance(error, sqlite3.Error):
            raise StateFileError(f"{path}: cannot bring the file to schema {target} ({error}); {LEFT_AS_IS}") from error
        raise
    finally:
        connection.execute("PRAGMA foreign_keys = ON")


def _connect(file: Path, mode: str) -> sqlite3.Connection:
    try:
        connection = sqlite3.connect(
            f"file:{quote(str(file.absolute()))}?mode={mode}", uri=True, isolation_level=None, check_same_thread=False
        )
    except sqlite3.Error as error:
        raise StateFileError(f"{file}: cannot open ({error})") from error

    def text(raw: bytes) -> str:
        """A stored text; one that is not UTF-8 is damage (sqlite3 itself says OperationalError, a traceback)."""
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError as bad:
            raise StateFileError(f"{file} is damaged: a text stored in it is not UTF-8 (a byte 0x{raw[bad.start]:02X}); "
                                 f"{LEFT_AS_IS}") from None  # fmt: skip

    connection.text_factory = text
    return connection


def _check_contents(connection: sqlite3.Connection, path: Path, create: bool, check: bool) -> int:
    """The file's schema version, once it is known to be this program's, intact (`check`: quick_check) and not
    too new; a StateFileError saying what is wrong otherwise."""
    connection.execute("PRAGMA busy_timeout = 10000")
    version, application, tables = connection.execute(  # one read: not across another's first commit
        "SELECT (SELECT user_version FROM pragma_user_version), (SELECT application_id FROM pragma_application_id),"
        " (SELECT count(*) FROM sqlite_master)"
    ).fetchone()
    target = len(schema.MIGRATIONS)
    if version > target:
        raise StateFileError(
            f"{path} was written by a newer Nova Table (schema version {version}; this one reads up to"
            f" {target}): update Nova Table to open it; {LEFT_AS_IS}"
        )
    if application != schema.APPLICATION_ID and (tables or version):
        raise StateFileError(f"{path} is an SQLite database of another program, not a Nova Table state file; {LEFT_AS_IS}")
    if version == 0 and not create:
        raise StateFileError(f"{path} holds no game (an empty database); {LEFT_AS_IS}")
    if check:
        verdict = [row[0] for row in connection.execute("PRAGMA quick_check(5)")]
        if verdict != ["ok"]:
            raise _damaged(path, "; ".join(verdict))
    return int(version)


def _guarded(connection: sqlite3.Connection, file: Path, step: Callable[[], T]) -> T:
    """`step` on `connection`; any failure closes it and is said as the file's problem (StateFileError)."""
    try:
        return step()
    except StateFileError:
        connection.close()
        raise
    except sqlite3.OperationalError as error:  # read-only, no room, locked: the file is not at fault
        connection.close()
        raise _unusable(file, error) from error
    except sqlite3.DatabaseError as error:
        connection.close()
        raise _damaged(file, error) from error


def open_state_file(path: str | os.PathLike[str], *, create: bool = False, check: bool = True,
                    read_only: bool = False) -> sqlite3.Connection:  # fmt: skip
    """An open connection (autocommit: the caller runs its own transactions) to a checked state file.

    `create` makes the file if it does not exist (or is empty); `check` runs SQLite's quick_check;
    `read_only` opens it for reading only (`show`, `list`, `export`: a card gone read-only, as worn SD
    cards do, still gives its games up), unless its schema must first be brought up to date; nothing is
    written through it after that (SQLite's query_only), not even a snapshot a replay passed.
    A file with a write-ahead log beside it (a crash's, or another file's put there) is checked through a
    read-only connection first: a refused file is never opened for writing, whose closing would copy that
    log into it. Once open, the log is copied into the file, so the file holds the whole game on its own
    (moved or copied without its -wal) until the next write.
    """
    file = Path(path)
    _check_file(file, create)
    try:
        connection = _open(file, create, check)
        if read_only:
            connection.execute("PRAGMA query_only = ON")
        return connection
    except _Unusable:
        if not read_only or create:
            raise
    reader = _reader(file)  # a read-only card (or file, or folder): read as it is
    if _guarded(reader, file, lambda: _check_contents(reader, file, False, check)) < len(schema.MIGRATIONS):
        reader.close()
        raise _unusable(file, sqlite3.OperationalError("its schema must be brought up to date, which writes"))
    return reader


def _open(file: Path, create: bool, check: bool) -> sqlite3.Connection:
    """The writing connection of `open_state_file`."""
    if _has_log(file):
        if not file.is_file() or file.stat().st_size == 0:  # SQLite would take that log for the new file's, then delete it
            raise StateFileError(
                f"{file}-wal holds the newest events of a game whose file is not beside it (moved away after the power "
                f"was cut?): put that file back as {file.name}, or move {file.name}-wal and {file.name}-shm away with "
                f"it; {LEFT_AS_IS}"
            )  # fmt: skip
        reader = _connect(file, "ro")
        _guarded(reader, file, lambda: _check_contents(reader, file, create, check))
        reader.close()
        check = False  # checked: the writing connection does not check again
    connection = _connect(file, "rwc" if create else "rw")

    def prepare() -> None:
        version = _check_contents(connection, file, create, check)
        if _write_ahead(connection).lower() != "wal":
            raise StateFileError(f"{file}: SQLite cannot use write-ahead logging here")
        connection.execute("PRAGMA synchronous = FULL")
        connection.execute("PRAGMA foreign_keys = ON")
        if version < len(schema.MIGRATIONS):
            _migrate(connection, file)
        try:
            connection.execute("PRAGMA wal_checkpoint(PASSIVE)")  # never waits: what readers hold is copied later
        except sqlite3.OperationalError:
            pass  # a full card: the log stays where it is, the game whole with it

    _guarded(connection, file, prepare)
    return connection


def _reader(file: Path) -> sqlite3.Connection:
    """A read-only connection; on a read-only card, where SQLite cannot make the shared-memory file a log
    needs, one that takes the file as it is (`immutable`), where no log is beside it."""
    reader = _connect(file, "ro")
    try:
        reader.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.OperationalError:
        if _has_log(file):
            return reader  # said by the checks that follow, as any file SQLite cannot use
        reader.close()
        reader = _connect(file, "ro&immutable=1")
    except sqlite3.DatabaseError as error:
        reader.close()
        raise _damaged(file, error) from error
    return reader


def _has_log(file: Path) -> bool:
    """A write-ahead log with something in it beside `file`."""
    log = Path(f"{file}-wal")
    return log.is_file() and log.stat().st_size > 0
