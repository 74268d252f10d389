"""Issue 49's rules entered at the table (`assistant/ui/rule_forms.py`): each driven from the screen by touch, keys or
the encoder to the journal (a real state file), and the game showing the book's outcome; each form whole at 800x480
and 720x1280."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pygame
import pytest

from assistant.rules import instructions
from assistant.ui import theme
from assistant.ui.app import App
from assistant.ui.form import APPLY, Choice
from assistant.ui.table import MemoryGame, open_saved_game
from tests.session.test_table_flow import HALBERD, LANCE, enemy_toml, hero_toml, mission
from tests.ui.conftest import click, feed, key, make_app
from tests.ui.demo import demo_scenario
from tests.ui.test_reactions import encoder, labels, tap
from tests.ui.test_type_scale import marks, record
from tests.ui.test_enemy_turn import end_enemy_turn

DUEL = mission("renaissance", {"valerio": 12, "guards": 6}, hero_toml("valerio", health=6), enemy_toml("guards", HALBERD))
GUARDS_FIRST = mission("renaissance", {"guards": 1, "valerio": 2, "sofia": 3},
                       hero_toml("valerio", threat=3), hero_toml("sofia"), enemy_toml("guards", HALBERD, models=2))  # fmt: skip
STATUS = mission("renaissance", {"guards": 12, "valerio": 1}, hero_toml("valerio"), enemy_toml("guards", HALBERD))
CLASSIC = mission("classic", {"valerio": 12, "sofia": 1, "guards": 6}, hero_toml("valerio", classic=True),
                  hero_toml("sofia", classic=True), enemy_toml("guards", LANCE, classic=True))  # fmt: skip


def saved(tmp_path: Path, text: str, size: tuple[int, int] = (800, 480)) -> App:
    """The table app on a new state file (the SQLite journal `nova-table play` keeps) of the scenario `text`."""
    scenario = tmp_path / "mission.toml"
    scenario.write_text(text, encoding="utf-8")
    surface = pygame.display.set_mode(size)
    pygame.event.clear()
    return App(open_saved_game(tmp_path / "table.sqlite", scenario, new=True), surface, log=lambda message: None)


def last(app: App) -> dict[str, Any]:
    """The journal's newest event."""
    return app.game.events()[-1]


def row(app: App, field: str, side: int = 0) -> pygame.event.Event:
    """A tap on the open form's row `field`: on its right arrow (1), its left (-1) or its middle (0)."""
    app.draw()
    assert app.form is not None
    index = next(n for n, f in enumerate(app.form.fields) if f.key == field)
    hit = next(h for h in app.hits if h.target[0] == "stop" and h.target[1].field == index and h.target[2] == side)
    return click(hit.rect.center)


def apply_tap(app: App) -> pygame.event.Event:
    app.draw()
    return click(next(h.rect for h in app.hits if h.target[0] == "stop" and h.target[1] == APPLY).center)


def answer_all(app: App) -> None:
    """The AI's questions answered (the setup of a test on what comes after them): Yes, the first Hero, reach 0."""
    for _ in range(8):
        asked = instructions.plan(app.game.state).question
        if asked is None:
            return
        option = "yes" if "yes" in asked.options else "0" if "0" in asked.options else asked.options[0]
        app.game.apply({"type": "ai_answer", "question": asked.key, "answer": [option] if asked.several else option})
    raise AssertionError("the AI kept asking")


def fix_to(app: App, what: str) -> list[pygame.event.Event]:
    """Keys that open Fix and turn its Change row to `what` (counted on the form's own options)."""
    feed(app, key("f"))
    assert app.form is not None and app.form.name == "fix"
    change = app.form.get("what")
    assert isinstance(change, Choice)
    steps = [value for value, _ in change.options].index(what)
    return [key("right")] * steps


# -- Dash and Forced Movement ----------------------------------------------------------------------------------------


