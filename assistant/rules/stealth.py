"""Renaissance "Stealth": the Stealth Token on its track, the Heroes' rolls, and the alarm."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from assistant.rules.errors import RuleError
from assistant.rules.state import GameState


def stealth_active(state: GameState) -> bool:
    """True while the Stealth Token is on the card below the alarm slot ("Stealth Card")."""
    return bool(state.scenario.stealth) and state.stealth < len(state.scenario.stealth)


def alarm_raised(state: GameState) -> bool:
    """True once the Stealth Token has reached the alarm slot: the Stealth has ended."""
    return bool(state.scenario.stealth) and state.stealth >= len(state.scenario.stealth)


def needed(state: GameState) -> int:
    """The value in the slot directly above the Stealth Token, which one die of a roll must reach."""
    if not stealth_active(state):
        raise RuleError("type", "the Stealth rule is not active in this mission (or the alarm was raised)")
    return state.scenario.stealth[state.stealth]


def stealth_roll(state: GameState, dice: Sequence[int]) -> GameState:
    """"Stealth Card": after a Movement Action, one die at least the value above the token, or the token moves up one slot."""
    value = needed(state)
    if any(d >= value for d in dice):
        return replace(state, notes=state.notes + (f"Stealth holds: a die reached {value}",))
    state = replace(state, stealth=state.stealth + 1, notes=state.notes + (f"Stealth roll failed (needed {value}): the token moves up",))
    if alarm_raised(state):
        state = replace(state, notes=state.notes + ("Alarm! The Stealth ends: follow the mission card",))
    return state


def raise_alarm(state: GameState, cause: str) -> GameState:
    """"Stealth Token": an attacked Enemy activates, an Enemy begins or ends adjacent to a Hero, or moves into one."""
    if not stealth_active(state):
        return state
    return replace(state, stealth=len(state.scenario.stealth), notes=state.notes + (f"Alarm! {cause}: the Stealth ends, follow the mission card",))
