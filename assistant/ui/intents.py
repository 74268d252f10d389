"""What the table can do now: the menu of intents for a state, and the forms that make their events.

Pure (no pygame). An `Item` either applies its event at once (end an activation, order a tie,
resolve an event), opens a form (spend AP, attack with dice), or runs a command (undo, redo).
The events are the rules core's (`assistant.rules.game.EVENTS`).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from itertools import permutations
from typing import Any

from assistant.rules.draft import draft_deck
from assistant.rules.horologium import Side
from assistant.rules.state import GameState
from assistant.rules.stealth import needed, stealth_active
from assistant.ui.advice import Advice
from assistant.ui.ai_forms import MAX_DICE, choice_words, current_answer, defence_form, override_form, several_form
from assistant.ui.form import Choice, Dice, Field, Form, Number, link_dice_count
from assistant.ui.mission_forms import can_draft, draft_order, event_draft_form, manual_draft_event, manual_draft_fields, stealth_form
from assistant.ui.reactions import reactions_possible
from assistant.ui.words import model_name, name_of, option_words, token_label

ACTIONS = ("Skill", "Interact", "Use item", "Prayer", "Spell", "Other action")
INJURY_CARDS = 40


@dataclass(frozen=True)
class Item:
    """One button of the menu."""

    label: str
    key: str = ""  # keyboard shortcut (one lower-case letter), shown on the button
    event: dict[str, Any] | None = None
    form: str = ""
    command: str = ""  # "undo" | "redo" | "restart" | "declare_move" | "react" (the app's own, not an event)
    enabled: bool = True
    detail: str = ""  # a second, smaller line
    kind: str = "action"  # "action" | "order" | "event" | "command": how the button is coloured
    extra: dict[str, Any] = field(default_factory=dict)


def menu(state: GameState, can_undo: bool, can_redo: bool, advice: Advice | None = None,
         drafted: Collection[str] = ()) -> list[Item]:  # fmt: skip
    """The intents open at this state, most likely first; then Fix, Undo and Redo (kind "command").

    `drafted`: the events whose Enemy Draft the journal already holds (their Draft is not offered again).
    """
    items: list[Item] = []
    if state.over is None:
        items.extend(_intents(state, advice, drafted))
        if advice is not None and advice.choices:
            items.append(_override_item(state, advice))
        items.append(Item("Fix", "f", form="fix", kind="command"))
    else:
        items.append(Item("Play again", "n", command="restart", detail="a new game of this mission"))
    items.append(Item("Undo", "u", command="undo", enabled=can_undo, kind="command"))
    items.append(Item("Redo", "y", command="redo", enabled=can_redo, kind="command"))
    return items


def _intents(state: GameState, advice: Advice | None, drafted: Collection[str] = ()) -> list[Item]:
    if advice is not None and advice.side == "reaction":
        return _reaction_items(state, advice)
    if advice is not None and advice.side == "enemy":
        return _advised_items(state, advice)
    if advice is not None and advice.side == "hero" and advice.waiting:  # first edition: an overtaken Enemy reacts
        return _advised_items(state, advice)[:-1] + [Item("End activation", "e", {"type": "end_activation"})]
    return _table_items(state, drafted)


def _answer_items(state: GameState, question: Any) -> list[Item]:
    """One button per answer to the AI's question, and Several… when it takes more than one."""
    items = [
        Item(option_words(state, option), "", {"type": "ai_answer", "question": question.key, "answer": option},
             kind="order")  # fmt: skip
        for option in question.options
    ]
    if question.several:
        items.append(Item("Several…", "s", form="ai_several", kind="order"))
    return items


def _advised_items(state: GameState, advice: Advice) -> list[Item]:
    """An Enemy activation with the AI's plan: answer its question, roll the defence, or end."""
    end = Item("End activation", "e", {"type": "end_activation"})
    if advice.question is not None:
        return _answer_items(state, advice.question) + [end]
    if advice.attack is not None:
        hero = name_of(state, advice.attack.hero)
        return [Item("Defence roll", "d", form="ai_defence", detail=f"{hero}, {advice.attack.dice} dice"),
                Item("Other attack", "a", form="enemy_attack"), end]  # fmt: skip
    return [end, Item("Enemy attack", "a", form="enemy_attack")]


def _reaction_items(state: GameState, advice: Advice) -> list[Item]:
    """Renaissance Reaction Attacks: who is adjacent (Nobody first: one tap), then each attack's defence roll."""
    question = advice.question
    if question is not None:
        models = [o for o in question.options if o != "none"]
        items = [Item("Nobody", "n", command="react", kind="order", extra={"adjacent": ["none"]})]
        items += [Item(option_words(state, m), "", command="react", kind="order", extra={"adjacent": [m]}) for m in models]
        if len(models) > 1:
            items.append(Item("Several…", "s", form="react_several", kind="order"))
        return items
    if advice.attack is not None:
        order = advice.attack
        who = model_name(state, f"{order.group}/{order.model}")
        return [Item("Defence roll", "d", form="reaction_defence", detail=f"{who} on {name_of(state, order.hero)}")]
    return [Item("Move", "m", form="move", detail="the reactions are resolved")]


def _override_item(state: GameState, advice: Advice) -> Item:
    """Change one of the AI's open choices; the detail says the latest one in force."""
    latest = advice.choices[-1]
    return Item("Change choice", "c", form="ai_choice", detail=choice_words(state, latest, current_answer(state, latest)))


