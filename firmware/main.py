"""Nova Table board firmware (MicroPython on an RP2040): USB serial lines in, LED ring, knobs and tray light out.

All behaviour lives in board_protocol.py (pure, tested on the Pi side under CPython); this file
only connects it to the pins. Wiring: hardware/wiring.md. Copy both files to the board with
`mpremote cp firmware/board_protocol.py firmware/main.py :` and reset it.
"""

import select
import sys
import time

import machine
import neopixel

from board_protocol import LEDS, Board, Quadrature

RING_PIN = 16
TRAY_PIN = 15
TRAY_PWM_HZ = 1000
KNOB_PINS = ((2, 3), (4, 5), (6, 7), (8, 9))  # (A, B) of each hero's Perilium knob
FRAME_MS = 40

board = Board(knobs=len(KNOB_PINS))
ring = neopixel.NeoPixel(machine.Pin(RING_PIN), LEDS)
tray = machine.PWM(machine.Pin(TRAY_PIN))
tray.freq(TRAY_PWM_HZ)
tray.duty_u16(0)

steps = [0] * len(KNOB_PINS)


def _knob(index, a, b):
    decoder = Quadrature()

    def changed(pin):
        step = decoder.feed(a.value(), b.value())
        if step:
            steps[index] += step

    return changed


for number, (pin_a, pin_b) in enumerate(KNOB_PINS):
    a = machine.Pin(pin_a, machine.Pin.IN, machine.Pin.PULL_UP)
    b = machine.Pin(pin_b, machine.Pin.IN, machine.Pin.PULL_UP)
    handler = _knob(number, a, b)
    a.irq(handler, machine.Pin.IRQ_RISING | machine.Pin.IRQ_FALLING)
    b.irq(handler, machine.Pin.IRQ_RISING | machine.Pin.IRQ_FALLING)

poller = select.poll()
poller.register(sys.stdin, select.POLLIN)


def send(line):
    sys.stdout.write(line + "\n")


def main():
    pending = b""
    last_frame = None
    send(board.hello())
    while True:
        now = time.ticks_ms()
        while poller.poll(0):
            byte = sys.stdin.buffer.read(1)
            if not byte:
                break
            if byte == b"\n":
                if pending.strip():
                    for reply in board.receive(pending, now):
                        send(reply)
                pending = b""
            elif len(pending) <= 1024:
                pending += byte
            # a longer line keeps growing nowhere; receive() reports it as too long at its end
        for index in range(len(steps)):
            delta = steps[index]
            if delta:
                steps[index] -= delta
                send(board.knob_turned(index, delta, now))
        frame = board.frame(now)
        if frame != last_frame:
            for index, color in enumerate(frame):
                ring[index] = color
            ring.write()
            last_frame = frame
        tray.duty_u16(board.tray_duty)
        time.sleep_ms(FRAME_MS)


main()
