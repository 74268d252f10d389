"""The saved games of one state file: start, list, resume, archive, delete, and the campaign sheet beside them."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import Any

from assistant.session.database import open_state_file, writing
from assistant.session.errors import NoSuchGame, SessionError
from assistant.session.fold import Fold, FoldFactory, default_folds
from assistant.session.journal import JOURNAL_LEFT, SNAPSHOT_EVERY, Journal, check_head, now, seal_head
from assistant.session.schema import MEANING, game_checksum, scenario_checksum, sound

CAMPAIGN = "campaign"
"""The game reference of the campaign sheet (`--game campaign`)."""


@dataclass(frozen=True)
class GameInfo:
    """One saved game as `list` shows it."""

    id: int
    kind: str
    title: str
    edition: str | None
    status: str
    head: int
    length: int
    created_at: str
    updated_at: str
    scenario_source: str | None
    current: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": CAMPAIGN if self.kind == CAMPAIGN else self.id,
            "kind": self.kind,
            "title": self.title,
            "edition": self.edition,
            "status": self.status,
            "events": self.head,
            "undone": self.length - self.head,
            "created_at": self.created_at,
            "updated_at": self.updated_at,
            "scenario": self.scenario_source,
            "current": self.current,
        }


_SELECT = """
    SELECT g.id, g.kind, g.title, g.edition, g.status, g.head,
           (SELECT coalesce(max(seq), 0) FROM events e WHERE e.game_id = g.id),
           g.created_at, g.updated_at, g.scenario_source, g.crc, g.head_crc
    FROM games g
"""


def seal_game(db: sqlite3.Connection, game_id: int) -> None:
    """Seal a game's row as just written: its `MEANING` columns (crc) and its scenario (scenario_crc)."""
    *meaning, text = db.execute(f"SELECT {MEANING}, scenario_text FROM games WHERE id = ?", (game_id,)).fetchone()
    db.execute("UPDATE games SET crc = ?, scenario_crc = ? WHERE id = ?",
               (game_checksum(game_id, meaning), scenario_checksum(game_id, text), game_id))  # fmt: skip


def check_game(path: str, game_id: int, meaning: Sequence[object], crc: object) -> None:
    """SessionError, naming the state file and the game, where a game's `MEANING` no longer matches its checksum."""
    if not sound(crc, game_checksum(game_id, meaning)):
        raise SessionError(f"{path}: game {game_id} is damaged (what it is, its kind, title, edition, scenario's name, "
                           f"status or start time, no longer matches its checksum: a byte changed on the card?); "
                           f"{JOURNAL_LEFT}")  # fmt: skip


def check_scenario(path: str, game_id: int, text: object, crc: object) -> None:
    """SessionError where the scenario (or setup) saved with a game no longer matches its checksum."""
    if not sound(crc, scenario_checksum(game_id, text)):
        raise SessionError(f"{path}: game {game_id} is damaged (the copy of its scenario saved with it no longer matches "
                           f"its checksum: a byte changed on the card?); {JOURNAL_LEFT}")  # fmt: skip


