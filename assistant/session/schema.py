"""The state file's tables, its schema version and the migrations that bring an older file up to date.

`MIGRATIONS[v]` turns a file at schema version `v` into version `v + 1`; a new file runs them
all from 0. The version is SQLite's `user_version`, and `application_id` marks the file as
Nova Table's. See `docs/session.md` for what each table holds.
"""

from __future__ import annotations

import json
import sqlite3
import zlib
from collections.abc import Callable, Sequence

APPLICATION_ID = 0x4E4F5641
"""'NOVA': SQLite's application_id of a Nova Table state file."""

# the games table as schema 1 made it; schema 3 adds head_crc, schema 4 the kind "status", schema 5 crc and scenario_crc
_GAMES = """
        kind TEXT NOT NULL CHECK (kind IN ('mission', 'campaign')),
        title TEXT NOT NULL,
        edition TEXT,
        scenario_source TEXT,
        scenario_text TEXT,
        status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'archived')),
        head INTEGER NOT NULL DEFAULT 0 CHECK (head >= 0),
        revision INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
"""
_ONE_CAMPAIGN = "CREATE UNIQUE INDEX one_campaign ON games (kind) WHERE kind = 'campaign'"

_V1 = (
    """CREATE TABLE meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    ) WITHOUT ROWID""",
    f"CREATE TABLE games (id INTEGER PRIMARY KEY, {_GAMES})",
    _ONE_CAMPAIGN,
    """CREATE TABLE events (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seq INTEGER NOT NULL CHECK (seq >= 1),
        body TEXT NOT NULL,
        recorded_at TEXT NOT NULL,
        PRIMARY KEY (game_id, seq)
    ) WITHOUT ROWID""",
    """CREATE TABLE snapshots (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seq INTEGER NOT NULL CHECK (seq >= 1),
        fold TEXT NOT NULL,
        state TEXT NOT NULL,
        PRIMARY KEY (game_id, seq)
    ) WITHOUT ROWID""",
)


def _statements(sql: Sequence[str]) -> Callable[[sqlite3.Connection], None]:
    """A migration made of plain SQL statements (run one by one: executescript would commit)."""

    def run(connection: sqlite3.Connection) -> None:
        for statement in sql:
            connection.execute(statement)

    return run


_V2 = (  # SQLite's way to change a table's definition: a new table, the rows copied, the old one dropped
    f"CREATE TABLE games_v2 (id INTEGER PRIMARY KEY AUTOINCREMENT, {_GAMES})",
    "INSERT INTO games_v2 SELECT * FROM games",
    "DROP TABLE games",
    "ALTER TABLE games_v2 RENAME TO games",
    _ONE_CAMPAIGN,
)



def checksum(game: int, seq: int, text: object) -> int:
    """The CRC-32 of a stored row: its game, its number and its text's UTF-8 bytes. SQLite keeps none, and a
    byte gone bad on a card would change a game silently (a die's value in an event, a wound in a snapshot,
    the number that places a row in its game); -1 for a value that is not text (a byte that made it a blob)."""
    if not isinstance(text, str):
        return -1
    return zlib.crc32(f"{game}:{seq}:{text}".encode("utf-8", "surrogatepass"))


def _v3(connection: sqlite3.Connection) -> None:
    """2 -> 3: each event's body, each snapshot's state and each game's head with its checksum, checked when read."""
    for table, column in (("events", "body"), ("snapshots", "state")):
        connection.execute(f"ALTER TABLE {table} ADD COLUMN crc INTEGER")
        rows = connection.execute(f"SELECT game_id, seq, {column} FROM {table}").fetchall()
        connection.executemany(f"UPDATE {table} SET crc = ? WHERE game_id = ? AND seq = ?",
                               [(checksum(game, seq, text), game, seq) for game, seq, text in rows])  # fmt: skip
    connection.execute("ALTER TABLE games ADD COLUMN head_crc INTEGER")
    connection.executemany("UPDATE games SET head_crc = ? WHERE id = ?",
                           [(checksum(game, head, "head"), game) for game, head in connection.execute("SELECT id, head FROM games")])


KINDS = ("mission", "campaign", "status")
"""The kinds of game a state file holds: a Nova Aetas mission, the Renaissance campaign sheet, a game of
Nova Lectio: Status. Each folds its events through its own rules (`fold.default_folds`)."""


