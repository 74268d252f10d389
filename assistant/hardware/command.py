"""Talk to the RP2040 board: simulate one on a pty, monitor a port, or send it messages.

`simulate` runs the firmware's own logic on a pseudo-terminal and prints its path, then each line
it gets and its LED ring (type "knob HERO DELTA" to turn a Perilium knob, "press HERO" to press it, "reset" for a
soft reset). `monitor PORT` says
hello and prints every message the board sends, until the port closes (exit status 1). `send PORT JSON...` sends messages and prints
the replies.
"""

from __future__ import annotations

import argparse
import logging
import math
import select
import signal
import sys
import threading
import time
from typing import Any

from serial import SerialException, SerialTimeoutException


MAX_KNOBS = 8
MAX_SECONDS = 86400.0


def _knobs(text: str) -> int:
    """A count of knobs, 1 to MAX_KNOBS (argparse says the error)."""
    try:
        count = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number of knobs, not {text!r}") from None
    if not 1 <= count <= MAX_KNOBS:
        raise argparse.ArgumentTypeError(f"{text}: a board has 1 to {MAX_KNOBS} knobs")
    return count


def _seconds(text: str) -> float:
    """A time in seconds, 0 to MAX_SECONDS (argparse says the error)."""
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, not {text!r}") from None
    if not (math.isfinite(seconds) and 0 <= seconds <= MAX_SECONDS):
        raise argparse.ArgumentTypeError(f"{text}: expected seconds from 0 to {MAX_SECONDS:g}")
    return seconds


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="board_command", metavar="ACTION", required=True)
    simulate = sub.add_parser("simulate", help="a simulated board on a pty (prints its path)")
    simulate.add_argument("--knobs", type=_knobs, default=4, help=f"Perilium knobs, 1 to {MAX_KNOBS} (default 4)")
    simulate.add_argument("--quiet", action="store_true", help="print only the path")
    monitor = sub.add_parser("monitor", help="print what the board on PORT sends")
    monitor.add_argument("port", help="serial port or pyserial URL (/dev/ttyACM0, loop://, a pty path)")
    monitor.add_argument("--seconds", type=_seconds, default=None, help="stop after this long (default: until Ctrl+C)")
    send = sub.add_parser("send", help="send messages to the board on PORT and print the replies")
    send.add_argument("port")
    send.add_argument("messages", nargs="+", metavar="JSON")
    send.add_argument("--wait", type=_seconds, default=0.5, help="seconds to wait for replies (default 0.5)")


def _stop_on_signals() -> threading.Event:
    stop = threading.Event()
    for number in (signal.SIGINT, signal.SIGTERM):
        signal.signal(number, lambda *_: stop.set())
    return stop


def _simulate(args: argparse.Namespace) -> int:
    from assistant.hardware.simulator import SimulatedBoard, ring_text

    stop = _stop_on_signals()
    with SimulatedBoard(knobs=args.knobs) as board:
        print(board.path, flush=True)
        seen = 0
        shown = ""
        while not stop.is_set():
            if sys.stdin.closed:  # its input ended (< /dev/null, a script): wait as select did, not spin
                stop.wait(0.1)
            readable, _, _ = select.select([sys.stdin], [], [], 0.1) if not sys.stdin.closed else ([], [], [])
            if readable:
                line = sys.stdin.readline()
                if not line:
                    sys.stdin.close()
                else:
                    _simulate_input(board, line.split())
            if args.quiet:
                continue
            for line in board.received[seen:]:
                print(f"<- {line}", flush=True)
            seen = len(board.received)
            now = board.now_ms()
            ring = ring_text(board.board.frame(now - now % 2000))  # the blink's lit phase, breathing low
            if ring != shown:
                print(f"ring {ring}  tray {board.board.tray}%", flush=True)
                shown = ring
    return 0


def _simulate_input(board: Any, words: list[str]) -> None:
    if len(words) == 3 and words[0] == "knob":
        try:
            print(f"-> {board.turn(int(words[1]), int(words[2]))}", flush=True)
        except ValueError:
            print("knob HERO DELTA: two whole numbers, e.g. knob 0 +1", flush=True)
    elif len(words) == 2 and words[0] == "press":
        try:
            print(f"-> {board.press(int(words[1]))}", flush=True)
        except ValueError:
            print("press HERO: a whole number, e.g. press 0", flush=True)
    elif words == ["reset"]:
        board.restart()
        print(f"-> {board.replies[-1]}", flush=True)
    elif words:
        print(f"unknown command {' '.join(words)!r}: try knob HERO DELTA, press HERO, or reset", flush=True)


def _print_message(message: object) -> None:
    print(message, flush=True)


def _open(port: str) -> Any:
    """The link to the board on `port`, printing what it sends; None (and why, on stderr) if it cannot open."""
    from assistant.hardware.board import BoardLink

    try:
        return BoardLink.open(port, _print_message)
    except (SerialException, OSError) as error:
        print(f"nova-table: board {port}: {error}", file=sys.stderr)
        return None


def _monitor(args: argparse.Namespace) -> int:
    stop = _stop_on_signals()
    link = _open(args.port)
    if link is None:
        return 1
    try:
        link.hello()
        end = None if args.seconds is None else time.monotonic() + args.seconds
        while not stop.is_set() and link.connected and (end is None or time.monotonic() < end):
            stop.wait(0.1)
    except (SerialException, OSError) as error:
        return _lost(args.port, error)
    finally:
        closed = not link.connected
        link.close()
    if closed:  # unplugged, a board that reset its USB, a simulator that stopped
        print(f"nova-table: board {args.port}: the port closed; nothing more to monitor", file=sys.stderr)
        return 1
    return 0


def _send(args: argparse.Namespace) -> int:
    from assistant.hardware.protocol import clipped
    from assistant.reading import NotJSON, loads

    messages = []
    for index, text in enumerate(args.messages, 1):
        try:
            message = loads(text)
        except NotJSON as error:
            print(f"nova-table: message {index}: not JSON ({error}): {clipped(text, 80)}", file=sys.stderr)
            return 1
        if not isinstance(message, dict):
            print(f"nova-table: message {index}: a message is a JSON object, not {clipped(text, 80)}", file=sys.stderr)
            return 1
        messages.append(message)
    link = _open(args.port)
    if link is None:
        return 1
    try:
        for message in messages:
            link.send(message)
        time.sleep(args.wait)
    except (SerialException, OSError) as error:
        return _lost(args.port, error)
    finally:
        link.close()
    return 0


def _lost(port: str, error: Exception) -> int:
    """A board that stops reading (a write timed out) or is pulled out while written to: said, exit status 1."""
    why = "the board stopped reading (a write timed out)" if isinstance(error, SerialTimeoutException) else str(error)
    print(f"nova-table: board {port}: {why}", file=sys.stderr)
    return 1


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="nova-table: %(message)s", stream=sys.stderr)
    actions = {"simulate": _simulate, "monitor": _monitor, "send": _send}
    return actions[args.board_command](args)
