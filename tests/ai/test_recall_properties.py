"""Property: in a whole Enemy activation on any board, the AI asks nothing the table's earlier answers already tell,
and what it tells itself instead is what the board would have answered (issue 51, point 6: "Who is closest to
Slingers 2: Sofia or Eleonora?" right after "Several" and "Is Sofia within 6 squares?").

Distances are each model's own (Renaissance "Artificial Intelligence (AI)": "When an Enemy Model activates, carry
out the following steps"; first edition: "Each enemy has their own area of control"), so an answer implies another
only for the same model standing on the same square, with no Hero moved: the board below says when that holds.
"""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.rules.ai import HeroFacts
from assistant.rules.edition import Edition
from assistant.rules.game import apply
from assistant.rules.instructions import plan
from assistant.rules.questions import NO, YES, Answer, Question
from assistant.rules.scenario import AttackSpec
from assistant.rules.state import GameState
from tests.ai.board import Board, Dice, Square, distance
from tests.ai.tables import enemy, hero, table
from tests.ai.test_goal_properties import Table, reference

NAMES = ("ada", "bea", "cal", "dan")
DART = AttackSpec("Dart", "physical", ap=1, range_min=1, range_max=1, threshold=5, defended_with="physique", hits=3)
PRIORITIES = [("standard",), ("closest", "standard"), ("closest", "most_wounds", "standard"), ("farthest", "standard"),
              ("most_wounds", "closest", "standard")]  # fmt: skip


@dataclass(frozen=True)
class Told:
    """One answer the table gave, and where everyone stood when it gave it."""

    question: Question
    answer: Answer
    place: tuple[object, ...]  # the asking model's square and moves told so far, then the Heroes' squares


def implied(told: list[Told], question: Question, place: tuple[object, ...]) -> Answer | None:
    """What the earlier answers of the same model, everyone on the same squares, say of `question` (read plainly)."""
    mine = [t for t in told if t.question.model == question.model and t.place == place]
    if question.kind in ("closest", "farthest"):
        for t in mine:
            if t.question.kind == question.kind and set(question.about) <= set(t.question.about):
                still = tuple(h for h in question.about if h in t.answer)
                if still:
                    return still
    if question.kind == "in_area":
        hero_id = question.about[0]
        inside = {t.question.about[0]: t.answer for t in mine if t.question.kind == "in_area" and t.question.squares == question.squares}
        if hero_id in inside:
            return inside[hero_id]
        for t in mine:
            if t.question.kind in ("closest", "farthest") and hero_id in t.question.about:
                for other in t.answer:
                    if other in inside and (hero_id in t.answer or inside[other] == (NO if t.question.kind == "closest" else YES)):
                        return inside[other]
    return None


def place_of(board: Board, model: str, moves: dict[str, int]) -> tuple[object, ...]:
    """Where everyone stands; a move the AI ordered counts even where the board found no free square to take."""
    squares: tuple[Square, ...] = tuple(board.squares[n] for n in NAMES)
    return (board.squares[model], moves.get(model, 0)) + squares


@settings(max_examples=150, deadline=None)
@given(
    edition=st.sampled_from(["renaissance", "classic"]),
    threats=st.lists(st.integers(0, 3), min_size=4, max_size=4),
    wounds=st.lists(st.integers(0, 1), min_size=4, max_size=4),
    squares=st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), min_size=6, max_size=6, unique=True),
    priority=st.sampled_from(PRIORITIES),
    saves=st.lists(st.booleans(), min_size=16, max_size=16),
)
def test_nothing_asked_is_told_by_earlier_answers_and_what_is_recalled_is_true(
    edition: str, threats: list[int], wounds: list[int], squares: list[tuple[int, int]], priority: tuple[str, ...],
    saves: list[bool],
) -> None:  # fmt: skip
    state: GameState = table(
        edition,
        tuple(hero(n, threat=t, health=3) for n, t in zip(NAMES, threats)),
        (enemy("guard", swiftness=4, models=2, control_area=2, attacks=(DART,), priority=priority),),
        (("guard", 1, "enemy"),) + tuple((n, 5, "hero") for n in NAMES),
    )
    for name, hurt in zip(NAMES, wounds):
        if hurt:
            state = apply(state, {"type": "damage", "hero": name, "wounds": hurt})
    assert state.active == "guard"
    board = Board({"guard/1": squares[0], "guard/2": squares[1], **dict(zip(NAMES, squares[2:]))}, Dice((1, 2)))
    told: list[Told] = []
    recalled: set[str] = set()
    goals = 0
    followed = 0
    moves: dict[str, int] = {}
    rolls = iter(saves)
    for _ in range(80):
        p = plan(state)
        for step in p.steps[followed:]:  # each new instruction once, as the table meets it
            board.follow(state, step)
            if step.kind == "move" and step.squares:
                moves[step.model] = moves.get(step.model, 0) + 1
            if step.kind == "goal" and "goes for" in step.text:  # the goal is the books' on the board as it stands
                goals += 1
                heroes = tuple(HeroFacts(h.id, h.id, h.threat, h.wounds, h.ko) for h in state.heroes)
                far = {n: distance(board.squares[step.model], board.squares[n]) for n in NAMES}
                kind, running = reference(Table(Edition(edition), 2, None, heroes, far, priority))
                assert kind == "hero" and any(step.text.split(" goes for ")[1].startswith(h.title()) for h in running), (step.text, running)
        followed = len(p.steps)
        for question, answer in p.recalled:  # what the AI told itself is what the board says, where it stands now
            if question.key not in recalled:
                recalled.add(question.key)
                assert board.answer(state, question) == answer, (question.text, answer)
        if p.question is not None:
            here = place_of(board, p.question.model, moves)
            assert implied(told, p.question, here) is None, (p.question.text, [(t.question.text, t.answer) for t in told])
            reply = board.answer(state, p.question)
            assert reply is not None
            told.append(Told(p.question, reply, here))
            state = apply(state, {"type": "ai_answer", "question": p.question.key, "answer": list(reply)})
            continue
        if p.attack is not None:
            state = apply(state, p.attack.event([6 if next(rolls, True) else 1] * p.attack.dice))
            continue
        break
    assert (state.over is not None or plan(state).done) and goals >= 1  # three KO Heroes end the mission
