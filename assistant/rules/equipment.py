"""Wounds a Hero's Equipment takes: Renaissance "Wound Tokens and Equipment"; first edition "Weapons and armour".

A Hero's room for Wound Tokens on Equipment is `HeroSpec.resistance`: in Renaissance the sum of
the X of the Equipment Cards with "Resistance X" they have equipped (the player may distribute the
wounds among several such cards; the rules core keeps one total per Hero, which is the same for
every count the rules make), in the first edition the Wo of their armour card ("The light armour
has 1 Wo"). The wounds lying on it are `HeroState.equipment_wounds`: they are not the Hero's, so
they count neither for the KO nor for the Enemy AI's "most Wound Tokens".
"""

from __future__ import annotations

from dataclasses import dataclass

from assistant.rules.edition import Edition
from assistant.rules.errors import RuleError


@dataclass(frozen=True)
class Placed:
    """Wounds split between the Hero's sheet and their Equipment (placed there, or discarded from there)."""

    hero: int
    equipment: int = 0

    @property
    def total(self) -> int:
        return self.hero + self.equipment


def equipment_word(edition: Edition) -> str:
    """What the table calls it: the Renaissance Equipment Cards, the first-edition armour card."""
    return "the armour" if edition is Edition.CLASSIC else "the Equipment"


def on_equipment_words(edition: Edition, count: int) -> str:
    """' (1 on the Equipment)', or nothing when no wound is there."""
    return f" ({count} on {equipment_word(edition)})" if count else ""


def equipment_takes(edition: Edition, physical: bool, unblockable: bool = False) -> bool:
    """May these wounds go on the Equipment first?

    Renaissance "Wound Tokens and Equipment": only wounds "from a Physical Attack"; never
    Unblockable Wounds ("Unblockable Wounds": "Heroes may not place Wound Tokens resulting from
    Unblockable Wounds on Equipment Cards"), nor those of a Status Token such as Bleeding.
    First edition "Weapons and armour": "The first wounds inflicted must be positioned on the
    armour card", with no exception: mental attacks' wounds too (see docs/rules.md, the choices).

    >>> equipment_takes(Edition.RENAISSANCE, physical=True), equipment_takes(Edition.RENAISSANCE, physical=False)
    (True, False)
    >>> equipment_takes(Edition.RENAISSANCE, physical=True, unblockable=True), equipment_takes(Edition.CLASSIC, physical=False)
    (False, True)
    """
    if edition is Edition.CLASSIC:
        return True
    return physical and not unblockable


def place_wounds(wounds: int, room: int) -> Placed:
    """The wounds go on the Equipment first, until it is full; the rest on the Hero.

    Renaissance: "they must assign them to the Equipment first, until it has a number of Wounds
    equal to the 'X' value"; first edition, the Squire's light armour (1 Wo) and three wounds:
    "he positions the first one on the lightweight armour, the other two on the hero sheet".

    >>> place_wounds(3, room=1)
    Placed(hero=2, equipment=1)
    """
    if wounds < 0:
        raise RuleError("wounds", f"must be 0 or more, not {wounds}")
    on_equipment = min(wounds, max(0, room))
    return Placed(wounds - on_equipment, on_equipment)


def discard_wounds(edition: Edition, hero_wounds: int, equipment_wounds: int, wounds: int) -> Placed:
    """Which wounds a healing discards: the Hero's first.

    First edition "Weapons and armour": "the wounds must be removed from the armour card after
    removing the ones on the hero sheet". Renaissance: "Wounds on an Equipment Card can only be
    discarded by effects that specifically indicate so": a healing discards the Hero's only.

    >>> discard_wounds(Edition.CLASSIC, hero_wounds=2, equipment_wounds=1, wounds=3)
    Placed(hero=2, equipment=1)
    >>> discard_wounds(Edition.RENAISSANCE, hero_wounds=2, equipment_wounds=1, wounds=3)
    Placed(hero=2, equipment=0)
    """
    if wounds < 0:
        raise RuleError("wounds", f"must be 0 or more, not {wounds}")
    from_hero = min(wounds, hero_wounds)
    from_equipment = min(wounds - from_hero, equipment_wounds) if edition is Edition.CLASSIC else 0
    return Placed(from_hero, from_equipment)


def effects_apply(edition: Edition, physical: bool, placed: Placed, resisted: bool = False) -> bool:
    """Does an Enemy attack apply its Effects (the Traits after the Effect symbol, a first-edition status)?

    Renaissance "Effect": "Enemies apply all Effects if a Physical Attack inflicts at least 1 Wound
    (not placed on an Equipment) or if a Hero does not obtain all the Successes required to defend
    against a Psychic Attack". First edition "Enemies attack": a status is "applied in addition to
    wounds", and armour is "a wounds bonus": a wound on the armour is still inflicted (a choice,
    see docs/rules.md).
    """
    if not physical:
        return not resisted
    return (placed.hero if edition is Edition.RENAISSANCE else placed.total) > 0
