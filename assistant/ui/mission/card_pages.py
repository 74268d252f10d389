"""The card editor's pages (pure): a Renaissance hero sheet or enemy card field by field (numbers by steppers, words
on the keyboard, choices picked, attacks added and removed a page each, traits and skills typed as a list), filled
from a card to change, and the card file's TOML tables they make (`card_library.parse_card` checks them)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from assistant.ui.form import Choice, Field, Form, Number, Text

LIST = 64  # the characters of a list typed on the keyboard ("Critical 1, Poisoned")
RANKS = ("troop", "elite", "monster")
ROLES = ("hero", "companion", "ally")
PRIORITIES: tuple[tuple[str, ...], ...] = (("standard",), ("closest", "standard"), ("threat", "standard"),
                                           ("threat", "closest", "standard"), ("farthest", "standard"),
                                           ("lowest_health", "standard"), ("highest_mind", "standard"))  # fmt: skip
DEFENCES: tuple[tuple[str | None, str], ...] = ((None, "as its kind"), ("swiftness", "Swiftness"), ("dexterity", "Dexterity"),
                                               ("physique", "Physique"), ("mind", "Mind"))  # fmt: skip
THEN = (("done", "no more attacks"), ("add", "add an attack"), ("remove", "remove this one"))
HERO_NUMBERS = (("swiftness", "Swiftness", 1, 9, 4), ("dexterity", "Dexterity", 1, 9, 3), ("physique", "Physique", 1, 9, 3),
                ("mind", "Mind", 1, 9, 3), ("health", "Health", 1, 20, 6), ("resistance", "Resistance", 0, 20, 0))  # fmt: skip
ENEMY_NUMBERS = (("swiftness", "Swiftness", 1, 12, 4), ("control_area", "Control area", 0, 30, 4),
                 ("physical_defense", "Physical def.", 1, 12, 4), ("psychic_defense", "Psychic def.", 1, 12, 4),
                 ("health", "Health", 1, 50, 4))  # fmt: skip


def card_id(name: str) -> str:
    """The id a card's name gives ("Papal Guard" -> papal_guard): its file's name."""
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


def listed(words: str) -> list[str]:
    """A list typed with commas, each item trimmed ("Critical 1, Poisoned" -> ["Critical 1", "Poisoned"])."""
    return [item.strip() for item in words.split(",") if item.strip()]


def _numbers(table: Mapping[str, Any], rows: Sequence[tuple[str, str, int, int, int]]) -> list[Field]:
    return [Number(key, label, low, high, int(table.get(key, start))) for key, label, low, high, start in rows]


def _choice(key: str, label: str, options: Sequence[tuple[Any, str]], value: Any) -> Choice:
    field = Choice(key, label, list(options))
    field.select(value)
    return field


def card_page(kind: str, table: Mapping[str, Any]) -> Form:
    """The card's words: its name, and a hero's class and role, an enemy's faction and rank."""
    fields: list[Field] = [Text("name", "Name", str(table.get("name", "")))]
    if kind == "hero":
        fields += [Text("class", "Class", str(table.get("class", ""))),
                   _choice("role", "Role", [(r, r) for r in ROLES], table.get("role", "hero"))]  # fmt: skip
    else:
        fields += [Text("faction", "Faction", str(table.get("faction", ""))),
                   _choice("rank", "Rank", [(r, r) for r in RANKS], table.get("rank", "troop"))]  # fmt: skip
    title = "A hero sheet" if kind == "hero" else "An enemy card"
    return Form("card", f"{title}: {table['name']}" if table.get("name") else title, fields, lambda f: {}, apply_label="Next")


def numbers_page(kind: str, table: Mapping[str, Any]) -> Form:
    """The characteristics, each a stepper."""
    rows = HERO_NUMBERS if kind == "hero" else ENEMY_NUMBERS
    return Form("numbers", "Characteristics", _numbers(table, rows), lambda f: {}, apply_label="Next")


