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

from assistant.rules.combat import (
    Target,
    enemy_physical_attack,
    enemy_psychic_attack,
    hero_physical_attack,
    hero_psychic_attack,
)
from assistant.rules.dice import Astro
from assistant.rules.edition import Edition
from assistant.rules.errors import RuleError
from assistant.rules.fields import Fields
from assistant.rules.horologium import SECTORS, Clock, Side, Token, ahead, forced_wait, overtaken, sector_order, step
from assistant.rules.perilium import KO_THREAT, ThreatCauses, adjust, threat_gain
from assistant.rules.draft import place_draft
from assistant.rules.instructions import plan
from assistant.rules.prey import cards_left, draw, is_prey
from assistant.rules.questions import YES, check_answer
from assistant.rules.scenario import AttackSpec, Scenario
from assistant.rules.state import Answer, AttackMade, GameState, GroupState, HeroState, ModelState, Turn
from assistant.rules.stealth import raise_alarm, stealth_active, stealth_roll

KO_ENDS_MISSION = 3  # Renaissance "End of a Mission": at least 3 Heroes are KO


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
                raise RuleError(f"horologium.tokens[{index}].token", f"no hero {placed.token!r} in the scenario")
            swiftness = heroes[placed.token].swiftness
        elif side is Side.ENEMY:
            if placed.token not in groups:
                raise RuleError(f"horologium.tokens[{index}].token", f"no enemy group {placed.token!r}")
            swiftness = groups[placed.token].swiftness
        if any(t.id == placed.token for t in tokens):
            raise RuleError(f"horologium.tokens[{index}].token", f"{placed.token!r} is on the Horologium twice")
        tokens.append(Token(placed.token, side, placed.sector, swiftness))
    state = GameState(
        scenario=scenario,
        clock=Clock(scenario.horologium.hour, scenario.horologium.minute),
        tokens=tuple(tokens),
        heroes=tuple(HeroState(h.id, threat=h.threat) for h in scenario.heroes),
        groups=tuple(GroupState(g.id, tuple(ModelState() for _ in range(g.models))) for g in scenario.enemies),
        notes=(f"{scenario.title}: set up",),
    )
    return _run_clock(state, first=True)


def apply(state: GameState, event: Mapping[str, Any]) -> GameState:
    """The state after one event; RuleError if the rules refuse it."""
    if not isinstance(event, Mapping):
        raise RuleError("event", f"must be a JSON object, not {event!r}")
    fields = Fields(event, known={"type"})
    kind = fields.text("type")
    handler = EVENTS.get(kind)
    if handler is None:
        raise RuleError("type", f"unknown event {kind!r} (one of {', '.join(EVENTS)})")
    if state.over is not None:
        raise RuleError("type", f"the mission is over ({state.over}); {kind!r} can no longer happen")
    after = handler(replace(state, notes=()), fields)
    fields.finish()
    return _run_clock(replace(after, count=state.count + 1))


# ---------------------------------------------------------------------------------------------
# the clock running on by itself


def _timed(state: GameState) -> list[tuple[int, str]]:
    return [
        (Clock(e.hour, e.minute).absolute, e.id) for e in state.scenario.events if e.id not in state.fired
    ]


def _run_clock(state: GameState, first: bool = False) -> GameState:
    """Move the hand and start activations until the table has something to do."""
    while state.over is None and state.turn is None and not state.due:
        if state.queue:
            head = state.queue[0]
            if any(head in group for group in state.ties):
                return state  # the players order the tie first
            token = state.token(head)
            if token.side is Side.EVENT:
                return state  # the table resolves the event token first
            state = _start_activation(state, token)
            continue
        state = _next_stop(state, first)
        first = False
    return state


