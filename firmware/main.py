"""Run at boot by MicroPython (after boot.py): the Nova Table board's loop (board_pins.py)."""

from board_pins import main

main()
