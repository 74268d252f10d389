"""What the screen shows, checked on the pixels of real renders (SDL dummy driver), screenshots saved."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pygame
import pytest

from assistant.rules import game as rules
from assistant.rules.state import GameState
from assistant.ui import theme
from assistant.ui.dial import draw_dial
from assistant.ui.form import Reading
from assistant.ui.table import MemoryGame
from assistant.ui.theme import Fonts
from tests.ui.conftest import make_app
from tests.ui.demo import demo_scenario

SIZES = [(800, 480), (720, 1280), (1024, 600), (1280, 800)]


def dial_geometry(rect: pygame.Rect) -> tuple[tuple[float, float], float]:
    """The dial's centre and radius in its layout rectangle."""
    return (rect.centerx, rect.centery), rect.width / 2 - 2


def at(surface: pygame.Surface, center: tuple[float, float], radius: float, angle: float) -> tuple[int, int, int]:
    """The colour at `radius` from `center`, `angle` degrees clockwise from twelve o'clock."""
    x = center[0] + radius * math.sin(math.radians(angle))
    y = center[1] - radius * math.cos(math.radians(angle))
    return tuple(surface.get_at((round(x), round(y)))[:3])  # type: ignore[return-value]


def count(surface: pygame.Surface, rect: pygame.Rect, color: tuple[int, int, int]) -> int:
    """Pixels of exactly `color` inside `rect`."""
    found = 0
    for y in range(rect.top, rect.bottom):
        for x in range(rect.left, rect.right):
            if surface.get_at((x, y))[:3] == color:
                found += 1
    return found


def states() -> list[GameState]:
    """The demo at its first stop, then after each of the first activations ends."""
    out = [rules.new_game(demo_scenario())]
    for _ in range(3):
        out.append(rules.apply(out[-1], {"type": "end_activation"}) if out[-1].turn else out[-1])
    return out


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_the_active_sector_is_lit_where_the_minute_hand_points(size: tuple[int, int], shots: Path) -> None:
    for number, state in enumerate(states()):
        surface = pygame.Surface(size)
        surface.fill(theme.BACKGROUND)
        app = make_app(size, MemoryGame(demo_scenario()))
        draw_dial(surface, app.layout.dial, state, Fonts())
        pygame.image.save(surface, shots / f"dial-{size[0]}x{size[1]}-{number}.png")
        center, radius = dial_geometry(app.layout.dial)
        lit = state.clock.minute
        for sector in range(1, 13):
            # just inside the numeral band, off the sector's axis where the hands and tokens are
            color = at(surface, center, radius * 0.76, sector * 30 + 11)
            if sector == lit:
                assert color == theme.ACTIVE, f"sector {sector} should be lit in state {number}"
            else:
                assert color != theme.ACTIVE, f"sector {sector} is lit but the hand is at {lit}"
        # the minute hand is white along the lit sector's axis
        assert at(surface, center, radius * 0.2, lit * 30) == theme.MINUTE_HAND