def attack_page(number: int, attack: Mapping[str, Any], more: bool = False) -> Form:
    """One attack: its name, kind, AP, range, hits (physical) or contrast and wounds (psychic), threshold, traits;
    then whether another is added (`more`: the card has one after it, which comes next), or this one removed."""
    reach = attack.get("range", [1, 1])
    low, high = (1, int(reach)) if isinstance(reach, int) else (int(reach[0]), int(reach[1]))
    kind = Choice("kind", "Kind", [("physical", "physical"), ("psychic", "psychic")])
    kind.select(attack.get("kind", "physical"))

    def physical(form: Form) -> bool:
        return bool(form.value("kind") == "physical")

    def psychic(form: Form) -> bool:
        return not physical(form)

    fields: list[Field] = [
        Text("name", "Name", str(attack.get("name", ""))), kind,
        Number("ap", "AP", 0, 12, int(attack.get("ap", 2))),
        Number("range_min", "Range from", 0, 30, low), Number("range_max", "Range to", 1, 30, high),
        Number("hits", "Hits", 1, 20, int(attack.get("hits", 1)), show=physical),
        Number("contrast", "Contrast", 1, 12, int(attack.get("contrast", 1)), show=psychic),
        Number("effect_wounds", "Wounds", 0, 20, int(attack.get("effect_wounds", 0)), show=psychic),
        Number("threshold", "Threshold", 2, 8, int(attack.get("threshold", 5))),
        _choice("defended_with", "Defended with", DEFENCES, attack.get("defended_with")),
        Text("traits", "Traits", ", ".join(attack.get("traits", [])), limit=LIST, optional=True),
        _choice("then", "Then", [("add", "the next attack"), *THEN[::2]] if more else THEN, "add" if more else "done"),
    ]  # fmt: skip
    return Form(f"attack{number}", f"Attack {number + 1}", fields, lambda f: {}, apply_label="Next")


def more_page(table: Mapping[str, Any]) -> Form:
    """The Profile Card's priority, the loot, the generic skills, immunity to Criticals."""
    priority = tuple(table.get("target_priority", ("standard",)))
    options = [(p, ", ".join(p)) for p in dict.fromkeys([priority, *PRIORITIES])]
    fields: list[Field] = [
        _choice("target_priority", "Priority", options, priority),
        Text("loot", "Loot", ", ".join(table.get("loot", [])), limit=LIST, optional=True),
        Text("generic_skills", "Skills", ", ".join(table.get("generic_skills", [])), limit=LIST, optional=True),
        _choice("immune_to_critical", "Critical", [(False, "can be Critical"), (True, "immune")], bool(table.get("immune_to_critical"))),
    ]  # fmt: skip
    return Form("more", "Profile and loot", fields, lambda f: {}, apply_label="Next")


def attack_table(form: Form) -> dict[str, Any]:
    """An attack page's TOML table."""
    physical = form.value("kind") == "physical"
    out: dict[str, Any] = {"name": form.value("name"), "kind": form.value("kind"), "ap": form.value("ap"),
                           "range": [form.value("range_min"), form.value("range_max")]}  # fmt: skip
    if physical:
        out["hits"] = form.value("hits")
    else:
        out["contrast"] = form.value("contrast")
    out["threshold"] = form.value("threshold")
    if form.value("defended_with") is not None:
        out["defended_with"] = form.value("defended_with")
    if not physical and form.value("effect_wounds"):
        out["effect_wounds"] = form.value("effect_wounds")
    out["traits"] = listed(form.value("traits"))
    return out


def card_text_data(kind: str, ident: str, forms: Sequence[Form]) -> dict[str, Any]:
    """The card file's tables from its pages (`forms`, in order: card, numbers, then an enemy's attacks and more)."""
    pages = {form.name: form for form in forms}
    card, numbers = pages["card"], pages["numbers"]
    table: dict[str, Any] = {"id": ident, "name": card.value("name")}
    if kind == "hero":
        table["class"] = card.value("class")
        table |= {key: numbers.value(key) for key, *_ in HERO_NUMBERS}
        if card.value("role") != "hero":
            table["role"] = card.value("role")
    else:
        table |= {"rank": card.value("rank"), "faction": card.value("faction")}
        table |= {key: numbers.value(key) for key, *_ in ENEMY_NUMBERS}
        more = pages.get("more")
        if more is not None:
            table["target_priority"] = list(more.value("target_priority"))
            table["loot"] = listed(more.value("loot"))
            table["generic_skills"] = listed(more.value("generic_skills"))
            if more.value("immune_to_critical"):
                table["immune_to_critical"] = True
        attacks = [form for form in forms if form.name.startswith("attack") and form.value("then") != "remove"]
        table["attacks"] = [attack_table(form) for form in attacks]
    return {"format": 1, "edition": "renaissance", "example_values": False, kind: table}
