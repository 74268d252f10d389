"""Shared fixtures of the session tests: the demo scenario, state files in tmp dirs, the real rules fold."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from assistant.demo.autoplay import endless
from assistant.session.fold import default_folds
from assistant.session.games import StateFile

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "assistant" / "demo" / "skirmish.toml"
FOLDS = default_folds  # the real rules core (a stand-in fold served until assistant.rules.game landed)


def demo_text() -> str:
    return DEMO.read_text(encoding="utf-8")


def endless_text() -> str:
    """The demo skirmish without its end time, for games as long as wanted."""
    return endless(demo_text())


def fold_state(scenario_text: str, events: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The state after `events`, folded from scratch with no journal and no database."""
    fold = FOLDS("mission", scenario_text, "test")
    state = fold.initial()
    for event in events:
        state = fold.apply(state, json.loads(json.dumps(event)))
    return fold.dump(state)


def script(scenario_text: str, count: int, seed: int, gentle: bool = True) -> list[dict[str, Any]]:
    """`count` events a table could play one after the other, chosen by the seeded autoplayer."""
    from assistant.demo.autoplay import play

    fold = FOLDS("mission", scenario_text, "test")
    return list(play(fold.initial(), random.Random(seed), count, gentle=gentle))


@pytest.fixture
def state_path(tmp_path: Path) -> Path:
    return tmp_path / "games.db"


@pytest.fixture
def games(state_path: Path) -> Iterator[StateFile]:
    with StateFile(state_path, create=True, folds=FOLDS) as opened:
        yield opened


class Nova:
    """Runs `nova-table` in this process, as a player's shell would, and returns (exit code, stdout, stderr)."""

    def __init__(self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
        self.capsys = capsys
        self.monkeypatch = monkeypatch

    def __call__(self, *args: str | Path, stdin: str = "") -> tuple[int, str, str]:
        import io

        from assistant.cli import main

        self.capsys.readouterr()
        self.monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
        code = main([str(arg) for arg in args])
        out, err = self.capsys.readouterr()
        return code, out, err

    def json(self, *args: str | Path, stdin: str = "") -> list[Any]:
        code, out, err = self(*args, stdin=stdin)
        assert code == 0, err
        return [json.loads(line) for line in out.splitlines()]


@pytest.fixture
def nova(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Nova:
    return Nova(capsys, monkeypatch)
