"""A simulated board on a pseudo-terminal, running the firmware's own logic (`firmware/board_protocol.py`).

The Pi side opens the pty's path like a real `/dev/ttyACM0`. The simulator answers the same
lines the RP2040 would, keeps the same LED frame, and sends knob turns on request.
"""

from __future__ import annotations

import importlib.util
import os
import selectors
import threading
import time
import tty
from pathlib import Path
from types import ModuleType
from typing import Any

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware" / "board_protocol.py"


def load_firmware(path: Path = FIRMWARE) -> ModuleType:
    """The firmware's pure module, imported from its file (it is not part of the Python package)."""
    if not path.is_file():
        raise FileNotFoundError(
            f"{path}: the board firmware is not there; the simulator needs the source tree (pip install --editable)"
        )
    spec = importlib.util.spec_from_file_location("board_protocol", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def ring_text(frame: list[tuple[int, int, int]]) -> str:
    """The 24 LEDs as letters: W white, R red, B blue, Y amber/orange, G green, r dim red, . off."""
    out = []
    for r, g, b in frame:
        if r == g == b == 0:
            out.append(".")
        elif r > 0 and g > 0 and b > 0 and min(r, g, b) > 0.7 * max(r, g, b):
            out.append("W")
        elif b >= r and b >= g:
            out.append("B")
        elif g > r:
            out.append("G")
        elif g > r * 0.3:
            out.append("Y")
        else:
            out.append("R" if r > 40 else "r")
    return "".join(out)


class SimulatedBoard:
    """The firmware's `Board` behind a pty: `path` is what the Pi side opens."""

    def __init__(self, knobs: int = 4, firmware: ModuleType | None = None) -> None:
        self.firmware = firmware or load_firmware()
        self.board: Any = self.firmware.Board(knobs=knobs)
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)  # no echo, no newline translation: bytes pass as they are
        self.path = os.ttyname(self.slave)
        self.received: list[str] = []  # every line the Pi sent, in order
        self.replies: list[str] = []  # every line the board sent (but its heartbeats)
        self.crashed = False  # its firmware stopped at MicroPython's prompt: no heartbeat, no answers
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._changed = threading.Condition()
        self._thread = threading.Thread(target=self._run, name="simulated-board", daemon=True)
        self._start = time.monotonic()

    def now_ms(self) -> int:
        return int((time.monotonic() - self._start) * 1000)

    def start(self) -> SimulatedBoard:
        self._thread.start()
        return self

    def _send(self, line: str) -> None:
        with self._lock:
            os.write(self.master, (line + "\n").encode("utf-8"))
            self.replies.append(line)

    def _run(self) -> None:
        pending = b""
        with selectors.DefaultSelector() as selector:
            selector.register(self.master, selectors.EVENT_READ)
            while not self._stop.is_set():
                beat = None if self.crashed else self.board.beat(self.now_ms())
                if beat:
                    with self._lock:
                        os.write(self.master, (beat + "\n").encode("utf-8"))
                if not selector.select(0.05):
                    continue
                try:
                    data = os.read(self.master, 4096)
                except OSError:
                    continue  # nobody has the pty open yet (EIO): wait
                if self.crashed:
                    os.write(self.master, data.replace(b"\n", b"\r\n...     "))  # the prompt echoes what it is sent
                    continue
                pending += data
                while b"\n" in pending:
                    line, pending = pending.split(b"\n", 1)
                    for reply in self.board.receive(line, self.now_ms()):
                        self._send(reply)
                    with self._changed:
                        self.received.append(line.decode("utf-8", "replace"))
                        self._changed.notify_all()

    def turn(self, hero: int, delta: int) -> str:
        """Turn hero `hero`'s Perilium knob by `delta` steps: the line the board sends."""
        line: str = self.board.knob_turned(hero, delta, self.now_ms())
        self._send(line)
        return line

    def press(self, hero: int) -> str:
        """Press hero `hero`'s Perilium knob (its push switch): the line the board sends."""
        line: str = self.board.knob_pressed(hero, self.now_ms())
        self._send(line)
        return line

    def restart(self) -> None:
        """A soft reset (MicroPython's Ctrl+D, or a crash): the USB link stays, the board starts over
        showing nothing and says hello, as its main.py does at boot."""
        self.board = self.firmware.Board(knobs=self.board.knobs)
        self.crashed = False
        self._send(self.board.hello())

    def crash(self) -> None:
        """The firmware stops on an error, as MicroPython does: its traceback, then the prompt, which echoes
        what it is sent and sends no heartbeat. The USB link stays."""
        self.crashed = True
        self.send_raw(b'Traceback (most recent call last):\r\n  File "main.py", line 5, in <module>\r\n'
                      b"MemoryError: memory allocation failed\r\nMicroPython v1.24.1 on 2024-11-29; Raspberry Pi Pico "
                      b"with RP2040\r\nType \"help()\" for more information.\r\n>>> ")

    def send_raw(self, data: bytes) -> None:
        """Send bytes as they are (for trying garbled lines on the Pi side)."""
        with self._lock:
            os.write(self.master, data)

    def frame(self) -> list[tuple[int, int, int]]:
        frame: list[tuple[int, int, int]] = self.board.frame(self.now_ms())
        return frame

    def wait_for(self, count: int, timeout: float = 5.0) -> bool:
        """Wait until the board has received `count` lines in all."""
        with self._changed:
            return self._changed.wait_for(lambda: len(self.received) >= count, timeout)

    def close(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(2)
        for fd in (self.master, self.slave):
            try:
                os.close(fd)
            except OSError:
                pass

    def __enter__(self) -> SimulatedBoard:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()
