"""The Horologium drawn as the table has it: 12 sectors, both hands, and the tokens in their sectors.

Angles are degrees clockwise from twelve o'clock; sector N's middle is at N x 30 degrees, as on
a clock face (XII at the top). Tokens of one sector are stacked from the rim inwards; in the
active sector they are in activation order, numbered, the active one ringed in white, tied
ones ringed in the focus colour with "=".
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

import pygame

from assistant.rules.horologium import Side, Token
from assistant.rules.state import GameState
from assistant.ui import theme
from assistant.ui.theme import Color, Fonts
from assistant.ui.words import roman, token_label

BAND_INNER = 0.80  # the numeral band spans 0.80 R to R
HUB = 0.14  # sector lines start here


def point(center: tuple[float, float], radius: float, angle: float) -> tuple[float, float]:
    """The point `radius` from `center` at `angle` degrees clockwise from twelve o'clock."""
    rad = math.radians(angle)
    return center[0] + radius * math.sin(rad), center[1] - radius * math.cos(rad)


def sector_angle(sector: int) -> float:
    return (sector % 12) * 30.0


def wedge(center: tuple[float, float], inner: float, outer: float, sector: int, steps: int = 8) -> list[tuple[float, float]]:
    """The polygon of one sector between two radii."""
    middle = sector_angle(sector)
    angles = [middle - 15 + 30 * i / steps for i in range(steps + 1)]
    return [point(center, outer, a) for a in angles] + [point(center, inner, a) for a in reversed(angles)]


@dataclass(frozen=True)
class PlacedToken:
    """A token as drawn: where, how big, in which colour (for hit tests and the tests)."""

    id: str
    center: tuple[int, int]
    radius: int
    color: Color


def token_colors(state: GameState) -> dict[str, Color]:
    """One colour per hero and per enemy group, the same on the dial and in the panel."""
    colors: dict[str, Color] = {}
    for index, hero in enumerate(state.scenario.heroes):
        colors[hero.id] = theme.HERO_COLORS[index % len(theme.HERO_COLORS)]
    for index, group in enumerate(state.scenario.enemies + state.scenario.reserves):  # reserves enter by a Draft
        colors[group.id] = theme.ENEMY_COLORS[index % len(theme.ENEMY_COLORS)]
    return colors


@cache  # the same few counts every frame
def _slots(count: int) -> tuple[tuple[float, float, float], ...]:
    """(radius, angle offset, token radius) for `count` tokens in one sector, as fractions of R."""
    if count <= 1:
        return ((0.60, 0.0, 0.095),)
    if count == 2:
        return ((0.66, 0.0, 0.09), (0.45, 0.0, 0.09))
    if count == 3:
        return ((0.68, 0.0, 0.085), (0.50, 0.0, 0.085), (0.32, 0.0, 0.075))
    if count <= 5:
        rows = [(0.71, -7.5), (0.71, 7.5), (0.53, -9.5), (0.53, 9.5), (0.36, 0.0)]
        return tuple((r, a, 0.074) for r, a in rows[:count])
    return tuple(_packed(count))


def _packed(count: int) -> list[tuple[float, float, float]]:
    """Slots for many tokens in one sector: rows from the numeral band to the hub, as many a row as its arc holds
    apart, the tokens as big as lets them all in (the 5th and 6th of six overlapped, and the 7th shared the 6th's spot)."""
    for size in (0.066, 0.058, 0.05, 0.043, 0.037, 0.032):
        step = 2.15 * size  # from one token's centre to the next
        slots: list[tuple[float, float, float]] = []
        r = BAND_INNER - 1.15 * size
        while r - size >= HUB and len(slots) < count:
            room = 2 * (r * math.sin(math.radians(15)) - 1.1 * size)  # across the row, between the sector lines
            across = 1 + max(0, int(room / step)) if room >= 0 else 0
            width = (across - 1) * step
            slots += [(r, math.degrees((i * step - width / 2) / r), size) for i in range(across)]
            r -= step
        if len(slots) >= count:
            return slots[:count]
    return slots + [slots[-1]] * (count - len(slots))  # more than any table has: the last spot shared


