"""A game as a fold: `new_game(scenario)`, then `apply(state, event)` for every event in order.

An event is a JSON object with a "type"; `EVENTS` lists them. `apply` raises RuleError, naming
the field at fault, for an event the rules refuse, and never changes the state it was given.
After each event the Horologium runs on by itself as far as it can: the hand moves to the next
stop, timed events fall due, and the next model starts its activation; it stops where the table
must act (resolve an event, order a tie, play an activation).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from assistant.rules.draft import place_draft
from assistant.rules.edition import Edition, term
from assistant.rules.errors import RuleError, shown
from assistant.rules.fields import Fields
from assistant.rules.fights import damage, discard_at_end, enemy_attack, equipment_wounds, heal, hero_attack
from assistant.rules.flow import active_hero, finish_turn, move_active, run_clock
from assistant.rules.horologium import Clock, Side, Token, forced_wait, roman
from assistant.rules.names import agree, choice_words, model_name, name_of
from assistant.rules.instructions import plan
from assistant.rules.loot import SPLITS, split_words
from assistant.rules.out_of_action import RESULTS, out_of_action
from assistant.rules.perilium import MAX_THREAT, adjust
from assistant.rules.questions import YES, check_answer, counted, listing
from assistant.rules.reactions import declare_move, make_move
from assistant.rules.scenario import Scenario
from assistant.rules.state import UNDECIDED, Answer, GameState, GroupState, HeroState, ModelState
from assistant.rules.statuses import end_of_activation, status
from assistant.rules.stealth import raise_alarm, stealth_active, stealth_roll


def new_game(scenario: Scenario) -> GameState:
    """The table as the scenario sets it, with the hand already at its first stop."""
    tokens: list[Token] = []
    heroes = {h.id: h for h in scenario.heroes}
    groups = {g.id: g for g in scenario.enemies}
    for index, placed in enumerate(scenario.horologium.tokens):
        side = Side.parse(placed.side, f"horologium.tokens[{index}].side")
        swiftness = 0
        if side is Side.HERO:
            if placed.token not in heroes:
                raise RuleError(f"horologium.tokens[{index}].token", f"no hero {shown(placed.token)} in the scenario")
            swiftness = heroes[placed.token].swiftness
        elif side is Side.ENEMY:
            if placed.token not in groups:
                raise RuleError(f"horologium.tokens[{index}].token", f"no enemy group {shown(placed.token)}")
            swiftness = groups[placed.token].swiftness
        if any(t.id == placed.token for t in tokens):
            raise RuleError(f"horologium.tokens[{index}].token", f"{shown(placed.token)} is on the Horologium twice")
        tokens.append(Token(placed.token, side, placed.sector, swiftness))
    state = GameState(
        scenario=scenario,
        clock=Clock(scenario.horologium.hour, scenario.horologium.minute),
        tokens=tuple(tokens),
        heroes=tuple(HeroState(h.id, threat=h.threat) for h in scenario.heroes),
        groups=tuple(GroupState(g.id, tuple(ModelState() for _ in range(g.models))) for g in scenario.enemies),
        notes=(f"{scenario.title}: set up",),
    )
    return run_clock(state, first=True)


def apply(state: GameState, event: Mapping[str, Any]) -> GameState:
    """The state after one event; RuleError if the rules refuse it."""
    if not isinstance(event, Mapping):
        raise RuleError("event", f"must be a JSON object, not {shown(event)}")
    fields = Fields(event, known={"type"})
    kind = fields.text("type")
    handler = EVENTS.get(kind)
    if handler is None:
        raise RuleError("type", f"unknown event {shown(kind)} (one of {', '.join(EVENTS)})")
    settles = kind == "end_mission" and state.over in UNDECIDED  # the mission card says what the time's end is
    if state.over is not None and not settles:
        raise RuleError("type", f"the mission is over ({state.over}); {shown(kind)} can no longer happen")
    after = handler(replace(state, notes=()), fields)
    fields.finish()
    done = discard_at_end(run_clock(replace(after, count=state.count + 1)))
    if done.over is not None:  # "the Mission ends immediately": nobody is active any more, nothing waits its turn
        done = replace(done, turn=None, queue=(), ties=(), due=(), reactions=())
    return done


def _order(state: GameState, f: Fields) -> GameState:
    """The players order a tie ("Models Activation": ties among Heroes, or among Enemies)."""
    ids = tuple(str(x) for x in f.array("ids"))
    for group in state.ties:
        if sorted(group) == sorted(ids):
            queue = list(state.queue)
            at = min(queue.index(i) for i in group)
            queue[at : at + len(group)] = ids
            ties = tuple(g for g in state.ties if g != group)
            return replace(state, queue=tuple(queue), ties=ties, notes=state.notes + ("Order: " + ", ".join(map(state.name, ids)),))
    open_ties = "; ".join(", ".join(g) for g in state.ties) or "none"
    raise RuleError("ids", f"must be one of the ties to order, in order (ties: {open_ties})")


def _resolve_event(state: GameState, f: Fields) -> GameState:
    """Renaissance "Event Tokens": events resolve before the activations of their sector."""
    event_id = f.text("event")
    keep = f.flag("keep", False)
    if event_id in state.due:
        return replace(state, due=tuple(e for e in state.due if e != event_id), notes=state.notes + (f"Event {name_of(state, event_id)} resolved",))
    if state.queue and state.queue[0] == event_id and state.token(event_id).side is Side.EVENT:
        if keep:
            return replace(state, queue=state.queue[1:], acted=state.acted + (event_id,), notes=state.notes + (f"{name_of(state, event_id)} resolved",))
        return replace(state.without_token(event_id), notes=state.notes + (f"{name_of(state, event_id)} resolved and removed",))
    waiting = list(state.due) + [q for q in state.queue[:1] if state.token(q).side is Side.EVENT]
    raise RuleError("event", f"{shown(event_id)} is not an event due now (due: {', '.join(waiting) or 'none'})")


def _spend_ap(state: GameState, f: Fields) -> GameState:
    """Renaissance "Action Points": each AP a Hero spends moves their token one sector."""
    hero = active_hero(state, f)
    assert state.turn is not None
    ap = f.integer("ap", low=1)
    if ap > state.turn.ap_left:
        raise RuleError("ap", f"{state.name(hero.id)} has {state.turn.ap_left} AP left, not {ap}")
    action = f.text("action", "action")
    state = move_active(make_move(state), ap)
    return replace(state, notes=state.notes + (f"{state.name(hero.id)}: {action}, {ap} AP",))


def _end_activation(state: GameState, f: Fields) -> GameState:
    """End the active model's activation, with the edition's forced Wait for a Hero (`forced_wait`)."""
    if state.turn is None:
        raise RuleError("type", "nobody is active")
    turn = state.turn
    skip = f.flag("skip", False)  # an Enemy's activation ended with the AI's question unanswered, on purpose
    if state.side_of(turn.token) is Side.ENEMY and not skip:
        asked = plan(state).question
        if asked is not None:
            raise RuleError("type", f"the AI still asks: {asked.text} Answer it first (or end with \"skip\": true to "
                                    "skip the rest of this activation)")  # fmt: skip
    if state.side_of(turn.token) is Side.HERO:
        hero = state.hero(turn.token)
        _reaction_first(state)
        if hero.ko and state.edition is Edition.CLASSIC:  # put out of action by a model reacting to them
            return finish_turn(state, f"{state.name(hero.id)} is out of action: the activation ends")
        if hero.ko:
            raise RuleError("type", f"{state.name(hero.id)} is KO: they draw an Injury (event 'injury')")
        token = state.token(turn.token)
        enemies = [t.sector for t in state.tokens if t.side is Side.ENEMY]
        ally = state.hero_spec(hero.id).role == "ally"  # its token moved at activation; 2e speaks of "the Hero"
        wait, _ = (0, 0) if ally else forced_wait(turn.start, token.sector, turn.ap_left, enemies, state.edition)
        if wait:
            before = state.reactions
            state = move_active(state, wait)
            passed = [t for t in state.reactions if t not in before]
            said = f"{state.name(hero.id)} must Wait {wait} AP to {'pass' if passed else 'reach'} an Enemy token"
            if passed:  # first edition "Reaction": the Wait overtook a token; its models may react before the end
                state = replace(state, turn=replace(state.turn, ap_left=0) if state.turn else None)
                return replace(state, notes=state.notes + (f"{said}: {listing([state.name(t) for t in passed])} may react; "
                                                           "then end the activation",))  # fmt: skip
            return end_of_activation(finish_turn(state, said), hero.id)
        return end_of_activation(finish_turn(state, f"{state.name(hero.id)} ends the activation"), hero.id)
    return finish_turn(state, f"{agree(state.name(turn.token), 'ends')} the activation")


def _reaction_first(state: GameState) -> None:
    """First edition "Reaction": the activation ends only once the models that react to the Hero are done."""
    if state.edition is not Edition.CLASSIC or not state.reactions:
        return
    pending = plan(state)
    if pending.question is not None:
        raise RuleError("type", f"a Reaction is still to be settled first: {pending.question.text}")
    if pending.attack is not None:
        raise RuleError("type", f"a Reaction is still to be settled first: {model_name(state, f'{pending.attack.group}/{pending.attack.model}')} "
                                f"attacks {state.name(pending.attack.hero)} (enemy_attack)")  # fmt: skip


def _injury(state: GameState, f: Fields) -> GameState:
    """Renaissance "KO Hero" / "Injury Cards": a KO Hero draws an Injury instead of activating."""
    card = f.text("card")
    if state.turn is None or state.side_of(state.turn.token) is not Side.HERO or not state.hero(state.turn.token).ko:
        raise RuleError("type", "an Injury is drawn when a KO Hero would activate; none is activating")
    hero = state.hero(state.turn.token)
    if card in hero.injuries:
        raise RuleError("card", f"{state.name(hero.id)} already has {shown(card)}: draw another")
    state = state.with_hero(replace(hero, injuries=hero.injuries + (card,)))
    return finish_turn(state, f"{state.name(hero.id)} draws an Injury: {card}")


def _out_of_action(state: GameState, f: Fields) -> GameState:
    """First edition "Out of action": a hero removed from the game rolls 1d6 on the table (a malus of 1 for each
    mission ended with a minor wound not healed); Serious and Minor wounds join the hero's injuries."""
    if state.edition is not Edition.CLASSIC:
        raise RuleError("type", "the Out of action table is the first edition's (Renaissance: Injury Cards)")
    hero = state.hero(f.text("hero"))
    if not hero.removed:
        raise RuleError("hero", f"{state.name(hero.id)} is not removed from the game: the table is rolled when a hero is")
    malus = f.integer("malus", 0, low=0)
    result = out_of_action(f.integer("die"), malus)
    if result != "Unharmed":
        state = state.with_hero(replace(hero, injuries=hero.injuries + (result,)))
    rolled = f"{f.integer('die')}" + (f" - {malus}" if malus else "")
    return replace(state, notes=state.notes + (f"{state.name(hero.id)}, out of action: {rolled}: {result}: {RESULTS[result]}",))


