"""The AI's answers as buttons that keep their places from one question of the same shape to the next (issue 62):
the answers from the top of a grid whose height is the question's shape's, numbers ("0".."5", "More") four a row, the other
buttons under them; a question with fewer numbers (fewer AP left) leaves the rest of its rows empty, not its buttons moved."""

from __future__ import annotations

from collections.abc import Sequence

import pygame

from assistant.ui.intents import Item
from assistant.ui.layout import Layout
from assistant.ui.panel import FILLS, Hit, _button
from assistant.ui.theme import Fonts

NUMBER_ROWS = 2  # the rows kept for a question's numbers (0 to 6 and More; more where the AP need them)


def answering(item: Item) -> bool:
    """An answer to the AI's question (or, to a question taking several, an answer to pick)."""
    return (item.event or {}).get("type") == "ai_answer" and item.label != "Answer" or item.command == "pick"


def places(items: Sequence[Item]) -> list[tuple[int, int, int, int]]:
    """(row, column, columns of its row, span) of each item: the answers first, then the rest two a row."""
    answers = [n for n, item in enumerate(items) if answering(item)]
    across = 4 if answers and all(items[n].label.isdigit() or items[n].label == "More" for n in answers) else 2
    out: list[tuple[int, int, int, int]] = []
    rest = [n for n in range(len(items)) if n not in answers]
    first_rest = -(-len(answers) // across)
    for position, n in enumerate(answers):
        out.append((position // across, position % across, across, 1))
    for position, n in enumerate(rest):
        row, column = divmod(position, 2)
        alone = position == len(rest) - 1 and column == 0
        out.append((first_rest + row, column, 2, 2 if alone else 1))
    order = answers + rest
    return [out[order.index(n)] for n in range(len(items))]


def rows_of(items: Sequence[Item]) -> int:
    """The rows of the grid: as many as the buttons need, and for numbers two rows of them whatever the AP left (0 to 6
    and More), and a row for the other buttons (Change choice), so that each answer is where it was."""
    answers = [item for item in items if answering(item)]
    numbers = bool(answers) and all(item.label.isdigit() or item.label == "More" for item in answers)
    rest = len(items) - len(answers)
    return max(NUMBER_ROWS if numbers else 0, -(-len(answers) // (4 if numbers else 2))) + max(1, -(-rest // 2))


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
