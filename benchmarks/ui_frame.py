"""Frame time and input-to-screen latency of the table app (SDL dummy driver), as medians.

    .venv/bin/python benchmarks/ui_frame.py [--frames 200]

frame: one full redraw of the table screen (dial, panel, buttons) and the flip.
form: one redraw of the attack form with its dice.
latency: a key posted into pygame's queue -> the loop handles it, applies the event to the game
(in memory, or to the SQLite journal with synchronous=FULL) and has drawn and flipped the result.
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

from assistant.ui.app import App  # noqa: E402
from assistant.ui.form import Reading  # noqa: E402
from assistant.ui.table import MemoryGame, demo_path, load_scenario, open_saved_game  # noqa: E402


def median_ms(samples: list[float]) -> str:
    return f"{statistics.median(samples) * 1000:.2f} ms (p90 {sorted(samples)[int(len(samples) * 0.9)] * 1000:.2f})"


def timed(action: Callable[[], None], count: int) -> list[float]:
    out = []
    for _ in range(count):
        start = time.perf_counter()
        action()
        out.append(time.perf_counter() - start)
    return out


def latency(app: App, count: int) -> list[float]:
    """End then undo an activation, over and over: each a key through the real loop pass to the flip."""
    out = []
    app.running = True
    for n in range(count):
        name = "e" if n % 2 == 0 else "u"
        event = pygame.event.Event(pygame.KEYDOWN, key=pygame.key.key_code(name), mod=0, unicode=name, scancode=0)
        start = time.perf_counter()
        pygame.event.post(event)
        app.pump()
        out.append(time.perf_counter() - start)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=200)
    args = parser.parse_args()
    pygame.display.init()
    pygame.font.init()
    scenario = load_scenario(demo_path())
    print(f"pygame-ce {pygame.version.ver}, SDL {'.'.join(map(str, pygame.get_sdl_version()))}, driver dummy")
    for size in [(800, 480), (720, 1280)]:
        surface = pygame.display.set_mode(size)
        app = App(MemoryGame(scenario), surface, log=lambda message: None)
        print(f"{size[0]}x{size[1]} table frame:   {median_ms(timed(app.draw, args.frames))}")
        app.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_a, mod=0, unicode="a", scancode=0))
        assert app.form is not None
        app.form.fill_dice(Reading([8, 6, 5, 2]))
        print(f"{size[0]}x{size[1]} attack form:   {median_ms(timed(app.draw, args.frames))}")
        app.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_BACKSPACE, mod=0, unicode="", scancode=0))
        app.form = None
        app.machine.go(app, "table")
        pygame.event.clear()
        print(f"{size[0]}x{size[1]} key to screen (memory):  {median_ms(latency(app, args.frames))}")
        with tempfile.TemporaryDirectory() as folder:
            try:
                game = open_saved_game(Path(folder) / "bench.db", None, new=True)
            except ModuleNotFoundError:
                print("(no session journal in this tree: saved latency not measured)")
                continue
            saved = App(game, surface, log=lambda message: None)  # type: ignore[arg-type]
            pygame.event.clear()
            print(f"{size[0]}x{size[1]} key to screen (saved):   {median_ms(latency(saved, args.frames))}")
            saved.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
