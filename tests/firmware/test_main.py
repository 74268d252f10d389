"""The firmware's pin glue (`firmware/board_pins.py`) under CPython, with the board's `machine` and `neopixel` stood in.

The stand-ins are the smallest models of MicroPython's Pin, PWM and NeoPixel: pin levels that the
test sets and interrupt handlers it fires, as the RP2040 would on an edge.
"""

from __future__ import annotations

import importlib.util
import io
import json
import sys
import types
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from assistant.hardware.simulator import FIRMWARE


class Pin:
    IN, OUT, PULL_UP, IRQ_RISING, IRQ_FALLING = 0, 1, 2, 4, 8
    pins: dict[int, Pin] = {}

    def __init__(self, number: int, mode: int = 1, pull: int | None = None) -> None:
        self.number = number
        self.level = 1 if pull == Pin.PULL_UP else 0
        self.handler: Callable[[Pin], None] | None = None
        Pin.pins[number] = self

    def value(self) -> int:
        return self.level

    def irq(self, handler: Callable[[Pin], None], trigger: int) -> None:
        self.handler = handler

    def drive(self, level: int) -> None:
        """The contact opens or closes: the level changes and the edge interrupt fires."""
        self.level = level
        assert self.handler is not None
        self.handler(self)


class PWM:
    def __init__(self, pin: Pin) -> None:
        self.pin = pin
        self.frequency = 0
        self.duty = -1

    def freq(self, hz: int) -> None:
        self.frequency = hz

    def duty_u16(self, duty: int) -> None:
        self.duty = duty


class NeoPixel:
    def __init__(self, pin: Pin, count: int) -> None:
        self.pixels = [(0, 0, 0)] * count
        self.shown: list[list[tuple[int, int, int]]] = []

    def __setitem__(self, index: int, color: tuple[int, int, int]) -> None:
        self.pixels[index] = color

    def write(self) -> None:
        self.shown.append(list(self.pixels))


class Watchdog:
    """machine.WDT: made after Ctrl+C was turned off, or the loop could be stopped by a 0x03 byte."""

    calls: list[object] = []

    def __init__(self, timeout: int) -> None:
        Watchdog.calls.append(("WDT", timeout))


