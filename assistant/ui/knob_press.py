"""A Perilium knob pressed on the board: it picks that knob's Hero.

Where the table's menu offers that Hero as an answer to the Enemy AI (which Hero is closest, farthest, the
one to choose), the press is a tap on their button: it answers with them (undo takes it back), or picks them
where the question takes several. Elsewhere it changes nothing and names the knob's Hero and Threat on the
screen (the board's ring shows the Threat too): which knob is whose, at a glance.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from assistant.rules.names import name_of

if TYPE_CHECKING:
    from assistant.ui.app import App


def knob_pressed(app: App, index: int) -> None:
    """Hero `index`'s knob (from 0, the board's order: the game's heroes) was pressed."""
    heroes = app.game.state.heroes
    if not 0 <= index < len(heroes):
        return  # a knob with no hero in this game
    hero = heroes[index]
    screen = app.machine.current
    if screen.name == "table":
        screen.refresh(app)  # type: ignore[attr-defined]  # (the menu of the state now)
        for number, item in enumerate(screen.items):  # type: ignore[attr-defined]
            event = item.event or {}
            answer = event.get("answer") if event.get("type") == "ai_answer" else item.extra.get("option")
            if item.enabled and answer == hero.id:
                app.machine.go(app, screen.choose(app, number))  # type: ignore[attr-defined]
                return
    app.say(f"Knob {index + 1} is {name_of(app.game.state, hero.id)}'s: Threat {hero.threat}")
