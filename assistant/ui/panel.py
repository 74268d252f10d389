"""The panel beside the dial: what to do now, the heroes' Perilium and wounds, what just happened, the buttons."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

import pygame

from assistant.rules.scenario import HeroSpec
from assistant.rules.state import GameState, HeroState
from assistant.ui import theme
from assistant.ui.dial import token_colors
from assistant.ui.form import APPLY, BACK, Dice, Form, Number, Stop, Text
from assistant.ui.intents import Item
from assistant.ui.layout import Layout
from assistant.ui.theme import Color, Fonts
from assistant.ui.words import headline, over_is_good, over_words, roman, next_ids, token_label, up_next


@dataclass(frozen=True)
class Hit:
    """A place a tap means something: `target` is ("item", i), ("stop", Stop, side) or ("back",)."""

    rect: pygame.Rect
    target: tuple[Any, ...]


def _text(surface: pygame.Surface, fonts: Fonts, words: str, size: int, color: Color, rect: pygame.Rect,
          align: str = "left") -> pygame.Rect:  # fmt: skip
    image = fonts.fit(words, size, rect.width, color)
    if align == "center":
        box = image.get_rect(center=rect.center)
    elif align == "right":
        box = image.get_rect(midright=rect.midright)
    else:
        box = image.get_rect(midleft=rect.midleft)
    surface.blit(image, box)
    return box


def header_height(lay: Layout, compact: bool = False) -> int:
    """The height `draw_header` takes."""
    return lay.px(40) + (0 if compact else lay.px(32))


def compact_fits(area: pygame.Rect, lay: Layout, state: GameState, fonts: Fonts) -> bool:
    """Whether the header's one row ("Venetian Alchemist · 3 AP" and the clock) fits whole."""
    title, line = headline(state)
    clock = fonts.get(read_size(lay, fonts)).size(f"{roman(state.clock.minute)} · hour {state.clock.hour}")[0]
    return fonts.get(fonts.smallest(lay.px(36))).size(f"{title} · {line}")[0] <= area.width - clock - lay.gap


