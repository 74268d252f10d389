"""Status Tokens on Heroes and Enemy models: gained, discarded, and the reminders at the start and end of an
activation (Renaissance "Status Tokens", "Hero or Ally Activation" 1a and 3a; first edition "Status Effects")."""

from __future__ import annotations

from dataclasses import replace

from assistant.rules.edition import Edition
from assistant.rules.errors import RuleError, shown
from assistant.rules.fields import Fields
from assistant.rules.names import model_name
from assistant.rules.questions import listing
from assistant.rules.state import GameState

# Renaissance "Hero or Ally Activation" / "Enemy Activation": the tokens the rulebook names by when they trigger
# (the Handbook has the rest): "at the beginning of its Activation (such as Stunned or Reaction 1)", "(such as
# Stunned or Unloaded)"; "at the end of its Activation (such as Burned)".
AT_START = ("stunned", "reaction 1", "unloaded")
AT_END = ("burned",)

# First edition "Status Effects": the tokens discarded "at the end of the character activation".
CLASSIC_END = {"blinded": "The character cannot attack during its activation",
               "stunned": "loses one die in Ph and Mi upon their next activation"}  # fmt: skip
CLASSIC_EFFECTS = {
    "weakness 1": "roll one less die for a test, then discard it",
    "strength 1": "may discard it to roll an extra die for a test",
    "weakness 2": "roll two less dice for a test, then discard it",
    "strength 2": "may discard it to roll two extra dice for a test",
    "distracted": "-1 strike and contrast on the next attack, then discard it",
    "re-roll": "may discard it after a test to re-roll one die",
    "cursed": "-1 on every die of a test, then discard it",
    "blessed": "may discard it before a test for +1 on every die",
    "blinded": "cannot attack this activation; discarded at its end",
    "defence": "may discard it to ignore one wound of a physical attack",
    "stunned": "one die less in Ph and Mi this activation; discarded at its end",
}


# The Status Tokens an Enemy attack's trait may name and give the Hero it wounds: those the books name (Renaissance
# "Hero or Ally Activation": Stunned, Burned; first edition "Status Effects") and the demo's Poisoned
# (docs/rules.md); any other trait stays a reminder beside the attack.
STATUS_TRAITS = ("stunned", "burned", "poisoned", "bleeding", "blinded", "cursed", "distracted", "hindered",
                 "weakness 1", "weakness 2")  # fmt: skip


def status_traits(traits: tuple[str, ...]) -> tuple[str, ...]:
    """The traits of an attack that are Status Tokens its target gains."""
    return tuple(trait.strip() for trait in traits if trait.strip().lower() in STATUS_TRAITS)


def hero_gains(state: GameState, hero_id: str, token: str) -> GameState:
    """A Status Token gained by a Hero, said in a note; one they already hold is discarded ("Status Tokens")."""
    hero = state.hero(hero_id)
    who = state.name(hero_id)
    if any(t.lower() == token.lower() for t in hero.statuses):
        return replace(state, notes=state.notes + (f"{who} already has {token}: the new one is discarded",))
    state = state.with_hero(replace(hero, statuses=hero.statuses + (token,)))
    return replace(state, notes=state.notes + (f"{who} gains {token}",))


def status(state: GameState, f: Fields) -> GameState:
    """A Status Token gained (`gain`, the default) or discarded by a Hero (`hero`) or an Enemy model (`group`, `model`).

    Renaissance "Status Tokens": no Model holds two identical ones: "If a Model gains a Status Token they already
    have, they immediately discard it". A KO Hero suffers no game effect ("KO Hero").
    """
    token = f.text("token").strip()
    gain = f.flag("gain", True)
    if f.has("hero"):
        hero = state.hero(f.text("hero"))
        if gain and (hero.ko or hero.removed):
            raise RuleError("hero", f"{state.name(hero.id)} is KO: a KO Hero suffers no game effect")
        held, who = hero.statuses, state.name(hero.id)
    else:
        group = state.group(f.text("group"))
        number = f.integer("model", group.standing[0] if group.standing else 1, low=1, high=max(1, len(group.models)))
        if not group.models or group.models[number - 1].defeated:
            raise RuleError("model", f"model {number} of {shown(group.id)} is not on the battlefield")
        held, who = group.models[number - 1].statuses, model_name(state, f"{group.id}/{number}")
    same = [t for t in held if t.lower() == token.lower()]
    if gain and same:
        return replace(state, notes=state.notes + (f"{who} already has {token}: the new one is discarded",))
    if not gain and not same:
        raise RuleError("token", f"{who} has no {token} (has: {', '.join(held) or 'none'})")
    after = held + (token,) if gain else tuple(t for t in held if t.lower() != token.lower())
    state = _with_statuses(state, f, after)
    return replace(state, notes=state.notes + (f"{who} {'gains' if gain else 'discards'} {token}",))


def _with_statuses(state: GameState, f: Fields, statuses: tuple[str, ...]) -> GameState:
    if f.has("hero"):
        return state.with_hero(replace(state.hero(f.text("hero")), statuses=statuses))
    group = state.group(f.text("group"))
    number = f.integer("model", group.standing[0] if group.standing else 1)
    models = list(group.models)
    models[number - 1] = replace(models[number - 1], statuses=statuses)
    return state.with_group(replace(group, models=tuple(models)))


def start_reminder(edition: Edition, who: str, held: tuple[str, ...]) -> str:
    """What the tokens `who` holds do as the activation starts, in one sentence ("" when none)."""
    if not held:
        return ""
    if edition is Edition.CLASSIC:  # "before performing any actions the status tokens ... take effect"
        said = [f"{t} ({CLASSIC_EFFECTS[t.lower()]})" if t.lower() in CLASSIC_EFFECTS else t for t in held]
        return f"{who} holds {listing(said)}: their effects are applied now, all at once."
    start = [t for t in held if t.lower() in AT_START]
    end = [t for t in held if t.lower() in AT_END]
    other = [t for t in held if t.lower() not in AT_START + AT_END]
    parts = [f"{listing(start)} now" if start else "", f"{listing(end)} at the end of the activation" if end else "",
             f"{listing(other)} when the Handbook says" if other else ""]  # fmt: skip
    return f"{who} holds {listing(held)}: apply {listing([p for p in parts if p])}."


def end_of_activation(state: GameState, hero_id: str) -> GameState:
    """The tokens of the Hero ending their activation that trigger then (Renaissance: Burned), said in a note; first
    edition: Blinded and Stunned are discarded then."""
    hero = state.hero(hero_id)
    if state.edition is Edition.CLASSIC:
        gone = [t for t in hero.statuses if t.lower() in CLASSIC_END]
        if not gone:
            return state
        state = state.with_hero(replace(hero, statuses=tuple(t for t in hero.statuses if t not in gone)))
        return replace(state, notes=state.notes + (f"{state.name(hero_id)} discards {listing(gone)}: the activation ends",))
    due = [t for t in hero.statuses if t.lower() in AT_END]
    if not due:
        return state
    return replace(state, notes=state.notes + (f"{state.name(hero_id)}: apply {listing(due)} now, at the end of the activation",))
