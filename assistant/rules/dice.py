"""Tests: how many dice, which die succeeds, Astro Symbols, and which dice may be re-rolled.

    >>> successes(Edition.RENAISSANCE, (6, 6, 5, 2))
    3
    >>> astro((6, 6, 5, 2))
    AstroCount(sun=2, star=1, moon=0)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from assistant.rules.edition import Edition
from assistant.rules.errors import RuleError, shown

# Renaissance "Golden Rules" and "Success Threshold"; first edition "The rule of success" (5+).
DEFAULT_THRESHOLD = 5


class DieKind(Enum):
    D6 = 6
    D8 = 8


def die_for(edition: Edition, specialised: bool = False) -> DieKind:
    """First edition "Mastery": d6 for basic classes, d8 for specialisations; Renaissance "Dice": d8."""
    if edition is Edition.CLASSIC and not specialised:
        return DieKind.D6
    return DieKind.D8


def check_dice(dice: Sequence[int], faces: int = 8, field: str = "dice") -> tuple[int, ...]:
    """The dice as a tuple, or RuleError naming the die that cannot be on a die."""
    values = tuple(dice)
    for index, value in enumerate(values):
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= faces:
            raise RuleError(f"{field}[{index}]", f"must be a die result from 1 to {faces}, not {shown(value)}")
    return values


def dice_count(characteristic: int, modifier: int = 0) -> int:
    """Renaissance "Characteristic Test": dice equal to the Characteristic, changed by modifiers; never < 0."""
    return max(0, characteristic + modifier)


def is_success(edition: Edition, value: int, threshold: int = DEFAULT_THRESHOLD, modifier: int = 0) -> bool:
    """One die against the Success Threshold, after result modifiers (Blessed +1, Cursed -1 on every die).

    Renaissance "Golden Rules": a natural 1 always fails and a natural 8 always succeeds.
    """
    if edition is Edition.RENAISSANCE:
        if value == 1:
            return False
        if value == 8:
            return True
    return value + modifier >= threshold


def successes(
    edition: Edition, dice: Iterable[int], threshold: int = DEFAULT_THRESHOLD, modifier: int = 0
) -> int:
    return sum(1 for value in dice if is_success(edition, value, threshold, modifier))


class Astro(Enum):
    SUN = "sun"
    STAR = "star"
    MOON = "moon"


# Renaissance "Dice": Sun on 8, 6 and 4; Star on 5 and 7; Moon on 1; nothing on 2 and 3.
ASTRO_FACES: Mapping[int, Astro] = {8: Astro.SUN, 6: Astro.SUN, 4: Astro.SUN, 5: Astro.STAR, 7: Astro.STAR, 1: Astro.MOON}


@dataclass(frozen=True)
class AstroCount:
    sun: int = 0
    star: int = 0
    moon: int = 0

    def of(self, symbol: Astro) -> int:
        count: int = getattr(self, symbol.value)
        return count

    def as_dict(self) -> dict[str, int]:
        return {"sun": self.sun, "star": self.star, "moon": self.moon}


def astro(dice: Iterable[int], edition: Edition = Edition.RENAISSANCE) -> AstroCount:
    """The Astro Symbols on the natural faces; first-edition dice carry none."""
    if edition is Edition.CLASSIC:
        return AstroCount()
    symbols = [ASTRO_FACES[value] for value in dice if value in ASTRO_FACES]
    return AstroCount(
        sun=symbols.count(Astro.SUN), star=symbols.count(Astro.STAR), moon=symbols.count(Astro.MOON)
    )


def astro_triggers(rolled: AstroCount, needed: AstroCount) -> int:
    """How many times an effect needing a combination of symbols applies (Renaissance "Astro Symbols").

    The roll must hold every symbol of the combination; the effect applies once for each complete
    set of symbols the roll holds (e.g. two Moons: once per pair of Moons).
    """
    wanted = [(symbol, needed.of(symbol)) for symbol in Astro if needed.of(symbol) > 0]
    if not wanted:
        raise RuleError("astro", "an Astro effect needs at least one symbol")
    return min(rolled.of(symbol) // count for symbol, count in wanted)


class RerollSource(Enum):
    ENEMY = "enemy"  # forced by an Enemy's Skill (e.g. Dodge, Iron will)
    HERO = "hero"  # the Hero's own Status Tokens, Skills or Equipment (e.g. a Lucky Token)


RENAISSANCE_REROLLS = 'Renaissance "Dice Re-roll"'


@dataclass(frozen=True)
class Roll:
    """The dice of one Test and the re-rolls each die has had.

    Renaissance "Dice Re-roll": a die is re-rolled once in a Test; a second time only when the first re-roll was
    an Enemy's Skill's. "Heroes Attacks" applies the target's Generic Skills before the Hero's own Skills and Status
    Tokens, so no Enemy re-roll follows a Hero re-roll in the same Test. The first edition ("Re-roll" token,
    Inspire, Iron will) sets no limit: every re-roll it is given is made (docs/rules.md).
    """

    dice: tuple[int, ...]
    rerolls: tuple[tuple[RerollSource, ...], ...] = ()
    edition: Edition = Edition.RENAISSANCE
    faces: int = 8

    @classmethod
    def of(cls, dice: Sequence[int], faces: int = 8, edition: Edition = Edition.RENAISSANCE) -> Roll:
        values = check_dice(dice, faces)
        return cls(values, tuple(() for _ in values), edition, faces)

    def refusal(self, index: int, source: RerollSource, count_from: int = 0) -> str | None:
        """Why die `index` may not be re-rolled by `source` now, in the players' words; None if it may.
        `count_from`: the number the words give the first die (the screen counts from 1, as players do)."""
        if not 0 <= index < len(self.dice):
            return f"there is no die {index} in a roll of {len(self.dice)} dice (the first is 0)"
        shown = index + count_from
        if self.edition is Edition.CLASSIC:
            return None
        history = self.rerolls[index]
        if source is RerollSource.ENEMY and any(RerollSource.HERO in past for past in self.rerolls):
            return (f"an Enemy's Skill re-rolls before the Hero's own re-rolls (Renaissance \"Heroes Attacks\": the "
                    f"target's Generic Skills apply first), and the Hero has re-rolled a die in this Test")
        if len(history) >= 2:
            return f"die {shown} has been re-rolled twice in this Test, the most {RENAISSANCE_REROLLS} allows"
        if history == (RerollSource.HERO,):
            return (f"die {shown} was re-rolled by the Hero's own Token, Skill or Equipment: it may not be re-rolled "
                    f"again in the same Test ({RENAISSANCE_REROLLS})")
        return None

    def may_reroll(self, index: int, source: RerollSource) -> bool:
        return self.refusal(index, source) is None

    def reroll(self, index: int, value: int, source: RerollSource, faces: int | None = None,
               field: str = "index") -> Roll:  # fmt: skip
        """The roll with die `index` re-rolled to `value`; RuleError on `field` where the rules forbid it."""
        why = self.refusal(index, source)
        if why is not None:
            raise RuleError(field, why)
        _face(value, faces or self.faces, "value")
        dice = self.dice[:index] + (value,) + self.dice[index + 1 :]
        rerolls = self.rerolls[:index] + (self.rerolls[index] + (source,),) + self.rerolls[index + 1 :]
        return Roll(dice, rerolls, self.edition, self.faces)


@dataclass(frozen=True)
class Reroll:
    """One re-roll as the table says it: die `die` (of the dice as first rolled, from 0) now shows `value`."""

    die: int
    value: int
    by: RerollSource


def rerolled(edition: Edition, dice: Sequence[int], rerolls: Sequence[Reroll], faces: int = 8,
             field: str = "rerolls") -> Roll:  # fmt: skip
    """The roll after `rerolls`, in the order made; RuleError naming the re-roll at fault and the rule."""
    roll = Roll.of(dice, faces, edition)
    for number, step in enumerate(rerolls):
        name = f"{field}[{number}]"
        if not 0 <= step.die < len(roll.dice):
            raise RuleError(f"{name}.die", f"there is no die {step.die} in a roll of {len(roll.dice)} dice (the first is 0)")
        _face(step.value, faces, f"{name}.value")
        roll = roll.reroll(step.die, step.value, step.by, faces, f"{name}.die")
    return roll


def _face(value: int, faces: int, field: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= faces:
        raise RuleError(field, f"a d{faces} has no face {shown(value)} (its faces are 1 to {faces})")
