"""Forms for the table's own actions: spend AP (move, wait, an action), attacks with dice, an Injury, Fix.

Pure (no pygame). The events are the rules core's (`assistant.rules.game.EVENTS`).
"""

from __future__ import annotations

from typing import Any

from assistant.rules.edition import term
from assistant.rules.enemy_skills import ForcedReroll
from assistant.rules.equipment import equipment_word
from assistant.rules.fights import attacks_of
from assistant.rules.names import name_of
from assistant.rules.state import GameState
from assistant.rules.stealth import stealth_active
from assistant.ui.ai_forms import MAX_DICE
from assistant.ui.form import Choice, Dice, Field, Form, Number, link_dice_count
from assistant.ui.rerolls import by_attacker, by_target
from assistant.ui.mission_forms import can_draft, manual_draft_event, manual_draft_fields
from assistant.ui.rule_forms import RULE_FIXES, rule_fix_event, rule_fix_fields, rule_fix_update, rule_fixes

ACTIONS = ("Skill", "Interact", "Use item", "Prayer", "Spell", "Other action")
INJURY_CARDS = 40


def _ap_left(state: GameState) -> int:
    return state.turn.ap_left if state.turn else 0


def _spend(action: str) -> Any:
    def build(form: Form) -> dict[str, Any]:
        words = action or str(form.value("action")).lower()
        return {"type": "spend_ap", "action": words, "ap": form.value("ap")}

    return build


def move_form(state: GameState) -> Form:
    ap = Number("ap", "Spend", 1, max(1, _ap_left(state)), 1, unit=" AP")
    return Form("move", f"{name_of(state, state.active)} moves", [ap], _spend("move"), apply_label="Move")


def wait_form(state: GameState) -> Form:
    left = max(1, _ap_left(state))
    ap = Number("ap", "Spend", 1, left, left, unit=" AP")
    return Form("wait", f"{name_of(state, state.active)} waits", [ap], _spend("wait"), apply_label="Wait")


def action_form(state: GameState) -> Form:
    kind = Choice("action", "Action", [(a, a) for a in ACTIONS])
    ap = Number("ap", "Spend", 1, max(1, _ap_left(state)), 1, unit=" AP")
    return Form("action", f"{name_of(state, state.active)} acts", [kind, ap], _spend(""), apply_label="Spend AP")


def _targets(state: GameState) -> list[tuple[Any, str]]:
    out: list[tuple[Any, str]] = []
    for group in state.groups:
        spec = state.scenario.enemy(group.id)
        for number in group.standing:
            words = spec.name if len(group.models) == 1 else f"{spec.name} {number}"
            out.append(((group.id, number), words))
    return out


def hero_attack_form(state: GameState) -> Form:
    hero_id = state.active or state.heroes[0].id
    spec = state.scenario.hero(hero_id)
    psychic = lambda form: form.value("kind") == "psychic"  # noqa: E731
    fields: list[Field] = [
        Choice("target", "Target", _targets(state) or [(None, "nobody")]),
        Choice("kind", "Attack", [("physical", "Physical"), ("psychic", term(state.edition, "Psychic"))]),
        Number("ap", "Cost", 0, _ap_left(state), min(3, _ap_left(state)), unit=" AP"),
        Number("required", "Needs", 1, 8, 1, show=psychic),
        Number("effect_wounds", "Wounds", 0, 10, 1, show=psychic),
        Number("dice_count", "Dice", 0, MAX_DICE, spec.physique),
        Dice("dice", "Roll", spec.die, test=True),
    ]

    def update(form: Form) -> None:
        count = form.get("dice_count")
        assert isinstance(count, Number)
        if not count.touched:
            count.value = spec.mind if form.value("kind") == "psychic" else spec.physique
        link_dice_count(form)

    def build(form: Form) -> dict[str, Any]:
        target = form.value("target")
        if target is None:
            raise ValueError("target: no enemy is standing")
        group_id, number = target
        event: dict[str, Any] = {
            "type": "hero_attack", "group": group_id, "model": number, "kind": form.value("kind"),
            "ap": form.value("ap"), "dice": form.value("dice"),
        }  # fmt: skip
        if form.value("kind") == "psychic":
            event["required"] = form.value("required")
            event["effect_wounds"] = form.value("effect_wounds")
        return event

    form = Form("hero_attack", f"{spec.name} attacks", fields, build, update, apply_label="Attack")
    form.forced = by_target(state)  # Dodge, Iron will: the target's
    return form