def _threat(state: GameState, f: Fields) -> GameState:
    """A change of the Perilium by a Skill's cost, a mission rule or a correction."""
    hero = state.hero(f.text("hero"))
    delta = f.integer("delta", low=-MAX_THREAT, high=MAX_THREAT)
    state = state.with_hero(replace(hero, threat=adjust(hero.threat, delta)))
    return replace(state, notes=state.notes + (f"{state.name(hero.id)}: {term(state.edition, 'Threat')} {delta:+d}, now {state.hero(hero.id).threat}",))


def _swiftness(state: GameState, f: Fields) -> GameState:
    """A Hero's Swiftness changed during the mission (an Injury Card, an effect): the AP of their next activations
    ("When a Model Activates, it gains Action Points equal to its Swiftness") and their token's rank in a sector."""
    hero = state.hero(f.text("hero"))
    value = f.integer("value", low=0, high=20)
    state = state.with_hero(replace(hero, swiftness=value))
    if state.has_token(hero.id):
        state = state.with_token(replace(state.token(hero.id), swiftness=value))
    return replace(state, notes=state.notes + (f"{state.name(hero.id)}: {term(state.edition, 'Swiftness')} now {value}",))


def _location(state: GameState, f: Fields) -> GameState:
    """Renaissance "Location Card": a Hero enters one (off the Battlefield, Enemies ignore them) or exits it."""
    if state.edition is not Edition.RENAISSANCE:
        raise RuleError("type", "Location Cards are a Renaissance rule")
    hero = state.hero(f.text("hero"))
    enter = f.flag("enter", True)
    if hero.location == enter:
        raise RuleError("enter", f"{state.name(hero.id)} is {'already' if enter else 'not'} on a Location Card")
    state = state.with_hero(replace(hero, location=enter))
    said = "enters a Location Card: Enemies ignore them" if enter else "leaves the Location Card for the Battlefield"
    return replace(state, notes=state.notes + (f"{state.name(hero.id)} {said}",))


