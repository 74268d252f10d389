"""Nova Table board firmware (MicroPython on an RP2040): USB serial lines in, LED ring, knobs and tray light out.

All behaviour lives in board_protocol.py (pure, tested on the Pi side under CPython); this file
only connects it to the pins; main.py starts it. Wiring: hardware/wiring.md. Copy the three
files to the board with `mpremote cp firmware/board_protocol.py firmware/board_pins.py
firmware/main.py :` and reset it.
"""

import select
import sys
import time

import machine
import micropython
import neopixel

from board_protocol import LEDS, MAX_LINE, REPL_S, Board, Quadrature, Switch, encode

RING_PIN = 16
TRAY_PIN = 15
TRAY_PWM_HZ = 1000
KNOB_PINS = ((2, 3), (4, 5), (6, 7), (8, 9))  # (A, B) of each hero's Perilium knob
SWITCH_PINS = (10, 11, 12, 13)  # each knob's push switch, to GND: read each pass (FRAME_MS), debounced
FRAME_MS = 40
WATCHDOG_MS = 4000  # a loop that stops for this long resets the board (the RP2040 allows up to 8388)
FAILURES = 25  # passes failing in a row (about a second) before the board resets itself


class Firmware:
    """One pass of the board's loop at a time: serial bytes in, knob steps out, LEDs and tray light set."""

    def __init__(self, read_byte, write_line, knob_pins=KNOB_PINS, switch_pins=SWITCH_PINS):
        self.read_byte = read_byte  # () -> b"x", or b"" when nothing is waiting
        self.write_line = write_line  # (str) -> None
        self.board = Board(knobs=len(knob_pins))
        self.ring = neopixel.NeoPixel(machine.Pin(RING_PIN), LEDS)
        self.tray = machine.PWM(machine.Pin(TRAY_PIN))
        self.tray.freq(TRAY_PWM_HZ)
        self.tray.duty_u16(0)
        self.steps = [0] * len(knob_pins)  # each knob's steps counted so far: written by its interrupt only
        self.sent = [0] * len(knob_pins)  # each knob's steps sent so far: written by the loop only
        self.pending = b""
        self.last_frame = None
        self.switches = [(machine.Pin(pin, machine.Pin.IN, machine.Pin.PULL_UP), Switch()) for pin in switch_pins]
        for number, (pin_a, pin_b) in enumerate(knob_pins):
            a = machine.Pin(pin_a, machine.Pin.IN, machine.Pin.PULL_UP)
            b = machine.Pin(pin_b, machine.Pin.IN, machine.Pin.PULL_UP)
            handler = self._knob(number, a, b)
            a.irq(handler, machine.Pin.IRQ_RISING | machine.Pin.IRQ_FALLING)
            b.irq(handler, machine.Pin.IRQ_RISING | machine.Pin.IRQ_FALLING)

    def _knob(self, index, a, b):
        decoder = Quadrature()

        def changed(pin):  # an interrupt: only count
            step = decoder.feed(not a.value(), not b.value())  # a closed contact pulls its pin low
            if step:
                self.steps[index] += step

        return changed

    def step(self, now):
        """Read what the Pi sent, send the knob turns, show the frame of time `now` (ms)."""
        while True:
            byte = self.read_byte()
            if not byte:
                break
            if byte == b"\n":
                if self.pending.strip():
                    for reply in self.board.receive(self.pending, now):
                        self.write_line(reply)
                self.pending = b""
            elif len(self.pending) <= MAX_LINE:
                self.pending += byte  # an overlong line stops growing; receive() says it is too long
        for index in range(len(self.steps)):
            counted = self.steps[index]  # one read: a step the interrupt counts after it goes in the next pass
            delta = counted - self.sent[index]
            if delta:
                self.sent[index] = counted
                while delta:  # a line says at most 100 steps (the protocol's limit): a long spin in several
                    part = max(-100, min(100, delta))
                    self.write_line(self.board.knob_turned(index, part, now))
                    delta -= part
        for index, (pin, switch) in enumerate(self.switches):
            if switch.feed(not pin.value(), now):  # pressed: the contact pulls its pin low
                self.write_line(self.board.knob_pressed(index, now))
        beat = self.board.beat(now)
        if beat:
            self.write_line(beat)
        frame = self.board.frame(now)
        if frame != self.last_frame:
            for index, color in enumerate(frame):
                self.ring[index] = color
            self.ring.write()
            self.last_frame = frame
        self.tray.duty_u16(self.board.tray_duty)


def run(firmware, watchdog, passes=None):
    """The loop, guarded: a pass that fails is said to the Pi and the loop goes on; FAILURES in a row reset
    the board; a loop that hangs is reset by the `watchdog` (machine.WDT), fed after each pass. Returns when
    the Pi asks for MicroPython's prompt ({"t": "repl"}); `passes`: at most that many (tests)."""
    failed = 0
    while passes is None or passes > 0:
        try:
            firmware.step(time.ticks_ms())
            failed = 0
        except Exception as error:  # noqa: BLE001 - a fault of this firmware must not leave a frozen ring
            failed += 1
            if failed >= FAILURES:
                machine.reset()
            try:
                firmware.write_line(encode({"t": "error", "error": "firmware: %s: %s" % (type(error).__name__, error)}))
            except Exception:  # noqa: BLE001 - the USB link itself failed: the next pass tries again
                pass
        watchdog.feed()
        if firmware.board.repl:
            return
        time.sleep_ms(FRAME_MS)
        if passes is not None:
            passes -= 1


def at_prompt(watchdog):
    """Asked for MicroPython's prompt: Ctrl+C works again (for mpremote), and a timer feeds the watchdog,
    which cannot be stopped, for REPL_S seconds; then the board resets and starts its loop again."""
    micropython.kbd_intr(3)
    end = time.ticks_add(time.ticks_ms(), REPL_S * 1000)

    def feed(timer):
        if time.ticks_diff(end, time.ticks_ms()) > 0:
            watchdog.feed()

    timer = machine.Timer(-1)
    timer.init(period=WATCHDOG_MS // 4, mode=machine.Timer.PERIODIC, callback=feed)
    return timer


def main():
    micropython.kbd_intr(-1)  # a 0x03 byte from the Pi is data (a bad line), not Ctrl+C stopping this loop
    poller = select.poll()
    poller.register(sys.stdin, select.POLLIN)

    def read_byte():
        return sys.stdin.buffer.read(1) if poller.poll(0) else b""

    def write_line(line):
        sys.stdout.write(line + "\n")

    watchdog = machine.WDT(timeout=WATCHDOG_MS)
    firmware = Firmware(read_byte, write_line)
    write_line(firmware.board.hello())
    run(firmware, watchdog)
    return at_prompt(watchdog)
