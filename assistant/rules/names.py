"""What the table calls the game's things: a token's name, an Enemy model's, an answer to the Enemy AI."""

from __future__ import annotations

from assistant.rules.state import GameState


def name_of(state: GameState, token_id: str | None) -> str:
    """The name a hero, an enemy group or an event goes by."""
    if token_id is None:
        return "nobody"
    name = state.name(token_id)
    return name if name != token_id else token_id.replace("_", " ").replace("-", " ").capitalize()


def model_name(state: GameState, model: str) -> str:
    """An Enemy model ("group/number") by name: "Papal Guard", or "Slingers 2" in a group of several."""
    group_id, _, number = model.partition("/")
    name = name_of(state, group_id)
    several = any(g.id == group_id and len(g.models) > 1 for g in state.groups)
    return f"{name} {number}" if several and number else name


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
