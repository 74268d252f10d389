"""A table that plays the demo by touch alone, from the first screen, and counts its inputs (taps).

It ends the Heroes' activations at once, answers every AI question with its first answer, orders ties as offered,
resolves events, and rolls 4 on every die: by the count of successes where the table offers it, else by the face
picker where there is one, else by tapping the die until it shows 4 (each tap raised it by one). Used to measure what an enemy activation costs the table.
"""

from __future__ import annotations

from typing import Any

import pygame

from assistant.rules.horologium import Side
from assistant.ui.form import Reading
from assistant.ui.inputs import DICE
from tests.ui.conftest import click, play

FACE = 4


def _tap(app: Any, rect: Any) -> None:
    play(app, click(rect.center))
    app.draw()


def _items(app: Any) -> dict[str, Any]:
    return {app.machine.current.items[h.target[1]].label: h.rect for h in app.hits if h.target[0] == "item"
            and app.machine.current.items[h.target[1]].enabled}


def step(app: Any, camera: bool = False) -> int:
    """One decision of the table, as taps; the taps it took. With `camera`, a defence roll's dice come as the
    camera's reading (no input: the dice thrown on the tray), then the form's Resolve is tapped."""
    app.draw()
    if camera and app.machine.current.name == "table" and "Defence roll" in _items(app):
        attack = app.machine.current.advice.attack
        play(app, pygame.event.Event(DICE, reading=Reading([FACE] * attack.dice)))
        app.draw()
        return 0
    if app.machine.current.name == "form":
        form = app.form
        dice = form.dice()
        if dice is not None and not dice.complete:
            die = next(n for n, v in enumerate(dice.values) if v is None)
            at = next(h.rect for h in app.hits if h.target[0] == "stop" and h.target[1].field >= 0
                      and h.target[1].die == die and form.fields[h.target[1].field] is dice)  # fmt: skip
            taps = 0
            if not any(h.target[0] == "face" for h in app.hits):  # the picker not open yet (or none)
                _tap(app, at)
                taps = 1
            while dice.values[die] != FACE and taps < 20:
                faces = {h.target[1]: h.rect for h in app.hits if h.target[0] == "face"}
                _tap(app, faces[FACE] if faces else at)
                taps += 1
            return taps
        apply = next(h.rect for h in app.hits if h.target[0] == "stop" and getattr(h.target[1], "field", 0) == -1)
        _tap(app, apply)
        return 1
    items = _items(app)
    screen = app.machine.current
    advice = screen.advice
    if advice is not None and advice.question is not None:
        if "Answer" in items:  # the answers picked of a question that takes several
            _tap(app, items["Answer"])
            return 1
        first = next(label for label in items if label not in ("Several…", "End activation", "Change choice", "Fix", "Undo", "Redo"))
        _tap(app, items[first])
        return 1
    attack = advice.attack if advice is not None else None
    if attack is not None:  # the successes counted, where the table offers that (4 on every die)
        saved = min(sum(1 for _ in range(attack.dice) if FACE >= attack.threshold), attack.hits or attack.contrast or 0)
        for label in (f"{saved} saved", f"{saved} of {attack.contrast}"):
            if label in items:
                _tap(app, items[label])
                return 1
    for label in ("Defence roll", "Resolve", "Resolve event", "Draw an Injury", "End activation"):
        if label in items:
            _tap(app, items[label])
            return 1
    first = next(iter(items))  # a tie's order, as offered first
    _tap(app, items[first])
    return 1


def inputs_per_model(app: Any, camera: bool = False, limit: int = 600) -> list[tuple[str, int, int]]:
    """The demo played to its end from the first screen: each enemy activation's group, its models standing as it
    began, and the inputs it took."""
    out: list[tuple[str, int, int]] = []
    current: Any = None
    for _ in range(limit):
        state = app.game.state
        token = state.turn.token if state.turn is not None else None
        enemy = token is not None and state.side_of(token) is Side.ENEMY
        key = (token, state.turn.start, state.clock) if enemy else None
        if key != (current[0] if current else None):
            if current is not None:
                out.append((current[0][0], current[1], current[2]))
            current = [key, len(state.group(token).standing), 0] if key is not None else None
        if state.over is not None:
            break
        taps = step(app, camera)
        if current is not None:
            current[2] += taps
    return out


def enemy_activations(app: Any, count: int, limit: int = 400) -> list[tuple[str, int]]:
    """The taps each of the first `count` enemy activations took, with the group's id, played from the first screen."""
    out: list[tuple[str, int]] = []
    current: list[Any] = [None, 0]
    for _ in range(limit):
        state = app.game.state
        token = state.turn.token if state.turn is not None else None
        enemy = token is not None and state.side_of(token) is Side.ENEMY
        key = (token, state.turn.start if state.turn is not None else None, state.clock) if enemy else None
        if key != current[0]:
            if current[0] is not None:
                out.append((current[0][0], current[1]))
                if len(out) == count:
                    return out
            current = [key, 0]
        taps = step(app)
        if key is not None:
            current[1] += taps
        if state.over is not None:
            break
    return out
