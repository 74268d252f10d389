"""The two editions of Nova Aetas the rules serve, chosen per game."""

from __future__ import annotations

from enum import Enum

from assistant.rules.errors import RuleError, shown


class Edition(Enum):
    CLASSIC = "classic"  # Nova Aetas, first edition
    RENAISSANCE = "renaissance"  # Nova Aetas Renaissance

    @classmethod
    def parse(cls, value: object, field: str = "edition") -> Edition:
        if isinstance(value, Edition):
            return value
        for edition in cls:
            if value == edition.value:
                return edition
        raise RuleError(field, f"must be 'classic' or 'renaissance', not {shown(value)}")


CLASSIC_WORDS = {  # first edition: the hero sheet's "Rapidity, Mastery, Physical, Mind", "TV", "Mental attack", "out of action"
    "Swiftness": "Rapidity", "Physique": "Physical", "Threat": "TV", "Threat Level": "TV", "Psychic": "Mental",
    "KO": "out of action",
}  # fmt: skip


def term(edition: Edition, word: str) -> str:
    """A Renaissance word as `edition`'s rulebook says it: "Swiftness" is "Rapidity" in the first edition."""
    return CLASSIC_WORDS.get(word, word) if edition is Edition.CLASSIC else word