def draw_header(surface: pygame.Surface, area: pygame.Rect, lay: Layout, state: GameState, fonts: Fonts,
                compact: bool = False) -> int:  # fmt: skip
    """Who acts (in their colour) and the time; what is left to them and who comes next; returns y below.
    `compact`: one row, what is left to them after the name ("Slingers · 5 AP"), for what the table acts on."""
    title, line = headline(state)
    if compact and state.over is None:
        title = f"{title} · {line}"
    colors = token_colors(state)
    color = colors.get(state.active or "", theme.TEXT)
    if state.over is not None:
        color = theme.GOOD if over_is_good(state) else theme.DANGER
    y = area.top
    title_h = lay.px(40)
    clock = f"{roman(state.clock.minute)} · hour {state.clock.hour}"
    clock_img = fonts.render(clock, read_size(lay, fonts), theme.MUTED)
    title_box = pygame.Rect(area.left, y, area.width - clock_img.get_width() - lay.gap, title_h)
    _text(surface, fonts, title, lay.px(36), color, title_box)
    surface.blit(clock_img, clock_img.get_rect(midright=(area.right, y + title_h // 2)))
    y += title_h
    if compact:
        return y
    row = pygame.Rect(area.left, y, area.width, lay.px(28))
    done = _text(surface, fonts, line, read_size(lay, fonts), theme.TEXT, row)
    after = up_next(state)
    if after and state.over is None:
        rest = pygame.Rect(done.right + lay.px(12), y, row.right - done.right - lay.px(12), row.height)
        size = read_size(lay, fonts)
        words = (_next_words(after, fonts, size, rest.width)
                 or _next_words([name.split()[0] for name in after], fonts, size, rest.width)  # "next: Venetian"
                 or _next_words([token_label(state, i) for i in next_ids(state)], fonts, size, rest.width))
        if words:
            _text(surface, fonts, words, size, theme.MUTED, rest)
    return y + row.height + lay.px(4)


def _next_words(after: Sequence[str], fonts: Fonts, size: int, width: int) -> str:
    """"next: A, B, C", or as many names as fit whole and how many more ("next: A +2"); "" where not one does
    (the header then names them by their first words, "next: Venetian", then by their tokens' letters, "next: Vi
    +3", or not at all: "next: VE" was all it said of the Venetian Alchemist at 800x480)."""
    smallest = fonts.get(fonts.smallest(size))
    for shown in range(len(after), 0, -1):
        words = "next: " + ", ".join(after[:shown]) + (f" +{len(after) - shown}" if shown < len(after) else "")
        if smallest.size(words)[0] <= width:
            return words
    return ""


def heroes_height(state: GameState, lay: Layout, columns: int) -> int:
    """The height `draw_heroes` takes in `columns`."""
    return (len(state.heroes) + columns - 1) // columns * lay.px(34) + lay.px(2)


def draw_heroes(surface: pygame.Surface, area: pygame.Rect, lay: Layout, state: GameState, fonts: Fonts,
                columns: int = 1) -> int:  # fmt: skip
    """A row a hero: token, name, wound bar, and the Perilium (Threat Level) big; returns y below.

    With two columns (compact, while the Enemy AI talks) the name is left out: the token says who.
    """
    colors = token_colors(state)
    row_h = lay.px(34)
    width = (area.width - (columns - 1) * lay.gap) // columns
    for index, hero in enumerate(state.heroes):
        spec = state.scenario.hero(hero.id)
        column, row = index % columns, index // columns
        box = pygame.Rect(area.left + column * (width + lay.gap), area.top + row * row_h, width, row_h - lay.px(3))
        active = hero.id == state.active
        pygame.draw.rect(surface, theme.BUTTON if active else theme.PANEL, box, border_radius=lay.px(6))
        if active:
            pygame.draw.rect(surface, theme.TEXT, box, max(1, lay.px(2)), border_radius=lay.px(6))
        color = colors[hero.id]
        disc_r = box.height // 2 - lay.px(3)
        disc = (box.left + lay.px(6) + disc_r, box.centery)
        if hero.ko:
            pygame.draw.circle(surface, theme.KO, disc, disc_r)
            pygame.draw.circle(surface, color, disc, disc_r, max(2, lay.px(2)))
        else:
            pygame.draw.circle(surface, color, disc, disc_r)
        threat_w = lay.px(46)
        threat_box = pygame.Rect(box.right - threat_w - lay.px(4), box.top + lay.px(3), threat_w, box.height - lay.px(6))
        pygame.draw.rect(surface, theme.THREAT, threat_box, border_radius=lay.px(8))
        _text(surface, fonts, str(hero.threat), lay.px(26), theme.ACTIVE_TEXT, threat_box, "center")
        room = threat_box.left - lay.px(8) - (disc[0] + disc_r + lay.px(6))
        bar_left = _draw_wounds(surface, lay, hero, spec, threat_box.left - lay.px(8), box.centery, room)
        name_box = pygame.Rect(disc[0] + disc_r + lay.px(8), box.top, bar_left - disc[0] - disc_r - lay.px(14), box.height)
        name = spec.name + (" (out)" if hero.removed else "")
        # in two columns the name only where it fits whole; a KO hero not named keeps their letters on the
        # disc (two "KO" discs told apart only by their rings) and "KO" goes beside it
        size = read_size(lay, fonts)
        named = columns == 1 or name_box.width >= lay.px(100) and fonts.get(size).size(name)[0] <= name_box.width
        label = fonts.render("KO" if hero.ko and named else token_label(state, hero.id), round(disc_r * 1.05),
                             theme.TEXT if hero.ko else theme.ink_for(color))  # fmt: skip
        surface.blit(label, label.get_rect(center=disc))
        if named:
            name_color = theme.MUTED if hero.ko or hero.removed else theme.TEXT
            _text(surface, fonts, name, size, name_color, name_box)
        elif hero.ko and fonts.get(size).size("KO")[0] <= name_box.width:
            _text(surface, fonts, "KO", size, theme.DANGER, name_box)
    return area.top + heroes_height(state, lay, columns)


def _draw_wounds(surface: pygame.Surface, lay: Layout, hero: HeroState, spec: HeroSpec, right: int, middle: int,
                 room: int) -> int:  # fmt: skip
    """The wound bar ending at `right`, at most `room` wide: a segment per point of Health, the wounded ones red,
    after a shorter one per wound the Hero's Equipment (or armour) can hold, those holding one violet; its left edge."""
    seg_h, gap = lay.px(18), lay.px(2)
    seg_w = max(2, min(lay.px(8), (room + gap) // max(1, spec.health + spec.resistance) - gap))
    segments = [(theme.ARMOUR_HIT if w < hero.equipment_wounds else theme.ARMOUR, seg_h * 2 // 3)
                for w in range(spec.resistance)]
    segments += [(theme.WOUND if w < hero.wounds else theme.HEALTHY, seg_h) for w in range(spec.health)]
    left = right - len(segments) * (seg_w + gap) + gap
    for n, (color, height) in enumerate(segments):
        r = pygame.Rect(left + n * (seg_w + gap), middle - height // 2, seg_w, height)
        pygame.draw.rect(surface, color, r, border_radius=max(1, lay.px(2)))
    return left


def draw_lines(surface: pygame.Surface, area: pygame.Rect, lay: Layout, lines: Sequence[tuple[str, Color]],
               fonts: Fonts, indented: Collection[int] = ()) -> list[tuple[int, pygame.Rect]]:  # fmt: skip
    """Sentences wrapped to the area's width, the last at the bottom, older ones above as far as they fit.

    Returns (index of the line, where it was drawn) for the lines drawn, clipped to the area;
    the lines `indented` leave room on their left (for a choice's bar).
    """
    indent = lay.px(10)
    chosen: list[pygame.Surface] | None = None
    for size in range(max(lay.px(19), fonts.MIN_READABLE), fonts.MIN_READABLE - 1, -1):  # smaller type (never below readable) rather than lines left out
        font = fonts.get(size)
        images = [font.render(text, True, color, None, area.width - indent) for text, color in lines]
        if sum(image.get_height() + lay.px(3) for image in images) <= area.height + lay.px(3):
            chosen = images
            break
    images = chosen if chosen is not None else images  # if all never fit, the smallest: the most lines shown
    if images and images[-1].get_height() > area.height:  # the newest line itself is cut: said
        fonts.cut(lines[-1][0], fonts.MIN_READABLE)
    bottom = area.bottom
    clip = surface.get_clip()
    surface.set_clip(area)
    drawn: list[tuple[int, pygame.Rect]] = []
    for number, image in enumerate(reversed(images)):
        if number and bottom - image.get_height() < area.top:
            break
        bottom -= image.get_height() + lay.px(3)
        index = len(images) - 1 - number
        left = area.left + (indent if index in indented else 0)
        box = pygame.Rect(left, max(area.top, bottom + lay.px(3)), image.get_width(), image.get_height())
        surface.blit(image, box)
        drawn.append((index, box.clip(area)))
    surface.set_clip(clip)
    return drawn


def _button(surface: pygame.Surface, rect: pygame.Rect, lay: Layout, fonts: Fonts, label: str, fill: Color,
            focused: bool, enabled: bool = True, key: str = "", detail: str = "") -> None:  # fmt: skip
    radius = lay.px(8)
    pygame.draw.rect(surface, fill if enabled else theme.PANEL, rect, border_radius=radius)
    if focused:
        pygame.draw.rect(surface, theme.ACTIVE, rect, max(3, lay.px(4)), border_radius=radius)
    elif enabled:
        pygame.draw.rect(surface, theme.LINE, rect, max(1, lay.px(1)), border_radius=radius)
    color = theme.TEXT if enabled else theme.DIM
    size = label_size(lay, fonts)
    inner = rect.inflate(-lay.px(14), 0)
    if key:  # the key's letter in the corner, the label beside it, never over it
        hint = fonts.render(key.upper(), lay.px(15), theme.MUTED if enabled else theme.DIM)
        surface.blit(hint, hint.get_rect(topright=(rect.right - lay.px(5), rect.top + lay.px(3))))
        inner.width -= hint.get_width()
    if detail and rect.height >= lay.px(50):
        top = pygame.Rect(inner.left, rect.top + lay.px(4), inner.width, rect.height * 3 // 5 - lay.px(2))
        bottom = pygame.Rect(inner.left, top.bottom, inner.width, rect.bottom - top.bottom - lay.px(4))
        _text(surface, fonts, label, size, color, top, "center")
        _text(surface, fonts, detail, lay.px(16), theme.MUTED if enabled else theme.DIM, bottom, "center")
    elif " " in label and rect.height >= lay.px(50) and fonts.get(fonts.smallest(size)).size(label)[0] > inner.width:
        first, second = halves(label)  # a long name ("Venetian Alchemist") on two lines rather than cut
        top = pygame.Rect(inner.left, rect.top + lay.px(3), inner.width, rect.height // 2 - lay.px(3))
        bottom = pygame.Rect(inner.left, top.bottom, inner.width, rect.bottom - top.bottom - lay.px(3))
        _text(surface, fonts, first, read_size(lay, fonts), color, top, "center")
        _text(surface, fonts, second, read_size(lay, fonts), color, bottom, "center")
    else:
        _text(surface, fonts, label, size, color, inner, "center")


def label_size(lay: Layout, fonts: Fonts) -> int:
    """A button's label: a little larger than the least the table reads."""
    return fonts.for_caps(lay.unit * (theme.READ_CAPS + 2))


def read_size(lay: Layout, fonts: Fonts) -> int:
    """The least size a player must read (`theme.READ_CAPS` at 800x480)."""
    return fonts.for_caps(lay.unit * theme.READ_CAPS)


def least_height(items: Sequence[Item], width: int, lay: Layout, fonts: Fonts) -> int:
    """The least height buttons `width` wide give up to: 34 px, or 50 where a label needs two lines (a long name
    that `_button` splits rather than cuts, "Venetian Alchemist"; a detail under a label goes first)."""
    inner = width - lay.px(14) - lay.px(12)  # as `_button`, less a key hint
    smallest = fonts.get(fonts.smallest(label_size(lay, fonts)))
    two = any(" " in item.label and smallest.size(item.label)[0] > inner for item in items)
    return lay.px(50) if two else lay.px(34)


def halves(label: str) -> tuple[str, str]:
    """A label split at the space nearest its middle."""
    spaces = [i for i, c in enumerate(label) if c == " "]
    cut = min(spaces, key=lambda i: abs(i - len(label) / 2))
    return label[:cut], label[cut + 1 :]


FILLS = {"action": theme.BUTTON, "order": theme.BUTTON_ORDER, "event": theme.BUTTON_EVENT, "command": theme.BUTTON_COMMAND}


def draw_menu(surface: pygame.Surface, area: pygame.Rect, lay: Layout, items: Sequence[Item], focus: int,
              fonts: Fonts, columns: int = 2, first: int = 0) -> list[Hit]:  # fmt: skip
    """Items as a grid of big buttons filling `area` from the bottom; item `first + i` is button i."""
    hits: list[Hit] = []
    if not items:
        return hits
    rows = (len(items) + columns - 1) // columns
    gap = lay.gap
    row_h = min(lay.px(60), (area.height - (rows - 1) * gap) // rows)
    width = (area.width - (columns - 1) * gap) // columns
    top = area.bottom - rows * row_h - (rows - 1) * gap
    for index, item in enumerate(items):
        row, column = divmod(index, columns)
        span = columns if (index == len(items) - 1 and column == 0 and columns > 1 and item.kind != "command") else 1
        rect = pygame.Rect(area.left + column * (width + gap), top + row * (row_h + gap), width * span + gap * (span - 1), row_h)
        number = first + index
        _button(surface, rect, lay, fonts, item.label, FILLS[item.kind], number == focus, item.enabled, item.key, item.detail)
        hits.append(Hit(rect, ("item", number)))
    return hits


def draw_form(surface: pygame.Surface, area: pygame.Rect, lay: Layout, form: Form, fonts: Fonts,
              error: str = "", preview: str = "", kept: int = 0) -> list[Hit]:  # fmt: skip
    """A form: its title, a row per field (◀ value ▶), dice as squares, then Back and Apply; under the rows a refusal
    (red), or what Apply would do (`preview`, in gold: "3 successes, 2 wounds"). `kept`: the height kept under the
    rows for those words whatever they are (their type gives way to fit it), so that the rows keep their places
    as the words come, go and change; else the rows give up height to the words."""
    hits: list[Hit] = []
    y = area.top
    _text(surface, fonts, form.title, lay.px(34), theme.TEXT, pygame.Rect(area.left, y, area.width, lay.px(42)))
    y += lay.px(44)
    if form.note:
        note = fonts.get(read_size(lay, fonts)).render(form.note, True, theme.MUTED, None, area.width)
        surface.blit(note, (area.left, y - lay.px(2)))
        y += note.get_height() + lay.px(4)
    button_h = lay.px(56)
    bottom = pygame.Rect(area.left, area.bottom - button_h, area.width, button_h)
    back = pygame.Rect(bottom.left, bottom.top, bottom.width * 2 // 5 - lay.gap // 2, button_h)
    apply = pygame.Rect(back.right + lay.gap, bottom.top, bottom.right - back.right - lay.gap, button_h)
    hits += [Hit(back, ("back",)), Hit(apply, ("stop", APPLY, 0))]  # first: a tap on them is theirs, whatever else is drawn
    rows = len(form.visible())
    if kept:
        row_h = max(lay.px(30), min(lay.px(46), (bottom.top - lay.px(4) - y - kept) // max(1, rows)))
        room = bottom.top - lay.px(6) - y - rows * row_h
    else:
        room = bottom.top - lay.px(6) - y - rows * lay.px(30)
    words = form_message(error or preview, area.width, room, lay, fonts, theme.DANGER if error else theme.ACTIVE)
    if not kept:
        reserved = words.get_height() + lay.px(2) if words is not None else 0
        row_h = max(lay.px(30), min(lay.px(46), (bottom.top - lay.px(4) - y - reserved) // max(1, rows)))  # all above the buttons
    longest = max((fonts.get(read_size(lay, fonts)).size(f.label)[0] for _, f in form.visible()), default=0)
    label_w = max(int(area.width * 0.2), min(int(area.width * 0.6), longest + lay.px(8)))  # as wide as its words
    for index, item in form.visible():
        row = pygame.Rect(area.left, y, area.width, row_h - lay.px(4))
        value_area = pygame.Rect(row.left + label_w, row.top, row.width - label_w, row.height)
        if isinstance(item, Dice) and die_side(value_area, lay, len(item.values)) < min(row.height, lay.px(28)):
            value_area = row  # many dice: the whole row, without its label, for squares a finger can tap
        else:
            _text(surface, fonts, item.label, read_size(lay, fonts), theme.MUTED, pygame.Rect(row.left, row.top, label_w - lay.px(4), row.height))
        if isinstance(item, Dice):
            hits += _draw_dice(surface, value_area, lay, form, index, item, fonts)
        else:
            stop = Stop(index)
            focused = form.focus == stop
            pygame.draw.rect(surface, theme.BUTTON, value_area, border_radius=lay.px(8))
            if focused:
                pygame.draw.rect(surface, theme.ACTIVE, value_area, max(3, lay.px(4)), border_radius=lay.px(8))
            arrow_w = lay.px(26)
            left = pygame.Rect(value_area.left, value_area.top, arrow_w, value_area.height)
            right = pygame.Rect(value_area.right - arrow_w, value_area.top, arrow_w, value_area.height)
            middle = pygame.Rect(left.right, value_area.top, right.left - left.right, value_area.height)
            if isinstance(item, Text):  # words: no arrows, a tap anywhere on it opens the keyboard
                _text(surface, fonts, item.words, label_size(lay, fonts), theme.TEXT if item.value else theme.MUTED, middle, "center")
                hits.append(Hit(value_area, ("stop", stop, 0)))
                y += row_h
                continue
            at_low = isinstance(item, Number) and item.value <= item.low
            at_high = isinstance(item, Number) and item.value >= item.high
            _text(surface, fonts, "<", lay.px(26), theme.DIM if at_low else theme.TEXT, left, "center")
            _text(surface, fonts, ">", lay.px(26), theme.DIM if at_high else theme.TEXT, right, "center")
            _text(surface, fonts, item.words, label_size(lay, fonts), theme.TEXT, middle, "center")
            hits += [Hit(left, ("stop", stop, -1)), Hit(right, ("stop", stop, 1)), Hit(middle, ("stop", stop, 0))]
        y += row_h
    if words is not None:  # under the rows, above the buttons
        room = bottom.top - lay.px(4) - (y + lay.px(2))
        surface.blit(words, (area.left, y + lay.px(2)), pygame.Rect(0, 0, area.width, max(0, room)))
    _button(surface, back, lay, fonts, "Back", theme.BUTTON_COMMAND, form.focus == BACK, key="esc")
    _button(surface, apply, lay, fonts, form.apply_label, theme.BUTTON_ORDER, form.focus == APPLY, key="enter")
    return hits


def form_height(form: Form, width: int, lay: Layout, fonts: Fonts, message: str = "") -> int:
    """The height `draw_form` takes `width` wide with its rows at their tallest: title, note, rows, `message`, buttons."""
    note = fonts.get(read_size(lay, fonts)).render(form.note, True, theme.MUTED, None, width) if form.note else None
    words = form_message(message, width, 1 << 20, lay, fonts)
    return (lay.px(44) + (note.get_height() + lay.px(4) if note is not None else 0) + len(form.visible()) * lay.px(46)
            + (words.get_height() + lay.px(2) if words is not None else 0) + lay.px(4) + lay.px(56))  # fmt: skip


def form_message(error: str, width: int, room: int, lay: Layout, fonts: Fonts,
                 color: Color = theme.DANGER) -> pygame.Surface | None:  # fmt: skip
    """A form's message (a refusal, the camera's words) wrapped to `width`, in smaller type (never below
    readable) until it fits `room`, the height the rows leave at their smallest; where even that is too
    little, it is counted in `fonts.squeezed`, and its first lines are shown."""
    if not error:
        return None
    for size in range(max(read_size(lay, fonts), fonts.least), fonts.least - 1, -1):
        words = fonts.get(size).render(error, True, color, None, width)
        if words.get_height() <= room:
            return words
    fonts.cut(error, fonts.least)
    return words


def die_side(area: pygame.Rect, lay: Layout, count: int) -> int:
    """The side of each of `count` dice squares drawn in a row across `area`."""
    return min(area.height, (area.width - (count - 1) * lay.px(4)) // max(1, count))


def _draw_dice(surface: pygame.Surface, area: pygame.Rect, lay: Layout, form: Form, index: int, dice: Dice,
               fonts: Fonts) -> list[Hit]:  # fmt: skip
    hits: list[Hit] = []
    count = len(dice.values)
    if count == 0:
        _text(surface, fonts, "no dice", read_size(lay, fonts), theme.DIM, area)
        return hits
    size = die_side(area, lay, count)
    for die, value in enumerate(dice.faces):  # the face each die shows now, after its re-rolls
        rect = pygame.Rect(area.left + die * (size + lay.px(4)), area.centery - size // 2, size, size)
        stop = Stop(index, die)
        times = dice.times(die)  # a re-rolled die is gold, "R" (twice: "R2") in its corner
        fill = theme.BUTTON if value is None else theme.ACTIVE if times else theme.TEXT
        pygame.draw.rect(surface, fill, rect, border_radius=max(3, size // 6))
        if form.focus == stop:
            pygame.draw.rect(surface, theme.ACTIVE, rect.inflate(lay.px(4), lay.px(4)), max(3, lay.px(4)), border_radius=max(3, size // 5))
        words = "?" if value is None else str(value)
        _text(surface, fonts, words, round(size * 0.7), theme.BACKGROUND if value is not None else theme.MUTED, rect, "center")
        if times:
            mark = fonts.render("R2" if times > 1 else "R", max(lay.px(11), size // 4), theme.BACKGROUND)
            surface.blit(mark, mark.get_rect(topright=(rect.right - max(2, size // 12), rect.top + max(1, size // 20))))
        hits.append(Hit(rect, ("stop", stop, 1)))
    return hits


def draw_over_banner(surface: pygame.Surface, dial: pygame.Rect, lay: Layout, state: GameState, fonts: Fonts) -> None:
    """Across the dial when the mission has ended: the result and why, in words."""
    band = pygame.Rect(dial.left, dial.centery - lay.px(50), dial.width, lay.px(100))
    pygame.draw.rect(surface, (0, 0, 0), band)  # opaque: the dial's numerals showed through under the words
    title, reason = over_words(state)
    color = theme.GOOD if over_is_good(state) else theme.DANGER
    _text(surface, fonts, title.upper(), lay.px(40), color, pygame.Rect(band.left, band.top + lay.px(6), band.width, lay.px(48)), "center")
    _text(surface, fonts, reason, read_size(lay, fonts), theme.TEXT, pygame.Rect(band.left + lay.gap, band.top + lay.px(54), band.width - 2 * lay.gap, lay.px(36)), "center")
