"""Attach the hardware to a running app: the encoder and the board post pygame events, the board mirrors the game.

Each device is optional: one that cannot start is reported on stderr and the table goes on
with the others (keyboard and touch always work).
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from assistant.hardware.config import HardwareConfig
from assistant.rules.edition import Edition
from assistant.ui.app import App
from assistant.ui.form import Reading
from assistant.ui.inputs import post_board_message, post_dice, post_encoder, post_knob, post_notice, post_press


class Host(Protocol):
    """What a device is attached to: the app, or the notice shown before it (`assistant.ui.notice`)."""

    closers: list[Callable[[], None]]

    def log(self, message: str) -> None: ...


def attach_encoder(app: Host, config: HardwareConfig, factory_name: str | None = None) -> object | None:
    """The encoder on its pins (if enabled, or "auto" on a machine with GPIO); None if not used."""
    from assistant.hardware.pins import has_gpio, pin_factory

    settings = config.encoder
    if settings.enabled is False or (settings.enabled == "auto" and not has_gpio() and factory_name != "mock"):
        return None
    from assistant.hardware.encoder import Encoder

    try:
        encoder = Encoder(
            settings.a, settings.b, settings.button,
            on_turn=lambda step: post_encoder("turn", step),
            on_confirm=lambda: post_encoder("confirm"),
            on_back=lambda: post_encoder("back"),
            hold_time=settings.hold_time, bounce_time=settings.bounce_time,
            pin_factory=pin_factory(factory_name or settings.pin_factory),
        )  # fmt: skip
    except Exception as error:  # no permission on /dev/gpiochip*, pins busy, no GPIO library
        app.log(f"encoder on GPIO {settings.a}/{settings.b}/{settings.button} not used: {error}")
        return None
    app.closers.append(encoder.close)
    app.log(f"encoder on GPIO {settings.a}/{settings.b}, switch on GPIO {settings.button}")
    return encoder


def board_ports() -> list[str]:
    """USB serial ports a board may be on: those with a Pico's USB id (`assistant.hardware.ports`)."""
    from assistant.hardware.ports import board_ports as by_usb_id

    return by_usb_id()


BY_ID = Path("/dev/serial/by-id")  # udev's names for USB serial ports, by the device's own serial number


def lasting_name(port: str) -> str:
    """The name `port`'s board keeps when it is plugged in again: its link in /dev/serial/by-id (udev
    points it at whichever /dev/ttyACM* the board gets), or `port` itself where there is none."""
    try:
        device = os.path.realpath(port)
        return next((str(link) for link in sorted(BY_ID.iterdir()) if os.path.realpath(link) == device), port)
    except OSError:  # no udev names here (not Linux, no USB serial device)
        return port


def attach_board(app: App, config: HardwareConfig, port: str | None = None,
                 wait_hello: float = 1.5) -> object | None:  # fmt: skip
    """The board on `port` (or the configured one; "auto" tries the ports with a Pico's USB id); None if none."""
    from serial import SerialException

    from assistant.hardware.board import BoardLink
    from assistant.hardware.protocol import PROTOCOL, BoardError, Hello, Knob, Press

    wanted = port or config.board.port
    if wanted == "none":
        return None
    ports = board_ports() if wanted == "auto" else [wanted]
    levels = (config.board.tray_idle, config.board.tray_dice)
    for candidate in ports:
        hello: list[Hello] = []

        def received(message: object, hello: list[Hello] = hello) -> None:
            if isinstance(message, Knob):
                post_knob(message.hero, message.delta)
            elif isinstance(message, Press):
                post_press(message.hero)
            elif isinstance(message, Hello):
                hello.append(message)
            elif isinstance(message, BoardError):
                post_board_message(f"the board could not read a line: {message.error}")

        try:
            link = BoardLink.open(candidate, received, tray_levels=levels)
        except (SerialException, OSError) as error:
            app.log(f"board on {candidate} not used: {error}")
            continue
        try:
            link.hello()
            _wait(lambda: bool(hello), wait_hello)
            if not hello and wanted == "auto":
                link.close()
                app.log(f"{candidate} did not answer as a Nova Table board: not used")
                continue
            if hello and hello[0].protocol != PROTOCOL:
                link.close()
                app.log(f"board on {candidate} not used: its firmware speaks protocol {hello[0].protocol}, this "
                        f"Nova Table speaks {PROTOCOL}: copy this version's firmware/ to it (docs/pi-setup.md)")  # fmt: skip
                continue
            link.show(app.game.state)
            link.tray(False)
        except (SerialException, OSError) as error:  # pulled out while it was being greeted
            link.close()
            app.log(f"board on {candidate} not used: {error}")
            continue
        app.mirrors.append(link)
        app.log(f"board on {candidate}" + (f" ({hello[0].board}, {hello[0].knobs} knobs)" if hello else " (no hello yet)"))
        again = lasting_name(candidate)
        keep_board(app, link, lambda: BoardLink.open(again, received, tray_levels=levels))
        return link
    return None


