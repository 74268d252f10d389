"""`nova-table board simulate | monitor | send` as processes, and the hardware settings file."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from assistant.hardware.board import BoardLink
from assistant.hardware.config import ConfigError, load_config
from assistant.hardware.protocol import Hello, Knob, Press
from assistant.hardware.simulator import SimulatedBoard
from tests.hardware.test_board import Inbox

ROOT = Path(__file__).resolve().parents[2]


def nova(*args: str, stdin: int | None = subprocess.DEVNULL) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "assistant", "board", *args], cwd=ROOT, stdin=stdin,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip


def read_until(process: subprocess.Popen[str], wanted: Callable[[str], bool], seconds: float = 10) -> str:
    """The first line of stdout that is `wanted`, read on a thread so a silent process cannot hang the test."""
    stdout = process.stdout
    assert stdout is not None
    lines: queue.Queue[str] = queue.Queue()

    def pump() -> None:
        for line in stdout:
            lines.put(line)

    threading.Thread(target=pump, daemon=True).start()
    deadline = time.monotonic() + seconds
    seen = []
    while time.monotonic() < deadline:
        try:
            line = lines.get(timeout=0.1)
        except queue.Empty:
            continue
        seen.append(line)
        if wanted(line):
            return line
    raise AssertionError(f"not printed within {seconds} s; printed: {seen}")


def test_simulate_prints_a_pty_path_that_behaves_as_a_board() -> None:
    process = nova("simulate", stdin=subprocess.PIPE)
    try:
        assert process.stdout is not None and process.stdin is not None
        path = process.stdout.readline().strip()
        assert path.startswith("/dev/")
        inbox = Inbox()
        link = BoardLink.open(path, inbox)
        try:
            link.hello()
            assert inbox.wait(lambda m: any(isinstance(x, Hello) for x in m))
            process.stdin.write("knob 2 -3\n")
            process.stdin.flush()
            assert inbox.wait(lambda m: Knob(2, -3) in m)
            process.stdin.write("press 1\n")
            process.stdin.flush()
            assert inbox.wait(lambda m: Press(1) in m)
            link.send({"t": "ring", "minute": 4, "hour": 1, "active": 4, "tokens": [[4, "h!"]], "over": None})
            ring = read_until(process, lambda line: line.startswith("ring ") and "W" in line).split()[1]
            assert ring[7] == ring[8] == "W"  # sector IV is LEDs 7 and 8: the minute hand
            process.stdin.write("reset\n")  # a soft reset: the board says hello again
            process.stdin.flush()
            assert inbox.wait(lambda m: sum(isinstance(x, Hello) for x in m) == 2)
        finally:
            link.close()
        process.send_signal(signal.SIGTERM)
        assert process.wait(10) == 0
    finally:
        if process.poll() is None:
            process.kill()


def test_monitor_prints_what_the_board_sends() -> None:
    with SimulatedBoard(knobs=2) as board:
        process = nova("monitor", board.path, "--seconds", "3")
        assert board.wait_for(1, timeout=10)  # the monitor said hello
        board.turn(1, 4)
        out, err = process.communicate(timeout=20)
    assert process.returncode == 0, err
    assert "Hello(board='nova-board', protocol=3, leds=24, knobs=2)" in out
    assert "Knob(hero=1, delta=4)" in out


def test_monitor_says_when_its_port_closes_and_exits_1() -> None:
    """It went on silently with exit status 0 as if stopped by hand."""
    with SimulatedBoard(knobs=2) as board:
        process = nova("monitor", board.path)  # no --seconds: until the port closes
        assert board.wait_for(1, timeout=10)  # the monitor said hello
        path = board.path
        board.close()  # as a board pulled out
        out, err = process.communicate(timeout=20)
    assert process.returncode == 1, err
    assert "Hello(board='nova-board'" in out
    assert err.endswith(f"nova-table: board {path}: the port closed; nothing more to monitor\n"), err


def test_send_refuses_a_message_that_is_not_json_and_sends_nothing() -> None:
    with SimulatedBoard() as board:
        process = nova("send", board.path, '{"t":"tray","level":50}', "{not json")
        _, err = process.communicate(timeout=20)
        assert process.returncode == 1
        assert "message 2: not JSON" in err
        time.sleep(0.1)
        assert board.received == []


def test_monitor_of_a_port_that_is_not_there_says_so() -> None:
    process = nova("monitor", "/dev/ttyACM-not-there")
    _, err = process.communicate(timeout=20)
    assert process.returncode == 1
    assert err == "nova-table: board /dev/ttyACM-not-there: no such port: is the board plugged in? (a Pico is usually /dev/ttyACM0)\n"
    process = nova("send", "/dev/null", '{"type": "hello"}')  # a device that takes no serial settings
    _, err = process.communicate(timeout=20)
    assert process.returncode == 1
    assert err == ("nova-table: board /dev/null: not a serial port (it takes no serial settings): give the board's, "
                   "such as /dev/ttyACM0\n")


def test_send_to_a_board_that_stops_reading_says_so() -> None:
    """pyserial's loop:// takes no more once its buffer is full, as a hung board: the write times out."""
    big = '{"t":"note","text":"' + "x" * 100_000 + '"}'
    done = subprocess.run([sys.executable, "-m", "assistant", "board", "send", "loop://", big], cwd=ROOT,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=30)  # fmt: skip
    assert done.returncode == 1
    assert done.stderr == "nova-table: board loop://: the board stopped reading (a write timed out)\n"


