"""First-edition Enemy Skills ("Enemy Skills") and the phases of an enemy's activation, as the plan says them."""

from __future__ import annotations

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
