"""The cards of a scenario file: hero sheets, enemy and profile cards with their attacks, a Prey's Action deck.

Each edition's cards name their fields in their own words (first edition: Rapidity, Physical,
Wounds, Strikes, Mental attack); both map onto the same values (see `assistant/rules/scenario.py`).
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from typing import Any

from assistant.rules.scenario import (
    CHARACTERISTICS,
    PRIORITY_FACTORS,
    RANKS,
    ROLES,
    AttackKind,
    AttackSpec,
    Characteristic,
    Edition,
    EnemyGroupSpec,
    HeroSpec,
    PreyCard,
    PreySpec,
    Rank,
    Role,
)
from assistant.session.toml_lines import Path as KeyPath
from assistant.session.toml_reader import TomlReader, dotted, show

# Hero and enemy fields as each edition's cards name them -> the HeroSpec / EnemyGroupSpec field.
HERO_FIELDS: dict[Edition, dict[str, str]] = {
    "renaissance": {"swiftness": "swiftness", "dexterity": "dexterity", "physique": "physique",
                    "mind": "mind", "health": "health"},
    "classic": {"rapidity": "swiftness", "physical": "physique", "mind": "mind", "wounds": "health"},
}  # fmt: skip
ENEMY_FIELDS: dict[Edition, dict[str, str]] = {
    "renaissance": {"swiftness": "swiftness", "physical_defense": "physical_defense",
                    "psychic_defense": "psychic_defense", "health": "health"},
    "classic": {"rapidity": "swiftness", "physical_defense": "physical_defense",
                "mental_defense": "psychic_defense", "wounds": "health"},
}  # fmt: skip
ATTACK_KIND_NAMES: dict[Edition, dict[str, AttackKind]] = {
    "renaissance": {"physical": "physical", "psychic": "psychic"},
    "classic": {"physical": "physical", "mental": "psychic"},
}
HITS_NAME: dict[Edition, str] = {"renaissance": "hits", "classic": "strikes"}
MASTERY_DICE = {"d6": 6, "d8": 8}
# Wounds the hero's Equipment takes: Renaissance "Resistance X" (summed); first edition, the armour card's Wo.
RESISTANCE_NAME: dict[Edition, str] = {"renaissance": "resistance", "classic": "armour"}


def read_hero(r: TomlReader, edition: Edition, path: KeyPath, data: Mapping[str, Any]) -> HeroSpec:
    """A `[[heroes]]` table, in the field names of the edition's hero sheet."""
    fields = HERO_FIELDS[edition]
    extra = ("mastery",) if edition == "classic" else ()
    resistance = RESISTANCE_NAME[edition]
    r.table(data, path, ("id", "name", "class", *fields, *extra, "threat", resistance, "role"))
    values = {field: r.integer(data, path, name, 1, 20 if field == "health" else 9) for name, field in fields.items()}
    die = 8
    if edition == "classic":
        mastery = r.choice(data, path, "mastery", tuple(MASTERY_DICE))
        die = MASTERY_DICE.get(mastery, 6)
        values["dexterity"] = values["physique"]  # first edition: Physical covers both (see scenario.py)
    return HeroSpec(
        id=r.identifier(data, path),
        name=r.text(data, path, "name"),
        hero_class=r.text(data, path, "class"),
        swiftness=values["swiftness"],
        dexterity=values["dexterity"],
        physique=values["physique"],
        mind=values["mind"],
        health=values["health"],
        die=die,
        threat=r.integer(data, path, "threat", 0, 30, default=0),
        resistance=r.integer(data, path, resistance, 0, 20, default=0),
        role=_as_role(r.choice(data, path, "role", ROLES, default="hero")),
    )


def _as_role(value: str) -> Role:
    return "companion" if value == "companion" else "ally" if value == "ally" else "hero"


