"""What the Enemy AI says last, and what it waits for, are on the screen, whole, all through each mission.

The table screen drew the AI's question and left out the sentences before it ("Slingers activate with 5
AP each... Apply the Status Tokens first.") at every size, and no test saw it: `squeezed` counts text cut,
not sentences left out. Here each mission is played on by the rules (the first answer, dice of 1, events
resolved) and every state the AI talks in is drawn at four sizes: its newest sentence and its question (or
the roll it waits for) are drawn whole, big; everything before them is in the log, each entry shown in one of
its views (a tap on the log shows the next).
"""

from __future__ import annotations

from typing import Any

import pytest

from assistant.rules.instructions import plan
from assistant.rules.scenario import Scenario
from assistant.ui import theme, told
from assistant.ui.table import MemoryGame, Refused
from assistant.ui.card import how_to_answer
from tests.ui.conftest import make_app
from tests.ui.demo import demo_scenario
from tests.ui.missions import mission
from tests.ui.test_render import count

MISSIONS = ("demo", "classic", "draft", "eclectic", "hunt", "stealth")


def scenario(name: str) -> Scenario:
    return demo_scenario() if name == "demo" else mission(name)


def next_events(game: MemoryGame) -> list[dict[str, Any]]:
    """What the table would do next, in order of preference: answer the AI, roll 1s, resolve what is due."""
    state = game.state
    done = plan(state)
    events: list[dict[str, Any]] = []
    if done.question is not None:
        events.append({"type": "ai_answer", "question": done.question.key, "answer": done.question.options[0]})
    elif done.attack is not None:
        events.append(done.attack.event([1] * done.attack.dice))
    events += [{"type": "resolve_event", "event": event} for event in state.due]
    if state.turn is None and state.ties:
        events.append({"type": "order", "ids": list(state.ties[0])})
    if state.turn is None and state.queue:
        events.append({"type": "resolve_event", "event": state.queue[0]})
    if state.turn is not None and state.active in [hero.id for hero in state.heroes] and state.hero(state.active).ko:
        events.append({"type": "injury", "card": f"Injury {len(state.hero(state.active).injuries) + 1}"})
    return events + [{"type": "end_activation"}]


def every_view(app: Any) -> set[int]:
    """The log's entries shown over all its views (a tap on the log shows the next view), back at the first."""
    screen = app.machine.current
    seen: set[int] = set()
    for view in range(screen.views):
        screen.scroll = view
        app.draw()
        seen |= set(screen.logged)
    screen.scroll = 0
    app.draw()
    return seen


@pytest.mark.parametrize("name", MISSIONS)
def test_all_the_ai_says_is_drawn_whole_through_the_mission(name: str) -> None:
    game = MemoryGame(scenario(name))
    apps = [make_app(size, game) for size in ((800, 480), (1024, 600), (1280, 800), (720, 1280))]
    talked = 0
    for _ in range(120):
        for app in apps:
            app.machine.current.refresh(app)  # type: ignore[attr-defined]
            advice = app.machine.current.advice  # type: ignore[attr-defined]
            app.fonts.squeezed.clear()
            app.draw()
            if advice is not None and (advice.steps or advice.waiting):
                talked += 1
                log, act = app.machine.current.told  # type: ignore[attr-defined]
                waiting = told.waiting_words(advice)
                if advice.side == "enemy" and advice.question is not None:  # as the card asks it (a tap answers)
                    waiting = how_to_answer(waiting, advice.question.several)
                # what the table acts on is whole, and big; the rest is in the log, each entry in one view or another
                said = " ".join(line.text for line in act)  # a roll's hint how to give the dice may give way to the card
                roll = advice.attack is not None and advice.question is None
                assert (not waiting or said.endswith(waiting.rpartition(" (")[2] if waiting.endswith(")") else waiting)
                        or roll and waiting.rpartition(" (")[0] in said), (act, waiting)
                assert any(line.big for line in act) == (advice.waiting or advice.side not in ("hero", "reaction")), act
                assert not {text for text, _ in app.fonts.squeezed} & {line.text for line in act}, (app.layout.size, app.fonts.squeezed)
                assert every_view(app) == set(range(len(log))), (app.layout.size, log)
        if game.state.over is not None:
            break
        for event in next_events(game):
            try:
                game.apply(event)
                break
            except Refused:
                continue
    assert talked >= 8  # the walk met the AI talking, not only heroes' turns


def test_the_newest_note_of_a_hero_s_turn_is_drawn_whole() -> None:
    """Valerio's attack defeats the Alchemist: the note wraps over three lines at 800x480, and its last
    ("defeated; Threat +3", the Perilium's change) was cut by the buttons. Both notes are the log's, the newest
    shown, the other a tap further back, the heroes' rows kept."""
    game = MemoryGame(demo_scenario())
    events: list[dict[str, Any]] = [
        {"type": "declare_move", "adjacent": []}, {"type": "spend_ap", "action": "move", "ap": 1},
        {"type": "spend_ap", "action": "other action", "ap": 1}, {"type": "declare_move", "adjacent": []},
        {"type": "spend_ap", "action": "move", "ap": 2}, {"type": "declare_move", "adjacent": ["alchemist/1"]},
        {"type": "enemy_attack", "group": "alchemist", "model": 1, "hero": "valerio", "attack": "Quicksilver Mist",
         "dice": [8, 8], "reaction": True},
        {"type": "spend_ap", "action": "move", "ap": 1},
        {"type": "hero_attack", "group": "papal_guard", "model": 1, "kind": "physical", "ap": 0, "dice": [8, 8, 2, 3]},
        {"type": "hero_attack", "group": "alchemist", "model": 1, "kind": "physical", "ap": 0, "dice": [8, 4, 5, 5]},
    ]  # fmt: skip
    for event in events:
        game.apply(event)
    notes = game.state.notes  # what the last event did: the attack, then the token to take off the Horologium
    assert notes == ("Valerio attacks Venetian Alchemist: 4 successes, 5 wounds, Critical, defeated; Threat +3",
                     "Remove the Venetian Alchemist activation token: its last model is defeated")  # fmt: skip
    for size in ((800, 480), (1024, 600), (1280, 800), (720, 1280)):
        app = make_app(size, game)
        app.fonts.squeezed.clear()
        app.draw()
        log, _ = app.machine.current.told  # type: ignore[attr-defined]
        assert [line.text for line in log] == list(notes) and app.fonts.squeezed == [], (size, app.fonts.squeezed)
        assert 1 in app.machine.current.logged and every_view(app) == {0, 1}, size  # type: ignore[attr-defined]
        assert count(app.surface, app.layout.panel, theme.THREAT) > 0  # the heroes' rows stay
