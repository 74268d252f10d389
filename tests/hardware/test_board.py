"""The board link over pyserial's loop:// and over a real pty with the simulated board (the firmware's logic)."""

from __future__ import annotations

import errno
import itertools
import json
import logging
import os
import select
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, cast

import pytest
import serial
from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.hardware.board import BoardLink
from assistant.hardware.protocol import BoardError, BoardMessage, Hello, Knob, ring_message
from assistant.logs import BURST, Repeats
from assistant.hardware.simulator import SimulatedBoard
from assistant.rules import game as rules
from tests.ui.demo import demo_scenario


class Inbox:
    """The messages a link delivered, with a wait."""

    def __init__(self) -> None:
        self.messages: list[BoardMessage] = []
        self._changed = threading.Condition()

    def __call__(self, message: BoardMessage) -> None:
        with self._changed:
            self.messages.append(message)
            self._changed.notify_all()

    def wait(self, done: Callable[[list[BoardMessage]], bool], timeout: float = 5.0) -> bool:
        with self._changed:
            return self._changed.wait_for(lambda: done(self.messages), timeout)


@pytest.fixture
def loop() -> Iterator[tuple[BoardLink, Inbox]]:
    inbox = Inbox()
    link = BoardLink.open("loop://", inbox)
    yield link, inbox
    link.close()


def test_knob_lines_are_read_even_when_split_across_reads(loop: tuple[BoardLink, Inbox]) -> None:
    link, inbox = loop
    link.port.write(b'{"t":"knob","hero":1,')
    time.sleep(0.05)  # the reader sees the first half alone
    link.port.write(b'"delta":2}\n{"t":"knob","hero":0,"delta":-1}\n')
    assert inbox.wait(lambda m: len(m) == 2)
    assert inbox.messages == [Knob(1, 2), Knob(0, -1)]


@pytest.mark.parametrize(
    ("garbage", "why"),
    [
        (b'{"t":"knob","hero":\n', "not JSON"),
        (b"\xff\xfe\x00garbage\n", "not UTF-8"),
        (b"[1, 2, 3]\n", "not a JSON object"),
        (b'{"t":"knob","hero":"one","delta":1}\n', "'hero' must be a whole number"),
        (b'{"t":"dance"}\n', "unknown message type"),
        (b"\n", "empty line"),
        (b"x" * 5000 + b"\n", "line too long"),
        (b'{"t":"knob","hero":0,"delta":99999999999999999999999999}\n', "'delta' must be from -100 to 100"),
        (b'{"t":"knob","hero":0,"delta":101}\n', "'delta' must be from -100 to 100, not 101"),
        (b"[" * 1020 + b"\n", "not JSON (nested too deeply)"),
    ],
)
def test_a_bad_line_is_logged_with_what_is_wrong_and_skipped(loop: tuple[BoardLink, Inbox], garbage: bytes, why: str,
                                                             caplog: pytest.LogCaptureFixture) -> None:  # fmt: skip
    link, inbox = loop
    with caplog.at_level(logging.WARNING, logger="nova_table.board"):
        for start in range(0, len(garbage), 1024):  # loop:// times its 115200 baud: a line a write timeout allows
            link.port.write(garbage[start : start + 1024])
        link.port.write(b'{"t":"knob","hero":3,"delta":1}\n')
        assert inbox.wait(lambda m: bool(m))
    assert inbox.messages == [Knob(3, 1)]  # the good line after it still arrives
    assert link.bad == 1
    assert any(why in record.getMessage() for record in caplog.records), [r.getMessage() for r in caplog.records]


