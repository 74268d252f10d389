"""What the table can do now: the menu of intents for a state, and the forms that make their events.

Pure (no pygame). An `Item` either applies its event at once (end an activation, order a tie,
resolve an event), opens a form (spend AP, attack with dice), or runs a command (undo, redo).
The events are the rules core's (`assistant.rules.game.EVENTS`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import permutations
from typing import Any

from assistant.rules.horologium import Side
from assistant.rules.state import GameState
from assistant.ui.advice import Advice
from assistant.ui.form import Choice, Dice, Field, Form, Number, link_dice_count
from assistant.ui.words import name_of, token_label

ACTIONS = ("Skill", "Interact", "Use item", "Prayer", "Spell", "Other action")
INJURY_CARDS = 40
MAX_DICE = 12


@dataclass(frozen=True)
class Item:
    """One button of the menu."""

    label: str
    key: str = ""  # keyboard shortcut (one lower-case letter), shown on the button
    event: dict[str, Any] | None = None
    form: str = ""
    command: str = ""  # "undo" | "redo"
    enabled: bool = True
    detail: str = ""  # a second, smaller line
    kind: str = "action"  # "action" | "order" | "event" | "command": how the button is coloured
    extra: dict[str, Any] = field(default_factory=dict)


def menu(state: GameState, can_undo: bool, can_redo: bool, advice: Advice | None = None) -> list[Item]:
    """The intents open at this state, most likely first; then Fix, Undo and Redo (kind "command")."""
    items: list[Item] = []
    if state.over is None:
        items.extend(_advised_items(state, advice) if advice is not None else _table_items(state))
        items.append(Item("Fix", "f", form="fix", kind="command"))
    else:
        items.append(Item("Play again", "n", command="restart", detail="a new game of this mission"))
    items.append(Item("Undo", "u", command="undo", enabled=can_undo, kind="command"))
    items.append(Item("Redo", "y", command="redo", enabled=can_redo, kind="command"))
    return items


def _option_words(state: GameState, option: str) -> str:
    if option in ("yes", "no", "more"):
        return option.capitalize()
    if any(h.id == option for h in state.heroes):
        return name_of(state, option)
    return option


def _advised_items(state: GameState, advice: Advice) -> list[Item]:
    """An Enemy activation with the AI's plan: answer its question, roll the defence, or end."""
    end = Item("End activation", "e", {"type": "end_activation"})
    question = advice.question
    if question is not None:
        items = [
            Item(_option_words(state, option), "", {"type": "ai_answer", "question": question.key, "answer": option},
                 kind="order")  # fmt: skip
            for option in question.options
        ]
        if question.several:
            items.append(Item("Several…", "s", form="ai_several", kind="order"))
        return items + [end]
    if advice.attack is not None:
        hero = name_of(state, advice.attack.hero)
        return [Item("Defence roll", "d", form="ai_defence", detail=f"{hero}, {advice.attack.dice} dice"),
                Item("Other attack", "a", form="enemy_attack"), end]  # fmt: skip
    return [end, Item("Enemy attack", "a", form="enemy_attack")]


def _order_words(state: GameState, order: tuple[str, ...]) -> str:
    """A tie order in few words: "Valerio first" for two, "Va, El, Vi" for more."""
    if len(order) == 2:
        return f"{name_of(state, order[0])} first"
    return ", ".join(token_label(state, i) for i in order)


