"""The board found by its USB id, and a board whose firmware stopped found out by its missing heartbeat:
the simulated board (the firmware's own logic) on a pty, pyserial's own port records."""

from __future__ import annotations

import os
import select
import time
import tty
from collections.abc import Callable
from typing import Any

import pytest
from serial.tools import list_ports
from serial.tools.list_ports_common import ListPortInfo

from assistant.hardware import board as board_link
from assistant.hardware.ports import board_ports
from assistant.hardware.simulator import SimulatedBoard, load_firmware
from tests.hardware.test_board import surface  # noqa: F401 - the fixture
from tests.ui.demo import demo_scenario


def usb_port(device: str, vid: int | None, pid: int | None) -> ListPortInfo:
    """pyserial's record of a port, as `list_ports.comports()` gives it on Linux."""
    port = ListPortInfo(device, skip_link_detection=True)
    port.vid, port.pid = vid, pid
    return port


def test_only_ports_with_the_picos_usb_id_are_boards() -> None:
    ports = [usb_port("/dev/ttyACM1", 0x2E8A, 0x0005), usb_port("/dev/ttyACM0", 0x2341, 0x0043),  # an Arduino Uno
             usb_port("/dev/ttyUSB0", 0x1A86, 0x7523), usb_port("/dev/ttyS0", None, None),
             usb_port("/dev/ttyACM2", 0x2E8A, 0x0005)]  # fmt: skip
    assert board_ports(ports) == ["/dev/ttyACM1", "/dev/ttyACM2"]


def test_play_greets_the_pico_and_never_writes_to_another_usb_serial_device(
        surface: Any, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811 - the fixture
    """A modem or a 3D printer on /dev/ttyACM0 was sent a hello (any /dev/ttyACM* was tried): now only a
    port with the Pico's USB id is opened."""
    from assistant.hardware.config import HardwareConfig
    from assistant.ui import devices
    from assistant.ui.app import App
    from assistant.ui.table import MemoryGame

    master, other = os.openpty()
    tty.setraw(other)
    with SimulatedBoard() as pico:
        monkeypatch.setattr(list_ports, "comports", lambda: [usb_port(os.ttyname(other), 0x2341, 0x0043),
                                                             usb_port(pico.path, 0x2E8A, 0x0005)])  # fmt: skip
        app = App(MemoryGame(demo_scenario()), surface, log=lambda message: None)
        link = devices.attach_board(app, HardwareConfig())  # port = "auto"
        assert link is not None and link.port.port == pico.path  # type: ignore[attr-defined]
        assert select.select([master], [], [], 0.3)[0] == []  # nothing was written to the other device
        app.close()
    os.close(master)
    os.close(other)


def wait(done: Callable[[], bool], seconds: float = 15.0) -> bool:
    end = time.monotonic() + seconds
    while not done() and time.monotonic() < end:
        time.sleep(0.05)
    return done()


def test_a_board_whose_firmware_stopped_is_lost_and_back_once_it_runs_again(
        surface: Any, tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811 - the fixture
    """A board that printed a MicroPython traceback and its >>> prompt stays plugged in: it was logged as
    "skipped a bad line" for ever and its ring stayed frozen. With no heartbeat it is lost (said on the
    screen), looked for again, and back once its firmware runs and says hello (not while the prompt echoes)."""
    from assistant.hardware.config import BoardConfig, HardwareConfig
    from assistant.ui import devices
    from assistant.ui.app import App
    from assistant.ui.table import MemoryGame

    firmware = load_firmware()
    setattr(firmware, "BEAT_MS", 200)  # (a module attribute mypy cannot see): the test's heartbeat, faster
    monkeypatch.setattr(board_link, "SILENT_SECONDS", 2.5)
    monkeypatch.setattr(devices, "AGAIN_SECONDS", 0.1)
    monkeypatch.setattr(devices, "BY_ID", tmp_path)  # no udev names: looked for again on its own port
    said: list[str] = []
    monkeypatch.setattr(devices, "post_notice", said.append)
    with SimulatedBoard(firmware=firmware) as board:
        app = App(MemoryGame(demo_scenario()), surface, log=lambda message: None)
        link = devices.attach_board(app, HardwareConfig(board=BoardConfig(port=board.path)))
        assert link is not None
        time.sleep(3.0)  # longer than SILENT_SECONDS: its heartbeat keeps it
        assert said == [] and app.mirrors == [link]
        board.crash()
        assert wait(lambda: len(said) == 1), "the stopped board was never said lost"
        assert said == ["Board lost (unplugged?): set Threat on the screen."]
        time.sleep(1.0)  # looked for again: the port opens, but the prompt only echoes the hello
        assert len(said) == 1
        board.restart()  # reset: its firmware runs and says hello
        assert wait(lambda: len(said) == 2), "the board running again was never said back"
        assert said[1] == "Board back: knobs and lights on."
        assert app.mirrors[0] is not link and app.mirrors[0].alive  # type: ignore[attr-defined]
        app.close()