def _sector_tokens(state: GameState, sector: int) -> list[Token]:
    here = [t for t in state.tokens if t.sector == sector]
    order = list(state.queue)
    if state.active and state.active not in order:
        order.insert(0, state.active)

    def rank(token: Token) -> tuple[int, int, int]:
        if token.id in order:
            return (0, order.index(token.id), 0)
        side = {Side.EVENT: 0, Side.ENEMY: 1, Side.HERO: 2}[token.side]
        return (1, side, -token.swiftness)

    return sorted(here, key=rank)


def draw_dial(surface: pygame.Surface, rect: pygame.Rect, state: GameState, fonts: Fonts) -> list[PlacedToken]:
    """Draw the Horologium of `state` into `rect`; the tokens as placed."""
    center = (rect.centerx, rect.centery)
    radius = rect.width / 2 - 2
    colors = token_colors(state)
    stop = state.clock.minute
    has_stop = bool(state.queue or state.turn or state.due)

    pygame.draw.circle(surface, theme.BAND, center, radius)
    pygame.draw.circle(surface, theme.FACE, center, radius * BAND_INNER)
    if has_stop and state.over is None:
        pygame.draw.polygon(surface, theme.ACTIVE, wedge(center, radius * HUB, radius, stop, 12))
    for sector in range(1, 13):
        edge = sector_angle(sector) + 15
        pygame.draw.line(surface, theme.LINE, point(center, radius * HUB, edge), point(center, radius, edge), max(1, round(radius / 140)))
    pygame.draw.circle(surface, theme.LINE, center, radius * BAND_INNER, max(1, round(radius / 120)))
    pygame.draw.circle(surface, theme.LINE, center, radius, max(2, round(radius / 90)))

    numeral_size = round(radius * 0.16)  # capitals of 18 px at 800x480, 27 at 720x1280
    for sector in range(1, 13):
        lit = has_stop and sector == stop and state.over is None
        label = fonts.render(roman(sector), numeral_size, theme.ACTIVE_TEXT if lit else theme.TEXT)
        x, y = point(center, radius * (1 + BAND_INNER) / 2, sector_angle(sector))
        surface.blit(label, label.get_rect(center=(round(x), round(y))))

    _draw_coming(surface, center, radius, state)
    _draw_hands(surface, center, radius, state)

    placed: list[PlacedToken] = []
    for sector in range(1, 13):
        tokens = _sector_tokens(state, sector)
        for index, (token, (r, offset, size)) in enumerate(zip(tokens, _slots(len(tokens)))):
            x, y = point(center, radius * r, sector_angle(sector) + offset)
            token_radius = max(6, round(radius * size))
            color = theme.EVENT if token.side is Side.EVENT else colors.get(token.id, theme.MUTED)
            spot = (round(x), round(y))
            _draw_token(surface, spot, token_radius, token, color, state, fonts)
            placed.append(PlacedToken(token.id, spot, token_radius, color))
    _draw_order_badges(surface, placed, state, fonts, radius)
    return placed


def coming(state: GameState) -> list[tuple[int, str]]:
    """Timed events and the mission's end due within the next turn of the hand: (sector, "event" | "end")."""
    now = state.clock.absolute
    marks: list[tuple[int, str]] = []
    for event in state.scenario.events:
        at = event.hour * 12 + event.minute % 12
        if event.id not in state.fired and 0 < at - now <= 12:
            marks.append((event.minute, "event"))
    end = state.scenario.end
    if end is not None and 0 < end.hour * 12 + end.minute % 12 - now <= 12:
        marks.append((end.minute, "end"))
    return marks


def _draw_coming(surface: pygame.Surface, center: tuple[int, int], radius: float, state: GameState) -> None:
    """A gold diamond on the rim where a timed event falls due, a red one where the mission ends."""
    size = radius * 0.045
    for sector, kind in coming(state):
        offset = 9 if kind == "end" else -9
        x, y = point(center, radius * (BAND_INNER + 0.035), sector_angle(sector) + offset)
        shape = [(x, y - size), (x + size, y), (x, y + size), (x - size, y)]
        pygame.draw.polygon(surface, theme.DANGER if kind == "end" else theme.EVENT, shape)
        pygame.draw.polygon(surface, theme.BACKGROUND, shape, max(1, round(size / 4)))


