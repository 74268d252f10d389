"""The activation card: on an Enemy's turn, the active model's whole plan above the buttons, without a tap.

Its AP left and who still acts, its goal and why, its move, each attack with the dice the Hero rolls and the
attack's traits beside it (with what they do), the attacks made; the AI's question or the roll it waits for in the
place of the part it settles, big, and "done" after the rest. What came before (the activation's first sentence,
the models that acted before) is the log's.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from assistant.rules.names import model_name
from assistant.rules.state import GameState
from assistant.rules.traits import trait_effect
from assistant.ui import theme
from assistant.ui.advice import Advice
from assistant.ui.told import Line, question_lines, waiting_words


def active_model(advice: Advice) -> str:
    """The model ("group/n") the card is about: the one asked about or attacking, else the last one in the plan."""
    if advice.attack is not None:
        return f"{advice.attack.group}/{advice.attack.model}"
    if advice.question is not None and advice.question.model:
        return str(advice.question.model)
    return next((model for model in reversed(advice.models) if model), "")


def own(text: str, name: str) -> str:
    """A sentence about the model without its name ("Slingers 2 goes for..." -> "Goes for..."): the card's title names it."""
    if not text.startswith(name + " "):
        return text
    rest = text[len(name) + 1:]
    return rest[:1].upper() + rest[1:]


def how_to_answer(text: str, one_tap: bool) -> str:
    """The question as the card asks it: "(tap all who are equally close)" where a tap answers alone (`one_tap`:
    Several… not tapped) says how to give a tie."""
    return re.sub(r"\(tap all who are equally \w+\)$", "(a tie: Several…, then tap each)", text) if one_tap else text


def title(state: GameState, advice: Advice, model: str) -> str:
    """ "Slingers 2 · 3 AP left · Slingers 3 to act": the model, its AP still to spend, the models still to act."""
    words = [model_name(state, model)]
    ap = dict(advice.ap_left).get(model)
    if ap is not None and not advice.done:
        words.append(f"{ap} AP left")
    group = model.partition("/")[0]
    planned = set(advice.models)
    standing = next((g.standing for g in state.groups if g.id == group), ())
    waiting = [n for n in standing if f"{group}/{n}" not in planned | {model}]
    if waiting and not advice.done:
        words.append(f"{len(waiting)} more to act" if len(waiting) > 1 else f"{model_name(state, f'{group}/{waiting[0]}')} to act")
    return " · ".join(words)


def attack_lines(state: GameState, advice: Advice, model: str, camera: bool) -> list[Line]:
    """The attack waiting for the dice: which (its number this activation), its traits and what they do, the roll big."""
    order = advice.attack
    made = sum(1 for a in state.turn.attacks if f"{a.group}/{a.model}" == model) if state.turn is not None else 0
    hits = f", {order.hits} hit{'s' if order.hits != 1 else ''}" if order.kind == "physical" and order.hits else ""
    area = "In the Area: " if order.area else ""
    mark = advice.mark(len(advice.steps) - 1)  # the attack the AI chose of two: tap it to choose another
    lines = [Line(f"{area}Attack {made + 1}: {order.attack}{hits}", theme.CHOICE if mark else theme.TEXT, mark=mark, keep=3)]
    # (the Hero it attacks is the roll's first word); its traits under it with what they do, kept the longest
    lines += [Line(f"{trait}: {trait_effect(trait)}" if trait_effect(trait) else trait, theme.CHOICE, keep=4) for trait in order.traits]
    roll_lines = question_lines(waiting_words(advice, camera))
    return lines + [roll_lines[0], *(replace(line, keep=1) for line in roll_lines[1:])]  # how: its buttons say it too


def card(state: GameState, advice: Advice, error: str = "", said: Sequence[str] = (), notes: Sequence[str] = (),
         before: Sequence[str] = (), camera: bool = False, several: bool = False) -> tuple[list[Line], list[Line]]:  # fmt: skip
    """(the log, the act lines: a refusal, then the card) of an Enemy activation, as `told.told` says them; a question
    that takes several says how: a tap answers, Several… first for a tie (`several`: tapped, each tap picks)."""
    model = active_model(advice)
    name = model_name(state, model) if model else ""
    log = [Line(note, theme.MUTED) for note in before]
    lines = [Line(error, theme.DANGER)] if error else []
    group_of_many = bool(model) and len(state.group(model.partition("/")[0]).models) > 1  # the header names a group of one
    lines += [Line(title(state, advice, model), theme.TEXT, keep=2)] if group_of_many else []
    for index, text in enumerate(advice.steps):
        kind, mark = advice.kinds[index] if index < len(advice.kinds) else "", advice.mark(index)
        mine = bool(model) and index < len(advice.models) and advice.models[index] == model
        if kind == "done":
            continue
        if advice.attack is not None and index == len(advice.steps) - 1 and kind == "attack":
            continue  # the attack waiting for the dice: its own lines, below
        color = theme.CHOICE if mark else theme.MUTED if kind == "attacked" else theme.TEXT
        if mine:
            lines.append(Line(own(text, name), color, mark=mark, keep=0))
        else:
            log.append(Line(text, theme.CHOICE if mark else theme.TEXT, mark=mark))
    log += [Line(note, theme.MUTED) for note in notes]
    if advice.question is not None:
        lines += question_lines(how_to_answer(str(advice.question.text), advice.question.several and not several))
    elif advice.attack is not None:
        lines += attack_lines(state, advice, model, camera)
    elif advice.done:
        done = next((text for text, kind in zip(advice.steps, advice.kinds) if kind == "done"), "")
        lines.append(Line(done or "End the activation.", theme.ACTIVE, True))
    return log + [Line(words, theme.MUTED) for words in said if words], lines
