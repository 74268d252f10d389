"""The event journal of one saved game: append, undo, redo, and the state as the fold of the surviving events.

Events are rows `(game_id, seq)` numbered from 1; the game's `head` says how many of them
survive (the rest were undone and can be redone). Branch policy: a new event after an undo
drops the undone events (the redo branch) in the same transaction that stores it, as every
editor does. Every change is one SQLite transaction (WAL, synchronous=FULL), so after a crash
the file holds exactly the changes whose call returned. A snapshot of the state is stored
every `snapshot_every` events so that resuming folds at most that many events.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from datetime import datetime, timezone
from types import TracebackType
from typing import Any, Generic, TypeVar

from assistant.reading import NotJSON, loads
from assistant.rules.bounds import LINE
from assistant.session.database import rollback, writing
from assistant.session.errors import EventRefused, NoSuchGame, NothingToUndo, SessionError
from assistant.session.fold import Fold
from assistant.session.schema import checksum, event_checksum, head_checksum, sound

S = TypeVar("S")

SNAPSHOT_EVERY = 100
"""Events between two snapshots: resuming folds at most this many events after the last one."""

JOURNAL_LEFT = ("the journal was left as it is (`nova-table play --new` starts another game beside it; "
                "`nova-table session list` shows them all)")


def seal_head(db: sqlite3.Connection, game_id: int, head: int) -> None:
    """Set game `game_id`'s head, and the time it moved, with their checksum (a head changed on the card would
    rewind the game)."""
    stamp = now()
    db.execute("UPDATE games SET head = ?, updated_at = ?, head_crc = ? WHERE id = ?",
               (head, stamp, head_checksum(game_id, head, stamp), game_id))  # fmt: skip


def check_head(path: str, game_id: int, head: int, updated_at: object, head_crc: int | None) -> None:
    """SessionError where a game's head, or the time it last moved, no longer matches its checksum."""
    if not sound(head_crc, head_checksum(game_id, head, updated_at)):  # the next move would drop the events after it
        raise SessionError(f"{path}: game {game_id} is damaged (how many of its events stand, {head}, or when it last "
                           f"moved no longer match their checksum: a byte changed on the card?); {JOURNAL_LEFT}")  # fmt: skip