def _table_items(state: GameState) -> list[Item]:
    if state.due:
        texts = {e.id: e.text for e in state.scenario.events}
        return [
            Item(f"Resolve event {event_id}", "r", {"type": "resolve_event", "event": event_id}, kind="event",
                 detail=texts.get(event_id, ""))  # fmt: skip
            for event_id in state.due
        ]
    head = state.up_next
    if state.turn is None and head is not None:
        tie = next((group for group in state.ties if head in group), None)
        if tie is not None:
            return [
                Item(_order_words(state, order), "", {"type": "order", "ids": list(order)}, kind="order")
                for order in permutations(tie)
            ]
        if state.side_of(head) is Side.EVENT:
            return [
                Item(f"Resolve {head}", "r", {"type": "resolve_event", "event": head}, kind="event",
                     detail="and take the token off"),
                Item(f"Resolve {head}, keep it", "k", {"type": "resolve_event", "event": head, "keep": True},
                     kind="event", detail="the token stays"),
            ]  # fmt: skip
    turn = state.turn
    if turn is None:
        return []
    if state.side_of(turn.token) is Side.HERO:
        if state.hero(turn.token).ko:
            return [Item("Draw an Injury", "i", form="injury", detail=f"{name_of(state, turn.token)} is KO")]
        has_ap = turn.ap_left > 0
        return [
            Item("Move", "m", form="move", enabled=has_ap),
            Item("Attack", "a", form="hero_attack", enabled=any(g.standing for g in state.groups)),
            Item("Wait", "w", form="wait", enabled=has_ap),
            Item("Action", "o", form="action", enabled=has_ap, detail="skill, item…"),
            Item("End activation", "e", {"type": "end_activation"}),
        ]
    return [
        Item("Enemy attack", "a", form="enemy_attack", enabled=any(not h.ko and not h.removed for h in state.heroes)),
        Item("End activation", "e", {"type": "end_activation"}),
    ]


# ---------------------------------------------------------------------------------------------
# forms


def make_form(name: str, state: GameState, advice: Advice | None = None) -> Form:
    """The form `name` of a menu item, with defaults from the state (and the AI's plan)."""
    if name == "ai_defence" and advice is not None and advice.attack is not None:
        return _defence_form(state, advice.attack)
    if name == "ai_several" and advice is not None and advice.question is not None:
        return _several_form(state, advice.question)
    builders = {
        "move": _move_form,
        "wait": _wait_form,
        "action": _action_form,
        "hero_attack": _hero_attack_form,
        "enemy_attack": _enemy_attack_form,
        "injury": _injury_form,
        "fix": _fix_form,
    }
    return builders[name](state)


def _ap_left(state: GameState) -> int:
    return state.turn.ap_left if state.turn else 0


def _spend(action: str) -> Any:
    def build(form: Form) -> dict[str, Any]:
        words = action or str(form.value("action")).lower()
        return {"type": "spend_ap", "action": words, "ap": form.value("ap")}

    return build


def _move_form(state: GameState) -> Form:
    ap = Number("ap", "Spend", 1, max(1, _ap_left(state)), 1, unit=" AP")
    return Form("move", f"{name_of(state, state.active)} moves", [ap], _spend("move"), apply_label="Move")


def _wait_form(state: GameState) -> Form:
    left = max(1, _ap_left(state))
    ap = Number("ap", "Spend", 1, left, left, unit=" AP")
    return Form("wait", f"{name_of(state, state.active)} waits", [ap], _spend("wait"), apply_label="Wait")


def _action_form(state: GameState) -> Form:
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


