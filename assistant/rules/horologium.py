"""The Horologium: 12 sectors, the minute and hour hands, and the activation tokens on it.

Time is counted in sectors since hour 0, so the hour hand can never go back:

    hour 1, minute XII  ->  12      (the hour hand moves when the minute hand reaches XII)
    hour 1, minute XI   ->  23
    hour 2, minute XII  ->  24

        XII                 the minute hand turns clockwise, I, II, ... XII, I, ...
     XI     I               it stops at the first sector holding a token (the one it is
   X          II            on included); it moves on when every token there has acted
   IX         III           (KO Heroes' tokens stay put: they draw an Injury instead)
   VIII       IV
     VII    V
         VI
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from itertools import groupby

from assistant.rules.edition import Edition
from assistant.rules.errors import RuleError, shown

SECTORS = 12


class Side(Enum):
    HERO = "hero"
    ENEMY = "enemy"
    EVENT = "event"  # Event and Mystery tokens: resolved before any activation in their sector

    @classmethod
    def parse(cls, value: object, field: str = "side") -> Side:
        for side in cls:
            if value == side.value:
                return side
        if value == "mystery":
            return cls.EVENT
        raise RuleError(field, f"must be 'hero', 'enemy' or 'event', not {shown(value)}")


ROMAN = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII")


def roman(sector: int) -> str:
    return ROMAN[sector - 1]


def check_sector(sector: object, field: str = "sector") -> int:
    if isinstance(sector, bool) or not isinstance(sector, int) or not 1 <= sector <= SECTORS:
        raise RuleError(field, f"must be a sector from 1 (I) to 12 (XII), not {shown(sector)}")
    return sector


def ahead(start: int, sector: int) -> int:
    """Sectors the hand or a token moves clockwise from `start` to reach `sector` (0 to 11)."""
    return (sector - start) % SECTORS


def step(sector: int, sectors: int) -> int:
    """The sector `sectors` ahead of `sector`."""
    return (sector - 1 + sectors) % SECTORS + 1


@dataclass(frozen=True)
class Clock:
    """The two hands: `minute` is the sector (1..12) the minute hand points at."""

    hour: int
    minute: int

    def __post_init__(self) -> None:
        check_sector(self.minute, "minute")
        if self.hour < 0:
            raise RuleError("hour", f"must be 0 or more, not {self.hour}")

    @property
    def absolute(self) -> int:
        return self.hour * SECTORS + self.minute % SECTORS

    @classmethod
    def at(cls, absolute: int) -> Clock:
        return cls(absolute // SECTORS, absolute % SECTORS or SECTORS)

    def forward(self, sectors: int) -> Clock:
        """The hands after the minute hand turns `sectors` sectors (the hour hand follows at XII)."""
        if sectors < 0:
            raise RuleError("sectors", "the hands never turn back")
        return Clock.at(self.absolute + sectors)


def first_reached(start: int, hour: int, minute: int, after: bool = False) -> int:
    """When the hands first show `hour` and sector `minute` at `start` or later (later only, with `after`).

    The hour hand goes round its 12 hours: a mission that starts at hour 11 and ends at hour 1 ends
    two hours on ("End of a Mission": when the hands reach a specific time). Times count as `Clock.absolute`.
    """
    at = Clock(hour, minute).absolute
    turn = 12 * SECTORS  # the hour hand's whole round
    while at < start or (after and at == start):
        at += turn
    return at


@dataclass(frozen=True)
class Token:
    id: str
    side: Side
    sector: int
    swiftness: int = 0
    ko: bool = False  # a KO Hero's token, turned to its KO side

    def __post_init__(self) -> None:
        check_sector(self.sector)
        if self.ko and self.side is not Side.HERO:
            raise RuleError("ko", f"only a Hero's token can be KO, not the {self.side.value} token {shown(self.id)}")

    def moved(self, sectors: int) -> Token:
        """The token after moving `sectors` sectors clockwise.

        Renaissance "Action Points": a Hero's token advances one sector per AP spent, an Enemy's
        by its Swiftness; "KO Hero": a KO Hero's token never leaves its sector.
        """
        if sectors < 0:
            raise RuleError("sectors", "tokens only move clockwise")
        if self.ko and sectors:
            raise RuleError("token", f"{shown(self.id)} is KO: a KO Hero's token never leaves its sector")
        return replace(self, sector=step(self.sector, sectors))


def sector_order(tokens: Iterable[Token]) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]:
    """The order inside one sector and the ties the players settle.

    Renaissance "Event Tokens": events first. "Models Activation" (first edition "Activation"):
    highest Swiftness first; Enemies before Heroes on equal Swiftness; ties among Enemies or
    among Heroes are the players' to order. A tie group keeps its place in the order.
    """
    listed = list(tokens)
    events = [t.id for t in listed if t.side is Side.EVENT]
    models = sorted(
        (t for t in listed if t.side is not Side.EVENT),
        key=lambda t: (-t.swiftness, 0 if t.side is Side.ENEMY else 1),
    )
    order: list[str] = list(events)
    ties: list[tuple[str, ...]] = []
    for _, grouped in groupby(models, key=lambda t: (t.swiftness, t.side)):
        group = tuple(t.id for t in grouped)
        order.extend(group)
        if len(group) > 1:
            ties.append(group)
    return tuple(order), tuple(ties)


@dataclass(frozen=True)
class Activation:
    clock: Clock
    order: tuple[str, ...]
    ties: tuple[tuple[str, ...], ...]


def next_activation(clock: Clock, tokens: Sequence[Token], done: Iterable[str] = ()) -> Activation:
    """Where the minute hand stops next, and who acts there in what order.

    Renaissance "Horologium": the hand moves to the next sector holding a token, the one it is on
    included while a token there has still to act (`done`: tokens that already acted in this
    visit; a KO Hero's token stays put, so the hand meets it again a full turn later). The hour
    hand moves when the minute hand reaches or passes XII.
    """
    if not tokens:
        raise RuleError("tokens", "there is no token on the Horologium")
    finished = set(done)

    def distance(token: Token) -> int:
        return ahead(clock.minute, token.sector) or (SECTORS if token.id in finished else 0)

    nearest = min(distance(t) for t in tokens)
    stop = clock.forward(nearest)
    order, ties = sector_order(t for t in tokens if t.sector == stop.minute and distance(t) == nearest)
    return Activation(stop, order, ties)


def forced_wait(start: int, position: int, ap_left: int, enemy_sectors: Sequence[int],
                edition: Edition) -> tuple[int, int]:  # fmt: skip
    """The Wait a Hero must take at the end of an activation, as far as the AP left allow.

    Renaissance "Hero or Ally Activation" 2e: a Hero who did not reach or pass an Enemy's token
    spends AP to reach the first sector with one. An Enemy token in the sector where the Hero
    started does not count as reached; with only one Enemy token on the Horologium, the rule does
    not apply. First edition "Activation": "in any case" the Hero spends AP until the first sector
    with an Enemy token has been passed, reaching it being enough (Example 3); one in the starting
    sector is passed by any move (as for its reactions, `overtaken`), and a single token counts.
    `enemy_sectors` holds one entry per Enemy activation token. Returns (wait, end sector).
    """
    check_sector(start, "start")
    check_sector(position, "position")
    for index, sector in enumerate(enemy_sectors):
        check_sector(sector, f"enemy_sectors[{index}]")
    if ap_left < 0:
        raise RuleError("ap_left", f"must be 0 or more, not {ap_left}")
    renaissance = edition is Edition.RENAISSANCE
    if ap_left == 0 or not enemy_sectors or (renaissance and len(enemy_sectors) == 1):
        return 0, position
    moved = ahead(start, position)
    here = SECTORS if renaissance else 1  # how far the Hero's token goes to count a starting-sector token
    distances = [ahead(start, sector) or here for sector in enemy_sectors]
    if any(distance <= moved for distance in distances):
        return 0, position
    wait = min(min(distances) - moved, ap_left)
    return wait, step(position, wait)


def overtaken(start: int, moved: int, enemies: Iterable[Token]) -> tuple[str, ...]:
    """First edition "Reaction": the Enemy tokens a Hero's token passes when it moves `moved` sectors.

    An Enemy token still in the Hero's starting sector has not acted yet, so moving off passes it;
    one in the sector where the Hero's token stops is reached, not passed.
    """
    return tuple(t.id for t in enemies if t.side is Side.ENEMY and ahead(start, t.sector) < moved)