def read_attack(r: TomlReader, edition: Edition, path: KeyPath, data: Mapping[str, Any],
                ap_default: int | None = None) -> AttackSpec:  # fmt: skip
    """An `[[enemies.attacks]]` table (or a prey card's `attack`); `ap_default` where the card prints no AP."""
    hits_name = HITS_NAME[edition]
    r.table(data, path, ("name", "kind", "ap", "range", "threshold", "defended_with", hits_name,
                         "contrast", "effect_wounds", "traits"))  # fmt: skip
    kinds = ATTACK_KIND_NAMES[edition]
    kind_name = r.choice(data, path, "kind", tuple(kinds))
    kind: AttackKind = kinds.get(kind_name, "physical")
    range_min, range_max = _range(r, path, data)
    hits: int | None = None
    contrast: int | None = None
    if kind_name not in kinds:
        pass  # reported above; which of hits or contrast it needs is unknown
    elif kind == "physical":
        hits = r.integer(data, path, hits_name, 1, 20)
        for wrong in ("contrast", "effect_wounds"):
            if wrong in data:
                r.problem(path + (wrong,), f"a physical attack has no {wrong}; it deals {hits_name}")
    else:
        contrast = r.integer(data, path, "contrast", 1, 12)
        if hits_name in data:
            r.problem(path + (hits_name,), f"a psychic attack has no {hits_name}; it has a contrast")
    default_defence = "physique" if kind == "physical" else "mind"
    defended_with = r.choice(data, path, "defended_with", CHARACTERISTICS, default=default_defence)
    return AttackSpec(
        name=r.text(data, path, "name"),
        kind=kind,
        ap=r.integer(data, path, "ap", 0, 12, default=0 if edition == "classic" else ap_default),
        range_min=range_min,
        range_max=range_max,
        threshold=r.integer(data, path, "threshold", 2, 8),
        defended_with=_as_characteristic(defended_with),
        hits=hits,
        contrast=contrast,
        effect_wounds=r.integer(data, path, "effect_wounds", 0, 20, default=0),
        traits=r.texts(data, path, "traits"),
    )


def _as_characteristic(value: str) -> Characteristic:
    for characteristic in CHARACTERISTICS:
        if characteristic == value:
            return characteristic
    return "physique"


def _as_rank(value: str) -> Rank:
    for rank in RANKS:
        if rank == value:
            return rank
    return "troop"


def _range(r: TomlReader, path: KeyPath, data: Mapping[str, Any]) -> tuple[int, int]:
    """`range = 3` (1 to 3) or `range = [2, 6]` (min, max; 0 includes the attacker itself)."""
    value = data.get("range")
    if isinstance(value, int) and not isinstance(value, bool):
        if not 1 <= value <= 30:
            r.problem(path + ("range",), f"expected a range from 1 to 30, got {show(value)}")
        return 1, value
    if isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        low, high = value
        if not 0 <= low <= high <= 30:
            r.problem(path + ("range",), f"expected [min, max] with 0 <= min <= max <= 30, got [{low}, {high}]")
        return low, high
    if value is None:
        r.missing(path, "range", "a number (1 = adjacent) or [min, max]")
    else:
        r.problem(path + ("range",), f"expected a number (1 = adjacent) or [min, max], got {show(value)}")
    return 1, 1


def known_factor(r: TomlReader, path: KeyPath, factor: str) -> bool:
    """True if `factor` is a profile-card priority factor; a Problem with the nearest one if not."""
    if factor in PRIORITY_FACTORS:
        return True
    hint = difflib.get_close_matches(factor, PRIORITY_FACTORS, n=1)
    expected = f"did you mean '{hint[0]}'?" if hint else "expected one of " + ", ".join(PRIORITY_FACTORS)
    r.problem(path, f'unknown factor "{factor}"; {expected}')
    return False


def read_enemy(r: TomlReader, edition: Edition, path: KeyPath, data: Mapping[str, Any]) -> EnemyGroupSpec:
    """An `[[enemies]]` (or `[[reserves]]`) table: an enemy card or profile card, with its attacks."""
    fields = ENEMY_FIELDS[edition]
    r.table(data, path, ("id", "name", "rank", "faction", *fields, "control_area", "models", "attacks",
                         "target_priority", "loot", "generic_skills", "immune_to_critical", "goal", "draft_models"))  # fmt: skip
    values = {field: r.integer(data, path, name, 1, 50 if field == "health" else 12) for name, field in fields.items()}
    attacks: tuple[AttackSpec, ...] = ()
    attack_tables = data.get("attacks")
    if attack_tables is None or attack_tables == []:
        r.missing(path, "attacks", f"[[{path[0]}.attacks]] tables: an enemy needs at least one attack")
    elif not isinstance(attack_tables, list) or not all(isinstance(a, dict) for a in attack_tables):
        r.problem(path + ("attacks",), f"expected [[{path[0]}.attacks]] tables, got {show(attack_tables)}")
    else:
        attacks = tuple(read_attack(r, edition, path + ("attacks", i), a) for i, a in enumerate(attack_tables))
        unique_names(r, [(path + ("attacks", i), a.name) for i, a in enumerate(attacks)])
    priority = r.texts(data, path, "target_priority") or ("standard",)
    unknown = [index for index, factor in enumerate(priority) if not known_factor(r, path + ("target_priority", index), factor)]
    if not unknown and (priority[-1] != "standard" or priority.count("standard") != 1):
        r.problem(path + ("target_priority",), 'expected a list that ends with "standard" (and has it once)')
    goal = r.get(data, path, "goal", str, required=False)
    return EnemyGroupSpec(
        id=r.identifier(data, path),
        name=r.text(data, path, "name"),
        rank=_as_rank(r.choice(data, path, "rank", RANKS)),
        faction=r.text(data, path, "faction"),
        swiftness=values["swiftness"],
        control_area=r.integer(data, path, "control_area", 0, 30),
        physical_defense=values["physical_defense"],
        psychic_defense=values["psychic_defense"],
        health=values["health"],
        attacks=attacks,
        models=r.integer(data, path, "models", 1, 20, default=1),
        draft_models=r.optional_integer(data, path, "draft_models", 0, 20),
        target_priority=priority,
        loot=r.texts(data, path, "loot"),
        generic_skills=r.texts(data, path, "generic_skills"),
        immune_to_critical=bool(r.get(data, path, "immune_to_critical", bool, False)),
        goal=goal,
    )