def _next_stop(state: GameState, first: bool) -> GameState:
    now = state.clock.absolute
    acted = set(state.acted)

    def distance(token: Token) -> int:
        return ahead(state.clock.minute, token.sector) or (SECTORS if token.id in acted else 0)

    stops = [now + distance(t) for t in state.tokens]
    timed = _timed(state)
    stops += [max(at, now) for at, _ in timed]
    end = state.scenario.end
    if end is not None and Clock(end.hour, end.minute).absolute <= min(stops, default=now + SECTORS * 1000):
        at = max(Clock(end.hour, end.minute).absolute, now)
        return replace(state, clock=Clock.at(at), queue=(), over="time", notes=state.notes + ("The mission ends: time is up",))
    if not stops:
        return replace(state, over="empty", notes=state.notes + ("No token is left on the Horologium",))
    at = min(stops)
    moved = at > now or first
    due = tuple(event_id for when, event_id in timed if when <= at)
    here = [t for t in state.tokens if distance(t) == at - now]
    queue, ties = sector_order(here)
    clock = Clock.at(at)
    return replace(
        state,
        clock=clock,
        acted=() if moved else state.acted,
        queue=queue,
        ties=ties,
        due=due,
        fired=state.fired + due,
        notes=state.notes + ((f"The hand moves to {_roman(clock.minute)}, hour {clock.hour}",) if moved else ()),
    )


def _start_activation(state: GameState, token: Token) -> GameState:
    """Renaissance "Models Activation": Heroes get AP equal to Swiftness; Enemies move their token first."""
    if token.side is Side.HERO:
        hero = state.hero(token.id)
        if hero.ko and state.edition is Edition.CLASSIC:
            # First edition "Characters out of action": not treated before their next activation.
            gone = replace(state.with_hero(replace(hero, removed=True)), acted=state.acted + (token.id,))
            return replace(gone.without_token(token.id), notes=gone.notes + (f"{_name(state, token.id)} is out of the game",))
        spec = state.hero_spec(token.id)
        ap = 0 if hero.ko else spec.swiftness
        note = f"{spec.name} draws an Injury card" if hero.ko else f"{spec.name} activates with {ap} AP"
        return replace(state, turn=Turn(token.id, ap, ap, token.sector), notes=state.notes + (note,))
    group = state.group_spec(token.id)
    ap = group.swiftness
    if is_prey(state, token.id):
        # Renaissance "Playing a Hunt Mission" 2-3: draw the top Action Card; the token moves by its AP.
        state, card = draw(state)
        if card is None:
            return state
        ap = card.ap
    if stealth_active(state) and token.id in state.attacked:
        state = raise_alarm(state, f"{group.name}, attacked earlier, activate")  # "Stealth Token"
    moved = token.moved(ap)
    state = state.with_token(moved)
    return replace(
        state,
        turn=Turn(token.id, ap, ap, token.sector, ap, heroes=state.heroes),
        notes=state.notes + (f"{group.name} activate; their token moves {ap} to {_roman(moved.sector)}",),
    )


def _finish_turn(state: GameState, note: str | None = None) -> GameState:
    assert state.turn is not None
    done = state.turn.token
    reacted = state.reacted
    if state.side_of(done) is Side.ENEMY:  # first edition "Reaction": the token is discarded at its activation
        reacted = tuple(m for m in reacted if not m.startswith(done + "/"))
    return replace(
        state,
        turn=None,
        reactions=(),
        reacted=reacted,
        acted=state.acted + (done,),
        queue=tuple(q for q in state.queue if q != done),
        notes=state.notes + ((note,) if note else ()),
    )


# ---------------------------------------------------------------------------------------------
# events


def _order(state: GameState, f: Fields) -> GameState:
    """The players order a tie ("Models Activation": ties among Heroes, or among Enemies)."""
    ids = tuple(str(x) for x in f.array("ids"))
    for group in state.ties:
        if sorted(group) == sorted(ids):
            queue = list(state.queue)
            at = min(queue.index(i) for i in group)
            queue[at : at + len(group)] = ids
            ties = tuple(g for g in state.ties if g != group)
            return replace(state, queue=tuple(queue), ties=ties, notes=state.notes + ("Order: " + ", ".join(ids),))
    open_ties = "; ".join(", ".join(g) for g in state.ties) or "none"
    raise RuleError("ids", f"must be one of the ties to order, in order (ties: {open_ties})")