def test_a_dash_with_no_ap_left_draws_its_reaction_attack_and_leaves_the_ap_by_touch(tmp_path: Path) -> None:
    """"A Dash does not use up Action Points"; "Unless otherwise stated, a Dash causes Reaction Attacks"."""
    app = saved(tmp_path, DUEL)
    app.game.apply({"type": "spend_ap", "ap": 5, "action": "attack"})
    assert app.game.state.turn is not None and app.game.state.turn.ap_left == 0
    app.draw()
    items = {i.label: i for i in app.machine.current.items}  # type: ignore[attr-defined]
    assert not items["Move"].enabled and items["Dash"].enabled
    feed(app, tap(app, "Dash"))
    assert app.form is not None and app.form.name == "dash"
    assert [f.key for _, f in app.form.visible()] == ["hero", "movement", "guards/1"]  # who, which, who is adjacent
    feed(app, row(app, "guards/1", 1))  # adjacent: yes
    feed(app, apply_tap(app))
    assert last(app) == {"type": "declare_move", "movement": "dash", "hero": "valerio", "adjacent": ["guards/1"]}
    assert labels(app)[0] == "Defence roll"  # the Reaction Attack first
    feed(app, tap(app, "Defence roll"))
    assert app.form is not None and app.form.name == "reaction_defence"
    feed(app, key("1"), key("1"), key("1"), key("return"))  # no success: both hits wound
    state = app.game.state
    assert last(app)["reaction"] is True and state.notes[-1] == "Valerio dashes now"
    assert state.hero("valerio").wounds == 2 and state.turn is not None and state.turn.ap_left == 0
    assert state.turn.move is None and app.form is None and "Dash" in labels(app)


def test_a_forced_move_of_a_hero_not_active_in_an_enemy_s_activation_by_the_encoder(tmp_path: Path) -> None:
    """"Forced Movement" "causes Reaction Attacks" whoever is active; the Guards' activation goes on, its AP kept."""
    app = saved(tmp_path, GUARDS_FIRST)
    assert app.game.state.active == "guards"
    assert "Forced move" not in labels(app)  # the AI asks first: its question keeps the panel
    answer_all(app)
    ap = app.game.state.turn.ap_left  # type: ignore[union-attr]
    assert "Forced move" in labels(app)
    feed(app, key("h"))
    assert app.form is not None and app.form.name == "dash" and app.form.value("movement") == "forced"
    feed(app, encoder("turn", 1), encoder("confirm"))  # Who: Sofia; on to Move (Forced)
    feed(app, encoder("confirm"), encoder("confirm"), encoder("turn", 1))  # Guards 1: no; Guards 2: yes
    feed(app, encoder("confirm"), encoder("confirm"))  # on to Move, pressed
    assert last(app) == {"type": "declare_move", "movement": "forced", "hero": "sofia", "adjacent": ["guards/2"]}
    order = instructions.plan(app.game.state).attack
    assert order is not None and order.reaction and (order.hero, order.model) == ("sofia", 2)
    feed(app, tap(app, "Defence roll"))
    feed(app, key("8"), key("8"), key("8"), key("return"))
    state = app.game.state
    assert state.notes[-1] == "Sofia makes the Forced Movement now" and state.hero("sofia").wounds == 0
    assert state.active == "guards" and state.turn is not None and state.turn.ap_left == ap


# -- a Reaction Skill ---------------------------------------------------------------------------------------------------


def test_a_reaction_skill_attack_of_a_hero_not_active_by_keys(tmp_path: Path) -> None:
    """"Reaction Skills": "usable only when the Hero equipping it is not the Active Model": Sofia's attack in the
    Guards' activation keeps its Critical and its Threat, and spends nobody's AP."""
    app = saved(tmp_path, GUARDS_FIRST)
    answer_all(app)
    ap = app.game.state.turn.ap_left  # type: ignore[union-attr]
    feed(app, key("r"))
    assert app.form is not None and app.form.name == "reaction_attack"
    assert [w for _, w in app.form.get("hero").options] == ["Valerio", "Sofia"]  # type: ignore[union-attr]
    feed(app, key("right"))  # Sofia
    feed(app, key("8"), key("8"), key("8"), key("return"))
    assert last(app) == {"type": "hero_attack", "reaction": True, "hero": "sofia", "group": "guards", "model": 1,
                         "kind": "physical", "dice": [8, 8, 8]}  # fmt: skip
    state = app.game.state
    assert state.notes[0] == "Sofia reacts: attacks Guards 1: 3 successes, 4 wounds, Critical, defeated; Threat +3"
    assert state.hero("sofia").threat == 3 and state.group("guards").standing == (2,)
    assert state.active == "guards" and state.turn is not None and state.turn.ap_left == ap
    app.game.apply({"type": "end_activation", "skip": True})
    assert app.game.state.active == "valerio"
    feed(app, key("r"))
    assert app.form is not None and [w for _, w in app.form.get("hero").options] == ["Sofia"]  # type: ignore[union-attr]


# -- Status Tokens, a Location Card, Swiftness, Reagents: Fix ---------------------------------------------------------


