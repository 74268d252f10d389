"""A table that plays itself: the next event a group of players could send, chosen with a seeded random.

Used to script long games for the crash test, the undo/redo property tests and the resume
benchmark, through the real rules core. `gentle=True` rolls dice that never wound anybody,
so that a game goes on for as many events as wanted (with no end time in the scenario).
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

from assistant.rules.horologium import Side
from assistant.rules.state import GameState


def _dice(rng: random.Random, count: int, faces: int = 8) -> list[int]:
    return [rng.randint(1, faces) for _ in range(max(1, count))]


def next_event(state: GameState, rng: random.Random, gentle: bool = False) -> dict[str, Any] | None:
    """One event the table could play now, or None once the mission is over."""
    if state.over is not None:
        return None
    if state.due:
        return {"type": "resolve_event", "event": state.due[0]}
    if state.turn is None:
        if state.ties:
            tie = list(state.ties[0])
            rng.shuffle(tie)
            return {"type": "order", "ids": tie}
        if state.queue:
            return {"type": "resolve_event", "event": state.queue[0]}
        return None
    active = state.turn.token
    heroes = [h for h in state.heroes if not h.ko and not h.removed]
    if state.side_of(active) is Side.HERO:
        hero = state.hero(active)
        if hero.ko:
            return {"type": "injury", "card": f"injury-{state.count}"}
        standing = [g for g in state.groups if g.standing]
        roll = rng.random()
        if standing and state.turn.ap_left >= 3 and roll < 0.4:
            group = rng.choice(standing)
            dice = [1] * 3 if gentle else _dice(rng, state.hero_spec(active).physique)
            return {"type": "hero_attack", "hero": active, "group": group.id, "model": rng.choice(group.standing),
                    "kind": "physical", "ap": 3, "dice": dice}  # fmt: skip
        if roll < 0.55:
            return {"type": "threat", "hero": active, "delta": rng.choice([1, -1])}
        if state.turn.ap_left >= 1 and roll < 0.85:
            return {"type": "spend_ap", "hero": active, "ap": rng.randint(1, state.turn.ap_left),
                    "action": rng.choice(["move", "interact", "reload"])}  # fmt: skip
        return {"type": "end_activation"}
    if heroes and rng.random() < 0.5:
        dice = [8] * 12 if gentle else _dice(rng, 3)
        return {"type": "enemy_attack", "group": active, "hero": rng.choice(heroes).id, "dice": dice}
    return {"type": "end_activation", "skip": True}  # the AI's questions left unanswered: this table never asks them


def play(state: GameState, rng: random.Random, count: int, gentle: bool = False) -> Iterator[dict[str, Any]]:
    """Up to `count` events played one after the other from `state` (fewer if the mission ends)."""
    from assistant.rules.game import apply

    for _ in range(count):
        event = next_event(state, rng, gentle)
        if event is None:
            return
        state = apply(state, event)
        yield event


def endless(scenario_text: str) -> str:
    """The scenario text without its `[end]` table: the game never runs out of time."""
    return re.sub(r"(?ms)^\[end\]\n(?:[^\[\n][^\n]*\n|\n)*", "", scenario_text)
