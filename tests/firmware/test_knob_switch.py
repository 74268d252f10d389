"""The Perilium knobs' push switches (GP10 to GP13): read each pass, debounced, a press sent once.

The debouncer's logic under CPython (`board_protocol.Switch`), the pins around it (`board_pins.Firmware`) with
the stand-ins of test_main.py, and the same pass under MicroPython itself across the clock's wrap.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from assistant.hardware.simulator import load_firmware
from tests.firmware.micropython import run_micropython
from tests.firmware.test_main import Pin, firmware_module, make  # noqa: F401 - firmware_module: the fixture
from tests.firmware.test_on_micropython import FIRMWARE

fw = load_firmware()


def presses(levels: list[tuple[int, bool]]) -> list[int]:
    """Feed one switch (time in ms, closed); the times at which it said a press."""
    switch = fw.Switch()
    return [now for now, closed in levels if switch.feed(closed, now)]


def test_a_press_that_bounces_is_one_press_once_it_has_held_closed() -> None:
    # the contact chatters in its first milliseconds, then holds closed for as long as the hand presses
    bounce = [(0, True), (2, False), (3, True), (5, False), (6, True)]
    held = [(6 + 40 * n, True) for n in range(1, 10)]
    assert presses(bounce + held) == [6 + 40]  # once it read closed DEBOUNCE_MS and more; no repeat while held


def test_a_release_and_a_second_press_is_a_second_press() -> None:
    passes = [(40 * n, closed) for n, closed in enumerate([False, True, True, True, False, False, True, True])]
    assert presses(passes) == [80, 280]


def test_a_lone_closed_reading_is_noise_not_a_press() -> None:
    passes = [(40 * n, closed) for n, closed in enumerate([False, True, False, False, True, False, False])]
    assert presses(passes) == []


def test_a_press_says_its_hero_and_the_ring_shows_that_hero_s_threat_unchanged() -> None:
    board = fw.Board()
    board.receive(b'{"t":"perilium","values":[0,3,0,0]}')
    assert json.loads(board.knob_pressed(1, 1000)) == {"t": "press", "hero": 1}
    frame = board.frame(1500)
    lit = [n for n, led in enumerate(frame) if led == fw._scale(fw.THREAT, board.brightness)]
    assert lit == [0, 1, 2] and board.perilium == [0, 3, 0, 0]
    assert board.frame(1000 + fw.KNOB_SHOW_MS) != frame  # the ring is back after the same 2 s as a turn


def test_a_knob_s_switch_pressed_on_its_pin_sends_one_press(firmware_module: Any) -> None:
    firmware, sent = make(firmware_module, b"")
    switch = Pin.pins[11]  # knob 2 (hero index 1): GP11, pulled up
    assert switch.level == 1
    firmware.step(0)
    switch.level = 0  # pressed: the contact pulls the pin low
    for now in (40, 80, 120, 160):
        firmware.step(now)
    switch.level = 1
    firmware.step(200)
    assert [json.loads(line) for line in sent] == [{"t": "press", "hero": 1}]
    assert [Pin.pins[n].level for n in (10, 12, 13)] == [1, 1, 1]  # the others made, pulled up, not pressed


def test_the_switch_is_read_under_micropython_across_the_clock_wrap(tmp_path: Path) -> None:
    script = FIRMWARE + """
firmware, sent = make()
start = time.ticks_add(0, -20)  # pressed 20 ms before the clock wraps: held on past it
machine.Pin.pins[13].level = 0  # knob 4's switch (GP13)
for n in range(6):
    firmware.step(time.ticks_add(start, 40 * n))
print([sorted(json.loads(line).items()) for line in sent if json.loads(line)["t"] == "press"])
"""
    assert run_micropython(script, tmp_path).strip() == "[[('hero', 3), ('t', 'press')]]"  # once, 20 ms past the wrap
