"""Colours that do not depend on hue: in a deuteranopia and a protanopia simulation Valerio and Vincenzo were both
blue and Eleonora close to them (CIE76 distance 5.8); two KO Heroes differed only by a thin ring."""

from __future__ import annotations

import itertools
from pathlib import Path

import pygame
import pytest

from assistant.rules import game as rules
from assistant.ui import theme
from assistant.ui.dial import draw_dial
from assistant.ui.theme import Fonts
from assistant.ui.words import token_label
from tests.ui.colour_vision import difference
from tests.ui.demo import demo_scenario
from tests.ui.pixels import find_text


@pytest.mark.parametrize("kind", ["normal", "deuteranopia", "protanopia"])
def test_every_two_heroes_colours_are_far_apart_as_seen(kind: str) -> None:
    nearest = min(difference(a, b, kind) for a, b in itertools.combinations(theme.HERO_COLORS, 2))
    assert nearest >= 25, nearest  # about three times a just noticeable difference, for a token's size


def test_the_heroes_colours_are_told_from_the_enemies_and_the_events_gold() -> None:
    """A Hero's disc is not taken for an event's gold disc, nor a Hero for a red enemy, by hue alone."""
    for hero in theme.HERO_COLORS:
        for other in (theme.EVENT, theme.THREAT, *theme.ENEMY_COLORS[:3]):
            assert difference(hero, other, "normal") >= 25, (hero, other)


def test_a_ko_token_on_the_dial_says_whose(shots: Path) -> None:
    state = rules.new_game(demo_scenario())
    for hero in ("valerio", "vincenzo"):
        state = rules.apply(state, {"type": "damage", "hero": hero, "wounds": 10})
    surface = pygame.Surface((600, 600))
    placed = draw_dial(surface, pygame.Rect(0, 0, 600, 600), state, Fonts())
    pygame.image.save(surface, shots / "dial-ko-whose.png")
    for hero in ("valerio", "vincenzo"):
        token = next(p for p in placed if p.id == hero)
        box = pygame.Rect(0, 0, token.radius * 2, token.radius * 2)
        box.center = token.center
        assert state.hero(hero).ko
        assert find_text(surface, box, token_label(state, hero), round(token.radius * 0.9), theme.TEXT) is not None, hero
