"""Export a saved game as JSON lines, and import such a file (checked whole, replayed through the rules) as a new game.

The file: a header line, one line per stored event (undone ones included), an end line::

    {"format": "nova-table-game", "version": 1, "kind": "mission", "title": ..., "head": 12, ...}
    {"seq": 1, "recorded_at": "2026-...", "event": {"type": "spend_ap", ...}}
    ...
    {"end": 14}

An import adds nothing unless every line is right and every event replays; a truncated file
(no end line) is refused.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import datetime
from typing import Any, TextIO

from assistant.reading import NotJSON, loads
from assistant.session.database import writing
from assistant.session.errors import EventRefused, ExchangeError, ScenarioError, SessionError
from assistant.session.games import CAMPAIGN, GameInfo, StateFile, check_game, check_scenario, seal_game, title_and_edition
from assistant.session.journal import JOURNAL_LEFT, check_head, encode_event, now, seal_head, stored_event
from assistant.session.schema import KINDS, MEANING, checksum, event_checksum

FORMAT = "nova-table-game"
VERSION = 1


def export_game(state_file: StateFile, ref: int | str | None, out: TextIO) -> int:
    """Write game `ref` to `out` as JSON lines, every stored text checked first; the number of events written."""
    db, path = state_file.db, state_file.path
    info = state_file.game(ref)
    db.execute("BEGIN")  # one consistent read
    try:
        *meaning, crc, text, scenario_crc, head, updated, head_crc = db.execute(
            f"SELECT {MEANING}, crc, scenario_text, scenario_crc, head, updated_at, head_crc FROM games WHERE id = ?",
            (info.id,),
        ).fetchone()
        rows = db.execute("SELECT seq, recorded_at, body, crc FROM events WHERE game_id = ? ORDER BY seq", (info.id,)).fetchall()
    finally:
        db.execute("COMMIT")
    check_game(path, info.id, meaning, crc)
    check_scenario(path, info.id, text, scenario_crc)
    check_head(path, info.id, head, updated, head_crc)
    kind, title, edition, source, status, created = meaning
    seqs = [row[0] for row in rows]  # a number gone bad would cut the export short, or leave a gap no import takes
    if seqs != list(range(1, len(rows) + 1)) or head > len(rows):
        raise SessionError(f"{path}: game {info.id} is damaged (its {len(rows)} stored events do not run from 1 up to "
                           f"its head, {head}); {JOURNAL_LEFT}")  # fmt: skip
    header = {
        "format": FORMAT, "version": VERSION, "kind": kind, "title": title, "edition": edition, "status": status,
        "head": head, "events": len(rows), "created_at": created, "updated_at": updated,
        "scenario_source": source, "scenario_text": text,
    }  # fmt: skip
    for seq, recorded, body, event_crc in rows:  # a damaged one would make a file that no import takes
        stored_event(path, info.id, seq, body, recorded, event_crc)
    out.write(json.dumps(header, ensure_ascii=False) + "\n")
    for seq, recorded, body, _ in rows:
        out.write(f'{{"seq": {seq}, "recorded_at": {json.dumps(recorded)}, "event": {body}}}\n')
    out.write(json.dumps({"end": len(rows)}) + "\n")
    return len(rows)


def _objects(lines: Iterable[str], source: str) -> list[tuple[int, dict[str, Any]]]:
    objects = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            value = loads(line)
        except NotJSON as error:
            raise ExchangeError(f"{source}:{number}: not JSON ({error}); nothing was imported") from None
        if not isinstance(value, dict):
            raise ExchangeError(f"{source}:{number}: expected a JSON object; nothing was imported")
        objects.append((number, value))
    return objects


def _header(objects: list[tuple[int, dict[str, Any]]], source: str) -> dict[str, Any]:
    if not objects:
        raise ExchangeError(f"{source}: empty, not a Nova Table export; nothing was imported")
    number, header = objects[0]
    if header.get("format") != FORMAT:
        raise ExchangeError(f"{source}:{number}: format: expected \"{FORMAT}\" (a `nova-table session export` file)")
    version = header.get("version")
    if not isinstance(version, int) or version > VERSION:
        raise ExchangeError(f"{source}:{number}: version: {version!r}; this Nova Table reads export version {VERSION}")
    if header.get("kind") not in KINDS:
        expected = ", ".join(f'"{kind}"' for kind in KINDS)
        raise ExchangeError(f"{source}:{number}: kind: expected one of {expected}, got {header.get('kind')!r}")
    for key in ("title", "created_at"):
        if not isinstance(header.get(key), str):
            raise ExchangeError(f"{source}:{number}: {key}: expected text, got {header.get(key)!r}")
    for key in ("edition", "scenario_source"):
        if not isinstance(header.get(key), (str, type(None))):
            raise ExchangeError(f"{source}:{number}: {key}: expected text or null, got {header.get(key)!r}")
    try:
        datetime.fromisoformat(header["created_at"])
    except ValueError:
        raise ExchangeError(f"{source}:{number}: created_at: expected a date and time, got {header['created_at']!r}") from None
    if header.get("status") not in ("active", "archived"):
        raise ExchangeError(f"{source}:{number}: status: expected \"active\" or \"archived\", got {header.get('status')!r}")
    if header["kind"] != CAMPAIGN and not isinstance(header.get("scenario_text"), str):
        raise ExchangeError(f"{source}:{number}: scenario_text: a {header['kind']} export carries its "
                            f"{'scenario' if header['kind'] == 'mission' else 'setup'}")
    return header


def import_game(state_file: StateFile, lines: Iterable[str], source: str) -> GameInfo:
    """Add the exported game in `lines` to the state file as a new game (the current one)."""
    objects = _objects(lines, source)
    header = _header(objects, source)
    *body, (end_line, end) = objects[1:] or [(objects[0][0], {})]
    if set(end) != {"end"} or end["end"] != len(body):
        raise ExchangeError(
            f"{source}:{end_line}: expected the end line {{\"end\": {len(body)}}}: the file is truncated or edited;"
            " nothing was imported"
        )
    head = header.get("head")
    if not isinstance(head, int) or not 0 <= head <= len(body):
        raise ExchangeError(f"{source}:{objects[0][0]}: head: expected 0 to {len(body)}, got {head!r}")
    kind = header["kind"]
    if kind == CAMPAIGN and state_file.db.execute("SELECT 1 FROM games WHERE kind = 'campaign'").fetchone():
        raise ExchangeError(f"{source}: {state_file.path} already has a campaign sheet; nothing was imported")
    try:
        fold = state_file.folds(kind, header.get("scenario_text"), f"{source} (scenario_text)")
    except ScenarioError as error:
        raise ExchangeError(f"{source}:{objects[0][0]}: the scenario in this export is wrong:\n{error}") from None
    if kind != CAMPAIGN:  # the edition is the scenario's, whatever the header says
        header = dict(header, edition=title_and_edition(fold, source)[1])
    state = fold.initial()
    events: list[tuple[int, str, str]] = []
    snapshots: list[tuple[int, str]] = []
    every = state_file.snapshot_every
    for index, (number, item) in enumerate(body, start=1):
        if item.get("seq") != index or not isinstance(item.get("event"), dict):
            raise ExchangeError(f"{source}:{number}: expected {{\"seq\": {index}, \"event\": {{...}}}}; nothing was imported")
        try:
            stored = encode_event(item["event"])
            state = fold.apply(state, json.loads(stored))
        except (ValueError, EventRefused) as error:
            raise ExchangeError(f"{source}:{number}: event {index} is refused by the rules: {error}; nothing was imported") from None
        recorded = item.get("recorded_at")
        events.append((index, stored, recorded if isinstance(recorded, str) else now()))
        if index % every == 0:
            snapshots.append((index, json.dumps(fold.dump(state), separators=(",", ":"))))
    return _insert(state_file, header, fold.tag, events, snapshots)


def _insert(state_file: StateFile, header: dict[str, Any], tag: str, events: list[tuple[int, str, str]],
            snapshots: list[tuple[int, str]]) -> GameInfo:  # fmt: skip
    db = state_file.db
    with writing(db):
        cursor = db.execute(
            "INSERT INTO games (kind, title, edition, scenario_source, scenario_text, status, head, created_at, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (header["kind"], header["title"], header.get("edition"), header.get("scenario_source"),
             header.get("scenario_text"), header["status"], header["head"], header["created_at"], now()),
        )  # fmt: skip
        game_id = int(cursor.lastrowid or 0)
        db.executemany(
            "INSERT INTO events (game_id, seq, body, recorded_at, crc) VALUES (?, ?, ?, ?, ?)",
            [(game_id, seq, body, recorded, event_checksum(game_id, seq, body, recorded)) for seq, body, recorded in events],
        )
        db.executemany(
            "INSERT INTO snapshots (game_id, seq, fold, state, crc) VALUES (?, ?, ?, ?, ?)",
            [(game_id, seq, tag, state, checksum(game_id, seq, state)) for seq, state in snapshots],
        )
        seal_head(db, game_id, header["head"])
        seal_game(db, game_id)
        if header["kind"] != CAMPAIGN:
            db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('current_game', ?)", (str(game_id),))
    return state_file.game(game_id)
