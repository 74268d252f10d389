"""An Enemy's wounds from no attack (a Status Token, a mission effect) and its Healing, set from the Fix form."""

from __future__ import annotations

from pathlib import Path

import pygame

from assistant.rules import game as rules
from assistant.ui import theme
from assistant.ui.panel import label_size
from tests.ui.conftest import key, make_app, play
from tests.ui.pixels import find_text


def test_the_fix_form_wounds_an_enemy_and_heals_it(shots: Path) -> None:
    app = make_app()
    start = app.game.state
    play(app, key("f"))
    assert app.form is not None
    options = [value for value, _ in app.form.get("what").options]  # type: ignore[union-attr]
    assert options[6:8] == ["enemy_wound", "enemy_heal"] and options[-1] == "calibrate"  # the dice camera (a screen) last
    # Change: Wound enemy (typed); Enemy: the second standing model (Slingers 1); By 2
    play(app, key(str(options.index("enemy_wound") + 1)), key("return"), key("right"), key("return"), key("right"))
    assert [f.key for _, f in app.form.visible()] == ["what", "target", "amount"]
    wound = {"type": "damage", "group": "slingers", "model": 1, "wounds": 2}
    assert app.form.event() == wound
    app.draw()
    pygame.image.save(app.surface, shots / "fix-enemy-wound-800x480.png")
    assert find_text(app.surface, app.layout.panel, "Slingers 1", label_size(app.layout, app.fonts), theme.TEXT, app.fonts) is not None
    play(app, key("return"), key("return"))
    assert app.form is None and app.game.state == rules.apply(start, wound)
    # the Papal Guard (3 Health in the demo) takes 2 wounds, then discards 1 by a Healing: Heal enemy, first model, By 1
    hurt = {"type": "damage", "group": "papal_guard", "model": 1, "wounds": 2}
    assert app.act(hurt)
    play(app, key("f"))
    options = [value for value, _ in app.form.get("what").options]
    play(app, key(str(options.index("enemy_heal") + 1)), key("return"), key("return"), key("return"), key("return"))
    heal = {"type": "heal", "group": "papal_guard", "model": 1, "wounds": 1}
    assert app.form is None and app.game.state == rules.apply(rules.apply(rules.apply(start, wound), hurt), heal)
    assert app.game.state.group("papal_guard").models[0].wounds == 1
