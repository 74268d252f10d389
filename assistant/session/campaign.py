"""The Renaissance campaign sheet ("Campaign Sheet", "Rest Phase") as a pure fold of campaign events.

It lives in the state file as one more journal (`--game campaign`), so it has undo, redo,
export and crash safety like a mission. Each event is a JSON object with a "type"; a refused
event raises CampaignError naming the field at fault. The events are listed in `docs/session.md`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from assistant import __version__
from assistant.rules.bounds import NUMBER, TEXT
from assistant.rules.errors import shown

MAX_SIDE_MISSIONS = 3  # "Active Side Missions": at most 3
ADVANCED_CLASS_COST = 2  # "Acquiring Class Advancement": 2 Experience Points
SKILLS_BEFORE_ADVANCING = 3  # ... after at least 3 Skills of the Basic Class and Destiny Card 2
CHARACTERISTICS = ("swiftness", "dexterity", "physique", "mind", "health")


class CampaignError(ValueError):
    """A campaign event the sheet refuses; the message names the field at fault."""


@dataclass(frozen=True)
class Skill:
    name: str
    cost: int


@dataclass(frozen=True)
class CampaignHero:
    """One hero's section of the sheet ("Hero" and "Experience")."""

    id: str
    name: str
    hero_class: str
    advanced_class: str | None = None
    bond: str | None = None
    upgrade: str | None = None
    achievements: int = 0
    injuries: tuple[str, ...] = ()
    destiny_resolved: tuple[int, ...] = ()
    skills: tuple[Skill, ...] = ()

    @property
    def experience_spent(self) -> int:
        return sum(skill.cost for skill in self.skills) + (ADVANCED_CLASS_COST if self.advanced_class else 0)


