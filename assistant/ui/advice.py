"""The Enemy AI's instructions for the screen (`assistant.rules.instructions.plan`), made safe to show.

The plan is another part's work and grows with the rules; if it cannot say anything for a state
(or fails), the table simply plays on by hand: nothing here may stop the app.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from assistant.rules.horologium import Side
from assistant.rules.state import GameState

log = logging.getLogger("nova_table.ui")


@dataclass(frozen=True)
class Advice:
    """What the screen shows of a plan: the sentences, and what the table must give next."""

    steps: tuple[str, ...]
    question: Any = None  # assistant.rules.questions.Question, blocking
    attack: Any = None  # assistant.rules.instructions.AttackOrder waiting for the Hero's dice
    done: bool = False
    choices: tuple[Any, ...] = ()  # open choices the AI made, which the table may override

    @property
    def waiting(self) -> bool:
        return self.question is not None or self.attack is not None


_failed: set[str] = set()


def advice_for(state: GameState) -> Advice | None:
    """The AI's plan for an active Enemy group, or None (a Hero acts, or no plan can be had)."""
    if state.over is not None or state.turn is None or state.side_of(state.turn.token) is not Side.ENEMY:
        return None
    try:
        from assistant.rules.instructions import plan

        made = plan(state)
    except Exception as error:  # the AI must never stop the table
        message = f"no AI instructions for {state.turn.token}: {type(error).__name__}: {error}"
        if message not in _failed:
            _failed.add(message)
            log.warning(message)
        return None
    question = made.question if made.question is not None and made.question.blocking else None
    steps = tuple(step.text for step in made.steps)
    return Advice(steps, question, made.attack, bool(made.done), tuple(made.choices))
