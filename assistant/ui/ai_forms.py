"""Forms for the Enemy AI: the Hero's defence against an ordered attack, several answers, and overriding a choice.

Pure (no pygame). Events are the rules core's `enemy_attack` (through `AttackOrder.event`) and
`ai_answer`, and `declare_move` for the Enemies adjacent to a Hero who declares a Move.
"""

from __future__ import annotations

from typing import Any

from assistant.rules.edition import term
from assistant.rules.instructions import AttackOrder
from assistant.rules.names import choice_words, model_name, option_words
from assistant.rules.questions import Question, counted
from assistant.rules.reactions import NOBODY
from assistant.rules.state import GameState
from assistant.ui.form import Choice, Dice, Field, Form, Number, link_dice_count
from assistant.ui.reactions import declare_event
from assistant.ui.rerolls import by_attacker


MAX_DICE = 12


def defence_form(state: GameState, order: AttackOrder, name: str = "ai_defence") -> Form:
    """The Hero's Defense Test against an attack the AI ordered: only the dice to read or type."""
    hero = state.scenario.hero(order.hero)
    fields: list[Field] = [Number("dice_count", "Dice", 0, MAX_DICE, order.dice), Dice("dice", "Roll", hero.die, test=True)]
    title = f"{hero.name}: {term(state.edition, order.defended_with.capitalize())} {order.threshold}+"
    effect = (f"{counted(order.hits or 0, 'hit')}, each success cancels one" if order.kind == "physical"
              else f"{counted(order.contrast or 0, 'success', 'successes')} {'resists' if order.contrast == 1 else 'resist'}")
    note = f"{'Reaction Attack: ' if order.reaction else ''}{model_name(state, f'{order.group}/{order.model}')}, {order.attack}: {effect}."
    form = Form(name, title, fields, lambda form: dict(order.event(form.value("dice"))),
                lambda form: link_dice_count(form), apply_label="Resolve", start="dice", note=note)  # fmt: skip
    form.forced = lambda form: by_attacker(state, order.group, order.kind, order.threshold)  # Inspire
    return form



def several_form(state: GameState, question: Question, name: str = "ai_several") -> Form:
    """A question the table may answer with several options (heroes equally close, adjacent models): yes or no each.

    "react_several" answers who is adjacent to a Hero who declares a Move (nobody picked: nobody adjacent).
    """
    options = [o for o in question.options if o != NOBODY]
    fields: list[Field] = [Choice(option, option_words(state, option), [(False, "no"), (True, "yes")]) for option in options]
    adjacency = name == "react_several"

    def build(form: Form) -> dict[str, Any]:
        picked = [option for option in options if form.value(option)]
        if adjacency:
            return declare_event(picked)
        if not picked:
            raise ValueError("Pick at least one")
        return {"type": "ai_answer", "question": question.key, "answer": picked}

    title = "Who is adjacent?" if adjacency else "Equally close"
    return Form(name, title, fields, build, apply_label="Answer")


def current_answer(state: GameState, question: Question) -> str:
    """The answer in force for an open choice: the table's override, else the AI's own choice."""
    answers = state.turn.answer_map() if state.turn is not None else {}
    value: tuple[str, ...] = answers.get(question.key) or question.default or question.options[:1]
    return str(value[0])


def choice_label(question: Question) -> str:
    """An open choice named in two words."""
    return {"next": "Who acts next", "attack": "Which attack"}.get(question.kind, question.kind.capitalize())


def override_form(state: GameState, choices: tuple[Question, ...], key: str = "") -> Form:
    """Override an open choice the AI made: which decision (if several), then the option; an `ai_answer`."""
    by_key = {q.key: q for q in choices}
    first = by_key.get(key, choices[-1])  # from the menu: the latest choice, the one the table just saw
    which = Choice("which", "Decision", [(q.key, choice_label(q)) for q in choices], show=lambda form: len(choices) > 1)
    which.select(first.key)
    answer = Choice("answer", "Choice", [(o, choice_words(state, first, o)) for o in first.options])
    answer.select(current_answer(state, first))
    shown = [first.key]

    def update(form: Form) -> None:
        question = by_key[form.value("which")]
        if shown[0] != question.key:  # another decision: its options, the one in force selected
            shown[0] = question.key
            answer.options = [(o, choice_words(state, question, o)) for o in question.options]
            answer.index = 0
            answer.select(current_answer(state, question))
        chosen = choice_words(state, question, str((question.default or ("",))[0]))
        form.note = f"{question.text} The AI chose {chosen}. {question.why[:1].upper()}{question.why[1:]}."

    def build(form: Form) -> dict[str, Any]:
        return {"type": "ai_answer", "question": form.value("which"), "answer": form.value("answer")}

    return Form("ai_choice", "Override the AI", [which, answer], build, update, apply_label="Override", start="answer")


def counted_dice(state: GameState, order: AttackOrder, saved: int) -> list[int]:
    """A Defense Test given as its count of successes: that many dice on the die's top face, the rest on 1 (the
    journal's dice say the successes as counted, not the faces rolled)."""
    sides = state.scenario.hero(order.hero).die
    return [sides] * saved + [1] * (order.dice - saved)


def by_count(state: GameState, order: AttackOrder) -> bool:
    """Whether only the count of successes matters to the Hero's Defense Test: no Status Token on the Hero, no Enemy's
    Skill forcing a re-roll, a threshold the die can reach and miss (the Hero's own re-rolls: Defence roll)."""
    hero = state.hero(order.hero)
    sides = state.scenario.hero(order.hero).die
    return (not hero.statuses and 1 < order.threshold <= sides and order.dice > 0
            and not by_attacker(state, order.group, order.kind, order.threshold))


def count_labels(order: AttackOrder) -> list[tuple[int, str]]:
    """The counts worth telling apart, as buttons: 0 to the hits ("1 saved"), or 0 to the Contrast ("2 of 2")."""
    if order.kind == "physical":
        return [(n, f"{n} saved") for n in range(min(order.dice, order.hits or 0) + 1)]
    need = order.contrast or 0
    return [(n, f"{n} of {need}") for n in range(min(order.dice, need) + 1)]
