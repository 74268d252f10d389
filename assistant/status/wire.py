"""The Status operations of `nova-table resolve`: JSON objects in, JSON objects out; errors name the field."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from assistant.rules.fields import Fields
from assistant.status.errors import StatusError
from assistant.status.events import continents, count, per_faction
from assistant.status.factions import Faction
from assistant.status.military import break_tie, check_track, move
from assistant.status.scoring import final_score, priority

T = TypeVar("T")


def _space(f: Fields, key: str) -> int:
    return f.integer(key, low=1)


def _track(f: Fields) -> dict[Faction, int]:
    track = per_faction(f, "track", _space)
    if len(track) < 2:
        raise StatusError("track", f"Status is played by 2 to 4 Factions: the track holds {len(track)}")
    check_track(track)
    return track


def _same(f: Fields, key: str, track: Mapping[Faction, int], read: Callable[[Fields, str], T]) -> dict[Faction, T]:
    """A table keyed by the Factions on the track, all of them and no other."""
    table = per_faction(f, key, read)
    for faction in track:
        if faction not in table:
            raise StatusError(f"{key}.{faction}", f"missing ({faction.full_name} is on the track)")
    for faction in table:
        if faction not in track:
            raise StatusError(f"{key}.{faction}", f"{faction.full_name} is not on the track")
    return {faction: table[faction] for faction in track}


def _out(table: Mapping[Faction, int]) -> dict[str, int]:
    return {str(faction): value for faction, value in table.items()}


def answer_military(f: Fields) -> dict[str, Any]:
    """"Military Power": one Faction moves `steps` spaces (negative: back), pushing and swapping."""
    track = _track(f)
    faction = Faction.parse(f.raw("faction"), f.name("faction"))
    if faction not in track:
        raise StatusError("faction", f"{faction.full_name} is not on the track")
    return {"track": _out(move(track, faction, f.integer("steps")))}


def answer_tie(f: Fields) -> dict[str, Any]:
    """"Military Power" 2: a tie (outside Phase VI) goes to the Faction furthest ahead, which steps back."""
    track = _track(f)
    tied: list[Faction] = []
    for index, item in enumerate(f.array("tied")):
        faction = Faction.parse(item, f"tied[{index}]")
        if faction in tied:
            raise StatusError(f"tied[{index}]", f"{faction.full_name} is named twice")
        if faction not in track:
            raise StatusError(f"tied[{index}]", f"{faction.full_name} is not on the track")
        tied.append(faction)
    if len(tied) < 2:
        raise StatusError("tied", "a tie needs two Factions or more")
    tie = break_tie(track, tied)
    return {"winner": str(tie.winner), "track": _out(tie.track)}


def answer_priority(f: Fields) -> dict[str, Any]:
    """Phase VI: fewest Status points takes Priority; a tie, the Faction furthest back; nobody moves."""
    track = _track(f)
    return {"priority": str(priority(_same(f, "status", track, count), track))}


def answer_final(f: Fields) -> dict[str, Any]:
    """End of the Game: Assets, Continent majorities (America, Europe, Africa, Asia), sets; the winner."""
    track = _track(f)
    status = _same(f, "status", track, count)
    score = final_score(status, _same(f, "assets", track, count), _same(f, "continents", track, continents), track)
    return {"status": _out(score.status), "track": _out(score.track), "winner": str(score.winner)}


OPERATIONS: Mapping[str, Callable[[Fields], dict[str, Any]]] = {
    "status_military": answer_military,
    "status_tie": answer_tie,
    "status_priority": answer_priority,
    "status_final": answer_final,
}