@dataclass(frozen=True)
class CampaignSheet:
    """The whole sheet: treasury, missions, inventory, achievements, hunts, side missions, heroes, experience."""

    experience: int = 0
    florins: int = 0
    reagents: tuple[tuple[str, int], ...] = ()
    next_mission: str | None = None
    town: str | None = None
    inventory: tuple[str, ...] = ()
    achievements: tuple[str, ...] = ()
    hunts: tuple[tuple[str, str], ...] = ()
    side_missions: tuple[tuple[str, str], ...] = ()
    heroes: tuple[CampaignHero, ...] = field(default=())
    missions: tuple[tuple[int, str, str], ...] = ()
    """The missions played whose end is on the sheet: (the game's id in the state file, its title, its result)."""

    def hero(self, hero_id: str) -> CampaignHero:
        for hero in self.heroes:
            if hero.id == hero_id:
                return hero
        raise CampaignError(f"hero: no hero '{hero_id}' on the campaign sheet")

    def to_dict(self) -> dict[str, Any]:
        return {
            "experience": self.experience,
            "florins": self.florins,
            "reagents": dict(self.reagents),
            "next_mission": self.next_mission,
            "town": self.town,
            "inventory": list(self.inventory),
            "achievements": list(self.achievements),
            "hunts": [{"prey": prey, "mission": mission} for prey, mission in self.hunts],
            "side_missions": [{"id": ident, "title": title} for ident, title in self.side_missions],
            "missions": [{"game": game, "title": title, "result": result} for game, title, result in self.missions],
            "heroes": [
                {
                    "id": h.id,
                    "name": h.name,
                    "class": h.hero_class,
                    "advanced_class": h.advanced_class,
                    "bond": h.bond,
                    "upgrade": h.upgrade,
                    "achievements": h.achievements,
                    "injuries": list(h.injuries),
                    "destiny_resolved": list(h.destiny_resolved),
                    "skills": [{"name": s.name, "cost": s.cost} for s in h.skills],
                    "experience_spent": h.experience_spent,
                    "experience_available": self.experience - h.experience_spent,
                }
                for h in self.heroes
            ],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CampaignSheet:
        return cls(
            experience=int(data["experience"]),
            florins=int(data["florins"]),
            reagents=tuple(sorted((str(k), int(v)) for k, v in data["reagents"].items())),
            next_mission=data["next_mission"],
            town=data["town"],
            inventory=tuple(data["inventory"]),
            achievements=tuple(data["achievements"]),
            hunts=tuple((h["prey"], h["mission"]) for h in data["hunts"]),
            side_missions=tuple((m["id"], m["title"]) for m in data["side_missions"]),
            heroes=tuple(
                CampaignHero(
                    id=h["id"],
                    name=h["name"],
                    hero_class=h["class"],
                    advanced_class=h["advanced_class"],
                    bond=h["bond"],
                    upgrade=h["upgrade"],
                    achievements=int(h["achievements"]),
                    injuries=tuple(h["injuries"]),
                    destiny_resolved=tuple(h["destiny_resolved"]),
                    skills=tuple(Skill(s["name"], int(s["cost"])) for s in h["skills"]),
                )
                for h in data["heroes"]
            ),
            missions=tuple((int(m["game"]), str(m["title"]), str(m["result"])) for m in data.get("missions", [])),
        )


def _text(event: Mapping[str, Any], key: str) -> str:
    value = event.get(key)
    if not isinstance(value, str) or not value.strip():
        raise CampaignError(f"{key}: expected some text, got {shown(value)}")
    if len(value) > TEXT:
        raise CampaignError(f"{key}: expected at most {TEXT} characters, got {len(value)}: {shown(value)}")
    return value


def _number(event: Mapping[str, Any], key: str, low: int | None = None) -> int:
    value = event.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise CampaignError(f"{key}: expected a whole number, got {shown(value)}")
    if abs(value) > NUMBER:
        raise CampaignError(f"{key}: expected a number from {-NUMBER} to {NUMBER}, got {shown(value)}")
    if low is not None and value < low:
        raise CampaignError(f"{key}: expected at least {low}, got {shown(value)}")
    return value


def _with_hero(sheet: CampaignSheet, hero: CampaignHero) -> CampaignSheet:
    return replace(sheet, heroes=tuple(hero if h.id == hero.id else h for h in sheet.heroes))


def _add_hero(sheet: CampaignSheet, event: Mapping[str, Any]) -> CampaignSheet:
    hero_id = _text(event, "hero")
    if any(h.id == hero_id for h in sheet.heroes):
        raise CampaignError(f"hero: '{hero_id}' is already on the campaign sheet")
    if len(sheet.heroes) >= 4:
        raise CampaignError("hero: the campaign sheet has room for 4 heroes")
    hero = CampaignHero(id=hero_id, name=_text(event, "name"), hero_class=_text(event, "class"))
    return replace(sheet, heroes=sheet.heroes + (hero,))


def _acquire_skill(sheet: CampaignSheet, event: Mapping[str, Any]) -> CampaignSheet:
    hero = sheet.hero(_text(event, "hero"))
    name, cost = _text(event, "skill"), _number(event, "cost", 0)
    if any(skill.name == name for skill in hero.skills):
        raise CampaignError(f"skill: {hero.name} already has '{name}'")
    available = sheet.experience - hero.experience_spent
    if cost > available:
        raise CampaignError(f"cost: {hero.name} has {available} Experience Points to spend, the skill costs {cost}")
    return _with_hero(sheet, replace(hero, skills=hero.skills + (Skill(name, cost),)))


def _advance_class(sheet: CampaignSheet, event: Mapping[str, Any]) -> CampaignSheet:
    hero = sheet.hero(_text(event, "hero"))
    if hero.advanced_class is not None:
        raise CampaignError(f"class: {hero.name} is already a {hero.advanced_class}")
    if 2 not in hero.destiny_resolved:
        raise CampaignError(f"class: {hero.name} must resolve Destiny Card 2 first")
    if len(hero.skills) < SKILLS_BEFORE_ADVANCING:
        raise CampaignError(f"class: {hero.name} needs {SKILLS_BEFORE_ADVANCING} skills first, has {len(hero.skills)}")
    if sheet.experience - hero.experience_spent < ADVANCED_CLASS_COST:
        raise CampaignError(f"class: {hero.name} needs {ADVANCED_CLASS_COST} Experience Points to advance")
    upgrade = _text(event, "upgrade")
    if upgrade not in CHARACTERISTICS:
        raise CampaignError(f"upgrade: expected one of {', '.join(CHARACTERISTICS)}, got {shown(upgrade)}")
    bond = _text(event, "bond")  # step 4: "The Hero immediately gains the Bound Equipment" of the new Class
    return _with_hero(sheet, replace(hero, advanced_class=_text(event, "class"), bond=bond, upgrade=upgrade))


def _resolve_destiny(sheet: CampaignSheet, event: Mapping[str, Any]) -> CampaignSheet:
    """"Destiny Cards": Card 1, then 2 (the Basic Class's), then the pair 3-4 or 5-6 of the Advanced Class, in order."""
    hero = sheet.hero(_text(event, "hero"))
    card = _number(event, "card", 1)
    resolved = hero.destiny_resolved
    if card > 6:
        raise CampaignError(f"card: each hero has 6 Destiny Cards, got {card}")
    if card in resolved:
        raise CampaignError(f"card: {hero.name} has already resolved Destiny Card {card}")
    if card > 2 and hero.advanced_class is None:
        raise CampaignError(f"card: Destiny Cards 3 to 6 belong to the Advanced Classes; {hero.name} has none yet")
    before = card - 1 if card in (2, 4, 6) else 2 if card in (3, 5) else None
    if before is not None and before not in resolved:
        raise CampaignError(f"card: {hero.name} gains Destiny Card {card} after resolving Card {before}")
    other_pair = (5, 6) if card in (3, 4) else (3, 4) if card in (5, 6) else ()
    if any(n in resolved for n in other_pair):
        mine = " and ".join(str(n) for n in other_pair)
        raise CampaignError(f"card: {hero.name}'s Advanced Class gives Destiny Cards {mine}, not {card} (four cards in all)")
    return _with_hero(sheet, replace(hero, destiny_resolved=tuple(sorted(hero.destiny_resolved + (card,)))))


def _injury(sheet: CampaignSheet, event: Mapping[str, Any]) -> CampaignSheet:
    """"Injury Cards": an Injury the Hero already has is discarded and another drawn."""
    hero = sheet.hero(_text(event, "hero"))
    injury = _text(event, "injury")
    if injury in hero.injuries:
        raise CampaignError(f"injury: {hero.name} already has '{injury}': discard it and draw another")
    return _with_hero(sheet, replace(hero, injuries=hero.injuries + (injury,)))


def _heal(sheet: CampaignSheet, event: Mapping[str, Any]) -> CampaignSheet:
    hero = sheet.hero(_text(event, "hero"))
    injury = _text(event, "injury")
    if injury not in hero.injuries:
        raise CampaignError(f"injury: {hero.name} has no injury '{injury}'")
    injuries = list(hero.injuries)
    injuries.remove(injury)
    return _with_hero(sheet, replace(hero, injuries=tuple(injuries)))


def _achievement(sheet: CampaignSheet, event: Mapping[str, Any]) -> CampaignSheet:
    if event.get("hero") is not None:
        hero = sheet.hero(_text(event, "hero"))
        return _with_hero(sheet, replace(hero, achievements=hero.achievements + 1))
    return replace(sheet, achievements=sheet.achievements + (_text(event, "achievement"),))


def _experience(sheet: CampaignSheet, event: Mapping[str, Any]) -> CampaignSheet:
    return replace(sheet, experience=sheet.experience + _number(event, "xp", 1))


def _florins(sheet: CampaignSheet, event: Mapping[str, Any]) -> CampaignSheet:
    amount = _number(event, "amount")
    if sheet.florins + amount < 0:
        raise CampaignError(f"amount: the Treasury has {sheet.florins} Florins, cannot pay {-amount}")
    return replace(sheet, florins=sheet.florins + amount)


def _reagents(sheet: CampaignSheet, event: Mapping[str, Any]) -> CampaignSheet:
    reagent, amount = _text(event, "reagent"), _number(event, "amount")
    stock = dict(sheet.reagents)
    have = stock.get(reagent, 0)
    if have + amount < 0:
        raise CampaignError(f"amount: the Treasury has {have} {reagent}, cannot take {-amount}")
    stock[reagent] = have + amount
    return replace(sheet, reagents=tuple(sorted((k, v) for k, v in stock.items() if v)))


def _mission_end(sheet: CampaignSheet, event: Mapping[str, Any]) -> CampaignSheet:
    """A mission's end onto the sheet ("Mission Phase": the Heroes "gain Experience Points and Reagents"): its result,
    the party's Experience and the Reagents its Loot gave, once per game."""
    game, title = _number(event, "game", 1), _text(event, "title")
    result = _text(event, "result")
    if result not in ("victory", "defeat"):
        raise CampaignError(f"result: expected victory or defeat, got {shown(result)}")
    if any(played == game for played, _, _ in sheet.missions):
        raise CampaignError(f"game: the end of game {game} is on the campaign sheet already")
    reagents = event.get("reagents", {})
    if not isinstance(reagents, Mapping):
        raise CampaignError(f"reagents: expected a table of counts, got {shown(reagents)}")
    after = replace(sheet, experience=sheet.experience + _number(event, "xp", 0))
    for reagent, amount in reagents.items():
        if not isinstance(amount, int) or isinstance(amount, bool) or amount < 0:
            raise CampaignError(f"reagents.{reagent}: expected a count of 0 or more, got {shown(amount)}")
        if amount:
            after = _reagents(after, {"reagent": reagent, "amount": amount})
    return replace(after, missions=after.missions + ((game, title, result),))


def _inventory_add(sheet: CampaignSheet, event: Mapping[str, Any]) -> CampaignSheet:
    return replace(sheet, inventory=sheet.inventory + (_text(event, "item"),))


def _inventory_remove(sheet: CampaignSheet, event: Mapping[str, Any]) -> CampaignSheet:
    item = _text(event, "item")
    if item not in sheet.inventory:
        raise CampaignError(f"item: '{item}' is not in the Inventory")
    items = list(sheet.inventory)
    items.remove(item)
    return replace(sheet, inventory=tuple(items))


def _side_mission(sheet: CampaignSheet, event: Mapping[str, Any]) -> CampaignSheet:
    ident, title = _text(event, "id"), _text(event, "title")
    if any(m[0] == ident for m in sheet.side_missions):
        raise CampaignError(f"id: side mission '{ident}' is already active")
    if len(sheet.side_missions) >= MAX_SIDE_MISSIONS:
        raise CampaignError(f"id: at most {MAX_SIDE_MISSIONS} side missions can be active")
    return replace(sheet, side_missions=sheet.side_missions + ((ident, title),))


def _side_mission_done(sheet: CampaignSheet, event: Mapping[str, Any]) -> CampaignSheet:
    ident = _text(event, "id")
    if not any(m[0] == ident for m in sheet.side_missions):
        raise CampaignError(f"id: no active side mission '{ident}'")
    return replace(sheet, side_missions=tuple(m for m in sheet.side_missions if m[0] != ident))


def _hunt(sheet: CampaignSheet, event: Mapping[str, Any]) -> CampaignSheet:
    entry = (_text(event, "prey"), _text(event, "mission"))
    if entry in sheet.hunts:
        raise CampaignError(f"prey: the hunt of {entry[0]} is already available")
    return replace(sheet, hunts=sheet.hunts + (entry,))


def _next_mission(sheet: CampaignSheet, event: Mapping[str, Any]) -> CampaignSheet:
    town = event.get("town")
    if town is not None and not isinstance(town, str):
        raise CampaignError(f"town: expected text, got {shown(town)}")
    return replace(sheet, next_mission=_text(event, "mission"), town=town)


HANDLERS = {
    "add_hero": _add_hero,
    "gain_experience": _experience,
    "acquire_skill": _acquire_skill,
    "advance_class": _advance_class,
    "resolve_destiny": _resolve_destiny,
    "injury": _injury,
    "heal_injury": _heal,
    "achievement": _achievement,
    "florins": _florins,
    "reagents": _reagents,
    "inventory_add": _inventory_add,
    "inventory_remove": _inventory_remove,
    "side_mission": _side_mission,
    "side_mission_done": _side_mission_done,
    "hunt_available": _hunt,
    "next_mission": _next_mission,
    "mission_end": _mission_end,
}


def apply(sheet: CampaignSheet, event: Mapping[str, Any]) -> CampaignSheet:
    """The sheet after one campaign event; CampaignError if the sheet refuses it."""
    kind = event.get("type")
    handler = HANDLERS.get(kind) if isinstance(kind, str) else None
    if handler is None:
        raise CampaignError(f"type: expected one of {', '.join(HANDLERS)}, got {shown(kind)}")
    return handler(sheet, event)


class CampaignFold:
    """The campaign sheet as a journal fold (see `assistant.session.fold.Fold`)."""

    tag = f"nova-table {__version__} campaign"

    def initial(self) -> CampaignSheet:
        return CampaignSheet()

    def apply(self, state: CampaignSheet, event: Mapping[str, Any]) -> CampaignSheet:
        return apply(state, event)

    def dump(self, state: CampaignSheet) -> dict[str, Any]:
        return state.to_dict()

    def load(self, data: Mapping[str, Any]) -> CampaignSheet:
        return CampaignSheet.from_dict(data)
