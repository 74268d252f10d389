"""First edition: a Hero's token overtakes an Enemy token; the AI's "react:" questions and the reacting model's attack, in the Hero's activation."""

from __future__ import annotations

from pathlib import Path

import pygame

from assistant.rules import game as rules
from assistant.rules.instructions import plan
from assistant.ui import theme
from assistant.ui.table import MemoryGame
from assistant.ui.words import headline
from tests.ui.conftest import key, make_app, play
from tests.ui.missions import mission
from assistant.ui.panel import read_size
from tests.ui.pixels import find_text
from tests.ui.test_reactions import advice, labels, tap
from tests.ui.test_render import count


def test_an_overtaken_enemy_reacts_in_the_heros_activation(shots: Path) -> None:
    app = make_app(game=MemoryGame(mission("classic")))
    start = app.game.state
    assert start.active == "ada" and start.edition.value == "classic"
    play(app, key("m"))  # first edition: no Renaissance Reaction Attacks, the move form at once
    assert app.form is not None and app.form.name == "move"
    play(app, key("3"), key("return"), key("return"))
    state = rules.apply(start, {"type": "spend_ap", "action": "move", "ap": 3})
    assert app.game.state == state and state.reactions == ("guards",)
    asked = plan(state).question
    assert asked is not None and asked.key.startswith("react:")
    app.draw()
    pygame.image.save(app.surface, shots / "classic-reaction-800x480.png")
    assert advice(app).question == asked and advice(app).side == "hero"
    assert count(app.surface, app.layout.panel, theme.ACTIVE) > 300  # the question, in gold
    assert labels(app)[:2] == ["Yes", "No"] and "Move" not in labels(app)
    # answer every question as the table would (Ada is in the Ca; the guard is next to her) by tapping its button
    for _ in range(6):
        made = plan(state)
        if made.question is None:
            break
        answer = "yes" if made.question.kind == "in_area" else "0"
        play(app, tap(app, "Yes" if answer == "yes" else "0"))
        state = rules.apply(state, {"type": "ai_answer", "question": made.question.key, "answer": answer})
        assert app.game.state == state
    order = plan(state).attack
    assert order is not None and order.group == "guards" and not order.reaction
    assert "Defence roll" in labels(app) and any("Guards 1 reacts" in step for step in advice(app).steps)
    rolled = [4, 1, 6, 2][: order.dice]
    play(app, key("d"), *[key(str(v)) for v in rolled], key("return"))
    state = rules.apply(state, order.event(rolled))
    assert app.game.state == state and state.turn is not None and state.turn.attacks[-1].group == "guards"
    # the reaction is over: Ada's own menu is back, with what the guard did still written above it
    assert labels(app)[0] == "Move" and state.active == "ada"
    assert any("Guards 1 reacts" in step for step in advice(app).steps)
    play(app, key("u"))  # undo takes the reaction's attack back: the roll is awaited again
    assert "Defence roll" in labels(app) and labels(app)[0] == "0 saved"  # its successes counted, or the faces


def test_a_hero_put_out_of_action_by_a_reaction_ends_the_activation_once_the_reaction_is_over(shots: Path) -> None:
    """First edition: the reacting Guards KO Ada (1 Health left) and go on; then the menu offers End activation, not an Injury."""
    game = MemoryGame(mission("classic"))
    game.apply({"type": "damage", "hero": "ada", "wounds": 5})
    app = make_app(game=game)
    play(app, key("m"), key("3"), key("return"), key("return"))
    play(app, tap(app, "Yes"))  # Ada is in the Guards' Ca
    play(app, tap(app, "0"))  # they attack from where they stand
    order = plan(app.game.state).attack
    assert order is not None and order.hero == "ada"
    play(app, key("d"), *[key("1")] * order.dice, key("return"))
    state = app.game.state
    assert state.hero("ada").ko and state.active == "ada" and headline(state) == ("Ada", "out of action")
    question = plan(state).question
    assert question is not None and question.key == "react:r2:guards/1:in_area:bea:4"  # a new goal with the AP left
    assert labels(app)[:2] == ["Yes", "No"] and "Draw an Injury" not in labels(app)
    play(app, tap(app, "Yes"))
    assert labels(app)[0] == "End activation"
    assert advice(app).steps[-1] == "Ada is out of action: end the activation."
    app.draw()
    pygame.image.save(app.surface, shots / "classic-out-of-action-800x480.png")
    assert find_text(app.surface, app.layout.panel, "out of action", read_size(app.layout, app.fonts), theme.TEXT, app.fonts) is not None
    play(app, key("e"))
    assert app.game.state.active == "guards" and app.game.state.hero("ada").ko


