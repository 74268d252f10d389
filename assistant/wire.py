"""Reading rules requests from JSON objects and writing the answers (for `resolve` and scripts)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from assistant.rules.combat import (
    Target,
    enemy_physical_attack,
    enemy_psychic_attack,
    hero_physical_attack,
    hero_psychic_attack,
)
from assistant.rules.dice import DEFAULT_THRESHOLD, Astro, astro, check_dice, successes
from assistant.rules.edition import Edition
from assistant.rules.errors import RuleError
from assistant.rules.horologium import Clock, Side, Token, check_sector, forced_wait, next_activation


class Fields:
    """The fields of one request object, read with checks; unknown fields are refused at the end."""

    def __init__(self, data: Mapping[str, Any], prefix: str = "", known: set[str] | None = None) -> None:
        self.data = data
        self.prefix = prefix
        self.used: set[str] = set(known or ())

    def name(self, key: str) -> str:
        return f"{self.prefix}{key}"

    def has(self, key: str) -> bool:
        return key in self.data

    def raw(self, key: str, default: Any = ..., required: bool = True) -> Any:
        self.used.add(key)
        if key in self.data:
            return self.data[key]
        if default is ... and required:
            raise RuleError(self.name(key), "missing")
        return None if default is ... else default

    def int(self, key: str, default: Any = ..., low: int | None = None, high: int | None = None) -> int:
        value = self.raw(key, default)
        if isinstance(value, bool) or not isinstance(value, int):
            raise RuleError(self.name(key), f"must be a whole number, not {value!r}")
        if low is not None and value < low:
            raise RuleError(self.name(key), f"must be at least {low}, not {value}")
        if high is not None and value > high:
            raise RuleError(self.name(key), f"must be at most {high}, not {value}")
        return value

    def bool(self, key: str, default: Any = ...) -> bool:
        value = self.raw(key, default)
        if not isinstance(value, bool):
            raise RuleError(self.name(key), f"must be true or false, not {value!r}")
        return value

    def str(self, key: str, default: Any = ...) -> str:
        value = self.raw(key, default)
        if not isinstance(value, str) or not value:
            raise RuleError(self.name(key), f"must be a non-empty string, not {value!r}")
        return value

    def choice(self, key: str, options: tuple[str, ...], default: Any = ...) -> str:
        value = self.raw(key, default)
        if value not in options:
            raise RuleError(self.name(key), f"must be one of {', '.join(options)}, not {value!r}")
        return str(value)

    def list(self, key: str, default: Any = ...) -> list[Any]:
        value = self.raw(key, default)
        if not isinstance(value, list):
            raise RuleError(self.name(key), f"must be a list, not {value!r}")
        return value

    def dice(self, key: str = "dice", faces: int = 8) -> tuple[int, ...]:
        return check_dice(self.list(key), faces, self.name(key))

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
            raise RuleError(self.name(key), f"must be an object, not {value!r}")
        return Fields(value, f"{self.name(key)}.")

    def items(self, key: str) -> list[Fields]:
        values = self.list(key)
        for index, value in enumerate(values):
            if not isinstance(value, dict):
                raise RuleError(f"{self.name(key)}[{index}]", f"must be an object, not {value!r}")
        return [Fields(value, f"{self.name(key)}[{index}].") for index, value in enumerate(values)]

    def edition(self) -> Edition:
        return Edition.parse(self.raw("edition", "renaissance"), self.name("edition"))

    def finish(self) -> None:
        unknown = sorted(set(self.data) - self.used)
        if unknown:
            raise RuleError(self.name(unknown[0]), "unknown field (expected: " + ", ".join(sorted(self.used)) + ")")


def answer_test(f: Fields) -> dict[str, Any]:
    edition = f.edition()
    dice = f.dice()
    threshold = f.int("threshold", DEFAULT_THRESHOLD, low=1)
    modifier = f.int("modifier", 0)
    return {
        "successes": successes(edition, dice, threshold, modifier),
        "astro": astro(dice, edition).as_dict(),
    }


def _target(f: Fields) -> Target:
    target = f.object("target")
    assert target is not None
    result = Target(
        health=target.int("health", low=1),
        wounds=target.int("wounds", 0, low=0),
        immune_to_critical=target.bool("immune_to_critical", False),
    )
    target.finish()
    return result


def _astro_wounds(f: Fields) -> dict[Astro, int]:
    table = f.object("astro_wounds", None)
    if table is None:
        return {}
    result = {symbol: table.int(symbol.value, 0, low=0) for symbol in Astro}
    table.finish()
    return result


def answer_hero_attack(f: Fields) -> dict[str, Any]:
    edition = f.edition()
    kind = f.choice("kind", ("physical", "psychic"))
    dice = f.dice()
    defense = f.int("defense", low=1)
    target = _target(f)
    modifier = f.int("modifier", 0)
    bonus = f.int("bonus_successes", 0, low=0)
    if kind == "physical":
        result = hero_physical_attack(
            edition, dice, defense, target, modifier, bonus, unblockable=f.bool("unblockable", False)
        )
    else:
        result = hero_psychic_attack(
            edition,
            dice,
            defense,
            required=f.int("required", low=1),
            effect_wounds=f.int("effect_wounds", low=0),
            target=target,
            modifier=modifier,
            bonus_successes=bonus,
            astro_wounds=_astro_wounds(f),
        )
    return {
        "successes": result.successes,
        "wounds": result.wounds,
        "critical": result.critical,
        "defeated": result.defeated,
        "threat": result.threat,
    }


def answer_enemy_attack(f: Fields) -> dict[str, Any]:
    edition = f.edition()
    kind = f.choice("kind", ("physical", "psychic"))
    threshold = f.int("threshold", DEFAULT_THRESHOLD, low=1)
    dice = f.dice()
    modifier = f.int("modifier", 0)
    if kind == "physical":
        hit = enemy_physical_attack(edition, f.int("hits", low=0), threshold, dice, modifier)
        return {"successes": hit.successes, "wounds": hit.wounds}
    spell = enemy_psychic_attack(
        edition, f.int("contrast", low=0), threshold, dice, f.int("effect_wounds", low=0), modifier
    )
    return {"successes": spell.successes, "resisted": spell.resisted, "wounds": spell.wounds}


def read_token(f: Fields) -> Token:
    side = Side.parse(f.raw("side"), f.name("side"))
    token = Token(
        id=f.str("id"),
        side=side,
        sector=f.sector("sector"),
        swiftness=f.int("swiftness", 0, low=0),
        ko=f.bool("ko", False),
    )
    f.finish()
    return token


def answer_next_activation(f: Fields) -> dict[str, Any]:
    f.edition()  # both editions order a sector the same way
    clock = Clock(hour=f.int("hour", low=0), minute=f.sector("minute"))
    tokens = [read_token(item) for item in f.items("tokens")]
    seen: set[str] = set()
    for index, token in enumerate(tokens):
        if token.id in seen:
            raise RuleError(f"tokens[{index}].id", f"{token.id!r} is on the Horologium twice")
        seen.add(token.id)
    done = [str(x) for x in f.list("done", [])]
    activation = next_activation(clock, tokens, done)
    return {
        "minute": activation.clock.minute,
        "hour": activation.clock.hour,
        "order": list(activation.order),
        "ties": [list(group) for group in activation.ties],
    }


def answer_forced_wait(f: Fields) -> dict[str, Any]:
    f.edition()
    enemies = f.list("enemy_sectors")
    sectors = [check_sector(s, f"enemy_sectors[{i}]") for i, s in enumerate(enemies)]
    wait, end = forced_wait(f.sector("start"), f.sector("position"), f.int("ap_left", low=0), sectors)
    return {"wait": wait, "end": end}
