"""What the table can do now: the menu of intents for a state, and which form each item opens.

Pure (no pygame). An `Item` either applies its event at once (end an activation, order a tie,
resolve an event, answer the AI), opens a form (spend AP, attack with dice, a defence roll, a
Draft...: `action_forms`, `ai_forms`, `mission_forms`), or runs a command of the app's own
(undo, redo, declaring a Move, saying who is adjacent). The events are the rules core's
(`assistant.rules.game.EVENTS`).
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass, field
from itertools import permutations
from typing import Any

from assistant.rules.draft import draft_deck
from assistant.rules.edition import Edition, term
from assistant.rules.horologium import Side
from assistant.rules.names import choice_words, model_name, name_of, option_words
from assistant.rules.questions import counted
from assistant.rules.reactions import NOBODY
from assistant.rules.state import UNDECIDED, GameState
from assistant.rules.stealth import needed, stealth_active
from assistant.ui.advice import Advice
from assistant.ui.action_forms import (
    action_form,
    enemy_attack_form,
    fix_form,
    hero_attack_form,
    injury_form,
    move_form,
    wait_form,
)
from assistant.ui.ai_forms import by_count, count_labels, counted_dice, current_answer, defence_form, override_form, several_form
from assistant.ui.form import Form
from assistant.ui.mission_forms import draft_order, event_draft_form, order_form, stealth_form
from assistant.ui.reactions import adjacency_question
from assistant.ui.rule_forms import RULE_FORMS, rule_form
from assistant.ui.words import token_label

@dataclass(frozen=True)
class Item:
    """One button of the menu."""

    label: str
    key: str = ""  # keyboard shortcut (one lower-case letter), shown on the button
    event: dict[str, Any] | None = None
    form: str = ""
    command: str = ""  # "undo" | "redo" | "restart" | "ask_adjacent" | "react" (the app's own: `react` journals a declare_move)
    enabled: bool = True
    detail: str = ""  # a second, smaller line
    kind: str = "action"  # "action" | "order" | "event" | "command": how the button is coloured
    extra: dict[str, Any] = field(default_factory=dict)


def turned(items: list[Item], focus: int, delta: int) -> int:
    """The focus `delta` enabled items on from `focus` (round; from the first where `focus` is not enabled); as it
    is where none is enabled."""
    enabled = [n for n, item in enumerate(items) if item.enabled]
    if not enabled:
        return focus
    at = enabled.index(focus) if focus in enabled else 0
    return enabled[(at + delta) % len(enabled)]


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
        if state.over in UNDECIDED:  # the time is up (or no token is left): the mission card says which it is
            ends = [Item("Victory", "v", {"type": "end_mission", "result": "victory"}, kind="event"),
                    Item("Defeat", "d", {"type": "end_mission", "result": "defeat"}, kind="event")]
            items += ends[::-1] if met_result(state) == "defeat" else ends  # the first is focused
        items.append(Item("Play again", "n", command="restart", detail="this mission anew"))
    items.append(Item("Undo", "u", command="undo", enabled=can_undo, kind="command"))
    items.append(Item("Redo", "y", command="redo", enabled=can_redo, kind="command"))
    return items


def met_result(state: GameState) -> str | None:
    """What the mission's conditions make of the end met: "defeat" for 3 Heroes KO (Renaissance "End of a Mission":
    "At least 3 Heroes are KO", the demo's Defeat condition), unless only its Victory conditions name the KO;
    None where the paragraph alone says (the time up, no token left): both are asked, neither is preferred."""
    if state.over != "ko":
        return None
    ko = re.compile(rf"\b{re.escape(term(state.edition, 'KO'))}\b", re.IGNORECASE)
    named = [any(ko.search(text) for text in conditions) for conditions in (state.scenario.victory, state.scenario.defeat)]
    return "victory" if named == [True, False] else "defeat"


def _intents(state: GameState, advice: Advice | None, drafted: Collection[str] = ()) -> list[Item]:
    if advice is not None and advice.side == "reaction":
        return _reaction_items(state, advice)
    if advice is not None and advice.side == "enemy":
        return _advised_items(state, advice)
    if advice is not None and advice.side == "hero" and advice.waiting:  # first edition: an overtaken Enemy reacts
        return _advised_items(state, advice, ends=False)  # the activation ends once the reaction is settled
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


def _advised_items(state: GameState, advice: Advice, ends: bool = True) -> list[Item]:
    """An Enemy activation with the AI's plan: answer its question (and only that: rules/game.py refuses to end
    the activation before), roll the defence, or end (`ends`: the last button kept)."""
    end = Item("End activation", "e", {"type": "end_activation"})
    if advice.question is not None:
        return _answer_items(state, advice.question)
    if advice.attack is not None:
        hero = name_of(state, advice.attack.hero)
        order = advice.attack
        counts = [Item(label, "", order.event(counted_dice(state, order, n)), kind="order")
                  for n, label in count_labels(order)] if by_count(state, order) else []  # one tap a roll (issue 62)
        items = [*counts, Item("Defence roll", "d", form="ai_defence", detail=f"{hero}, {counted(order.dice, 'die', 'dice')}"),
                 Item("Other attack", "a", form="enemy_attack"), end]  # fmt: skip
    else:
        items = [end, Item("Enemy attack", "a", form="enemy_attack")]
    return items if ends else items[:-1]


def _reaction_items(state: GameState, advice: Advice) -> list[Item]:
    """Renaissance Reaction Attacks: who is adjacent (Nobody first: one tap), then each attack's defence roll."""
    question = advice.question
    if question is not None:
        models = [o for o in question.options if o != NOBODY]
        items = [Item("Nobody", "n", command="react", kind="order", extra={"adjacent": []})]
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
    """Change one of the AI's open choices; the detail says the latest one in force. Who acts next is said as the
    order of the group's models ("Slingers 1, 2, 3"): its latest answer alone ("Slingers 2") read as who acts now
    while Slingers 3, the last left, acted."""
    latest = advice.choices[-1]
    if latest.kind == "next":
        group = latest.model.partition("/")[0]
        asked = [c for c in advice.choices if c.kind == "next" and c.model.partition("/")[0] == group]
        order = [current_answer(state, c) for c in asked]
        order += [option for option in asked[-1].options if option not in order]
        return Item("Change choice", "c", form="ai_choice", detail=f"order: {name_of(state, group)} {', '.join(order)}")
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
        detail = name_of(state, event_id) if order is not None else texts.get(event_id, "")  # the Draft's text is shown above
        items.append(Item("Resolve event" if order is not None else f"Resolve event {name_of(state, event_id)}", "r",
                          {"type": "resolve_event", "event": event_id}, kind="event", detail=detail))  # fmt: skip
    return items