def test_a_number_longer_than_python_reads_is_a_bad_line(loop: tuple[BoardLink, Inbox],
                                                         caplog: pytest.LogCaptureFixture) -> None:  # fmt: skip
    """Python reads no integer of more than sys.get_int_max_str_digits() digits (4300): at its least, 640,
    such a number fits in one line of the protocol. The line is skipped; the reader goes on."""
    link, inbox = loop
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(640)
    try:
        with caplog.at_level(logging.WARNING, logger="nova_table.board"):
            link.port.write(b'{"t":"knob","hero":0,"delta":1' + b"0" * 700 + b"}\n")
            link.port.write(b'{"t":"knob","hero":3,"delta":1}\n')
            assert inbox.wait(lambda m: bool(m))
    finally:
        sys.set_int_max_str_digits(limit)
    assert inbox.messages == [Knob(3, 1)]
    assert link.bad == 1
    assert any("not JSON (a number of more than 640 digits)" in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize("url", ["bogus://x", "usb://ttyACM0", "loop://?speed=fast", "/dev/tty\x00"])
def test_a_name_that_is_neither_a_port_nor_a_url_is_a_port_that_cannot_open(url: str) -> None:
    """pyserial says ValueError (or KeyError, for a loop:// option) where it says SerialException for a port
    that is not there; the link says SerialException (an OSError) for both, which the table and `board` catch."""
    with pytest.raises(serial.SerialException, match=r"not a serial port or pyserial URL .*: give a device such as"):
        BoardLink.open(url)
    assert issubclass(serial.SerialException, OSError)


def test_the_simulated_board_on_a_pty_answers_mirrors_and_turns_knobs(caplog: pytest.LogCaptureFixture) -> None:
    state = rules.new_game(demo_scenario())
    inbox = Inbox()
    with SimulatedBoard(knobs=4) as board:
        link = BoardLink.open(board.path, inbox)
        try:
            link.hello()
            assert inbox.wait(lambda m: any(isinstance(x, Hello) for x in m))
            assert Hello("nova-board", 3, 24, 4) in inbox.messages
            link.show(state)
            link.tray(True)
            assert board.wait_for(4)  # hello, ring, perilium, tray
            fw = board.board
            assert (fw.minute, fw.hour, fw.tray) == (state.clock.minute, state.clock.hour, 100)
            assert sorted(fw.tokens) == sorted(tuple(t) for t in ring_message(state)["tokens"])
            assert fw.errors == 0
            # the minute hand's two LEDs are white (at time 0, the blink is on)
            frame = fw.frame(0)
            first, second = board.firmware.sector_leds(state.clock.minute)
            white = board.firmware._scale(board.firmware.WHITE, fw.brightness)
            assert frame[first] == frame[second] == white
            assert sum(1 for color in frame if color != (0, 0, 0)) > 4
            # the same state again sends nothing new
            link.show(state)
            time.sleep(0.1)
            assert len(board.received) == 4
            # a knob turn on the board arrives at the Pi
            board.turn(2, -1)
            assert inbox.wait(lambda m: Knob(2, -1) in m)
            # garbage from the board is skipped and the link goes on
            with caplog.at_level(logging.WARNING, logger="nova_table.board"):
                board.send_raw(b"\x00\x01 half a line")
                board.send_raw(b'\n{"t":"knob","hero":0,"delta":5}\n')
                assert inbox.wait(lambda m: Knob(0, 5) in m)
            assert link.bad == 1
            # a line the board cannot read is answered with an error message
            link.send({"t": "ring", "minute": 13})
            assert inbox.wait(lambda m: any(isinstance(x, BoardError) for x in m))
            error = next(x for x in inbox.messages if isinstance(x, BoardError))
            assert "'minute' must be a whole number from 1 to 12" in error.error
        finally:
            link.close()


@pytest.fixture
def surface() -> Any:
    """A real display surface (SDL's dummy driver) for an app that mirrors to a board."""
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ["SDL_AUDIODRIVER"] = "dummy"
    import pygame

    pygame.display.init()
    pygame.font.init()
    pygame.event.clear()
    return pygame.display.set_mode((800, 480))


def test_knobs_become_threat_events_in_the_app(surface: Any) -> None:
    from assistant.ui.app import App
    from assistant.ui.inputs import post_knob
    from assistant.ui.table import MemoryGame

    with SimulatedBoard(knobs=4) as board:
        link = BoardLink.open(board.path, lambda m: post_knob(m.hero, m.delta) if isinstance(m, Knob) else None)
        app = App(MemoryGame(demo_scenario()), surface, mirrors=[link], log=lambda message: None)
        app.closers.append(link.close)
        assert board.wait_for(2)  # the app mirrored its first state
        board.turn(1, 1)
        board.turn(1, 1)
        board.turn(3, 2)
        time.sleep(0.2)
        app.running = True
        app.pump(500)
        heroes = app.game.state.heroes
        assert (heroes[1].threat, heroes[3].threat) == (2, 2)
        assert app.game.state.count == 2  # one Threat event per hero for the turns of one loop pass
        assert board.wait_for(3)  # and the new Perilium values went back to the board
        time.sleep(0.1)
        assert board.board.perilium[:4] == [h.threat for h in heroes]
        app.close()


lines = st.one_of(
    st.builds(lambda h, d: ("good", f'{{"t":"knob","hero":{h},"delta":{d}}}'.encode()), st.integers(0, 5), st.integers(-9, 9)),
    st.builds(lambda junk: ("bad", junk), st.binary(min_size=1, max_size=40).filter(lambda b: b"\n" not in b).filter(
        lambda b: _is_bad(b))),
)


def _is_bad(raw: bytes) -> bool:
    from assistant.hardware.protocol import LineError, parse_line

    try:
        parse_line(raw)
    except LineError:
        return True
    return False


@settings(max_examples=40, deadline=None)
@given(st.lists(lines, min_size=1, max_size=12), st.lists(st.integers(1, 30), min_size=1, max_size=10))
def test_any_mix_of_lines_in_any_chunks_gives_the_good_ones_in_order(
    mixed: list[tuple[str, bytes]], cuts: list[int]
) -> None:
    inbox = Inbox()
    link = BoardLink.open("loop://", inbox)
    try:
        stream = b"".join(raw + b"\n" for _, raw in mixed)
        at = 0
        for cut in itertools.cycle(cuts):  # the bytes arrive in pieces of any size
            if at >= len(stream):
                break
            link.port.write(stream[at : at + cut])
            at += cut
        good = [raw for kind, raw in mixed if kind == "good"]
        bad = sum(1 for kind, _ in mixed if kind == "bad")
        assert inbox.wait(lambda m: len(m) >= len(good))
        deadline = time.monotonic() + 5
        while link.bad < bad and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(0.01)  # nothing more arrives
        assert [json.dumps({"t": "knob", "hero": m.hero, "delta": m.delta}, separators=(",", ":")).encode()
                for m in cast(list[Knob], inbox.messages)] == good  # fmt: skip  (only knob lines parse)
        assert link.bad == bad
    finally:
        link.close()


def test_a_board_on_a_url_pyserial_does_not_know_is_not_used_and_the_table_goes_on(surface: Any) -> None:
    """A hardware file's `port = "usb://ttyACM0"`: the board is said not used, as for a port that is not there."""
    from assistant.hardware.config import BoardConfig, HardwareConfig
    from assistant.ui import devices
    from assistant.ui.app import App
    from assistant.ui.table import MemoryGame

    said: list[str] = []
    app = App(MemoryGame(demo_scenario()), surface, log=said.append)
    assert devices.attach_board(app, HardwareConfig(board=BoardConfig(port="usb://ttyACM0"))) is None
    assert app.mirrors == []
    assert said == ["board on usb://ttyACM0 not used: not a serial port or pyserial URL (invalid URL, protocol 'usb' "
                    "not known): give a device such as /dev/ttyACM0, a pty's path or loop://"]  # fmt: skip
    assert app.act({"type": "end_activation"})  # and the table plays on
    app.close()


def test_a_board_pulled_out_mid_game_does_not_stop_the_table(surface: Any) -> None:
    """Neither mirroring the game to the pulled board nor lighting its dice tray (a form opening) stops the table."""
    import pygame

    from assistant.ui.app import App
    from assistant.ui.table import MemoryGame
    from tests.ui.conftest import key

    said: list[str] = []
    board = SimulatedBoard().start()
    link = BoardLink.open(board.path)
    app = App(MemoryGame(demo_scenario()), surface, mirrors=[link], log=said.append)
    board.close()  # the USB cable is pulled
    link.close()  # and the port with it
    assert not link.connected  # the link knows: the board keeper looks for it again; nothing is sent to it
    assert app.act({"type": "end_activation"})
    assert app.game.state.count == 1 and said == []
    link.connected = True  # the same, before the link's reader has seen the loss: the write fails, and is said
    assert app.act({"type": "end_activation"})
    assert app.game.state.count == 2
    assert any("cannot update" in words for words in said)
    said.clear()
    app.running = True
    pygame.event.clear()
    pygame.event.post(key("a"))  # an attack's form opens, and would light the tray
    app.pump()
    assert app.form is not None and any("cannot update" in words for words in said)


def test_a_board_pulled_out_and_plugged_back_comes_back_with_its_knobs_and_lights(
        surface: Any, tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The board is found on /dev/ttyACM0 (here a link to a pty) and pulled out: its port is closed at
    once (a port held open is not given back), and the players are told. Plugged back, the kernel may
    name it /dev/ttyACM1; udev points its /dev/serial/by-id name at that, and there it is found: the
    players are told it is back, the game is shown on it and its knobs turn Threat again."""
    from pathlib import Path

    import pygame

    from assistant.hardware.config import HardwareConfig
    from assistant.ui import devices
    from assistant.ui.app import App
    from assistant.ui.table import MemoryGame

    monkeypatch.setattr(devices, "AGAIN_SECONDS", 0.1)
    said: list[str] = []
    monkeypatch.setattr(devices, "post_notice", said.append)
    by_id = Path(tmp_path) / "by-id"
    by_id.mkdir()
    monkeypatch.setattr(devices, "BY_ID", by_id)
    first = SimulatedBoard().start()
    kernel = Path(tmp_path) / "ttyACM0"
    kernel.symlink_to(first.path)
    lasting = by_id / "usb-MicroPython_Board_in_FS_mode_e6614c311b7e6f35-if00"
    lasting.symlink_to(first.path)
    (by_id / "usb-Other_Device_0001-if00").symlink_to(os.devnull)
    app = App(MemoryGame(demo_scenario()), surface, log=lambda message: None)
    link = cast(BoardLink, devices.attach_board(app, HardwareConfig(), str(kernel)))
    assert link.port.is_open
    first.close()  # the USB cable is pulled: its /dev/ttyACM0 goes, and udev's name for it
    kernel.unlink()
    lasting.unlink()  # (a pty of the same number, another program's, is not taken for the board)
    deadline = time.monotonic() + 10
    while not said and time.monotonic() < deadline:
        time.sleep(0.05)
    assert said == ["Board lost (unplugged?): set Threat on the screen."]
    assert not link.port.is_open  # freed, so that the kernel can give the board its name back
    time.sleep(0.3)
    assert len(said) == 1  # looked for again, quietly
    second = SimulatedBoard().start()
    lasting.symlink_to(second.path)  # plugged back in, as /dev/ttyACM1: udev points the board's name there
    (Path(tmp_path) / "ttyACM1").symlink_to(second.path)
    while len(said) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert said[1] == "Board back: knobs and lights on."
    assert second.wait_for(2)  # the game's ring and Perilium shown on it
    pygame.event.clear()
    second.turn(2, 1)
    time.sleep(0.2)
    app.running = True
    app.pump(300)
    assert app.game.state.heroes[2].threat == 1
    app.close()
    second.close()


def test_a_port_is_known_again_by_its_usb_name(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The name a board is looked for by once lost: its /dev/serial/by-id link where udev made one,
    else the port it was found on."""
    from pathlib import Path

    from assistant.ui import devices

    by_id = Path(tmp_path) / "by-id"
    monkeypatch.setattr(devices, "BY_ID", by_id)
    board, other = Path(tmp_path) / "ttyACM0", Path(tmp_path) / "ttyACM1"
    board.touch()
    other.touch()
    assert devices.lasting_name(str(board)) == str(board)  # no udev names on this machine
    by_id.mkdir()
    assert devices.lasting_name(str(board)) == str(board)  # none for any port
    (by_id / "usb-Other-if00").symlink_to(other)
    assert devices.lasting_name(str(board)) == str(board)  # only another device's
    (by_id / "usb-MicroPython_Board-if00").symlink_to(Path("..") / "ttyACM0")  # as udev links: relative
    assert devices.lasting_name(str(board)) == str(by_id / "usb-MicroPython_Board-if00")
    assert devices.lasting_name(str(other)) == str(by_id / "usb-Other-if00")


def test_a_board_pulled_out_while_it_is_greeted_is_not_used_and_the_table_goes_on(
        surface: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The cable pulled between the port's opening and the hello: the write fails, the board is said not
    used, and `play` starts as without it (it crashed on the failed write before)."""
    from assistant.hardware.config import BoardConfig, HardwareConfig
    from assistant.ui import devices
    from assistant.ui.app import App
    from assistant.ui.table import MemoryGame

    board = SimulatedBoard().start()
    greet = BoardLink.hello

    def pulled_then_greeted(link: BoardLink) -> None:
        board.close()  # the pty's other end goes, as a board's USB does
        greet(link)

    monkeypatch.setattr(BoardLink, "hello", pulled_then_greeted)
    said: list[str] = []
    app = App(MemoryGame(demo_scenario()), surface, log=said.append)
    assert devices.attach_board(app, HardwareConfig(board=BoardConfig(port=board.path))) is None
    assert app.mirrors == []
    assert len(said) == 1 and said[0].startswith(f"board on {board.path} not used: ")
    assert app.act({"type": "end_activation"})
    app.close()


def test_a_port_lost_as_it_opens_is_a_serial_exception_that_the_board_keeper_catches(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """pyserial's reader says RuntimeError('already stopped') where the port died before `connect`
    returned (a flapping USB plug); the link says SerialException, as for any port that cannot be opened."""
    from serial.threaded import ReaderThread

    def stopped(thread: ReaderThread) -> None:
        raise RuntimeError("already stopped")

    monkeypatch.setattr(ReaderThread, "connect", stopped)
    with pytest.raises(serial.SerialException, match=r"^loop://: lost as soon as it was opened \(already stopped\)$"):
        BoardLink.open("loop://")


def test_a_knob_spun_past_the_perilium_ends_sets_it_to_its_end_not_a_refusal(surface: Any) -> None:
    """Turns of one loop pass are summed per hero; a sum beyond the Threat event's 99 (the board's own
    Perilium has already moved) is applied as 99, not refused, so the board and the Pi agree."""
    import pygame

    from assistant.ui.app import App
    from assistant.ui.inputs import post_knob
    from assistant.ui.table import MemoryGame

    app = App(MemoryGame(demo_scenario()), surface, log=lambda message: None)
    pygame.event.clear()
    for _ in range(3):
        post_knob(0, 40)
    post_knob(1, -100)
    app.running = True
    app.pump()
    heroes = app.game.state.heroes
    assert heroes[0].threat == 99 and heroes[1].threat == 0
    assert not app.error
    app.close()


def test_a_port_another_nova_table_holds_is_refused_as_busy() -> None:
    """Two programs on one board would each get some of its lines (knob steps lost to the other): the
    port is locked for the link (pyserial's `exclusive`), and a second link is refused, saying so."""
    board = SimulatedBoard().start()
    first = BoardLink.open(board.path)
    try:
        with pytest.raises(serial.SerialException, match=r"^in use by another program \(is nova-table play running\?\)$"):
            BoardLink.open(board.path)
    finally:
        first.close()
        board.close()


@pytest.mark.parametrize(("number", "words"), [
    (errno.EACCES, "not allowed to open it: add this user to the dialout group (sudo usermod -aG dialout $USER), then log in again"),
    (errno.EBUSY, "in use by another program (is nova-table play running?)"),
    (None, "read failed: something else"),  # pyserial's own words where there are none better
])  # fmt: skip
def test_why_a_port_did_not_open_is_said_in_a_maker_s_words(number: int | None, words: str) -> None:
    """pyserial says "[Errno 13] could not open port /dev/ttyACM0: [Errno 13] Permission denied: ..."; the
    maker needs the cure (this machine runs as root, so the refusals it cannot cause are made here)."""
    from assistant.hardware.board import unopened

    error = serial.SerialException(number, "read failed: something else") if number else serial.SerialException(
        "read failed: something else")
    assert unopened(error) == words


def test_a_board_that_starts_over_is_shown_the_game_again() -> None:
    """A soft reset (a crash, MicroPython's Ctrl+D) keeps the USB link, so the link is not lost; the board
    starts over with its ring dark and says hello: it is sent the ring, the Perilium and the tray light again."""
    state = rules.new_game(demo_scenario())
    with SimulatedBoard() as board:
        link = BoardLink.open(board.path)
        try:
            link.show(state)
            link.tray(True)
            assert board.wait_for(3)
            fresh = board.firmware.Board(knobs=4)
            assert (fresh.minute, fresh.tray) != (state.clock.minute, 100)  # a board that starts over shows nothing
            board.restart()
            assert board.wait_for(6)
            assert [json.loads(line)["t"] for line in board.received[3:]] == ["ring", "perilium", "tray"]
            fw = board.board
            assert (fw.minute, fw.hour, fw.tray) == (state.clock.minute, state.clock.hour, 100)
            assert sorted(fw.tokens) == sorted(tuple(t) for t in ring_message(state)["tokens"])
            assert fw.perilium[: len(state.heroes)] == [hero.threat for hero in state.heroes]
            assert link.connected and fw.errors == 0
        finally:
            link.close()


def test_a_board_whose_firmware_speaks_another_protocol_is_not_used(surface: Any) -> None:
    """Its lines would be misread both ways: the table goes on without it and says what to do."""
    from assistant.hardware.config import BoardConfig, HardwareConfig
    from assistant.hardware.simulator import load_firmware
    from assistant.ui import devices
    from assistant.ui.app import App
    from assistant.ui.table import MemoryGame

    older = load_firmware()
    setattr(older, "PROTOCOL", 2)  # (a module attribute mypy cannot see): the firmware before the knobs' presses
    said: list[str] = []
    with SimulatedBoard(firmware=older) as board:
        app = App(MemoryGame(demo_scenario()), surface, log=said.append)
        assert devices.attach_board(app, HardwareConfig(board=BoardConfig(port=board.path))) is None
        assert app.mirrors == []
        assert said == [f"board on {board.path} not used: its firmware speaks protocol 2, this Nova Table speaks 3: "
                        "copy this version's firmware/ to it (docs/pi-setup.md)"]  # fmt: skip
        app.close()


def test_a_board_that_stops_reading_holds_the_table_once_and_is_then_lost(surface: Any) -> None:
    """A hung board reads nothing and the port's buffer fills: a write waits WRITE_SECONDS, fails, and the
    link is lost (the board keeper closes it and looks for it again); the actions after it send nothing.
    (Each one waited out a whole second's write timeout before.)"""
    import tty

    from assistant.hardware import board as board_module
    from assistant.ui.app import App
    from assistant.ui.table import MemoryGame

    master, slave = os.openpty()
    tty.setraw(slave)  # nobody ever reads `master`: the board that stopped reading
    tty.setraw(master)  # (not a line discipline that throws away a line too long, which would drain the buffer)
    link = BoardLink.open(os.ttyname(slave))
    try:
        os.set_blocking(slave, False)
        full = False
        while not full:  # the tty's buffers fill up, until a write finds no room even after the kernel's moves
            try:
                while True:
                    os.write(slave, b"x" * 1024)
            except BlockingIOError:
                time.sleep(0.05)
                full = not select.select([], [slave], [], 0)[1]
        writes: list[bytes] = []
        write = link._thread.write

        def counted(data: bytes) -> None:
            writes.append(data)
            write(data)

        link._thread.write = counted
        said: list[str] = []
        app = App(MemoryGame(demo_scenario()), surface, mirrors=[link], log=said.append)
        assert app.act({"type": "end_activation"})
        assert not link.connected and len(writes) == 1
        assert said == [f"cannot update {link!r}: Write timeout"]
        for _ in range(5):  # (an Enemy's with the AI's question left open: skipped)
            assert app.act({"type": "end_activation", "skip": True})
        assert app.game.state.count == 6
        assert len(writes) == 1 and len(said) == 1  # nothing more sent, nothing more waited for
        assert link.port.write_timeout == board_module.WRITE_SECONDS
    finally:
        link.close()
        os.close(master)
        os.close(slave)


class Clock:
    """A clock the test moves (no timed test): seconds since the start."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_flood_of_bad_lines_is_logged_a_few_times_then_counted(loop: tuple[BoardLink, Inbox],
                                                                 caplog: pytest.LogCaptureFixture) -> None:  # fmt: skip
    """A flood of 100,000 bad lines in 10 s logged 41,547 lines (4 MB): now the first few of each 10 s, then
    how many more, and every bad line is still counted."""
    link, _ = loop
    clock = Clock()
    link.bad_lines = Repeats(logging.getLogger("nova_table.board"), "bad lines from board loop://", clock=clock)
    with caplog.at_level(logging.WARNING, logger="nova_table.board"):
        for number in range(3_000):
            clock.now = number / 300  # 3,000 lines in 10 s
            link.line(b"garbage %d" % number)
        clock.now = 10.5
        link.line(b"one more")
        link.close()
    said = [r.getMessage() for r in caplog.records]
    assert link.bad == 3_001
    assert len(said) == BURST + 2, said
    assert all("skipped a bad line: not JSON" in line for line in said[:BURST] + said[BURST + 1 :])
    assert said[BURST] == f"{3_000 - BURST} more bad lines from board loop:// in the last 10 s"  # as the next 10 s begin


def test_repeats_says_what_it_did_not_log_when_flushed(caplog: pytest.LogCaptureFixture) -> None:
    clock, log = Clock(), logging.getLogger("nova_table.test")
    repeats = Repeats(log, "faults", window=10, burst=2, clock=clock)
    with caplog.at_level(logging.WARNING, logger="nova_table.test"):
        for number in range(5):
            repeats.warning("fault %d", number)
        clock.now = 3
        repeats.flush()
        repeats.flush()  # nothing more to say
        clock.now = 20
        repeats.warning("fault %d", 5)  # a new window: logged
    assert [r.getMessage() for r in caplog.records] == ["fault 0", "fault 1", "3 more faults in the last 3 s", "fault 5"]
