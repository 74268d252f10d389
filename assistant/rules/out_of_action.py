"""First edition "Out of action": the d6 a hero removed from the game rolls for the wounds inflicted."""

from __future__ import annotations

from assistant.rules.errors import RuleError

RESULTS = {
    "Serious wound": "randomly draw a serious wounds card",
    "Minor wound": "healed by a surgeon before the next game, or roll on this table again at the end of the next "
                   "mission with a malus of 1",
    "Unharmed": "the hero can continue to fight without any consequences",
}  # fmt: skip


def out_of_action(die: int, malus: int = 0) -> str:
    """The table's result for a d6 roll less the malus of minor wounds not healed (1 or less: Serious; 2-5: Minor;
    6: Unharmed).

    >>> out_of_action(1), out_of_action(4), out_of_action(6), out_of_action(6, malus=1)
    ('Serious wound', 'Minor wound', 'Unharmed', 'Minor wound')
    """
    if not 1 <= die <= 6:
        raise RuleError("die", f"a d6 shows 1 to 6, not {die}")
    if malus < 0:
        raise RuleError("malus", f"must be 0 or more, not {malus}")
    result = die - malus
    return "Serious wound" if result <= 1 else "Unharmed" if result >= 6 else "Minor wound"
