"""Enemy attack traits applied on the demo: the Halberd's Critical 1 and the Quicksilver Mist's Poisoned."""

from __future__ import annotations

from typing import Any

from assistant.rules.game import apply
from assistant.rules.state import GameState
from assistant.session.fold import default_folds
from tests.session.conftest import demo_text


def demo(text: str | None = None) -> GameState:
    state: GameState = default_folds("mission", text or demo_text(), "demo.toml").initial()
    return state


def until(state: GameState, token: str) -> GameState:
    """Activations ended (the AI's questions skipped) until `token` acts."""
    for _ in range(60):
        if state.active == token and not state.ties:
            return state
        event: dict[str, Any] = {"type": "end_activation", "skip": True}
        if state.due:
            event = {"type": "resolve_event", "event": state.due[0]}
        elif state.turn is None:  # a tie to order, or a timed event or token to resolve
            event = ({"type": "order", "ids": list(state.ties[0])} if state.ties
                     else {"type": "resolve_event", "event": state.queue[0]})  # fmt: skip
        state = apply(state, event)
    raise AssertionError(f"{token} never acted")


def test_the_halberds_critical_1_inflicts_an_extra_wound_on_three() -> None:
    """Renaissance "Critical": "any Attack that inflicts 3 or more Wounds always inflicts an extra Wound"."""
    guard = until(demo(), "papal_guard")
    three = apply(guard, {"type": "enemy_attack", "group": "papal_guard", "hero": "sofia", "dice": [1, 2, 3]})
    assert three.hero("sofia").wounds == 4  # 3 hits, none saved: 3 wounds and the Critical's extra one
    assert "Critical 1: 1 extra wound" in three.notes[-1]
    two = apply(guard, {"type": "enemy_attack", "group": "papal_guard", "hero": "sofia", "dice": [5, 2, 3]})
    assert two.hero("sofia").wounds == 2 and "Critical" not in two.notes[-1]  # 2 wounds: no Critical


def test_a_critical_on_a_hero_it_knocks_out_adds_nothing_more() -> None:
    guard = until(demo(), "papal_guard")
    worn = apply(guard, {"type": "damage", "hero": "eleonora", "wounds": 1})  # Health 4: 3 more KO her
    hit = apply(worn, {"type": "enemy_attack", "group": "papal_guard", "hero": "eleonora", "dice": [1, 1]})
    assert hit.hero("eleonora").ko and hit.hero("eleonora").wounds == 4


def test_critical_x_inflicts_x_extra_wounds() -> None:
    text = demo_text().replace('traits = ["Critical 1"]', 'traits = ["Critical 2"]', 1)
    guard = until(demo(text), "papal_guard")
    hit = apply(guard, {"type": "enemy_attack", "group": "papal_guard", "hero": "valerio", "dice": [1, 1, 1, 1]})
    assert hit.hero("valerio").wounds == 5  # 3 wounds and 2 extra


def test_the_mists_poisoned_gives_the_hero_the_token_when_the_attack_succeeds() -> None:
    """Quicksilver Mist: Contrast 2, 2 Wounds, Poisoned: a Hero who does not obtain 2 Successes gains the token."""
    alchemist = until(demo(), "alchemist")
    poisoned = apply(alchemist, {"type": "enemy_attack", "group": "alchemist", "hero": "vincenzo", "dice": [5, 2]})
    assert poisoned.hero("vincenzo").statuses == ("Poisoned",)  # 1 of 2 successes: the Effect applies
    assert poisoned.hero("vincenzo").wounds == 2 and "Vincenzo gains Poisoned" in poisoned.notes
    resisted = apply(alchemist, {"type": "enemy_attack", "group": "alchemist", "hero": "vincenzo", "dice": [5, 6]})
    assert resisted.hero("vincenzo").statuses == () and resisted.hero("vincenzo").wounds == 0
    again = apply(until(apply(poisoned, {"type": "end_activation", "skip": True}), "alchemist"),
                  {"type": "enemy_attack", "group": "alchemist", "hero": "vincenzo", "dice": [2, 2]})
    assert again.hero("vincenzo").statuses == ("Poisoned",)  # one already held: the new one is discarded
    assert "Vincenzo already has Poisoned: the new one is discarded" in again.notes


def test_a_hero_knocked_out_by_the_mist_gains_no_token() -> None:
    """"KO Hero": a KO Hero suffers no game effect (and discards their Status Tokens)."""
    alchemist = until(demo(), "alchemist")
    worn = apply(alchemist, {"type": "damage", "hero": "eleonora", "wounds": 2})
    ko = apply(worn, {"type": "enemy_attack", "group": "alchemist", "hero": "eleonora", "dice": [2, 2]})
    assert ko.hero("eleonora").ko and ko.hero("eleonora").statuses == ()
