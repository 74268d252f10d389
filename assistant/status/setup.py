"""Set-up by the number of Factions ("Setup"), and the game's fixed numbers."""

from __future__ import annotations

from collections.abc import Sequence

from assistant.status.errors import StatusError
from assistant.status.factions import Faction

ROUNDS = 4
""""End of the Game": the game ends at the end of the fourth round."""

OFFICIALS = 4
"""Personal Components: 4 Official pawns per Faction, numbered 1 to 4."""

OFFICIAL_VALUES = (1, 2, 3, 4)

PRIORITY_SPACE = 5
"""Setup 7: the Priority holder's Military indicator starts on space 5."""

START_STATUS = 1
"""Setup 12: each Status indicator starts on space 1 of the Status track."""

DECK = {2: 12, 3: 16, 4: 20}
"""Setup 2: the Event deck holds 12 cards with 2 players, 16 with 3, 20 with 4."""

MONITOR = {2: 3, 3: 4, 4: 5}
"""Setup 3 and Phase I: 3 cards on the Monitor with 2 Factions, 4 with 3, 5 with 4."""


def check_factions(factions: Sequence[Faction], field: str = "factions") -> None:
    """Nova Lectio: Status is played by 2 to 4 Factions, each at most once."""
    if not 2 <= len(factions) <= 4:
        raise StatusError(field, f"Status is played by 2 to 4 Factions, not {len(factions)}")
    for index, faction in enumerate(factions):
        if faction in factions[:index]:
            raise StatusError(f"{field}[{index}]", f"{faction.full_name} is at the table twice")


def deck_size(factions: int) -> int:
    """Setup 2: the Event deck's size for this many Factions."""
    if factions not in DECK:
        raise StatusError("factions", f"Status is played by 2 to 4 Factions, not {factions}")
    return DECK[factions]


def monitor_size(factions: int) -> int:
    """Setup 3 / Phase I: how many Event cards go on the Monitor each round."""
    if factions not in MONITOR:
        raise StatusError("factions", f"Status is played by 2 to 4 Factions, not {factions}")
    return MONITOR[factions]


def clockwise_from(factions: Sequence[Faction], first: Faction) -> tuple[Faction, ...]:
    """The Factions in seating order (`factions` is clockwise), starting from `first`."""
    at = list(factions).index(first)
    return tuple(factions[at:]) + tuple(factions[:at])


def starting_track(factions: Sequence[Faction], priority: Faction) -> dict[Faction, int]:
    """Setup 7: the Priority holder on space 5, then clockwise each other Faction on the free space of
    immediately higher value (6, 7, 8). Keys in seating order."""
    check_factions(factions)
    if priority not in factions:
        raise StatusError("priority", f"{priority.full_name} is not at the table")
    spaces = {faction: PRIORITY_SPACE + i for i, faction in enumerate(clockwise_from(factions, priority))}
    return {faction: spaces[faction] for faction in factions}