AGAIN_SECONDS = 5.0  # how often a board or camera lost mid-game (unplugged) is looked for again
HELLO_SECONDS = 1.5  # how long a board found again has to say hello


def keep_board(app: App, link: Any, reopen: Callable[[], Any]) -> threading.Thread:
    """Look for the board again (`reopen`, by its `lasting_name`) every AGAIN_SECONDS once its link has
    lost it (a USB cable bumped out, or a firmware that stopped: no heartbeat for SILENT_SECONDS), and, once it
    says hello again, put it back in the app's mirrors, the game shown on it: its knobs
    and lights come back without a restart. The players are told both. The lost port is closed at once:
    a /dev/ttyACM* still held open is not given back, and the board plugged in again would get another."""
    from serial import SerialException

    from assistant.hardware.board import SILENT_SECONDS

    current = [link]
    stop = threading.Event()

    def run() -> None:
        lost = False
        while not stop.wait(AGAIN_SECONDS):
            if current[0].alive:
                continue
            if current[0].connected and not lost:  # no heartbeat: its firmware stopped (a traceback, a hang)
                post_board_message(f"board on {current[0].port.port} silent for {SILENT_SECONDS:g} s: its firmware stopped?")
            current[0].close()  # (again, if it was: closing a closed link does nothing)
            if not lost:
                post_board_message(f"board on {current[0].port.port} lost: looking for it every {AGAIN_SECONDS:g} s")
                post_notice("Board lost (unplugged?): set Threat on the screen.")
                lost = True
            try:
                again = reopen()
            except (SerialException, OSError):
                continue
            try:
                greeted = again.greet(HELLO_SECONDS)
            except OSError:
                greeted = False
            if not greeted:  # there, but not (yet) running its firmware: looked for again
                again.close()
                continue
            try:  # shown the game before the main loop writes to it (a hung board must not hold the loop)
                again.show(app.game.state)
                again.tray(app.form is not None)
            except OSError:  # pulled out again at once, or still not reading: looked for again
                again.close()
                continue
            app.mirrors[app.mirrors.index(current[0])] = again
            current[0] = again
            again.show(app.game.state)  # what changed meanwhile, if anything
            post_notice("Board back: knobs and lights on.")
            lost = False

    thread = threading.Thread(target=run, name="board-keeper", daemon=True)

    def close() -> None:
        stop.set()
        thread.join(AGAIN_SECONDS)
        current[0].close()

    thread.start()
    app.closers.append(close)
    return thread


def _wait(done: Callable[[], bool], seconds: float) -> None:
    end = time.monotonic() + seconds
    while not done() and time.monotonic() < end:
        time.sleep(0.02)


CAMERA_STOP_SECONDS = 5.0  # how long closing waits for the camera's thread to finish its frame


@dataclass(frozen=True)
class TableCamera:
    """The camera as `attach_camera` attached it: what it reads, and `stop` (the calibration screen opens the camera
    for itself, then attaches it again)."""

    source: str
    tray: bool
    kind: str
    profile: Path | None
    stop: Callable[[], None]


def dice_of(edition: Edition) -> str:
    """The dice a game rolls, as the camera's reader names them: a Renaissance game only its d8 with
    astro symbols ("d8"; Renaissance rulebook, Components: 8 Dice, and Astro Symbols), a first-edition
    game d6 and d8 ("auto"; first-edition rulebook, Components: 5 six-sided and 5 eight-sided dice)."""
    return "d8" if edition is Edition.RENAISSANCE else "auto"


