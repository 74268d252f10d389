"""The link to the RP2040 board over USB serial (pyserial): game state out, knob turns in.

pyserial's `ReaderThread` reads on its own thread; a `Packetizer` splits the bytes into lines.
Every line is parsed on that thread and handed to `on_message` (the app posts it as a pygame
event: only the main loop touches the game). A garbled, partial or overlong line is logged with
what was wrong and skipped (a flood of them: the first few in each 10 s, then how many more,
`assistant.logs.Repeats`); nothing the board sends can stop the link or the app.
"""

from __future__ import annotations

import errno
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

import serial
from serial.threaded import Packetizer, ReaderThread

from assistant.hardware.protocol import (
    MAX_LINE,
    Beat,
    BoardMessage,
    Hello,
    LineError,
    encode,
    parse_line,
    perilium_message,
    ring_message,
    tray_message,
)
from assistant.logs import Repeats
from assistant.rules.state import GameState

log = logging.getLogger("nova_table.board")

BAUDRATE = 115200  # USB CDC ignores it; a UART bridge needs it
WRITE_SECONDS = 0.25  # a board that stops reading holds the main loop this long, once: then it is lost
SILENT_SECONDS = 3.0  # a board that sends no good line for this long (3 heartbeats) is lost: crashed, or at its prompt


class _Lines(Packetizer):  # type: ignore[misc]
    """Newline-terminated lines, each parsed; bad ones logged and skipped, overlong ones cut off."""

    TERMINATOR = b"\n"

    def __init__(self, link: BoardLink) -> None:
        super().__init__()
        self.link = link
        self.discarding = False

    def data_received(self, data: bytes) -> None:
        self.buffer.extend(data)
        while True:
            end = self.buffer.find(self.TERMINATOR)
            if end < 0:
                if len(self.buffer) > MAX_LINE and not self.discarding:
                    self.link.bad_line(bytes(self.buffer[:40]), f"line too long (over {MAX_LINE} bytes): skipped")
                    self.discarding = True
                if self.discarding:
                    del self.buffer[:]
                return
            packet = bytes(self.buffer[:end])
            del self.buffer[: end + 1]
            if self.discarding:
                self.discarding = False  # the rest of the overlong line
                continue
            self.handle_packet(packet)

    def handle_packet(self, packet: bytes) -> None:
        self.link.line(packet)

    def connection_lost(self, exc: BaseException | None) -> None:
        self.transport = None
        self.link.lost(exc)


NOT_OPENED = {
    errno.ENOENT: "no such port: is the board plugged in? (a Pico is usually /dev/ttyACM0)",
    errno.EACCES: "not allowed to open it: add this user to the dialout group (sudo usermod -aG dialout $USER), "
                  "then log in again",
    errno.EBUSY: "in use by another program (is nova-table play running?)",
    errno.EAGAIN: "in use by another program (is nova-table play running?)",
}  # fmt: skip


def unopened(error: serial.SerialException) -> str:
    """Why pyserial could not open a port, in a maker's words (it says "[Errno 2] could not open port ...")."""
    if error.errno in NOT_OPENED:
        return NOT_OPENED[error.errno]
    if str(error).startswith("Could not configure port"):  # termios refused: a file or device, not a serial port
        return "not a serial port (it takes no serial settings): give the board's, such as /dev/ttyACM0"
    return str(error)