def test_tokens_sit_in_their_sectors_in_their_colours() -> None:
    state = rules.new_game(demo_scenario())
    surface = pygame.Surface((600, 600))
    placed = draw_dial(surface, pygame.Rect(0, 0, 600, 600), state, Fonts())
    assert sorted(p.id for p in placed) == sorted(t.id for t in state.tokens)
    for token in placed:
        sector = state.token(token.id).sector
        dx, dy = token.center[0] - 300, token.center[1] - 300
        angle = math.degrees(math.atan2(dx, -dy)) % 360
        assert abs((angle - sector * 30 + 180) % 360 - 180) < 15, f"{token.id} drawn at {angle:.0f} degrees"
        # the token's colour is on the screen just inside its edge (the label is in the middle)
        edge = (token.center[0], token.center[1] + token.radius - max(3, token.radius // 4))
        assert tuple(surface.get_at(edge)[:3]) == token.color


@pytest.mark.parametrize("count", range(1, len(rules.new_game(demo_scenario()).tokens) + 1))
def test_every_token_of_a_crowded_sector_is_drawn_apart_inside_it(count: int, shots: Path) -> None:
    """Seven tokens in one sector (an event due, demo) put the 6th and 7th on one spot, and their order
    badges in a pile: each token now has its own place in its sector, none over another."""
    from dataclasses import replace

    state = rules.new_game(demo_scenario())
    state = replace(state, tokens=tuple(replace(t, sector=3 if i < count else 7) for i, t in enumerate(state.tokens)))
    surface = pygame.Surface((600, 600))
    placed = [p for p in draw_dial(surface, pygame.Rect(0, 0, 600, 600), state, Fonts()) if state.token(p.id).sector == 3]
    pygame.image.save(surface, shots / f"dial-crowded-{count}.png")
    assert len(placed) == count
    for i, token in enumerate(placed):
        dx, dy = token.center[0] - 300, token.center[1] - 300
        assert abs(math.degrees(math.atan2(dx, -dy)) - 90) < 15, token.id  # III is at 90 degrees
        for other in placed[i + 1:]:
            assert math.dist(token.center, other.center) >= token.radius + other.radius, (token.id, other.id)


def test_a_ko_hero_shows_the_ko_side_of_the_token(shots: Path) -> None:
    state = rules.new_game(demo_scenario())
    state = rules.apply(state, {"type": "damage", "hero": "eleonora", "wounds": 4})  # Health 4: KO
    assert state.hero("eleonora").ko
    app = make_app((800, 480), MemoryGame(demo_scenario()))
    surface = pygame.Surface((800, 480))
    placed = {p.id: p for p in draw_dial(surface, app.layout.dial, state, Fonts())}
    eleonora = placed["eleonora"]
    inside = (eleonora.center[0] - eleonora.radius // 2, eleonora.center[1] + eleonora.radius // 2)
    assert tuple(surface.get_at(inside)[:3]) == theme.KO
    pygame.image.save(surface, shots / "dial-ko.png")


def texts_drawn(fonts: Fonts, methods: tuple[str, ...] = ("fit",)) -> list[str]:
    """Every text `fonts` is asked for from now on by `methods` (`fit`: names, words; `render`: discs too), in order."""
    drawn: list[str] = []
    for method in methods:
        def recording(text: str, *rest: Any, real: Any = getattr(fonts, method)) -> Any:
            drawn.append(text)
            return real(text, *rest)

        setattr(fonts, method, recording)
    return drawn


@pytest.mark.parametrize("size", [(480, 800), (320, 480), (800, 480)])
def test_the_heroes_rows_give_way_before_the_buttons_go_under_their_least_height(size: tuple[int, int]) -> None:
    """With a Loot row under four heroes, the buttons were 30 px at 480x800 (18 at 320x480): under their 34 px
    least (scaled), the words' area keeping its own least. The heroes' rows go to two columns first."""
    from dataclasses import replace

    game = MemoryGame(demo_scenario())
    game._states[game._head] = replace(game.state, loot=("alchemia", "pecunia"))
    app = make_app(size, game)
    app.draw()
    main = [hit.rect for hit in app.hits if hit.target[0] == "item"][:-3]  # Fix, Undo, Redo are the strip's
    assert main and min(rect.height for rect in main) >= app.layout.px(34) - 1


def test_a_lone_hero_keeps_a_named_row_while_the_ai_talks(shots: Path) -> None:
    """While the AI talked the heroes' rows went to two columns without names, a lone hero's too: half a row,
    unnamed, for no room gained."""
    from dataclasses import replace

    from tests.ui.test_enemy_turn import to_enemy_question

    demo = demo_scenario()
    tokens = tuple(t for t in demo.horologium.tokens if t.side != "hero" or t.token == "valerio")
    alone = replace(demo, heroes=demo.heroes[:1], horologium=replace(demo.horologium, tokens=tokens))
    game = MemoryGame(alone)
    to_enemy_question(game)
    app = make_app((800, 480), game)
    drawn = texts_drawn(app.fonts)
    app.draw()
    pygame.image.save(app.surface, shots / "lone-hero-question-800x480.png")
    assert app.machine.current.advice.waiting and "Valerio" in drawn  # type: ignore[attr-defined]


def test_two_ko_heroes_in_two_columns_are_told_apart(shots: Path) -> None:
    """In two columns (the AI talking) a KO hero is not named: two "KO" discs differed only by their rings. Their
    discs keep their letters there, and "KO" goes beside them; in one column the disc says KO beside the name."""
    from assistant.ui.panel import draw_heroes
    from assistant.ui.words import token_label

    state = rules.new_game(demo_scenario())
    for hero in ("valerio", "sofia"):
        state = rules.apply(state, {"type": "damage", "hero": hero, "wounds": 9})
    assert state.hero("valerio").ko and state.hero("sofia").ko
    app = make_app((720, 1280))
    drawn = texts_drawn(app.fonts, ("render", "fit"))  # the discs' letters, and the names and words beside
    surface = pygame.Surface((720, 200))
    draw_heroes(surface, pygame.Rect(0, 0, 704, 0), app.layout, state, app.fonts, columns=2)
    pygame.image.save(surface, shots / "heroes-ko-two-columns.png")
    assert {token_label(state, "valerio"), token_label(state, "sofia")} <= set(drawn) and drawn.count("KO") == 2
    assert "Valerio" not in drawn  # not named in two columns here: the letters tell who
    drawn.clear()
    draw_heroes(surface, pygame.Rect(0, 0, 704, 0), app.layout, state, app.fonts, columns=1)
    assert drawn.count("KO") == 2 and {"Valerio", "Sofia"} <= set(drawn)


@pytest.mark.parametrize("size", SIZES)
def test_the_table_screen_fits_and_reads(size: tuple[int, int], shots: Path) -> None:
    app = make_app(size)
    app.act({"type": "spend_ap", "ap": 2, "action": "move"})
    app.draw()
    name = f"table-{size[0]}x{size[1]}.png"
    pygame.image.save(app.surface, shots / name)
    width, height = size
    screen = pygame.Rect(0, 0, width, height)
    buttons = [hit.rect for hit in app.hits if hit.target[0] == "item"]
    assert len(buttons) == len(app.machine.current.items) >= 7  # type: ignore[attr-defined]
    for index, rect in enumerate(buttons):
        assert screen.contains(rect), f"button {index} {rect} is off the {size} screen"
        assert not rect.colliderect(app.layout.dial), f"button {index} covers the dial"
        assert rect.height >= 0.08 * min(width, height), f"button {index} is too small to touch"
        for other in buttons[index + 1 :]:
            assert not rect.colliderect(other)
    assert app.fonts.squeezed == [], f"text cut to fit: {app.fonts.squeezed}"
    # the active hero's name is written in the hero's colour at the top of the panel
    header = pygame.Rect(app.layout.panel.left, app.layout.panel.top, app.layout.panel.width, app.layout.px(40))
    assert count(app.surface, header, theme.HERO_COLORS[0]) > 80 * app.layout.unit**2


@pytest.mark.parametrize("kind", ["physical", "psychic"])
@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_a_form_with_dice_fits(size: tuple[int, int], kind: str, shots: Path) -> None:
    app = make_app(size)
    app.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_a, mod=0, unicode="a", scancode=0))
    assert app.form is not None and app.form.name == "hero_attack"
    app.form.get("kind").select(kind)  # type: ignore[union-attr]
    app.form.refresh()
    app.form.fill_dice(Reading([8, 6, 5, 1]))
    app.draw()
    pygame.image.save(app.surface, shots / f"attack-{kind}-{size[0]}x{size[1]}.png")
    screen = pygame.Rect(0, 0, *size)
    for hit in app.hits:
        assert screen.contains(hit.rect)
    dice_field = next(i for i, f in enumerate(app.form.fields) if f.key == "dice")
    dice = [hit.rect for hit in app.hits if hit.target[0] == "stop" and hit.target[1].field == dice_field]
    assert len(dice) == 4
    for rect in dice:  # a read die is a white square with its number in the dark ink
        assert count(app.surface, rect, theme.TEXT) > rect.width * rect.height * 0.4
        assert count(app.surface, rect, theme.BACKGROUND) > 20
    assert app.fonts.squeezed == []


def test_mission_over_is_written_across_the_dial(shots: Path) -> None:
    game = MemoryGame(demo_scenario())
    game.apply({"type": "end_mission", "result": "defeat"})
    app = make_app((800, 480), game)
    app.draw()
    pygame.image.save(app.surface, shots / "mission-over.png")
    dial = app.layout.dial
    band = pygame.Rect(dial.left, dial.centery - app.layout.px(44), dial.width, app.layout.px(40))
    assert count(app.surface, band, theme.DANGER) > 300
    labels = [item.label for item in app.machine.current.items]  # type: ignore[attr-defined]
    assert labels == ["Play again", "Undo", "Redo"]


@pytest.mark.parametrize("name", ["move", "wait", "action", "enemy_attack", "fix"])
@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_every_form_fits_with_no_label_cut(name: str, size: tuple[int, int], shots: Path) -> None:
    from assistant.ui.intents import make_form

    app = make_app(size)
    app.form = make_form(name, app.game.state)
    app.machine.go(app, "form")
    app.draw()
    pygame.image.save(app.surface, shots / f"form-{name}-{size[0]}x{size[1]}.png")
    assert app.fonts.squeezed == []
    screen = pygame.Rect(0, 0, *size)
    assert all(screen.contains(hit.rect) and not hit.rect.colliderect(app.layout.dial) for hit in app.hits)


def test_who_comes_next_is_named_whole_or_counted_never_cut() -> None:
    """The header's "next:" list: as many names as fit whole, then how many more ("next: Valerio +1"), not
    "next: Valerio, Pa…"."""
    from assistant.ui.panel import _next_words

    fonts = Fonts()
    after = ["Valerio", "Papal Guard", "Vincenzo"]
    assert _next_words(after, fonts, 20, 1000) == "next: Valerio, Papal Guard, Vincenzo"
    narrow = fonts.get(fonts.smallest(20)).size("next: Valerio, Papal Guard +1")[0]
    assert _next_words(after, fonts, 20, narrow) == "next: Valerio, Papal Guard +1"
    assert _next_words(after, fonts, 20, narrow - 1) == "next: Valerio +2"
    assert _next_words(after, fonts, 20, fonts.get(fonts.smallest(20)).size("next: Valerio +2")[0] - 1) == ""
    app = make_app((800, 480))
    app.act({"type": "end_activation"})  # Sofia acts; Valerio and the Papal Guard come next
    app.draw()
    assert app.fonts.squeezed == []


def test_where_no_name_fits_who_comes_next_is_told_by_the_tokens_letters() -> None:
    """A title as long as "Mystery 1 to resolve" left the names no room: "next: Vi…" was drawn cut (a KO hero's
    turn at 800x480 too). The tokens' letters, as on the dial, are shown instead."""
    from assistant.ui.panel import draw_header, read_size
    from assistant.ui.words import token_label

    app = make_app((800, 480))
    app.act({"type": "end_activation"})  # Sofia acts; Valerio and the Papal Guard come next
    state = app.game.state
    shown = texts_drawn(app.fonts)
    app.fonts.least = read_size(app.layout, app.fonts)  # as the table screen draws it
    draw_header(app.surface, pygame.Rect(0, 0, 340, 80), app.layout, state, app.fonts)
    later = [i for i in state.queue if i != state.active]
    letters = [token_label(state, i) for i in later]
    assert len(later) == 2 and shown[-1] in (f"next: {letters[0]}, {letters[1]}", f"next: {letters[0]} +1"), shown
    assert app.fonts.squeezed == []


def test_text_drawn_cut_frame_after_frame_keeps_only_the_newest_counts() -> None:
    """A long game redraws a cut label thousands of times: `squeezed` keeps the newest KEPT, not every one."""
    fonts = Fonts()
    for frame in range(5 * Fonts.KEPT):
        fonts.fit(f"End activation and a great many words more {frame % 3}", 20, 60, theme.TEXT)
    assert len(fonts.squeezed) == Fonts.KEPT
    assert fonts.squeezed[-1][0].endswith(str((5 * Fonts.KEPT - 1) % 3))


def test_text_cut_to_fit_is_counted_on_every_frame_it_is_drawn_cut() -> None:
    """`squeezed` is how the tests know text was cut: a cut kept from one frame to the next (the image cached)
    was counted on the first frame only, so a test that cleared it and drew again saw nothing."""
    fonts = Fonts()
    for frame in range(3):
        fonts.squeezed.clear()
        fonts.fit("End activation and a great many words more", 20, 60, theme.TEXT)
        fonts.fit("Fix", 20, 60, theme.TEXT)
        assert [text for text, _ in fonts.squeezed] == ["End activation and a great many words more"], frame
