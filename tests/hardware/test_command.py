"""`nova-table board simulate | monitor | send` as processes, and the hardware settings file."""

from __future__ import annotations

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
from assistant.hardware.protocol import Hello, Knob
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
            link.send({"t": "ring", "minute": 4, "hour": 1, "active": 4, "tokens": [[4, "h!"]], "over": None})
            ring = read_until(process, lambda line: line.startswith("ring ") and "W" in line).split()[1]
            assert ring[7] == ring[8] == "W"  # sector IV is LEDs 7 and 8: the minute hand
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
    assert "Hello(board='nova-board', protocol=1, leds=24, knobs=2)" in out
    assert "Knob(hero=1, delta=4)" in out


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
    assert "/dev/ttyACM-not-there" in err


def test_hardware_settings(tmp_path: Path) -> None:
    good = tmp_path / "hardware.toml"
    good.write_text('[encoder]\na = 5\nb = 6\nbutton = 13\nhold_time = 1\n[board]\nport = "/dev/ttyACM1"\n')
    config = load_config(good)
    assert (config.encoder.a, config.encoder.b, config.encoder.button, config.encoder.hold_time) == (5, 6, 13, 1)
    assert config.board.port == "/dev/ttyACM1" and config.board.tray_dice == 100
    for text, words in [
        ("[encoder]\na = 'five'\n", "[encoder] a: must be int"),
        ("[encoder]\npin = 5\n", "[encoder] pin: unknown key"),
        ("[lights]\n", "[lights]: unknown section"),
        ("[encoder\n", "not valid TOML"),
        ("[encoder]\nenabled = 'yes'\n", 'must be true, false or "auto"'),
    ]:
        bad = tmp_path / "bad.toml"
        bad.write_text(text)
        with pytest.raises(ConfigError) as error:
            load_config(bad)
        assert str(bad) in str(error.value) and words in str(error.value)
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(tmp_path / "missing.toml")