def _resolve_event(state: GameState, f: Fields) -> GameState:
    """Renaissance "Event Tokens": events resolve before the activations of their sector."""
    event_id = f.text("event")
    keep = f.flag("keep", False)
    if event_id in state.due:
        return replace(state, due=tuple(e for e in state.due if e != event_id), notes=state.notes + (f"Event {event_id} resolved",))
    if state.queue and state.queue[0] == event_id and state.token(event_id).side is Side.EVENT:
        if keep:
            return replace(state, queue=state.queue[1:], acted=state.acted + (event_id,), notes=state.notes + (f"{event_id} resolved",))
        return replace(state.without_token(event_id), notes=state.notes + (f"Event {event_id} resolved and removed",))
    waiting = list(state.due) + [q for q in state.queue[:1] if state.token(q).side is Side.EVENT]
    raise RuleError("event", f"{event_id!r} is not an event due now (due: {', '.join(waiting) or 'none'})")


def _active_hero(state: GameState, f: Fields, key: str = "hero") -> HeroState:
    hero_id = f.text(key) if f.has(key) else state.active
    if state.turn is None or hero_id != state.turn.token or state.side_of(state.turn.token) is not Side.HERO:
        raise RuleError(key, f"{hero_id!r} is not the active Hero (active: {state.active or 'nobody'})")
    hero = state.hero(hero_id)
    if hero.ko:
        raise RuleError(key, f"{hero_id!r} is KO: they can only draw an Injury")
    return hero


def _move_active(state: GameState, sectors: int) -> GameState:
    """Move the active Hero's token; first edition "Reaction": note the Enemy tokens it overtakes."""
    assert state.turn is not None
    token = state.token(state.turn.token)
    passed: tuple[str, ...] = ()
    if state.edition is Edition.CLASSIC:
        enemies = [t for t in state.tokens if t.side is Side.ENEMY and t.id not in state.reactions]
        passed = overtaken(token.sector, sectors, enemies)
    turn = replace(state.turn, ap_left=state.turn.ap_left - sectors, moved=state.turn.moved + sectors)
    return replace(state.with_token(token.moved(sectors)), turn=turn, reactions=state.reactions + passed)


def _spend_ap(state: GameState, f: Fields) -> GameState:
    """Renaissance "Action Points": each AP a Hero spends moves their token one sector."""
    hero = _active_hero(state, f)
    assert state.turn is not None
    ap = f.integer("ap", low=1)
    if ap > state.turn.ap_left:
        raise RuleError("ap", f"{_name(state, hero.id)} has {state.turn.ap_left} AP left, not {ap}")
    action = f.text("action", "action")
    state = _move_active(state, ap)
    return replace(state, notes=state.notes + (f"{_name(state, hero.id)}: {action}, {ap} AP",))


def _end_activation(state: GameState, f: Fields) -> GameState:
    """End the active model's activation, with the forced Wait of Renaissance 2e for a Hero."""
    if state.turn is None:
        raise RuleError("type", "nobody is active")
    turn = state.turn
    if state.side_of(turn.token) is Side.HERO:
        hero = state.hero(turn.token)
        if hero.ko:
            raise RuleError("type", f"{_name(state, hero.id)} is KO: they draw an Injury (event 'injury')")
        token = state.token(turn.token)
        enemies = [t.sector for t in state.tokens if t.side is Side.ENEMY]
        wait, _ = forced_wait(turn.start, token.sector, turn.ap_left, enemies)
        if wait:
            state = _move_active(state, wait)
            return _finish_turn(state, f"{_name(state, hero.id)} must Wait {wait} AP to reach an Enemy token")
    return _finish_turn(state, f"{_name(state, turn.token)} ends the activation")


