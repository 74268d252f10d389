"""A whole game of Nova Lectio: Status for three Factions, four rounds, as the events a table enters, and its
outcome worked out by hand from the rulebook (not by the core).

The table: Mano Invisibile, Ragione di Stato, Nuova Milizia clockwise, the Mano holding Priority. Setup 7 puts
the Mano on Military space 5, the Ragione on 6, the Milizia on 7; Setup 11, its Military Income token, moves
the Milizia to 8. Everyone starts on Status 1.

Every round each Faction sends its four Officials to "its" card (Mano card 1, Ragione card 2, Milizia card 3),
1, 2 and 3 face up and the last face down (its 4, shown in Phase III); card 4 has none and goes back in the box.
Each Faction takes its card: the Mano's and the Ragione's Reward is 1 Status, the Milizia's an Income token (0).
Phase IV moves the Milizia one space forward (its Military Income token). Phase V: the Milizia discards two sets
(+2), the others none. So each round: Mano +1, Ragione +1, Milizia +2; after four rounds 5, 5 and 9. Phase VI:
the Mano and the Ragione tie on the fewest; the Mano is further back (5 against 6): it keeps the Priority token.
The Milizia ends on Military space 12.

The final count (`FINAL`): Assets Mano 3, Ragione 5, Milizia 1: the Ragione +1. America: Mano 2, Ragione 2, a tie
the Ragione wins (6 against 5) and steps back to 5, swapping with the Mano (6). Europe: the Ragione +1. Africa: the
Milizia +1. Asia: 1 each, a tie the Milizia wins (12), stepping back to 11. Sets of four: the Mano has one (+1).
Mano 6, Ragione 8, Milizia 11: the Milizia wins.
"""

from __future__ import annotations

from typing import Any

FACTIONS = ("mano", "ragione", "milizia")
PRIORITY = "mano"
CARD = {"mano": 1, "ragione": 2, "milizia": 3}
REWARD = {"mano": 1, "ragione": 1, "milizia": 0}
PHASE_V = {"mano": 0, "ragione": 0, "milizia": 2}

FINAL = {
    "type": "final_score",
    "assets": {"mano": 3, "ragione": 5, "milizia": 1},
    "continents": {
        "mano": {"AM": 2, "EU": 1, "AF": 1, "AS": 1},
        "ragione": {"AM": 2, "EU": 2, "AF": 0, "AS": 1},
        "milizia": {"AM": 0, "EU": 1, "AF": 2, "AS": 1},
    },
}

OUTCOME = {"status": {"mano": 6, "ragione": 8, "milizia": 11}, "military": {"mano": 6, "ragione": 5, "milizia": 11},
           "winner": "milizia"}  # fmt: skip
BEFORE_THE_COUNT = {"status": {"mano": 5, "ragione": 5, "milizia": 9}, "military": {"mano": 5, "ragione": 6, "milizia": 12}}


def one_round(first: bool) -> list[dict[str, Any]]:
    """The events of one round (round 1 starts in Phase II: Phase I was the setup)."""
    events: list[dict[str, Any]] = [] if first else [{"type": "advance"}]  # Phase VI -> Phase I: the cards drawn
    if not first:
        events.append({"type": "advance"})  # Phase I -> II
    for value in (1, 2, 3, None):  # clockwise from the Mano, one Official a turn
        for faction in FACTIONS:
            events.append({"type": "send_official", "faction": faction, "card": CARD[faction], "value": value})
    events.append({"type": "advance"})  # -> III: card 4, with no Official, back in the box
    for faction in FACTIONS:
        events.append({"type": "resolve_card", "card": CARD[faction], "officials": {faction: [1, 2, 3, 4]},
                       "reward": REWARD[faction]})  # fmt: skip
    events.append({"type": "advance"})  # -> IV: the Milizia's Military Income
    events.append({"type": "advance"})  # -> V
    for faction in FACTIONS:
        events.append({"type": "increase_status", "faction": faction, "points": PHASE_V[faction]})
    events.append({"type": "advance"})  # -> VI: Priority
    return events


def whole_game() -> list[dict[str, Any]]:
    """Four rounds, the end, and the final count."""
    events = [event for number in range(4) for event in one_round(number == 0)]
    return events + [{"type": "advance"}, FINAL]  # Phase VI of round 4 -> the end
