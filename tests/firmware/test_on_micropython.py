"""The firmware's clock, heartbeat and guard under MicroPython itself (its WebAssembly build), where
`time.ticks_ms` wraps at 2**30 ms as on the board."""

from __future__ import annotations

from pathlib import Path

from tests.firmware.micropython import run_micropython

FIRMWARE = """
import json, time
import machine, neopixel
import board_pins
from board_pins import Firmware, run


def make(data=b""):
    incoming = [data[i:i + 1] for i in range(len(data))]
    sent = []
    firmware = Firmware(lambda: incoming.pop(0) if incoming else b"", sent.append)
    return firmware, sent
"""


def test_a_knob_shown_just_before_the_clock_wraps_gives_the_ring_back(tmp_path: Path) -> None:
    """ticks_ms wraps after 2**30 ms (12.4 days): a knob's bar shown just before must end 2 s later,
    not 12.4 days later (the ring froze on the bar when the times were compared with `<`)."""
    script = """
import time
from board_protocol import Board, KNOB_SHOW_MS
board = Board()
board.receive(b'{"t":"ring","minute":3,"hour":0,"active":null,"tokens":[],"over":null}')
ring = board.frame(0)
turned = time.ticks_add(0, -500)  # 500 ms before the clock wraps
board.knob_turned(0, 2, turned)
assert board.frame(time.ticks_add(turned, 1000)) != ring, "the bar is shown"
later = time.ticks_add(turned, KNOB_SHOW_MS + 500)
assert later < turned, "the clock wrapped"
assert board.frame(later) == ring, "the ring is back after the wrap"  # (the same blink phase as at 0)
print("ring back after", time.ticks_diff(later, turned), "ms")
"""
    assert "ring back after 2500 ms" in run_micropython(script, tmp_path)


def test_the_board_beats_every_second_across_the_clock_wrap(tmp_path: Path) -> None:
    script = FIRMWARE + """
firmware, sent = make()
start = time.ticks_add(0, -2500)
beats = []
for n in range(150):  # 6 s of 40 ms passes, across the wrap
    now = time.ticks_add(start, 40 * n)
    firmware.step(now)
    beats += [time.ticks_diff(now, start) for line in sent if json.loads(line) == {"t": "beat"}]
    sent.clear()
print(beats)
"""
    assert run_micropython(script, tmp_path).strip() == "[0, 1000, 2000, 3000, 4000, 5000]"


def test_a_failing_pass_is_said_and_the_loop_goes_on_feeding_the_watchdog(tmp_path: Path) -> None:
    script = FIRMWARE + """
firmware, sent = make(b'{"t":"tray","level":30}\\n')
neopixel.NeoPixel.failing = 2
dog = machine.WDT(timeout=board_pins.WATCHDOG_MS)
run(firmware, dog, passes=4)
errors = [json.loads(line)["error"] for line in sent if json.loads(line)["t"] == "error"]
print(errors)
print(machine.log.count(("feed",)), firmware.tray.duty, len(firmware.ring.shown))
"""
    errors, fed = run_micropython(script, tmp_path).strip().splitlines()
    assert errors == "['firmware: OSError: [Errno 5] EIO', 'firmware: OSError: [Errno 5] EIO']"
    assert fed == f"4 {30 * 65535 // 100} 1"  # fed each pass; the line still taken; the frame shown once it could be


def test_a_pass_that_keeps_failing_resets_the_board(tmp_path: Path) -> None:
    script = FIRMWARE + """
firmware, sent = make()
neopixel.NeoPixel.failing = 1000
try:
    run(firmware, machine.WDT(), passes=100)
except machine.Reset:
    print("reset after", len([line for line in sent if json.loads(line)["t"] == "error"]), "errors")
"""
    assert run_micropython(script, tmp_path).strip() == "reset after 24 errors"


def test_a_ctrl_c_byte_from_the_pi_is_a_bad_line_not_a_stop(tmp_path: Path) -> None:
    """With Ctrl+C off (main() turns it off), a 0x03 byte reaches the loop as data: the line it is in is
    refused and the next one answered."""
    script = FIRMWARE + """
firmware, sent = make(b'\\x03{"t":"hello"}\\n{"t":"hello"}\\n')
firmware.step(0)
print([json.loads(line)["t"] for line in sent])
"""
    assert run_micropython(script, tmp_path).strip() == "['error', 'hello', 'beat']"


def test_asked_for_the_prompt_the_loop_stops_and_a_timer_feeds_the_watchdog_for_a_while(tmp_path: Path) -> None:
    script = FIRMWARE + """
firmware, sent = make(b'{"t":"repl"}\\n')
dog = machine.WDT()
run(firmware, dog, passes=50)
print(sorted(json.loads(sent[0]).items()), machine.log.count(("feed",)))
timer = board_pins.at_prompt(dog)
timer.callback(timer)
print(machine.log[-2:])
board_pins.REPL_S = 0
timer = board_pins.at_prompt(dog)
timer.callback(timer)  # the time given has passed: the watchdog resets the board back into its loop
print(machine.log[-1])
"""
    reply, timer, after = run_micropython(script, tmp_path).strip().splitlines()
    assert reply == "[('seconds', 600), ('t', 'repl')] 1"  # the loop returned after the pass that read it
    assert timer == "[('timer', 1000), ('feed',)]"
    assert after == "('timer', 1000)"
