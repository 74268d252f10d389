"""A board model for the tests: positions on an open grid answer the AI's questions without the players.

Squares are counted orthogonally (Manhattan distance), nothing blocks a line of sight. It also
plays the table's part of a skirmish: heroes move toward the nearest Enemy and attack it, the
Enemy models move as the instructions say, and the dice come from a fixed sequence.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from assistant.rules.instructions import AttackOrder, Instruction, Plan, reaction_attacks, reaction_question
from assistant.rules.questions import MORE, NO, YES, Answer, Question
from assistant.rules.state import GameState

Square = tuple[int, int]


def distance(a: Square, b: Square) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


@dataclass
class Dice:
    """A fixed, cycling sequence of d8 results: the only source of 'chance' in a scripted game."""

    faces: Sequence[int]
    index: int = 0

    def roll(self, count: int) -> list[int]:
        rolled = [self.faces[(self.index + i) % len(self.faces)] for i in range(max(1, count))]
        self.index += max(1, count)
        return rolled


@dataclass
class Board:
    squares: dict[str, Square]  # "valerio", "slingers/2", "relic"
    dice: Dice
    log: list[str] = field(default_factory=list)

    # -- the AI's questions ---------------------------------------------------------------------

    def answer(self, state: GameState, question: Question) -> Answer | None:
        kind = question.kind
        if kind == "in_area":
            return YES if distance(self.squares[question.model], self.squares[question.about[0]]) <= question.squares else NO
        if kind in ("closest", "farthest"):
            far = {h: distance(self.squares[question.model], self.squares[h]) for h in question.about}
            best = (min if kind == "closest" else max)(far.values())
            return tuple(h for h in question.about if far[h] == best)
        if kind == "reach":
            group = question.model.split("/")[0]
            attack = next(a for a in state.group_spec(group).attacks if a.name == question.attack)
            d = distance(self.squares[question.model], self.squares[question.about[0]])
            need = 0 if attack.range_min <= d <= attack.range_max else (d - attack.range_max if d > attack.range_max else attack.range_min - d)
            return (str(need),) if str(need) in question.options else (MORE,)
        if kind == "adjacent":
            here = self.squares[question.model]
            return YES if any(distance(here, self.squares[h.id]) == 1 for h in state.heroes if not h.ko) else NO
        if kind == "choose":
            return (question.options[0],)
        if kind == "roll":
            return (str(self.dice.roll(1)[0] % 6 + 1),)
        return None

    # -- moving miniatures ------------------------------------------------------------------------

    def free(self, square: Square, state: GameState) -> bool:
        taken = {s for k, s in self.squares.items() if k != "relic" and self.standing(k, state)}
        return square not in taken

    def standing(self, key: str, state: GameState) -> bool:
        if "/" in key:
            group, number = key.split("/")
            return int(number) in state.group(group).standing if any(g.id == group for g in state.groups) else False
        return key in {h.id for h in state.heroes}

    def step_toward(self, key: str, target: Square, state: GameState, stop: int = 1, away: bool = False) -> bool:
        """One square toward (or away from) `target`, keeping at least `stop` squares; False if it cannot."""
        here = self.squares[key]
        options = [(here[0] + dx, here[1] + dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))]
        now = distance(here, target)
        better = [s for s in options if (distance(s, target) > now if away else stop <= distance(s, target) < now)]
        for square in better:
            if self.free(square, state):
                self.squares[key] = square
                return True
        return False

    def move(self, key: str, target: Square, squares: int, state: GameState, stop: int = 1) -> int:
        moved = 0
        while moved < squares and self.step_toward(key, target, state, stop):
            moved += 1
        return moved

    def follow(self, state: GameState, step: Instruction) -> None:
        """Move an Enemy model as a move instruction says."""
        if step.kind != "move" or not step.model:
            return
        if step.toward == "mission":
            self.move(step.model, self.squares["relic"], step.squares, state, stop=0)
            return
        if step.toward in self.squares:
            target = self.squares[step.toward]
            if distance(self.squares[step.model], target) < 2 and step.squares and "farthest" not in step.text:
                return
            for _ in range(step.squares):
                if not self.step_toward(step.model, target, state, 1) and not self.step_toward(step.model, target, state, 1, away=True):
                    break


def enemies_of(state: GameState) -> list[str]:
    return [f"{g.id}/{n}" for g in state.groups for n in g.standing]


Thunk = Callable[[GameState], "dict[str, Any] | None"]


def hero_turn(state: GameState, board: Board) -> list[Thunk]:
    """What a simple, fixed-minded player does with the active Hero, one event at a time."""
    assert state.turn is not None
    hero = state.turn.token
    if state.hero(hero).ko:
        return [lambda s: {"type": "injury", "card": f"injury-{len(s.hero(hero).injuries) + 1}"}]
    targets = sorted(enemies_of(state), key=lambda m: (distance(board.squares[hero], board.squares[m]), m))
    if not targets:
        return [lambda s: {"type": "end_mission", "result": "victory"}]
    target = targets[0]
    thunks: list[Thunk] = []
    gap = distance(board.squares[hero], board.squares[target])
    ap = state.turn.ap_left
    if gap > 1:
        adjacent = [m for m in enemies_of(state) if distance(board.squares[hero], board.squares[m]) == 1]
        if adjacent:  # Renaissance "Reaction Attacks": before the move, every adjacent Enemy attacks
            question = reaction_question(state, hero)
            answer = [m for m in adjacent if m in question.options] or ["none"]
            for step in reaction_attacks(state, hero, answer):
                order = step.attack
                if order is not None:

                    def reaction(s: GameState, order: AttackOrder = order) -> dict[str, Any] | None:
                        return order.event(board.dice.roll(order.dice))

                    thunks.append(reaction)
        squares = min(gap - 1, ap - 3 if ap > 3 else ap)

        def move(s: GameState) -> dict[str, Any] | None:
            moved = board.move(hero, board.squares[target], squares, s)
            return {"type": "spend_ap", "ap": moved, "action": "move"} if moved else None

        thunks.append(move)

    def attack(s: GameState) -> dict[str, Any] | None:
        if s.turn is None or s.turn.ap_left < 3 or distance(board.squares[hero], board.squares[target]) != 1:
            return None
        if not board.standing(target, s):
            return None
        group, number = target.split("/")
        return {"type": "hero_attack", "group": group, "model": int(number), "ap": 3,
                "dice": board.dice.roll(s.hero_spec(hero).physique)}  # fmt: skip

    thunks.append(attack)
    thunks.append(lambda s: {"type": "end_activation"})
    return thunks


def table_event(state: GameState, p: Plan, board: Board) -> dict[str, Any]:
    """What the table does now apart from playing a Hero: answer the AI, roll for an attack, resolve, order."""
    if state.due:
        return {"type": "resolve_event", "event": state.due[0]}
    if state.turn is None:
        if state.ties:
            return {"type": "order", "ids": list(state.ties[0])}
        return {"type": "resolve_event", "event": state.queue[0]}
    if p.question is not None:
        answer = board.answer(state, p.question)
        assert answer is not None, p.question
        return {"type": "ai_answer", "question": p.question.key, "answer": list(answer)}
    if p.attack is not None:
        return p.attack.event(board.dice.roll(p.attack.dice))
    assert p.done, p
    return {"type": "end_activation"}
