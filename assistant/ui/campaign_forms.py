"""The campaign sheet's buttons and forms (pure): each makes one campaign event of `assistant/session/campaign.py`, the
same the command line journals (`nova-table session apply --game campaign`). Words are typed on the on-screen keyboard
(`form.Text`, `ui/keyboard.py`); where the sheet or the rules give a list (its heroes, its Inventory, a hero's
Injuries, the Characteristics) it is picked from."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from assistant.session.campaign import CHARACTERISTICS, MAX_SIDE_MISSIONS
from assistant.ui.form import Choice, Field, Form, Number, Text
from assistant.ui.intents import Item

if TYPE_CHECKING:
    from assistant.session.campaign import CampaignSheet

REAGENTS = ("Alchemia", "Elementum", "Pecunia")  # the Reagent Cards' types
HEROES_AT_MOST = 4  # "Campaign Sheet": 4 Hero sections


def campaign_items(sheet: CampaignSheet, can_undo: bool, can_redo: bool) -> list[Item]:
    heroes = bool(sheet.heroes)
    return [Item("Experience +", "x", form="xp"), Item("Florins", "f", form="florins"), Item("Reagents", "r", form="reagents"),
            Item("Item", "i", form="item"), Item("Achievement", "a", form="achievement"),
            Item("Skill", "s", form="skill", enabled=heroes), Item("Class", "c", form="class", enabled=heroes),
            Item("Hero", "h", form="hero"), Item("Missions", "m", form="missions"),
            Item("New mission", "n", command="build", enabled=heroes),
            Item("Undo", "u", command="undo", enabled=can_undo, kind="command"),
            Item("Redo", "y", command="redo", enabled=can_redo, kind="command"),
            Item("Back", "b", command="back", kind="command")]  # fmt: skip


def campaign_form(name: str, sheet: CampaignSheet) -> Form:
    """The form of a button of `campaign_items`."""
    if name == "xp":
        return Form("xp", "Experience gained", [Number("xp", "Experience", 1, 30, 1)],
                    lambda f: {"type": "gain_experience", "xp": f.value("xp")}, apply_label="Gain")  # fmt: skip
    way = Choice("way", "In or out", [(1, "in"), (-1, "out")])
    if name == "florins":
        return Form("florins", "Florins", [way, Number("amount", "Florins", 1, 500, 10)],
                    lambda f: {"type": "florins", "amount": f.value("way") * f.value("amount")})  # fmt: skip
    if name == "reagents":
        fields: list[Field] = [Choice("reagent", "Reagent", [(r, r) for r in REAGENTS]), way, Number("amount", "How many", 1, 20, 1)]
        return Form("reagents", "Reagents", fields, lambda f: {"type": "reagents", "reagent": f.value("reagent"),
                    "amount": f.value("way") * f.value("amount")})  # fmt: skip
    return _words_form(name, sheet)


def _hero(sheet: CampaignSheet) -> Choice:
    return Choice("hero", "Hero", [(hero.id, hero.name) for hero in sheet.heroes])


def _words_form(name: str, sheet: CampaignSheet) -> Form:
    """The changes in words: an item, an achievement, a skill, an Advanced Class, a hero."""
    if name == "item":  # "Inventory": gained or crafted Equipment, Formulae and Reward Cards are marked there
        held = list(dict.fromkeys(sheet.inventory))  # what can be removed, picked from the sheet's own list

        def adding(f: Form) -> bool:
            return not held or bool(f.value("way") == "add")

        fields: list[Field] = [Choice("way", "Add or remove", [("add", "add"), ("remove", "remove")])] if held else []
        fields += [Text("item", "Item", show=adding),
                   Choice("which", "Item", [(i, i) for i in held], show=lambda f: not adding(f))]  # fmt: skip
        return Form("item", "Inventory", fields, lambda f: {"type": "inventory_add", "item": f.value("item")} if adding(f)
                    else {"type": "inventory_remove", "item": f.value("which")})  # fmt: skip
    if name == "achievement":  # "Achievement Cards": kept by the party, or Personal (a Hero's slot, counted)
        whose = Choice("whose", "Whose", [("", "the party")] + [(hero.id, hero.name) for hero in sheet.heroes])
        return Form("achievement", "Achievement", [whose, Text("achievement", "Achievement", show=lambda f: not f.value("whose"))],
                    lambda f: {"type": "achievement", "hero": f.value("whose")} if f.value("whose")
                    else {"type": "achievement", "achievement": f.value("achievement")})  # fmt: skip
    if name == "skill":  # "Rest Phase": a Hero spends Experience Points on the Skills of their Skill Sheets
        return Form("skill", "Skill acquired", [_hero(sheet), Text("skill", "Skill"), Number("cost", "Experience", 0, 10, 1)],
                    lambda f: {"type": "acquire_skill", "hero": f.value("hero"), "skill": f.value("skill"),
                               "cost": f.value("cost")})  # fmt: skip
    if name == "class":  # "Acquiring Class Advancement": the Class, an upgrade of a Characteristic, its Bond
        upgrade = Choice("upgrade", "Upgrade", [(c, c.title()) for c in CHARACTERISTICS])
        return Form("class", "Advanced Class", [_hero(sheet), Text("class", "Class"), upgrade, Text("bond", "Bond")],
                    lambda f: {"type": "advance_class", "hero": f.value("hero"), "class": f.value("class"),
                               "upgrade": f.value("upgrade"), "bond": f.value("bond")})  # fmt: skip
    if name == "hero":
        return _hero_form(sheet)
    if name == "missions":
        return _missions_form(sheet)
    raise KeyError(name)


def _missions_form(sheet: CampaignSheet) -> Form:
    """The next mission (and its town); a Side Mission accepted ("mark the title of the Mission in the Active Side
    Missions", at most 3) or done; a Prey hunted ("mark the Prey's name (and its Hunt Mission code) among the Available
    Hunts")."""
    ways = [("next", "the next mission")] + ([("side", "a side mission taken")] if len(sheet.side_missions) < MAX_SIDE_MISSIONS else [])
    ways += [("done", "a side mission done")] if sheet.side_missions else []
    ways += [("hunt", "a hunt available")]

    def way(*names: str) -> Callable[[Form], bool]:
        return lambda f: f.value("what") in names

    fields: list[Field] = [Choice("what", "Change", ways), Text("prey", "Prey", show=way("hunt")),
                           Text("mission", "Mission", show=way("next", "hunt")), Text("town", "Town", show=way("next"), optional=True),
                           Text("title", "Title", show=way("side"))]  # fmt: skip
    fields += [Choice("active", "Mission", list(sheet.side_missions), show=way("done"))] if sheet.side_missions else []
    return Form("missions", "Missions", fields, _missions_event)


def _missions_event(form: Form) -> dict[str, Any]:
    what = form.value("what")
    if what == "next":
        return {"type": "next_mission", "mission": form.value("mission"), "town": form.value("town") or None}
    if what == "side":
        return {"type": "side_mission", "id": hero_id(form.value("title")), "title": form.value("title")}
    if what == "done":
        return {"type": "side_mission_done", "id": form.value("active")}
    return {"type": "hunt_available", "prey": form.value("prey"), "mission": form.value("mission")}


def _hero_form(sheet: CampaignSheet) -> Form:
    """A hero joins ("Setup Phase (Campaign)": a Hero in their Basic Class), draws an Injury or heals one ("Injury
    Cards": its effect noted in the Hero's section), or resolves a Destiny Card ("Destiny Cards", in their order)."""
    wounded = [((hero.id, injury), f"{hero.name}: {injury}") for hero in sheet.heroes for injury in hero.injuries]
    ways = [("join", "a hero joins")] if len(sheet.heroes) < HEROES_AT_MOST else []
    ways += [("injury", "an Injury drawn"), ("destiny", "a Destiny Card")] if sheet.heroes else []
    ways += [("heal", "an Injury healed")] if wounded else []

    def way(*names: str) -> Callable[[Form], bool]:
        return lambda f: f.value("what") in names

    fields: list[Field] = [Choice("what", "Change", ways), Text("name", "Name", show=way("join")),
                           Text("class", "Class", show=way("join"))]  # fmt: skip
    if sheet.heroes:
        fields += [Choice("hero", "Hero", _hero(sheet).options, show=way("injury", "destiny")),
                   Text("injury", "Injury", show=way("injury")), Number("card", "Card", 1, 6, 1, show=way("destiny"))]  # fmt: skip
    fields += [Choice("healed", "Injury", wounded, show=way("heal"))] if wounded else []
    return Form("hero", "Heroes", fields, _hero_event, start="name" if len(ways) == 1 else "")


def _hero_event(form: Form) -> dict[str, Any]:
    what = form.value("what")
    if what == "join":
        name = form.value("name")
        return {"type": "add_hero", "hero": hero_id(name), "name": name, "class": form.value("class")}
    if what == "heal":
        hero, injury = form.value("healed")
        return {"type": "heal_injury", "hero": hero, "injury": injury}
    if what == "injury":
        return {"type": "injury", "hero": form.value("hero"), "injury": form.value("injury")}
    return {"type": "resolve_destiny", "hero": form.value("hero"), "card": form.value("card")}


def hero_id(name: str) -> str:
    """The id the command line would be given for a hero (or a side mission) named so: "Eleonora d'Este" ->
    "eleonora_d_este"."""
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_") or "hero"
