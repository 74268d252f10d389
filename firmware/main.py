"""Run at boot by MicroPython (after boot.py): the Nova Table board's loop (board_pins.py)."""

from board_pins import main

prompt = main()  # kept while at the prompt: after {"t": "repl"}, its timer feeds the watchdog
