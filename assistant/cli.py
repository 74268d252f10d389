"""`nova-table`: the one command, with a subcommand per job.

Each subcommand lives in its own module with `add_arguments(parser)` and `run(args) -> int`;
the module's docstring's first line is its help. Those modules import heavy libraries (pygame,
cv2) inside `run`, so that `nova-table --help` and `nova-table resolve` start fast.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from types import ModuleType

from assistant import __version__

COMMANDS: dict[str, str] = {
    "play": "assistant.ui.command",
    "resolve": "assistant.machine",
    "session": "assistant.session.command",
    "cards": "assistant.session.card_command",
    "dice": "assistant.vision.command",
    "board": "assistant.hardware.command",
}


def _load(module_name: str) -> ModuleType | None:
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as missing:
        if missing.name == module_name:
            return None  # that part of the device is not built yet
        raise


def named(argv: Sequence[str]) -> str | None:
    """The subcommand `argv` names first (its module alone need be loaded), or None."""
    return argv[0] if argv and argv[0] in COMMANDS else None


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser of every subcommand, or of `only` (a name in COMMANDS: `nova-table dice read` loads no other)."""
    parser = argparse.ArgumentParser(
        prog="nova-table",
        description="Nova Table: the table assistant for Nova Aetas (first edition and Renaissance).",
    )
    parser.add_argument("--version", action="version", version=f"nova-table {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, module_name in COMMANDS.items():
        if only not in (None, name):
            continue
        module = _load(module_name)
        if module is None:
            continue
        summary = (module.__doc__ or name).strip().splitlines()[0]
        command = sub.add_parser(
            name,
            help=summary,
            description=(module.__doc__ or summary).strip(),
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        module.add_arguments(command)
        command.set_defaults(run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:  # Ctrl-C while the subcommands' modules load, too: no traceback
        words = sys.argv[1:] if argv is None else argv
        parser = build_parser(named(words))
        args = parser.parse_args(words)
        if getattr(args, "run", None) is None:
            parser.print_help()
            return 2
        return int(args.run(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `nova-table session export | head`: the reader has all it wanted
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # (Python's own flush at exit would fail too)
        return 141


if __name__ == "__main__":
    sys.exit(main())
