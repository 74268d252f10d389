"""Any bytes as an export file (`session import`) or as a scenario file (`session new --scenario`): a clear message
naming the file and the state file byte for byte as it was, or a new game and the games before it unchanged; never
a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.session.conftest import DEMO, Nova
from tests.session.test_broken_inputs import digest, saved_game

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def edited(original: bytes) -> st.SearchStrategy[bytes]:
    """`original` with some of its bytes changed, cut out or put in, or cut short."""

    @st.composite
    def edit(draw: st.DrawFn) -> bytes:
        data = bytearray(original)
        for _ in range(draw(st.integers(1, 4))):
            at = draw(st.integers(0, len(data)))
            cut = draw(st.integers(0, 8))
            data[at : at + cut] = draw(st.binary(max_size=8))
        if draw(st.booleans()):
            data = data[: draw(st.integers(0, len(data)))]
        return bytes(data)

    return edit()


def games(nova: Nova, state: Path) -> list[dict[str, object]]:
    return [{k: v for k, v in game.items() if k != "current"}
            for game in nova.json("session", "list", "--state", state)]  # fmt: skip


def refused_or_added(nova: Nova, state: Path, action: str, file: Path, *args: str | Path) -> None:
    """`session ACTION ... FILE` on `state` refuses the file clearly and leaves the state file as it was, or adds a
    game and changes none before it."""
    before, listed = digest(state), games(nova, state)
    code, out, err = nova("session", action, *args, "--state", state)
    assert "Traceback" not in err
    if code == 0:
        assert games(nova, state)[: len(listed)] == listed and len(games(nova, state)) == len(listed) + 1
        return
    assert (code, out) == (1, ""), err
    assert err.startswith(f"nova-table session {action}: ") and str(file) in err, err
    assert digest(state) == before


@pytest.fixture
def exported(nova: Nova, state_path: Path) -> bytes:
    saved_game(state_path, 12)
    nova.json("session", "export", "--state", state_path, "--out", state_path.with_name("game.jsonl"))
    return state_path.with_name("game.jsonl").read_bytes()


def test_any_bytes_as_an_export(nova: Nova, state_path: Path, exported: bytes) -> None:
    file = state_path.with_name("any.jsonl")

    @SETTINGS
    @given(st.one_of(st.binary(max_size=2000), edited(exported)))
    def check(data: bytes) -> None:
        file.write_bytes(data)
        refused_or_added(nova, state_path, "import", file, file)

    check()


def test_any_bytes_as_a_scenario(nova: Nova, state_path: Path) -> None:
    saved_game(state_path, 3)
    file = state_path.with_name("any.toml")

    @SETTINGS
    @given(st.one_of(st.binary(max_size=2000), edited(DEMO.read_bytes())))
    def check(data: bytes) -> None:
        file.write_bytes(data)
        refused_or_added(nova, state_path, "new", file, "--scenario", file)

    check()
