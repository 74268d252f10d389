"""Renaissance "Areas": which other Heroes an Enemy's Area attack holds, told once where the answer cannot differ.

"The Cross Area affects 5 Squares: that of the Target and the 4 Squares adjacent to it"; "The Burst Area affects 9
Squares: that of the Target and the 8 Squares around it". Both lie around the target alone: whichever model of the
group attacks that Hero, from wherever it stands, the same Heroes are in them, so the table's answer stands for every
model of the group attacking that Hero (and for each of its attacks) in the activation. "The Breath Area affects 4
Squares: that of the Target, the Square on the opposite side to that of the Attacker..." and "The Spear Area X ...
from the Attacking Model" depend on where the attacker stands: the answer stands for the same model's next attack on
the same target only (it does not move between its attacks). Either holds while no Hero moved in the activation
(a Dash or Forced Movement, `Turn.shifts`); a Hero KO since leaves the answer ("KO Hero": it cannot be considered).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from assistant.rules.questions import Answer

NOBODY = "none"  # the answer for nobody (in the Area, adjacent)
AROUND_TARGET = ("cross", "burst")  # the Areas that lie around the target alone


def around_target(area: str) -> bool:
    """Whether the Area ("Burst Area", "Cross") lies around the target alone, wherever the attacker stands."""
    return area.strip().lower().startswith(AROUND_TARGET)


def told_key(area: str, hero: str) -> tuple[str, str]:
    """What a group's answer about an Area around the target is kept under: the Area's kind and the target."""
    return area.strip().lower().split()[0], hero


def told_before(area: str, hero: str, options: Sequence[str], group_told: Mapping[tuple[str, str], Answer],
                earlier: Answer | None, heroes_moved: bool) -> Answer | None:  # fmt: skip
    """The Heroes in the Area of an attack on `hero`, from an answer already given in this activation: for an Area around
    the target, any model's of the group (`group_told`); else the same model's previous attack on `hero` (`earlier`).
    None where nothing stands (a Hero moved since). Heroes no longer among `options` (KO since) are left out."""
    if heroes_moved:
        return None
    said = group_told.get(told_key(area, hero)) if around_target(area) else earlier
    if said is None:
        return None
    still = tuple(h for h in said if h in options and h != NOBODY)
    return still or (NOBODY,)
