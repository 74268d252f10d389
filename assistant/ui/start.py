"""The start screen's offers: each saved game to resume (the one in play said), the demo and every scenario of the
scenarios folder with its goals and its victory and defeat conditions, then Status (`new_game.choose_game`)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from assistant.rules.scenario import Scenario
from assistant.ui.table import demo_path, load_scenario

Offer = tuple[Any, str, str]  # what Start gives, the words in the Game field, the note under the title


def mission_words(scenario: Scenario) -> str:
    """A mission's goals and how it ends, in a few lines ("Victory: ... Defeat: ...")."""
    parts = [f"The enemies' goal: {goal.text}" for goal in scenario.goals[:2]]
    parts += [f"Victory: {' '.join(scenario.victory)}"] if scenario.victory else []
    parts += [f"Defeat: {' '.join(scenario.defeat)}"] if scenario.defeat else []
    return " ".join(parts) or scenario.description.strip().split("\n")[0]


def saved_offers(state: Path) -> list[Offer]:
    """The state file's games not archived, the one in play first (a file that cannot be read: none offered)."""
    from assistant.session.errors import SessionError
    from assistant.session.games import StateFile

    if not state.exists():
        return []
    damaged: list[SessionError] = []
    try:
        with StateFile(state, read_only=True) as games:
            found = games.games(archived=False, damaged=damaged)
    except Exception as error:  # said by the table when it opens the file
        print(f"nova-table: {state}: no saved game offered ({error})", file=sys.stderr)
        return []
    for why in damaged:
        print(f"nova-table: not offered: {why}", file=sys.stderr)
    found.sort(key=lambda g: not g.current)
    return [({"game": "resume", "id": g.id}, f"{'In play' if g.current else 'Resume'}: game {g.id}",
             f"{g.title}: {g.head} events, last {g.updated_at[:16].replace('T', ' ')}")
            for g in found]  # fmt: skip


def scenario_offers(folder: Path, state: Path | None = None) -> list[Offer]:
    """The demo, then the scenarios of `folder` (*.toml, by name), with the cards of the library beside `state`; one
    that cannot be read is named on stderr."""
    out: list[Offer] = []
    for path in [demo_path(), *sorted(folder.glob("*.toml"))] if folder.is_dir() else [demo_path()]:
        try:
            scenario = load_scenario(path, state)
        except Exception as error:
            print(f"nova-table: {path}: not offered ({error})", file=sys.stderr)
            continue
        name = "the demo" if path == demo_path() else path.stem  # short, for the field; the title in the note
        out.append(({"game": "mission", "scenario": str(path)}, f"New: {name}", f"{scenario.title}. {mission_words(scenario)}"))
    return out


CARDS: Offer = ({"game": "cards"}, "Cards", "The card library: a new hero sheet or enemy card, or one changed")
BUILD: Offer = ({"game": "build"}, "New mission",
               "A mission set up here from the card library: the Heroes (the campaign's), the enemies, the Horologium")
CAMPAIGN: Offer = ({"game": "campaign"}, "Campaign sheet",
                  "The Renaissance campaign between missions: Experience, Florins, Reagents, inventory, heroes")


def offers(state: Path, folder: Path) -> list[Offer]:
    return saved_offers(state) + scenario_offers(folder, state) + [CARDS, BUILD, CAMPAIGN]
