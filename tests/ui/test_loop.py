"""Keys, taps, dice and quits posted into the real main loop change the real game state."""

from __future__ import annotations

import threading
import time

import pygame
import pytest

from assistant.rules import game as rules
from assistant.ui import theme
from assistant.ui.form import Reading
from assistant.ui.inputs import post_dice
from assistant.ui.table import MemoryGame
from tests.ui.conftest import click, key, make_app, play
from tests.ui.demo import demo_scenario


def test_keys_spend_ap_through_the_move_form() -> None:
    app = make_app()
    start = app.game.state
    assert start.active == "valerio" and start.turn is not None and start.turn.ap_left == 5
    # Move asks who is adjacent first (Renaissance Reaction Attacks): Enter on "Nobody", journaled with the Move
    play(app, key("m"), key("return"), key("2"), key("return"), key("return"))
    state = app.game.state
    declared = rules.apply(start, {"type": "declare_move", "adjacent": []})
    assert state == rules.apply(declared, {"type": "spend_ap", "action": "move", "ap": 2})
    assert state.turn is not None and state.turn.ap_left == 3
    assert app.machine.current.name == "table"


def test_tapping_end_activation_where_it_is_drawn_ends_it() -> None:
    app = make_app()
    app.draw()
    labels = [item.label for item in app.machine.current.items]  # type: ignore[attr-defined]
    hit = app.hits[labels.index("End activation")]
    # the place we tap shows a button (not the background) before we tap it
    assert tuple(app.surface.get_at(hit.rect.midbottom[:1] + (hit.rect.centery + hit.rect.height // 3,))[:3]) == theme.BUTTON
    before = app.game.state
    play(app, click(hit.rect.center))
    assert app.game.state == rules.apply(before, {"type": "end_activation"})
    assert app.game.state.active == "sofia"


def test_undo_and_redo_keys() -> None:
    app = make_app()
    start = app.game.state
    play(app, key("e"))
    after = app.game.state
    assert after != start
    play(app, key("u"))
    assert app.game.state == start
    play(app, key("y"))
    assert app.game.state == after
    play(app, key("z", pygame.KMOD_CTRL), key("z", pygame.KMOD_CTRL | pygame.KMOD_SHIFT))
    assert app.game.state == after


def test_undo_with_a_form_open_closes_the_form() -> None:
    """The form was made for the game before the undo (Sofia's attack); applied after it, it would act for Valerio."""
    app = make_app()
    start = app.game.state
    play(app, key("a"), key("z", pygame.KMOD_CTRL))  # nothing to undo yet: the game and the form stay
    assert app.game.state == start and app.form is not None and app.form.title == "Valerio attacks"
    play(app, key("backspace"), key("e"), key("a"))
    assert app.machine.current.name == "form" and app.form is not None and app.form.title == "Sofia attacks"
    play(app, key("z", pygame.KMOD_CTRL))
    assert app.game.state == start and app.form is None and app.machine.current.name == "table"
    play(app, key("z", pygame.KMOD_CTRL))  # nothing left to undo: refused, nothing else changes
    assert app.game.state == start and app.machine.current.name == "table"
    play(app, key("a"))
    assert app.form is not None and app.form.title == "Valerio attacks"
    play(app, key("y", pygame.KMOD_CTRL))  # redo changes the game too: the form goes
    assert app.game.state.active == "sofia" and app.form is None and app.machine.current.name == "table"


def test_a_hero_attack_with_dice_typed_by_hand() -> None:
    app = make_app()
    start = app.game.state
    # a: the attack form; Enter past target, kind, cost and dice count; type four dice; Enter applies
    play(app, key("a"), key("return"), key("return"), key("return"), key("return"),
         key("8"), key("8"), key("6"), key("1"), key("return"))  # fmt: skip
    expected = {"type": "hero_attack", "group": "papal_guard", "model": 1, "kind": "physical", "ap": 3,
                "dice": [8, 8, 6, 1]}  # fmt: skip
    assert app.game.state == rules.apply(start, expected)
    assert app.game.state.group("papal_guard").models[0].wounds > 0
    assert app.machine.current.name == "table"


def test_dice_from_the_camera_fill_the_open_form_and_stay_correctable() -> None:
    app = make_app()
    start = app.game.state
    pygame.event.clear()
    pygame.event.post(key("a"))
    reader = threading.Thread(target=post_dice, args=(Reading([6, 5, 5, 2, 7]),))  # the dice reader's own thread
    reader.start()
    reader.join()
    app.running = True
    app.pump()  # the dice shown (a press in the pass they come in is not taken for one on them)
    # the table corrects the second die by hand: focus it (Enter x5 from the target) and type 3
    for event in [key("return")] * 5 + [key("3"), key("return"), key("return"), key("return"), key("return")]:
        pygame.event.post(event)
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    app.run()
    expected = {"type": "hero_attack", "group": "papal_guard", "model": 1, "kind": "physical", "ap": 3,
                "dice": [6, 3, 5, 2, 7]}  # fmt: skip
    assert app.game.state == rules.apply(start, expected)


def test_a_refused_event_keeps_the_form_open_and_says_why() -> None:
    app = make_app()
    play(app, key("a"), key("return"))  # Apply is not reached: the dice are not read yet
    assert app.machine.current.name == "form"
    play(app, *[key("return")] * 8)
    assert app.machine.current.name == "form"
    assert "dice still to read" in app.error
    assert app.game.state.count == 0


def test_tie_ordering_and_mystery_resolution_from_the_menu() -> None:
    game = MemoryGame(demo_scenario())
    app = make_app(game=game)
    # run the demo forward with the menu's first item until a tie or an event token is up
    seen: set[str] = set()
    for _ in range(60):
        items = app.machine.current.items  # type: ignore[attr-defined]
        kinds = {item.kind for item in items if item.enabled}
        seen |= kinds
        state = app.game.state
        if "order" in kinds and (items[1].event or {}).get("type") == "order":  # a tie (an AI's answers are "order" too)
            before = state
            order = items[1]  # the second order offered
            play(app, key("2"))
            assert app.game.state == rules.apply(before, order.event)
            assert not app.game.state.ties or app.game.state.ties != before.ties
            break
        if "event" in kinds:
            before = state
            play(app, key("r"))
            assert app.game.state.count == before.count + 1
            continue
        play(app, key("e"))
        app.machine.current.refresh(app)  # type: ignore[attr-defined]
    assert "event" in seen or "order" in seen


@pytest.mark.parametrize("size", [(800, 480), (480, 320)])
def test_an_event_token_s_two_buttons_are_told_apart_whole(size: tuple[int, int]) -> None:
    """"Resolve mystery-1" and "Resolve mystery-1, keep it" were both drawn "Resolve myst..." at every size."""
    from assistant.rules.horologium import Side

    game = MemoryGame(demo_scenario())
    for _ in range(80):
        state = game.state
        if state.turn is None and state.up_next is not None and state.side_of(state.up_next) is Side.EVENT:
            break
        if state.due:
            game.apply({"type": "resolve_event", "event": state.due[0]})
        elif state.turn is None and state.ties:
            game.apply({"type": "order", "ids": list(state.ties[0])})
        else:
            game.apply({"type": "end_activation", "skip": True})
    else:
        pytest.skip("no event token comes up in the demo's first 80 events")
    app = make_app(size, game)
    app.fonts.squeezed.clear()
    app.draw()
    labels = [item.label for item in app.machine.current.items if item.kind == "event"]  # type: ignore[attr-defined]
    assert labels == ["Resolve", "Keep it"]
    assert not set(labels) & {text for text, _ in app.fonts.squeezed}


def test_escape_held_for_a_second_closes_the_app() -> None:
    app = make_app()
    pygame.event.clear()
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="\x1b", scancode=0))
    started = time.monotonic()
    app.run()  # no QUIT posted: only the held Escape can end it
    assert 0.9 <= time.monotonic() - started < 5


def test_a_short_escape_goes_back_from_a_form() -> None:
    app = make_app()
    escape_up = pygame.event.Event(pygame.KEYUP, key=pygame.K_ESCAPE, mod=0, unicode="", scancode=0)
    escape_down = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="\x1b", scancode=0)
    play(app, key("m"), key("n"))
    assert app.machine.current.name == "form"
    play(app, escape_down, escape_up)
    assert app.machine.current.name == "table"
    assert app.game.state.count == 1  # the declared Move (nobody adjacent) stays: the move form is left unapplied
    assert app.game.events() == [{"type": "declare_move", "adjacent": []}]