def _injury(state: GameState, f: Fields) -> GameState:
    """Renaissance "KO Hero" / "Injury Cards": a KO Hero draws an Injury instead of activating."""
    card = f.text("card")
    if state.turn is None or state.side_of(state.turn.token) is not Side.HERO or not state.hero(state.turn.token).ko:
        raise RuleError("type", "an Injury is drawn when a KO Hero would activate; none is activating")
    hero = state.hero(state.turn.token)
    if card in hero.injuries:
        raise RuleError("card", f"{_name(state, hero.id)} already has {card!r}: draw another")
    state = state.with_hero(replace(hero, injuries=hero.injuries + (card,)))
    return _finish_turn(state, f"{_name(state, hero.id)} draws the Injury {card}")


def _model(state: GameState, f: Fields) -> tuple[GroupState, int]:
    group = state.group(f.text("group"))
    standing = group.standing
    if not standing:
        raise RuleError("group", f"every model of {group.id!r} is already defeated")
    number = f.integer("model", standing[0], low=1, high=len(group.models))
    if group.models[number - 1].defeated:
        raise RuleError("model", f"model {number} of {group.id!r} is already defeated (standing: {standing})")
    return group, number


def _wound_model(state: GameState, group: GroupState, number: int, wounds: int) -> tuple[GameState, bool]:
    """Renaissance "Defeated Enemy": wounds up to Health defeat the model; the last one takes the token."""
    spec = state.scenario.enemy(group.id)
    model = group.models[number - 1]
    total = min(spec.health, model.wounds + wounds)
    defeated = total >= spec.health
    models = list(group.models)
    models[number - 1] = ModelState(total, defeated)
    group = replace(group, models=tuple(models))
    state = state.with_group(group)
    if defeated:
        state = replace(state, loot=state.loot + spec.loot)
        if is_prey(state, group.id):  # Renaissance "Hunt Missions": the Hunt ends when the Prey is defeated
            state = replace(state, over="victory: the Prey is defeated", notes=state.notes + (
                f"The Prey is defeated with {cards_left(state)} Action Cards unrevealed",))  # fmt: skip
        if not group.standing and state.has_token(group.id):
            state = state.without_token(group.id)
            if state.active == group.id:
                state = _finish_turn(state)
    return state, defeated


def _hero_attack(state: GameState, f: Fields) -> GameState:
    """Renaissance "Heroes Attacks"; first edition "Hero attack": wounds, Critical, Threat."""
    hero = _active_hero(state, f)
    assert state.turn is not None
    group, number = _model(state, f)
    spec = state.scenario.enemy(group.id)
    kind = f.choice("kind", ("physical", "psychic"), "physical")
    ap = f.integer("ap", 0, low=0)
    if ap > state.turn.ap_left:
        raise RuleError("ap", f"{_name(state, hero.id)} has {state.turn.ap_left} AP left, not {ap}")
    dice = f.dice()
    default_defense = spec.physical_defense if kind == "physical" else spec.psychic_defense
    defense = f.integer("defense", default_defense, low=1)
    target = Target(spec.health, group.models[number - 1].wounds, spec.immune_to_critical)
    modifier = f.integer("modifier", 0)
    bonus = f.integer("bonus_successes", 0, low=0)
    if stealth_active(state):
        bonus += 1  # Renaissance "Stealth Card": a Hero who attacks an Enemy gains an additional Success
        if group.id not in state.attacked:
            state = replace(state, attacked=state.attacked + (group.id,))
    if kind == "physical":
        result = hero_physical_attack(
            state.edition, dice, defense, target, modifier, bonus, f.flag("unblockable", False)
        )
    else:
        astro_table = f.object("astro_wounds", None)
        per_symbol = {s: astro_table.integer(s.value, 0, low=0) for s in Astro} if astro_table else {}
        if astro_table:
            astro_table.finish()
        result = hero_psychic_attack(
            state.edition,
            dice,
            defense,
            f.integer("required", low=1),
            f.integer("effect_wounds", low=0),
            target,
            modifier,
            bonus,
            per_symbol,
        )
    if ap:
        state = _move_active(state, ap)
    state, _ = _wound_model(state, group, number, result.wounds)
    hero = state.hero(hero.id)
    state = state.with_hero(replace(hero, threat=adjust(hero.threat, result.threat)))
    words = f"{_name(state, hero.id)} attacks {spec.name} {number}: {result.successes} successes, {result.wounds} wounds"
    if result.critical:
        words += ", Critical"
    if result.defeated:
        words += ", defeated"
    return replace(state, notes=state.notes + (f"{words}; Threat +{result.threat}",))


