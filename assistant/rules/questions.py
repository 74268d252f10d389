"""The facts the Enemy AI asks the table for: questions, answers, and who may answer them.

The AI is a pure function of (state, answers so far) that returns either the next Question or
its decision. An answer is a tuple of strings taken from the question's `options` (one for a
yes/no, a number or a pick; several for "the closest" when heroes are equally close), kept by
`key` for the rest of the activation and journaled as an `ai_answer` event, so a replay asks
nothing and decides the same. The players answer by tapping; a board model that knows the
positions can answer the same questions (see `Oracle`) without them.

Question kinds and what answers them:

    in_area    is hero `about[0]` within `squares` squares of `model`?        yes / no
    closest    which of `about` is closest to `model`? (several if equal)     hero ids
    farthest   which of `about` is farthest from `model`? (several if equal)  hero ids
    choose     the players pick one of `about` (tie-breaks spent)            a hero id
    roll       a die the table rolls to break a tie (first edition)           the die result
    reach      squares `model` must move to attack `about[0]` with `attack`   0..n or "more"
               (range `squares`.., line of sight; the farthest such square for ranged attacks)
    adjacent   is `model` adjacent to a Hero (now / at the end of its move)?  yes / no
    in_area_heroes  which other Heroes are in the Area of `attack` on `about[0]`  hero ids, or "none"
    patrol     the Swiftness die rolled for a Patrol                           the die result
    attack     open choice: which attack `model` makes (Eclectic)             an attack name
    next       open choice: which model of the group activates next           a model number

A question with a `default` is an open choice the AI has already made (where the books leave
the choice to the table, "always make the best choice for the Enemies"); it does not wait for
an answer, and an answer overrides it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from assistant.rules.errors import RuleError, shown

Answer = tuple[str, ...]
Answers = Mapping[str, Answer]
YES: Answer = ("yes",)
NO: Answer = ("no",)
YES_NO = ("yes", "no")
MORE = "more"


@dataclass(frozen=True)
class Question:
    """One fact the AI needs (or one choice it made that the table may override)."""

    key: str
    kind: str
    text: str
    options: tuple[str, ...]
    model: str = ""  # the Enemy model asking, "group/number"
    about: tuple[str, ...] = ()  # the heroes (or models) it is about
    squares: int = 0  # a Control Area or the longest range of an attack
    attack: str = ""  # the attack a `reach` question is about
    several: bool = False  # the answer may hold several options
    default: Answer | None = None  # set: an open choice already made; an answer overrides it
    why: str = ""  # what led to the question, in words, with the rule

    @property
    def blocking(self) -> bool:
        """True when the AI waits for this answer (False for an open choice it already made)."""
        return self.default is None


Oracle = Callable[[Question], "Answer | None"]
"""Answers a question from what it knows (a board model, the `ai_goal` request), or None."""


def check_answer(question: Question, value: object, field: str = "answer") -> Answer:
    """An answer as stored: a tuple of strings from the question's options; RuleError otherwise."""
    items: Sequence[object]
    if isinstance(value, list):
        items = value
    elif isinstance(value, bool):
        items = ["yes" if value else "no"]
    else:
        items = [value]
    answer: list[str] = []
    for index, item in enumerate(items):
        text = str(item) if isinstance(item, int) and not isinstance(item, bool) else item
        if not isinstance(text, str) or text not in question.options:
            where = field if len(items) == 1 else f"{field}[{index}]"
            raise RuleError(where, f"must be one of {', '.join(question.options)}, not {shown(item)} ({question.text})")
        if text not in answer:
            answer.append(text)
    if not answer:
        raise RuleError(field, f"must name at least one of {', '.join(question.options)}")
    if len(answer) > 1 and not question.several:
        raise RuleError(field, f"takes one answer, not {len(answer)} ({question.text})")
    return tuple(answer)


def answered(question: Question, answers: Answers) -> Answer | None:
    """The table's answer, or the AI's own choice for an open question, or None."""
    found = answers.get(question.key)
    return found if found is not None else question.default


def listing(names: Sequence[str], last: str = "and") -> str:
    """'A', 'A and B', 'A, B and C'."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + f" {last} " + names[-1]


def counted(number: int, noun: str, nouns: str = "") -> str:
    """'1 wound', '2 wounds', '0 wounds'; `nouns` where the plural is not the noun and an s ('successes')."""
    return f"{number} {noun if number == 1 else nouns or noun + 's'}"


def die_faces(count: int) -> int:
    """The die a first-edition tie is rolled on: a d6, or a d8 for 7 or 8 candidates."""
    return 6 if count <= 6 else 8


def die_split(count: int) -> tuple[int, int]:
    """(results per candidate, highest result that counts) when a die picks one of `count`."""
    faces = die_faces(count)
    per = max(1, faces // count)
    return per, per * count


def die_pick(candidates: Sequence[str], result: int) -> str | None:
    """The candidate a die result picks (None: roll again), candidates in the order listed."""
    per, top = die_split(len(candidates))
    if not 1 <= result <= top:
        return None
    return candidates[(result - 1) // per]


def die_legend(names: Sequence[str]) -> str:
    """'1-3 Novice, 4-6 Scum' (and 'roll again on 5-6' when the faces do not split evenly)."""
    per, top = die_split(len(names))
    parts = []
    for index, name in enumerate(names):
        low, high = index * per + 1, (index + 1) * per
        parts.append(f"{low}-{high} {name}" if high > low else f"{low} {name}")
    faces = die_faces(len(names))
    if top < faces:
        parts.append(f"roll again on {top + 1}" + (f"-{faces}" if faces > top + 1 else ""))
    return ", ".join(parts)
