"""Forms for the mission rules: the Enemy Draft (an event's, or one a mission card calls for), the Stealth roll,
and the order of a tie of many tokens.

Pure (no pygame). Events: `draft`, `stealth_roll` and `order` (`assistant.rules.game`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from assistant.rules.draft import available, draft_deck
from assistant.rules.horologium import step
from assistant.rules.names import name_of
from assistant.rules.questions import counted, listing
from assistant.rules.scenario import DraftOrder, EnemyGroupSpec
from assistant.rules.state import GameState
from assistant.rules.stealth import needed
from assistant.ui.form import Choice, Dice, Field, Form, Number, link_dice_count
from assistant.ui.words import roman

MAX_CARDS = 4


def draft_order(state: GameState, event_id: str) -> DraftOrder | None:
    """The Enemy Draft a due event calls for."""
    return next((e.draft for e in state.scenario.events if e.id == event_id), None)


def _cards_fields(state: GameState, deck: Sequence[EnemyGroupSpec], squares: Callable[[Any], int],
                  shown: Callable[[Form], bool] = lambda form: True) -> list[Field]:  # fmt: skip
    """Card 1, and card 2... only while the cards drawn so far leave squares without a model ("draw again")."""
    models = {card.id: available(state, card) for card in deck}
    ordered = sorted(deck, key=lambda card: models[card.id] == 0)  # cards with models left first
    options = [(card.id, f"{card.name} ({models[card.id]})") for card in ordered]

    def needs(index: int) -> Callable[[Form], bool]:
        def show(form: Form) -> bool:
            if not shown(form):
                return False
            left, used = squares(form), set()
            for before in range(1, index):
                card = form.value(f"card{before}")
                left -= 0 if card in used else models.get(card, 0)
                used.add(card)
            return left > 0

        return show

    count = min(MAX_CARDS, len(deck))  # card n shows the n-th card first: cards drawn are different cards
    return [Choice(f"card{n}", f"Card {n}", list(options), index=n - 1, show=needs(n)) for n in range(1, count + 1)]


def drawn(form: Form) -> list[str]:
    """The Draft Cards the form shows, in the order drawn."""
    return [str(form.value(f.key)) for _, f in form.visible() if f.key.startswith("card")]


def event_draft_form(state: GameState, event_id: str) -> Form:
    """"Enemy Draft" for a due event: the cards the table drew from the deck the event calls for."""
    order = draft_order(state, event_id)
    assert order is not None
    deck = draft_deck(state, order)
    fields = _cards_fields(state, deck, lambda form: order.squares)
    where = f" at {order.place}" if order.place else ""
    note = f"{order.faction} {order.rank} deck, {counted(order.squares, 'square')}{where}. Pick each card drawn (models left)."
    build = lambda form: {"type": "draft", "event": event_id, "cards": drawn(form)}  # noqa: E731
    return Form("draft", f"Enemy Draft: {name_of(state, event_id)}", fields, build, apply_label="Place", note=note)


def manual_draft_fields(state: GameState, shown: Callable[[Form], bool]) -> list[Field]:
    """A Draft a mission card calls for: squares, cards from every enemy card of the scenario, the new token's sector."""
    deck = list(state.scenario.enemies + state.scenario.reserves)
    fields: list[Field] = [Number("squares", "Squares", 1, 20, 1, show=shown)]
    fields += _cards_fields(state, deck, lambda form: int(form.value("squares")), shown)
    sector = step(state.clock.minute, 1)
    fields.append(Choice("sector", "Token in", [(n, roman(n)) for n in range(1, 13)], index=sector - 1, show=shown))
    return fields


def can_draft(state: GameState) -> bool:
    """True while some enemy card of the scenario has models left off the battlefield."""
    return any(available(state, card) > 0 for card in state.scenario.enemies + state.scenario.reserves)


def manual_draft_event(form: Form) -> dict[str, Any]:
    return {"type": "draft", "cards": drawn(form), "squares": form.value("squares"), "sector": form.value("sector")}


def stealth_form(state: GameState) -> Form:
    """"Stealth Card": after a Movement Action, 1 Swiftness die plus one for each AP the Hero spends on more."""
    hero_id = state.active
    assert hero_id is not None and state.turn is not None
    spec = state.scenario.hero(hero_id)
    value = needed(state)
    fields: list[Field] = [Number("dice_count", "Dice", 1, 1 + state.turn.ap_left, 1), Dice("dice", "Roll", spec.die)]

    def update(form: Form) -> None:
        link_dice_count(form)
        extra = int(form.value("dice_count")) - 1
        form.note = (f"One die must show {value} or more, or the Stealth Token moves up. "
                     f"Extra dice: {extra} AP of {state.turn.ap_left if state.turn else 0}.")  # fmt: skip

    def build(form: Form) -> dict[str, Any]:
        dice = form.value("dice")
        return {"type": "stealth_roll", "hero": hero_id, "ap": len(dice) - 1, "dice": dice}

    return Form("stealth", f"{spec.name}: Stealth roll", fields, build, update, apply_label="Roll", start="dice")


ORDINALS = ("1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th", "9th", "10th", "11th", "12th")


def order_form(state: GameState) -> Form:
    """"Models Activation": the players order a tie, one place after another, each from the tokens not yet
    placed (a tie of four or more has too many orders for a button each: 24 for four, 120 for five)."""
    head = state.up_next
    tie = next(group for group in state.ties if head in group)
    names = {token: name_of(state, token) for token in tie}
    places = [Choice(f"place{n}", ORDINALS[n] if n < len(ORDINALS) else f"{n + 1}th", [(t, names[t]) for t in tie])
              for n in range(len(tie))]  # fmt: skip
    for n, place in enumerate(places):
        place.index = n  # the order they stand in now

    def update(form: Form) -> None:
        placed: list[str] = []
        for place in places:  # each place offers the tokens the places before it left
            left = [token for token in tie if token not in placed]
            chosen = place.value if place.value in left else left[0]
            place.options, place.index = [(token, names[token]) for token in left], left.index(chosen)
            placed.append(chosen)

    def build(form: Form) -> dict[str, Any]:
        return {"type": "order", "ids": [place.value for place in places]}

    note = f"{listing(list(names.values()))} tie: who acts first? Turn each place; the last is who is left."
    return Form("order", "Order the tie", places, build, update, apply_label="Order", note=note)
