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

    def interrupted() -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "build_parser", interrupted)
    assert cli.main(["dice", "read", "x.png"]) == 130
