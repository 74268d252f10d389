"""Issue 62, 9: the small words that said the wrong thing: the camera offered with no camera, the latest choice
named as if it acted, a token's letters for a name, an event its own next, a plural of one, a tie said big over the
Mystery token's buttons."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pygame
import pytest

from assistant.rules import instructions
from assistant.rules.horologium import Side
from assistant.ui import theme
from assistant.ui.panel import read_size
from assistant.ui.status_board import regions
from assistant.ui.table import MemoryGame
from assistant.ui.theme import Fonts
from assistant.ui.words import up_next
from assistant.ui.told import waiting_words
from tests.ui.conftest import key, make_app, play
from tests.ui.demo import demo_scenario
from tests.ui.pixels import find_text
from tests.ui.test_enemy_turn import to_attack_order
from tests.ui.test_reactions import labels


def step(game: MemoryGame, index: int, rng: random.Random | None = None) -> None:
    """The demo one event on: every question answered with its first option (or one `rng` picks), a roll of ones
    (or of faces `rng` picks), a tie ordered as it stands (or shuffled), a KO's Injury drawn."""
    state = game.state
    made = instructions.plan(state)
    if made.question is not None:
        answer = rng.choice(made.question.options) if rng else made.question.options[0]
        game.apply({"type": "ai_answer", "question": made.question.key, "answer": answer})
    elif state.due:
        game.apply({"type": "resolve_event", "event": state.due[0]})
    elif state.turn is None and state.ties:
        ids = list(state.ties[0])
        if rng:
            rng.shuffle(ids)
        game.apply({"type": "order", "ids": ids})
    elif state.turn is None and state.queue:
        game.apply({"type": "resolve_event", "event": state.queue[0]})
    elif made.attack is not None:
        game.apply(made.attack.event([rng.randint(1, 8) if rng else 1 for _ in range(made.attack.dice)]))
    elif state.turn is not None and state.side_of(state.turn.token) is Side.HERO and state.hero(state.turn.token).ko:
        game.apply({"type": "injury", "card": f"injury {index}"})
    else:
        game.apply({"type": "end_activation"})


def played_to(game: MemoryGame, when: Any, rng: random.Random | None = None) -> None:
    for index in range(120):
        if when(game.state):
            return
        step(game, index, rng)
    pytest.fail("the demo never came to it")


def test_a_defence_roll_without_a_camera_does_not_offer_the_camera() -> None:
    game = MemoryGame(demo_scenario())
    to_attack_order(game)
    app = make_app(game=game)
    play(app)
    acted = [line.text for line in app.machine.current.told[1]]  # type: ignore[attr-defined]  # the act lines
    hint = waiting_words(app.machine.current.advice, app.camera is not None)  # type: ignore[attr-defined]  # (it may give
    assert hint.endswith("(tap Defence roll)"), hint  # way to the activation card)
    assert not any("camera" in line for line in acted), acted  # "or let the camera read the dice": there is none


def test_change_choice_names_the_groups_order_not_the_model_chosen_before_the_one_acting() -> None:
    """Slingers 3 acts, the last one left: the latest choice, who acted second, said "Slingers 2"."""
    game = MemoryGame(demo_scenario())
    played_to(game, lambda s: (q := instructions.plan(s).question) is not None and q.model == "slingers/3")
    app = make_app(game=game)
    labels(app)
    details = [item.detail for item in app.machine.current.items if item.label == "Change choice"]  # type: ignore[attr-defined]
    assert details == ["order: Slingers 1, 2, 3"]




@pytest.mark.parametrize("size", [(800, 480)])
def test_the_header_names_who_is_next_by_name_not_by_the_tokens_letters(size: tuple[int, int], shots: Path) -> None:
    """At 800x480 "Vincenzo · 3 of 3 AP left" leaves no room for "next: Venetian Alchemist": it said "next: VE"."""
    game = MemoryGame(demo_scenario())
    played_to(game, lambda s: s.active == "vincenzo" and up_next(s) == ["Venetian Alchemist"])
    app = make_app(size, game)
    play(app)
    pygame.image.save(app.surface, shots / f"next-by-name-{size[0]}x{size[1]}.png")
    header = app.layout.panel.copy()
    header.height = app.layout.px(80)
    fonts = Fonts()
    fonts.least = read_size(app.layout, app.fonts)
    assert find_text(app.surface, header, "next: Venetian", fonts.least, theme.MUTED, fonts) is not None


def test_an_event_to_resolve_is_not_its_own_next() -> None:
    """The Mystery token to resolve, the header said "next: ?, So +3": the "?" was the token itself."""
    game = MemoryGame(demo_scenario())
    played_to(game, lambda s: s.turn is None and s.up_next is not None and s.side_of(s.up_next) is Side.EVENT)
    assert up_next(game.state)[0] != "Mystery 1"


def test_the_status_monitor_counts_one_card_in_the_singular(tmp_path: Path) -> None:
    from tests.ui.test_status import drawn, started

    events = [{"type": "send_official", "faction": f, "card": 1, "value": None} for _ in range(4)
              for f in ("mano", "ragione", "milizia")] + [{"type": "advance"}]  # fmt: skip
    app = started(tmp_path, events)
    app.draw()
    assert app.status.monitor == (1,)
    assert drawn(app, regions(app.layout)[0], "Monitor: 1 card, deck 12", theme.MUTED)
    app.close()


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_a_mystery_token_with_a_tie_after_it_says_the_token_over_its_buttons(size: tuple[int, int], shots: Path) -> None:
    """The hand on IX: the Mystery token to resolve (Resolve, Keep it), then Valerio and Eleonora tied. The big line
    over Resolve and Keep it was the tie's sentence; the token's was in the log. (The random play of seed 3 gets there.)"""
    game = MemoryGame(demo_scenario())
    played_to(game, lambda s: bool(s.ties) and s.turn is None and s.up_next == "mystery-1", random.Random(3))
    app = make_app(size, game)
    play(app)
    pygame.image.save(app.surface, shots / f"mystery-and-tie-{size[0]}x{size[1]}.png")
    assert labels(app)[:2] == ["Resolve", "Keep it"]
    log, act = app.machine.current.told  # type: ignore[attr-defined]
    assert [line.text for line in act if line.big] == ["Resolve the Mystery 1 token in sector IX as the mission says."]
    assert "Valerio and Eleonora tie on Swiftness: the players order them." in [line.text for line in log]
    play(app, key("r"))  # the button under it resolves the token, as it said
    assert "mystery-1" not in app.game.state.queue and app.game.state.ties == (("valerio", "eleonora"),)
