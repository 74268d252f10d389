"""Renaissance "Reaction Attacks" in the fold: a declared Move, the attacks it owes, then the Move itself.

`{"type": "declare_move", "adjacent": ["papal_guard/1", ...]}` (`[]`: nobody adjacent) stores
`Turn.move`: the models the table named, every one owing its Reaction Attack. Each `enemy_attack`
with `reaction: true` (or the model's defeat) takes its model off `owed`; `plan(state)` orders the
next one. The Hero's next `spend_ap` (the Move) ends the round, and is refused while one is owed;
a KO ends the activation, and the round with it.
"""

from __future__ import annotations

from dataclasses import replace

from assistant.rules.edition import Edition
from assistant.rules.errors import RuleError
from assistant.rules.fields import Fields
from assistant.rules.flow import active_hero
from assistant.rules.instructions import NOBODY as NOBODY  # the option for nobody adjacent (the event says `[]`)
from assistant.rules.instructions import reaction_question
from assistant.rules.questions import check_answer
from assistant.rules.state import DeclaredMove, GameState


def declare_move(state: GameState, f: Fields) -> GameState:
    """Renaissance "Reaction Attacks": before a Hero moves away, every adjacent Enemy with a Range 1 attack attacks."""
    hero = active_hero(state, f)
    turn = state.turn
    assert turn is not None
    name = state.name(hero.id)
    if state.edition is not Edition.RENAISSANCE:
        raise RuleError("type", "Reaction Attacks are a Renaissance rule (first edition: \"Reaction\", as tokens overtake)")
    if turn.move is not None:
        raise RuleError("type", f"{name} has already declared a Move: make it (spend_ap), or undo the declaration")
    if turn.ap_left < 1:
        raise RuleError("type", f"{name} has no AP left to move")
    question = reaction_question(state, hero.id)
    models = replace(question, options=tuple(o for o in question.options if o != NOBODY))
    named = f.array("adjacent")
    adjacent = check_answer(models, named, "adjacent") if named else ()
    count = f"{len(adjacent)} Reaction Attack{'s' if len(adjacent) != 1 else ''} first" if adjacent else "nobody adjacent"
    state = replace(state, turn=replace(turn, move=DeclaredMove(adjacent, adjacent)))
    return replace(state, notes=state.notes + (f"{name} declares a Move: {count}",))


def settle_reaction(state: GameState, model: str) -> GameState:
    """`model` ("group/number") made its Reaction Attack, or was defeated: it is owed no longer."""
    turn = state.turn
    if turn is None or turn.move is None or model not in turn.move.owed:
        return state
    move = replace(turn.move, owed=tuple(m for m in turn.move.owed if m != model))
    return replace(state, turn=replace(turn, move=move))


def make_move(state: GameState) -> GameState:
    """The active Hero spends AP: the declared Move is made (refused while a Reaction Attack is owed)."""
    turn = state.turn
    if turn is None or turn.move is None:
        return state
    if turn.move.owed:
        raise RuleError("type", f"{state.name(turn.token)} declared a Move: the Reaction Attacks of "
                        f"{', '.join(turn.move.owed)} are still owed (turn.move.owed); roll each first "
                        "(enemy_attack with reaction: true)")  # fmt: skip
    return replace(state, turn=replace(turn, move=None))
