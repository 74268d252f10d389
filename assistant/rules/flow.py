"""The Horologium running on by itself: the hand's next stop, activations starting and ending."""

from __future__ import annotations

from dataclasses import replace

from assistant.rules.edition import Edition, term
from assistant.rules.errors import RuleError
from assistant.rules.fields import Fields
from assistant.rules.horologium import SECTORS, Clock, Side, Token, ahead, first_reached, overtaken, roman, sector_order
from assistant.rules.names import agree, name_of
from assistant.rules.prey import draw, is_prey
from assistant.rules.questions import counted
from assistant.rules.state import GameState, HeroState, Turn
from assistant.rules.stealth import raise_alarm, stealth_active


def start_time(state: GameState) -> int:
    """The time the mission's hands start at (`Clock.absolute`)."""
    return Clock(state.scenario.horologium.hour, state.scenario.horologium.minute).absolute


def pending_times(state: GameState) -> list[tuple[int, str]]:
    begin = start_time(state)
    return [(first_reached(begin, e.hour, e.minute), e.id) for e in state.scenario.events if e.id not in state.fired]


def end_time(state: GameState) -> int | None:
    """When the mission ends by the time: the first time after the start that the hands show its end."""
    end = state.scenario.end
    return None if end is None else first_reached(start_time(state), end.hour, end.minute, after=True)


def run_clock(state: GameState, first: bool = False) -> GameState:
    """Move the hand and start activations until the table has something to do."""
    while state.over is None and state.turn is None and not state.due:
        if state.queue:
            head = state.queue[0]
            if any(head in group for group in state.ties):
                return state  # the players order the tie first
            token = state.token(head)
            if token.side is Side.EVENT:
                return state  # the table resolves the event token first
            state = start_activation(state, token)
            continue
        state = next_stop(state, first)
        first = False
    return state


def next_stop(state: GameState, first: bool) -> GameState:
    now = state.clock.absolute
    acted = set(state.acted)

    def distance(token: Token) -> int:
        return ahead(state.clock.minute, token.sector) or (SECTORS if token.id in acted else 0)

    stops = [now + distance(t) for t in state.tokens]
    timed = pending_times(state)
    stops += [max(at, now) for at, _ in timed]
    end = end_time(state)
    if end is not None and end <= min(stops, default=now + SECTORS * 1000):
        at = max(end, now)
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
        notes=state.notes + ((f"The hand moves to {roman(clock.minute)}, hour {clock.hour}",) if moved else ()),
    )


def start_activation(state: GameState, token: Token) -> GameState:
    """Renaissance "Models Activation": Heroes get AP equal to Swiftness; Enemies move their token first."""
    if token.side is Side.HERO:
        hero = state.hero(token.id)
        if hero.ko and state.edition is Edition.CLASSIC:
            # First edition "Characters out of action": not treated before their next activation.
            gone = replace(state.with_hero(replace(hero, removed=True)), acted=state.acted + (token.id,))
            return replace(gone.without_token(token.id), notes=gone.notes + (
                f"{state.name(token.id)} is out of the game: roll 1d6 on the Out of action table",))  # fmt: skip
        spec = state.hero_spec(token.id)
        if hero.ko and spec.role == "companion":  # Renaissance "Companion": "they never draw Injury Cards"
            return replace(state, acted=state.acted + (token.id,), queue=tuple(q for q in state.queue if q != token.id),
                           notes=state.notes + (f"{spec.name} is KO: a Companion draws no Injury Card",))  # fmt: skip
        ap = 0 if hero.ko else swiftness_of(state, hero.id)
        if spec.role == "ally":  # Renaissance "Ally": its token moves its Swiftness, whatever AP it spends
            moved = token.moved(ap)
            return replace(state.with_token(moved), turn=Turn(token.id, ap, ap, token.sector, ap, heroes=state.heroes),
                           notes=state.notes + (f"{spec.name} activates with {ap} AP: the token moves "
                                                f"{counted(ap, 'sector')} to {roman(moved.sector)}",))  # fmt: skip
        note = f"{spec.name} draws an Injury Card" if hero.ko else f"{spec.name} activates with {ap} AP"
        return replace(state, turn=Turn(token.id, ap, ap, token.sector, heroes=state.heroes), notes=state.notes + (note,))
    group = state.group_spec(token.id)
    ap = group.swiftness
    if is_prey(state, token.id):
        # Renaissance "Playing a Hunt Mission" 2-3: draw the top Action Card; the token moves by its AP.
        state, card = draw(state)
        if card is None:
            return state
        ap = card.ap
    # "Stealth Token": an Enemy that was the target of an Attack activates (a defeated one never does).
    if stealth_active(state) and any(f"{token.id}/{n}" in state.attacked for n in state.group(token.id).standing):
        state = raise_alarm(state, f"{agree(group.name, 'activates')}: it was attacked earlier")
    moved = token.moved(ap)
    state = state.with_token(moved)
    return replace(
        state,
        turn=Turn(token.id, ap, ap, token.sector, ap, heroes=state.heroes),
        notes=state.notes + (f"{agree(group.name, 'activates')}: the token moves {counted(ap, 'sector')} to {roman(moved.sector)}",),
    )


def finish_turn(state: GameState, note: str | None = None) -> GameState:
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


def active_hero(state: GameState, f: Fields, key: str = "hero") -> HeroState:
    hero_id = f.text(key) if f.has(key) else state.active
    if state.turn is None or hero_id != state.turn.token or state.side_of(state.turn.token) is not Side.HERO:
        raise RuleError(key, f"{name_of(state, hero_id)} is not the active Hero (active: {name_of(state, state.active)})")
    hero = state.hero(hero_id)
    if hero.ko:
        left = "only the end of the activation is left" if state.edition is Edition.CLASSIC else "they can only draw an Injury"
        raise RuleError(key, f"{state.name(hero.id)} is {term(state.edition, 'KO')}: {left}")
    return hero


def swiftness_of(state: GameState, hero_id: str) -> int:
    """A Hero's Swiftness now: the sheet's, or what an Injury or an effect made it (event `swiftness`)."""
    changed = state.hero(hero_id).swiftness
    return changed if changed is not None else state.hero_spec(hero_id).swiftness


def move_active(state: GameState, sectors: int) -> GameState:
    """Move the active Hero's token; first edition "Reaction": note the Enemy tokens it overtakes. An Ally's token
    moved at its activation (Renaissance "Ally"): its AP are spent without moving it again."""
    assert state.turn is not None
    if state.scenario.hero(state.turn.token).role == "ally":
        return replace(state, turn=replace(state.turn, ap_left=state.turn.ap_left - sectors))
    token = state.token(state.turn.token)
    passed: tuple[str, ...] = ()
    if state.edition is Edition.CLASSIC:
        enemies = [t for t in state.tokens if t.side is Side.ENEMY and t.id not in state.reactions]
        passed = overtaken(token.sector, sectors, enemies)
    turn = replace(state.turn, ap_left=state.turn.ap_left - sectors, moved=state.turn.moved + sectors)
    return replace(state.with_token(token.moved(sectors)), turn=turn, reactions=state.reactions + passed)
