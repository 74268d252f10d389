"""Drawing a game of Nova Lectio: Status where Nova Aetas has its dial: the round and the phase (the Clock token
on its six phases), the Military track (one indicator a space), the Status track, the Event cards on the Monitor
and the Newspaper spaces with the Officials on them, and who is who."""

from __future__ import annotations

import pygame

from assistant.rules.questions import counted
from assistant.status import Faction, Official, Phase, StatusGame
from assistant.ui import theme
from assistant.ui.layout import Layout
from assistant.ui.panel import _text
from assistant.ui.status_forms import NEWSPAPER_SPACES, SHORT
from assistant.ui.theme import Color, Fonts

FACTION_COLORS: dict[Faction, Color] = {
    Faction.MANO: (70, 200, 120),  # green: the markets
    Faction.RAGIONE: (90, 160, 255),  # blue: diplomacy
    Faction.MILIZIA: (245, 100, 100),  # red: steel (4.5:1 on the board, as text too)
    Faction.PUGNO: (245, 195, 60),  # yellow: the people
}
LETTERS = {Faction.MANO: "Ma", Faction.RAGIONE: "Ra", Faction.MILIZIA: "Mi", Faction.PUGNO: "Pu"}
PHASES = (Phase.I, Phase.II, Phase.III, Phase.IV, Phase.V, Phase.VI)


