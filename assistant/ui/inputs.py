"""Every input as one small `Action`: keys, mouse and touch, and events posted by other threads.

Hardware callbacks (encoder, board knobs) and the dice reader run on threads of their own: they
only post pygame events (`post_*`; pygame's event queue is safe to post to from any thread) and
the main loop turns them into Actions. Only the main loop touches the game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pygame

from assistant.ui.form import Reading

ENCODER = pygame.event.custom_type()  # attributes: action ("turn" | "confirm" | "back"), value
KNOB = pygame.event.custom_type()  # attributes: hero (index from 0), delta
PRESS = pygame.event.custom_type()  # attributes: hero (index from 0): that hero's knob pressed
DICE = pygame.event.custom_type()  # attributes: reading (a form.Reading)
BOARD = pygame.event.custom_type()  # attributes: message (str), for the status line
NOTICE = pygame.event.custom_type()  # attributes: message (str), for the players: shown on the screen too
CALIBRATION = pygame.event.custom_type()  # attributes: work (who posts it), message: the calibration's threads


@dataclass(frozen=True)
class Action:
    """What the player meant: turn, confirm, back, tap, digit, key, undo, redo, quit, dice, knob, press; or
    what a device says: status (logged), notice (logged and shown), calibration (the calibration's threads)."""

    kind: str
    value: Any = None


def post_encoder(action: str, value: int = 0) -> None:
    """From the encoder's thread: turned (value = +1 / -1), pressed (confirm) or held (back)."""
    pygame.event.post(pygame.event.Event(ENCODER, action=action, value=value))


def post_knob(hero: int, delta: int) -> None:
    """From the board link's thread: the Perilium knob of hero `hero` (0-based) turned by `delta`."""
    pygame.event.post(pygame.event.Event(KNOB, hero=hero, delta=delta))


def post_press(hero: int) -> None:
    """From the board link's thread: the Perilium knob of hero `hero` (0-based) pressed."""
    pygame.event.post(pygame.event.Event(PRESS, hero=hero))


def post_dice(reading: Reading) -> None:
    """The seam for `assistant.vision`: dice read from the tray (always correctable by hand)."""
    pygame.event.post(pygame.event.Event(DICE, reading=reading))


def post_board_message(message: str) -> None:
    pygame.event.post(pygame.event.Event(BOARD, message=message))


def post_notice(message: str) -> None:
    """What the players must know (the camera lost, back): logged, and shown as a refusal is."""
    pygame.event.post(pygame.event.Event(NOTICE, message=message))


def post_calibration(work: object, message: object) -> None:
    """From a thread of the calibration screen (`calibrate_work`): a step shown, a frame, learning's progress, its end."""
    pygame.event.post(pygame.event.Event(CALIBRATION, work=work, message=message))


class Vertical(int):
    """The turn of an Up or Down arrow: the focus back (Up) or on (Down) in a menu, but a form's value up with Up."""


NAVIGATION = {
    pygame.K_RIGHT: ("turn", 1),
    pygame.K_DOWN: ("turn", Vertical(1)),
    pygame.K_TAB: ("turn", 1),
    pygame.K_LEFT: ("turn", -1),
    pygame.K_UP: ("turn", Vertical(-1)),
    pygame.K_PLUS: ("turn", 1),
    pygame.K_EQUALS: ("turn", 1),
    pygame.K_KP_PLUS: ("turn", 1),
    pygame.K_MINUS: ("turn", -1),
    pygame.K_KP_MINUS: ("turn", -1),
    pygame.K_RETURN: ("confirm", None),
    pygame.K_KP_ENTER: ("confirm", None),
    pygame.K_SPACE: ("confirm", " "),  # a space where words are typed (`ui/keyboard.py`)
    pygame.K_BACKSPACE: ("back", None),
}


def translate(event: pygame.event.Event) -> Action | None:
    """The Action of one pygame event (Escape is the app's: short press back, held quits)."""
    kind = event.type
    if kind == pygame.QUIT:
        return Action("quit")
    if kind == ENCODER:
        return Action(event.action, event.value)
    if kind == KNOB:
        return Action("knob", (int(event.hero), int(event.delta)))
    if kind == PRESS:
        return Action("press", int(event.hero))
    if kind == DICE:
        return Action("dice", event.reading)
    if kind == BOARD:
        return Action("status", event.message)
    if kind == NOTICE:
        return Action("notice", event.message)
    if kind == CALIBRATION:
        return Action("calibration", (event.work, event.message))
    if kind == pygame.MOUSEBUTTONDOWN and event.button == 1:
        return Action("tap", event.pos)
    if kind == pygame.MOUSEWHEEL:
        return Action("turn", -1 if event.y > 0 else 1)
    if kind != pygame.KEYDOWN:
        return None
    ctrl = bool(event.mod & pygame.KMOD_CTRL)
    if ctrl and event.key == pygame.K_q:
        return Action("quit")
    if ctrl and event.key == pygame.K_z:
        return Action("redo" if event.mod & pygame.KMOD_SHIFT else "undo")
    if ctrl and event.key == pygame.K_y:
        return Action("redo")
    if event.key in NAVIGATION:
        kind_name, value = NAVIGATION[event.key]
        if event.key == pygame.K_TAB and event.mod & pygame.KMOD_SHIFT:
            value = -1
        return Action(kind_name, value)
    if pygame.K_0 <= event.key <= pygame.K_9:
        return Action("digit", event.key - pygame.K_0)
    if pygame.K_KP1 <= event.key <= pygame.K_KP9:
        return Action("digit", event.key - pygame.K_KP1 + 1)
    if pygame.K_a <= event.key <= pygame.K_z:
        return Action("key", chr(event.key))
    return None