def _move_token(state: GameState, f: Fields) -> GameState:
    """Place a token in a sector (a mission instruction or a correction); KO tokens never move."""
    token = state.token(f.text("token"))
    if state.active == token.id:
        raise RuleError("token", f"{name_of(state, token.id)} is active: spend AP to move it")
    sector = f.sector("sector")
    if token.ko and sector != token.sector:
        raise RuleError("token", f"{name_of(state, token.id)} is KO: a KO Hero's token never leaves its sector")
    state = state.placed(replace(token, sector=sector))
    return replace(state, notes=state.notes + (f"{name_of(state, token.id)}'s token placed in sector {roman(sector)}",))


def _ai_answer(state: GameState, f: Fields) -> GameState:
    """A fact the Enemy AI asked for, or the table's override of a choice it made (see `instructions`)."""
    key = f.text("question")
    if state.turn is None:
        raise RuleError("question", "no activation is in progress: the AI asks nothing now")
    asked = plan(state)
    question = asked.question_for(key) or asked.recalled_question(key)  # an older journal may answer what is now recalled
    if question is None:
        pending = asked.question.key if asked.question else "nothing"
        raise RuleError("question", f"{shown(key)} is not asked now (asked: {pending})")
    value = check_answer(question, f.raw("answer"))
    turn = state.turn
    answers = tuple(a for a in turn.answers if a.key != key) + (Answer(key, value),)
    words = ", ".join(choice_words(state, question, option) for option in value)
    state = replace(state, turn=replace(turn, answers=answers), notes=state.notes + (f"{question.text} {words}",))
    if question.kind == "adjacent" and value == YES:
        state = raise_alarm(state, f"an Enemy is adjacent to a Hero ({model_name(state, question.model)})")
    if key.startswith("react:") and value == YES and question.model not in state.reacted:
        state = replace(state, reacted=state.reacted + (question.model,))
    return state


