"""Re-rolls on the screen: which Enemy's Skill asks for one now, and whether the rules allow a die's re-roll (pure).

The rules of which dice and when are the core's (`rules.enemy_skills`, `rules.dice`); here they are asked in the
players' words, dice counted from 1.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from typing import Any

from assistant.rules.dice import RerollSource, rerolled
from assistant.rules.enemy_skills import ForcedReroll, attack_rerolls, defence_rerolls, rerollable
from assistant.rules.errors import RuleError
from assistant.rules.state import GameState
from assistant.ui.form import Dice, Form

# whose Effect causes a re-roll, as the picker offers it: a Token, a Skill (the Hero's own), an Enemy's Skill
EFFECTS = (("Token", RerollSource.HERO), ("Skill", RerollSource.HERO), ("Enemy's Skill", RerollSource.ENEMY))


def by_target(state: GameState) -> Any:
    """A Hero's attack form's Enemy's Skills (Dodge, Iron will: its target's), each with the Defense its dice beat."""
    def forced(form: Form) -> list[tuple[ForcedReroll, int]]:
        target = form.value("target")
        if target is None:
            return []
        enemy = state.scenario.enemy(target[0])
        defense = enemy.physical_defense if form.value("kind") == "physical" else enemy.psychic_defense
        return [(reroll, defense) for reroll in attack_rerolls(state.edition, enemy, form.value("kind"))]

    return forced


def by_attacker(state: GameState, group_id: str, kind: str, threshold: int) -> list[tuple[ForcedReroll, int]]:
    """The Enemy's Skills that force a re-roll of a Hero's Defense Test against an attack of `group_id` (Inspire)."""
    standing = [state.scenario.enemy(g.id) for g in state.groups if g.standing]
    return [(reroll, threshold) for reroll in defence_rerolls(state.edition, state.scenario.enemy(group_id), kind, standing)]


@dataclass(frozen=True)
class Asked:
    """An Enemy's Skill that asks for its re-roll in the open form: the dice it may re-roll (from 0), in words."""

    reroll: ForcedReroll
    dice: tuple[int, ...]
    words: str


def numbered(dice: Sequence[int]) -> str:
    """Dice from 0 as players count them: "die 2", "die 1 or 2", "die 1, 2 or 3"."""
    shown = [str(n + 1) for n in dice]
    return "die " + (shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} or {shown[-1]}")


def asked(state: GameState, form: Form) -> list[Asked]:
    """The Enemy's Skills still owed their re-roll in `form`, once every die is set: each Enemy re-roll made answers
    one, in order; a Skill with no die to re-roll (Dodge and no Success) asks nothing."""
    dice = form.dice()
    if dice is None or form.forced is None or not dice.values or not dice.complete:
        return []
    enemy = [step for step in dice.rerolls if step.by is RerollSource.ENEMY]
    faces = [value or 0 for value in dice.values]  # as the Enemy's re-rolls left them: they come first
    for step in enemy:
        faces[step.die] = step.value
    late = len(enemy) < len(dice.rerolls)  # the Hero has re-rolled already
    out: list[Asked] = []
    for reroll, threshold in form.forced(form)[len(enemy):]:
        which = rerollable(state.edition, reroll, faces, threshold)
        if not which:
            continue
        kind = "one die that obtained a Success" if reroll.successes else "one die"
        when = "" if reroll.sure else f"if the attacker is within 6 squares of {reroll.enemy}, "
        then = ("before the Hero's own re-rolls: take back the Hero's, then tap it, then Enemy's Skill." if late
                else "before the result: tap it, then Enemy's Skill.")  # fmt: skip
        out.append(Asked(reroll, which, f"{reroll.skill} ({reroll.enemy}): {when}re-roll {kind} ({numbered(which)}) {then}"))
    return out


def refusal(state: GameState, form: Form, dice: Dice, die: int, by: RerollSource) -> str:
    """Why die `die` may not be re-rolled by `by` now, in the players' words ("" if it may): the rules' "Dice
    Re-roll", and an Enemy's Skill's own dice (Dodge: a die that obtained a Success)."""
    if not dice.test:
        return "This is a Dice Roll, not a Test: its dice are not re-rolled (Renaissance \"Dice Roll\")."
    if dice.values[die] is None:
        return f"Die {die + 1} has no face yet: set it, then re-roll it."
    try:
        roll = rerolled(state.edition, [v or 1 for v in dice.values], dice.rerolls, dice.sides)
    except RuleError as error:  # a face set by hand past the rules: said as the rules say it
        return f"Die {die + 1} may not be re-rolled: {error}."
    why = roll.refusal(die, by, count_from=1)
    if why is not None:
        return f"Die {die + 1} may not be re-rolled: {why}."
    owed = [ask for ask in asked(state, form) if ask.reroll.sure]
    if by is RerollSource.ENEMY and owed and die not in owed[0].dice:
        ask = owed[0]
        return (f"{ask.reroll.skill} re-rolls one die that obtained a Success: die {die + 1} did not "
                f"({numbered(ask.dice)} did).")
    return ""


def start(state: GameState, form: Form, dice: Dice, die: int, by: RerollSource) -> str:
    """Die `die` is being re-rolled by `by` (its new face to tap, type or read), or why not."""
    why = refusal(state, form, dice, die, by)
    if not why:
        dice.pending = (die, by)
    return why


def effect_for(state: GameState, form: Form, die: int) -> RerollSource:
    """Whose Effect a re-roll started by a key is at first: an Enemy's Skill that asks for this die, else the Hero's."""
    owed = [ask for ask in asked(state, form) if die in ask.dice]
    return RerollSource.ENEMY if owed else RerollSource.HERO


def history(dice: Dice) -> str:
    """The roll's re-rolls in words, die by die: "Die 2: 6 re-rolled to 2 (Enemy), to 7 (Hero)." ("" for none)."""
    out = []
    for die in sorted({step.die for step in dice.rerolls}):
        steps = [f"to {s.value} ({'Enemy' if s.by is RerollSource.ENEMY else 'Hero'})" for s in dice.rerolls if s.die == die]
        out.append(f"Die {die + 1}: {dice.values[die]} re-rolled {', '.join(steps)}.")
    return " ".join(out)
