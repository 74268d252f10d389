"""Reading a JSON object field by field, with errors that name the field at fault."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from assistant.rules.dice import Astro, AstroCount, Reroll, RerollSource, check_dice, rerolled
from assistant.rules.edition import Edition
from assistant.rules.bounds import DICE, ITEMS, NUMBER, TEXT
from assistant.rules.errors import RuleError, short, shown
from assistant.rules.horologium import check_sector


class Fields:
    """The fields of one request object, read with checks; unknown fields are refused at the end."""

    def __init__(self, data: Mapping[str, Any], prefix: str = "", known: set[str] | None = None) -> None:
        self.data = data
        self.prefix = prefix
        self.used: set[str] = set(known or ())

    def name(self, key: str) -> str:
        return f"{self.prefix}{short(key)}"

    def has(self, key: str) -> bool:
        return key in self.data

    def raw(self, key: str, default: Any = ..., required: bool = True) -> Any:
        self.used.add(key)
        if key in self.data:
            return self.data[key]
        if default is ... and required:
            raise RuleError(self.name(key), "missing")
        return None if default is ... else default

    def integer(self, key: str, default: Any = ..., low: int | None = None, high: int | None = None) -> int:
        value = self.raw(key, default)
        if isinstance(value, bool) or not isinstance(value, int):
            raise RuleError(self.name(key), f"must be a whole number, not {shown(value)}")
        if low is not None and value < low:
            raise RuleError(self.name(key), f"must be at least {low}, not {shown(value)}")
        if high is not None and value > high:
            raise RuleError(self.name(key), f"must be at most {high}, not {shown(value)}")
        if abs(value) > NUMBER:  # (a field's own bounds said first: they say more)
            raise RuleError(self.name(key), f"must be from {-NUMBER} to {NUMBER}, not {shown(value)}")
        return value

    def flag(self, key: str, default: Any = ...) -> bool:
        value = self.raw(key, default)
        if not isinstance(value, bool):
            raise RuleError(self.name(key), f"must be true or false, not {shown(value)}")
        return value

    def text(self, key: str, default: Any = ...) -> str:
        value = self.raw(key, default)
        if not isinstance(value, str) or not value:
            raise RuleError(self.name(key), f"must be a non-empty string, not {shown(value)}")
        if len(value) > TEXT:
            raise RuleError(self.name(key), f"must be at most {TEXT} characters, not {len(value)}: {shown(value)}")
        return value

    def choice(self, key: str, options: tuple[str, ...], default: Any = ...) -> str:
        value = self.raw(key, default)
        if value not in options:
            raise RuleError(self.name(key), f"must be one of {', '.join(options)}, not {shown(value)}")
        return str(value)

    def array(self, key: str, default: Any = ..., most: int = ITEMS) -> list[Any]:
        """A list of at most `most` items (`assistant.rules.bounds`)."""
        value = self.raw(key, default)
        if not isinstance(value, list):
            raise RuleError(self.name(key), f"must be a list, not {shown(value)}")
        if len(value) > most:
            raise RuleError(self.name(key), f"must hold at most {most} items, not {len(value)}")
        return value

    def dice(self, key: str = "dice", faces: int = 8) -> tuple[int, ...]:
        return check_dice(self.array(key, most=DICE), faces, self.name(key))

    def rolled(self, edition: Edition, faces: int = 8) -> tuple[int, ...]:
        """`dice` after `rerolls` (absent: none), a list in the order made of {"die": INDEX into the dice as first
        rolled, "value": FACE, "by": "hero" or "enemy", whose Effect causes it} (Renaissance "Dice Re-roll")."""
        dice = self.dice(faces=faces)
        steps = []
        for step in self.items("rerolls") if self.has("rerolls") else []:
            steps.append(Reroll(step.integer("die", low=0), step.integer("value"),
                                RerollSource(step.choice("by", tuple(source.value for source in RerollSource)))))  # fmt: skip
            step.finish()
        return rerolled(edition, dice, steps, faces, self.name("rerolls")).dice

    def sector(self, key: str) -> int:
        self.used.add(key)
        if key not in self.data:
            raise RuleError(self.name(key), "missing")
        return check_sector(self.data[key], self.name(key))

    def object(self, key: str, default: Any = ...) -> Fields | None:
        value = self.raw(key, default)
        if value is None and default is None:
            return None
        if not isinstance(value, dict):
            raise RuleError(self.name(key), f"must be an object, not {shown(value)}")
        return Fields(value, f"{self.name(key)}.")

    def items(self, key: str, most: int = ITEMS) -> list[Fields]:
        values = self.array(key, most=most)
        for index, value in enumerate(values):
            if not isinstance(value, dict):
                raise RuleError(f"{self.name(key)}[{index}]", f"must be an object, not {shown(value)}")
        return [Fields(value, f"{self.name(key)}[{index}].") for index, value in enumerate(values)]

    def astro(self, key: str) -> dict[AstroCount, int]:
        """Wounds per Astro Symbol, or per combination of them joined by "+" ("sun+star", "moon+moon": Renaissance
        "Astro Symbols", applied once per complete set rolled), e.g. {"moon": 1}; {} when the field is absent."""
        table = self.object(key, None)
        if table is None:
            return {}
        result: dict[AstroCount, int] = {}
        for name in table.data:
            parts = name.split("+")
            if not all(part in {symbol.value for symbol in Astro} for part in parts):
                raise RuleError(table.name(name), "unknown field (expected: sun, star, moon, or symbols joined by +: sun+star)")
            needed = AstroCount(**{symbol.value: parts.count(symbol.value) for symbol in Astro})
            result[needed] = result.get(needed, 0) + table.integer(name, 0, low=0)  # "star+sun" is "sun+star"
        return result

    def edition(self) -> Edition:
        return Edition.parse(self.raw("edition", "renaissance"), self.name("edition"))

    def finish(self) -> None:
        unknown = sorted(set(self.data) - self.used)
        if unknown:
            raise RuleError(self.name(unknown[0]), "unknown field (expected: " + ", ".join(sorted(self.used)) + ")")
