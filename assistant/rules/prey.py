"""Renaissance "Hunt Missions": the Prey's Action deck, drawn in order, and how a Hunt ends."""

from __future__ import annotations

from dataclasses import replace

from assistant.rules.scenario import PreyCard
from assistant.rules.state import GameState


def is_prey(state: GameState, token_id: str) -> bool:
    prey = state.scenario.prey
    return prey is not None and prey.group == token_id


def current_card(state: GameState) -> PreyCard | None:
    """The Action Card the Prey drew at the start of its activation in progress (None when it is not the Prey's)."""
    prey = state.scenario.prey
    if prey is None or state.turn is None or state.turn.token != prey.group or state.prey_drawn == 0:
        return None
    return prey.deck[state.prey_drawn - 1]


def cards_left(state: GameState) -> int:
    """Prey Action Cards not yet revealed (the Mission Card counts them for the Rewards)."""
    prey = state.scenario.prey
    return 0 if prey is None else len(prey.deck) - state.prey_drawn


def draw(state: GameState) -> tuple[GameState, PreyCard | None]:
    """"Playing a Hunt Mission" step 2: the top card; with none left the Hunt ends ("A Hunt Mission ends")."""
    prey = state.scenario.prey
    assert prey is not None
    if state.prey_drawn >= len(prey.deck):
        return replace(state, over="defeat: the Prey has no Action Card left", notes=state.notes + (
            "The Prey activates with no Action Card left: the Hunt ends",)), None  # fmt: skip
    card = prey.deck[state.prey_drawn]
    return replace(state, prey_drawn=state.prey_drawn + 1), card
