"""From a hand on the hardware to the table, as medians: the encoder's step to the screen, a Perilium knob's turn
to the journal.

    .venv/bin/python benchmarks/hardware_latency.py [--turns 100]

encoder to screen: one detent on gpiozero's MockFactory pins (the edges the contacts make) -> the encoder's
callback posts its event -> the app's loop moves the highlight and has drawn and flipped (SDL dummy driver).
knob to journal: the simulated board (the firmware's own logic, on a pty) sends a knob turn -> pyserial's
reader thread parses it and posts it -> the loop applies it as a Threat event, written to the SQLite journal
(synchronous=FULL) before the state it makes is shown.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pygame  # noqa: E402
from gpiozero.pins.mock import MockFactory  # noqa: E402

from assistant.hardware.config import BoardConfig, HardwareConfig  # noqa: E402
from assistant.hardware.simulator import SimulatedBoard  # noqa: E402
from assistant.ui.app import App  # noqa: E402
from assistant.ui.devices import attach_board, attach_encoder  # noqa: E402
from assistant.ui.table import open_saved_game  # noqa: E402

TIMEOUT = 5.0  # seconds one turn may take before the run stops, saying so


def median_ms(samples: list[float]) -> str:
    return f"median {statistics.median(samples) * 1000:.2f} ms, p90 {sorted(samples)[int(len(samples) * 0.9)] * 1000:.2f} ms"


def until(app: App, done: Callable[[], bool]) -> None:
    """Passes of the app's loop until `done()`."""
    end = time.monotonic() + TIMEOUT
    while not done():
        if time.monotonic() > end:
            raise SystemExit("hardware_latency: a turn never arrived")
        app.pump(1)


def encoder_to_screen(app: App, factory: MockFactory, turns: int) -> list[float]:
    a, b = factory.pin(17), factory.pin(27)
    out = []
    for n in range(turns):
        first, second = (a, b) if n % 2 == 0 else (b, a)  # forth and back
        drawn = app.frames
        start = time.perf_counter()
        first.drive_low()
        second.drive_low()
        first.drive_high()
        second.drive_high()
        until(app, lambda: app.frames > drawn)
        out.append(time.perf_counter() - start)
    return out


def knob_to_journal(app: App, board: SimulatedBoard, turns: int) -> list[float]:
    out = []
    for n in range(turns):
        written = app.game.state.count
        start = time.perf_counter()
        board.turn(0, 1 if n % 2 == 0 else -1)
        until(app, lambda: app.game.state.count > written)
        out.append(time.perf_counter() - start)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=100)
    args = parser.parse_args()
    pygame.display.init()
    pygame.font.init()
    surface = pygame.display.set_mode((800, 480))
    with tempfile.TemporaryDirectory() as folder, SimulatedBoard() as board:
        app = App(open_saved_game(Path(folder) / "bench.db", None, new=True), surface, log=lambda message: None)
        app.running = True
        encoder = attach_encoder(app, HardwareConfig(), "mock")  # on the default pins, 17, 27 and 22
        factory = encoder.rotor.pin_factory  # type: ignore[attr-defined]
        attach_board(app, HardwareConfig(board=BoardConfig(port=board.path)))
        app.draw()
        print(f"encoder to screen: {median_ms(encoder_to_screen(app, factory, args.turns))} ({args.turns} detents)")
        print(f"knob to journal:   {median_ms(knob_to_journal(app, board, args.turns))} ({args.turns} turns)")
        app.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