class BoardLink:
    """One board on one serial port; `show(state)` and `tray(on)` make it a mirror of the app."""

    def __init__(self, port: serial.SerialBase, on_message: Callable[[BoardMessage], None] | None = None,
                 tray_levels: tuple[int, int] = (10, 100)) -> None:  # fmt: skip
        self.port = port
        self.on_message = on_message or (lambda message: None)
        self.tray_levels = tray_levels
        self.good = 0
        self.bad = 0
        self.connected = True
        self.heard = time.monotonic()  # when the board last sent a good line (or, until it does, when it was opened)
        self.greeted = threading.Event()  # set by its hello
        self._last: dict[str, bytes] = {}  # what the board shows, by kind: sent again when it starts over
        self._sending = threading.Lock()  # the main loop's sends and the reader's re-sends, one at a time
        self._thread = ReaderThread(port, lambda: _Lines(self))
        self.bad_lines = Repeats(log, f"bad lines from board {port.name or port.port}")
        self.failures = Repeats(log, f"failures handling a message from board {port.port}")

    @classmethod
    def open(cls, url: str, on_message: Callable[[BoardMessage], None] | None = None, **kwargs: Any) -> BoardLink:
        """Open a port by name or URL (`/dev/ttyACM0`, `loop://`, a pty path) and start reading.

        SerialException (an OSError) if it cannot be opened, a name that is neither a port nor a URL
        pyserial knows included (pyserial itself says ValueError or KeyError for those)."""
        try:
            port = serial.serial_for_url(url, baudrate=BAUDRATE, timeout=1, write_timeout=WRITE_SECONDS, exclusive=True)
        except (ValueError, KeyError) as error:
            why = f"not a serial port or pyserial URL ({error})"
            raise serial.SerialException(f"{why}: give a device such as /dev/ttyACM0, a pty's path or loop://") from None
        except serial.SerialException as error:
            plain = serial.SerialException(unopened(error))
            plain.errno = error.errno
            raise plain from None
        return cls(port, on_message, **kwargs).start()

    def start(self) -> BoardLink:
        """Start reading; SerialException where the port is lost as it opens (pyserial's reader then
        stops before `connect` returns, and says so by RuntimeError)."""
        self._thread.start()
        try:
            self._thread.connect()
        except RuntimeError as error:
            self.close()
            raise serial.SerialException(f"{self.port.port}: lost as soon as it was opened ({error})") from None
        return self

    # -- in (reader thread) ------------------------------------------------------------------

    def line(self, raw: bytes) -> None:
        try:
            message = parse_line(raw)
        except LineError as error:
            self.bad_line(raw, str(error))
            return
        self.good += 1
        self.heard = time.monotonic()
        if isinstance(message, Hello):
            self.greeted.set()
            self._show_again()
        if isinstance(message, Beat):
            return
        try:
            self.on_message(message)
        except Exception:  # a bug in the receiver must not kill the reader
            self.failures.warning("board: handling %r failed", message, exc_info=True)

    @property
    def alive(self) -> bool:
        """Connected, and heard from within SILENT_SECONDS: a board whose firmware stopped (a MicroPython
        traceback and its >>> prompt, a hang) sends no heartbeat, whatever else it prints."""
        return self.connected and time.monotonic() - self.heard < SILENT_SECONDS

    def greet(self, seconds: float) -> bool:
        """Say hello and wait up to `seconds` for the board's; whether it came."""
        self.greeted.clear()
        self.hello()
        return self.greeted.wait(seconds)

    def bad_line(self, raw: bytes, why: str) -> None:
        self.bad += 1
        self.bad_lines.warning("board %s: skipped a bad line: %s: %r", self.port.name or self.port.port, why, raw[:80])

    def lost(self, error: BaseException | None) -> None:
        self.connected = False
        self.bad_lines.flush()
        self.failures.flush()
        if error is not None:
            log.warning("board %s: connection lost: %s", self.port.port, error)

    # -- out ---------------------------------------------------------------------------------

    def send(self, message: dict[str, Any]) -> None:
        """Send one message (SerialException, an OSError, if the board is gone)."""
        self._write(encode(message))

    def _write(self, data: bytes) -> None:
        try:
            self._thread.write(data)
        except serial.SerialTimeoutException:  # it stopped reading (hung): lost, as if pulled out
            self.connected = False
            raise

    def _send_changed(self, key: str, message: dict[str, Any]) -> None:
        data = encode(message)
        with self._sending:
            if self.connected and self._last.get(key) != data:  # a lost board is the keeper's
                self._write(data)
                self._last[key] = data

    def _show_again(self) -> None:
        """A board says hello when it starts (a soft reset keeps its USB link, so the link goes on) and
        then shows nothing: send it what it showed. (At the first hello nothing has been sent yet.)"""
        with self._sending:
            try:
                for data in self._last.values():
                    self._write(data)
            except OSError as error:  # pulled out as it said hello: the link's loss says the rest
                log.warning("board %s: cannot show the game again: %s", self.port.port, error)

    def show(self, state: GameState) -> None:
        """Mirror a game state: the Horologium on the ring, the Perilium values (only what changed)."""
        self._send_changed("ring", ring_message(state))
        self._send_changed("perilium", perilium_message(state))

    def tray(self, on: bool) -> None:
        """The dice tray light: full while dice are being rolled and read, dim otherwise."""
        self._send_changed("tray", tray_message(self.tray_levels[1] if on else self.tray_levels[0]))

    def hello(self) -> None:
        self.send({"t": "hello"})

    def close(self) -> None:
        self._thread.close()
        self.connected = False
        self.bad_lines.flush()
        self.failures.flush()  # (its reader says so too, unless it is slower than pyserial's 2 s wait)

    def __repr__(self) -> str:
        return f"<board on {self.port.port}>"
