"""The Military track: moves with pushing and swapping, and the tie rule that steps the winner back.

A track is a mapping Faction -> space; functions return a new dict in the same key order and never
change the one given. Spaces are numbered from `FIRST_SPACE` up; the book prints no last space.

    forward 2, Ragione from 5 ("Military Power", Example 1):
        4     5     6     7                4     5     6     7
      [Man] [Rag] [Pug] [Mil]    ->      [Man] [Pug] [Mil] [Rag]
                   <----  <---- pushed left, one space each, into the space the Ragione left
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from assistant.rules.errors import shown
from assistant.status.errors import StatusError
from assistant.status.factions import Faction

FIRST_SPACE = 1
"""The lowest space of the Military track (a choice: the book numbers no end; set-up starts at 5)."""


def check_track(track: Mapping[Faction, int], field: str = "track") -> None:
    """"Each space of the track can hold at most one Military indicator" ("Military Power")."""
    seen: dict[int, Faction] = {}
    for faction, space in track.items():
        if isinstance(space, bool) or not isinstance(space, int):
            raise StatusError(f"{field}.{faction}", f"must be a whole number, not {shown(space)}")
        if space < FIRST_SPACE:
            raise StatusError(f"{field}.{faction}", f"the Military track starts at space {FIRST_SPACE}, not {space}")
        if space in seen:
            raise StatusError(
                f"{field}.{faction}",
                f"{faction.full_name} and {seen[space].full_name} are both on space {space}: a space holds one indicator",
            )
        seen[space] = faction


def move(track: Mapping[Faction, int], faction: Faction, steps: int) -> dict[Faction, int]:
    """"Military Power": `faction` moves `steps` spaces (negative: back). An indicator on the destination is
    pushed one space, to the left when moving forward and to the right when moving back, pushing the ones next
    to it in turn; a push of one space onto the mover's old space is the swap of Example 2. A move back past
    `FIRST_SPACE` stops there (a choice: see docs/status.md)."""
    if faction not in track:
        raise StatusError("faction", f"{faction.full_name} has no indicator on the Military track")
    spaces = dict(track)
    start = spaces.pop(faction)
    target = max(FIRST_SPACE, start + steps)
    if target != start:
        push = -1 if target > start else 1  # forward pushes left (back), back pushes right (forward)
        held = {space: who for who, space in spaces.items()}
        space = target
        while space in held:  # stops at the latest on `start`, free now
            spaces[held[space]] += push
            space += push
    spaces[faction] = target
    return {who: spaces[who] for who in track}


@dataclass(frozen=True)
class Tie:
    """A tie settled on the Military track: who won it, and the track after the winner stepped back."""

    winner: Faction
    track: dict[Faction, int]


def break_tie(track: Mapping[Faction, int], tied: Iterable[Faction]) -> Tie:
    """"Military Power" 2: in a tie (but Phase VI's) the Faction furthest ahead on the Military track wins, then
    moves back one space (swapping with the indicator there, if any)."""
    among = list(dict.fromkeys(tied))
    if len(among) < 2:
        raise StatusError("tied", "a tie needs two Factions or more")
    for faction in among:
        if faction not in track:
            raise StatusError("tied", f"{faction.full_name} has no indicator on the Military track")
    winner = max(among, key=lambda f: track[f])
    return Tie(winner, move(track, winner, -1))


def furthest_back(track: Mapping[Faction, int], among: Iterable[Faction]) -> Faction:
    """The Faction of `among` furthest back on the Military track (Phase VI's tie: nobody moves)."""
    return min(among, key=lambda f: track[f])


def furthest_ahead(track: Mapping[Faction, int], among: Iterable[Faction]) -> Faction:
    """The Faction of `among` with the highest Military Power (the winner's tie-break: nobody moves)."""
    return max(among, key=lambda f: track[f])