def _ko(state: GameState, hero: HeroState) -> GameState:
    """Renaissance "KO Hero": Perilium -2, token to its KO side; first edition "out of action" -2 TV."""
    state = state.with_hero(replace(hero, ko=True, threat=adjust(hero.threat, KO_THREAT)))
    if state.has_token(hero.id):
        state = state.with_token(replace(state.token(hero.id), ko=True))
    if state.active == hero.id:
        state = _finish_turn(state)
    knocked = sum(1 for h in state.heroes if h.ko or h.removed)
    if knocked >= min(KO_ENDS_MISSION, len(state.heroes)):
        state = replace(state, over="defeat: heroes KO")
    return state


def _wound_hero(state: GameState, hero_id: str, wounds: int) -> GameState:
    hero = state.hero(hero_id)
    health = state.scenario.hero(hero_id).health
    total = min(health, hero.wounds + wounds)
    hero = replace(hero, wounds=total)
    state = state.with_hero(hero)
    if total >= health and not hero.ko:
        state = _ko(state, hero)
    return state


def _attack_spec(state: GameState, group_id: str, f: Fields) -> AttackSpec:
    attacks = state.scenario.enemy(group_id).attacks
    if not attacks:
        raise RuleError("group", f"{group_id!r} has no attack")
    name = f.text("attack", attacks[0].name)
    for attack in attacks:
        if attack.name == name:
            return attack
    raise RuleError("attack", f"{group_id!r} has no attack {name!r} (attacks: {', '.join(a.name for a in attacks)})")


def _enemy_attack(state: GameState, f: Fields) -> GameState:
    """Renaissance "Enemies Attacks"; first edition "Enemies attack": the Hero's Defense Test."""
    group = state.group(f.text("group"))
    if not group.standing:
        raise RuleError("group", f"every model of {group.id!r} is defeated")
    hero = state.hero(f.text("hero"))
    if hero.ko or hero.removed:
        raise RuleError("hero", f"{hero.id!r} is KO and cannot be targeted")
    attack = _attack_spec(state, group.id, f)
    waiting = plan(state).attack
    default_model = waiting.model if waiting is not None and waiting.group == group.id else group.standing[0]
    model = f.integer("model", default_model, low=1, high=len(group.models))
    if group.models[model - 1].defeated:
        raise RuleError("model", f"model {model} of {group.id!r} is defeated (standing: {group.standing})")
    reaction = f.flag("reaction", False)
    dice = f.dice()
    threshold = f.integer("threshold", attack.threshold, low=1)
    modifier = f.integer("modifier", 0)
    if attack.kind == "physical":
        hits = f.integer("hits", attack.hits if attack.hits is not None else 1, low=0)
        result = enemy_physical_attack(state.edition, hits, threshold, dice, modifier)
        words = f"{attack.name} on {_name(state, hero.id)}: {hits} hits, {result.successes} saved, {result.wounds} wounds"
    else:
        contrast = f.integer("contrast", attack.contrast if attack.contrast is not None else 1, low=0)
        effect = f.integer("effect_wounds", attack.effect_wounds, low=0)
        result = enemy_psychic_attack(state.edition, contrast, threshold, dice, effect, modifier)
        outcome = "resisted" if result.resisted else f"{result.wounds} wounds"
        words = f"{attack.name} on {_name(state, hero.id)}: {result.successes} of {contrast} needed, {outcome}"
    turn = state.turn
    state = _wound_hero(state, hero.id, result.wounds)
    ko = state.hero(hero.id).ko
    if ko:
        words += f"; {_name(state, hero.id)} is KO"
    if turn is not None and not reaction and state.turn is not None:
        made = AttackMade(group.id, model, hero.id, attack.name, result.wounds, ko)
        state = replace(state, turn=replace(state.turn, attacks=state.turn.attacks + (made,)))
    return replace(state, notes=state.notes + (("Reaction Attack: " if reaction else "") + words,))


