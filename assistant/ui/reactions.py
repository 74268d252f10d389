"""Renaissance "Reaction Attacks" from the screen: a Move first asks who is adjacent; the answer is journaled.

Tapping Move asks `reaction_question` (the screen's own question until it is answered: Back or
Undo drops it). The answer is the `declare_move` event; from then on the round is the state's
(`Turn.move`, `assistant.rules.reactions`): the plan orders each Reaction Attack still owed, and
the Move once none is. Undo takes back an attack, then the declaration (which asks again).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from assistant.rules.edition import Edition
from assistant.rules.horologium import Side
from assistant.rules.instructions import reaction_question
from assistant.rules.questions import Question
from assistant.rules.state import GameState


def adjacency_question(state: GameState) -> Question | None:
    """Who is adjacent to the active Hero: asked when a Renaissance Hero, not KO, with no Move declared yet, declares
    one while some standing Enemy has a Range 1 attack (None otherwise: the move form opens at once)."""
    turn = state.turn
    if state.edition is not Edition.RENAISSANCE or turn is None or turn.move is not None or state.over is not None:
        return None
    if state.side_of(turn.token) is not Side.HERO or state.hero(turn.token).ko:
        return None
    question = reaction_question(state, turn.token)
    return question if len(question.options) > 1 else None


def declare_event(adjacent: Sequence[str]) -> dict[str, Any]:
    """The `declare_move` event for the models the table named (none: nobody adjacent)."""
    return {"type": "declare_move", "adjacent": list(adjacent)}


def move_ready(state: GameState) -> bool:
    """The active Hero declared a Move and owes no Reaction Attack any more: the Move itself comes now."""
    turn = state.turn
    return turn is not None and turn.move is not None and not turn.move.owed
