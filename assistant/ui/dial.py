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
    badge_at: float = 45  # where its order badge goes, degrees clockwise from twelve o'clock


def token_colors(state: GameState) -> dict[str, Color]:
    """One colour per hero and per enemy group, the same on the dial and in the panel."""
    colors: dict[str, Color] = {}
    for index, hero in enumerate(state.scenario.heroes):
        colors[hero.id] = theme.HERO_COLORS[index % len(theme.HERO_COLORS)]
    for index, group in enumerate(state.scenario.enemies + state.scenario.reserves):  # reserves enter by a Draft
        colors[group.id] = theme.ENEMY_COLORS[index % len(theme.ENEMY_COLORS)]
    return colors


BADGE = 0.045  # an order badge's radius, of R (`_draw_order_badges`: 0.042 R, at least 7 px), with a margin
BADGE_AT = 45  # the direction of a badge from its token's centre, in degrees clockwise from twelve o'clock
FOOTPRINT = 1.3  # of a token's radius: an enemy's square's corners, a ring (active, tied) round a disc


Slot = tuple[float, float, float, float]  # (radius, angle offset, token radius: of R; the badge's direction)


@cache  # the same few counts every frame
def _slots(count: int, sector: int = 12, badge: float = BADGE) -> tuple[Slot, ...]:
    """Where `count` tokens in `sector` go, and their order badges (`Slot`) of `badge` R."""
    if count <= 1:
        return ((0.60, 0.0, 0.095, BADGE_AT),)
    if count == 2:
        return ((0.66, 0.0, 0.09, BADGE_AT), (0.45, 0.0, 0.09, BADGE_AT))
    if count == 3:
        return ((0.68, 0.0, 0.085, BADGE_AT), (0.50, 0.0, 0.085, BADGE_AT), (0.32, 0.0, 0.075, BADGE_AT))
    return tuple(_packed(count, sector, badge))


def _packed(count: int, sector: int, badge: float) -> list[Slot]:
    """Slots for many tokens in one sector: rows from the numeral band to the hub, as many a row as its arc holds
    apart, the tokens as big as lets them all in with their rings and order badges clear of one another, each badge
    on the side of its token where there is room (five to seven in a sector drew badges and rings over their
    neighbours)."""
    fallback: list[Slot] = []
    for size in (0.074, 0.07, 0.066, 0.062, 0.058, 0.054, 0.05, 0.046, 0.043, 0.04, 0.037, 0.034, 0.032):
        for spread in (2.15, 2.35, 2.6, 2.9):  # from one token's centre to the next, in token radii
            slots = _rows(size, spread * size)[:count]
            if len(slots) < count:
                continue
            badges = _badges(slots, sector_angle(sector), badge)
            if badges is not None:
                return [(*slot, at) for slot, at in zip(slots, badges)]
            fallback = [(*slot, BADGE_AT) for slot in slots]  # the smallest that holds them, if none is clear
    last = fallback or [(*slot, BADGE_AT) for slot in _rows(0.032, 2.15 * 0.032)]
    return (last + last[-1:] * count)[:count]  # more than any table has: the last spot shared


def _rows(size: float, step: float) -> list[tuple[float, float, float]]:
    slots: list[tuple[float, float, float]] = []
    r = BAND_INNER - 1.15 * size
    while r - size >= HUB:
        room = 2 * (r * math.sin(math.radians(15)) - FOOTPRINT * size)  # across the row, between the sector lines
        across = 1 + max(0, int(room / step)) if room >= 0 else 0
        width = (across - 1) * step
        slots += [(r, math.degrees((i * step - width / 2) / r), size) for i in range(across)]
        r -= step
    return slots


def _badges(slots: list[tuple[float, float, float]], middle: float, badge: float) -> list[float] | None:
    """A direction for each token's badge that keeps it off every other token and badge, the tokens' footprints
    clear of one another (in R, the sector at `middle` degrees); None where there is none."""
    centers = [point((0.0, 0.0), r, middle + offset) for r, offset, _ in slots]
    for i, (a, (_, _, size)) in enumerate(zip(centers, slots)):
        if any(math.dist(a, b) < FOOTPRINT * (size + other) for b, (_, _, other) in zip(centers[i + 1 :], slots[i + 1 :])):
            return None
    placed: list[tuple[float, float]] = []
    angles: list[float] = []
    for i, (center, (_, _, size)) in enumerate(zip(centers, slots)):
        for at in (BADGE_AT, 315, 135, 225, 0, 90, 180, 270, 22.5, 67.5, 112.5, 157.5, 202.5, 247.5, 292.5, 337.5):
            spot = point(center, size + 0.45 * badge, at)
            if all(math.dist(spot, b) >= FOOTPRINT * other + badge for j, (b, (_, _, other)) in enumerate(zip(centers, slots)) if j != i) \
                    and all(math.dist(spot, p) >= 2 * badge for p in placed):  # fmt: skip
                placed.append(spot)
                angles.append(at)
                break
        else:
            return None
    return angles


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
    badge = round(max(BADGE, 7.5 / radius), 3)  # the badges' least 7 px, on a small dial
    for sector in range(1, 13):
        tokens = _sector_tokens(state, sector)
        for index, (token, (r, offset, size, badge_at)) in enumerate(zip(tokens, _slots(len(tokens), sector, badge))):
            x, y = point(center, radius * r, sector_angle(sector) + offset)
            token_radius = max(6, round(radius * size))
            color = theme.EVENT if token.side is Side.EVENT else colors.get(token.id, theme.MUTED)
            spot = (round(x), round(y))
            _draw_token(surface, spot, token_radius, token, color, state, fonts)
            placed.append(PlacedToken(token.id, spot, token_radius, color, badge_at))
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
    badge = max(7, round(radius * 0.042))  # (`BADGE` packs the sector for it)
    for token in placed:
        if token.id not in order:
            continue
        tied = any(token.id in group for group in state.ties)
        words = "=" if tied else str(order.index(token.id) + 1)
        x, y = point(token.center, token.radius + badge * 0.45, token.badge_at)  # off the token's letters
        spot = (round(x), round(y))
        pygame.draw.circle(surface, theme.TEXT, spot, badge)
        pygame.draw.circle(surface, theme.BACKGROUND, spot, badge, max(1, badge // 5))
        text = fonts.render(words, round(badge * 1.5), theme.BACKGROUND)
        surface.blit(text, text.get_rect(center=spot))