def disc(surface: pygame.Surface, fonts: Fonts, faction: Faction, center: tuple[int, int], radius: int,
         words: str | None = None) -> None:  # fmt: skip
    """A Faction's indicator: a disc in its colour with its letters (or `words`: an Official's value)."""
    color = FACTION_COLORS[faction]
    pygame.draw.circle(surface, color, center, radius)
    pygame.draw.circle(surface, theme.BACKGROUND, center, radius, max(1, radius // 8))
    text = LETTERS[faction] if words is None else words
    image = fonts.render(text, max(10, round(radius * (1.05 if words is not None else 0.95))), theme.ink_for(color))
    surface.blit(image, image.get_rect(center=center))


def regions(lay: Layout) -> tuple[pygame.Rect, pygame.Rect]:
    """The board and the panel: in landscape the board as high as the screen; in portrait as wide as the
    screen (the panel below it keeps at least 40 % of the height)."""
    width, height = lay.size
    if not lay.portrait:  # the board as high as the screen
        side = min(height - 2 * lay.gap, int(width * 0.57))
        board = pygame.Rect(lay.gap, (height - side) // 2, side, side)
        return board, pygame.Rect(board.right + lay.gap, lay.gap, width - board.right - 2 * lay.gap, height - 2 * lay.gap)
    side = min(width - 2 * lay.gap, int(height * 0.6) - 2 * lay.gap)
    board = pygame.Rect((width - side) // 2, lay.gap, side, side)
    return board, pygame.Rect(lay.gap, board.bottom + lay.gap, width - 2 * lay.gap, height - board.bottom - 2 * lay.gap)


def draw_board(surface: pygame.Surface, rect: pygame.Rect, state: StatusGame, fonts: Fonts) -> None:
    """The board in `rect` (a square, or near one), everything sized from it."""
    k = min(rect.width, rect.height) / 456
    pad = round(8 * k)
    pygame.draw.rect(surface, theme.FACE, rect, border_radius=round(12 * k))
    inner = rect.inflate(-2 * pad, -2 * pad)
    y = _clock(surface, pygame.Rect(inner.left, inner.top, inner.width, round(44 * k)), state, fonts, k)
    y = _military(surface, pygame.Rect(inner.left, y + round(6 * k), inner.width, round(62 * k)), state, fonts, k)
    y = _status(surface, pygame.Rect(inner.left, y + round(6 * k), inner.width, round(116 * k)), state, fonts, k)
    bottom = inner.bottom - round(34 * k)
    y = _monitor(surface, pygame.Rect(inner.left, y + round(6 * k), inner.width, bottom - y - round(12 * k)), state, fonts, k)
    _legend(surface, pygame.Rect(inner.left, bottom, inner.width, round(34 * k)), state, fonts, k)


def fitting(fonts: Fonts, words: list[str], size: int, width: int) -> str:
    """The first of `words` that fits `width` at `size` (or as small as `fit` shrinks it), else the last."""
    font = fonts.get(fonts.smallest(size))
    return next((text for text in words if font.size(text)[0] <= width), words[-1])


def _label(surface: pygame.Surface, fonts: Fonts, words: str, rect: pygame.Rect, k: float) -> int:
    line = pygame.Rect(rect.left, rect.top, rect.width, round(20 * k))
    _text(surface, fonts, words, max(fonts.MIN_READABLE, round(17 * k)), theme.MUTED, line)
    return rect.top + round(21 * k)


def _clock(surface: pygame.Surface, area: pygame.Rect, state: StatusGame, fonts: Fonts, k: float) -> int:
    """The round, and the six phases with the current one lit (the Clock token moved to the right)."""
    left = pygame.Rect(area.left, area.top, round(150 * k), area.height)
    said = [f"Round {state.round} of 4", f"Round {state.round}", f"R{state.round}"]
    if state.phase is Phase.END:
        said = ["The end", "End"]
    _text(surface, fonts, fitting(fonts, said, round(26 * k), left.width), round(26 * k), theme.TEXT, left)
    gap = round(4 * k)
    room = area.right - left.right - gap
    each = (room - gap * 5) // 6
    for index, phase in enumerate(PHASES):
        box = pygame.Rect(left.right + gap + index * (each + gap), area.top + round(4 * k), each, area.height - round(8 * k))
        now = phase is state.phase
        pygame.draw.rect(surface, theme.ACTIVE if now else theme.BAND, box, border_radius=round(6 * k))
        ink = theme.ACTIVE_TEXT if now else theme.MUTED
        _text(surface, fonts, phase.value, round(22 * k), ink, box, "center")
    return area.bottom


def _cells(area: pygame.Rect, first: int, count: int, k: float) -> list[pygame.Rect]:
    gap = max(1, round(2 * k))
    width = (area.width - gap * (count - 1)) / count
    return [pygame.Rect(round(area.left + i * (width + gap)), area.top, round(width), area.height) for i in range(count)]


def _military(surface: pygame.Surface, area: pygame.Rect, state: StatusGame, fonts: Fonts, k: float) -> int:
    """The Military track: spaces from 1, one indicator a space, as far as the one furthest ahead and more."""
    top = _label(surface, fonts, "Military track", area, k)
    last = max([12, *(s + 1 for s in state.track.values())])
    row = pygame.Rect(area.left, top, area.width, area.bottom - top)
    held = {space: faction for faction, space in state.track.items()}
    for space, cell in zip(range(1, last + 1), _cells(row, 1, last, k)):
        pygame.draw.rect(surface, theme.BAND, cell, border_radius=round(4 * k))
        if space in held:
            disc(surface, fonts, held[space], cell.center, min(cell.width, cell.height) // 2 - 1)
        else:
            _text(surface, fonts, str(space), round(15 * k), theme.MUTED, cell, "center")
    return area.bottom


def _status(surface: pygame.Surface, area: pygame.Rect, state: StatusGame, fonts: Fonts, k: float) -> int:
    """The Status track: rows of ten spaces from 0; Factions on one space share it."""
    top = _label(surface, fonts, "Status track", area, k)
    highest = max([19, *state.status.values()])
    rows = highest // 10 + 1
    gap = round(3 * k)
    height = (area.bottom - top - gap * (rows - 1)) // rows
    on: dict[int, list[Faction]] = {}
    for faction, points in state.status.items():
        on.setdefault(points, []).append(faction)
    for row in range(rows):
        line = pygame.Rect(area.left, top + row * (height + gap), area.width, height)
        for column, cell in enumerate(_cells(line, 0, 10, k)):
            space = row * 10 + column
            pygame.draw.rect(surface, theme.BAND, cell, border_radius=round(4 * k))
            here = on.get(space, [])
            if not here:
                _text(surface, fonts, str(space), round(15 * k), theme.MUTED, cell, "center")
                continue
            if len(here) == 1:
                disc(surface, fonts, here[0], cell.center, min(cell.width, cell.height) // 2 - 1)
                continue
            across = 2 if len(here) > 2 else len(here)  # side by side, two rows of two for three or four: lettered
            down = (len(here) + across - 1) // across
            radius = max(4, min(cell.width // (2 * across), cell.height // (2 * down)) - 1)
            for index, faction in enumerate(here):
                row_at, column_at = divmod(index, across)
                in_row = min(across, len(here) - row_at * across)
                x = cell.centerx + round((column_at - (in_row - 1) / 2) * 2 * (radius + 1))
                y = cell.centery + round((row_at - (down - 1) / 2) * 2 * (radius + 1))
                disc(surface, fonts, faction, (x, y), radius)
    return top + rows * height + (rows - 1) * gap


def _monitor(surface: pygame.Surface, area: pygame.Rect, state: StatusGame, fonts: Fonts, k: float) -> int:
    """The Event cards still on the Monitor (the next to resolve ringed in gold) and the Newspaper spaces, each with
    the Officials on it: a disc in the Faction's colour with its value, or "?" face down."""
    cards = [c for c in state.monitor]
    top = _label(surface, fonts, f"Monitor: {counted(len(cards), 'card')}, deck {state.deck}", area, k)
    news_h = round(34 * k)
    row = pygame.Rect(area.left, top, area.width, area.bottom - top - news_h - round(4 * k))
    slots = max(len(cards), 3)
    for card, cell in zip(cards, _cells(row, 1, slots, k)):
        pygame.draw.rect(surface, theme.BUTTON, cell, border_radius=round(6 * k))
        ring = theme.ACTIVE if card == state.next_card else theme.LINE
        pygame.draw.rect(surface, ring, cell, max(2, round(3 * k)) if card == state.next_card else 1, round(6 * k))
        _text(surface, fonts, f"Card {card}", round(18 * k), theme.TEXT,
              pygame.Rect(cell.left, cell.top + round(2 * k), cell.width, round(20 * k)), "center")  # fmt: skip
        _officials(surface, fonts, state.officials_on(card),
                   pygame.Rect(cell.left, cell.top + round(24 * k), cell.width, cell.height - round(26 * k)), k)  # fmt: skip
    line = pygame.Rect(area.left, area.bottom - news_h, area.width, news_h)
    for space, cell in zip(range(1, NEWSPAPER_SPACES + 1), _cells(line, 1, NEWSPAPER_SPACES, k)):
        pygame.draw.rect(surface, theme.BAND, cell, border_radius=round(6 * k))
        there = tuple(o for o in state.officials if o.newspaper == space)
        if there:
            _officials(surface, fonts, there, cell, k)
        else:
            _text(surface, fonts, f"News {space}", round(15 * k), theme.MUTED, cell, "center")
    return area.bottom


def _officials(surface: pygame.Surface, fonts: Fonts, officials: tuple[Official, ...], area: pygame.Rect, k: float) -> None:
    """The Officials on a card or a Newspaper space, a chip a Faction in its colour with its letters and their
    values as sent ("Ma 2 ?": "?" face down), so that all of them show however many there are (up to 16)."""
    mine: dict[Faction, list[str]] = {}
    for official in officials:
        mine.setdefault(official.faction, []).append("?" if official.value is None else str(official.value))
    chips = [(faction, f"{LETTERS[faction]} {' '.join(values)}") for faction, values in mine.items()]
    if not chips:
        return
    gap = max(1, round(2 * k))
    best: tuple[int, int] = (0, 1)  # (type size, columns)
    for columns in range(1, len(chips) + 1):
        rows = (len(chips) + columns - 1) // columns
        height = (area.height - gap * (rows - 1)) // rows
        width = (area.width - gap * (columns - 1)) // columns
        size = min(round(18 * k), round(height * 0.8))
        while size > 6 and max(fonts.get(size).size(words)[0] for _, words in chips) > width - 2 * gap:
            size -= 1
        best = max(best, (size, -columns))
    size, columns = best[0], -best[1]
    rows = (len(chips) + columns - 1) // columns
    height = min((area.height - gap * (rows - 1)) // rows, round(size * 1.3) + 2 * gap)
    width = (area.width - gap * (columns - 1)) // columns
    top = area.top + (area.height - rows * height - gap * (rows - 1)) // 2
    for index, (faction, words) in enumerate(chips):
        row, column = divmod(index, columns)
        chip = pygame.Rect(area.left + column * (width + gap), top + row * (height + gap), width, height)
        color = FACTION_COLORS[faction]
        pygame.draw.rect(surface, color, chip, border_radius=max(2, height // 3))
        image = fonts.render(words, size, theme.ink_for(color))
        surface.blit(image, image.get_rect(center=chip.center))


def _legend(surface: pygame.Surface, area: pygame.Rect, state: StatusGame, fonts: Fonts, k: float) -> None:
    """Who is who: each Faction's disc, short name and Status points, clockwise; the Priority holder ringed in gold."""
    count = max(1, len(state.factions))
    width = area.width // count
    for index, faction in enumerate(state.factions):
        box = pygame.Rect(area.left + index * width, area.top, width, area.height)
        radius = area.height // 2 - 2
        center = (box.left + radius + 2, box.centery)
        if faction is state.priority:
            pygame.draw.circle(surface, theme.ACTIVE, center, radius + 2)
        disc(surface, fonts, faction, center, radius - 1)
        name = pygame.Rect(center[0] + radius + round(4 * k), box.top, box.right - center[0] - radius - round(6 * k), box.height)
        points = state.status[faction]  # the score as a number: on the track its disc covers the space's
        said = fitting(fonts, [f"{SHORT[faction]} {points}", f"{LETTERS[faction]} {points}"], round(19 * k), name.width)
        _text(surface, fonts, said, round(19 * k), FACTION_COLORS[faction], name)