def test_status_tokens_from_fix_are_reminded_as_the_hero_s_activation_starts(tmp_path: Path) -> None:
    """Renaissance "Hero or Ally Activation" 1a: the tokens that trigger at the start (Stunned) now, Burned at the end;
    a token discarded from Fix is no longer held."""
    app = saved(tmp_path, STATUS)
    assert app.game.state.active == "guards"
    for token in ("Burned", "Stunned"):
        turns = fix_to(app, "status_gain")
        feed(app, *turns, key("return"))  # Change: Status token +; on to On (Valerio)
        assert app.form is not None and app.form.value("who") == ("hero", "valerio")
        options = [value for value, _ in app.form.get("token").options]  # type: ignore[union-attr]
        feed(app, key("return"), *[key("right")] * options.index(token), key("return"), key("return"))
        assert last(app) == {"type": "status", "hero": "valerio", "token": token}
    assert app.game.state.hero("valerio").statuses == ("Burned", "Stunned")
    end_enemy_turn(app, feed)  # the Guards' questions answered, then End activation tapped
    assert app.game.state.active == "valerio"
    app.draw()
    act = [line.text for line in app.machine.current.told[1]]  # type: ignore[attr-defined]  # above the buttons
    assert "Valerio holds Burned and Stunned: apply Stunned now and Burned at the end of the activation." in act
    turns = fix_to(app, "status_discard")
    feed(app, *turns)
    assert app.form is not None and app.form.get("holder").words == "Valerio"  # type: ignore[union-attr]
    assert [w for _, w in app.form.get("held").options] == ["Burned", "Stunned"]  # type: ignore[union-attr]
    feed(app, key("return"), key("return"), key("right"), key("return"), key("return"))  # Valerio, Stunned
    assert last(app) == {"type": "status", "hero": "valerio", "token": "Stunned", "gain": False}
    assert app.game.state.hero("valerio").statuses == ("Burned",)


@pytest.mark.parametrize("size, end", [((800, 480), "the end of the activation."), ((720, 1280), "end of the activation.")])
def test_the_status_reminder_is_read_whole_without_a_tap(size: tuple[int, int], end: str, tmp_path: Path, shots: Path) -> None:
    """At 800x480 the reminder's 5 lines were the log's newest under the dial, where 4 fit: its last line took a tap on
    the log to read. It is acted on now: above the buttons, whole, at the reading size (18 px capitals at 800x480),
    from its first line to its last, with no tap."""
    from assistant.ui.panel import read_size
    from tests.ui.pixels import find_text

    app = saved(tmp_path, STATUS, size)
    for token in ("Burned", "Stunned"):
        turns = fix_to(app, "status_gain")
        feed(app, *turns, key("return"))
        options = [value for value, _ in app.form.get("token").options]  # type: ignore[union-attr]
        feed(app, key("return"), *[key("right")] * options.index(token), key("return"), key("return"))
    end_enemy_turn(app, feed)  # the Guards' questions answered, then End activation tapped
    words = "Valerio holds Burned and Stunned: apply Stunned now and Burned at the end of the activation."
    screen = app.machine.current
    app.fonts.squeezed.clear()
    app.draw()
    pygame.image.save(app.surface, shots / f"status-reminder-{size[0]}x{size[1]}.png")
    act = screen.told[1]  # type: ignore[attr-defined]
    assert [line.text for line in act] == [words] and not act[0].big
    found = [find_text(app.surface, app.layout.panel, part, read_size(app.layout, app.fonts), act[0].color)
             for part in ("Valerio holds", end)]
    assert None not in found, found
    buttons = min(hit.rect.top for hit in app.hits if hit.target[0] == "item")
    assert all(rect.bottom <= buttons for rect in found if rect is not None)  # above the buttons, over none
    assert app.fonts.squeezed == []


def test_a_location_card_from_fix_and_enemies_ignore_the_hero(tmp_path: Path) -> None:
    """Renaissance "Location Card": "Enemies ignore them": the Guards ask about Sofia only, then Valerio leaves it."""
    app = saved(tmp_path, mission("renaissance", {"valerio": 12, "sofia": 3, "guards": 1}, hero_toml("valerio", threat=5),
                                  hero_toml("sofia", threat=1), enemy_toml("guards", HALBERD)))  # fmt: skip
    feed(app, *fix_to(app, "location"), key("return"))
    assert app.form is not None and app.form.get("place").words == "Valerio enters"  # type: ignore[union-attr]
    feed(app, apply_tap(app))
    assert last(app) == {"type": "location", "hero": "valerio", "enter": True}
    assert app.game.state.notes[-1] == "Valerio enters a Location Card: Enemies ignore them"
    app.game.apply({"type": "spend_ap", "ap": 2, "action": "Mission's Action"})
    feed(app, tap(app, "End activation"))
    asked = instructions.plan(app.game.state).question
    assert app.game.state.active == "guards" and asked is not None and asked.about == ("sofia",)
    feed(app, *fix_to(app, "location"), key("return"))
    assert app.form is not None and app.form.get("place").words == "Valerio leaves"  # type: ignore[union-attr]
    feed(app, key("return"), key("return"))
    assert last(app) == {"type": "location", "hero": "valerio", "enter": False}


