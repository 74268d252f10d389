"""Renaissance "Enemy Draft": the deck a mission calls for, and placing the drawn Enemies and their token."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from assistant.rules.errors import RuleError, shown
from assistant.rules.horologium import Side, Token, roman, step
from assistant.rules.questions import counted
from assistant.rules.scenario import DraftOrder, EnemyGroupSpec
from assistant.rules.state import GameState, GroupState, ModelState


def draft_deck(state: GameState, order: DraftOrder) -> tuple[EnemyGroupSpec, ...]:
    """"Enemy Draft" step 1: the Draft Cards of the faction and rank, less the excluded enemies and skills."""
    return deck_of(state.scenario.enemies + state.scenario.reserves, order)


def deck_of(cards: Sequence[EnemyGroupSpec], order: DraftOrder) -> tuple[EnemyGroupSpec, ...]:
    """The cards of `cards` an Enemy Draft's deck takes (`draft_deck`)."""
    return tuple(
        card
        for card in cards
        if card.faction.lower() == order.faction.lower()
        and card.rank == order.rank
        and card.id not in order.exclude
        and not {s.lower() for s in card.generic_skills} & {s.lower() for s in order.exclude_skills}
    )


def available(state: GameState, card: EnemyGroupSpec) -> int:
    """Miniatures of the Draft Card not on the battlefield ("Draft Cards": "Number of Models available for the Enemy
    indicated"): the card's number (`draft_models`, else the scenario's `models`) less those standing."""
    standing = 0
    for group in state.groups:
        if group.id == card.id:
            standing = len(group.standing)
    printed = card.draft_models if card.draft_models is not None else card.models
    return max(0, printed - standing)


def place_draft(state: GameState, cards: Sequence[str], squares: int, sector: int | None = None,
                order: DraftOrder | None = None) -> GameState:  # fmt: skip
    """"Enemy Draft" steps 2-4: a model on each square, card after card; new tokens after the active sector."""
    if squares < 1:
        raise RuleError("squares", f"must be at least 1, not {squares}")
    deck = {c.id for c in draft_deck(state, order)} if order is not None else None
    left = squares
    placed: list[str] = []
    for index, card_id in enumerate(cards):
        try:
            card = state.scenario.enemy(card_id)
        except KeyError:
            raise RuleError(f"cards[{index}]", f"no enemy card {shown(card_id)} in the scenario") from None
        if deck is not None and card_id not in deck:
            raise RuleError(f"cards[{index}]", f"{card.name} is not in this Draft deck ({', '.join(sorted(deck)) or 'empty'})")
        if left == 0:
            raise RuleError(f"cards[{index}]", "not needed: every square already has a model")
        count = min(available(state, card), left)
        left -= count
        if count == 0:
            placed.append(f"{card.name}: no model left, draw again")
            continue
        if not any(g.id == card.id for g in state.groups):
            state = replace(state, groups=state.groups + (GroupState(card.id, ()),))
        group = state.group(card.id)
        state = state.with_group(replace(group, models=group.models + tuple(ModelState() for _ in range(count))))
        where = ""
        if not state.has_token(card.id):
            at = sector if sector is not None else step(state.clock.minute, 1)
            state = replace(state, tokens=state.tokens + (Token(card.id, Side.ENEMY, at, card.swiftness),))
            where = f"; the {card.name} activation token goes in sector {roman(at)}"
        placed.append(f"{card.name}: {counted(count, 'model')}{where}")
    if left:
        raise RuleError("cards", f"{left} square{'s still need' if left > 1 else ' still needs'} a model: draw another Draft Card")
    return replace(state, notes=state.notes + ("Enemy Draft: " + "; ".join(placed),))
