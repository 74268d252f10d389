"""The Enemy AI's instructions for the screen (`assistant.rules.instructions.plan`), made safe to show.

The plan speaks in every part of the game: an Enemy activation (instructions, questions, the
attack to roll), a Hero's activation (the Stealth roll, first-edition reactions), due events
(an Enemy Draft) and ties, and a Renaissance Reaction Attack round once the Move is declared.
Before that, who is adjacent is the screen's own question (`reactions.adjacency_question`).
If the plan cannot say anything for a state (or fails), the table simply plays on by hand:
nothing here may stop the app.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from assistant.rules.horologium import Side
from assistant.rules.questions import Question
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
    marks: tuple[str, ...] = ()  # per step: the key of the open choice behind it ("" for none)
    side: str = "enemy"  # whose plan: "enemy", "hero", "event", "stop", or "reaction" (a Hero's declared Move)
    faded: tuple[int, ...] = ()  # steps already done (drawn muted)
    kinds: tuple[str, ...] = ()  # per step: its kind ("status": a Status Token reminder; `Instruction.kind`)
    models: tuple[str, ...] = ()  # per step: the Enemy model ("group/n") it is about, "" for none
    ap_left: tuple[tuple[str, int], ...] = ()  # ("group/n", AP) each model has still to spend (`Plan.ap_left`)
    traits: tuple[tuple[str, ...], ...] = ()  # per step: the traits of its attack

    @property
    def waiting(self) -> bool:
        return self.question is not None or self.attack is not None

    def mark(self, index: int) -> str:
        return self.marks[index] if index < len(self.marks) else ""


_failed: set[str] = set()


def advice_for(state: GameState, adjacency: Question | None = None) -> Advice | None:
    """The plan for whatever the table does now (None when it has nothing to say, or fails).

    `adjacency`: who is adjacent to the active Hero, while the screen asks it for their Move.
    """
    if state.over is not None:
        return None
    try:
        from assistant.rules.instructions import declare_instruction, plan

        if adjacency is not None and state.active is not None:
            return Advice((declare_instruction(state, state.active).text,), question=adjacency, side="reaction")
        made = plan(state)
    except Exception as error:  # the AI must never stop the table
        message = f"no AI instructions for {state.active or 'the stop'}: {type(error).__name__}: {error}"
        if message not in _failed:
            _failed.add(message)
            log.warning(message)
        return None
    question = made.question if made.question is not None and made.question.blocking else None
    steps = tuple(step.text for step in made.steps)
    side = _side(state)
    if side != "enemy" and not steps and question is None and made.attack is None:
        return None
    marks = _marks(state, made.steps, tuple(made.choices))
    faded = tuple(i for i, step in enumerate(made.steps) if step.kind in ("declare", "attacked")) if side == "reaction" else ()
    kinds = tuple(step.kind for step in made.steps)
    models = tuple(step.model for step in made.steps)
    traits = tuple(step.attack.traits if step.attack is not None else () for step in made.steps)
    return Advice(steps, question, made.attack, bool(made.done) and side == "enemy", tuple(made.choices), marks, side, faded,
                  kinds, models, tuple(made.ap_left), traits)  # fmt: skip


def _side(state: GameState) -> str:
    if state.due:
        return "event"
    if state.turn is None:
        return "stop"
    if state.side_of(state.turn.token) is not Side.HERO:
        return "enemy"
    return "hero" if state.turn.move is None else "reaction"


def _marks(state: GameState, steps: Sequence[Any], choices: tuple[Any, ...]) -> tuple[str, ...]:
    """The open choice behind each step: its own `choice`, or for "which model next" the chosen model's first step."""
    marks = [step.choice for step in steps]
    answers = state.turn.answer_map() if state.turn is not None else {}
    for choice in choices:
        if choice.kind != "next":
            continue
        picked = answers.get(choice.key, choice.default) or ()
        model = f"{choice.model.partition('/')[0]}/{picked[0]}" if picked else choice.model
        for index, step in enumerate(steps):
            if step.model == model and not marks[index]:
                marks[index] = choice.key
                break
    return tuple(marks)