def _draw_hands(surface: pygame.Surface, center: tuple[int, int], radius: float, state: GameState) -> None:
    minute_angle = sector_angle(state.clock.minute)
    hour_angle = sector_angle(state.clock.hour % 12 or 12)
    _hand(surface, center, radius * 0.50, radius * 0.075, hour_angle, theme.HOUR_HAND)
    _hand(surface, center, radius * 0.79, radius * 0.045, minute_angle, theme.MINUTE_HAND)
    pygame.draw.circle(surface, theme.MINUTE_HAND, center, radius * 0.07)
    pygame.draw.circle(surface, theme.BACKGROUND, center, radius * 0.03)


def _hand(surface: pygame.Surface, center: tuple[int, int], length: float, width: float, angle: float, color: Color) -> None:
    """A tapered hand with a short tail and a dark outline so it reads over any sector colour."""
    tip = point(center, length, angle)
    left = point(center, width, angle - 90)
    right = point(center, width, angle + 90)
    tail = point(center, width * 1.6, angle + 180)
    shape = [tip, left, tail, right]
    pygame.draw.polygon(surface, color, shape)
    pygame.draw.polygon(surface, theme.BACKGROUND, shape, max(1, round(width / 4)))


def _draw_token(surface: pygame.Surface, spot: tuple[int, int], size: int, token: Token, color: Color,
                state: GameState, fonts: Fonts) -> None:  # fmt: skip
    outline = max(2, size // 7)
    if token.ko:  # whose: the hero's letters, on the KO side's dark red in a thick ring of their colour
        pygame.draw.circle(surface, color, spot, size)
        pygame.draw.circle(surface, theme.KO, spot, size - 2 * outline)
        text = fonts.render(token_label(state, token.id), round(size * 0.9), theme.TEXT)
    elif token.side is Side.ENEMY:  # enemies are squares, heroes and events discs
        square = pygame.Rect(0, 0, round(size * 1.8), round(size * 1.8))
        square.center = spot
        pygame.draw.rect(surface, color, square, border_radius=max(2, size // 4))
        pygame.draw.rect(surface, theme.BACKGROUND, square, max(1, outline // 2), border_radius=max(2, size // 4))
        text = fonts.render(token_label(state, token.id), round(size * 1.0), theme.ink_for(color))
    else:
        pygame.draw.circle(surface, color, spot, size)
        pygame.draw.circle(surface, theme.BACKGROUND, spot, size, max(1, outline // 2))
        text = fonts.render(token_label(state, token.id), round(size * 1.0), theme.ink_for(color))
    surface.blit(text, text.get_rect(center=spot))
    if token.id == state.active:
        pygame.draw.circle(surface, theme.MINUTE_HAND, spot, size + outline * 2, outline + 1)
        pygame.draw.circle(surface, theme.BACKGROUND, spot, size + outline * 3 + 1, max(1, outline // 2))
    elif any(token.id in group for group in state.ties):
        pygame.draw.circle(surface, theme.TEXT, spot, size + outline * 2, outline)


def _draw_order_badges(surface: pygame.Surface, placed: list[PlacedToken], state: GameState, fonts: Fonts,
                       radius: float) -> None:  # fmt: skip
    """Small numbers 1, 2, 3... on the tokens still to act at this stop ("=" for a tie)."""
    order = [i for i in state.queue]
    if state.active and state.active not in order:
        order.insert(0, state.active)
    badge = max(7, round(radius * 0.042))
    for token in placed:
        if token.id not in order:
            continue
        tied = any(token.id in group for group in state.ties)
        words = "=" if tied else str(order.index(token.id) + 1)
        x, y = point(token.center, token.radius + badge * 0.45, 45)  # off the token's letters
        spot = (round(x), round(y))
        pygame.draw.circle(surface, theme.TEXT, spot, badge)
        pygame.draw.circle(surface, theme.BACKGROUND, spot, badge, max(1, badge // 5))
        text = fonts.render(words, round(badge * 1.5), theme.BACKGROUND)
        surface.blit(text, text.get_rect(center=spot))
