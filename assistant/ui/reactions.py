"""Renaissance "Reaction Attacks" as the active Hero declares a Move: who is adjacent, then each attack rolled.

The rules core has no event for "which Enemies are adjacent": the answer stays on the screen
(`ReactionRound`) while the attacks it orders are journaled one by one as `enemy_attack` events
with `reaction: true`, and the Move itself as `spend_ap`. How far the round has got is read back
from the journal, so undo and redo of an attack or of the Move move the round with them; undo
with nothing journaled since the Move was declared steps the round itself back (the answer,
then the round).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from assistant.rules.edition import Edition
from assistant.rules.horologium import Side
from assistant.rules.instructions import AttackOrder, Instruction, reaction_attacks, reaction_question
from assistant.rules.questions import Question
from assistant.rules.state import GameState

NONE = "none"


def reactions_possible(state: GameState) -> bool:
    """True when a Renaissance Hero is active, not KO, and some standing Enemy has a Range 1 attack."""
    if state.edition is not Edition.RENAISSANCE or state.turn is None or state.over is not None:
        return False
    if state.side_of(state.turn.token) is not Side.HERO or state.hero(state.turn.token).ko:
        return False
    return len(reaction_question(state, state.turn.token).options) > 1


@dataclass(frozen=True)
class ReactionRound:
    """The adjacency question (`adjacent` None) or the Reaction Attacks it ordered, for `hero`'s Move."""

    hero: str
    start: int  # events in the journal when the Move was declared
    adjacent: tuple[str, ...] | None = None
    steps: tuple[Instruction, ...] = ()

    @classmethod
    def declare(cls, state: GameState) -> ReactionRound:
        assert state.turn is not None
        return cls(state.turn.token, state.count)

    def question(self, state: GameState) -> Question:
        return reaction_question(state, self.hero)

    def answer(self, state: GameState, adjacent: Sequence[str]) -> ReactionRound:
        """The models the table says are adjacent ("none" for nobody), and the attacks they make."""
        picked = tuple(a for a in adjacent if a != NONE) or (NONE,)
        return replace(self, adjacent=picked, steps=reaction_attacks(state, self.hero, picked))

    @property
    def orders(self) -> list[AttackOrder]:
        return [step.attack for step in self.steps if step.attack is not None]

    def alive(self, state: GameState) -> bool:
        """The Hero is still the one acting (a KO ends the activation) and nothing before the round was undone."""
        if state.active != self.hero or state.count < self.start or state.over is not None:
            return False
        return not state.hero(self.hero).ko

    def resolved(self, events: Sequence[Mapping[str, Any]]) -> int:
        """How many of the round's attacks the journal holds (`events`: those since the Move was declared)."""
        done = sum(1 for e in events if e.get("type") == "enemy_attack" and e.get("reaction") and e.get("hero") == self.hero)
        return min(done, len(self.orders))

    def pending(self, events: Sequence[Mapping[str, Any]]) -> AttackOrder | None:
        """The next attack to roll, or None when every one is resolved (or none was ordered)."""
        if self.adjacent is None:
            return None
        orders = self.orders
        done = self.resolved(events)
        return orders[done] if done < len(orders) else None

    def finished(self, events: Sequence[Mapping[str, Any]]) -> bool:
        """The Hero has moved (a `spend_ap` since the Move was declared): the round is over, unless that is undone."""
        return any(e.get("type") == "spend_ap" for e in events)

    @property
    def answered(self) -> bool:
        return self.adjacent is not None

    def back(self) -> ReactionRound | None:
        """Undo of the screen's own step: the answer first, then the round."""
        return replace(self, adjacent=None, steps=()) if self.adjacent is not None else None
