"""Attacks: Heroes against Enemies and Enemies against Heroes, and what they do to the Perilium."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from assistant.rules.dice import AstroCount, astro, astro_triggers, successes
from assistant.rules.edition import Edition
from assistant.rules.errors import RuleError
from assistant.rules.perilium import ThreatCauses, threat_gain

# Renaissance "Critical": physical attacks of Heroes have Critical 1: 3 or more wounds, one more.
CRITICAL_AT = 3


@dataclass(frozen=True)
class Target:
    """An Enemy model as an attack finds it."""

    health: int
    wounds: int = 0
    immune_to_critical: bool = False

    def __post_init__(self) -> None:
        if self.health < 1:
            raise RuleError("target.health", f"must be at least 1, not {self.health}")
        if not 0 <= self.wounds < self.health:
            raise RuleError("target.wounds", f"must be from 0 to health - 1 ({self.health - 1}), not {self.wounds}")


@dataclass(frozen=True)
class HeroAttackResult:
    successes: int
    succeeded: bool  # physical: at least 1 wound; psychic: all required successes
    wounds: int  # inflicted, the excess over what defeats the target included
    critical: bool
    defeated: bool
    threat: int  # Threat Level the attacking Hero gains


def astro_extra(edition: Edition, dice: Sequence[int], per_symbol: Mapping[AstroCount, int] | None) -> int:
    """Wounds an Effect adds for each Astro Symbol rolled, or each complete set of a combination of them
    (Renaissance "Astro Symbols": "for each Astro Symbol(s) the Hero can use to activate it")."""
    symbols = astro(dice, edition)
    return sum(per * astro_triggers(symbols, needed) for needed, per in (per_symbol or {}).items())


def hero_physical_attack(
    edition: Edition,
    dice: Sequence[int],
    defense: int,
    target: Target,
    modifier: int = 0,
    bonus_successes: int = 0,
    unblockable: bool = False,
    astro_before: Mapping[AstroCount, int] | None = None,
) -> HeroAttackResult:
    """Renaissance "Heroes Attacks / Physical Attack" and "Critical"; first edition "Physical attack".

    Each success against the target's Physical Defense is a wound. Renaissance: 3 or more wounds
    are a Critical: one more wound (not against an Enemy immune to Critical) and +1 Threat
    either way. `bonus_successes` are successes gained without dice (e.g. Stealth). `astro_before`:
    wounds per symbol of an Effect printed before the Attack symbol, which "applies regardless of the
    number of Successes obtained" ("Astro Symbols"); they count for the Threat, not for the Critical.
    """
    hits = successes(edition, dice, defense, modifier) + bonus_successes
    critical = edition is Edition.RENAISSANCE and hits >= CRITICAL_AT
    tested = hits + (1 if critical and not target.immune_to_critical else 0)
    wounds = tested + astro_extra(edition, dice, astro_before)
    defeated = target.wounds + wounds >= target.health
    causes = ThreatCauses(wounds=wounds, unblockable=unblockable, critical=critical, defeated=int(defeated))
    return HeroAttackResult(hits, tested > 0, wounds, critical, defeated, threat_gain(edition, causes))


def hero_psychic_attack(
    edition: Edition,
    dice: Sequence[int],
    defense: int,
    required: int,
    effect_wounds: int,
    target: Target,
    modifier: int = 0,
    bonus_successes: int = 0,
    astro_wounds: Mapping[AstroCount, int] | None = None,
    unblockable: bool = False,
    astro_before: Mapping[AstroCount, int] | None = None,
) -> HeroAttackResult:
    """Renaissance "Heroes Attacks / Psychic Attack"; first edition "Mental attack" (spells).

    All the required successes against the target's Psychic Defense, or no effect at all: not even
    the wounds an Astro Symbol would add after the Attack symbol (`astro_wounds`: Renaissance "Astro
    Symbols", Rebecca's Arcane Arrow). Those of an Effect printed before it (`astro_before`) apply
    "regardless of the number of Successes obtained". Unblockable wounds raise the Threat as a
    physical attack's do (Renaissance "Threat Level": "one or more Unblockable Wounds with a single Action").
    """
    if required < 1:
        raise RuleError("required", f"must be at least 1, not {required}")
    hits = successes(edition, dice, defense, modifier) + bonus_successes
    succeeded = hits >= required
    wounds = astro_extra(edition, dice, astro_before)
    if succeeded:
        wounds += effect_wounds + astro_extra(edition, dice, astro_wounds)
    defeated = target.wounds + wounds >= target.health
    causes = ThreatCauses(wounds=wounds, unblockable=unblockable, defeated=int(defeated))
    return HeroAttackResult(hits, succeeded, wounds, False, defeated, threat_gain(edition, causes))


def hero_prayer(edition: Edition, dice: Sequence[int], defense: int, effect_wounds: int, target: Target,
                modifier: int = 0, bonus_successes: int = 0) -> HeroAttackResult:  # fmt: skip
    """First edition "Mental attack / Prayers": the hero's Mi against the target's Md, no difficulty: "their effect is
    applied for each successful attack", so `effect_wounds` for each success."""
    if edition is not Edition.CLASSIC:
        raise RuleError("prayer", "a prayer's effect for each success is the first edition's (Renaissance: its card)")
    hits = successes(edition, dice, defense, modifier) + bonus_successes
    wounds = effect_wounds * hits
    defeated = target.wounds + wounds >= target.health
    causes = ThreatCauses(wounds=wounds, defeated=int(defeated))
    return HeroAttackResult(hits, hits > 0, wounds, False, defeated, threat_gain(edition, causes))


@dataclass(frozen=True)
class EnemyAttackResult:
    successes: int
    wounds: int
    resisted: bool = field(default=False)  # psychic: the Hero's successes reached the Contrast


def enemy_physical_attack(
    edition: Edition, hits: int, threshold: int, dice: Sequence[int], modifier: int = 0
) -> EnemyAttackResult:
    """Renaissance "Enemies Attacks / Physical Attack"; first edition "Enemies attack / Physical attack".

    The Hero's Defense Test: each success cancels one Hit; each Hit left is a Wound.
    """
    if hits < 0:
        raise RuleError("hits", f"must be 0 or more, not {hits}")
    saved = successes(edition, dice, threshold, modifier)
    return EnemyAttackResult(saved, max(0, hits - saved))


def enemy_psychic_attack(
    edition: Edition, contrast: int, threshold: int, dice: Sequence[int], effect_wounds: int, modifier: int = 0
) -> EnemyAttackResult:
    """Renaissance "Enemies Attacks / Psychic Attack"; first edition "Mental attack" (Contrast).

    Successes equal to or above the Contrast resist the whole Effect; otherwise it applies entirely.
    """
    if contrast < 0:
        raise RuleError("contrast", f"must be 0 or more, not {contrast}")
    saved = successes(edition, dice, threshold, modifier)
    resisted = saved >= contrast
    return EnemyAttackResult(saved, 0 if resisted else effect_wounds, resisted)
