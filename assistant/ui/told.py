"""What the table must act on now, in the table's largest type, and the log of what came before, scrollable.

The act lines (the AI's question or the roll it waits for, a refusal) are drawn whole above the buttons at
`theme.ACT_CAPS` (a refusal and a question's hint at `theme.READ_CAPS`); everything before them goes into the
log, newest at the bottom, at `READ_CAPS`: under the dial in landscape, above the act lines in portrait. A tap
on a log too long for its area shows one entry further back, and after the oldest the newest again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pygame

from assistant.rules.names import model_name, name_of
from assistant.rules.state import GameState
from assistant.ui import theme
from assistant.ui.advice import Advice
from assistant.ui.layout import Layout
from assistant.ui.panel import read_size
from assistant.ui.theme import Color, Fonts


@dataclass(frozen=True)
class Line:
    """One entry: its words and colour; `big` for the act line; `mark`, the AI's open choice behind it (tap it);
    `keep`, how long an act line stays where room is short (the lowest go to the log first; None: never)."""

    text: str
    color: Color
    big: bool = False
    mark: str = ""
    keep: int | None = None


@dataclass(frozen=True)
class Drawn:
    """Where a tap on the words means something: ("choice", key) overrides an AI choice, ("log",) scrolls."""

    rect: pygame.Rect
    target: tuple[str, ...]


def act_size(lay: Layout, fonts: Fonts, less: int = 0) -> int:
    """The act lines' size, `less` px capitals under `ACT_CAPS` (at 800x480) where they would not fit."""
    return fonts.for_caps(lay.unit * (theme.ACT_CAPS - less))


LESS = (0, 2, 4, theme.ACT_CAPS - theme.READ_CAPS)  # how far the act lines may give way: about 28 px capitals, or
# for an instruction too long for that (a Draft's), the least the table reads


def waiting_words(advice: Advice | None, camera: bool = False) -> str:
    """What the game waits for from the table: the AI's question, or the defence to roll ("" for nothing); the
    camera offered only where there is one."""
    if advice is None:
        return ""
    if advice.question is not None:
        return str(advice.question.text)
    if advice.attack is not None:  # the roll as the AI words it ("Valerio rolls 4 dice on Physique, 5+..."), and how
        roll = advice.steps[-1].split(" Traits: ")[0].rpartition(". ")[2] if advice.steps else "Roll the defence."
        return roll + roll_hint(camera)
    return ""


def roll_hint(camera: bool) -> str:
    """How the table gives the dice: by hand, or (where there is one) by the camera."""
    return f" (tap Defence roll{', or let the camera read the dice' if camera else ''})"


def question_lines(words: str) -> list[Line]:
    """The question big, and a closing "(tap all who are equally close)" under it, smaller: how to answer."""
    head, paren, hint = words.rpartition(" (")
    if paren and hint.endswith(")") and head:
        return [Line(head, theme.ACTIVE, True), Line("(" + hint, theme.ACTIVE)]
    return [Line(words, theme.ACTIVE, True)]


def up_now(state: GameState, advice: Advice | None) -> str:
    """Which model the AI's question or the roll is about, and which of its attacks this activation is up
    ("Slingers 2: attack 2 · Sling on Sofia"): a model's second attack looked the same as its first."""
    if advice is None or state.turn is None:
        return ""
    order, question = advice.attack, advice.question
    if order is not None:
        group, number, words = order.group, order.model, f"{order.attack} on {name_of(state, order.hero)}"
    elif question is not None and question.model:
        group, _, rest = question.model.partition("/")
        number, words = int(rest or 0), question.attack
    else:
        return ""
    if not words:
        return ""  # the question names the model itself
    made = sum(1 for attack in state.turn.attacks if attack.group == group and attack.model == number)
    return f"{model_name(state, f'{group}/{number}')}: attack {made + 1} · {words}"


