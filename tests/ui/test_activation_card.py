"""The activation card (issue 62): on an Enemy's turn the active model's whole plan is above the buttons, without
a tap: its goal, its move, each attack with the Hero's roll and its traits beside it, the AI's question in its place."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pygame
import pytest

from assistant.ui.answers import answering
from tests.ui.conftest import key, make_app, play
from tests.ui.table_driver import step

SIZES = [(800, 480), (720, 1280)]


def until(app: Any, met: Callable[[Any], bool], limit: int = 120) -> Any:
    """The demo played by touch from its first screen (table_driver) to the first table screen where `met`."""
    for _ in range(limit):
        app.draw()
        screen = app.machine.current
        if screen.name == "table" and screen.advice is not None and met(screen.advice):
            return screen
        step(app)
    pytest.fail("the demo never came to that screen")


def texts(lines: list[Any]) -> list[str]:
    return [line.text for line in lines]


@pytest.mark.parametrize("size", SIZES)
def test_an_enemy_that_asks_nothing_shows_its_move(size: tuple[int, int], shots: Path) -> None:
    """Fault 1: on the Papal Guard's turn the big line said "Papal Guard: done. End the activation." and its move
    was in a one-line log that took 7 taps to read ("moves up to 4 squares toward ...")."""
    app = make_app(size)
    screen = until(app, lambda advice: advice.done and advice.steps[-1].startswith("Papal Guard: done"))
    pygame.image.save(app.surface, shots / f"card-moves-{size[0]}x{size[1]}.png")
    log, act = screen.told
    card = texts(act)
    assert "Moves up to 4 squares toward it." in card, card
    assert any(text.startswith("Pursues the mission goal: Reach the relic") for text in card), card
    assert card[-1] == "Papal Guard: done. End the activation." and act[-1].big  # done comes after, never instead
    assert not any("moves up to" in text for text in texts(log)), texts(log)


@pytest.mark.parametrize("size", SIZES)
def test_a_trait_stands_beside_its_attack_and_the_roll_is_the_instruction(size: tuple[int, int], shots: Path) -> None:
    """Fault 2: on an attack with a trait the big line was "Traits: Poisoned." and "Eleonora rolls 6 dice on Mind..."
    was only in the log."""
    app = make_app(size)
    screen = until(app, lambda advice: advice.attack is not None and advice.attack.traits)
    pygame.image.save(app.surface, shots / f"card-trait-{size[0]}x{size[1]}.png")
    _, act = screen.told
    card = texts(act)
    big = [line.text for line in act if line.big]
    assert big and big[0].startswith("Eleonora rolls 6 dice on Mind, 5+: 2 successes resist it"), card
    assert "Attack 1: Quicksilver Mist · Poisoned: a wounded Hero gains it" in card  # beside its attack
    assert not any(text.startswith("Traits:") for text in card)


@pytest.mark.parametrize("size", SIZES)
def test_the_question_is_asked_in_the_card_after_what_it_follows(size: tuple[int, int], shots: Path) -> None:
    """The question how far to move stands under the model's goal and AP, in the card; once answered its answer
    (the attack) takes its place and the goal stays."""
    app = make_app(size)
    asks = until(app, lambda advice: advice.question is not None and advice.question.kind == "reach")
    pygame.image.save(app.surface, shots / f"card-question-{size[0]}x{size[1]}.png")
    log, card = texts(asks.told[0]), texts(asks.told[1])
    goal = "Goes for Valerio (Threat Level 0): in the Control Area."
    assert card[0] == "Slingers 1 · 5 AP left · 2 more to act", card
    assert card[-2].startswith("How many squares must Slingers 1 move") and asks.told[1][-2].big
    assert goal in card or log[-1] == goal and len(log) - 1 in asks.logged  # where the long question leaves no room:
    # the log's newest, shown without a tap
    step(app)
    app.draw()
    screen = app.machine.current
    log, after = texts(screen.told[0]), texts(screen.told[1])
    assert after[0] == card[0] and "Attack 1: Sling, 1 hit" in after, after
    assert goal in after or log[-1] == goal and len(log) - 1 in screen.logged


@pytest.mark.parametrize("size", SIZES)
def test_the_answers_of_one_kind_of_question_keep_their_places(size: tuple[int, int]) -> None:
    """Fault 5: the "0" answer was at y=233 on one question and y=275 on the next (the grid filled from the bottom,
    its rows as many as the AP left and the card's lines made room for). Through the demo's first 70 screens, every
    answer of a question of one kind is where it was the first time."""
    app = make_app(size)
    first: dict[tuple[str, str], tuple[int, int, int, int]] = {}
    seen = 0
    for _ in range(70):
        app.draw()
        screen = app.machine.current
        question = screen.advice.question if screen.name == "table" and screen.advice is not None else None
        if question is not None and question.kind in ("reach", "closest", "in_area"):
            answers = [hit for hit in app.hits if hit.target[0] == "item" and answering(screen.items[hit.target[1]])]
            for slot, hit in enumerate(answers):  # the first answer, the second...
                place = first.setdefault((question.kind, slot), tuple(hit.rect))
                assert tuple(hit.rect) == place, (question.kind, screen.items[hit.target[1]].label, tuple(hit.rect), place)
                seen += 1
        step(app)
    assert {kind for kind, _ in first} == {"reach", "closest", "in_area"} and seen > 20, first


def overlaps(app: Any) -> list[tuple[str, str]]:
    """The table screen's parts drawn over one another (header, heroes' rows, mission rows, act lines, buttons), or
    out of the panel."""
    screen = app.machine.current
    parts = {name: rect for name, rect in screen.regions.items() if rect.height > 0 and name != "log"}
    out = [(a, b) for a, b in itertools.combinations(parts, 2) if parts[a].colliderect(parts[b])]
    return out + [(name, "panel") for name, rect in parts.items() if not app.layout.panel.contains(rect)]


@pytest.mark.parametrize("size", SIZES)
def test_nothing_is_drawn_over_the_heroes_the_header_or_the_loot(size: tuple[int, int], shots: Path) -> None:
    """Fault 3: tapping Move drew "Valerio moves: which Enemies are adjacent to Valerio now? ..." over the heroes'
    rows, and with the Loot row shown over it and the header too. The Move question with and without the Loot, then
    the demo played on with the Loot row: no part of the panel over another."""
    for loot in (False, True):
        app = make_app(size)
        if loot:
            app.game.apply({"type": "damage", "group": "alchemist", "model": 1, "wounds": 4, "by": "valerio"})
        play(app, key("m"))
        app.draw()
        assert app.machine.current.advice.question is not None  # who is adjacent
        pygame.image.save(app.surface, shots / f"card-move-question{'-loot' if loot else ''}-{size[0]}x{size[1]}.png")
        assert overlaps(app) == [], (loot, app.machine.current.regions)
    play(app, key("escape"))
    for number in range(60):
        app.draw()
        if app.machine.current.name == "table":
            assert overlaps(app) == [], (number, app.machine.current.regions)
            if number == 30:
                pygame.image.save(app.surface, shots / f"card-loot-{size[0]}x{size[1]}.png")
        step(app)
