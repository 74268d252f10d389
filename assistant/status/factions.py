"""The four Factions and the four Continents of Nova Lectio: Status ("The Factions", "End of the Game")."""

from __future__ import annotations

from enum import StrEnum

from assistant.rules.errors import shown
from assistant.status.errors import StatusError


class Faction(StrEnum):
    """A Faction, by the key the table and `resolve` use."""

    MANO = "mano"
    RAGIONE = "ragione"
    MILIZIA = "milizia"
    PUGNO = "pugno"

    @property
    def full_name(self) -> str:
        """The Faction's name as the book prints it ("Ragione di Stato")."""
        return TITLES[self]

    @classmethod
    def parse(cls, value: object, field: str = "faction") -> Faction:
        if isinstance(value, str):
            for faction in cls:
                if faction.value == value:
                    return faction
        raise StatusError(field, f"must be one of {', '.join(f.value for f in cls)}, not {shown(value)}")


TITLES: dict[Faction, str] = {
    Faction.MANO: "Mano Invisibile",
    Faction.RAGIONE: "Ragione di Stato",
    Faction.MILIZIA: "Nuova Milizia",
    Faction.PUGNO: "Pugno del Popolo",
}


class Continent(StrEnum):
    """The Continent symbols on the Event cards, in the order their majorities are counted
    ("End of the Game" 2a: America, Europe, Africa, Asia)."""

    AM = "AM"
    EU = "EU"
    AF = "AF"
    AS = "AS"

    @property
    def full_name(self) -> str:
        return {"AM": "America", "EU": "Europe", "AF": "Africa", "AS": "Asia"}[self.value]

