"""The mission's own rows of the panel: the Stealth track (Renaissance "Stealth"), the Prey's deck ("Hunt Missions"), the Loot."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import pygame

from assistant.rules.prey import cards_left
from assistant.rules.state import GameState
from assistant.rules.stealth import alarm_raised
from assistant.ui import theme
from assistant.ui.layout import Layout
from assistant.ui.panel import read_size
from assistant.ui.theme import Fonts


def stealth_words(state: GameState) -> str:
    """What the track says now: the value the next roll needs, or that the alarm is raised."""
    track = state.scenario.stealth
    if alarm_raised(state):
        return "ALARM"
    return f"next roll {track[state.stealth]}+"


def prey_words(state: GameState) -> str:
    """The Prey's current Action Card (the last drawn) and the cards left in its deck."""
    prey = state.scenario.prey
    assert prey is not None
    left = cards_left(state)
    if state.prey_drawn == 0:
        return f"no card drawn yet · {left} left"
    card = prey.deck[state.prey_drawn - 1]
    return f"card {card.number} ({card.ap} AP) · {left} left"


def loot_counts(state: GameState) -> list[tuple[str, int]]:
    """The Loot ("Loot": Reagent Cards drawn face down for defeated Enemies) by the type on their backs, first drawn first."""
    return list(Counter(state.loot).items())


def draw_mission(surface: pygame.Surface, area: pygame.Rect, lay: Layout, state: GameState, fonts: Fonts) -> int:
    """The Stealth track, the Prey's deck and the Loot, a row each when the mission has them; returns y below."""
    y = area.top
    for draw, height in _rows(state, lay):
        y = draw(surface, pygame.Rect(area.left, y, area.width, height), lay, state, fonts)
    return y


def mission_height(state: GameState, lay: Layout) -> int:
    """The height `draw_mission` takes."""
    return sum(height for _, height in _rows(state, lay))


def _rows(state: GameState, lay: Layout) -> list[tuple[Callable[..., int], int]]:
    """The mission's rows, each as what draws it and its height."""
    rows: list[tuple[Callable[..., int], int]] = []
    if state.scenario.stealth:
        rows.append((_draw_stealth, lay.px(30)))
    if state.scenario.prey is not None:
        rows.append((_draw_prey, lay.px(30)))
    if state.loot:
        rows.append((_draw_loot, lay.px(26)))
    return rows


def _label(surface: pygame.Surface, fonts: Fonts, lay: Layout, words: str, row: pygame.Rect) -> int:
    image = fonts.render(words, read_size(lay, fonts), theme.MUTED)
    surface.blit(image, image.get_rect(midleft=(row.left, row.centery)))
    return row.left + image.get_width() + lay.px(8)


def _draw_stealth(surface: pygame.Surface, row: pygame.Rect, lay: Layout, state: GameState, fonts: Fonts) -> int:
    """Slot 0 (the lowest) then a box per value of the track, the top one (the alarm) ringed in red; the token's slot in gold."""
    x = _label(surface, fonts, lay, "Stealth", row)
    track = state.scenario.stealth
    size = lay.px(26)
    alarm = alarm_raised(state)
    for slot in range(len(track) + 1):
        box = pygame.Rect(x, row.centery - size // 2, size, size)
        top = slot == len(track)
        here = slot == min(state.stealth, len(track))
        fill = (theme.DANGER if alarm else theme.ACTIVE) if here else theme.BUTTON
        pygame.draw.rect(surface, fill, box, border_radius=max(2, lay.px(4)))
        if top:
            pygame.draw.rect(surface, theme.DANGER, box, max(2, lay.px(2)), border_radius=max(2, lay.px(4)))
        words = str(track[slot - 1]) if slot else ""
        if words:
            image = fonts.render(words, read_size(lay, fonts), theme.ACTIVE_TEXT if here else theme.TEXT)
            surface.blit(image, image.get_rect(center=box.center))
        x = box.right + lay.px(3)
    words = stealth_words(state)
    image = fonts.fit(words, read_size(lay, fonts), max(lay.px(40), row.right - x - lay.px(8)), theme.DANGER if alarm else theme.TEXT)
    surface.blit(image, image.get_rect(midleft=(x + lay.px(8), row.centery)))
    return row.bottom


def _draw_prey(surface: pygame.Surface, row: pygame.Rect, lay: Layout, state: GameState, fonts: Fonts) -> int:
    x = _label(surface, fonts, lay, "Prey", row)
    image = fonts.fit(prey_words(state), read_size(lay, fonts), row.right - x, theme.TEXT)
    surface.blit(image, image.get_rect(midleft=(x, row.centery)))
    return row.bottom


def _draw_loot(surface: pygame.Surface, row: pygame.Rect, lay: Layout, state: GameState, fonts: Fonts) -> int:
    """A chip per Reagent type: the count in gold, then the type (its first three letters when the row is too narrow)."""
    x = _label(surface, fonts, lay, "Loot", row)
    size, pad, gap = read_size(lay, fonts), lay.px(6), lay.px(4)
    font = fonts.get(size)
    for short in (False, True):
        chips = [(str(n), kind[:3] if short else kind) for kind, n in loot_counts(state)]
        widths = [font.size(f"{n} {kind}")[0] + 2 * pad for n, kind in chips]
        if x + sum(widths) + gap * (len(chips) - 1) <= row.right:
            break
    for (number, kind), width in zip(chips, widths):
        chip = pygame.Rect(x, row.top + lay.px(2), width, row.height - lay.px(4))
        if chip.right > row.right:
            break  # more types than the books have: those that fit
        pygame.draw.rect(surface, theme.BUTTON, chip, border_radius=lay.px(6))
        count = fonts.render(number, size, theme.ACTIVE)
        surface.blit(count, count.get_rect(midleft=(chip.left + pad, chip.centery)))
        name = fonts.render(kind, size, theme.TEXT)
        surface.blit(name, name.get_rect(midleft=(chip.left + pad + font.size(number + " ")[0], chip.centery)))
        x = chip.right + gap
    return row.bottom
