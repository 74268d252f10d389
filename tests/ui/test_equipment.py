"""A Hero's Equipment (Resistance) on the screen: its room and the wounds on it beside the Health bar, and the
Fix form's corrections of it (Renaissance "Wound Tokens and Equipment")."""

from __future__ import annotations

from pathlib import Path

import pygame

from assistant.rules import game as rules
from assistant.session.scenario_file import parse_scenario
from assistant.ui.action_forms import fix_form
from assistant.ui.table import MemoryGame, demo_path
from tests.ui.conftest import make_app


def armoured() -> MemoryGame:
    """The demo skirmish, Valerio with Resistance 2."""
    text = demo_path().read_text().replace('name = "Valerio"\n', 'name = "Valerio"\nresistance = 2\n', 1)
    return MemoryGame(parse_scenario(text, "armoured.toml"))


def test_wounds_on_the_equipment_are_shown_apart_and_corrected_by_the_fix_form(shots: Path) -> None:
    game = armoured()
    app = make_app(game=game)
    start = app.game.state
    app.draw()
    before = pygame.image.tobytes(app.surface, "RGB")
    form = fix_form(app.game.state)
    labels = [words for _, words in form.get("what").options]  # type: ignore[union-attr]
    assert "Equipment wound +" in labels and "Equipment wound −" in labels
    form.get("what").index = labels.index("Equipment wound +")  # type: ignore[union-attr]
    event = form.event()
    assert event == {"type": "equipment_wounds", "hero": "valerio", "delta": 1}
    assert app.act(event)
    assert app.game.state.hero("valerio").equipment_wounds == 1 and app.game.state.hero("valerio").wounds == 0
    app.draw()
    after = pygame.image.tobytes(app.surface, "RGB")
    assert after != before  # the segment now holding a wound changed colour
    app.screenshot(str(shots / "equipment_wound.png"))
    form.get("what").index = [w for _, w in form.get("what").options].index("Wound hero")  # type: ignore[union-attr]
    wound = form.event()
    assert wound == {"type": "damage", "hero": "valerio", "wounds": 1, "equipment": False}
    assert app.act(wound) and app.game.state.hero("valerio").wounds == 1
    assert app.game.state == rules.apply(rules.apply(start, event), wound)


def test_the_fix_form_offers_no_equipment_correction_where_no_hero_has_any() -> None:
    app = make_app()
    labels = [words for _, words in fix_form(app.game.state).get("what").options]  # type: ignore[union-attr]
    assert not any("Equipment" in words or "Armour" in words for words in labels)
