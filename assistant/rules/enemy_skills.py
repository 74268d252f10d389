"""Enemy Skills: first edition's ("Enemy Skills") and the phases of an enemy's activation, as the plan says them;
the Skills that force a Hero to re-roll a die of a Test, in both editions."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from assistant.rules.dice import is_success
from assistant.rules.edition import Edition
from assistant.rules.scenario import EnemyGroupSpec

CHIVALRY_SQUARES = 2  # "Chivalry (Passive): A model with this skill can move up to 2 squares for each AP spent"

# "Skill phase: all skills with a 0 AP cost take effect; these are executed only once per turn in this phase."
ZERO_AP_SKILLS = {
    "healing": "Healing: every ally within 5 squares of {name} discards 1 wound (a heal event for each); "
               "no effect on a model without wounds",
    "melody of war": "Melody of war: each Primaevi model within 5 squares of {name} has +1 strike on its physical "
                     "attacks (give the hits on its attack)",
}  # fmt: skip

# "Passive skills are considered as always active and are executed each time the play situation allows."
PASSIVE_SKILLS = {
    "chivalry": "Chivalry: {name} moves up to 2 squares for each AP spent",
    "phalanx": "Phalanx: two models with Phalanx in adjacent squares may make a single attack, combining their dice",
    "inspire": "Inspire: a Hero defending against the physical attack of an enemy within 6 squares of {name} "
               "re-rolls one die",
    "iron will": "Iron will: a Hero whose spell targets {name} must re-roll one successful die",
    "lethal": "Lethal: {name}'s attacks nullify the Hero's defence token",
}  # fmt: skip


def has_skill(spec: EnemyGroupSpec, skill: str) -> bool:
    return any(s.strip().lower() == skill for s in spec.generic_skills)


def squares_per_ap(edition: Edition, spec: EnemyGroupSpec) -> int:
    """Squares one AP of movement buys: 2 with first-edition Chivalry, else 1 ("Movement: 1 AP per square")."""
    return CHIVALRY_SQUARES if edition is Edition.CLASSIC and has_skill(spec, "chivalry") else 1


def ap_for(squares: int, per_ap: int) -> int:
    """AP spent to move `squares` squares at `per_ap` squares an AP (an AP partly used is spent)."""
    return -(-squares // per_ap)


def activation_phases(spec: EnemyGroupSpec) -> tuple[tuple[str, str], ...]:
    """First edition "Activation of enemies takes place in four phases: status, equipment, skills and actions":
    what the table does before the actions, and the passive skills to keep in mind; (text, rule) each."""
    name = spec.name
    phases = [
        (f"Status phase: apply the status tokens on {name}, all at once.", "Activation of enemies"),
        (f"Equipment phase: {name} receives the bonus tokens its equipment grants (no AP).", "Activation of enemies"),
    ]
    zero = [text.format(name=name) for skill, text in ZERO_AP_SKILLS.items() if has_skill(spec, skill)]
    if zero:
        phases.append(("Skill phase: " + "; ".join(zero) + ".", "Activation of enemies: Skill phase"))
    phases += [(text.format(name=name) + ".", "Enemy Skills") for skill, text in PASSIVE_SKILLS.items() if has_skill(spec, skill)]
    return tuple(phases)


@dataclass(frozen=True)
class ForcedReroll:
    """An Enemy's Skill that forces the Hero to re-roll one die of a Test (a re-roll `by: enemy`), before its result
    is applied. `successes`: only a die that obtained a Success; `sure`: False where the table judges whether it
    applies (Inspire: a model within 6 squares of one with the Skill)."""

    skill: str
    enemy: str  # the group whose Skill it is
    successes: bool
    sure: bool
    rule: str


def attack_rerolls(edition: Edition, target: EnemyGroupSpec, kind: str) -> tuple[ForcedReroll, ...]:
    """A Hero's Attack Test of `kind` on a model of `target`. Renaissance "Dice Re-roll" (its example): the Slinger's
    Dodge "forces Sofia to re-roll one of her dice that obtained a Success", on a Physical Attack (the example's, the
    book words no other). First edition "Enemy Skills": Iron will, "If the character is the target of a spell, the
    hero is obliged to re-roll a successful die"."""
    if edition is Edition.RENAISSANCE and kind == "physical" and has_skill(target, "dodge"):
        return (ForcedReroll("Dodge", target.name, True, True, 'Renaissance "Dice Re-roll"'),)
    if edition is Edition.CLASSIC and kind == "psychic" and has_skill(target, "iron will"):
        return (ForcedReroll("Iron will", target.name, True, True, "Enemy Skills: Iron will"),)
    return ()


def defence_rerolls(edition: Edition, attacker: EnemyGroupSpec, kind: str,
                    standing: Sequence[EnemyGroupSpec] = ()) -> tuple[ForcedReroll, ...]:  # fmt: skip
    """A Hero's Defense Test against `attacker`'s attack of `kind`. First edition "Enemy Skills": Inspire, "All enemies
    within 6 squares (including their own) force the heroes to re-roll a die when they defend themselves against their
    physical attacks": sure for the attacker's own, the table's to judge for another group's on the battlefield
    (`standing`). Any die: the book does not say a successful one."""
    if edition is not Edition.CLASSIC or kind != "physical":
        return ()
    if has_skill(attacker, "inspire"):
        return (ForcedReroll("Inspire", attacker.name, False, True, "Enemy Skills: Inspire"),)
    return tuple(ForcedReroll("Inspire", spec.name, False, False, "Enemy Skills: Inspire")
                 for spec in standing if spec.id != attacker.id and has_skill(spec, "inspire"))  # fmt: skip


def rerollable(edition: Edition, reroll: ForcedReroll, dice: Sequence[int], threshold: int) -> tuple[int, ...]:
    """The dice (indices from 0) `reroll` may re-roll: those that obtained a Success against `threshold`, or any."""
    return tuple(n for n, value in enumerate(dice) if not reroll.successes or is_success(edition, value, threshold))