def _draft(state: GameState, f: Fields) -> GameState:
    """Renaissance "Enemy Draft": the Draft Cards the table drew, in order; models and tokens placed."""
    cards = [str(c) for c in f.array("cards")]
    order = None
    if f.has("event"):
        event_id = f.text("event")
        order = next((e.draft for e in state.scenario.events if e.id == event_id and e.draft is not None), None)
        if order is None:
            raise RuleError("event", f"no event {shown(event_id)} with an Enemy Draft in the scenario")
    squares = f.integer("squares", order.squares if order else ..., low=1)
    sector = f.sector("sector") if f.has("sector") else (order.sector if order else None)
    return place_draft(state, cards, squares, sector, order)


def _stealth_roll(state: GameState, f: Fields) -> GameState:
    """Renaissance "Stealth Card": the Swiftness dice a Hero rolls after a Movement Action (1 + AP spent)."""
    hero = active_hero(state, f)
    assert state.turn is not None
    ap = f.integer("ap", 0, low=0, high=state.turn.ap_left)
    dice = f.dice()
    if len(dice) != ap + 1:
        raise RuleError("dice", f"{state.name(hero.id)} rolls {ap + 1} dice (1 + {ap} AP), not {len(dice)}")
    if ap:
        state = move_active(state, ap)
    return stealth_roll(state, dice)


def _alarm(state: GameState, f: Fields) -> GameState:
    """Renaissance "Stealth Token": the table raises the alarm (a mission rule, or what the AI could not see)."""
    if not stealth_active(state):
        raise RuleError("type", "the Stealth rule is not active (no track in this mission, or the alarm is raised)")
    return raise_alarm(state, f.text("cause", "the table raises the alarm"))


def _end_mission(state: GameState, f: Fields) -> GameState:
    """Renaissance "End of a Mission": a Victory or Defeat condition met, or (after the time's end, or with no token
    left) which of them that end is, as the mission card says."""
    result = f.choice("result", ("victory", "defeat"))
    why = UNDECIDED.get(state.over or "")
    over = f"{result}: {why}" if why else result
    said = f"The mission ends in {result}" + (f" ({why})" if why else "")
    notes = (said, split_words(len(state.loot), f.choice("loot", SPLITS))) if f.has("loot") else (said,)
    return replace(state, over=over, notes=state.notes + notes)  # `apply` clears the turn


def _loot(state: GameState, f: Fields) -> GameState:
    """Renaissance "Loot": "Performing certain Actions or succeeding at Tests described by Mission Cards or the
    Plotbook also allows players to draw Reagent Cards" (face down, to the Loot); first edition "Loot bag": a hero
    who collects the token draws a card from the elements deck."""
    cards = tuple(str(card) for card in f.array("cards"))
    if not cards or not all(cards):
        raise RuleError("cards", "name each Reagent Card drawn (its type: Pecunia, Elementum, Alchemia)")
    return replace(state, loot=state.loot + cards, notes=state.notes + (f"Loot: +{', '.join(cards)} ({counted(len(state.loot) + len(cards), 'card')})",))


EVENTS: Mapping[str, Callable[[GameState, Fields], GameState]] = {
    "order": _order,
    "resolve_event": _resolve_event,
    "declare_move": declare_move,
    "spend_ap": _spend_ap,
    "end_activation": _end_activation,
    "injury": _injury,
    "out_of_action": _out_of_action,
    "hero_attack": hero_attack,
    "enemy_attack": enemy_attack,
    "damage": damage,
    "heal": heal,
    "equipment_wounds": equipment_wounds,
    "threat": _threat,
    "swiftness": _swiftness,
    "location": _location,
    "status": status,
    "move_token": _move_token,
    "end_mission": _end_mission,
    "loot": _loot,
    "ai_answer": _ai_answer,
    "draft": _draft,
    "stealth_roll": _stealth_roll,
    "alarm": _alarm,
}
