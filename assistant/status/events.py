"""The events a Status game is folded from: frozen values, each one JSON object with a "type".

`event_from_dict` reads one (StatusError naming the field at fault), `event_to_dict` writes it back;
`event_from_dict(event_to_dict(e)) == e`. Faction keys: mano, ragione, milizia, pugno; Continent keys:
AM, EU, AF, AS.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from assistant.rules.errors import RuleError, shown
from assistant.rules.fields import Fields
from assistant.status.errors import StatusError
from assistant.status.factions import Continent, Faction
from assistant.status.setup import OFFICIAL_VALUES

T = TypeVar("T")


@dataclass(frozen=True)
class Start:
    """Setup: the Factions at the table in clockwise order, and the one the Priority token was drawn for.
    `military_income`: the Factions holding a Military Income token (None: the Nuova Milizia, if it plays)."""

    factions: tuple[Faction, ...]
    priority: Faction
    military_income: tuple[Faction, ...] | None = None
    type: ClassVar[str] = "start"


@dataclass(frozen=True)
class SendOfficial:
    """Phase II: `faction` sends an Official to the Event card at Monitor position `card` (1 = leftmost) or to
    Newspaper space `newspaper`; `value` 1-4 when sent face up, None when face down ("?")."""

    faction: Faction
    card: int | None = None
    newspaper: int | None = None
    value: int | None = None
    type: ClassVar[str] = "send_official"


@dataclass(frozen=True)
class MilitaryMove:
    """A move on the Military track (a card's Cost or Gain, an effect, a correction); `steps` < 0 moves back.
    With `cost` it is a Cost paid to send an Official: refused if it cannot be paid."""

    faction: Faction
    steps: int
    cost: bool = False
    type: ClassVar[str] = "military"


@dataclass(frozen=True)
class StatusChange:
    """Status points gained or lost (a Reward, an effect, a Cost, a correction); `points` < 0 loses.
    With `cost` it is a Cost paid to send an Official: refused if it cannot be paid."""

    faction: Faction
    points: int
    cost: bool = False
    type: ClassVar[str] = "status"


@dataclass(frozen=True)
class ResolveCard:
    """Phase III: the values of the Officials on the leftmost Event card still to resolve, per Faction, and the
    Status points of its Reward (0 for an Income token or none). `card`, if given, must be that card's position."""

    officials: Mapping[Faction, tuple[int, ...]]
    reward: int = 0
    card: int | None = None
    type: ClassVar[str] = "resolve_card"


@dataclass(frozen=True)
class IncreaseStatus:
    """Phase V: `faction`, in its turn, discards `points` sets of Economy + Politics + Consensus (0, 1 or 2)."""

    faction: Faction
    points: int
    type: ClassVar[str] = "increase_status"


@dataclass(frozen=True)
class Advance:
    """The current phase is over: the next one begins (what it does by itself, it does)."""

    type: ClassVar[str] = "advance"


@dataclass(frozen=True)
class FinalScoring:
    """End of the Game: the Assets behind each screen and the Continent symbols on each Faction's cards."""

    assets: Mapping[Faction, int]
    continents: Mapping[Faction, Mapping[Continent, int]]
    type: ClassVar[str] = "final_score"


Event = Start | SendOfficial | MilitaryMove | StatusChange | ResolveCard | IncreaseStatus | Advance | FinalScoring


def _faction(f: Fields, key: str = "faction") -> Faction:
    return Faction.parse(f.raw(key), f.name(key))


def _factions(f: Fields, key: str) -> tuple[Faction, ...]:
    return tuple(Faction.parse(item, f"{f.name(key)}[{i}]") for i, item in enumerate(f.array(key)))


def per_faction(f: Fields, key: str, read: Callable[[Fields, str], T]) -> dict[Faction, T]:
    """An object keyed by Faction, each value read by `read(fields, key)`."""
    table = f.object(key)
    assert table is not None
    return {Faction.parse(name, table.name(name)): read(table, name) for name in list(table.data)}


def count(f: Fields, key: str) -> int:
    return f.integer(key, low=0)


def _values(f: Fields, key: str) -> tuple[int, ...]:
    values = f.array(key)
    for i, value in enumerate(values):
        if isinstance(value, bool) or value not in OFFICIAL_VALUES:
            raise StatusError(f"{f.name(key)}[{i}]", f"an Official's value is 1, 2, 3 or 4, not {shown(value)}")
    return tuple(values)


def continents(f: Fields, key: str) -> dict[Continent, int]:
    table = f.object(key)
    assert table is not None
    result = {c: table.integer(c.value, 0, low=0) for c in Continent}
    table.finish()
    return result


def _start(f: Fields) -> Start:
    income = _factions(f, "military_income") if f.has("military_income") else None
    return Start(_factions(f, "factions"), _faction(f, "priority"), income)


def _send(f: Fields) -> SendOfficial:
    faction = _faction(f)
    card = f.integer("card", None, low=1) if f.has("card") else None
    newspaper = f.integer("newspaper", None, low=1) if f.has("newspaper") else None
    if (card is None) == (newspaper is None):
        raise StatusError("card", "an Official goes to one place: give either card (a Monitor position) or newspaper")
    value = f.raw("value", None)
    if value is not None:
        value = f.integer("value", low=1, high=4)
    return SendOfficial(faction, card, newspaper, value)


def _military(f: Fields) -> MilitaryMove:
    return MilitaryMove(_faction(f), f.integer("steps"), f.flag("cost", False))


def _status(f: Fields) -> StatusChange:
    return StatusChange(_faction(f), f.integer("points"), f.flag("cost", False))


def _resolve(f: Fields) -> ResolveCard:
    card = f.integer("card", low=1) if f.has("card") else None
    return ResolveCard(per_faction(f, "officials", _values), f.integer("reward", 0, low=0), card)


def _increase(f: Fields) -> IncreaseStatus:
    return IncreaseStatus(_faction(f), f.integer("points", low=0))


def _advance(f: Fields) -> Advance:
    return Advance()


def _final(f: Fields) -> FinalScoring:
    return FinalScoring(per_faction(f, "assets", count), per_faction(f, "continents", continents))


READERS: Mapping[str, Callable[[Fields], Event]] = {
    Start.type: _start,
    SendOfficial.type: _send,
    MilitaryMove.type: _military,
    StatusChange.type: _status,
    ResolveCard.type: _resolve,
    IncreaseStatus.type: _increase,
    Advance.type: _advance,
    FinalScoring.type: _final,
}


def event_from_dict(data: Mapping[str, Any]) -> Event:
    """The event a JSON object describes; StatusError naming the field at fault."""
    if not isinstance(data, Mapping):
        raise StatusError("event", f"must be a JSON object, not {shown(data)}")
    try:
        f = Fields(data, known={"type"})
        kind = f.text("type")
        reader = READERS.get(kind)
        if reader is None:
            raise StatusError("type", f"unknown event {shown(kind)} (one of {', '.join(READERS)})")
        event = reader(f)
        f.finish()
    except StatusError:
        raise
    except RuleError as refused:
        raise StatusError(refused.field, refused.message) from None
    return event


def event_to_dict(event: Event) -> dict[str, Any]:
    """The JSON object of an event (optional fields left out when unset)."""
    data: dict[str, Any] = {"type": event.type}
    if isinstance(event, Start):
        data |= {"factions": [str(f) for f in event.factions], "priority": str(event.priority)}
        if event.military_income is not None:
            data["military_income"] = [str(f) for f in event.military_income]
    elif isinstance(event, SendOfficial):
        data["faction"] = str(event.faction)
        data |= {"card": event.card} if event.card is not None else {"newspaper": event.newspaper}
        data["value"] = event.value
    elif isinstance(event, MilitaryMove):
        data |= {"faction": str(event.faction), "steps": event.steps, "cost": event.cost}
    elif isinstance(event, StatusChange):
        data |= {"faction": str(event.faction), "points": event.points, "cost": event.cost}
    elif isinstance(event, ResolveCard):
        data["officials"] = {str(f): list(values) for f, values in event.officials.items()}
        data["reward"] = event.reward
        if event.card is not None:
            data["card"] = event.card
    elif isinstance(event, IncreaseStatus):
        data |= {"faction": str(event.faction), "points": event.points}
    elif isinstance(event, FinalScoring):
        data["assets"] = {str(f): n for f, n in event.assets.items()}
        data["continents"] = {str(f): {str(c): n for c, n in table.items()} for f, table in event.continents.items()}
    return data