def enemy_attack_form(state: GameState) -> Form:
    attacks: list[tuple[Any, str]] = []
    for group in state.groups:
        if not group.standing:
            continue
        spec = state.scenario.enemy(group.id)
        own = attacks_of(state, group.id)
        for attack in own:  # "Papal Guard" for a group with one attack, "Duellists: Pistol" with several
            words = spec.name if len(own) == 1 else f"{spec.name}: {attack.name}"
            attacks.append(((group.id, attack.name), words))
    heroes = [h for h in state.heroes if not h.ko and not h.removed]
    by_threat = sorted(heroes, key=lambda h: -h.threat)
    hero_options: list[tuple[Any, str]] = [(h.id, f"{name_of(state, h.id)} ({term(state.edition, 'Threat')} {h.threat})") for h in by_threat]
    first_die = state.scenario.hero(by_threat[0].id).die if by_threat else 8
    fields: list[Any] = [
        Choice("attack", "Attack", attacks or [(None, "none")]),
        Choice("hero", "On", hero_options or [(None, "nobody")]),
        Number("dice_count", "Dice", 0, MAX_DICE, 1),
        Dice("dice", "Roll", first_die, test=True),
    ]
    attack_field = fields[0]
    if state.active is not None:
        for value, _ in attacks:
            if value[0] == state.active:
                attack_field.select(value)
                break

    def update(form: Form) -> None:
        picked = form.value("attack")
        hero_id = form.value("hero")
        count = form.get("dice_count")
        dice = form.get("dice")
        assert isinstance(count, Number) and isinstance(dice, Dice)
        if picked is not None and hero_id is not None:
            group_id, name = picked
            attack = next(a for a in attacks_of(state, group_id) if a.name == name)
            hero = state.scenario.hero(hero_id)
            dice.roll_sides(hero.die)
            if not count.touched:
                count.value = max(0, min(MAX_DICE, getattr(hero, attack.defended_with)))
        link_dice_count(form)

    def build(form: Form) -> dict[str, Any]:
        picked = form.value("attack")
        hero_id = form.value("hero")
        if picked is None or hero_id is None:
            raise ValueError("attack: no enemy can attack, or no hero can be attacked")
        group_id, name = picked
        return {"type": "enemy_attack", "group": group_id, "attack": name, "hero": hero_id, "dice": form.value("dice")}

    def forced(form: Form) -> list[tuple[ForcedReroll, int]]:
        picked = form.value("attack")
        if picked is None:
            return []
        attack = next(a for a in attacks_of(state, picked[0]) if a.name == picked[1])
        return by_attacker(state, picked[0], attack.kind, attack.threshold)

    form = Form("enemy_attack", "Enemy attack", fields, build, update, apply_label="Resolve")
    form.forced = forced
    return form


def injury_form(state: GameState) -> Form:
    hero = state.hero(state.active) if state.active else None
    taken = set(hero.injuries) if hero else set()
    first = next((n for n in range(1, INJURY_CARDS + 1) if f"Injury {n}" not in taken), 1)
    card = Number("card", "Card no.", 1, INJURY_CARDS, first)
    return Form("injury", f"{name_of(state, state.active)} draws an Injury", [card],
                lambda form: {"type": "injury", "card": f"Injury {form.value('card')}"}, apply_label="Draw")  # fmt: skip


