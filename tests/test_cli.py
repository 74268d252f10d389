"""The one command, `nova-table`, and its subcommands."""

from __future__ import annotations

import subprocess
import sys

import pytest


def nova_table(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "assistant", *args], capture_output=True, text=True, timeout=60)


def test_help_lists_the_subcommands() -> None:
    done = nova_table("--help")
    assert done.returncode == 0
    for command in ("resolve",):
        assert command in done.stdout


def test_no_subcommand_prints_the_help_and_fails() -> None:
    done = nova_table()
    assert done.returncode == 2
    assert "usage: nova-table" in done.stdout


def test_an_unknown_subcommand_is_refused_clearly() -> None:
    done = nova_table("fly")
    assert done.returncode == 2
    assert "invalid choice" in done.stderr


def test_ctrl_c_while_the_subcommands_load_ends_quietly(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C in the first tenth of a second (the subcommands' modules loading) exits 130, no traceback."""
    from assistant import cli

    def interrupted(*_: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "build_parser", interrupted)
    assert cli.main(["dice", "read", "x.png"]) == 130


def test_a_subcommand_loads_no_other_subcommands_module() -> None:
    """`nova-table dice read` spent 80 ms a process loading the session, rules and board modules it never ran."""
    probe = ("import sys, assistant.cli as c; from contextlib import suppress\n"
             "with suppress(SystemExit): c.main(['dice', 'read', '--help'])\n"
             "print(*(m in sys.modules for m in ('assistant.vision.command', 'assistant.session.command', "
             "'assistant.machine', 'assistant.hardware.command', 'assistant.rules.ai')))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert done.stdout.split()[-5:] == ["True", "False", "False", "False", "False"], done.stdout + done.stderr
    assert "usage: nova-table dice read" in done.stdout