def test_dice_read_for_a_d8_hero_are_asked_again_when_the_attack_is_on_a_d6_hero() -> None:
    """First edition: Bea's Mastery D8, Ada's D6. The camera reads 7 8 2 for an attack on Bea; the table then
    sets the attack on Ada: no d6 shows a 7 or an 8, so those dice are "?" again, not applied as they were."""
    from dataclasses import replace

    from assistant.ui.form import Choice, Dice, Number, Reading
    from assistant.ui.intents import make_form

    scenario = mission("classic")
    ada, bea = scenario.heroes[:2]
    game = MemoryGame(replace(scenario, heroes=(ada, replace(bea, die=8), *scenario.heroes[2:])))
    form = make_form("enemy_attack", game.state)
    on = form.get("hero")
    assert isinstance(on, Choice)
    on.select("bea")
    form.refresh()
    dice = form.dice()
    assert isinstance(dice, Dice) and dice.sides == 8
    count = form.get("dice_count")
    assert isinstance(count, Number)
    count.set(3)
    form.refresh()
    assert form.fill_dice(Reading([7, 8, 2], kinds=["d8"] * 3)) == "" and dice.values == [7, 8, 2]
    on.select("ada")
    form.refresh()
    assert dice.sides == 6 and dice.values == [None, None, 2] and not dice.complete
    dice.turn(0, -1)  # "?" turned down: the top face
    dice.turn(1, 1)  # and up: the 1
    assert dice.values == [6, 1, 2]


def test_the_cameras_dice_are_read_anew_when_the_attack_turns_to_a_hero_of_another_die() -> None:
    """d6 read for Ada's roll; the table turns the attack on Bea (D8): those d6 are no d8 results, and the camera's
    dice are taken anew as her roll reads them: "?" each, and said why."""
    from dataclasses import replace

    from assistant.ui.form import Choice, Number, Reading, Stop
    from assistant.ui.inputs import post_dice
    from assistant.ui.intents import make_form
    from tests.ui.test_reactions import encoder

    scenario = mission("classic")
    ada, bea = scenario.heroes[:2]
    app = make_app(game=MemoryGame(replace(scenario, heroes=(ada, replace(bea, die=8), *scenario.heroes[2:]))))
    app.form = make_form("enemy_attack", app.game.state)
    app.machine.go(app, "form")
    on = app.form.get("hero")
    count = app.form.get("dice_count")
    assert isinstance(on, Choice) and isinstance(count, Number)
    on.select("ada")
    count.set(3)
    app.form.refresh()
    app.running = True
    post_dice(Reading([3, 5, 2], kinds=["d6"] * 3))
    app.pump()
    assert app.form.value("dice") == [3, 5, 2] and app.error == ""
    app.form.focus = Stop(app.form.fields.index(on))
    play(app, encoder("turn", 1 if [o for o, _ in on.options].index("bea") > on.index else -1))
    assert on.value == "bea" and app.form.value("dice") == [None, None, None]
    assert app.error == ("Camera: die 1 is a d6, and this roll is of d8; die 2 is a d6, and this roll is of d8; "
                         "die 3 is a d6, and this roll is of d8. Tap a die to set it.")


def test_a_first_edition_table_is_spoken_to_in_its_own_rulebook_s_words() -> None:
    """The first edition says Rapidity, Physical, TV, Mental attack and out of action, where Renaissance says
    Swiftness, Physique, Threat, Psychic and KO: a classic game said "tie on Swiftness" and "Threat -1"."""
    from assistant.ui.intents import make_form

    state = rules.new_game(mission("classic"))
    fix = make_form("fix", state).get("what")
    assert [words for key, words in fix.options if key.startswith("threat")] == ["TV +", "TV −"]  # type: ignore[union-attr]
    assert ("psychic", "Mental") in make_form("hero_attack", state).get("kind").options  # type: ignore[union-attr]
    hero = state.heroes[0].id
    assert rules.apply(state, {"type": "threat", "hero": hero, "delta": 1}).notes[-1].startswith(f"{state.name(hero)}: TV +1, now ")
    knocked = rules.apply(state, {"type": "damage", "hero": hero, "wounds": 9}).notes
    assert knocked[0].endswith(" is out of action"), knocked
    renaissance = rules.new_game(mission("stealth"))
    assert ("psychic", "Psychic") in make_form("hero_attack", renaissance).get("kind").options  # type: ignore[union-attr]
