"""The demo's first enemy activations played by touch from the first screen, their inputs counted (issue 51: one
activation of three Slingers took about 25 inputs by keys, and by touch a die took up to 8 taps)."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from tests.ui.conftest import make_app
from tests.ui.table_driver import enemy_activations, inputs_per_model, step


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_the_first_enemy_activations_by_touch(size: tuple[int, int]) -> None:
    """At the start of this work: Papal Guard 1, Slingers 120, Papal Guard 1 taps (each die tapped up to its face);
    with the face picker and the answers that take several: 58 (30 of them dice: 24 dice and 6 rolls opened). Measured
    again after the Area question was asked once for a group or a model's attacks: 58 still (no Area attack in the
    demo; a group of three with a Burst attack made twice each is asked once instead of 6 times, tests/ai)."""
    app = make_app(size)
    counted = enemy_activations(app, 3)
    assert [group for group, _ in counted] == ["papal_guard", "slingers", "papal_guard"]
    taps = dict(counted[:2])
    assert taps["papal_guard"] == 1 and taps["slingers"] <= 58, counted


def test_a_model_s_second_attack_is_told_from_its_first() -> None:
    """A model's second attack screen looked the same as its first, as if nothing registered."""
    app = make_app()
    ups: list[str] = []
    for _ in range(80):
        app.draw()
        screen = app.machine.current
        if screen.name == "table" and screen.advice is not None and screen.advice.attack is not None:  # type: ignore[attr-defined]
            up = next(line.text for line in screen.told[1] if line.text.startswith("Attack "))  # type: ignore[attr-defined]
            if up not in ups:
                ups.append(up)
            if len(ups) == 2:
                break
        step(app)
    assert ups == ["Attack 1: Sling, 1 hit", "Attack 2: Sling, 1 hit"]


@pytest.mark.parametrize("size", [(800, 480), (720, 1280), (1024, 600), (1280, 800), (480, 800)])
def test_a_walk_through_the_demo_by_touch_cuts_nothing(size: tuple[int, int], shots: Path) -> None:
    """Every screen the table meets in the demo's first 150 decisions (heroes' turns, the AI's questions, rolls, the
    face picker, ties, events), drawn whole: no label cut, no words squeezed under readable."""
    app = make_app(size)
    for number in range(150):
        app.fonts.squeezed.clear()
        app.draw()
        if number % 15 == 0:
            pygame.image.save(app.surface, shots / f"walk-{number:03d}-{size[0]}x{size[1]}.png")
        assert app.fonts.squeezed == [], (number, app.fonts.squeezed)
        if app.game.state.over is not None:
            break
        step(app)
    assert number > 100 or app.game.state.over is not None  # the demo's end comes sooner with fewer inputs


@pytest.mark.parametrize("camera", [False, True])
def test_the_demo_s_enemy_turns_take_fewer_inputs_a_model(camera: bool) -> None:
    """Issue 62, fault 4: the demo played from its first screen to its end, inputs counted per enemy model (the models
    standing as each activation began; 10 in all). Before: 136 inputs by hand (13.6 a model: Slingers 58 and 53 for
    three models, the Alchemist 12 and 11, the Papal Guard 1 and 1), 54 with the camera's dice (5.4: each attack
    opened by the dice, then Resolve). Now: a roll given by its count of successes in one tap where only that counts,
    else the faces from a picker open at once, one tap a die, applied by the last one; a question that takes several
    answered by one tap (Several… for a tie): 52 by hand (5.2), 46 with the camera (4.6). The issue's goal, 4 and 2, is
    not met: the AI's own questions (closest, within the Control Area, how far) are 3 a Slinger."""
    counted = inputs_per_model(make_app(), camera)
    models = sum(standing for _, standing, _ in counted)
    inputs = sum(taps for _, _, taps in counted)
    assert models == 10 and [group for group, _, _ in counted][:3] == ["papal_guard", "slingers", "papal_guard"]
    assert inputs / models <= (4.6 if camera else 5.2), counted