class StateFile:
    """An open state file: the saved games and the campaign sheet, each with its journal."""

    def __init__(self, path: str | os.PathLike[str], *, create: bool = False, folds: FoldFactory = default_folds,
                 snapshot_every: int = SNAPSHOT_EVERY, read_only: bool = False) -> None:  # fmt: skip
        self.path = str(path)
        self.db = open_state_file(path, create=create, read_only=read_only)
        self.read_only = read_only
        self.folds = folds
        self.snapshot_every = snapshot_every

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> StateFile:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None) -> None:
        self.close()

    # -- games -----------------------------------------------------------------------------------

    def new_game(self, scenario_text: str, source: str, kind: str = "mission") -> GameInfo:
        """Start a game of `kind` from its setup's text (a mission's scenario, a Status table's factions), checked
        whole first, and make it the current game."""
        fold = self.folds(kind, scenario_text, source)  # its reader has had the rules set it up (`parse_scenario`)
        title, edition = title_and_edition(fold, source)
        source = source.encode("utf-8", "surrogateescape").decode("utf-8", "replace")  # a file name not in UTF-8
        with writing(self.db):
            stamp = now()
            cursor = self.db.execute(
                "INSERT INTO games (kind, title, edition, scenario_source, scenario_text, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (kind, title, edition, source, scenario_text, stamp, stamp),
            )
            game_id = int(cursor.lastrowid or 0)
            seal_head(self.db, game_id, 0)
            seal_game(self.db, game_id)
            self._set_current(game_id)
        return self.game(game_id)

    def games(self, *, archived: bool = True, campaign: bool = False,
              damaged: list[SessionError] | None = None) -> list[GameInfo]:  # fmt: skip
        """The saved games, oldest first. A damaged one is said: its error raised, or, given a list `damaged`, put
        in it and the game left out (the others still listed)."""
        current = self._current_id()
        games = []
        for row in self.db.execute(_SELECT + " ORDER BY g.id").fetchall():
            try:
                games.append(self._info(row, current))
            except SessionError as error:
                if damaged is None:
                    raise
                damaged.append(error)
        return [g for g in games if (archived or g.status == "active") and (campaign or g.kind != CAMPAIGN)]

    def game(self, ref: int | str | None = None) -> GameInfo:
        """The game `ref` (an id, "campaign", or None for the current game)."""
        game_id = self._resolve(ref)
        row = self.db.execute(_SELECT + " WHERE g.id = ?", (game_id,)).fetchone()
        if row is None:
            raise NoSuchGame(f"{self.path}: no game {ref} (see: nova-table session list --state {self.path})")
        return self._info(row, self._current_id())

    def journal(self, ref: int | str | None = None) -> Journal[Any]:
        """The journal of game `ref`, with its state resumed."""
        game_id = self._resolve(ref)
        kind, text, source = self._setup(game_id, ref)
        fold: Fold[Any] = self.folds(kind, text, f"{self.path} (the copy of {source} saved with game {game_id})")
        return Journal(self.db, game_id, fold, self.snapshot_every, self.path)

    def scenario(self, ref: int | str | None = None) -> tuple[str, str]:
        """The scenario text game `ref` was started from, as saved with it, and where it came from."""
        game_id = self._resolve(ref)
        _, text, source = self._setup(game_id, ref)
        if text is None:
            raise NoSuchGame(f"{self.path}: game {ref} has no saved scenario")
        return str(text), str(source or "")

    def again(self, ref: int | str | None = None) -> GameInfo:
        """A new game of the same kind and setup as game `ref` (from the copy saved with it), made the current game."""
        text, source = self.scenario(ref)
        return self.new_game(text, source, self.game(ref).kind)

    def resume(self, ref: int | str | None) -> GameInfo:
        """Make game `ref` the current one (bringing it back from the archive)."""
        game_id = self._resolve(ref)
        with writing(self.db):
            self._set_status(game_id, "active")
            self._set_current(game_id)
        return self.game(game_id)

    def archive(self, ref: int | str | None) -> GameInfo:
        """Put game `ref` away: it stays in the file, listed as archived, and `resume` brings it back."""
        game_id = self._resolve(ref)
        with writing(self.db):
            self._set_status(game_id, "archived")
            if self._current_id() == game_id:
                self._set_current(self._latest_active(excluding=game_id))
        return self.game(game_id)

    def delete(self, ref: int | str | None) -> GameInfo:
        """Delete game `ref` and its whole journal (export it first to keep a copy); a damaged one too."""
        game_id = self._resolve(ref)
        row = self.db.execute(_SELECT + " WHERE g.id = ?", (game_id,)).fetchone()
        if row is None:
            raise NoSuchGame(f"{self.path}: no game {ref} (see: nova-table session list --state {self.path})")
        info = _info(row, self._current_id())
        with writing(self.db):
            self.db.execute("DELETE FROM games WHERE id = ?", (info.id,))
            if info.current:
                self._set_current(self._latest_active(excluding=info.id))
        return info

    def campaign_id(self) -> int:
        """The id of the campaign sheet's journal, made on first use."""
        row = self.db.execute("SELECT id FROM games WHERE kind = 'campaign'").fetchone()
        if row is not None:
            return int(row[0])
        if self.read_only:  # made by its first event, never by a command that reads
            raise NoSuchGame(f"{self.path}: no campaign sheet yet (its first event makes it: nova-table session apply "
                             f"--game campaign --state {self.path})")  # fmt: skip
        with writing(self.db):
            row = self.db.execute("SELECT id FROM games WHERE kind = 'campaign'").fetchone()
            if row is not None:
                return int(row[0])
            stamp = now()
            cursor = self.db.execute(
                "INSERT INTO games (kind, title, edition, created_at, updated_at)"
                " VALUES ('campaign', 'Campaign sheet', 'renaissance', ?, ?)",
                (stamp, stamp),
            )
            game_id = int(cursor.lastrowid or 0)
            seal_head(self.db, game_id, 0)
            seal_game(self.db, game_id)
            return game_id

    # -- inside ----------------------------------------------------------------------------------

    def _info(self, row: tuple[Any, ...], current: int | None) -> GameInfo:
        """A game's `list` line, its row checked first."""
        game_id, kind, title, edition, status, head, _, created, updated, source, crc, head_crc = row
        check_game(self.path, game_id, (kind, title, edition, source, status, created), crc)
        check_head(self.path, game_id, head, updated, head_crc)
        return _info(row, current)

    def _setup(self, game_id: int, ref: int | str | None) -> tuple[str, str | None, str | None]:
        """A game's kind, the scenario (or setup) saved with it and where it came from, checked first."""
        row = self.db.execute(f"SELECT {MEANING}, crc, scenario_text, scenario_crc FROM games WHERE id = ?",
                              (game_id,)).fetchone()  # fmt: skip
        if row is None:
            raise NoSuchGame(f"{self.path}: no game {ref} (see: nova-table session list --state {self.path})")
        *meaning, crc, text, scenario_crc = row
        check_game(self.path, game_id, meaning, crc)
        check_scenario(self.path, game_id, text, scenario_crc)
        return meaning[0], text, meaning[3]

    def _set_status(self, game_id: int, status: str) -> None:
        """Set a game's status and seal its row again, the row checked first (a damaged game is left as it is)."""
        self.game(game_id)
        meaning = list(self.db.execute(f"SELECT {MEANING} FROM games WHERE id = ?", (game_id,)).fetchone())
        meaning[MEANING.split(", ").index("status")] = status
        self.db.execute("UPDATE games SET status = ?, crc = ? WHERE id = ?", (status, game_checksum(game_id, meaning), game_id))

    def _resolve(self, ref: int | str | None) -> int:
        if ref == CAMPAIGN:
            return self.campaign_id()
        if ref is None:
            current = self._current_id()
            if current is None:
                raise NoSuchGame(
                    f"{self.path}: no current game (start one with: nova-table session new --scenario FILE --state {self.path})"
                )
            return current
        game_id = _number(ref)
        if game_id is None:
            raise NoSuchGame(f"{self.path}: no game {ref!r}: a game is a number from `list`, or \"campaign\"")
        return game_id

    def _current_id(self) -> int | None:
        """The current game; where the file's mark of it names no game (damaged, edited by hand), the game played
        last, as when the current game is archived."""
        row = self.db.execute("SELECT value FROM meta WHERE key = 'current_game'").fetchone()
        if row is None or row[0] == "":
            return None
        game_id = _number(row[0])
        if game_id is not None and self.db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone():
            return game_id
        return self._latest_active(excluding=0)

    def _set_current(self, game_id: int | None) -> None:
        self.db.execute(
            "INSERT OR REPLACE INTO meta (key, value) VALUES ('current_game', ?)", ("" if game_id is None else str(game_id),)
        )

    def _latest_active(self, excluding: int) -> int | None:
        row = self.db.execute(
            "SELECT id FROM games WHERE kind != 'campaign' AND status = 'active' AND id != ? ORDER BY updated_at DESC, id DESC",
            (excluding,),
        ).fetchone()
        return int(row[0]) if row is not None else None


def _number(ref: object) -> int | None:
    """A game's id written as `ref` (digits 0-9 only: a number SQLite can hold), or None."""
    text = str(ref)
    if not (text.isascii() and text.isdigit()) or len(text) > 19:  # not int()'s "1_0", "+1" or other scripts' digits
        return None
    game_id = int(text)
    return game_id if 0 < game_id < 2**63 else None


def _info(row: tuple[Any, ...], current: int | None) -> GameInfo:
    game_id, kind, title, edition, status, head, length, created, updated, source = row[:10]
    return GameInfo(game_id, kind, title, edition, status, head, length, created, updated, source, game_id == current)


def title_and_edition(fold: Fold[Any], source: str) -> tuple[str, str | None]:
    """A game's title and edition: its fold's, else its scenario's (a mission), else where it came from."""
    scenario = getattr(fold, "scenario", None)
    title = getattr(fold, "title", None) or getattr(scenario, "title", None) or source
    return str(title), getattr(scenario, "edition", None)
