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
from assistant.rules.horologium import Side
from assistant.rules.state import DeclaredMove, GameState, HeroState


MOVEMENTS = ("move", "dash", "forced")
WORDS = {"move": "a Move", "dash": "a Dash", "forced": "a Forced Movement"}


def declare_move(state: GameState, f: Fields) -> GameState:
    """Renaissance "Reaction Attacks": before a Hero moves away, every adjacent Enemy with a Range 1 attack attacks.

    `movement`: "move", a Movement Action of the active Hero (made by the next spend_ap); "dash" ("Dash": no AP,
    "performed immediately by the Model who gains it, even if it is not the Active Model", "a Dash causes Reaction
    Attacks") or "forced" ("Forced Movement": no AP, "causes Reaction Attacks"), made once no attack is owed.
    """
    if state.edition is not Edition.RENAISSANCE:
        raise RuleError("type", "Reaction Attacks are a Renaissance rule (first edition: \"Reaction\", as tokens overtake)")
    movement = f.choice("movement", MOVEMENTS, "move")
    hero = active_hero(state, f) if movement == "move" else _moving_hero(state, f)
    turn = state.turn
    if turn is None:
        raise RuleError("type", "a Dash or a Forced Movement happens during an activation: nobody is active")
    name = state.name(hero.id)
    if turn.move is not None:
        raise RuleError("type", f"{state.name(turn.move.hero or turn.token)} has already declared {WORDS[turn.move.movement]}: "
                                "make it (its Reaction Attacks first), or undo the declaration")  # fmt: skip
    if movement == "move" and turn.ap_left < 1:
        raise RuleError("type", f"{name} has no AP left to move (a Dash or a Forced Movement costs none: movement)")
    question = reaction_question(state, hero.id)
    models = replace(question, options=tuple(o for o in question.options if o != NOBODY))
    named = f.array("adjacent")
    adjacent = check_answer(models, named, "adjacent") if named else ()
    count = f"{len(adjacent)} Reaction Attack{'s' if len(adjacent) != 1 else ''} first" if adjacent else "nobody adjacent"
    if movement != "move":  # a Hero moves in someone's activation: an Enemy's distances told before may have changed
        turn = replace(turn, shifts=turn.shifts + 1)
    state = replace(state, turn=turn, notes=state.notes + (f"{name} declares {WORDS[movement]}: {count}",))
    if movement != "move" and not adjacent:
        return replace(state, notes=state.notes + (moved_words(state, hero.id, movement),))
    return replace(state, turn=replace(turn, move=DeclaredMove(adjacent, adjacent, hero.id, movement)))


def _moving_hero(state: GameState, f: Fields) -> HeroState:
    """The Hero who dashes or is moved: any Hero on the Battlefield, active or not (not KO: "suffers no game effect")."""
    hero = state.hero(f.text("hero")) if f.has("hero") else None
    if hero is None:
        if state.turn is None or state.side_of(state.turn.token) is not Side.HERO:
            raise RuleError("hero", "name the Hero who moves: no Hero is active")
        hero = state.hero(state.turn.token)
    if hero.ko or hero.removed:
        raise RuleError("hero", f"{state.name(hero.id)} is KO: a KO Hero suffers no game effect and does not move")
    return hero


def moved_words(state: GameState, hero: str, movement: str) -> str:
    return f"{state.name(hero)} {'moves' if movement == 'move' else 'dashes' if movement == 'dash' else 'makes the Forced Movement'} now"


def settle_reaction(state: GameState, model: str) -> GameState:
    """`model` ("group/number") made its Reaction Attack, or was defeated: it is owed no longer; a Dash or a Forced
    Movement with no attack left owed is made (it costs no AP: no spend_ap follows)."""
    turn = state.turn
    if turn is None or turn.move is None or model not in turn.move.owed:
        return state
    move = replace(turn.move, owed=tuple(m for m in turn.move.owed if m != model))
    if not move.owed and move.movement != "move":
        return replace(state, turn=replace(turn, move=None), notes=state.notes + (moved_words(state, move.hero, move.movement),))
    return replace(state, turn=replace(turn, move=move))


def drop_move(state: GameState, hero: str) -> GameState:
    """"Reaction Attacks": a Hero KO'd by one is placed prone "without performing any Movement": the round is over."""
    turn = state.turn
    if turn is None or turn.move is None or (turn.move.hero or turn.token) != hero:
        return state
    return replace(state, turn=replace(turn, move=None))


def make_move(state: GameState) -> GameState:
    """The active Hero spends AP: the declared Move is made (refused while a Reaction Attack is owed)."""
    turn = state.turn
    if turn is None or turn.move is None:
        return state
    if turn.move.owed:
        raise RuleError("type", f"{state.name(turn.move.hero or turn.token)} declared {WORDS[turn.move.movement]}: the Reaction Attacks of "
                        f"{', '.join(turn.move.owed)} are still owed (turn.move.owed); roll each first "
                        "(enemy_attack with reaction: true)")  # fmt: skip
    return replace(state, turn=replace(turn, move=None))
