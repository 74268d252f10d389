"""The demo skirmish played from start to end through the session journal, with fixed dice.

A board model (tests/ai/board.py) stands in for the miniatures: it answers the AI's questions
and moves the models as the instructions say; a fixed-minded player plays the Heroes. Every
instruction the AI gives is written to a transcript, checked line by line against
`skirmish.txt` (read it: it is the game as the table would see it), and every goal the AI
chooses is checked against a plain reading of the books on the board's positions.
Regenerate the transcript after a deliberate change with `NOVA_TABLE_REGEN=1 pytest tests/ai/test_skirmish.py`.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from assistant.rules.ai import HeroFacts
from assistant.rules.edition import Edition
from assistant.rules.game import apply, new_game
from assistant.rules.horologium import Side
from assistant.rules.instructions import Plan, plan
from assistant.rules.state import GameState
from assistant.session.games import StateFile
from assistant.session.scenario_file import parse_scenario
from tests.ai.board import Board, Dice, Thunk, distance, hero_turn, table_event
from tests.ai.test_goal_properties import Table, reference

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "assistant" / "demo" / "skirmish.toml"
TRANSCRIPT = Path(__file__).with_name("skirmish.txt")
START = {
    "valerio": (0, 0), "sofia": (0, 1), "vincenzo": (0, 2), "eleonora": (0, 3),
    "papal_guard/1": (7, 1), "slingers/1": (9, 0), "slingers/2": (9, 2), "slingers/3": (9, 4),
    "alchemist/1": (11, 2), "relic": (5, 2),
}  # fmt: skip
DICE = (2, 5, 1, 3, 6, 2, 4, 1, 7, 3, 2, 8, 1, 4, 3, 5, 2, 6, 1)


def check_goal(state: GameState, board: Board, model: str, goal_text: str) -> None:
    """The goal the AI chose is the books' goal on the board's positions."""
    spec = state.group_spec(model.split("/")[0])
    mission = next((g for g in state.scenario.goals if g.id == spec.goal), None)
    heroes = tuple(HeroFacts(h.id, state.hero_spec(h.id).name, h.threat, h.wounds, h.ko, state.hero_spec(h.id).health,
                             state.hero_spec(h.id).mind, state.hero_spec(h.id).physique) for h in state.heroes)  # fmt: skip
    far = {h.id: distance(board.squares[model], board.squares[h.id]) for h in state.heroes}
    kind, running = reference(Table(Edition(state.scenario.edition), spec.control_area, mission, heroes, far, spec.target_priority))
    if kind == "mission":
        assert "pursues the mission goal" in goal_text, goal_text
    else:
        assert kind == "hero" and any(goal_text.split(" goes for ")[1].startswith(state.hero_spec(h).name) for h in running), (goal_text, running)


def play(path: Path) -> tuple[list[str], list[dict[str, Any]], GameState]:
    text = DEMO.read_text(encoding="utf-8")
    lines: list[str] = []
    with StateFile(path, create=True) as states:
        journal = states.journal(states.new_game(text, str(DEMO)).id)
        board = Board(dict(START), Dice(DICE))
        shown: list[Any] = []
        activation: tuple[Any, ...] = ()
        pending: list[Thunk] = []
        for _ in range(3000):
            state: GameState = journal.state
            if state.over is not None:
                break
            here = (state.clock.absolute, state.turn.token if state.turn else None, state.turn.start if state.turn else None, len(state.acted))
            if here != activation:
                activation, shown, pending = here, [], []
                who = state.turn.token if state.turn else "the table"
                lines.append(f"[{state.clock.hour}:{state.clock.minute:02d}] {who}")
                if state.turn is not None and state.side_of(state.turn.token) is Side.HERO:
                    pending = hero_turn(state, board)
            p: Plan = plan(state)
            for index, step in enumerate(p.steps):
                if index >= len(shown) or shown[index] != step:
                    lines.append(f"  {step.text}")
                    if step.kind == "goal" and state.side_of(state.active or "") is Side.ENEMY and step.model:
                        check_goal(state, board, step.model, step.text)
                    board.follow(state, step)
            shown = list(p.steps)
            event: dict[str, Any] | None = None
            if state.turn is not None and state.side_of(state.turn.token) is Side.HERO and not p.question:
                while event is None and pending:
                    event = pending.pop(0)(state)
            if event is None:
                event = table_event(state, p, board)
            if p.question is not None and event.get("type") == "ai_answer":
                lines.append(f"  ? {p.question.text} -> {', '.join(event['answer'])}")
            elif p.attack is not None and event.get("type") == "enemy_attack":
                assert len(event["dice"]) == p.attack.dice == getattr(state.hero_spec(p.attack.hero), p.attack.defended_with)
                lines.append(f"  ! {state.hero_spec(p.attack.hero).name} rolls {event['dice']}")
            else:
                lines.append(f"  > {json.dumps(event, sort_keys=True)}")
            journal.append(event)
        final = journal.state
        lines.append(f"The end: {final.over}")
        events = journal.events()
    return lines, events, final


def test_the_demo_skirmish_plays_to_its_end_through_the_journal(tmp_path: Path) -> None:
    lines, events, final = play(tmp_path / "game.db")
    if os.environ.get("NOVA_TABLE_REGEN"):
        TRANSCRIPT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    expected = TRANSCRIPT.read_text(encoding="utf-8").splitlines()
    for number, (got, want) in enumerate(zip(lines, expected), start=1):
        assert got == want, f"skirmish.txt line {number}:\n  want: {want}\n  got:  {got}"
    assert len(lines) == len(expected)
    assert final.over is not None
    # the journal is the only truth: resuming the file and replaying the events give the same game
    with StateFile(tmp_path / "game.db") as states:
        resumed = states.journal().state
    assert resumed == final and plan(resumed) == plan(final)
    state = new_game(parse_scenario(DEMO.read_text(encoding="utf-8")))
    for event in events:
        state = apply(state, event)
    assert state == final
    kinds = {e["type"] for e in events}
    assert {"ai_answer", "enemy_attack", "hero_attack", "resolve_event", "end_activation"} <= kinds