def unique_names(r: TomlReader, named: Sequence[tuple[KeyPath, str]]) -> None:
    """Attacks are told apart by name (the AI orders one, the event names it): each name once."""
    seen: dict[str, KeyPath] = {}
    for path, name in named:
        if name in seen:
            r.problem(path + ("name",), f'"{name}" is already the name of {dotted(seen[name])}: each attack needs its own name')
        elif name:
            seen[name] = path


PREY_TARGETS = ("target_hero", "none")


def read_prey(r: TomlReader, edition: Edition, data: Mapping[str, Any], enemies: Sequence[tuple[KeyPath, EnemyGroupSpec]]) -> PreySpec | None:
    """The `[prey]` table of a Hunt: the enemy group that is the Prey (one model), and its Action deck, card 1 on top."""
    table = r.get(data, (), "prey", dict, required=False)
    if table is None:
        return None
    path: KeyPath = ("prey",)
    r.table(table, path, ("group", "deck"))
    group = r.text(table, path, "group")
    found = [(enemy_path, enemy) for enemy_path, enemy in enemies if enemy.id == group]
    if group and not found:
        hint = difflib.get_close_matches(group, [enemy.id for _, enemy in enemies], n=1)
        r.problem(path + ("group",), "no [[enemies]] has this id" + (f"; did you mean '{hint[0]}'?" if hint else ""))
    for enemy_path, enemy in found:
        if enemy.models != 1:  # "Hunt Missions": the Prey is one creature, its one Prey Token
            r.problem(enemy_path + ("models",), f"the Prey is one model, got {enemy.models}")
    cards: list[PreyCard] = []
    for card_path, card in r.tables(table, "deck", path):
        r.table(card, card_path, ("number", "ap", "text", "target", "attack"))
        number = r.integer(card, card_path, "number", 1, 99)
        if cards and number != cards[-1].number + 1:
            r.problem(card_path + ("number",), f"expected card {cards[-1].number + 1} (the deck goes 1, 2, 3, ... from the top)")
        elif not cards and number != 1:
            r.problem(card_path + ("number",), "expected card 1 (the deck goes 1, 2, 3, ... from the top)")
        target = r.text(card, card_path, "target", default="target_hero")
        if target not in PREY_TARGETS:
            known_factor(r, card_path + ("target",), target)
        attack_table = r.get(card, card_path, "attack", dict, required=False)
        attack = read_attack(r, edition, card_path + ("attack",), attack_table, ap_default=0) if attack_table else None
        if attack is not None and target == "none":
            r.problem(card_path + ("attack",), 'a card with target "none" attacks nobody: give it a target or no attack')
        same = [enemy_path + ("attacks", i) for enemy_path, enemy in found for i, a in enumerate(enemy.attacks)
                if attack is not None and a.name == attack.name]  # fmt: skip
        if attack is not None and same:  # the card's attack is named beside the Prey's own (`fights.attacks_of`)
            r.problem(card_path + ("attack", "name"), f'"{attack.name}" is already the name of {dotted(same[0])}: each attack needs its own name')
        cards.append(PreyCard(number=number, ap=r.integer(card, card_path, "ap", 0, 12), text=r.text(card, card_path, "text"),
                              target=target, attack=attack))  # fmt: skip
    if not cards:
        r.missing(path, "deck", "[[prey.deck]] tables: the Prey needs its Action Cards")
    return PreySpec(group=group, deck=tuple(cards))