FIXES = [
    ("threat_up", "Threat +"),
    ("threat_down", "Threat −"),
    ("wound", "Wound hero"),
    ("heal", "Heal hero"),
    ("victory", "End: victory"),
    ("defeat", "End: defeat"),
    ("draft", "Enemy Draft"),
]


def fix_form(state: GameState) -> Form:
    """Corrections: the Perilium, a hero's or an enemy's wounds, an Enemy Draft a mission card calls for, the alarm, the mission's end."""
    def on_enemy(form: Form) -> bool:
        return form.value("what") in ("enemy_wound", "enemy_heal")

    def needs_hero(form: Form) -> bool:
        return form.value("what") not in ("victory", "defeat", "draft", "alarm", "calibrate", *RULE_FIXES) and not on_enemy(form)

    targets = _targets(state)
    fixes = [(key, label.replace("Threat", term(state.edition, "Threat"))) for key, label in FIXES
             if key != "draft" or can_draft(state)]
    if any(h.resistance for h in state.scenario.heroes):  # "Wound Tokens and Equipment"; first edition: armour
        word = equipment_word(state.edition).removeprefix("the ").capitalize()
        after = [key for key, _ in fixes].index("heal") + 1
        fixes[after:after] = [("equipment_up", f"{word} wound +"), ("equipment_down", f"{word} wound −")]
    if stealth_active(state):
        fixes.append(("alarm", "Raise the alarm"))
    if targets:  # a Status Token's or a mission's wounds, an Enemy's Healing
        fixes += [("enemy_wound", "Wound enemy"), ("enemy_heal", "Heal enemy")]
    fixes += rule_fixes(state)  # Status Tokens, a Location Card, Swiftness, Reagents (ui/rule_forms.py)
    fixes.append(("calibrate", "Calibrate dice"))  # the dice camera on the table's own dice: a screen, no event
    fields: list[Field] = [
        Choice("what", "Change", fixes),
        Choice("hero", "Hero", [(h.id, name_of(state, h.id)) for h in state.heroes], show=needs_hero),
        Choice("target", "Enemy", targets or [(None, "nobody")], show=on_enemy),  # offered only with a target
        Number("amount", "By", 1, 10, 1, show=lambda form: needs_hero(form) or on_enemy(form)),
    ]
    fields += manual_draft_fields(state, lambda form: form.value("what") == "draft")
    fields += rule_fix_fields(state)

    def build(form: Form) -> dict[str, Any]:
        what, hero, amount = form.value("what"), form.value("hero"), form.value("amount")
        ruled = rule_fix_event(form, state)
        if ruled is not None:
            return ruled
        if what in ("victory", "defeat"):
            return {"type": "end_mission", "result": what}
        if what == "alarm":
            return {"type": "alarm", "cause": "a mission rule"}
        if what == "calibrate":
            return {"screen": "calibrate"}  # not the game's: the app's screen (ui/calibrate_screen.py)
        if what == "draft":
            return manual_draft_event(form)
        if what == "threat_up":
            return {"type": "threat", "hero": hero, "delta": amount}
        if what == "threat_down":
            return {"type": "threat", "hero": hero, "delta": -amount}
        if what == "wound":  # on the Hero's sheet: the Equipment's are set apart
            return {"type": "damage", "hero": hero, "wounds": amount, "equipment": False}
        if what in ("enemy_wound", "enemy_heal"):
            group_id, number = form.value("target")
            return {"type": "damage" if what == "enemy_wound" else "heal", "group": group_id, "model": number, "wounds": amount}
        if what in ("equipment_up", "equipment_down"):
            return {"type": "equipment_wounds", "hero": hero, "delta": amount if what == "equipment_up" else -amount}
        return {"type": "heal", "hero": hero, "wounds": amount}

    return Form("fix", "Fix", fields, build, rule_fix_update(state), apply_label="Apply")