def board(*args: str) -> subprocess.CompletedProcess[str]:
    """`nova-table board ARGS` run to its end (stdin empty)."""
    return subprocess.run([sys.executable, "-m", "assistant", "board", *args], cwd=ROOT, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=20)  # fmt: skip


@pytest.mark.parametrize("args", [("monitor", "bogus://x", "--seconds", "1"), ("send", "bogus://x", '{"t":"hello"}')])
def test_a_port_that_is_neither_a_port_nor_a_url_is_named_and_refused(args: tuple[str, ...]) -> None:
    done = board(*args)
    assert done.returncode == 1
    assert done.stderr == ("nova-table: board bogus://x: not a serial port or pyserial URL (invalid URL, protocol "
                           "'bogus' not known): give a device such as /dev/ttyACM0, a pty's path or loop://\n")  # fmt: skip


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("send", "loop://", "{}", "--wait", "-1"), "argument --wait: -1: expected seconds from 0 to 86400"),
        (("send", "loop://", "{}", "--wait", "nan"), "argument --wait: nan: expected seconds from 0 to 86400"),
        (("send", "loop://", "{}", "--wait", "inf"), "argument --wait: inf: expected seconds from 0 to 86400"),
        (("send", "loop://", "{}", "--wait", "soon"), "argument --wait: expected a number of seconds, not 'soon'"),
        (("monitor", "loop://", "--seconds", "-1"), "argument --seconds: -1: expected seconds from 0 to 86400"),
        (("monitor", "loop://", "--seconds", "nan"), "argument --seconds: nan: expected seconds from 0 to 86400"),
        (("simulate", "--knobs", "99999999999999999999"), "argument --knobs: 99999999999999999999: a board has 1 to 8"),
        (("simulate", "--knobs", "-1"), "argument --knobs: -1: a board has 1 to 8 knobs"),
        (("simulate", "--knobs", "0"), "argument --knobs: 0: a board has 1 to 8 knobs"),
        (("simulate", "--knobs", "four"), "argument --knobs: expected a whole number of knobs, not 'four'"),
    ],
)
def test_a_number_out_of_range_is_refused_before_anything_starts(args: tuple[str, ...], words: str) -> None:
    done = board(*args)
    assert done.returncode == 2
    assert words in done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""


@pytest.mark.parametrize(
    ("message", "words"),
    [
        ('{"t":"x","v":1' + "0" * 5000 + "}", "not JSON (a number of more than 4300 digits)"),
        ("[" * 100000, "not JSON (nested too deeply)"),
        ('{"t":', "not JSON (Expecting value at column 6)"),
    ],
)
def test_a_message_that_is_not_json_python_reads_is_refused_with_why(message: str, words: str) -> None:
    done = board("send", "loop://", message)
    assert done.returncode == 1
    assert done.stderr.startswith(f"nova-table: message 1: {words}: {message[:20]}")
    assert len(done.stderr) < 200  # the message is shown cut, not whole


