# mypy: ignore-errors
# (MicroPython code, run by the WebAssembly build: untyped, as the firmware is)
"""A stand-in for MicroPython's `neopixel`: the frames written, and a write that fails when told to."""


class NeoPixel:
    failing = 0  # this many next writes raise OSError (a fault in the firmware's pass)

    def __init__(self, pin, count):
        self.pixels = [(0, 0, 0)] * count
        self.shown = []

    def __setitem__(self, index, color):
        self.pixels[index] = color

    def write(self):
        if NeoPixel.failing:
            NeoPixel.failing -= 1
            raise OSError(5)
        self.shown.append(list(self.pixels))