def unchanged(dice: list[dict[str, Any]], posted: list[dict[str, Any]]) -> list[int | None]:
    """Per die of a reading, the place in the reading posted last of the die that lay there, read the same
    (kind and value); None for a die rolled, turned or new."""
    from assistant.vision.matching import match

    same: list[int | None] = [None] * len(dice)
    for i, j in match([d["box"] for d in posted], [d["box"] for d in dice]).items():
        if (posted[i].get("kind"), posted[i].get("value")) == (dice[j].get("kind"), dice[j].get("value")):
            same[j] = i
    return same


def attach_camera(app: App, source: str, *, tray: bool = False, kind: str = "auto", profile: Path | None = None,
                  max_frames: int = 0) -> threading.Thread:
    """Read the dice tray with `assistant.vision` on a thread of its own; each settled reading is posted as dice.
    `profile`: the table's own dice (`nova-table dice learn`), as `nova-table dice watch --profile`.

    The readings reach the open form (an attack, a defence roll) like typed dice, and stay correctable
    by hand. A reading of the dice already posted, all where they lay and read the same (the tray at rest
    again with no die rolled: a hand held over it, hiding some; the table bumped), is not posted: it would
    drop the hidden dice from the form. Any other reading tells which dice are unchanged (`unchanged`), so
    that a die the table set by hand keeps its value while another die is read anew.
    A camera that fails is said on the screen (why, in the journal) and the table goes on without it; one
    lost mid-game (a USB cable bumped out) is looked for again every AGAIN_SECONDS, and said when
    it reads again. The rendered stand-in (`render`) throws the dice the open form's roll takes, as the players would (`App.rolling`).
    """
    from assistant.vision.errors import CameraLost
    from assistant.vision.network import onnxruntime
    from assistant.vision.watch import watch

    posted: list[dict[str, Any]] = []  # the dice of the reading posted last
    lost = threading.Event()  # the camera was lost mid-game, and has not read since

    def emit(reading: dict[str, Any]) -> None:
        if lost.is_set():
            post_notice("Camera back: reading the dice again.")
            lost.clear()
        # a die the reader could not read comes as None: the form shows "?" there until a tap sets it,
        # and says why where the reader knows (it is partly out of view)
        dice = reading.get("dice", [])
        same = unchanged(dice, posted)
        if None not in same:  # no die, or every die as posted
            return
        values = [d["value"] if isinstance(d.get("value"), int) else None for d in dice]
        why = [d.get("why") if value is None and isinstance(d.get("why"), str) else None for d, value in zip(dice, values)]
        post_dice(Reading(values, "camera", why, [d.get("kind") for d in dice], same))
        posted[:] = dice

    stop = threading.Event()

    def run() -> None:
        spec = source  # once a camera is lost, that camera (`auto` would open the rendered stand-in instead)
        while True:
            try:
                watch(spec, tray=tray, kind=kind, profile_path=profile, max_frames=max_frames, emit=emit,
                      stop=stop, rolling=app.rolling)
                if not stop.is_set() and not max_frames:  # a video or a folder of pictures that ran out
                    post_board_message(f"camera {source}: no more frames, nothing more is read from it")
                    post_notice("Camera stopped: set the dice by hand.")
                return
            except CameraLost as error:
                spec = error.source
                if not lost.is_set():
                    post_board_message(f"{error}: looking for it every {AGAIN_SECONDS:g} s")
                    post_notice("Camera lost (unplugged?): set the dice by hand.")
                    lost.set()
            except Exception as error:  # no camera, a bad source name: the table plays on with typed dice
                if not lost.is_set():  # (while a lost camera is looked for again, it cannot be opened: said already)
                    post_board_message(f"camera {source} stopped: {type(error).__name__}: {error}")
                    post_notice("Camera stopped: set the dice by hand.")
                    return
            if stop.wait(AGAIN_SECONDS):
                return

    thread = threading.Thread(target=run, name="dice-camera", daemon=True)

    def close() -> None:  # the camera's thread ends before the app does: OpenCV is not left mid-read at exit
        stop.set()
        thread.join(CAMERA_STOP_SECONDS)

    thread.start()
    app.closers.append(close)
    app.camera = TableCamera(source, tray, kind, profile, close)
    slower = "" if onnxruntime() is not None else \
        " (onnxruntime is not installed: OpenCV runs the dice reader's networks, about 2 times slower)"
    app.log(f"reading {'dice' if kind == 'auto' else kind} from {source}{slower}")
    return thread