def test_a_hardware_file_python_cannot_read_is_named(tmp_path: Path) -> None:
    """tomllib says ValueError for a number of over 4300 digits, RecursionError for deep nesting: the file is named."""
    for text, words in [
        ("[encoder]\na = 1" + "0" * 5000 + "\n", "not valid TOML: a number of more than 4300 digits"),
        ("[encoder]\na = " + "[" * 100000 + "\n", "not valid TOML: nested too deeply"),
        ("[encoder]\na = " + "{b = " * 100000 + "\n", "not valid TOML: nested too deeply"),
    ]:
        bad = tmp_path / "bad.toml"
        bad.write_text(text)
        with pytest.raises(ConfigError) as error:
            load_config(bad)
        assert str(error.value) == f"{bad}: {words}"


def test_hardware_settings(tmp_path: Path) -> None:
    good = tmp_path / "hardware.toml"
    good.write_text('[encoder]\na = 5\nb = 6\nbutton = 13\nhold_time = 1\n[board]\nport = "/dev/ttyACM1"\n')
    config = load_config(good)
    assert (config.encoder.a, config.encoder.b, config.encoder.button, config.encoder.hold_time) == (5, 6, 13, 1)
    assert config.board.port == "/dev/ttyACM1" and config.board.tray_dice == 100
    assert config.camera.source == "none" and config.dice_profile() is None  # no [camera]: no camera
    good.write_text('[camera]\nsource = "picamera"\ntray = true\nprofile = "~/my-dice.profile.json"\n')
    config = load_config(good)
    assert (config.camera.source, config.camera.tray) == ("picamera", True)
    assert config.dice_profile() == Path.home() / "my-dice.profile.json"
    good.write_text('[camera]\nsource = "folder:rolls"\n')  # a folder's path taken as the profile's
    assert load_config(good).camera_source() == f"folder:{tmp_path / 'rolls'}"
    good.write_text('[camera]\nsource = ""\n')
    assert load_config(good).camera_source() == "none"
    for text, words in [
        ("[encoder]\na = 'five'\n", "[encoder] a: must be int"),
        ("[encoder]\npin = 5\n", "[encoder] pin: unknown key"),
        ("[lights]\n", "[lights]: unknown section"),
        ("[encoder\n", "not valid TOML"),
        ("[encoder]\nenabled = 'yes'\n", 'must be true, false or "auto"'),
        ("[encoder]\nenabled = 0\n", 'enabled: must be true, false or "auto", not 0'),  # 0 == False, not False
        ("[encoder]\nenabled = 1.0\n", 'enabled: must be true, false or "auto", not 1.0'),
        ("[encoder]\nhold_time = inf\n", "hold_time: must be a number of seconds from 0.1 to 10, not inf"),
        ("[encoder]\nhold_time = nan\n", "hold_time: must be a number of seconds from 0.1 to 10, not nan"),
        ("[encoder]\nhold_time = -2\n", "hold_time: must be a number of seconds from 0.1 to 10, not -2"),
        ("[encoder]\nbounce_time = true\n", "bounce_time: must be a number of seconds from 0 to 1, not True"),
        ("[encoder]\nbounce_time = -1\n", "bounce_time: must be a number of seconds from 0 to 1, not -1"),
        ("[board]\ntray_dice = 500\n", "[board] tray_dice: must be a percent from 0 to 100, not 500"),
        ("[board]\ntray_idle = -5\n", "[board] tray_idle: must be a percent from 0 to 100, not -5"),
        ("[camera]\ntray = 'yes'\n", "[camera] tray: must be bool"),
        ("[camera]\ntray = 1\n", "[camera] tray: must be bool"),
        ("[camera]\nsource = 0\n", "[camera] source: must be str"),
        ("[camera]\nlens = 'wide'\n", "[camera] lens: unknown key (known: profile, source, tray)"),
    ]:
        bad = tmp_path / "bad.toml"
        bad.write_text(text)
        with pytest.raises(ConfigError) as error:
            load_config(bad)
        assert str(bad) in str(error.value) and words in str(error.value)
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(tmp_path / "missing.toml")


