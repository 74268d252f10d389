"""The six phases of a round, in order ("How to Play"), and the game before and after them."""

from __future__ import annotations

from enum import StrEnum

from assistant.status.setup import ROUNDS


class Phase(StrEnum):
    SETUP = "setup"  # before the `start` event
    I = "I"  # noqa: E741 (the book's numeral)
    II = "II"
    III = "III"
    IV = "IV"
    V = "V"
    VI = "VI"
    END = "end"  # after the fourth round: the final score, then the game is over

    @property
    def heading(self) -> str:
        """The phase as the book heads it ("Phase III - Resolving the Events")."""
        return TITLES[self]


TITLES: dict[Phase, str] = {
    Phase.SETUP: "Setup",
    Phase.I: "Phase I - New Events",
    Phase.II: "Phase II - Sending the Officials",
    Phase.III: "Phase III - Resolving the Events",
    Phase.IV: "Phase IV - Collecting Income",
    Phase.V: "Phase V - Increasing Status",
    Phase.VI: "Phase VI - Establishing Priority",
    Phase.END: "End of the Game",
}

ROUND: tuple[Phase, ...] = (Phase.I, Phase.II, Phase.III, Phase.IV, Phase.V, Phase.VI)
""""How to Play": each round is made up of 6 phases, played in this order."""


def next_phase(round_number: int, phase: Phase) -> tuple[int, Phase]:
    """The round and phase after `phase`: Phase VI of round 4 leads to the end ("End of the Game"), Phase VI of an
    earlier round to Phase I of the next. (Phase I is skipped in round one: `start` begins at Phase II.)"""
    if phase is Phase.VI:
        return (round_number, Phase.END) if round_number >= ROUNDS else (round_number + 1, Phase.I)
    if phase in (Phase.SETUP, Phase.END):
        return round_number, phase
    return round_number, ROUND[ROUND.index(phase) + 1]