def encode_event(event: Mapping[str, Any]) -> str:
    """The stored form of an event: compact JSON with sorted keys, no longer than a line `session apply` reads
    (`assistant.rules.bounds.LINE`), so that every stored event can be exported and read back."""
    if not isinstance(event, Mapping):
        raise EventRefused(f"an event is a JSON object, got {type(event).__name__}")
    try:
        body = json.dumps(event, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as error:
        raise EventRefused(f"the event cannot be stored as JSON: {error}") from None
    if len(body) > LINE:
        raise EventRefused(f"an event is at most {LINE} characters as JSON, not {len(body)}")
    return body


def now() -> str:
    """The time an event is recorded, UTC, ISO 8601 to the millisecond."""
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


class Journal(Generic[S]):
    """One game's journal in an open state file; its `state` is always the fold of the surviving events."""

    def __init__(self, connection: sqlite3.Connection, game_id: int, fold: Fold[S],
                 snapshot_every: int = SNAPSHOT_EVERY, path: str = "the state file") -> None:  # fmt: skip
        self._db = connection
        self.path = path
        self.game_id = game_id
        self.fold = fold
        self.snapshot_every = snapshot_every
        self._revision = -1
        self._head = 0
        self._length = 0
        self._state: S | None = None
        self._passed: list[tuple[int, S]] = []  # states a replay folded through at a snapshot's place, none stored there
        self._sync()

    # -- reading -------------------------------------------------------------------------------

    @property
    def state(self) -> S:
        """The state after the surviving events (re-read if another process changed the game)."""
        self._sync()
        assert self._state is not None
        return self._state

    @property
    def head(self) -> int:
        """How many events survive (the seq of the last one, 0 for none)."""
        self._sync()
        return self._head

    @property
    def length(self) -> int:
        """How many events are stored, the undone ones (which redo brings back) included."""
        self._sync()
        return self._length

    def can_undo(self) -> bool:
        return self.head > 0

    def can_redo(self) -> bool:
        return self.length > self.head

    def events(self, start: int = 1, stop: int | None = None) -> list[dict[str, Any]]:
        """The events with seq from `start` to `stop` (default: the surviving ones)."""
        stop = self.head if stop is None else stop
        rows = self._db.execute(
            "SELECT seq, body, recorded_at, crc FROM events WHERE game_id = ? AND seq BETWEEN ? AND ? ORDER BY seq",
            (self.game_id, start, stop),
        )
        return [stored_event(self.path, self.game_id, *row) for row in rows]

    # -- changing ------------------------------------------------------------------------------

    def append(self, event: Mapping[str, Any]) -> int:
        """Store `event` if the fold accepts it; its seq. EventRefused (nothing stored) otherwise."""
        body = encode_event(event)
        decoded = json.loads(body)  # the fold sees exactly what a replay will see
        with self._write():
            state = self._state
            assert state is not None
            try:
                new_state = self.fold.apply(state, decoded)
            except ValueError as error:
                raise EventRefused(str(error), getattr(error, "message", None)) from None
            seq = self._head + 1
            db, game = self._db, self.game_id
            if self._length > self._head:  # drop the redo branch
                db.execute("DELETE FROM events WHERE game_id = ? AND seq >= ?", (game, seq))
                db.execute("DELETE FROM snapshots WHERE game_id = ? AND seq >= ?", (game, seq))
            stamp = now()
            db.execute("INSERT INTO events (game_id, seq, body, recorded_at, crc) VALUES (?, ?, ?, ?, ?)",
                       (game, seq, body, stamp, event_checksum(game, seq, body, stamp)))  # fmt: skip
            if seq % self.snapshot_every == 0:
                self._store_snapshot(seq, new_state)
            self._move_head(seq)
        self._state, self._head, self._length = new_state, seq, seq
        return seq

    def undo(self) -> dict[str, Any]:
        """Take back the last surviving event (it stays stored for redo); that event."""
        with self._write():
            if self._head == 0:
                raise NothingToUndo("nothing to undo: the game is at its start")
            undone = self._event(self._head)
            state = self._state_at(self._head - 1)
            self._store_passed()  # a long replay (snapshots of an older Nova Table) is not paid for at the next undo
            self._move_head(self._head - 1)
        self._state, self._head = state, self._head - 1
        return undone

    def redo(self) -> dict[str, Any]:
        """Bring back the last undone event; that event."""
        with self._write():
            if self._head >= self._length:
                raise NothingToUndo("nothing to redo")
            seq = self._head + 1
            redone = self._event(seq)
            assert self._state is not None
            try:
                state = self.fold.apply(self._state, redone)
            except ValueError as error:
                raise EventRefused(f"event {seq} cannot be redone: {error}") from None
            self._move_head(seq)
        self._state, self._head = state, seq
        return redone

    # -- inside --------------------------------------------------------------------------------

    def _write(self) -> _WriteTransaction:
        return _WriteTransaction(self)

    def _move_head(self, head: int) -> None:
        seal_head(self._db, self.game_id, head)
        self._db.execute("UPDATE games SET revision = revision + 1 WHERE id = ?", (self.game_id,))
        self._revision += 1

    def _event(self, seq: int) -> dict[str, Any]:
        row = self._db.execute("SELECT body, recorded_at, crc FROM events WHERE game_id = ? AND seq = ?",
                               (self.game_id, seq)).fetchone()  # fmt: skip
        if row is None:
            raise SessionError(f"{self.path}: game {self.game_id}: event {seq} is missing from the journal")
        return stored_event(self.path, self.game_id, seq, *row)

    def _sync(self) -> None:
        """Re-read head and length, and the state, if the game changed since we last looked."""
        if self._db.in_transaction:
            self._read()
            return
        self._db.execute("BEGIN")  # head, snapshot and events read as one consistent view
        try:
            folded = self._read()
        finally:
            self._db.execute("COMMIT")
        if folded >= self.snapshot_every:
            self._catch_up_snapshot()

    def _read(self) -> int:
        """Refresh the cache from the file; how many events had to be folded for it."""
        row = self._db.execute("SELECT head, revision, updated_at, head_crc FROM games WHERE id = ?", (self.game_id,)).fetchone()
        if row is None:
            raise NoSuchGame(f"no game {self.game_id} in this state file")
        head, revision, updated, head_crc = row
        check_head(self.path, self.game_id, head, updated, head_crc)
        if revision == self._revision and self._state is not None:
            return 0
        (length,) = self._db.execute("SELECT coalesce(max(seq), 0) FROM events WHERE game_id = ?", (self.game_id,)).fetchone()
        self._state, folded = self._fold_to(head)
        self._head, self._length, self._revision = head, length, revision
        return folded

    def _catch_up_snapshot(self) -> None:
        """After a long replay (snapshots of an older Nova Table, say), store one at head for the next resume."""
        try:
            self._db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error:
            return  # busy or read-only: the next resume replays again, nothing is lost
        try:
            (revision,) = self._db.execute("SELECT revision FROM games WHERE id = ?", (self.game_id,)).fetchone()
            if revision == self._revision and self._head > 0:
                assert self._state is not None
                self._store_passed()  # and where the replay passed the snapshots' places, for undo
                self._store_snapshot(self._head, self._state)
            self._db.execute("COMMIT")
        except sqlite3.Error:  # a full card: skipped, the next resume replays again
            rollback(self._db)

    def _state_at(self, head: int) -> S:
        """The fold of events 1..head, from the nearest snapshot that this fold wrote."""
        return self._fold_to(head)[0]

    def _fold_to(self, head: int) -> tuple[S, int]:
        """The state after events 1..head, and how many events were folded after the snapshot used."""
        state: S | None = None
        start = 0
        rows = self._db.execute(
            "SELECT seq, state, crc FROM snapshots WHERE game_id = ? AND seq <= ? AND fold = ? ORDER BY seq DESC",
            (self.game_id, head, self.fold.tag),
        )
        for seq, text, crc in rows:  # the newest sound one: one whose bytes changed on the card is passed over
            if not sound(crc, checksum(self.game_id, seq, text)):
                continue
            try:
                state, start = self.fold.load(json.loads(text)), seq
                break
            except (ValueError, KeyError, TypeError):
                break  # a snapshot this code cannot read: replay from the start
        if state is None:
            state, start = self.fold.initial(), 0
        rows = self._db.execute(
            "SELECT seq, body, recorded_at, crc FROM events WHERE game_id = ? AND seq > ? AND seq <= ? ORDER BY seq",
            (self.game_id, start, head),
        )
        expected = start + 1
        self._passed = []
        for seq, body, recorded, crc in rows:
            if seq != expected:
                break
            event = stored_event(self.path, self.game_id, seq, body, recorded, crc)
            try:
                state = self.fold.apply(state, event)
            except ValueError as error:
                raise SessionError(
                    f"{self.path}: game {self.game_id}: stored event {seq} is refused by this version of the rules ({error}: written"
                    f" by another version, or damaged); {JOURNAL_LEFT}"
                ) from None
            if seq % self.snapshot_every == 0:  # (the nearest this fold wrote is `start`: none after it here)
                self._passed.append((seq, state))
            expected += 1
        if expected <= head:
            raise SessionError(f"{self.path}: game {self.game_id}: event {expected} is missing from the journal (damaged?); {JOURNAL_LEFT}")
        return state, head - start

    def _store_passed(self) -> None:
        for seq, state in self._passed:
            self._store_snapshot(seq, state)
        self._passed = []

    def _store_snapshot(self, seq: int, state: S) -> None:
        text = json.dumps(self.fold.dump(state), separators=(",", ":"))
        self._db.execute(
            "INSERT OR REPLACE INTO snapshots (game_id, seq, fold, state, crc) VALUES (?, ?, ?, ?, ?)",
            (self.game_id, seq, self.fold.tag, text, checksum(self.game_id, seq, text)),
        )


def stored_event(path: str, game_id: int, seq: int, body: str, recorded_at: str, crc: int | None) -> dict[str, Any]:
    """A stored event's text read back from state file `path`; SessionError where its checksum `crc` (of its text
    and time) does not match or it is not an event's JSON (the file damaged or edited), no fault of the rules."""
    if not sound(crc, event_checksum(game_id, seq, body, recorded_at)):
        raise SessionError(f"{path}: game {game_id}: stored event {seq} is damaged (its bytes no longer match their checksum: "
                           f"a byte changed on the card?); {JOURNAL_LEFT}")  # fmt: skip
    try:
        event = loads(body)
    except NotJSON as error:
        why = f"not JSON: {error}"
    else:
        if isinstance(event, dict):
            return event
        why = "not a JSON object"
    raise SessionError(f"{path}: game {game_id}: stored event {seq} is damaged ({why}); {JOURNAL_LEFT}")


class _WriteTransaction(writing):
    """`writing` (the write lock), the journal first brought up to date; its revision put back if nothing was stored."""

    def __init__(self, journal: Journal[Any]) -> None:
        super().__init__(journal._db)
        self.journal = journal
        self.revision = -1

    def __enter__(self) -> None:
        super().__enter__()
        try:
            self.journal._sync()
        except BaseException:
            rollback(self.db)
            raise
        self.revision = self.journal._revision

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None) -> None:
        stored = False
        try:
            super().__exit__(kind, error, trace)
            stored = kind is None
        finally:
            if not stored:
                self.journal._revision = self.revision