def _hero_attack_form(state: GameState) -> Form:
    hero_id = state.active or state.heroes[0].id
    spec = state.scenario.hero(hero_id)
    psychic = lambda form: form.value("kind") == "psychic"  # noqa: E731
    fields: list[Field] = [
        Choice("target", "Target", _targets(state) or [(None, "nobody")]),
        Choice("kind", "Attack", [("physical", "Physical"), ("psychic", "Psychic")]),
        Number("ap", "Cost", 0, _ap_left(state), min(3, _ap_left(state)), unit=" AP"),
        Number("required", "Needs", 1, 8, 1, show=psychic),
        Number("effect_wounds", "Wounds", 0, 10, 1, show=psychic),
        Number("dice_count", "Dice", 0, MAX_DICE, spec.physique),
        Dice("dice", "Roll", spec.die),
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

    return Form("hero_attack", f"{spec.name} attacks", fields, build, update, apply_label="Attack")


def _enemy_attack_form(state: GameState) -> Form:
    attacks: list[tuple[Any, str]] = []
    for group in state.groups:
        if not group.standing:
            continue
        spec = state.scenario.enemy(group.id)
        for attack in spec.attacks:  # "Papal Guard" for a group with one attack, "PG: Halberd" with several
            words = spec.name if len(spec.attacks) == 1 else f"{token_label(state, group.id)}: {attack.name}"
            attacks.append(((group.id, attack.name), words))
    heroes = [h for h in state.heroes if not h.ko and not h.removed]
    by_threat = sorted(heroes, key=lambda h: -h.threat)
    hero_options: list[tuple[Any, str]] = [(h.id, f"{name_of(state, h.id)} (Threat {h.threat})") for h in by_threat]
    first_die = state.scenario.hero(by_threat[0].id).die if by_threat else 8
    fields: list[Any] = [
        Choice("attack", "Attack", attacks or [(None, "none")]),
        Choice("hero", "On", hero_options or [(None, "nobody")]),
        Number("dice_count", "Dice", 0, MAX_DICE, 1),
        Dice("dice", "Roll", first_die),
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
            attack = next(a for a in state.scenario.enemy(group_id).attacks if a.name == name)
            hero = state.scenario.hero(hero_id)
            dice.sides = hero.die
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

    return Form("enemy_attack", "Enemy attack", fields, build, update, apply_label="Resolve")


def _defence_form(state: GameState, order: Any) -> Form:
    """The Hero's Defense Test against the attack the AI ordered: only the dice to read or type."""
    hero = state.scenario.hero(order.hero)
    fields: list[Field] = [Number("dice_count", "Dice", 0, MAX_DICE, order.dice), Dice("dice", "Roll", hero.die)]
    title = f"{hero.name} defends ({order.defended_with}, {order.threshold}+)"
    return Form("ai_defence", title, fields, lambda form: dict(order.event(form.value("dice"))),
                lambda form: link_dice_count(form), apply_label="Resolve", start="dice")  # fmt: skip


def _several_form(state: GameState, question: Any) -> Form:
    """A question the table may answer with several options (heroes equally close): yes or no for each."""
    fields: list[Field] = [
        Choice(option, _option_words(state, option), [(False, "no"), (True, "yes")]) for option in question.options
    ]

    def build(form: Form) -> dict[str, Any]:
        picked = [option for option in question.options if form.value(option)]
        if not picked:
            raise ValueError("pick at least one")
        return {"type": "ai_answer", "question": question.key, "answer": picked}

    return Form("ai_several", "Equally close", fields, build, apply_label="Answer")


def _injury_form(state: GameState) -> Form:
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
]


def _fix_form(state: GameState) -> Form:
    """Corrections: the Perilium, a hero's wounds, and ending the mission by its cards."""
    needs_hero = lambda form: form.value("what") not in ("victory", "defeat")  # noqa: E731
    fields: list[Field] = [
        Choice("what", "Change", list(FIXES)),
        Choice("hero", "Hero", [(h.id, name_of(state, h.id)) for h in state.heroes], show=needs_hero),
        Number("amount", "By", 1, 10, 1, show=needs_hero),
    ]

    def build(form: Form) -> dict[str, Any]:
        what, hero, amount = form.value("what"), form.value("hero"), form.value("amount")
        if what in ("victory", "defeat"):
            return {"type": "end_mission", "result": what}
        if what == "threat_up":
            return {"type": "threat", "hero": hero, "delta": amount}
        if what == "threat_down":
            return {"type": "threat", "hero": hero, "delta": -amount}
        if what == "wound":
            return {"type": "damage", "hero": hero, "wounds": amount}
        return {"type": "heal", "hero": hero, "wounds": amount}

    return Form("fix", "Fix", fields, build, apply_label="Apply")