def _order_words(state: GameState, order: tuple[str, ...]) -> str:
    """A tie order in few words: "Valerio first" for two, "Va, El, Vi" for more."""
    if len(order) == 2:
        return f"{name_of(state, order[0])} first"
    return ", ".join(token_label(state, i) for i in order)


def _event_items(state: GameState, drafted: Collection[str]) -> list[Item]:
    """Due events: the Enemy Draft an event calls for first, then resolving it."""
    texts = {e.id: e.text for e in state.scenario.events}
    items: list[Item] = []
    for event_id in state.due:
        order = draft_order(state, event_id)
        if order is not None and event_id not in drafted:
            deck = draft_deck(state, order)
            items.append(Item("Enemy Draft", "g", form="draft", enabled=bool(deck), kind="event",
                              detail="the cards drawn", extra={"event": event_id}))  # fmt: skip
        detail = f"event {event_id}" if order is not None else texts.get(event_id, "")  # the Draft's text is shown above
        items.append(Item("Resolve event" if order is not None else f"Resolve event {event_id}", "r",
                          {"type": "resolve_event", "event": event_id}, kind="event", detail=detail))  # fmt: skip
    return items


def _table_items(state: GameState, drafted: Collection[str] = ()) -> list[Item]:
    if state.due:
        return _event_items(state, drafted)
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
        return _hero_items(state)
    return [
        Item("Enemy attack", "a", form="enemy_attack", enabled=any(not h.ko and not h.removed for h in state.heroes)),
        Item("End activation", "e", {"type": "end_activation"}),
    ]


def _hero_items(state: GameState) -> list[Item]:
    turn = state.turn
    assert turn is not None
    if state.hero(turn.token).ko:
        return [Item("Draw an Injury", "i", form="injury", detail=f"{name_of(state, turn.token)} is KO")]
    has_ap = turn.ap_left > 0
    # Renaissance: a Move first asks who is adjacent (Reaction Attacks); otherwise the move form at once
    move = Item("Move", "m", command="declare_move", enabled=has_ap) if reactions_possible(state) else \
        Item("Move", "m", form="move", enabled=has_ap)  # fmt: skip
    items = [
        move,
        Item("Attack", "a", form="hero_attack", enabled=any(g.standing for g in state.groups)),
        Item("Wait", "w", form="wait", enabled=has_ap),
        Item("Action", "o", form="action", enabled=has_ap, detail="skill, item…"),
    ]
    if stealth_active(state):
        items.append(Item("Stealth roll", "s", form="stealth", detail=f"needs {needed(state)}+"))
    return items + [Item("End activation", "e", {"type": "end_activation"})]


# ---------------------------------------------------------------------------------------------
# forms


def make_form(name: str, state: GameState, advice: Advice | None = None, extra: dict[str, Any] | None = None) -> Form:
    """The form `name` of a menu item, with defaults from the state (and the AI's plan, and the item's `extra`)."""
    extra = extra or {}
    if name in ("ai_defence", "reaction_defence") and advice is not None and advice.attack is not None:
        return defence_form(state, advice.attack, name)
    if name in ("ai_several", "react_several") and advice is not None and advice.question is not None:
        return several_form(state, advice.question, local=name == "react_several")
    if name == "ai_choice" and advice is not None and advice.choices:
        return override_form(state, advice.choices, str(extra.get("choice", "")))
    if name == "draft":
        return event_draft_form(state, str(extra.get("event") or next(e for e in state.due if draft_order(state, e))))
    builders = {
        "move": _move_form,
        "wait": _wait_form,
        "action": _action_form,
        "hero_attack": _hero_attack_form,
        "enemy_attack": _enemy_attack_form,
        "injury": _injury_form,
        "fix": _fix_form,
        "stealth": stealth_form,
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
    ("draft", "Enemy Draft"),
]


def _fix_form(state: GameState) -> Form:
    """Corrections: the Perilium, a hero's wounds, an Enemy Draft a mission card calls for, the alarm, the mission's end."""
    needs_hero = lambda form: form.value("what") not in ("victory", "defeat", "draft", "alarm")  # noqa: E731
    fixes = [fix for fix in FIXES if fix[0] != "draft" or can_draft(state)]
    if stealth_active(state):
        fixes.append(("alarm", "Raise the alarm"))
    fields: list[Field] = [
        Choice("what", "Change", fixes),
        Choice("hero", "Hero", [(h.id, name_of(state, h.id)) for h in state.heroes], show=needs_hero),
        Number("amount", "By", 1, 10, 1, show=needs_hero),
    ]
    fields += manual_draft_fields(state, lambda form: form.value("what") == "draft")

    def build(form: Form) -> dict[str, Any]:
        what, hero, amount = form.value("what"), form.value("hero"), form.value("amount")
        if what in ("victory", "defeat"):
            return {"type": "end_mission", "result": what}
        if what == "alarm":
            return {"type": "alarm", "cause": "a mission rule"}
        if what == "draft":
            return manual_draft_event(form)
        if what == "threat_up":
            return {"type": "threat", "hero": hero, "delta": amount}
        if what == "threat_down":
            return {"type": "threat", "hero": hero, "delta": -amount}
        if what == "wound":
            return {"type": "damage", "hero": hero, "wounds": amount}
        return {"type": "heal", "hero": hero, "wounds": amount}

    return Form("fix", "Fix", fields, build, apply_label="Apply")