@pytest.fixture
def firmware_module(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    monkeypatch.setitem(sys.modules, "machine", types.SimpleNamespace(Pin=Pin, PWM=PWM, WDT=Watchdog))
    monkeypatch.setitem(sys.modules, "neopixel", types.SimpleNamespace(NeoPixel=NeoPixel))
    monkeypatch.setitem(sys.modules, "micropython", types.SimpleNamespace(kbd_intr=Watchdog.calls.append))
    monkeypatch.syspath_prepend(str(FIRMWARE.parent))
    monkeypatch.delitem(sys.modules, "board_protocol", raising=False)
    spec = importlib.util.spec_from_file_location("nova_board_pins", FIRMWARE.parent / "board_pins.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # importing it defines the loop; main.py starts it
    Pin.pins = {}
    yield module


def make(module: Any, data: bytes) -> tuple[Any, list[str]]:
    incoming = [data[i : i + 1] for i in range(len(data))]
    sent: list[str] = []  # what the firmware sent but its heartbeats (test_on_micropython.py)

    def write_line(line: str) -> None:
        if json.loads(line) != {"t": "beat"}:
            sent.append(line)

    firmware = module.Firmware(lambda: incoming.pop(0) if incoming else b"", write_line)
    return firmware, sent


def test_lines_from_the_pi_set_the_ring_and_the_tray(firmware_module: Any) -> None:
    ring = {"t": "ring", "minute": 5, "hour": 1, "active": 5, "tokens": [[5, "h!"], [7, "e"]], "over": None}
    data = (json.dumps(ring) + "\n" + '{"t":"tray","level":40}\n').encode()
    firmware, sent = make(firmware_module, data)
    firmware.step(0)
    assert sent == []
    assert firmware.ring.shown[-1] == firmware.board.frame(0)
    assert firmware.ring.shown[-1][9] == firmware.ring.shown[-1][10] != (0, 0, 0)  # sector V is LEDs 9 and 10
    assert firmware.tray.duty == 40 * 65535 // 100 and firmware.tray.frequency == 1000


def test_a_knob_turned_one_detent_sends_one_step(firmware_module: Any) -> None:
    firmware, sent = make(firmware_module, b"")
    a, b = Pin.pins[6], Pin.pins[7]  # knob 3 (hero index 2)
    for pin, level in ((a, 0), (b, 0), (a, 1), (b, 1)):  # clockwise: A closes first
        pin.drive(level)
    for pin, level in ((b, 0), (a, 0), (b, 1), (a, 1)) * 2:  # two detents back
        pin.drive(level)
    firmware.step(100)
    assert [json.loads(line) for line in sent] == [{"t": "knob", "hero": 2, "delta": -1}]  # summed in one pass
    firmware.step(140)
    assert len(sent) == 1  # nothing more to send


def test_a_long_spin_between_two_passes_is_sent_in_lines_of_at_most_100_steps(firmware_module: Any) -> None:
    """The Pi refuses a line of more than 100 steps (protocol 1), so 150 steps go as 100 and 50."""
    firmware, sent = make(firmware_module, b"")
    a, b = Pin.pins[2], Pin.pins[3]  # knob 1 (hero index 0)
    for pin, level in ((a, 0), (b, 0), (a, 1), (b, 1)) * 150:  # 150 detents clockwise
        pin.drive(level)
    firmware.step(100)
    assert [json.loads(line) for line in sent] == [{"t": "knob", "hero": 0, "delta": 100}, {"t": "knob", "hero": 0, "delta": 50}]
    firmware.step(140)
    assert len(sent) == 2
    assert firmware.board.perilium[0] == 150


def test_no_step_is_lost_to_an_interrupt_at_any_point_of_a_pass(firmware_module: Any) -> None:
    """MicroPython runs a pin's handler between two bytecodes of the loop: fire a step's last edge at each
    bytecode of `step` in turn; the two steps turned reach the Pi every time, in this pass or the next."""
    positions = 0
    for fire_at in range(1, 1000):
        Pin.pins = {}
        firmware, sent = make(firmware_module, b"")
        a, b = Pin.pins[2], Pin.pins[3]
        for pin, level in ((a, 0), (b, 0), (a, 1), (b, 1), (a, 0), (b, 0), (a, 1)):  # a step, and all but the last edge of another
            pin.drive(level)
        count = 0

        def tracer(frame: types.FrameType, event: str, arg: object) -> Any:
            if frame.f_code is not firmware_module.Firmware.step.__code__:
                return None
            frame.f_trace_opcodes = True

            def opcode(frame: types.FrameType, event: str, arg: object) -> Any:
                nonlocal count
                if event == "opcode":
                    count += 1
                    if count == fire_at:
                        b.drive(1)  # the interrupt for the second step's last edge
                return opcode

            return opcode

        sys.settrace(tracer)
        try:
            firmware.step(0)
        finally:
            sys.settrace(None)
        if fire_at > count:
            break
        positions = fire_at
        firmware.step(40)
        assert sum(json.loads(line)["delta"] for line in sent) == 2, f"a step lost to the interrupt at bytecode {fire_at}"
    assert positions > 100  # the pass was traced through


def test_a_garbled_line_gets_an_error_reply_and_the_next_line_still_works(firmware_module: Any) -> None:
    firmware, sent = make(firmware_module, b'\xff{"t":\n{"t":"hello"}\n' + b"x" * 3000 + b"\n")
    firmware.step(0)
    replies = [json.loads(line) for line in sent]
    assert replies[0]["t"] == "error" and replies[1]["t"] == "hello" and "too long" in replies[2]["error"]


def test_main_turns_ctrl_c_off_then_starts_the_watchdog_then_the_loop(firmware_module: Any,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    """A 0x03 byte from the Pi used to stop main.py (MicroPython's Ctrl+C); now it is data (a bad line).
    The loop itself, its guard and the watchdog's feeding run under MicroPython (test_on_micropython.py)."""
    Watchdog.calls.clear()
    ran: list[tuple[Any, Any]] = []
    monkeypatch.setattr(firmware_module, "run", lambda firmware, watchdog: ran.append((firmware, watchdog)))
    monkeypatch.setattr(firmware_module, "at_prompt", lambda watchdog: "prompt")
    poller = types.SimpleNamespace(register=lambda stream, events: None, poll=lambda timeout: [])
    monkeypatch.setattr(firmware_module, "select", types.SimpleNamespace(poll=lambda: poller, POLLIN=1))
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    assert firmware_module.main() == "prompt"
    assert Watchdog.calls == [-1, ("WDT", firmware_module.WATCHDOG_MS)]
    assert len(ran) == 1 and isinstance(ran[0][1], Watchdog)
    assert json.loads(out.getvalue())["t"] == "hello"