def _damage(state: GameState, f: Fields) -> GameState:
    """Wounds from anything but an attack test (a Status Token, a mission effect, a correction)."""
    wounds = f.integer("wounds", low=1)
    if f.has("hero"):
        hero = state.hero(f.text("hero"))
        if hero.ko:
            raise RuleError("hero", f"{hero.id!r} is KO: a KO Hero suffers no game effect")
        state = _wound_hero(state, hero.id, wounds)
        return replace(state, notes=state.notes + (f"{_name(state, hero.id)} suffers {wounds} wounds",))
    group, number = _model(state, f)
    by = f.text("by") if f.has("by") else None
    state, defeated = _wound_model(state, group, number, wounds)
    if by is not None:  # wounds from a Status Token count for nobody ("Status Tokens")
        hero = state.hero(by)
        gain = threat_gain(state.edition, ThreatCauses(wounds=wounds, defeated=int(defeated)))
        state = state.with_hero(replace(hero, threat=adjust(hero.threat, gain)))
    name = state.scenario.enemy(group.id).name
    return replace(state, notes=state.notes + (f"{name} {number} suffers {wounds} wounds" + (", defeated" if defeated else ""),))


def _heal(state: GameState, f: Fields) -> GameState:
    """Renaissance "Wounds" / "Threat Level" / "KO Hero": discard wounds; the healer gains 1 Threat."""
    target = state.hero(f.text("hero"))
    wounds = f.integer("wounds", low=1)
    by = f.text("by") if f.has("by") else None
    if target.wounds == 0:
        raise RuleError("hero", f"{target.id!r} has no wound to discard")
    healed = replace(target, wounds=max(0, target.wounds - wounds))
    if target.ko:  # no longer KO: the token is placed one sector ahead of the active model's
        healed = replace(healed, ko=False)
        anchor = state.token(state.active).sector if state.active else state.clock.minute
        if state.has_token(target.id):
            state = state.with_token(replace(state.token(target.id), ko=False, sector=step(anchor, 1)))
    state = state.with_hero(healed)
    if by is not None:
        healer = state.hero(by)
        gain = threat_gain(state.edition, ThreatCauses(healed=True))
        state = state.with_hero(replace(healer, threat=adjust(healer.threat, gain)))
    return replace(state, notes=state.notes + (f"{_name(state, target.id)} discards {target.wounds - healed.wounds} wounds",))


def _threat(state: GameState, f: Fields) -> GameState:
    """A change of the Perilium by a Skill's cost, a mission rule or a correction."""
    hero = state.hero(f.text("hero"))
    delta = f.integer("delta")
    state = state.with_hero(replace(hero, threat=adjust(hero.threat, delta)))
    return replace(state, notes=state.notes + (f"{_name(state, hero.id)}: Threat {delta:+d}, now {state.hero(hero.id).threat}",))