def _table_items(state: GameState, drafted: Collection[str] = ()) -> list[Item]:
    if state.due:
        return _event_items(state, drafted)
    head = state.up_next
    if state.turn is None and head is not None:
        tie = next((group for group in state.ties if head in group), None)
        if tie is not None and len(tie) > 3:  # 24 orders or more: a place at a time
            return [Item("Order the tie", "o", form="order", kind="order", detail=f"{len(tie)} tokens")]
        if tie is not None:
            return [
                Item(_order_words(state, order), "", {"type": "order", "ids": list(order)}, kind="order")
                for order in permutations(tie)
            ]
        if state.side_of(head) is Side.EVENT:
            return [
                Item("Resolve", "r", {"type": "resolve_event", "event": head}, kind="event", detail="token removed"),
                Item("Keep it", "k", {"type": "resolve_event", "event": head, "keep": True},
                     kind="event", detail="resolved, stays"),
            ]  # fmt: skip  (the token is named in the sentence above: "Resolve the mystery-1 token in sector IX...")
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
    if state.hero(turn.token).ko and state.edition is Edition.CLASSIC:  # out of action by a reacting model
        return [Item("End activation", "e", {"type": "end_activation"}, detail=f"{name_of(state, turn.token)} is out of action")]
    if state.hero(turn.token).ko:
        return [Item("Draw an Injury", "i", form="injury", detail=f"{name_of(state, turn.token)} is KO")]
    has_ap = turn.ap_left > 0
    # Renaissance: a Move first asks who is adjacent (Reaction Attacks); otherwise the move form at once
    move = Item("Move", "m", command="ask_adjacent", enabled=has_ap) if adjacency_question(state) is not None else \
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
        return several_form(state, advice.question, name)
    if name == "ai_choice" and advice is not None and advice.choices:
        return override_form(state, advice.choices, str(extra.get("choice", "")))
    if name == "draft":
        return event_draft_form(state, str(extra.get("event") or next(e for e in state.due if draft_order(state, e))))
    if name in RULE_FORMS:  # a Dash, a Reaction Skill, the Loot at the end, the Out of action roll (ui/rule_forms.py)
        return rule_form(name, state, extra)
    builders = {
        "move": move_form,
        "wait": wait_form,
        "action": action_form,
        "hero_attack": hero_attack_form,
        "enemy_attack": enemy_attack_form,
        "injury": injury_form,
        "fix": fix_form,
        "stealth": stealth_form,
        "order": order_form,
    }
    return builders[name](state)
