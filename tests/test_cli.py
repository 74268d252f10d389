"""The one command, `nova-table`, and its subcommands."""

from __future__ import annotations

import subprocess
import sys


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
