"""Saved games: start, play (events as JSON lines), undo, redo, show, list, resume, archive, delete, export, import.

Every game lives in one SQLite state file (--state), beside the Renaissance campaign sheet
(--game campaign). Examples:

  nova-table session new --scenario assistant/demo/skirmish.toml --state games.db
  nova-table session new --status mano,milizia,pugno --priority milizia --state games.db
  echo '{"type": "spend_ap", "ap": 2, "action": "move"}' | nova-table session apply --state games.db
  nova-table session undo --state games.db
  nova-table session show --state games.db
  nova-table session export --state games.db --game 1 --out game1.jsonl
  nova-table session import --state other.db game1.jsonl

Output is JSON (one object a line). A refused event or a file that cannot be used gets a
message that says what and where; nothing stored is ever lost or changed by it.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TextIO

PROG = "nova-table session"


def default_state() -> str:
    """$NOVA_TABLE_STATE (a leading ~ is the home folder, as a shell would say; empty is unset), or table.db under
    $XDG_DATA_HOME/nova-table (~/.local/share/nova-table): the one `nova-table play` uses too."""
    if os.environ.get("NOVA_TABLE_STATE"):
        return os.path.expanduser(os.environ["NOVA_TABLE_STATE"])
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(base, "nova-table", "table.db")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter  # keep the examples' lines
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)

    def action(name: str, summary: str, game: str | None = "optional") -> argparse.ArgumentParser:
        command = sub.add_parser(name, help=summary, description=summary)
        command.add_argument("--state", metavar="DB", default=None,
                             help="the state file (default: $NOVA_TABLE_STATE or ~/.local/share/nova-table/table.db)")  # fmt: skip
        if game == "optional":
            command.add_argument("--game", metavar="ID", help='a game number from `list`, or "campaign" (default: the current game)')
        elif game == "required":
            command.add_argument("--game", metavar="ID", required=True, help='a game number from `list`, or "campaign"')
        return command

    new = action("new", "start a game from a scenario file, or a game of Status; it becomes the current game", game=None)
    which = new.add_mutually_exclusive_group(required=True)
    which.add_argument("--scenario", metavar="FILE", help="a scenario TOML file (see docs/scenario.md)")
    which.add_argument("--status", metavar="FACTIONS",
                       help="a game of Nova Lectio: Status for these Factions, clockwise, comma-separated: "
                            "mano, ragione, milizia, pugno")  # fmt: skip
    new.add_argument("--priority", metavar="FACTION", help="with --status: who holds the Priority token (default: the first)")
    action("apply", "apply events read from stdin, one JSON object a line; one answer a line")
    action("undo", "take back the last event (redo brings it back)")
    action("redo", "bring back the last undone event")
    action("show", "the state of the game as one JSON object")
    listing = action("list", "the saved games, one JSON object a line", game=None)
    listing.add_argument("--active", action="store_true", help="leave out archived games")
    action("resume", "make a game the current one (bringing it back from the archive)", game="required")
    action("archive", "put a game away (it stays in the file; `resume` brings it back)", game="required")
    action("delete", "delete a game and its whole journal (export it first to keep a copy)", game="required")
    export = action("export", "write a game as JSON lines (to import on another device)")
    export.add_argument("--out", metavar="FILE", help="write to FILE (default: stdout)")
    importing = action("import", "add a game from an export file as a new game", game=None)
    importing.add_argument("file", metavar="FILE", nargs="?", default="-", help="the export file (default: stdin)")


def _print(value: Any, out: TextIO | None = None) -> None:
    stream = out or sys.stdout
    stream.write(json.dumps(value, ensure_ascii=False) + "\n")
    stream.flush()


def _game_ref(args: argparse.Namespace) -> int | str | None:
    return getattr(args, "game", None)


def _new(args: argparse.Namespace, state: str) -> int:
    from assistant.session.card_library import library_for
    from assistant.session.fold import default_folds
    from assistant.session.games import StateFile
    from assistant.session.scenario_file import read_scenario_text

    if args.priority is not None and args.status is None:
        from assistant.session.errors import SessionError

        raise SessionError("--priority: only with --status (who holds the Priority token in a game of Status)")
    if args.status is not None:
        from assistant.session.status_fold import setup_text

        kind, source = "status", "--status"
        text = setup_text(args.status.split(","), args.priority)
    else:
        kind, source = "mission", args.scenario
        text = read_scenario_text(args.scenario, library_for(state))  # the cards it names written in: the game's whole
    default_folds(kind, text, source)  # the scenario is checked whole before the file is made
    with StateFile(state, create=True) as games:
        info = games.new_game(text, source, kind)
    _print(info.to_dict())
    return 0


def _apply(args: argparse.Namespace, state: str) -> int:
    from assistant.reading import NotJSON, bounded_lines, loads
    from assistant.rules.bounds import LINE
    from assistant.session.errors import EventRefused, StateFileError
    from assistant.session.games import StateFile

    refused = 0
    with StateFile(state) as games:
        journal = games.journal(_game_ref(args))
        for number, line in enumerate(bounded_lines(sys.stdin, LINE), start=1):
            if line is None:  # read past, never whole: the next line is read as usual
                refused += 1
                _print({"line": number, "error": f"longer than {LINE} characters; not stored"})
                continue
            if not line.strip():
                continue
            try:
                event = loads(line)
            except NotJSON as error:
                refused += 1
                _print({"line": number, "error": f"not JSON ({error}); not stored"})
                continue
            try:
                seq = journal.append(event)
            except EventRefused as error:
                refused += 1
                _print({"line": number, "error": f"{error}; not stored"})
                continue
            except StateFileError as error:  # the card cannot take it: this line answered, the next ones not read
                _print({"line": number, "error": f"{error}; not stored"})
                raise
            _print({"line": number, "seq": seq, "type": event.get("type")})
    return 1 if refused else 0


def _undo_redo(args: argparse.Namespace, state: str) -> int:
    from assistant.session.games import StateFile

    with StateFile(state) as games:
        journal = games.journal(_game_ref(args))
        if args.action == "undo":
            event = journal.undo()
            _print({"undone": event, "seq": journal.head + 1, "events": journal.head, "can_redo": True})
        else:
            event = journal.redo()
            _print({"redone": event, "seq": journal.head, "events": journal.head, "can_redo": journal.can_redo()})
    return 0


def _show(args: argparse.Namespace, state: str) -> int:
    from assistant.session.games import StateFile

    with StateFile(state, read_only=True) as games:
        journal = games.journal(_game_ref(args))
        _print(journal.fold.dump(journal.state))
    return 0


def _list(args: argparse.Namespace, state: str) -> int:
    from assistant.session.errors import SessionError
    from assistant.session.games import StateFile

    damaged: list[SessionError] = []
    with StateFile(state, read_only=True) as games:
        for info in games.games(archived=not args.active, campaign=True, damaged=damaged):
            _print(info.to_dict())
    for error in damaged:  # the other games listed all the same
        sys.stderr.write(f"{PROG} list: {error}\n")
    return 1 if damaged else 0


def _manage(args: argparse.Namespace, state: str) -> int:
    from assistant.session.games import StateFile

    with StateFile(state) as games:
        change: Callable[[int | str | None], Any] = {
            "resume": games.resume, "archive": games.archive, "delete": games.delete,
        }[args.action]  # fmt: skip
        info = change(args.game)
        _print(dict(info.to_dict(), **({"deleted": True} if args.action == "delete" else {})))
    return 0


def _export(args: argparse.Namespace, state: str) -> int:
    from assistant.files import Refused, check_target, state_files, writing
    from assistant.session.errors import ExchangeError
    from assistant.session.exchange import export_game
    from assistant.session.games import StateFile

    if args.out is None:
        with StateFile(state, read_only=True) as games:
            export_game(games, _game_ref(args), sys.stdout)
        return 0
    target, keep = Path(args.out), state_files(state)
    try:
        check_target(target, "the export", keep)  # said before the state file is opened
        with StateFile(state, read_only=True) as games, writing(target, "the export", keep) as out:
            count = export_game(games, _game_ref(args), out)  # never half an export under its name
    except Refused as error:
        raise ExchangeError(f"--out {error}") from None
    except OSError as error:  # no such folder, no permission, a full card
        raise ExchangeError(f"{args.out}: cannot write the export there ({error.strerror or error}); "
                            "nothing was written") from None
    _print({"exported": str(target), "events": count})
    return 0


def _import(args: argparse.Namespace, state: str) -> int:
    from assistant.files import EXPORT, Refused, read_file, read_stdin
    from assistant.session.errors import ExchangeError
    from assistant.session.exchange import import_game
    from assistant.session.games import StateFile

    if not args.file:
        raise ExchangeError("'': no file named (the path is empty)")
    source = "<stdin>" if args.file == "-" else args.file
    try:
        raw = read_stdin(EXPORT) if args.file == "-" else read_file(args.file, EXPORT)
    except Refused as error:
        raise ExchangeError(f"{error}; nothing was imported") from None
    except OSError as error:
        raise ExchangeError(f"{args.file}: cannot read the file: {error.strerror or error}") from None
    # a byte that is not UTF-8 is kept, for the line's reading to name with its line and column
    lines = raw.decode("utf-8", errors="surrogateescape").splitlines()
    with StateFile(state, create=True) as games:
        info = import_game(games, lines, source)
    _print(info.to_dict())
    return 0


ACTIONS: dict[str, Callable[[argparse.Namespace, str], int]] = {
    "new": _new, "apply": _apply, "undo": _undo_redo, "redo": _undo_redo, "show": _show, "list": _list,
    "resume": _manage, "archive": _manage, "delete": _manage, "export": _export, "import": _import,
}  # fmt: skip


def run(args: argparse.Namespace) -> int:
    return run_action(ACTIONS, args, PROG)


def run_action(actions: Mapping[str, Callable[[argparse.Namespace, str], int]], args: argparse.Namespace, prog: str) -> int:
    """`args.action` of `actions` on the state file (`--state` or `default_state`); a SessionError, or a file
    damaged past what the opening checks see, said on stderr after `prog ACTION:`, exit status 1."""
    from assistant.session.errors import SessionError

    state = args.state or default_state()
    try:
        return actions[args.action](args, state)
    except SessionError as error:
        sys.stderr.write(f"{prog} {args.action}: {error}\n")
        return 1
    except (sqlite3.Error, UnicodeDecodeError) as error:
        sys.stderr.write(f"{prog} {args.action}: {state} is damaged (SQLite says: {error}); it was left as it is\n")
        return 1