def told(advice: Advice | None, error: str, said: Sequence[str], notes: Sequence[str],
         state: GameState | None = None, before: Sequence[str] = (), camera: bool = False) -> tuple[list[Line], list[Line]]:  # fmt: skip
    """(the log, the act lines). With the AI talking: its sentences (a choice it made in blue) and `notes` (what
    just happened) in the log, and what it waits for big; with the AI done, its last sentence big. Without it,
    `notes` (the newest white) in the log; `before`, what began the AI's turn, first. `said`, neutral words (the
    camera's, what Undo took back), are the log's newest; a refusal (`error`) is an act line, in red. `camera`: the
    table has one (a roll says it may read the dice)."""
    log: list[Line] = [Line(note, theme.MUTED) for note in before]  # what the change before the AI's turn did
    act: list[Line] = [Line(error, theme.DANGER)] if error else []
    if advice is not None:
        if advice.side == "hero":  # what the Hero did above what the Hero does now (Status Tokens held): the newest
            log += [Line(note, theme.MUTED) for note in notes]
        for index, text in enumerate(advice.steps):
            mark = advice.mark(index)
            log.append(Line(text, theme.MUTED if index in advice.faded else theme.CHOICE if mark else theme.TEXT, mark=mark))
        if advice.attack is not None and advice.question is None and advice.steps:
            step = log.pop()
            head, dot, _ = step.text.rpartition(". ")  # its last sentence, the roll, is the act line
            log += [Line(head + dot.strip(), step.color, mark=step.mark)] if dot else []
        waiting = waiting_words(advice, camera)
        after = [Line(note, theme.MUTED) for note in notes] if advice.side != "hero" else []
        if advice.side == "enemy" and not waiting and log:  # what an attack did, above the AI's last sentence
            log[-1:-1] = after
        else:
            log += after
        up = up_now(state, advice) if state is not None else ""
        act += [Line(up, theme.TEXT)] if up and waiting else []
        if waiting:
            act += question_lines(waiting)
        elif log and advice.side in ("enemy", "event", "stop"):  # what the table does now: the AI's last sentence,
            # or at a stop the token its buttons resolve (a tie after it was said big over Resolve and Keep it)
            now = advice.steps[advice.kinds.index("event")] if advice.side == "stop" and "event" in advice.kinds else None
            at = next((n for n in range(len(log) - 1, -1, -1) if log[n].text == now), len(log) - 1)
            last = log.pop(at)
            act.append(Line(last.text, last.color, True, last.mark))
        elif advice.side == "hero":  # a Status Token reminder is acted on now: above the buttons, whole, at reading
            # size (5 lines in the 4 under the dial at 800x480 took a tap to read)
            held = {advice.steps[n] for n, kind in enumerate(advice.kinds) if kind == "status"}
            act += [line for line in log if line.text in held]
            log = [line for line in log if line not in act]
    else:
        log += [Line(note, theme.TEXT if n == len(notes) - 1 else theme.MUTED) for n, note in enumerate(notes)]
    log += [Line(words, theme.MUTED) for words in said if words]
    return log, act


def _image(line: Line, lay: Layout, fonts: Fonts, width: int, indent: int, less: int = 0) -> pygame.Surface:
    size = act_size(lay, fonts, less) if line.big else read_size(lay, fonts)
    return fonts.get(size).render(line.text, True, line.color, None, width - indent)


def act_height(act: Sequence[Line], width: int, lay: Layout, fonts: Fonts, less: int = 0) -> int:
    """The height `draw_act` takes for `act` in an area `width` wide (0 for none)."""
    return sum(_image(line, lay, fonts, width, lay.px(10) if line.mark else 0, less).get_height() + lay.px(2)
               for line in act)


def draw_act(surface: pygame.Surface, area: pygame.Rect, act: Sequence[Line], lay: Layout, fonts: Fonts,
             less: int = 0) -> list[Drawn]:  # fmt: skip
    """The act lines from the top of `area`; counted in `fonts.squeezed` where they do not fit it."""
    hits: list[Drawn] = []
    y = area.top
    for line in act:
        indent = lay.px(10) if line.mark else 0
        image = _image(line, lay, fonts, area.width, indent, less)
        box = pygame.Rect(area.left + indent, y, image.get_width(), image.get_height())
        if box.bottom > area.bottom + lay.px(2):
            fonts.cut(line.text, act_size(lay, fonts, less) if line.big else read_size(lay, fonts))
        surface.blit(image, box)
        if line.mark:
            pygame.draw.rect(surface, theme.CHOICE, pygame.Rect(area.left, box.top, max(3, lay.px(4)), box.height))
            hits.append(Drawn(box.inflate(0, lay.px(4)), ("choice", line.mark)))  # as in the log: its bar on its left
        y = box.bottom + lay.px(2)
    return hits