def test_a_swiftness_lowered_from_fix_gives_the_next_activation_its_ap(tmp_path: Path) -> None:
    """"When a Model Activates, it gains Action Points equal to its Swiftness": an Injury lowers it to 3."""
    app = saved(tmp_path, DUEL)
    feed(app, *fix_to(app, "swiftness"), key("return"))
    assert app.form is not None and app.form.value("swift_hero") == "valerio" and app.form.value("swiftness") == 5
    feed(app, key("return"), key("left"), key("left"), key("return"), key("return"))
    assert last(app) == {"type": "swiftness", "hero": "valerio", "value": 3}
    assert app.game.state.token("valerio").swiftness == 3 and app.game.state.notes[-1] == "Valerio: Swiftness now 3"
    assert app.game.state.turn is not None and app.game.state.turn.ap == 5  # this activation began before
    app.game.apply({"type": "end_activation", "skip": True})
    for _ in range(20):
        if app.game.state.active == "valerio":
            break
        app.game.apply({"type": "end_activation", "skip": True})
    assert app.game.state.active == "valerio" and app.game.state.turn is not None and app.game.state.turn.ap == 3


def test_reagents_from_fix_join_the_loot_and_the_end_keeps_what_the_paragraph_says(tmp_path: Path) -> None:
    """Renaissance "Loot": Reagent Cards drawn for a Mission's test; "Loot: half. Discard half of the cards that form
    the Loot (rounded up)": 3 cards, 2 discarded, 1 kept."""
    app = saved(tmp_path, DUEL)
    feed(app, *fix_to(app, "loot"), key("return"))
    assert app.form is not None and [f.key for _, f in app.form.visible()][1:] == [
        "reagent:Pecunia", "reagent:Elementum", "reagent:Alchemia"]  # fmt: skip
    feed(app, key("2"), key("return"), key("return"), key("1"), key("return"))  # 2 Pecunia, 0 Elementum, 1 Alchemia
    assert app.form is not None and app.form.focus == APPLY
    feed(app, key("return"))
    assert last(app) == {"type": "loot", "cards": ["Pecunia", "Pecunia", "Alchemia"]}
    assert app.game.state.loot == ("Pecunia", "Pecunia", "Alchemia")
    feed(app, *fix_to(app, "victory"))
    assert app.form is not None and app.form.value("loot") == "whole"  # a victory keeps it, unless the paragraph says
    feed(app, row(app, "loot", -1))  # half
    feed(app, apply_tap(app))
    assert last(app) == {"type": "end_mission", "result": "victory", "loot": "half"}
    assert app.game.state.notes[-2:] == ("The mission ends in victory", "Loot: half: discard 2 of the 3 cards unrevealed, "
                                         "chosen by the symbol on their backs, and mark the contents of the other 1 in the Treasury")


def test_the_end_chosen_after_three_heroes_ko_asks_the_loot_split() -> None:
    """"End of a Mission": 3 Heroes KO, the paragraph says victory or defeat, and what of the Loot: the button asks it."""
    game = MemoryGame(demo_scenario())
    game.apply({"type": "damage", "group": "alchemist", "model": 1, "wounds": 4, "by": "valerio"})
    for hero, health in (("sofia", 5), ("vincenzo", 5), ("eleonora", 4)):
        game.apply({"type": "damage", "hero": hero, "wounds": health})
    assert game.state.over == "ko" and game.state.loot
    app = make_app(game=game)
    feed(app, tap(app, "Defeat"))
    assert app.form is not None and app.form.name == "end_mission" and app.form.value("loot") == "none"
    feed(app, key("right"), key("return"), key("return"))  # Loot: half
    assert game.events()[-1] == {"type": "end_mission", "result": "defeat", "loot": "half"}
    assert game.state.over == "defeat: heroes KO" and game.state.notes[-1].startswith("Loot: half: discard 1 of the 2 cards")


# -- the first edition's Out of action roll -----------------------------------------------------------------------------


