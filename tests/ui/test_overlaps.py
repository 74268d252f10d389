"""Overlaps and cuts the table ran into: key letters over button labels ("End activation E"), order badges over the
tokens' letters, End activation squeezed into a third of the width in portrait."""

from __future__ import annotations

import math

import pygame
import pytest

from assistant.rules import game as rules
from assistant.ui import theme
from assistant.ui.dial import draw_dial
from assistant.ui.table import MemoryGame
from assistant.ui.theme import Fonts
from assistant.ui.words import token_label
from tests.ui.conftest import make_app
from tests.ui.demo import demo_scenario
from tests.ui.test_enemy_turn import to_enemy_question
from tests.ui.test_render import count


@pytest.mark.parametrize("size", [(800, 480), (720, 1280), (1024, 600)])
def test_no_key_letter_lies_over_a_button_s_label(size: tuple[int, int]) -> None:
    game = MemoryGame(demo_scenario())
    for state in (game.state, to_enemy_question(game)):
        app = make_app(size, game)
        app.draw()
        lay = app.layout
        items = app.machine.current.items  # type: ignore[attr-defined]
        for hit in app.hits:
            if hit.target[0] != "item" or not items[hit.target[1]].key:
                continue
            hint = app.fonts.render(items[hit.target[1]].key.upper(), lay.px(15), theme.MUTED).get_rect(
                topright=(hit.rect.right - lay.px(5), hit.rect.top + lay.px(3)))
            label = hit.rect.inflate(-lay.px(8), 0).clip(pygame.Rect(hint.left - lay.px(2), hit.rect.top, hint.width + lay.px(2), hit.rect.height))
            assert count(app.surface, label, theme.TEXT) == 0, (state.active, items[hit.target[1]].label)


def test_the_order_badges_leave_the_tokens_letters_clear() -> None:
    state = rules.new_game(demo_scenario())
    surface = pygame.Surface((480, 480))
    fonts = Fonts()
    placed = draw_dial(surface, pygame.Rect(0, 0, 480, 480), state, fonts)
    badged = [p for p in placed if p.id in state.queue or p.id == state.active]
    assert badged
    for token in badged:
        letters = fonts.render(token_label(state, token.id), round(token.radius), theme.TEXT).get_rect(center=token.center)
        shown = pygame.Rect(letters.left, letters.top, letters.width, letters.height)
        assert count(surface, shown, theme.TEXT) == 0 or token.id not in state.queue, token.id  # no badge's white inside


def test_end_activation_is_half_the_width_in_portrait() -> None:
    app = make_app((720, 1280))
    app.draw()
    items = app.machine.current.items  # type: ignore[attr-defined]
    end = next(hit.rect for hit in app.hits if hit.target[0] == "item" and items[hit.target[1]].label == "End activation")
    assert end.width >= (app.layout.panel.width - app.layout.gap) // 2


@pytest.mark.parametrize("side", [480, 270])  # the dial at 720x1280 and at 800x480 (41 % of the width)
@pytest.mark.parametrize("count", [4, 5, 6, 7])
@pytest.mark.parametrize("sector", [3, 6, 9, 12])
def test_many_tokens_in_one_sector_keep_their_rings_and_badges_off_one_another(count: int, sector: int, side: int) -> None:
    """Issue 62, 9: five to seven tokens in a sector (the demo's IX: So, El, ?, Va, Vi, VE) drew order badges and
    rings over their neighbours. Each token's footprint (an enemy's square, a ring) and its badge, where
    `_draw_order_badges` puts it, stay clear of every other token's and badge."""
    from dataclasses import replace

    state = rules.new_game(demo_scenario())
    moved = {t.id for t in state.tokens[:count]}  # and the others out of it (the Mystery token is on IX)
    state = replace(state, tokens=tuple(replace(t, sector=sector if t.id in moved else 7 if t.sector == sector else t.sector)
                                        for t in state.tokens))  # fmt: skip
    radius = side / 2 - 2
    placed = [p for p in draw_dial(pygame.Surface((side, side)), pygame.Rect(0, 0, side, side), state, Fonts())
              if p.id in moved]  # fmt: skip
    assert len(placed) == count
    badge = max(7, round(radius * 0.042))
    shapes = []
    for token in placed:
        at = getattr(token, "badge_at", 45)  # (where badges went before: all at 45 degrees)
        angle = math.radians(at)
        spot = (token.center[0] + (token.radius + badge * 0.45) * math.sin(angle),
                token.center[1] - (token.radius + badge * 0.45) * math.cos(angle))  # fmt: skip
        shapes.append(((token.center, 1.27 * token.radius), (spot, badge)))
    for i, mine in enumerate(shapes):
        for j, theirs in enumerate(shapes[i + 1 :], i + 1):
            for a, ra in mine:
                for b, rb in theirs:
                    assert math.dist(a, b) >= ra + rb - 1, (placed[i].id, placed[j].id)
