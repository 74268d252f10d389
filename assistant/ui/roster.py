"""The enemy roster: each group's models with their wounds against their Health, defeated ones marked; on the group's
turn its defences and attacks. A tap on a model opens Fix on it (wound it, or heal it with a turn)."""

from __future__ import annotations

from collections.abc import Sequence

import pygame

from assistant.rules.state import GameState
from assistant.ui import theme
from assistant.ui.dial import token_colors
from assistant.ui.layout import Layout
from assistant.ui.panel import Hit, _text, read_size
from assistant.ui.theme import Fonts


def row_height(lay: Layout, fonts: Fonts) -> int:
    return fonts.get(read_size(lay, fonts)).get_linesize() + lay.px(6)


def roster_height(state: GameState, lay: Layout, fonts: Fonts, groups: Sequence[str], detail: bool = False,
                  width: int = 0) -> int:  # fmt: skip
    """The height `draw_roster` takes for `groups` (with `detail`, the lines of the first group's numbers `width` wide
    more)."""
    lines = len(detail_lines(state, lay, fonts, groups[0], width)) if detail and groups else 0
    return row_height(lay, fonts) * (len(groups) + lines)


def fighting(state: GameState) -> list[str]:
    """The groups on the battlefield: those with a model standing, or wounded, or defeated (not those still to come)."""
    return [g.id for g in state.groups if g.standing or any(m.defeated for m in g.models)]


def group_words(state: GameState, group_id: str) -> str:
    """What the table checks on the group's turn: its defences and its attacks' AP ("Def 4 Psy 3 · Sling 2 AP")."""
    return " · ".join(_parts(state, group_id))


def _parts(state: GameState, group_id: str) -> list[str]:
    spec = state.scenario.enemy(group_id)
    return [f"Def {spec.physical_defense} Psy {spec.psychic_defense}", *(f"{a.name} {a.ap} AP" for a in spec.attacks)]


def detail_lines(state: GameState, lay: Layout, fonts: Fonts, group_id: str, width: int) -> list[str]:
    """The group's defences and attacks in lines `width` wide, each whole: as many of them a line as fit, joined by
    " · " (one line at 1280x800; "Def 5 Psy 5" over "Quicksilver Mist 3 AP" in the 330 px under the dial at 800x480)."""
    font = fonts.get(read_size(lay, fonts))
    lines: list[str] = []
    for part in _parts(state, group_id):
        joined = f"{lines[-1]} · {part}" if lines else part
        if lines and font.size(joined)[0] <= width - lay.px(8):
            lines[-1] = joined
        else:
            lines.append(part)
    return lines


def draw_roster(surface: pygame.Surface, area: pygame.Rect, lay: Layout, state: GameState, fonts: Fonts,
                groups: Sequence[str], detail: bool = False) -> list[Hit]:  # fmt: skip
    """A row a group from `area.top`: its colour and name, then a block a model, its number over a segment per point
    of Health (wounded ones red), a defeated model's block dim and crossed. Each model's block is a Hit
    ("model", (group, number))."""
    hits: list[Hit] = []
    colors = token_colors(state)
    size = read_size(lay, fonts)
    height = row_height(lay, fonts)
    y = area.top
    for group_id in groups:
        group, spec = state.group(group_id), state.scenario.enemy(group_id)
        row = pygame.Rect(area.left, y, area.width, height - lay.px(3))
        pygame.draw.rect(surface, theme.PANEL, row, border_radius=lay.px(6))
        mark = pygame.Rect(row.left + lay.px(4), row.centery - lay.px(7), lay.px(14), lay.px(14))
        pygame.draw.rect(surface, colors.get(group_id, theme.TEXT), mark, border_radius=lay.px(3))
        blocks, gap = len(group.models), lay.px(2)
        digit = fonts.get(size).size("0")[0] if blocks > 1 else 0  # the model's number, where the group has several
        room = row.width - lay.px(26)
        named = fonts.get(size).size(spec.name)[0] + lay.px(12)  # the name whole; the segments narrower for it
        per_block = (room - named) // max(1, blocks) - lay.px(4)
        seg = max(lay.px(4), min(lay.px(9), (per_block - digit - lay.px(12)) // max(1, spec.health) - gap))
        block_w = digit + lay.px(12) + spec.health * (seg + gap)
        name_w = max(lay.px(60), room - blocks * (block_w + lay.px(4)))
        _text(surface, fonts, spec.name, size, theme.TEXT, pygame.Rect(mark.right + lay.px(6), row.top, name_w - lay.px(6), row.height))
        x = mark.right + lay.px(6) + name_w
        for number, model in enumerate(group.models, start=1):
            block = pygame.Rect(x, row.top + lay.px(2), min(block_w, max(0, row.right - x)), row.height - lay.px(4))
            if block.width < lay.px(20):
                break  # more models than the row holds: those that fit
            pygame.draw.rect(surface, theme.BUTTON if not model.defeated else theme.BACKGROUND, block, border_radius=lay.px(4))
            if model.defeated:
                pygame.draw.line(surface, theme.DIM, block.topleft, block.bottomright, max(2, lay.px(2)))
                pygame.draw.line(surface, theme.DIM, block.bottomleft, block.topright, max(2, lay.px(2)))
            else:
                left = block.left + lay.px(4)
                if digit:
                    number_box = _text(surface, fonts, str(number), size, theme.MUTED, pygame.Rect(left, block.top, digit + lay.px(4), block.height))
                    left = number_box.right + lay.px(4)
                for w in range(spec.health):
                    color = theme.WOUND if w < model.wounds else theme.HEALTHY
                    pygame.draw.rect(surface, color, pygame.Rect(left + w * (seg + gap), block.centery - lay.px(8), seg, lay.px(16)),
                                     border_radius=max(1, lay.px(2)))  # fmt: skip
                hits.append(Hit(block, ("model", (group_id, number))))
            x = block.right + lay.px(4)
        y += height
        if detail and group_id == groups[0]:
            for words in detail_lines(state, lay, fonts, group_id, area.width):
                line = pygame.Rect(area.left + lay.px(4), y, area.width - lay.px(8), height - lay.px(3))
                _text(surface, fonts, words, size, theme.MUTED, line)
                y += height
    return hits