def draw_log(surface: pygame.Surface, area: pygame.Rect, log: Sequence[Line], scroll: int, lay: Layout,
             fonts: Fonts) -> tuple[list[Drawn], list[int], int]:  # fmt: skip
    """The log in `area`, line by line, never a line cut: as many whole entries as fit, ending with the newest, or
    where that is taller than the area, its first lines (never an entry's last lines without its first); each `scroll` a page further back. A bar on the right where not
    all is shown. Returns the taps it takes, the entries it shows (whole, or the first lines of one taller than the
    area; indices into `log`) and how many views `scroll` steps through before it shows the newest again (the rest of
    a newest entry taller than the area first, then further back)."""
    hits: list[Drawn] = []
    if area.height <= 0 or not log:
        return hits, [], 1
    bar = max(3, lay.px(5))
    step = fonts.get(read_size(lay, fonts)).get_linesize()
    strips: list[tuple[int, pygame.Surface, int]] = []  # (entry, one line of it, the room above it)
    for index, line in enumerate(log):
        indent = lay.px(10) if line.mark else 0
        image = _image(line, lay, fonts, area.width - bar - lay.px(4), indent)
        for n in range(max(1, image.get_height() // step)):
            strips.append((index, image.subsurface(pygame.Rect(0, n * step, image.get_width(), min(step, image.get_height()))),
                           lay.px(3) if n == 0 and strips else 0))
    def fits(first: int) -> int:  # how many strips from `first` fit the area
        used = count = 0
        for _, image, above in strips[first:]:
            used += image.get_height() + (above if count else 0)
            if used > area.height:
                break
            count += 1
        return max(1, count)
    newest = next(n for n, strip in enumerate(strips) if strip[0] == len(log) - 1)
    heads = [n for n, strip in enumerate(strips) if n == 0 or strips[n - 1][0] != strip[0]]  # an entry's first line
    default = newest if fits(newest) < len(strips) - newest else next(f for f in heads if fits(f) >= len(strips) - f)
    page = max(1, fits(default) - 1)
    starts = [max(0, default - k * page) for k in range(-(-default // page) + 1)]  # each view's first line
    if fits(default) < len(strips) - default:  # the newest taller than the area: its further lines next
        starts[1:1] = range(default + page, len(strips), page)
    views = len(starts)
    first = starts[scroll % views]
    shown = strips[first:first + fits(first)]
    every = first == 0 and len(shown) == len(strips)
    last = first + len(shown) == len(strips)  # down to the newest: at the bottom, whole entries above it
    y = area.bottom - sum(image.get_height() + above for _, image, above in shown) + shown[0][2] if last else area.top
    boxes: dict[int, pygame.Rect] = {}
    for number, (index, image, above) in enumerate(shown):
        y += above if number else 0
        indent = lay.px(10) if log[index].mark else 0
        box = surface.blit(image, (area.left + indent, y))
        boxes[index] = boxes[index].union(box) if index in boxes else box
        y = box.bottom
    for index, box in boxes.items():
        if log[index].mark:
            pygame.draw.rect(surface, theme.CHOICE, pygame.Rect(area.left, box.top, max(3, lay.px(4)), box.height))
            hits.append(Drawn(box, ("choice", log[index].mark)))
    if not every:  # not all shown: where the view is, and a tap goes further back
        track = pygame.Rect(area.right - bar, area.top, bar, area.height)
        pygame.draw.rect(surface, theme.BAND, track, border_radius=bar // 2)
        thumb_h = max(bar, area.height * len(shown) // len(strips))
        thumb = pygame.Rect(track.left, track.top + (area.height - thumb_h) * first // max(1, len(strips) - len(shown)), bar, thumb_h)
        pygame.draw.rect(surface, theme.MUTED, thumb.clip(track), border_radius=bar // 2)
        hits.append(Drawn(area, ("log",)))
    return hits, list(boxes), views