def _v4(connection: sqlite3.Connection) -> None:
    """3 -> 4: a game may be of the kind "status" (the games table rebuilt, as `_V2`, for its CHECK); the
    highest number given so far is carried over, so a deleted game's number is still never given again."""
    (given,) = connection.execute("SELECT coalesce(max(seq), 0) FROM sqlite_sequence WHERE name = 'games'").fetchone()
    kinds = ", ".join(f"'{kind}'" for kind in KINDS)
    columns = _GAMES.replace("kind IN ('mission', 'campaign')", f"kind IN ({kinds})")
    connection.execute(f"CREATE TABLE games_v4 (id INTEGER PRIMARY KEY AUTOINCREMENT, {columns}, head_crc INTEGER)")
    connection.execute("INSERT INTO games_v4 SELECT * FROM games")
    connection.execute("DROP TABLE games")
    connection.execute("ALTER TABLE games_v4 RENAME TO games")
    connection.execute(_ONE_CAMPAIGN)
    (highest,) = connection.execute("SELECT coalesce(max(id), 0) FROM games").fetchone()
    connection.execute("DELETE FROM sqlite_sequence WHERE name = 'games'")
    connection.execute("INSERT INTO sqlite_sequence (name, seq) VALUES ('games', ?)", (max(given, highest),))


def sound(stored: object, computed: int) -> bool:
    """Whether a row's stored checksum matches the one computed from it (never where that one is -1: not text)."""
    return computed >= 0 and stored == computed


def event_checksum(game: int, seq: int, body: object, recorded_at: object) -> int:
    """An event's checksum (schema 5): its game, number, text and the time it was recorded."""
    if not (isinstance(body, str) and isinstance(recorded_at, str)):
        return -1
    return checksum(game, seq, json.dumps([recorded_at, body], ensure_ascii=False))


MEANING = "kind, title, edition, scenario_source, status, created_at"
"""The columns of a game's row that say what the game is, sealed by its `crc` (its scenario_text by `scenario_crc`)."""


def game_checksum(game: int, meaning: Sequence[object]) -> int:
    """The checksum of a game's `MEANING` columns, in that order; -1 where one is neither text nor null."""
    if not all(value is None or isinstance(value, str) for value in meaning):
        return -1
    return checksum(game, 0, json.dumps(list(meaning), ensure_ascii=False))


def scenario_checksum(game: int, text: object) -> int:
    """The checksum of the scenario (or setup) saved with a game; the campaign sheet's is of no text."""
    return checksum(game, 0, "" if text is None else text)


def head_checksum(game: int, head: int, updated_at: object) -> int:
    """The checksum of a game's head and the time it last moved (schema 5: the time with it)."""
    return checksum(game, head, f"head {updated_at}" if isinstance(updated_at, str) else None)


def _lenient(raw: bytes) -> str | bytes:
    """A stored text, or its bytes where they are not UTF-8 (their checksum then never matches)."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw


def _v5(connection: sqlite3.Connection) -> None:
    """4 -> 5: each game's row sealed (`MEANING` by crc, scenario_text by scenario_crc), and the checksums of each
    event and head cover the time it was recorded or last moved. A row that failed its old checksum still
    fails: a damaged event is never sealed as sound."""
    factory = connection.text_factory
    connection.text_factory = _lenient
    try:
        connection.execute("ALTER TABLE games ADD COLUMN crc INTEGER")
        connection.execute("ALTER TABLE games ADD COLUMN scenario_crc INTEGER")
        rows = connection.execute(f"SELECT id, {MEANING}, scenario_text, head, head_crc, updated_at FROM games").fetchall()
        connection.executemany(
            "UPDATE games SET crc = ?, scenario_crc = ?, head_crc = ? WHERE id = ?",
            [(game_checksum(game, meaning), scenario_checksum(game, text),
              head_checksum(game, head, updated) if crc in (None, checksum(game, head, "head")) else crc, game)
             for game, *meaning, text, head, crc, updated in rows],
        )  # fmt: skip
        rows = connection.execute("SELECT game_id, seq, body, recorded_at, crc FROM events").fetchall()
        connection.executemany(
            "UPDATE events SET crc = ? WHERE game_id = ? AND seq = ?",
            [(event_checksum(game, seq, body, recorded) if crc in (None, checksum(game, seq, body)) else crc, game, seq)
             for game, seq, body, recorded, crc in rows],
        )  # fmt: skip
    finally:
        connection.text_factory = factory


MIGRATIONS: list[Callable[[sqlite3.Connection], None]] = [
    _statements(_V1),  # 0 -> 1: meta, games, events, snapshots
    _statements(_V2),  # 1 -> 2: a deleted game's number is never given to another game (AUTOINCREMENT)
    _v3,  # 2 -> 3: checksums of events and snapshots
    _v4,  # 3 -> 4: games of Nova Lectio: Status (kind "status")
    _v5,  # 4 -> 5: checksums of each game's row, and of the times of events and heads
]
"""Run with foreign keys off (SQLite's rule for a table rebuilt, `_V2`), and checked after."""
SCHEMA_VERSION = len(MIGRATIONS)
"""The schema version this Nova Table writes; it reads every version up to this one."""
