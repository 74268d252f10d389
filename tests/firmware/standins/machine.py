# mypy: ignore-errors
# (MicroPython code, run by the WebAssembly build: untyped, as the firmware is)
"""A stand-in for MicroPython's `machine` on an RP2040, for the firmware under the WebAssembly build:
pins the test drives, and a watchdog, a timer and a reset that it can see."""

log = []  # ("feed",), ("reset",), ("timer", period), in order


class Reset(Exception):
    """machine.reset(): the board starts over (here: the test's run ends)."""


def reset():
    log.append(("reset",))
    raise Reset()


class Pin:
    IN, OUT, PULL_UP, IRQ_RISING, IRQ_FALLING = 0, 1, 2, 4, 8
    pins = {}

    def __init__(self, number, mode=1, pull=None):
        self.number = number
        self.level = 1 if pull == Pin.PULL_UP else 0
        self.handler = None
        Pin.pins[number] = self

    def value(self):
        return self.level

    def irq(self, handler, trigger):
        self.handler = handler


class PWM:
    def __init__(self, pin):
        self.duty = -1

    def freq(self, hz):
        pass

    def duty_u16(self, duty):
        self.duty = duty


class WDT:
    def __init__(self, timeout=5000):
        self.timeout = timeout

    def feed(self):
        log.append(("feed",))


class Timer:
    PERIODIC = 1
    made = []

    def __init__(self, number=-1):
        Timer.made.append(self)

    def init(self, period=0, mode=0, callback=None):
        self.callback = callback
        log.append(("timer", period))