def _move_token(state: GameState, f: Fields) -> GameState:
    """Place a token in a sector (a mission instruction or a correction); KO tokens never move."""
    token = state.token(f.text("token"))
    if state.active == token.id:
        raise RuleError("token", f"{token.id!r} is active: spend AP to move it")
    sector = f.sector("sector")
    if token.ko and sector != token.sector:
        raise RuleError("token", f"{token.id!r} is KO: a KO Hero's token never leaves its sector")
    state = state.with_token(replace(token, sector=sector))
    if sector != state.clock.minute:
        state = replace(
            state,
            queue=tuple(q for q in state.queue if q != token.id),
            ties=tuple(g for g in (tuple(i for i in t if i != token.id) for t in state.ties) if len(g) > 1),
        )
    return replace(state, notes=state.notes + (f"{token.id} placed in sector {sector}",))


def _ai_answer(state: GameState, f: Fields) -> GameState:
    """A fact the Enemy AI asked for, or the table's override of a choice it made (see `instructions`)."""
    key = f.text("question")
    if state.turn is None:
        raise RuleError("question", "no activation is in progress: the AI asks nothing now")
    asked = plan(state)
    question = asked.question_for(key)
    if question is None:
        pending = asked.question.key if asked.question else "nothing"
        raise RuleError("question", f"{key!r} is not asked now (asked: {pending})")
    value = check_answer(question, f.raw("answer"))
    turn = state.turn
    answers = tuple(a for a in turn.answers if a.key != key) + (Answer(key, value),)
    state = replace(state, turn=replace(turn, answers=answers), notes=state.notes + (f"{question.text} {', '.join(value)}",))
    if question.kind == "adjacent" and value == YES:
        state = raise_alarm(state, f"an Enemy is adjacent to a Hero ({question.model})")
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
            raise RuleError("event", f"no event {event_id!r} with an Enemy Draft in the scenario")
    squares = f.integer("squares", order.squares if order else ..., low=1)
    sector = f.sector("sector") if f.has("sector") else (order.sector if order else None)
    return place_draft(state, cards, squares, sector, order)


def _stealth_roll(state: GameState, f: Fields) -> GameState:
    """Renaissance "Stealth Card": the Swiftness dice a Hero rolls after a Movement Action (1 + AP spent)."""
    hero = _active_hero(state, f)
    assert state.turn is not None
    ap = f.integer("ap", 0, low=0, high=state.turn.ap_left)
    dice = f.dice()
    if len(dice) != ap + 1:
        raise RuleError("dice", f"{_name(state, hero.id)} rolls {ap + 1} dice (1 + {ap} AP), not {len(dice)}")
    if ap:
        state = _move_active(state, ap)
    return stealth_roll(state, dice)


def _alarm(state: GameState, f: Fields) -> GameState:
    """Renaissance "Stealth Token": the table raises the alarm (a mission rule, or what the AI could not see)."""
    if not stealth_active(state):
        raise RuleError("type", "the Stealth rule is not active (no track in this mission, or the alarm is raised)")
    return raise_alarm(state, f.text("cause", "the table raises the alarm"))


def _end_mission(state: GameState, f: Fields) -> GameState:
    result = f.choice("result", ("victory", "defeat"))
    return replace(state, over=result, turn=None, queue=(), notes=state.notes + (f"The mission ends: {result}",))


EVENTS: Mapping[str, Callable[[GameState, Fields], GameState]] = {
    "order": _order,
    "resolve_event": _resolve_event,
    "spend_ap": _spend_ap,
    "end_activation": _end_activation,
    "injury": _injury,
    "hero_attack": _hero_attack,
    "enemy_attack": _enemy_attack,
    "damage": _damage,
    "heal": _heal,
    "threat": _threat,
    "move_token": _move_token,
    "end_mission": _end_mission,
    "ai_answer": _ai_answer,
    "draft": _draft,
    "stealth_roll": _stealth_roll,
    "alarm": _alarm,
}


def _name(state: GameState, token_id: str) -> str:
    for hero in state.scenario.heroes:
        if hero.id == token_id:
            return hero.name
    for group in state.scenario.enemies:
        if group.id == token_id:
            return group.name
    return token_id


def _roman(sector: int) -> str:
    return ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII")[sector - 1]
