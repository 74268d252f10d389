"""The board protocol, Pi side: the messages the Pi sends for a game state, and the board's lines read back.

The protocol is documented once, in `firmware/board_protocol.py` (the board's side of it).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Union

from assistant.reading import NotJSON, loads
from assistant.rules.horologium import Side
from assistant.rules.state import GameState

PROTOCOL = 3  # 2: the board's heartbeat and its prompt; 3: the knobs' presses (firmware/board_protocol.py)
MAX_LINE = 1024
MAX_KNOB_DELTA = 100  # steps of one knob message: a turn no hand makes between two messages is a bad line


class LineError(ValueError):
    """A line from the board that is not a message of the protocol; says what is wrong."""


@dataclass(frozen=True)
class Hello:
    board: str
    protocol: int
    leds: int
    knobs: int


@dataclass(frozen=True)
class Knob:
    """A hero's Perilium knob turned by `delta` steps (`hero` counts from 0)."""

    hero: int
    delta: int


@dataclass(frozen=True)
class Press:
    """A hero's Perilium knob pressed (its push switch; `hero` counts from 0)."""

    hero: int


@dataclass(frozen=True)
class BoardError:
    """The board could not read a line the Pi sent."""

    error: str


@dataclass(frozen=True)
class Beat:
    """The board's heartbeat (every second while its loop runs)."""


@dataclass(frozen=True)
class Prompt:
    """The board stopped its loop for MicroPython's prompt (asked by {"t": "repl"}), for `seconds` at most."""

    seconds: int


BoardMessage = Union[Hello, Knob, Press, BoardError, Beat, Prompt]


def encode(message: dict[str, Any]) -> bytes:
    """A message as one line of compact JSON, newline included."""
    return (json.dumps(message, separators=(",", ":")) + "\n").encode("utf-8")


def ring_message(state: GameState) -> dict[str, Any]:
    """The Horologium for the LED ring: the hands, the tokens by sector and kind, the active one."""
    tokens: list[list[Any]] = []
    for token in state.tokens:
        kind = {Side.HERO: "h", Side.ENEMY: "e", Side.EVENT: "v"}[token.side]
        if token.ko:
            kind = "k"
        if token.id == state.active:
            kind += "!"
        tokens.append([token.sector, kind])
    active = state.token(state.active).sector if state.active and state.has_token(state.active) else None
    return {"t": "ring", "minute": state.clock.minute, "hour": state.clock.hour, "active": active,
            "tokens": tokens, "over": state.over}  # fmt: skip


def perilium_message(state: GameState) -> dict[str, Any]:
    return {"t": "perilium", "values": [hero.threat for hero in state.heroes]}


def tray_message(level: int) -> dict[str, Any]:
    return {"t": "tray", "level": max(0, min(100, int(level)))}


def _whole(message: dict[str, Any], key: str, limit: int | None = None) -> int:
    """`message[key]`, a whole number (from -limit to limit, if given); LineError if not."""
    value = message.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise LineError(f"'{key}' must be a whole number, not {clipped(repr(value))}")
    if limit is not None and abs(value) > limit:
        raise LineError(f"'{key}' must be from {-limit} to {limit}, not {clipped(repr(value))}")
    return value


def clipped(text: str, most: int = 40) -> str:
    """`text`, cut to `most` characters with "..." (a garbled line or a number of thousands of digits, said)."""
    return text if len(text) <= most else text[: most - 3] + "..."


def parse_line(raw: bytes) -> BoardMessage:
    """One line from the board (without or with its newline); LineError says what is wrong."""
    if len(raw) > MAX_LINE:
        raise LineError(f"line too long ({len(raw)} bytes, at most {MAX_LINE})")
    try:
        text = raw.decode("utf-8").strip()
    except UnicodeDecodeError as error:
        raise LineError(f"not UTF-8 (byte {error.start})") from None
    if not text:
        raise LineError("empty line")
    try:
        message = loads(text)
    except NotJSON as error:
        raise LineError(f"not JSON ({error})") from None
    if not isinstance(message, dict):
        raise LineError("not a JSON object")
    kind = message.get("t")
    if kind == "knob":
        return Knob(_whole(message, "hero"), _whole(message, "delta", MAX_KNOB_DELTA))
    if kind == "press":
        return Press(_whole(message, "hero"))
    if kind == "hello":
        board = message.get("board")
        if not isinstance(board, str):
            raise LineError("'board' must be a string")
        return Hello(board, _whole(message, "protocol"), _whole(message, "leds"), _whole(message, "knobs"))
    if kind == "error":
        return BoardError(str(message.get("error", "")))
    if kind == "beat":
        return Beat()
    if kind == "repl":
        return Prompt(_whole(message, "seconds"))
    raise LineError(f"unknown message type {clipped(repr(kind))}")
