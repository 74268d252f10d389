"""Nova Lectio: Status, the pure rules core (no I/O, no clock, no randomness); docs/status.md says more.

Public API (stable):

State
    StatusGame      frozen; fields seats (Seat: faction, military, status, cards, military_income; clockwise),
                    priority, round (1-4), phase (Phase: setup, I..VI, end), deck, monitor (positions of the
                    Event cards on the Monitor, 1 = leftmost), officials (Official: faction, card | newspaper,
                    value or None while face down), increased (Phase V turns taken), winner, count, notes
                    (what the last event did, in words). Properties factions, track, status, turn_order,
                    to_play (whose turn in Phase II / V), next_card (Phase III), over.
                    to_dict() / StatusGame.from_dict(data) for snapshots.
    new_game()      the table before `start`.
    apply(state, event) -> StatusGame
                    event: an event value or its JSON object; raises StatusError (a RuleError, so a
                    ValueError) whose message says why in a player's words, and `field` names the field.

Events (JSON objects with "type"; event_from_dict / event_to_dict; Faction keys mano, ragione, milizia, pugno)
    start            factions [clockwise], priority, military_income [optional; default: milizia if playing]
    send_official    faction, card (Monitor position) | newspaper (space number), value (1-4, or null face down)
    military         faction, steps (negative: back), cost (bool, default false)
    status           faction, points (negative: lost), cost (bool, default false)
    resolve_card     officials {faction: [values]}, reward (Status points, default 0), card (optional check)
    increase_status  faction, points (0, 1 or 2)
    advance          (none): ends the phase; the next one does what needs no choice
    final_score      assets {faction: n}, continents {faction: {"AM": n, "EU": n, "AF": n, "AS": n}}

Functions (track: Mapping[Faction, int] of Military spaces; each returns new values)
    military.move(track, faction, steps) -> dict          pushing and swapping
    military.break_tie(track, tied) -> Tie(winner, track)   furthest ahead wins, steps back
    scoring.priority(status, track) -> Faction            Phase VI
    scoring.resolve_card(officials, track) -> CardResult(sums, winner, track, tied)
    scoring.final_score(status, assets, continents, track) -> FinalScore(status, track, winner, awards)
    setup.starting_track(factions, priority), setup.deck_size(n), setup.monitor_size(n)
    wire.OPERATIONS      the `nova-table resolve` ops status_military, status_tie, status_priority, status_final
"""

from __future__ import annotations

from assistant.status.errors import StatusError
from assistant.status.events import (
    Advance,
    Event,
    FinalScoring,
    IncreaseStatus,
    MilitaryMove,
    ResolveCard,
    SendOfficial,
    Start,
    StatusChange,
    event_from_dict,
    event_to_dict,
)
from assistant.status.factions import Continent, Faction
from assistant.status.game import Official, Seat, StatusGame, apply, new_game
from assistant.status.military import Tie, break_tie, move
from assistant.status.phases import Phase
from assistant.status.scoring import CardResult, FinalScore, final_score, priority, resolve_card
from assistant.status.setup import deck_size, monitor_size, starting_track

__all__ = [
    "Advance", "CardResult", "Continent", "Event", "Faction", "FinalScore", "FinalScoring", "IncreaseStatus",
    "MilitaryMove", "Official", "Phase", "ResolveCard", "Seat", "SendOfficial", "Start", "StatusChange",
    "StatusError", "StatusGame", "Tie", "apply", "break_tie", "deck_size", "event_from_dict", "event_to_dict",
    "final_score", "monitor_size", "move", "new_game", "priority", "resolve_card", "starting_track",
]
