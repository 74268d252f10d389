"""Who wins what: an Event card in Phase III, Priority in Phase VI, and the final score ("End of the Game")."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from assistant.status.errors import StatusError
from assistant.status.factions import Continent, Faction
from assistant.status.military import break_tie, furthest_ahead, furthest_back

MAX_PHASE_V = 2
"""Phase V: at most 2 Status points in this phase."""


def phase_v_points(sets: int) -> int:
    """Phase V: 1 Economy + 1 Politics + 1 Consensus for 1 Status point, or 2 of each for 2; no more."""
    if sets < 0:
        raise StatusError("points", f"a Faction discards 0, 1 or 2 sets of Assets, not {sets}")
    if sets > MAX_PHASE_V:
        raise StatusError(
            "points",
            f"at most {MAX_PHASE_V} Status points in the Increasing Status phase, not {sets}, "
            "even with more Assets to discard",
        )
    return sets


@dataclass(frozen=True)
class Majority:
    """Who has the most of something, the tie settled on the Military track if there was one."""

    winner: Faction | None  # None: nobody has any
    track: dict[Faction, int]
    tied: tuple[Faction, ...] = ()  # the Factions that tied, when the track settled it


def majority(counts: Mapping[Faction, int], track: Mapping[Faction, int]) -> Majority:
    """The Faction with the most, a tie won by the Faction furthest ahead on the Military track, which then moves
    back one space ("Military Power" 2). When nobody has any, nobody has the most (a choice: docs/status.md)."""
    best = max(counts.values(), default=0)
    if best <= 0:
        return Majority(None, dict(track))
    leaders = tuple(f for f in counts if counts[f] == best)
    if len(leaders) == 1:
        return Majority(leaders[0], dict(track))
    tie = break_tie(track, leaders)
    return Majority(tie.winner, tie.track, leaders)


@dataclass(frozen=True)
class CardResult:
    """Phase III for one Event card: each Faction's sum, who takes the card (and its Reward), the track after."""

    sums: dict[Faction, int]
    winner: Faction
    track: dict[Faction, int]
    tied: tuple[Faction, ...] = ()


def resolve_card(officials: Mapping[Faction, Sequence[int]], track: Mapping[Faction, int]) -> CardResult:
    """Phase III 1-3: add up the values of each Faction's Officials on the card; the highest sum takes the
    Reward and the card, ties resolved as usual (the Military rule)."""
    sums = {faction: sum(values) for faction, values in officials.items() if values}
    if not sums:
        raise StatusError("officials", "a card with no Official goes back in the box: nobody takes it")
    result = majority(sums, track)
    assert result.winner is not None  # Official values are 1 to 4
    return CardResult(sums, result.winner, result.track, result.tied)


def priority(status: Mapping[Faction, int], track: Mapping[Faction, int]) -> Faction:
    """Phase VI: the Faction with fewer Status points takes the Priority token; in a tie, the Faction furthest
    back on the Military track, and nobody moves."""
    if not status:
        raise StatusError("status", "no Faction to take the Priority token")
    fewest = min(status.values())
    return furthest_back(track, [f for f in status if status[f] == fewest])


@dataclass(frozen=True)
class Award:
    """Status points given at the end, and what for."""

    faction: Faction
    points: int
    why: str
    tied: tuple[Faction, ...] = ()  # a tie the Military track settled for it


@dataclass(frozen=True)
class FinalScore:
    status: dict[Faction, int]
    track: dict[Faction, int]
    winner: Faction
    awards: tuple[Award, ...]


def complete_sets(counts: Mapping[Continent, int]) -> int:
    """"End of the Game" 2b: complete sets of the four Continents."""
    return min(counts.get(continent, 0) for continent in Continent)


def final_score(
    status: Mapping[Faction, int],
    assets: Mapping[Faction, int],
    continents: Mapping[Faction, Mapping[Continent, int]],
    track: Mapping[Faction, int],
) -> FinalScore:
    """"End of the Game": 1. the most Assets +1; 2a. each Continent's majority +1, counted America, Europe,
    Africa, Asia, each tie settled on the track as it stands then; 2b. +1 per complete set of four Continents.
    The most Status points wins; a tie goes to the highest Military Power."""
    for name, table in (("assets", assets), ("continents", continents)):
        if set(table) != set(status):
            raise StatusError(name, "must name the same Factions as the Status points: " + ", ".join(status))
    points = dict(status)
    now = dict(track)
    awards: list[Award] = []
    steps: list[tuple[str, Mapping[Faction, int]]] = [("the most Assets", assets)]
    steps += [(f"the most {c.full_name} symbols", {f: continents[f].get(c, 0) for f in status}) for c in Continent]
    for why, counts in steps:
        result = majority(counts, now)
        now = result.track
        if result.winner is not None:
            points[result.winner] += 1
            awards.append(Award(result.winner, 1, why, result.tied))
    for faction in status:
        sets = complete_sets(continents[faction])
        if sets:
            points[faction] += sets
            awards.append(Award(faction, sets, f"{sets} complete set{'s' if sets > 1 else ''} of four Continents"))
    best = max(points.values())
    winner = furthest_ahead(now, [f for f in points if points[f] == best])
    return FinalScore(points, now, winner, tuple(awards))