def test_the_out_of_action_roll_is_offered_when_the_note_asks_for_it_and_taken_once(tmp_path: Path) -> None:
    """First edition "Out of action": "Roll 1d6": 6 less a malus of 1 for a minor wound not healed: Minor wound."""
    app = saved(tmp_path, CLASSIC)
    assert "Out of action roll" not in labels(app)
    for event in ({"type": "damage", "hero": "sofia", "wounds": 5, "equipment": False},
                  {"type": "spend_ap", "ap": 5, "action": "move"}, {"type": "end_activation"}):  # fmt: skip
        app.game.apply(event)
    assert "Sofia is out of the game: roll 1d6 on the Out of action table" in app.game.state.notes
    app.draw()
    first = app.machine.current.items[0]  # type: ignore[attr-defined]
    assert (first.label, first.detail) == ("Out of action roll", "Sofia")
    feed(app, tap(app, "Out of action roll"))
    assert app.form is not None and app.form.name == "out_of_action"
    feed(app, key("6"))  # the die; the focus goes on to Roll
    feed(app, row(app, "malus", 1))
    feed(app, apply_tap(app))
    assert last(app) == {"type": "out_of_action", "hero": "sofia", "die": 6, "malus": 1}
    assert app.game.state.hero("sofia").injuries == ("Minor wound",)
    assert "Out of action roll" not in labels(app)


# -- every form whole, at both screens --------------------------------------------------------------------------------


def open_dash(app: App) -> None:
    feed(app, key("h"))


def open_reaction(app: App) -> None:
    feed(app, key("r"), key("return"), key("return"), key("right"))  # the Psychic attack: its seven rows


def fix_case(what: str, setup: Callable[[App], None] = lambda app: None) -> Callable[[App], None]:
    def open_it(app: App) -> None:
        setup(app)
        feed(app, *fix_to(app, what))

    return open_it


def held(app: App) -> None:
    app.game.apply({"type": "status", "group": "papal_guard", "model": 1, "token": "Reaction 1"})


def looted(app: App) -> None:
    app.game.apply({"type": "damage", "group": "alchemist", "model": 1, "wounds": 4, "by": "valerio"})


def ko_end(app: App) -> None:
    looted(app)
    for hero, health in (("sofia", 5), ("vincenzo", 5), ("eleonora", 4)):
        app.game.apply({"type": "damage", "hero": hero, "wounds": health})
    feed(app, tap(app, "Victory"))


def out_of_action(app: App) -> None:
    for event in ({"type": "damage", "hero": "sofia", "wounds": 5, "equipment": False},
                  {"type": "spend_ap", "ap": 5, "action": "move"}, {"type": "end_activation"}):  # fmt: skip
        app.game.apply(event)
    feed(app, key("x"))


CASES: dict[str, tuple[str, Callable[[App], None], str]] = {
    "dash": ("demo", open_dash, "dash"),
    "reaction": ("demo", open_reaction, "reaction_attack"),
    "status_gain": ("demo", fix_case("status_gain"), "fix"),
    "status_discard": ("demo", fix_case("status_discard", held), "fix"),
    "location": ("demo", fix_case("location"), "fix"),
    "swiftness": ("demo", fix_case("swiftness"), "fix"),
    "loot": ("demo", fix_case("loot"), "fix"),
    "victory_loot": ("demo", fix_case("victory", looted), "fix"),
    "end_mission": ("demo", ko_end, "end_mission"),
    "out_of_action": (CLASSIC, out_of_action, "out_of_action"),
}


@pytest.mark.parametrize("name", list(CASES))
@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_the_form_is_whole_and_readable(name: str, size: tuple[int, int], shots: Path, tmp_path: Path) -> None:
    scenario, open_it, form = CASES[name]
    app = make_app(size) if scenario == "demo" else saved(tmp_path, scenario, size)
    open_it(app)
    assert app.form is not None and app.form.name == form
    app.fonts.squeezed.clear()
    drawn = record(app.fonts)
    app.draw()
    pygame.image.save(app.surface, shots / f"rule-{name}-{size[0]}x{size[1]}.png")
    assert app.fonts.squeezed == [], f"cut to fit: {app.fonts.squeezed}"
    screen = pygame.Rect(0, 0, *size)
    assert all(screen.contains(hit.rect) and not hit.rect.colliderect(app.layout.dial) for hit in app.hits)
    stops = [hit.rect for hit in app.hits if hit.target[0] == "stop"]
    assert stops and min(r.top for r in stops) >= app.layout.panel.top  # no row over the title
    back = next(hit.rect for hit in app.hits if hit.target[0] == "back")
    rows = [hit.rect for hit in app.hits if hit.target[0] == "stop" and hit.target[1] != APPLY]
    assert all(r.bottom <= back.top for r in rows)  # every row above Back and Apply
    least = theme.READ_CAPS * app.layout.unit
    small = {(text, points) for text, points in drawn if text not in marks(app) and app.fonts.caps(points) < least - 0.5}
    assert drawn and not small, sorted(small)