def test_every_problem_of_a_hardware_file_is_named_at_once(tmp_path: Path) -> None:
    """A maker at the Pi mends the file in one go: every wrong key and section, a line each, not the first only."""
    bad = tmp_path / "hardware.toml"
    bad.write_text("[encoder]\na = 'five'\nhold_time = 0\nbutton = 22\n[board]\ntray_dice = 500\n[lights]\n"
                   "[camera]\nlens = 'wide'\n")
    with pytest.raises(ConfigError) as error:
        load_config(bad)
    assert str(error.value).splitlines() == [
        f"{bad}: [lights]: unknown section (known: encoder, board, camera)",
        f"{bad}: [encoder] a: must be int, not 'five'",
        f"{bad}: [encoder] hold_time: must be a number of seconds from 0.1 to 10, not 0",
        f"{bad}: [board] tray_dice: must be a percent from 0 to 100, not 500",
        f"{bad}: [camera] lens: unknown key (known: profile, source, tray)",
    ]


def test_the_file_named_in_the_environment_comes_before_the_search(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """NOVA_TABLE_HARDWARE names the settings in place of /etc's and the home folder's (the tests' own name
    tests/no_hardware.toml: no device of the machine is touched); the command line's file still wins."""
    from assistant.hardware import config

    own = load_config()
    assert own.source.endswith("tests/no_hardware.toml")  # tests/conftest.py, for every test
    assert (own.encoder.enabled, own.board.port, own.camera_source()) == (False, "none", "none")
    home = tmp_path / "home.toml"
    home.write_text('[board]\nport = "/dev/ttyACM7"\n')
    monkeypatch.setattr(config, "SEARCH", (home,))
    mine = tmp_path / "mine.toml"
    mine.write_text('[board]\nport = "/dev/ttyACM3"\n')
    monkeypatch.setenv("NOVA_TABLE_HARDWARE", str(mine))
    assert load_config().board.port == "/dev/ttyACM3"
    given = tmp_path / "given.toml"
    given.write_text('[board]\nport = "none"\n')
    assert load_config(given).board.port == "none"
    monkeypatch.delenv("NOVA_TABLE_HARDWARE")
    assert load_config().board.port == "/dev/ttyACM7"

    class Unreachable(type(home)):  # type: ignore[misc]
        """A home folder this user cannot look into (HOME=/root under `sudo -u`): pathlib raises, not False."""

        def is_file(self) -> bool:
            raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(config, "SEARCH", (Unreachable(home), home))
    assert load_config().board.port == "/dev/ttyACM7"  # passed over, the next file read
    monkeypatch.setenv("NOVA_TABLE_HARDWARE", str(tmp_path / "gone.toml"))
    with pytest.raises(ConfigError, match=f"^NOVA_TABLE_HARDWARE={tmp_path / 'gone.toml'}: no such settings file$"):
        load_config()


def test_the_home_folder_s_settings_follow_xdg_config_home(tmp_path: Path) -> None:
    """$XDG_CONFIG_HOME, where it is set, is the home folder's settings place (it was ~/.config whatever it said)."""
    code = "from assistant.hardware.config import SEARCH; print(SEARCH[1])"
    env = {k: v for k, v in os.environ.items() if k != "XDG_CONFIG_HOME"}
    home = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    assert home.stdout.strip() == str(Path.home() / ".config" / "nova-table" / "hardware.toml")
    env["XDG_CONFIG_HOME"] = str(tmp_path)
    xdg = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    assert xdg.stdout.strip() == str(tmp_path / "nova-table" / "hardware.toml")


def test_simulate_with_its_input_ended_waits_instead_of_spinning(monkeypatch: pytest.MonkeyPatch) -> None:
    """`board simulate < /dev/null` (or started from a script) took 60 % of a core once its stdin had ended: the
    loop's only wait was select() on stdin. Now it waits 0.1 s a pass: here the stop comes at its third wait."""
    import argparse
    import io

    from assistant.hardware import command

    class Counted(threading.Event):
        waits = 0

        def wait(self, timeout: float | None = None) -> bool:
            Counted.waits += 1
            if Counted.waits >= 3:
                self.set()
            return super().wait(0)

    stop = Counted()
    monkeypatch.setattr(command, "_stop_on_signals", lambda: stop)
    ended = io.StringIO("")
    ended.close()
    monkeypatch.setattr(sys, "stdin", ended)
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    done: list[int] = []
    runner = threading.Thread(target=lambda: done.append(command._simulate(argparse.Namespace(knobs=2, quiet=True))), daemon=True)
    runner.start()
    runner.join(10)
    stop.set()  # (before the fix the loop never waited, so never stopped: set it here so the thread ends)
    runner.join(10)
    assert Counted.waits >= 3 and done == [0]
