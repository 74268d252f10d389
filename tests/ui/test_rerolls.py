"""Re-rolls on the screen (Renaissance "Dice Re-roll"): a die of a roll re-rolled by whose Effect, by touch, keys
and the camera; an Enemy's Skill that forces one (the Slingers' Dodge) asked before the result; the book's example."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pygame
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.rules import game as rules
from assistant.rules import instructions
from assistant.rules.scenario import Scenario
from assistant.ui.action_forms import hero_attack_form
from assistant.ui.form import Number, Reading, Stop
from assistant.ui.inputs import post_dice
from assistant.ui.rerolls import EFFECTS, numbered, start
from assistant.ui.table import MemoryGame
from tests.ui.conftest import click, key, make_app, play
from tests.ui.demo import demo_scenario
from tests.ui.missions import mission
from tests.ui.test_dice_entry import drawn_words

DODGE = "Dodge (Slingers): re-roll one die that obtained a Success"


def book_slingers() -> Scenario:
    """The demo with the Slingers' Physical Defense of the book's example (Defense 5; the demo's card says 4)."""
    scenario = demo_scenario()
    enemies = tuple(replace(e, physical_defense=5) if e.id == "slingers" else e for e in scenario.enemies)
    return replace(scenario, enemies=enemies)


def sofia_attacks(scenario: Scenario, size: tuple[int, int] = (800, 480)) -> Any:
    """The demo played to Sofia's activation; her attack form open on Slingers 1, by taps on Target's arrow."""
    game = MemoryGame(scenario)
    game.apply({"type": "end_activation"})  # Valerio's; Sofia acts next
    assert game.state.active == "sofia"
    app = make_app(size, game)
    play(app, key("a"))
    assert app.form is not None and app.form.name == "hero_attack"
    for _ in range(8):
        if app.form.value("target") == ("slingers", 1):
            break
        tap(app, stop_at(app, Stop(0), 1))
    assert app.form.value("target") == ("slingers", 1) and app.form.value("kind") == "physical"
    assert len(app.form.value("dice")) == 3  # Sofia's Physique
    return app


def stop_at(app: Any, stop: Stop, side: int | None = None) -> pygame.Rect:
    app.draw()
    rect: pygame.Rect = next(h.rect for h in app.hits if h.target[0] == "stop" and h.target[1] == stop
                             and (side is None or h.target[2] == side))  # fmt: skip
    return rect


def tap(app: Any, rect: pygame.Rect) -> None:
    play(app, click(rect.center))
    app.draw()


def die(app: Any, n: int) -> pygame.Rect:
    return stop_at(app, Stop(app.form.fields.index(app.form.dice()), n))


def face(app: Any, value: int) -> pygame.Rect:
    rect: pygame.Rect = next(h.rect for h in app.hits if h.target[0] == "face" and h.target[1] == value)
    return rect


def effect(app: Any, words: str) -> pygame.Rect:
    """Whose Effect re-rolls the die the picker shows: "Token", "Skill" or "Enemy's Skill"."""
    rect: pygame.Rect = next(h.rect for h in app.hits if h.target[0] == "reroll" and h.target[2] == words)
    return rect


def roll(app: Any, *values: int) -> None:
    """The dice set by the face picker: a tap on the first die, then a face each (it goes on to the next die)."""
    tap(app, die(app, 0))
    for value in values:
        tap(app, face(app, value))


def reroll(app: Any, n: int, words: str, value: int) -> None:
    """Die `n` (from 0) re-rolled by touch: a tap on it, on whose Effect, on its new face."""
    tap(app, die(app, n))
    tap(app, effect(app, words))
    tap(app, face(app, value))


def said(app: Any) -> list[str]:
    return [text for text, _ in drawn_words(app)]


def shown(app: Any) -> list[str]:
    """The table's log as drawn, oldest first."""
    app.draw()
    return [line.text for line in app.machine.current.told[0]]


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_the_books_dice_reroll_example_by_touch(size: tuple[int, int], shots: Path) -> None:
    """Sofia attacks a Slinger (Defense 5) with 3 dice: Star 5, Sun 6, 3; Dodge re-rolls the 6 to a 2; the Lucky Token
    re-rolls that die to Star 7: 2 Successes, 2 Wounds (Renaissance "Dice Re-roll", its example)."""
    app = sofia_attacks(book_slingers(), size)
    roll(app, 5, 6, 3)
    assert any(text.startswith(f"{DODGE} (die 1 or 2) before the result") for text in said(app))
    tap(app, die(app, 1))
    assert sorted(h.target[2] for h in app.hits if h.target[0] == "reroll") == ["Enemy's Skill", "Skill", "Token"]
    pygame.image.save(app.surface, shots / f"reroll-offer-{size[0]}x{size[1]}.png")
    assert app.fonts.squeezed == []
    tap(app, effect(app, "Enemy's Skill"))
    pygame.image.save(app.surface, shots / f"reroll-face-{size[0]}x{size[1]}.png")
    assert not any(h.target[0] == "reroll" for h in app.hits) and sorted(h.target[1] for h in app.hits if h.target[0] == "face") == list(range(1, 9))
    tap(app, face(app, 2))
    dice = app.form.dice()
    assert dice.values == [5, 6, 3] and dice.faces == [5, 2, 3]  # as rolled, and the face shown now
    assert not any(DODGE in text for text in said(app))  # answered
    reroll(app, 1, "Token", 7)  # the Lucky Token: the die Dodge re-rolled, again
    assert dice.faces == [5, 7, 3] and dice.times(1) == 2
    assert set(said(app)) == {"Die 2: 6 re-rolled to 2 (Enemy), to 7 (Hero). "
                              "Sofia attacks Slingers 1: 2 successes, 2 wounds, defeated; Threat +2"}
    pygame.image.save(app.surface, shots / f"reroll-marks-{size[0]}x{size[1]}.png")
    assert app.fonts.squeezed == []
    tap(app, stop_at(app, Stop(-1)))
    event = app.game.events()[-1]
    assert event["dice"] == [5, 6, 3]
    assert event["rerolls"] == [{"die": 1, "value": 2, "by": "enemy"}, {"die": 1, "value": 7, "by": "hero"}]
    slinger = next(g for g in app.game.state.groups if g.id == "slingers").models[0]
    assert slinger.wounds == 2 and app.form is None
    assert app.game.state.notes[-1].startswith("Sofia attacks Slingers 1: 2 successes, 2 wounds")
    play(app, key("u"))  # undo takes the whole Test back, its re-rolls with it
    assert app.game.events()[-1]["type"] == "end_activation"
    assert next(g for g in app.game.state.groups if g.id == "slingers").models[0].wounds == 0


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_a_reroll_entered_by_mistake_is_taken_back(size: tuple[int, int], shots: Path) -> None:
    """A re-rolled die's faces offer Take back: its last re-roll goes, and what it answered is asked again."""
    app = sofia_attacks(book_slingers(), size)
    roll(app, 5, 6, 3)
    reroll(app, 1, "Enemy's Skill", 2)
    reroll(app, 1, "Token", 7)
    tap(app, die(app, 1))
    pygame.image.save(app.surface, shots / f"reroll-takeback-{size[0]}x{size[1]}.png")
    assert app.fonts.squeezed == []
    tap(app, effect(app, "Take back its last re-roll"))
    dice = app.form.dice()
    assert dice.faces == [5, 2, 3] and dice.times(1) == 1 and not any(h.target[0] == "face" for h in app.hits)
    tap(app, die(app, 1))
    tap(app, effect(app, "Take back its last re-roll"))
    assert dice.faces == [5, 6, 3] and dice.rerolls == []
    assert any(text.startswith(DODGE) for text in said(app))  # Dodge's re-roll is owed again
    tap(app, die(app, 2))
    assert not any(h.target[0] == "reroll" and h.target[2] == "Take back its last re-roll" for h in app.hits)  # never re-rolled


def test_a_heros_reroll_made_before_dodge_is_said_to_be_taken_back_first() -> None:
    """Renaissance "Heroes Attacks": the target's Generic Skills first, then the Hero's own Skills and Tokens."""
    app = sofia_attacks(book_slingers())
    roll(app, 5, 6, 3)
    reroll(app, 2, "Token", 4)  # the Lucky Token on the 3, before Dodge
    assert any(text.endswith(f"{DODGE} (die 1 or 2) before the Hero's own re-rolls: take back the Hero's, then tap "
                             "it, then Enemy's Skill.") for text in said(app))
    tap(app, die(app, 1))
    tap(app, effect(app, "Enemy's Skill"))
    assert app.error.startswith("Die 2 may not be re-rolled: an Enemy's Skill re-rolls before the Hero's own re-rolls")
    tap(app, die(app, 2))
    tap(app, effect(app, "Take back its last re-roll"))
    reroll(app, 1, "Enemy's Skill", 2)
    reroll(app, 2, "Token", 4)
    dice = app.form.dice()
    assert dice.faces == [5, 2, 4] and not any("Dodge" in text for text in said(app))


def test_the_slingers_dodge_is_asked_before_sofias_attack_is_applied() -> None:
    """The issue's play: Sofia's 6, 5, 2 killed a Slinger outright, Dodge never asked. Now Apply asks for it once, an
    Enemy's re-roll of a die that failed is refused, and Dodge's re-roll answers it."""
    app = sofia_attacks(demo_scenario())
    roll(app, 6, 5, 2)
    tap(app, stop_at(app, Stop(-1)))
    assert app.game.events()[-1]["type"] == "end_activation"  # nothing applied
    assert app.error == f"{DODGE} (die 1 or 2) before the result: tap it, then Enemy's Skill. Apply again to go on without it."
    tap(app, die(app, 2))
    tap(app, effect(app, "Enemy's Skill"))
    assert app.error == "Dodge re-rolls one die that obtained a Success: die 3 did not (die 1 or 2 did)."
    assert app.form.dice().pending is None and not any(h.target[0] == "face" for h in app.hits)
    reroll(app, 0, "Enemy's Skill", 3)
    tap(app, stop_at(app, Stop(-1)))
    event = app.game.events()[-1]
    assert event["type"] == "hero_attack" and event["dice"] == [6, 5, 2]
    assert event["rerolls"] == [{"die": 0, "value": 3, "by": "enemy"}]
    assert app.game.state.notes[-1].startswith("Sofia attacks Slingers 1: 1 success, 1 wound")


def test_apply_again_goes_on_without_the_enemys_reroll() -> None:
    app = sofia_attacks(demo_scenario())
    roll(app, 6, 5, 2)
    tap(app, stop_at(app, Stop(-1)))
    assert "Apply again" in app.error
    tap(app, stop_at(app, Stop(-1)))
    event = app.game.events()[-1]
    assert event["type"] == "hero_attack" and "rerolls" not in event


def test_a_reroll_the_rules_refuse_is_said_in_words_and_nothing_is_made() -> None:
    """"A Hero may not re-roll a die that they have already re-rolled"; an Enemy's re-roll comes before the Hero's."""
    app = sofia_attacks(book_slingers())
    roll(app, 5, 6, 3)
    reroll(app, 1, "Enemy's Skill", 2)
    reroll(app, 1, "Skill", 7)
    tap(app, die(app, 1))
    tap(app, effect(app, "Token"))
    assert app.error == ("Die 2 may not be re-rolled: die 2 has been re-rolled twice in this Test, the most "
                         'Renaissance "Dice Re-roll" allows.')
    tap(app, die(app, 2))
    tap(app, effect(app, "Enemy's Skill"))
    assert app.error.startswith("Die 3 may not be re-rolled: an Enemy's Skill re-rolls before the Hero's own re-rolls")
    reroll(app, 2, "Token", 8)  # die 3, once by the Hero: allowed
    tap(app, die(app, 2))
    tap(app, effect(app, "Token"))
    assert app.error == ("Die 3 may not be re-rolled: die 3 was re-rolled by the Hero's own Token, Skill or Equipment: "
                         'it may not be re-rolled again in the same Test (Renaissance "Dice Re-roll").')
    dice = app.form.dice()
    assert dice.faces == [5, 7, 8] and len(dice.rerolls) == 3 and dice.pending is None
    assert app.game.events()[-1]["type"] == "end_activation"


def test_a_die_is_rerolled_by_the_keys() -> None:
    """R on a die: its re-roll (an Enemy's Skill where one asks for that die, else the Hero's); R again: the other's;
    a number key: its new face. The other dice keep theirs."""
    app = sofia_attacks(book_slingers())
    play(app, key("5"), key("6"), key("3"), key("backspace"), key("backspace"))  # the focus back on die 2
    dice = app.form.dice()
    assert dice.values == [5, 6, 3] and app.form.focus.die == 1
    play(app, key("r"))
    assert dice.pending == (1, dice.pending[1]) and dice.pending[1].value == "enemy"  # Dodge asks for it
    play(app, key("2"))
    assert dice.faces == [5, 2, 3] and dice.pending is None and app.form.focus.die == 2  # on to die 3, as typing goes
    play(app, key("backspace"), key("r"), key("r"), key("r"))  # die 2 again: the Hero's, an Enemy's, the Hero's
    assert dice.pending is not None and dice.pending[1].value == "hero"
    play(app, key("7"), key("return"), key("return"))  # on past die 3 to Apply, and Apply
    assert app.game.events()[-1]["rerolls"] == [{"die": 1, "value": 2, "by": "enemy"}, {"die": 1, "value": 7, "by": "hero"}]


def test_the_books_example_by_the_camera_reads_only_the_rerolled_die() -> None:
    """The camera's readings: the roll, then each re-roll with the other dice where they lay (`Reading.same`); a
    reading where more dice moved is said, and fills nothing."""
    app = sofia_attacks(book_slingers())
    app.running = True
    post_dice(Reading([5, 6, 3], same=[None, None, None]))
    app.pump()
    dice = app.form.dice()
    assert dice.values == [5, 6, 3]
    tap(app, die(app, 1))
    tap(app, effect(app, "Enemy's Skill"))
    assert app.rolling() == ("d8", 1)  # the rendered stand-in throws that die alone
    post_dice(Reading([4, 2, 3], same=[None, None, 2]))  # die 1 moved too: which is the re-rolled one?
    app.running = True
    app.pump()
    assert dice.faces == [5, 6, 3] and dice.pending is not None
    assert app.error == "Camera: 2 dice rolled anew, and only die 2 is being re-rolled: roll only it again, or tap its new face."
    post_dice(Reading([5, 2, 3], same=[0, None, 2]))
    app.running = True
    app.pump()
    assert dice.faces == [5, 2, 3] and dice.pending is None and dice.values == [5, 6, 3]
    tap(app, die(app, 1))
    tap(app, effect(app, "Token"))
    post_dice(Reading([7]))  # the die rolled alone
    app.running = True
    app.pump()
    assert dice.faces == [5, 7, 3]
    tap(app, stop_at(app, Stop(-1)))
    assert app.game.events()[-1]["rerolls"] == [{"die": 1, "value": 2, "by": "enemy"}, {"die": 1, "value": 7, "by": "hero"}]


def test_the_rendered_camera_throws_and_reads_the_rerolled_die_alone() -> None:
    watch = pytest.importorskip("assistant.vision.watch")
    from assistant.ui.devices import attach_camera

    app = sofia_attacks(book_slingers())
    roll(app, 5, 6, 3)
    tap(app, die(app, 0))
    tap(app, effect(app, "Token"))
    seen: list[int | None] = []
    watch.watch("render:2", tray=False, kind="d8", profile_path=None, max_frames=8,
                emit=lambda reading: seen.extend(d["value"] for d in reading["dice"][:1]) if reading["dice"] else None,
                rolling=lambda: ("d8", 1))  # what the reader reads of these rendered throws, asked directly
    if not seen or seen[0] is None:
        pytest.skip("no die settled and read in the first frames of this source")
    pygame.event.clear()
    attach_camera(app, "render:2", kind="d8", max_frames=8).join(60)
    app.running = True
    app.pump()
    dice = app.form.dice()
    assert dice.values == [5, 6, 3] and dice.rerolls[0].die == 0 and dice.faces[1:] == [6, 3]
    assert dice.faces[0] == seen[0]


def to_order_of(game: MemoryGame, group: str) -> Any:
    """The demo played on (every attack saved with 8s, each question answered yes or with its first option) to the
    AI's first attack of `group` that waits for the defence dice."""
    for _ in range(300):
        state = game.state
        made = instructions.plan(state) if state.turn is not None else None
        if made is not None and made.attack is not None:
            if made.attack.group == group:
                return made.attack
            game.apply(made.attack.event([8] * made.attack.dice))
        elif made is not None and made.question is not None:
            options = made.question.options
            game.apply({"type": "ai_answer", "question": made.question.key, "answer": "yes" if "yes" in options else options[0]})
        elif state.turn is None and state.ties:
            game.apply({"type": "order", "ids": list(state.ties[0])})
        elif state.turn is None and (state.due or state.queue):
            game.apply({"type": "resolve_event", "event": (state.due or state.queue)[0]})
        else:
            game.apply({"type": "end_activation"})
    pytest.skip(f"no attack of {group} ordered")


def test_the_halberds_critical_1_on_sofia_from_the_screen() -> None:
    """Renaissance: Critical 1, "any Attack that inflicts 3 or more Wounds always inflicts an extra Wound": the Papal
    Guard's Halberd (3 hits) on Sofia, no die saved, is 4 wounds (it was saved as 3)."""
    game = MemoryGame(demo_scenario())
    while game.state.active != "papal_guard":
        state = game.state
        game.apply({"type": "order", "ids": list(state.ties[0])} if state.turn is None and state.ties else {"type": "end_activation"})
    app = make_app(game=game)
    play(app, key("a"))  # Enemy attack: the Papal Guard's Halberd
    assert app.form is not None and app.form.name == "enemy_attack" and app.form.value("attack") == ("papal_guard", "Halberd")
    for _ in range(4):
        if app.form.value("hero") == "sofia":
            break
        tap(app, stop_at(app, Stop(1), 1))
    assert app.form.value("hero") == "sofia" and len(app.form.value("dice")) == 3
    play(app, key("1"), key("2"), key("4"))
    assert set(said(app)) == {"Halberd on Sofia: 3 hits, 0 saved, 3 wounds; Critical 1: 1 extra wound"}
    play(app, key("return"))
    assert app.game.state.hero("sofia").wounds == 4 and app.form is None
    assert app.game.state.notes == ("Halberd on Sofia: 3 hits, 0 saved, 3 wounds; Critical 1: 1 extra wound",)
    assert shown(app)[-1] == "Halberd on Sofia: 3 hits, 0 saved, 3 wounds; Critical 1: 1 extra wound"  # the log's newest


def test_the_alchemists_poisoned_on_eleonora_from_the_screen() -> None:
    """A trait naming a Status Token gives it to the Hero the attack wounds: the Alchemist's Quicksilver Mist,
    Poisoned, not resisted, as the AI orders it."""
    game = MemoryGame(demo_scenario())
    order = to_order_of(game, "alchemist")
    assert order.traits == ("Poisoned",)
    app = make_app(game=game)
    play(app, key("d"))
    assert app.form is not None and app.form.name == "ai_defence"
    play(app, *[key("1")] * order.dice)
    assert set(said(app)) == {"Quicksilver Mist on Eleonora: 0 of 2 needed, 2 wounds; Eleonora gains Poisoned"}
    play(app, key("return"))
    hero = app.game.state.hero(order.hero)
    assert hero.id == "eleonora" and hero.statuses == ("Poisoned",) and hero.wounds == order.effect_wounds == 2
    assert shown(app)[-2:] == ["Quicksilver Mist on Eleonora: 0 of 2 needed, 2 wounds", "Eleonora gains Poisoned"]


def classic_guards(skill: str) -> Scenario:
    """The first-edition test skirmish, its Guards with `skill` on their card."""
    scenario = mission("classic")
    return replace(scenario, enemies=tuple(replace(e, generic_skills=(skill,)) for e in scenario.enemies))


def test_inspire_is_asked_where_the_defence_roll_is_entered() -> None:
    """First edition, Inspire: "All enemies within 6 squares (including their own) force the heroes to re-roll a die
    when they defend themselves against their physical attacks": the Guards' own attack, any die, by the keys."""
    game = MemoryGame(classic_guards("Inspire"))
    game.apply({"type": "spend_ap", "action": "move", "ap": 3})  # Ada's token overtakes the Guards': they react
    for _ in range(6):
        made = instructions.plan(game.state)
        if made.question is None:
            break
        game.apply({"type": "ai_answer", "question": made.question.key, "answer": "yes" if made.question.kind == "in_area" else "0"})
    order = instructions.plan(game.state).attack
    assert order is not None and order.group == "guards" and order.kind == "physical"
    app = make_app(game=game)
    rolled = [4, 1, 6, 2][: order.dice]
    play(app, key("d"), *[key(str(v)) for v in rolled])
    dice = numbered(range(order.dice))
    assert any(text.startswith(f"Inspire (Guards): re-roll one die ({dice}) before the result") for text in said(app))
    play(app, key("return"))
    assert app.game.events()[-1]["type"] == "ai_answer" and app.error.endswith("Apply again to go on without it.")
    play(app, key("backspace"), key("r"), key("3"), key("return"))  # the last die, by the Guards' Inspire
    event = app.game.events()[-1]
    assert event["type"] == "enemy_attack" and event["dice"] == rolled
    assert event["rerolls"] == [{"die": order.dice - 1, "value": 3, "by": "enemy"}]


def test_iron_will_is_asked_when_the_heros_spell_targets_it() -> None:
    """First edition, Iron will: "If the character is the target of a spell, the hero is obliged to re-roll a
    successful die"; not on a physical attack."""
    app = make_app(game=MemoryGame(classic_guards("Iron will")))
    play(app, key("a"))
    play(app, key("4"), key("5"))
    assert not any("Iron will" in text for text in said(app))  # a physical attack: nothing asked
    tap(app, stop_at(app, Stop(1), 1))
    assert app.form is not None and app.form.value("kind") == "psychic" and len(app.form.value("dice")) == 2  # Ada's Mind
    play(app, key("4"), key("2"))
    assert any(text.startswith("Iron will (Guards): re-roll one die that obtained a Success (die 1) before the result")
               for text in said(app))
    reroll(app, 0, "Enemy's Skill", 1)
    assert not any("Iron will" in text for text in said(app))
    tap(app, stop_at(app, Stop(-1)))
    event = app.game.events()[-1]
    assert event["type"] == "hero_attack" and event["rerolls"] == [{"die": 0, "value": 1, "by": "enemy"}]


def test_a_dice_roll_is_no_test_and_offers_no_reroll() -> None:
    """Renaissance "Dice Roll": "A Dice Roll is not a Test; it cannot be modified by Status Tokens, Skill effects":
    the Stealth roll's die is set by its faces, with no Re-roll, and R does nothing but say so."""
    app = make_app(game=MemoryGame(mission("stealth")))
    play(app, key("s"), key("4"))
    assert app.form is not None and app.form.name == "stealth"
    tap(app, die(app, 0))
    assert any(h.target[0] == "face" for h in app.hits) and not any(h.target[0] == "reroll" for h in app.hits)
    play(app, key("r"))
    dice = app.form.dice()
    assert dice is not None and dice.pending is None and "not a Test" in app.error


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 8), min_size=1, max_size=5),
       st.lists(st.tuples(st.integers(0, 4), st.sampled_from(EFFECTS), st.integers(1, 8)), max_size=6))
def test_what_the_screen_lets_through_the_rules_accept_on_the_dice_shown(
        rolled: list[int], steps: list[tuple[int, Any, int]]) -> None:
    """Any re-rolls tried on the form: those the screen refuses are not made, and the event of those it makes is
    applied by the rules on the faces the dice show (no die re-rolled more often than "Dice Re-roll" allows)."""
    state = MemoryGame(book_slingers()).state
    form = hero_attack_form(state)
    count = form.get("dice_count")
    assert isinstance(count, Number)
    count.set(len(rolled))
    form.refresh()
    dice = form.dice()
    assert dice is not None
    dice.values = list(rolled)
    for die, (_, by), value in steps:
        if die >= len(rolled):
            continue
        made = len(dice.rerolls)
        if start(state, form, dice, die, by):
            assert dice.pending is None and len(dice.rerolls) == made
            continue
        dice.reroll(value)
    assert all(dice.times(n) <= 2 for n in range(len(rolled)))
    event = form.event()
    after = rules.apply(state, event)
    again = rules.apply(state, {k: v for k, v in event.items() if k != "rerolls"} | {"dice": dice.faces})
    assert after.notes == again.notes and after.groups == again.groups
