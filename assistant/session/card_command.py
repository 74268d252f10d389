"""The table's card library: hero sheets and enemy cards typed once (list, check, import, export).

The library is the folder `cards` beside the state file (--state), with `heroes/ID.toml` and `enemies/ID.toml`,
then the example cards shipped with Nova Table; see docs/cards.md. Examples:

  nova-table cards list
  nova-table cards check
  nova-table cards check /media/usb/cards/enemies/papal_guard.toml
  nova-table cards import /media/usb/cards
  nova-table cards export --out /media/usb/cards

Output is JSON (one object a line); a wrong card is said as FILE:LINE: FIELD: what was expected, on stderr.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

PROG = "nova-table cards"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)

    def action(name: str, summary: str) -> argparse.ArgumentParser:
        command = sub.add_parser(name, help=summary, description=summary)
        command.add_argument("--state", metavar="DB", default=None,
                             help="the state file the library lies beside, in its folder `cards` "
                                  "(default: $NOVA_TABLE_STATE or ~/.local/share/nova-table/table.db)")  # fmt: skip
        return command

    action("list", "the cards of the library, one JSON object a line: id, kind, name, edition, where from")
    check = action("check", "check card files: every card of the library, or those named (files or folders)")
    check.add_argument("files", metavar="FILE", nargs="*", help="a card file, or a folder of them")
    importing = action("import", "copy checked cards into the library (a wrong one is refused, and nothing written for it)")
    importing.add_argument("files", metavar="FILE_OR_FOLDER", nargs="+", help="a card file, or a folder of them")
    importing.add_argument("--replace", action="store_true", help="replace a card of the same id already in the library")
    export = action("export", "copy cards out of the library into a folder (heroes/, enemies/), e.g. a USB stick")
    export.add_argument("--out", metavar="FOLDER", required=True, help="the folder to copy them to (made if missing)")
    export.add_argument("ids", metavar="ID", nargs="*", help="the cards to copy (default: every card of the table's own)")


def _print(value: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(value, ensure_ascii=False) + "\n")
    sys.stdout.flush()


def _said(error: Exception) -> None:
    """A card's problems, one FILE:LINE: FIELD: ... a line."""
    sys.stderr.write(f"{error}\n")


def _named(paths: list[str]) -> list[Path]:
    """The card files the arguments name: each file, and every *.toml of each folder (its subfolders too)."""
    from assistant.session.errors import SessionError

    found: list[Path] = []
    for name in paths:
        path = Path(name)
        if not name:
            raise SessionError("'': no file named (the path is empty)")
        if path.is_dir():
            found += sorted(p for p in path.rglob("*.toml") if not any(part.startswith(".") for part in p.relative_to(path).parts))
        else:
            found.append(path)
    return found


def _list(args: argparse.Namespace, state: str) -> int:
    from assistant.session.card_library import CardFileError, library_for

    bad = 0
    library = library_for(state)
    for kind, ident, path, origin, hides in library.entries():
        try:
            card = library.card(kind, ident)
        except CardFileError as error:
            bad += 1
            _said(error)
            continue
        _print({"id": ident, "kind": kind, "name": card.name, "edition": card.edition, "from": origin, "file": str(path),
                "example_values": card.example_values, **({"hides": hides} if hides else {})})  # fmt: skip
    return 1 if bad else 0


def _check(args: argparse.Namespace, state: str) -> int:
    from assistant.session.card_library import FOLDERS, CardFileError, card_files, library_for, read_card

    library = library_for(state)
    files: list[tuple[Path, str | None]]
    if args.files:
        files = [(path, None) for path in _named(args.files)]
    else:
        files = [(path, kind) for folder, _ in library.folders for kind in FOLDERS for path in card_files(folder, kind)]
    bad = 0
    for path, kind in files:
        try:
            card = read_card(path, kind)
        except CardFileError as error:
            bad += 1
            _said(error)
            continue
        _print({"checked": str(path), "id": card.id, "kind": card.kind})
    return 1 if bad else 0


def _import(args: argparse.Namespace, state: str) -> int:
    from assistant.files import state_files, write_file
    from assistant.session.card_library import FOLDERS, CardFileError, a, library_for, read_card

    own = library_for(state).own
    refused = 0
    taken: dict[Path, Path] = {}
    for path in _named(args.files):
        try:
            card = read_card(path)
        except CardFileError as error:
            refused += 1
            _said(error)
            sys.stderr.write(f"{PROG} import: {path}: not imported\n")
            continue
        target = own / FOLDERS[card.kind] / f"{card.id}.toml"
        why = None
        if target in taken:
            why = f'the {card.kind} card "{card.id}" is imported from {taken[target]} already'
        elif target.exists() and not args.replace:
            why = f'the library has {a(card.kind)} card "{card.id}" already ({target}): --replace to replace it'
        replaced = target.exists()
        if why is None:
            try:
                target.parent.mkdir(parents=True, exist_ok=True)
                write_file(target, card.text.encode("utf-8"), "the card", state_files(state))  # as typed, comments kept
            except OSError as error:
                why = f"cannot write {target} ({error.strerror or error})"
        if why is not None:
            refused += 1
            sys.stderr.write(f"{PROG} import: {path}: {why}; not imported\n")
            continue
        taken[target] = path
        _print({"imported": str(path), "id": card.id, "kind": card.kind, "to": str(target), "replaced": replaced})
    return 1 if refused else 0


def _export(args: argparse.Namespace, state: str) -> int:
    from assistant.files import state_files, write_file
    from assistant.session.card_library import FOLDERS, CardFileError, library_for, read_card
    from assistant.session.errors import SessionError

    library = library_for(state)
    entries = library.entries()
    if args.ids:
        unknown = [ident for ident in args.ids if not any(entry[1] == ident for entry in entries)]
        if unknown:
            raise SessionError(f"no card {', '.join(repr(i) for i in unknown)} in the library ({library.where()}); "
                               "nothing was exported")  # fmt: skip
        chosen = [entry for entry in entries if entry[1] in args.ids]
    else:
        chosen = [entry for entry in entries if entry[3] == "table"]
    copies: list[tuple[Path, bytes, dict[str, Any]]] = []
    for kind, ident, path, origin, _ in chosen:
        try:
            card = read_card(path, kind)
        except CardFileError as error:
            _said(error)
            raise SessionError(f"{path}: a card with mistakes is not copied out; nothing was exported") from None
        target = Path(args.out) / FOLDERS[kind] / f"{ident}.toml"
        copies.append((target, card.text.encode("utf-8"), {"exported": ident, "kind": kind, "from": origin, "to": str(target)}))
    for target, raw, said in copies:
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            write_file(target, raw, "the card", state_files(state))
        except OSError as error:
            raise SessionError(f"--out {args.out}: cannot write {target} ({error.strerror or error})") from None
        _print(said)
    if not copies:
        sys.stderr.write(f"{PROG} export: the table has no card of its own ({library.own}): name the examples to copy them\n")
    return 0


ACTIONS = {"list": _list, "check": _check, "import": _import, "export": _export}


def run(args: argparse.Namespace) -> int:
    from assistant.session.command import run_action

    return run_action(ACTIONS, args, PROG)