def test_fix_raises_a_heros_threat_with_the_encoder_keys() -> None:
    app = make_app()
    start = app.game.state
    # Fix; "Threat +" is the first change: Enter; turn the hero to the second (Sofia): Right, Enter;
    # the amount: type 2, Enter (to Apply), Enter (apply)
    play(app, key("f"), key("return"), key("right"), key("return"), key("2"), key("return"), key("return"))
    assert app.game.state == rules.apply(start, {"type": "threat", "hero": "sofia", "delta": 2})
    assert app.game.state.hero("sofia").threat == 2


def test_a_ko_hero_draws_an_injury_when_their_token_activates() -> None:
    from tests.rules.scenarios import group, hero, skirmish

    scenario = skirmish(
        heroes=(hero("anna"), hero("bruno")),
        enemies=(group("guards"),),
        placements=(("anna", 1, "hero"), ("bruno", 2, "hero"), ("guards", 3, "enemy")),
    )
    game = MemoryGame(scenario)
    game.apply({"type": "damage", "hero": "bruno", "wounds": 5})  # KO while Anna acts
    app = make_app(game=game)
    play(app, key("e"))  # Anna ends; the hand stops at Bruno's KO token
    state = app.game.state
    assert state.active == "bruno" and state.hero("bruno").ko
    app.machine.current.refresh(app)  # type: ignore[attr-defined]
    labels = [item.label for item in app.machine.current.items]  # type: ignore[attr-defined]
    assert labels[0] == "Draw an Injury"
    play(app, key("i"), key("return"), key("return"))
    assert app.game.state == rules.apply(state, {"type": "injury", "card": "Injury 1"})
    assert app.game.state.hero("bruno").injuries == ("Injury 1",)


def test_a_resized_window_is_laid_out_again() -> None:
    app = make_app((800, 480))
    pygame.display.set_mode((720, 1280))  # what SDL does to the display surface when the window is resized
    play(app, pygame.event.Event(pygame.VIDEORESIZE, size=(720, 1280), w=720, h=1280), key("e"))
    assert app.layout.portrait and app.surface.get_size() == (720, 1280)
    assert app.game.state.active == "sofia"
