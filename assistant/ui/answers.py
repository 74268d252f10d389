"""The AI's answers as buttons that keep their places from one question of the same shape to the next (issue 62):
the answers from the top of a grid whose height is the question's shape's, short ones ("0".."5", "More", "Yes") four a row, the other
buttons under them; a question with fewer numbers (fewer AP left) leaves the rest of its rows empty, not its buttons moved."""

from __future__ import annotations

from collections.abc import Sequence

import pygame

from assistant.ui.intents import Item
from assistant.ui.layout import Layout
from assistant.ui.panel import FILLS, Hit, _button
from assistant.ui.theme import Fonts

NUMBER_ROWS = 2  # the rows kept for numbers (0 to 6 and More) or Heroes (more where they need them)
SHORT = 6  # letters of an answer that fits a quarter of the panel's width at every size ("More", "1 of 2")


def answering(item: Item) -> bool:
    """An answer to the AI's question (or, to a question taking several, an answer to pick), or a defence roll's
    count of successes."""
    event = item.event or {}
    counted = event.get("type") == "enemy_attack" and item.form == "" and item.kind == "order"
    return event.get("type") == "ai_answer" and item.label != "Answer" or item.command == "pick" or counted


def across(items: Sequence[Item]) -> int:
    """Answers a row: four where every one is short, else two."""
    return 4 if items and all(len(item.label) <= SHORT for item in items) else 2


def places(items: Sequence[Item]) -> list[tuple[int, int, int, int]]:
    """(row, column, columns of its row, span) of each item: the answers first, then the rest two a row."""
    answers = [n for n, item in enumerate(items) if answering(item)]
    across_ = across([items[n] for n in answers])
    out = [(0, 0, 0, 0)] * len(items)
    for position, n in enumerate(answers):
        out[n] = (position // across_, position % across_, across_, 1)
    rest = [n for n in range(len(items)) if n not in answers]
    first_rest = -(-len(answers) // across_)
    for position, n in enumerate(rest):
        row, column = divmod(position, 2)
        alone = position == len(rest) - 1 and column == 0
        out[n] = (first_rest + row, column, 2, 2 if alone else 1)
    return out


def rows_of(items: Sequence[Item]) -> int:
    """The rows of the grid: as many as the buttons need, and for numbers two rows of them whatever the AP left (0 to 6
    and More), and a row for the other buttons (Change choice), so that each answer is where it was."""
    answers = [item for item in items if answering(item)]
    numbers = bool(answers) and all(item.label.isdigit() or item.label == "More" for item in answers)
    rest = len(items) - len(answers)
    kept = NUMBER_ROWS if numbers or across(answers) == 2 else 1  # numbers, or Heroes two a row: a KO keeps the rows
    return max(kept, -(-len(answers) // across(answers))) + max(1, -(-rest // 2))


def draw_answers(surface: pygame.Surface, area: pygame.Rect, lay: Layout, items: Sequence[Item], focus: int,
                 fonts: Fonts, row_h: int) -> list[Hit]:  # fmt: skip
    """The buttons from the top of `area`, rows `row_h` high; item i is button i."""
    hits: list[Hit] = []
    gap = lay.gap
    for index, (item, (row, column, across, span)) in enumerate(zip(items, places(items))):
        width = (area.width - (across - 1) * gap) // across
        rect = pygame.Rect(area.left + column * (width + gap), area.top + row * (row_h + gap), width * span + gap * (span - 1), row_h)
        _button(surface, rect, lay, fonts, item.label, FILLS[item.kind], index == focus, item.enabled, item.key, item.detail)
        hits.append(Hit(rect, ("item", index)))
    return hits
