"""What the table calls the game's things: a token's name, an Enemy model's, an answer to the Enemy AI."""

from __future__ import annotations

from assistant.rules.questions import Question
from assistant.rules.state import GameState


def name_of(state: GameState, token_id: str | None) -> str:
    """The name a hero, an enemy group or an event goes by."""
    if token_id is None:
        return "nobody"
    name = state.name(token_id)
    return name if name != token_id else token_id.replace("_", " ").replace("-", " ").capitalize()


def model_name(state: GameState, model: str) -> str:
    """An Enemy model ("group/number") by name: "Papal Guard"; "Slingers 2" in a group of several, or where the
    group's name says several (one model of "Guards" is "Guards 1": one, as its verb and "it" say)."""
    group_id, _, number = model.partition("/")
    name = name_of(state, group_id)
    several = any(g.id == group_id and len(g.models) > 1 for g in state.groups)
    return f"{name} {number}" if (several or plural(name)) and number else name


IRREGULAR = {"is": "are", "has": "have", "goes": "go", "does": "do", "was": "were"}


def plural(name: str) -> bool:
    """A name that says several ("Slingers", "Crossbowmen"); "Papal Guard", "Slingers 2" and "Colossus" say one."""
    last = name.split()[-1].lower() if name.split() else ""
    return last.endswith("men") or (last.endswith("s") and not last.endswith(("ss", "us", "is")))


def agree(name: str, verb: str) -> str:
    """`name` and `verb` (as said of one: "activates", "goes", "is") agreeing: "Slingers go", "Papal Guard goes"."""
    if not plural(name):
        return f"{name} {verb}"
    if verb in IRREGULAR:
        return f"{name} {IRREGULAR[verb]}"
    if verb.endswith(("ches", "shes", "sses", "xes")):
        return f"{name} {verb[:-2]}"
    return f"{name} {verb.removesuffix('s')}"


def option_words(state: GameState, option: str) -> str:
    """An answer to the Enemy AI in words: a hero's name, a model's, Yes / No / More, Nobody."""
    if option in ("yes", "no", "more"):
        return option.capitalize()
    if option == "none":
        return "Nobody"
    if any(h.id == option for h in state.heroes):
        return name_of(state, option)
    if "/" in option:
        return model_name(state, option)
    return option


def choice_words(state: GameState, question: Question, option: str) -> str:
    """An answer to `question` in words: "Slingers 2" for which model activates next (its options are numbers)."""
    if question.kind == "next":
        return option_words(state, f"{question.model.partition('/')[0]}/{option}")
    return option_words(state, option)
