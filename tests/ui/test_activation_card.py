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
from assistant.ui.app import App
from assistant.ui.screens import TableScreen
from tests.ui.conftest import click, key, make_app, play
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


def table(app: App) -> TableScreen:
    """The screen shown, the table's."""
    screen = app.machine.current
    assert isinstance(screen, TableScreen), screen
    return screen


def texts(lines: list[Any]) -> list[str]:
    return [line.text for line in lines]


def seen(screen: Any, text: str) -> bool:
    """`text` is on the screen without a tap: in the card, or (where the question or the roll leaves the card no room
    for it) among the log's entries shown, under the dial or above the card."""
    log, act = screen.told
    return text in texts(act) or any(log[n].text == text for n in screen.logged)


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
    assert "Poisoned: a wounded Hero gains it" in card, card  # whole, with what it does, above the roll
    attack = "Attack 1: Quicksilver Mist"  # the trait under it, or where room is short the log's newest above it
    assert attack in card and card.index(attack) + 1 == card.index("Poisoned: a wounded Hero gains it") or seen(screen, attack)
    assert not any(text.startswith("Traits:") for text in card)


@pytest.mark.parametrize("size", SIZES)
def test_the_question_is_asked_in_the_card_after_what_it_follows(size: tuple[int, int], shots: Path) -> None:
    """The question how far to move stands under the model's goal and AP, in the card; once answered its answer
    (the attack) takes its place and the goal stays."""
    app = make_app(size)
    asks = until(app, lambda advice: advice.question is not None and advice.question.kind == "reach")
    pygame.image.save(app.surface, shots / f"card-question-{size[0]}x{size[1]}.png")
    card = texts(asks.told[1])
    title, goal = "Slingers 1 · 5 AP left · 2 more to act", "Goes for Valerio (Threat Level 0): in the Control Area."
    assert card[-2].startswith("How many squares must Slingers 1 move") and asks.told[1][-2].big
    small = size == (800, 480)  # there the long question leaves the log room for the goal alone: the title (the AP
    # left, who still acts) is its entry before, a tap back; the header says the group's AP
    assert seen(asks, goal) and (seen(asks, title) or small and title in texts(asks.told[0])), (asks.told, asks.logged)
    step(app)
    app.draw()
    screen = table(app)
    assert screen.advice is not None and screen.advice.attack is not None and seen(screen, "Attack 1: Sling, 1 hit")
    assert seen(screen, goal) or not small and goal in texts(screen.told[0])  # at 720x1280 the roll's eight buttons
    # leave the log no line: the goal is its newest entry, a tap on it
    assert seen(screen, title) or title in texts(screen.told[0])  # with the roll's buttons, the log's entry before


@pytest.mark.parametrize("size", SIZES)
def test_the_answers_of_one_kind_of_question_keep_their_places(size: tuple[int, int]) -> None:
    """Fault 5: the "0" answer was at y=233 on one question and y=275 on the next (the grid filled from the bottom,
    its rows as many as the AP left and the card's lines made room for). Through the demo's first 70 screens, every
    answer of a question of one kind is where it was the first time."""
    app = make_app(size)
    first: dict[tuple[str, int], tuple[int, ...]] = {}
    seen = 0
    for _ in range(70):
        app.draw()
        screen = app.machine.current
        question = screen.advice.question if isinstance(screen, TableScreen) and screen.advice is not None else None
        if isinstance(screen, TableScreen) and question is not None and question.kind in ("reach", "closest", "in_area"):
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
        advice = table(app).advice
        assert advice is not None and advice.question is not None  # who is adjacent
        pygame.image.save(app.surface, shots / f"card-move-question{'-loot' if loot else ''}-{size[0]}x{size[1]}.png")
        assert overlaps(app) == [], (loot, table(app).regions)
    play(app, key("escape"))
    for number in range(60):
        app.draw()
        if app.machine.current.name == "table":
            assert overlaps(app) == [], (number, table(app).regions)
            if number == 30:
                pygame.image.save(app.surface, shots / f"card-loot-{size[0]}x{size[1]}.png")
        step(app)


def test_a_roll_where_only_its_successes_count_is_one_tap() -> None:
    """Fault 4: an attack cost N+3 taps for N defence dice. Valerio against the Sling (4 dice, 5+, 1 hit, no Status
    Token, no Enemy's Skill): "1 saved" is one tap, journaled as the successes counted."""
    app = make_app()
    screen = until(app, lambda advice: advice.attack is not None)
    order = screen.advice.attack
    labels = [item.label for item in screen.items if item.enabled]
    assert labels[:3] == ["0 saved", "1 saved", "Defence roll"], labels
    before = app.game.state
    play(app, click(next(h.rect.center for h in app.hits if h.target[0] == "item" and screen.items[h.target[1]].label == "1 saved")))
    turn, was = app.game.state.turn, before.turn
    assert turn is not None and was is not None
    made = turn.attacks[-1]
    assert (made.hero, made.wounds) == ("valerio", 0) and len(turn.attacks) == len(was.attacks) + 1
    assert app.game.events()[-1]["dice"] == [8, 1, 1, 1][: order.dice]  # a success on the d8's top face, the rest 1


def test_the_faces_of_a_defence_roll_are_one_tap_a_die_and_the_last_applies_it() -> None:
    """Fault 4: the faces opened on a tap on the die (2 taps the first die) and a Resolve followed the last. Now the
    picker is open on the first die, each face sets its die and moves on, and the last applies the roll."""
    app = make_app()
    until(app, lambda advice: advice.attack is not None)
    play(app, key("d"))
    app.draw()
    form = app.form
    assert form is not None
    dice = form.dice()
    assert dice is not None
    for die in range(len(dice.values)):
        faces = {h.target[1]: h.rect for h in app.hits if h.target[0] == "face"}
        assert faces, die  # open at once, no tap on the die
        play(app, click(faces[5 if die == 0 else 2].center))
        app.draw()
    assert app.form is None and app.machine.current.name == "table"
    turn = app.game.state.turn
    assert turn is not None
    assert app.game.events()[-1]["dice"] == [5, 2, 2, 2] and turn.attacks[-1].wounds == 0
