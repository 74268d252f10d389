"""The enemy roster: "2 wounds" on an enemy, and nothing showed how many it has left (not its token, not the
header, not the Fix form): the players went back to paper."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from assistant.ui import theme
from assistant.ui.app import App
from assistant.ui.panel import read_size
from assistant.ui.roster import detail_lines
from assistant.ui.table import MemoryGame
from tests.ui.conftest import click, key, make_app, play
from tests.ui.demo import demo_scenario
from tests.ui.pixels import find_text
from tests.ui.test_enemy_turn import to_enemy_question
from tests.ui.test_render import count


def blocks(app: App) -> dict[tuple[str, int], pygame.Rect]:
    return {hit.target[1]: hit.rect for hit in app.hits if hit.target[0] == "model"}


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_the_active_group_s_wounds_are_shown_on_its_turn_and_a_tap_fixes_them(size: tuple[int, int], shots: Path) -> None:
    game = MemoryGame(demo_scenario())
    game.apply({"type": "damage", "group": "slingers", "model": 2, "wounds": 1})
    state = to_enemy_question(game)
    assert state.active == "slingers"
    app = make_app(size, game)
    app.draw()
    pygame.image.save(app.surface, shots / f"roster-{size[0]}x{size[1]}.png")
    shown = blocks(app)
    assert sorted(shown) == [("slingers", 1), ("slingers", 2), ("slingers", 3)]  # its models, each a block
    assert [count(app.surface, shown[("slingers", n)], theme.WOUND) > 0 for n in (1, 2, 3)] == [False, True, False]
    assert app.fonts.squeezed == []
    play(app, click(shown[("slingers", 2)].center))  # Fix, on that model: Wound enemy, by 1
    assert app.form is not None and app.form.name == "fix"
    assert app.form.value("what") == "enemy_wound" and app.form.value("target") == ("slingers", 2)
    play(app, key("return"), key("return"), key("return"), key("return"))
    assert app.game.state.group("slingers").models[1].defeated  # its second wound of 2
    app.draw()
    assert ("slingers", 2) not in blocks(app) and sorted(blocks(app)) == [("slingers", 1), ("slingers", 3)]  # crossed
    play(app, key("u"))
    assert app.game.state.group("slingers").models[1].wounds == 1


def test_a_form_shows_every_enemy_s_wounds_under_the_dial(shots: Path) -> None:
    game = MemoryGame(demo_scenario())
    game.apply({"type": "damage", "group": "papal_guard", "model": 1, "wounds": 2})
    app = make_app((800, 480), game)
    play(app, key("a"))  # Valerio's attack: whom to attack, with their wounds in sight
    app.draw()
    pygame.image.save(app.surface, shots / "roster-attack-800x480.png")
    for name in ("Papal Guard", "Slingers", "Venetian Alchemist"):
        assert find_text(app.surface, app.layout.log, name, read_size(app.layout, app.fonts), theme.TEXT, app.fonts), name
    assert count(app.surface, app.layout.log, theme.WOUND) > 0 and app.fonts.squeezed == []


@pytest.mark.parametrize("form", ["a", "f"])
def test_a_portrait_form_shows_the_roster_where_its_rows_leave_room(form: str, shots: Path) -> None:
    """Issue 51, 2: at 720x1280 the forms left empty room and no enemy's wounds; the roster goes above the form, as
    many groups as the form's rows at their tallest leave room for, nothing cut or over the form."""
    game = MemoryGame(demo_scenario())
    game.apply({"type": "damage", "group": "papal_guard", "model": 1, "wounds": 2})
    app = make_app((720, 1280), game)
    play(app, key(form))  # Valerio's attack; Fix
    assert app.form is not None
    app.fonts.squeezed.clear()
    app.draw()
    pygame.image.save(app.surface, shots / f"roster-form-{form}-720x1280.png")
    size = read_size(app.layout, app.fonts)
    names = {name: find_text(app.surface, app.layout.panel, name, size, theme.TEXT, app.fonts)
             for name in ("Papal Guard", "Slingers", "Venetian Alchemist")}  # fmt: skip
    shown = [rect for rect in names.values() if rect is not None]
    assert names["Papal Guard"] is not None and count(app.surface, app.layout.panel, theme.WOUND) > 0
    assert not any(rect.colliderect(hit.rect) for rect in shown for hit in app.hits)
    assert max(rect.bottom for rect in shown) < min(hit.rect.top for hit in app.hits)  # above the form's rows
    assert all(app.layout.panel.contains(hit.rect) for hit in app.hits) and app.fonts.squeezed == []
    if form == "a":
        assert None not in names.values()  # three groups and the attack's five rows: room for all


def group_turn(size: tuple[int, int], group: str) -> App:
    """The demo played by touch from the first screen (`table_driver`) to `group`'s first question or order."""
    from tests.ui.table_driver import step

    app = make_app(size)
    for _ in range(400):
        state = app.game.state
        if state.turn is not None and state.turn.token == group and app.machine.current.name == "table":
            return app
        step(app)
    raise AssertionError(f"no turn of {group}")


@pytest.mark.parametrize("size", [(800, 480), (720, 1280), (1280, 800)])
@pytest.mark.parametrize("group", ["slingers", "alchemist"])
def test_the_active_group_s_defences_and_attacks_are_shown_whole_at_every_size(size: tuple[int, int], group: str,
                                                                               shots: Path) -> None:  # fmt: skip
    """Issue 51, 2: the active group's defences and attacks' AP were shown at 1280x800 only (a line too long for the
    330 px under the dial at 800x480, and no room kept for it in portrait). Each part whole, in as many lines as it
    needs, over nothing else."""
    app = group_turn(size, group)
    app.fonts.squeezed.clear()
    app.draw()
    pygame.image.save(app.surface, shots / f"roster-detail-{group}-{size[0]}x{size[1]}.png")
    spec = app.game.state.scenario.enemy(group)
    parts = [f"Def {spec.physical_defense} Psy {spec.psychic_defense}", *(f"{a.name} {a.ap} AP" for a in spec.attacks)]
    where = app.layout.log if app.layout.log.height else app.layout.panel
    lines = detail_lines(app.game.state, app.layout, app.fonts, group, where.width)
    assert " · ".join(lines) == " · ".join(parts) and len(lines) <= len(parts)
    size_ = read_size(app.layout, app.fonts)
    found = {line: find_text(app.surface, where, line, size_, theme.MUTED, app.fonts) for line in lines}
    assert None not in found.values(), found
    rects = [rect for rect in found.values() if rect is not None]
    assert all(where.contains(rect) for rect in rects)
    assert not any(rect.colliderect(hit.rect) for rect in rects for hit in app.hits if hit.target[0] != "log")
    assert app.fonts.squeezed == []
