"""The Perilium: a Hero's Threat Level (first edition: Threat Value, TV)."""

from __future__ import annotations

from dataclasses import dataclass

from assistant.rules.edition import Edition

# Renaissance "KO Hero" and "Threat Level"; first edition "Perilium": heroes out of action -2 TV.
KO_THREAT = -2

# Neither rulebook gives the Perilium a highest value (Renaissance "Perilium" and "Threat Level",
# first edition "Perilium": it starts at 0 and goes up point by point). The table's dial stops at 99,
# two digits as the panel shows it, as it stops at 0: far above any mission's Threat Level (0 to 30).
MAX_THREAT = 99


@dataclass(frozen=True)
class ThreatCauses:
    """What one Action of a Hero did, as far as the Perilium cares."""

    wounds: int = 0  # wounds the Hero inflicted (not those of a Status Token)
    unblockable: bool = False  # some of them were Unblockable Wounds
    critical: bool = False  # a Physical Attack inflicted 3 or more wounds
    defeated: int = 0  # enemies the Hero defeated
    healed: bool = False  # the Hero let a Friendly Model (themselves included) discard wounds


def threat_gain(edition: Edition, causes: ThreatCauses) -> int:
    """Threat the Hero gains for one Action.

    Renaissance "Threat Level": +1 for inflicting at least 1 Wound, +1 for Unblockable Wounds,
    +1 for a Critical (even against an Enemy immune to it), +1 for each Enemy defeated, +1 for
    letting a Friendly Model discard Wounds. First edition "Perilium": +1 wound, +1 kill.
    """
    gain = (1 if causes.wounds > 0 else 0) + causes.defeated
    if edition is Edition.RENAISSANCE:
        gain += int(causes.wounds > 0 and causes.unblockable) + int(causes.critical) + int(causes.healed)
    return gain


def adjust(threat: int, delta: int) -> int:
    """The dial after a change; it shows no value below 0 nor above MAX_THREAT.

    >>> adjust(98, 5), adjust(1, KO_THREAT), adjust(0, 10**26)
    (99, 0, 99)
    """
    return max(0, min(MAX_THREAT, threat + delta))
