"""The one way in and out of a user's files (assistant/files.py): a device or a pipe is refused at once, a file past
its bound is refused naming the bound, and nothing is written over the state file or a device."""

from __future__ import annotations

import os
import resource
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from assistant.files import EXPORT, SCENARIO, Kind, Refused, read_file, write_file, writing
from tests.session.conftest import DEMO, Nova, nova, state_path  # noqa: F401 (fixtures)
from tests.session.test_broken_inputs import digest, saved_game

ROOT = Path(__file__).resolve().parents[1]
MEMORY = 2 << 30  # the most a child may take: a device read without end fails it, not the machine


def nova_table(*args: str | Path, cwd: Path, stdin: Path | None = None) -> subprocess.CompletedProcess[str]:
    """`nova-table ARGS` in a child held to 2 GiB and 60 s: a regression fails the test, instead of hanging it."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    with open(stdin or os.devnull, "rb") as given:
        return subprocess.run([sys.executable, "-m", "assistant", *map(str, args)], cwd=cwd, env=env, stdin=given,
                              capture_output=True, text=True, timeout=60,
                              preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY)))  # fmt: skip


READERS = {  # F4: each grew to GBs on /dev/zero, and waited for ever on a pipe
    "session import": (("session", "import", "--state", "x.db", "{}"), "not a game export; nothing was imported"),
    "session new": (("session", "new", "--scenario", "{}", "--state", "x.db"), "not a scenario file"),
    "play": (("play", "--scenario", "{}", "--state", "x.db", "--screenshot", "x.png"), "not a scenario file"),
    "dice learn": (("dice", "learn", "{}", "--out", "p.json"), "not a manifest"),
}


@pytest.mark.parametrize("source", ["/dev/zero", "pipe"])
@pytest.mark.parametrize("command", READERS)
def test_a_device_or_a_pipe_as_input_is_refused_at_once(tmp_path: Path, command: str, source: str) -> None:
    os.mkfifo(tmp_path / "pipe")
    args, words = READERS[command]
    done = nova_table(*(arg.format(source) for arg in args), cwd=tmp_path)
    assert done.returncode in (1, 2), done.stderr[-500:]
    assert done.stderr.endswith(f"{source}: not a regular file (a pipe or a device), {words}\n"), done.stderr[-500:]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]  # no state file, no picture, no profile


def test_an_export_on_stdin_is_read_only_up_to_its_bound(tmp_path: Path) -> None:
    done = nova_table("session", "import", "--state", "x.db", cwd=tmp_path, stdin=Path("/dev/zero"))
    assert done.returncode == 1
    assert done.stderr.endswith(f"<stdin>: larger than {EXPORT.bound()}, the most a game export may hold; "
                                "nothing was imported\n"), done.stderr[-500:]  # fmt: skip
    assert list(tmp_path.iterdir()) == []


def test_a_scenario_file_past_its_bound_is_refused_naming_the_bound(nova: Nova, tmp_path: Path) -> None:
    huge = tmp_path / "huge.toml"
    huge.write_bytes(DEMO.read_bytes() + b"#" * SCENARIO.limit)
    code, _, err = nova("session", "new", "--scenario", huge, "--state", tmp_path / "x.db")
    assert (code, err) == (1, f"nova-table session new: {huge}: larger than 1 MiB, the most a scenario file may hold\n")
    assert not (tmp_path / "x.db").exists()


def test_read_file_takes_a_regular_file_up_to_its_bound(tmp_path: Path) -> None:
    small = Kind("a test file", 10)
    (tmp_path / "ten").write_bytes(b"0123456789")
    assert read_file(tmp_path / "ten", small) == b"0123456789"
    (tmp_path / "eleven").write_bytes(b"0123456789a")
    with pytest.raises(Refused, match=r"eleven: larger than 10 bytes, the most a test file may hold$"):
        read_file(tmp_path / "eleven", small)
    with pytest.raises(Refused, match=r": a folder, not a test file$"):
        read_file(tmp_path, small)
    with pytest.raises(FileNotFoundError):
        read_file(tmp_path / "gone", small)


def test_an_export_over_its_own_state_file_is_refused_and_every_game_kept(nova: Nova, state_path: Path) -> None:
    """F6: `session export --state g.db --out g.db` said "exported", and g.db held no game any more."""
    saved_game(state_path, 20)
    before = digest(state_path)
    os.link(state_path, state_path.with_name("other-name.db"))
    for target in (state_path, state_path.with_name("other-name.db"), Path(f"{state_path}-wal")):
        code, out, err = nova("session", "export", "--state", state_path, "--out", target)
        assert (code, out) == (1, ""), err
        assert err.startswith(f"nova-table session export: --out {target}: a file this command reads") and \
            err.endswith("write the export to another file; nothing was written\n"), err  # fmt: skip
    assert digest(state_path) == before
    assert nova.json("session", "show", "--state", state_path)  # the game is there
    assert sorted(p.name for p in state_path.parent.iterdir()) == ["games.db", "other-name.db"]


def test_an_export_is_not_written_over_a_pipe(nova: Nova, state_path: Path) -> None:
    saved_game(state_path, 3)
    os.mkfifo(state_path.parent / "pipe")
    code, _, err = nova("session", "export", "--state", state_path, "--out", state_path.parent / "pipe")
    assert code == 1 and "pipe: not a regular file (a pipe or a device): write the export to a file" in err
    assert stat.S_ISFIFO((state_path.parent / "pipe").stat().st_mode)


def test_an_export_is_not_written_over_a_device(nova: Nova, state_path: Path) -> None:
    """F7: as root, `session export --out /dev/full` put a regular file in the place of the device."""
    device = state_path.parent / "full"
    try:
        os.mknod(device, stat.S_IFCHR | 0o666, os.stat("/dev/full").st_rdev)  # /dev/full's twin
    except (PermissionError, FileNotFoundError) as why:
        pytest.skip(f"cannot make a device here (root alone can): {why}")
    saved_game(state_path, 3)
    code, _, err = nova("session", "export", "--state", state_path, "--out", device)
    assert code == 1 and f"--out {device}: not a regular file (a pipe or a device)" in err, err
    assert stat.S_ISCHR(device.lstat().st_mode) and device.lstat().st_rdev == os.stat("/dev/full").st_rdev
    assert sorted(p.name for p in state_path.parent.iterdir()) == ["full", "games.db"]


def test_a_screenshot_is_not_written_over_the_state_file(tmp_path: Path) -> None:
    state = tmp_path / "g.db"
    saved_game(state, 3)
    before = digest(state)
    done = nova_table("play", "--state", state, "--screenshot", state, cwd=tmp_path)
    assert done.returncode == 1
    assert f"--screenshot {state}: a file this command reads: write the screenshot to another file" in done.stderr
    assert digest(state) == before


def test_a_file_written_is_whole_or_as_it_was(tmp_path: Path) -> None:
    target = tmp_path / "out.txt"
    target.write_text("before")
    target.chmod(0o640)
    with pytest.raises(RuntimeError), writing(target) as out:
        out.write("half of it")
        raise RuntimeError("stopped half-way")
    assert target.read_text() == "before" and os.listdir(tmp_path) == ["out.txt"]
    write_file(target, b"after")
    assert target.read_bytes() == b"after" and stat.S_IMODE(target.stat().st_mode) == 0o640
    assert os.listdir(tmp_path) == ["out.txt"]
