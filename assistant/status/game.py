"""A Status game as a fold: `new_game()`, then `apply(state, event)` for every event in order.

The state holds what is public on the table: the Military and Status tracks, the Priority token, the round and
phase, the Event cards on the Monitor and in the deck, the Officials sent this round (their values once shown),
the cards each Faction took. What stays behind the screens (Assets, the Official in hand) is the players';
the table enters it when it becomes public (Phase III, the final score).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from assistant.rules.codec import from_data, to_data
from assistant.status.errors import StatusError
from assistant.status.events import (
    Advance,
    Event,
    FinalScoring,
    IncreaseStatus,
    MilitaryMove,
    ResolveCard,
    SendOfficial,
    Start,
    StatusChange,
    event_from_dict,
)
from assistant.status.factions import Continent, Faction
from assistant.status.military import FIRST_SPACE, move
from assistant.status.phases import Phase, next_phase
from assistant.status.scoring import FinalScore, final_score, phase_v_points, priority, resolve_card
from assistant.status.setup import (
    OFFICIALS,
    ROUNDS,
    START_STATUS,
    check_factions,
    clockwise_from,
    deck_size,
    monitor_size,
    starting_track,
)

STATUS_FLOOR = 0
"""The lowest a Faction's Status points go (a choice: the book starts the track at 1 and names no bottom)."""


@dataclass(frozen=True)
class Seat:
    """One Faction at the table: its Military space, its Status points, the Event cards it took, and whether it
    holds a Military Income token (Personal Components: only the Nuova Milizia has one)."""

    faction: Faction
    military: int
    status: int
    cards: int = 0
    military_income: bool = False


@dataclass(frozen=True)
class Official:
    """An Official sent this round: where it is, and its value once known (face up, or shown in Phase III)."""

    faction: Faction
    card: int | None = None
    newspaper: int | None = None
    value: int | None = None

    @property
    def place(self) -> str:
        return f"card {self.card}" if self.card is not None else f"Newspaper space {self.newspaper}"


@dataclass(frozen=True)
class StatusGame:
    """The public table, folded from the events so far (`count` of them); `notes` says what the last one did."""

    seats: tuple[Seat, ...] = ()  # clockwise
    priority: Faction | None = None
    round: int = 0
    phase: Phase = Phase.SETUP
    deck: int = 0  # Event cards left in the deck
    monitor: tuple[int, ...] = ()  # positions (1 = leftmost) of the Event cards still on the Monitor
    officials: tuple[Official, ...] = ()  # sent this round, in the order sent
    increased: tuple[Faction, ...] = ()  # Phase V: the Factions that have had their turn
    winner: Faction | None = None
    count: int = 0
    notes: tuple[str, ...] = ()

    @property
    def factions(self) -> tuple[Faction, ...]:
        """The Factions in play, clockwise."""
        return tuple(seat.faction for seat in self.seats)

    @property
    def track(self) -> dict[Faction, int]:
        """The Military track: Faction -> space."""
        return {seat.faction: seat.military for seat in self.seats}

    @property
    def status(self) -> dict[Faction, int]:
        """The Status track: Faction -> points."""
        return {seat.faction: seat.status for seat in self.seats}

    @property
    def over(self) -> bool:
        return self.winner is not None

    def seat(self, faction: Faction) -> Seat:
        for seat in self.seats:
            if seat.faction is faction:
                return seat
        raise StatusError("faction", f"{faction.full_name} is not playing in this game")

    @property
    def turn_order(self) -> tuple[Faction, ...]:
        """Clockwise from the Priority holder (Phases II and V)."""
        return clockwise_from(self.factions, self.priority) if self.priority is not None else ()

    @property
    def to_play(self) -> Faction | None:
        """Whose turn it is: to send an Official (Phase II) or to increase Status (Phase V); None otherwise."""
        order = self.turn_order
        if self.phase is Phase.II and len(self.officials) < OFFICIALS * len(order):
            return order[len(self.officials) % len(order)]
        if self.phase is Phase.V and len(self.increased) < len(order):
            return order[len(self.increased)]
        return None

    @property
    def next_card(self) -> int | None:
        """Phase III: the position of the leftmost Event card still to resolve (only cards with Officials stay)."""
        return self.monitor[0] if self.phase is Phase.III and self.monitor else None

    def officials_on(self, card: int) -> tuple[Official, ...]:
        return tuple(o for o in self.officials if o.card == card)

    def free_values(self, faction: Faction) -> tuple[int, ...]:
        """The values `faction`'s Officials not yet known may have: Personal Components, "4 Official pawns ...
        numbered 1 to 4": one of each, so never a value it shows face up this round (or showed on a card resolved)."""
        shown = {o.value for o in self.officials if o.faction is faction and o.value is not None}
        return tuple(v for v in range(1, OFFICIALS + 1) if v not in shown)

    def with_track(self, track: Mapping[Faction, int]) -> StatusGame:
        return replace(self, seats=tuple(replace(s, military=track[s.faction]) for s in self.seats))

    def with_seat(self, seat: Seat) -> StatusGame:
        return replace(self, seats=tuple(seat if s.faction is seat.faction else s for s in self.seats))

    def said(self, *notes: str) -> StatusGame:
        return replace(self, notes=self.notes + notes)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = to_data(self)
        return data

    @classmethod
    def from_dict(cls, data: Any) -> StatusGame:
        return from_data(cls, data, "status game")


def new_game() -> StatusGame:
    """The table before the `start` event."""
    return StatusGame()


def apply(state: StatusGame, event: Event | Mapping[str, Any]) -> StatusGame:
    """The state after one event (a value of `events`, or its JSON object); StatusError, saying why, if the rules
    refuse it. The state given is never changed."""
    if not isinstance(event, (Start, SendOfficial, MilitaryMove, StatusChange, ResolveCard, IncreaseStatus,
                              Advance, FinalScoring)):  # fmt: skip
        event = event_from_dict(event)
    if state.winner is not None:
        raise StatusError("type", f"the game is over: {state.winner.full_name} won")
    if state.phase is Phase.SETUP and not isinstance(event, Start):
        raise StatusError("type", "the game has not started: the first event is 'start'")
    state = replace(state, notes=())
    if isinstance(event, Start):
        after = _start(state, event)
    elif isinstance(event, SendOfficial):
        after = _send(state, event)
    elif isinstance(event, MilitaryMove):
        after = _military(state, event)
    elif isinstance(event, StatusChange):
        after = _status(state, event)
    elif isinstance(event, ResolveCard):
        after = _resolve(state, event)
    elif isinstance(event, IncreaseStatus):
        after = _increase(state, event)
    elif isinstance(event, Advance):
        after = _advance(state)
    else:
        after = _final(state, event)
    return replace(after, count=state.count + 1)


def _in_play(state: StatusGame, faction: Faction, field: str = "faction") -> Seat:
    for seat in state.seats:
        if seat.faction is faction:
            return seat
    raise StatusError(field, f"{faction.full_name} is not playing in this game")


def _start(state: StatusGame, event: Start) -> StatusGame:
    """Setup 2, 3, 7, 11, 12: deck and Monitor by the number of Factions, Military indicators from space 5,
    income collected once (the Milizia's Military Income token moves it), Status 1 each; round 1 skips Phase I."""
    if state.phase is not Phase.SETUP:
        raise StatusError("type", "the game has already started")
    check_factions(event.factions)
    if event.priority not in event.factions:
        raise StatusError("priority", f"{event.priority.full_name} is not at the table")
    income = event.military_income
    if income is None:
        income = (Faction.MILIZIA,) if Faction.MILIZIA in event.factions else ()
    for index, faction in enumerate(income):
        if faction not in event.factions:
            raise StatusError(f"military_income[{index}]", f"{faction.full_name} is not at the table")
    track = starting_track(event.factions, event.priority)
    n = len(event.factions)
    seats = tuple(Seat(f, track[f], START_STATUS, military_income=f in income) for f in event.factions)
    state = replace(
        state,
        seats=seats,
        priority=event.priority,
        round=1,
        phase=Phase.II,
        deck=deck_size(n) - monitor_size(n),
        monitor=tuple(range(1, monitor_size(n) + 1)),
    )
    names = ", ".join(f.full_name for f in event.factions)
    state = state.said(
        f"Status for {n}: {names}; {event.priority.full_name} holds the Priority token",
        f"Event deck of {deck_size(n)} cards, {monitor_size(n)} on the Monitor",
    )
    state = _military_income(state, "Setup 11")
    return state.said(f"Round 1: {Phase.II.heading} (Phase I was the setup); {event.priority.full_name} sends first")


def _military_income(state: StatusGame, when: str) -> StatusGame:
    """Income Tokens: the Military Income token advances its holder's Military indicator by 1 space."""
    for faction in state.turn_order:
        if state.seat(faction).military_income:
            state = _moved(state, faction, 1, f"{when}: {faction.full_name}'s Military Income token")
    return state


def _moved(state: StatusGame, faction: Faction, steps: int, why: str) -> StatusGame:
    """`faction` moved on the Military track, said with the indicators it pushed."""
    before = state.track
    state = state.with_track(move(before, faction, steps))
    after = state.track
    if after == before:
        return state.said(f"{why}: {faction.full_name} stays on space {after[faction]}, the first of the track")
    way = "forward" if steps > 0 else "back"
    pushed = [f"{f.full_name} to {after[f]}" for f in after if f is not faction and after[f] != before[f]]
    return state.said(
        f"{why}: {faction.full_name} moves {way} to space {after[faction]}"
        + (f" (pushing {', '.join(pushed)})" if pushed else "")
    )


def _send(state: StatusGame, event: SendOfficial) -> StatusGame:
    """Phase II: clockwise from the Priority holder, each Faction sends one Official a turn, four in all; an
    Official goes face up with its value, or face down ("?")."""
    seat = _in_play(state, event.faction)
    if state.phase is not Phase.II:
        raise StatusError("type", f"Officials are sent in {Phase.II.heading}; this is {state.phase.heading}")
    turn = state.to_play
    if turn is None:
        raise StatusError("faction", "every Faction has sent its four Officials: the phase is over")
    if turn is not seat.faction:
        raise StatusError("faction", f"it is {turn.full_name}'s turn to send an Official, not {seat.faction.full_name}'s")
    if event.card is not None and event.card not in state.monitor:
        cards = ", ".join(map(str, state.monitor))
        raise StatusError("card", f"there is no Event card {event.card} on the Monitor (cards: {cards})")
    if event.value is not None:
        used = [o.value for o in state.officials if o.faction is seat.faction and o.value is not None]
        if event.value in used:
            raise StatusError(
                "value",
                f"{seat.faction.full_name} has already sent its {event.value} this round (its Officials are 1 to 4, one each)",
            )
    official = Official(seat.faction, event.card, event.newspaper, event.value)
    shown = f"its {event.value}" if event.value is not None else "an Official face down"
    state = replace(state, officials=state.officials + (official,))
    state = state.said(f"{seat.faction.full_name} sends {shown} to {official.place}")
    nxt = state.to_play
    return state.said(f"{nxt.full_name} sends next" if nxt else "Every Official is sent: on to Phase III")


def _military(state: StatusGame, event: MilitaryMove) -> StatusGame:
    """"Military Power": a move on the track, pushing and swapping; a Military Cost that would take the indicator
    off the track cannot be paid (Phase II, Costs)."""
    seat = _in_play(state, event.faction)
    if event.steps == 0:
        raise StatusError("steps", "a move of 0 spaces is no move")
    if event.cost and event.steps > 0:
        raise StatusError("steps", "a Military Cost moves back: steps must be negative")
    if event.cost and seat.military + event.steps < FIRST_SPACE:
        raise StatusError(
            "steps",
            f"{seat.faction.full_name} is on space {seat.military}: it cannot move back {-event.steps} "
            "to pay the Cost, so it cannot send that Official there",
        )
    return _moved(state, seat.faction, event.steps, "Military Cost" if event.cost else "Military track")


def _status(state: StatusGame, event: StatusChange) -> StatusGame:
    """"How Status Points Are Gained": advance on the Status track, or move back when losing; a Status Cost that
    cannot be paid is refused (Phase II, Costs)."""
    seat = _in_play(state, event.faction)
    if event.points == 0:
        raise StatusError("points", "a change of 0 Status points is no change")
    if event.cost and event.points > 0:
        raise StatusError("points", "a Status Cost is a loss: points must be negative")
    if event.cost and seat.status + event.points < STATUS_FLOOR:
        raise StatusError(
            "points",
            f"{seat.faction.full_name} has {seat.status} Status points: it cannot lose {-event.points} to pay the Cost",
        )
    status = max(STATUS_FLOOR, seat.status + event.points)
    state = state.with_seat(replace(seat, status=status))
    verb = "gains" if event.points > 0 else "loses"
    return state.said(f"{seat.faction.full_name} {verb} {abs(event.points)} Status, now {status}")


def _resolve(state: StatusGame, event: ResolveCard) -> StatusGame:
    """Phase III: each card with an Official, left to right: the sum of each Faction's Officials; the highest takes
    the Reward and the card (a tie to the Faction furthest ahead on the Military track, which steps back)."""
    if state.phase is not Phase.III:
        raise StatusError("type", f"Event cards are resolved in {Phase.III.heading}; this is {state.phase.heading}")
    card = state.next_card
    if card is None:
        raise StatusError("type", "every Event card is resolved: the phase is over")
    if event.card is not None and event.card != card:
        raise StatusError("card", f"cards resolve left to right: card {card} is next, not card {event.card}")
    placed = state.officials_on(card)
    sent = Counter(o.faction for o in placed)
    for faction in event.officials:
        _in_play(state, faction, f"officials.{faction}")
        if faction not in sent:
            raise StatusError(f"officials.{faction}", f"{faction.full_name} has no Official on card {card}")
    revealed: list[Official] = []
    for faction, number in sent.items():
        field = f"officials.{faction}"
        if faction not in event.officials:
            raise StatusError(field, f"missing: {faction.full_name} has {number} Official(s) on card {card}")
        values = list(event.officials[faction])
        if len(values) != number:
            raise StatusError(field, f"{faction.full_name} has {number} Official(s) on card {card}, not {len(values)}")
        shown = [o.value for o in placed if o.faction is faction and o.value is not None]
        if Counter(shown) - Counter(values):
            raise StatusError(field, f"{faction.full_name} sent {', '.join(map(str, shown))} face up here; the values must include them")
        elsewhere = [o.value for o in state.officials if o.faction is faction and o.card != card and o.value is not None]
        twice = [v for v, n in Counter(values + elsewhere).items() if n > 1]
        if twice:
            raise StatusError(field, f"{faction.full_name}'s Officials are numbered 1 to 4, one each: not two {twice[0]}s")
        hidden = list((Counter(values) - Counter(shown)).elements())
        for official in placed:
            if official.faction is faction:
                revealed.append(official if official.value is not None else replace(official, value=hidden.pop(0)))
    result = resolve_card(event.officials, state.track)
    state = state.with_track(result.track)
    sums = ", ".join(f"{f.full_name} {n}" for f, n in result.sums.items())
    state = state.said(f"Card {card}: {sums}")
    if result.tied:
        tied = " and ".join(f.full_name for f in result.tied)
        state = state.said(
            f"{tied} tie: {result.winner.full_name} is furthest ahead on the Military track, wins and moves back "
            f"to space {result.track[result.winner]}"
        )
    seat = state.seat(result.winner)
    state = state.with_seat(replace(seat, status=seat.status + event.reward, cards=seat.cards + 1))
    reward = f" and {event.reward} Status (the Reward)" if event.reward else ""
    state = state.said(f"{result.winner.full_name} takes card {card}{reward}")
    officials = tuple(o for o in state.officials if o.card != card) + tuple(revealed)
    return replace(state, monitor=state.monitor[1:], officials=officials)


def _increase(state: StatusGame, event: IncreaseStatus) -> StatusGame:
    """Phase V: clockwise from the Priority holder, each Faction may discard 1 Economy + 1 Politics + 1 Consensus
    for 1 Status point, or 2 of each for 2; at most 2 in this phase."""
    seat = _in_play(state, event.faction)
    if state.phase is not Phase.V:
        raise StatusError("type", f"Status is increased with Assets in {Phase.V.heading}; this is {state.phase.heading}")
    if seat.faction in state.increased:
        raise StatusError(
            "faction",
            f"{seat.faction.full_name} has had its turn in this phase: at most 2 Status points, "
            "even with more Assets to discard",
        )
    turn = state.to_play
    if turn is not seat.faction:
        raise StatusError("faction", f"it is {turn.full_name if turn else 'nobody'}'s turn to increase Status, not {seat.faction.full_name}'s")
    points = phase_v_points(event.points)
    state = state.with_seat(replace(seat, status=seat.status + points))
    state = replace(state, increased=state.increased + (seat.faction,))
    if points == 0:
        return state.said(f"{seat.faction.full_name} discards nothing")
    sets = "1 Economy, 1 Politics and 1 Consensus" if points == 1 else "2 Economy, 2 Politics and 2 Consensus"
    return state.said(f"{seat.faction.full_name} discards {sets}: +{points} Status, now {seat.status + points}")


def _advance(state: StatusGame) -> StatusGame:
    """The next phase, as "How to Play" orders them; each does by itself what needs no choice."""
    if state.phase is Phase.END:
        raise StatusError("type", "the fourth round is over: enter the final score ('final_score')")
    if state.phase is Phase.II and state.to_play is not None:
        sent = len(state.officials)
        raise StatusError(
            "type",
            f"{sent} of {OFFICIALS * len(state.seats)} Officials are sent: it is {state.to_play.full_name}'s turn",
        )
    if state.phase is Phase.III and state.monitor:
        raise StatusError("type", f"card {state.monitor[0]} still has Officials on it: resolve it first")
    notes: list[str] = []
    if state.phase is Phase.III:  # "Finally, each Faction takes back all of its Officials"
        state = replace(state, officials=())
    if state.phase is Phase.V:
        notes = [f"{f.full_name} increases no Status" for f in state.turn_order if f not in state.increased]
    round_number, phase = next_phase(state.round, state.phase)
    state = replace(state, round=round_number, phase=phase).said(*notes)
    if phase is Phase.END:
        return state.said(f"The game ends after round {ROUNDS}: enter each Faction's Assets and Continents")
    state = state.said(f"Round {round_number}: {phase.heading}")
    if phase is Phase.I:
        return _new_events(state)
    if phase is Phase.III:
        return _reveal(state)
    if phase is Phase.IV:
        return _military_income(state, "Phase IV")
    if phase is Phase.V:
        state = replace(state, increased=())
        return state.said(f"{state.turn_order[0].full_name} starts")
    if phase is Phase.VI:
        holder = priority(state.status, state.track)
        return replace(state, priority=holder).said(f"{holder.full_name} takes the Priority token")
    return state


def _new_events(state: StatusGame) -> StatusGame:
    """Phase I: draw cards from the Event deck, 3 / 4 / 5 for 2 / 3 / 4 Factions, onto the Monitor."""
    n = monitor_size(len(state.seats))
    if state.deck < n:
        raise StatusError("type", f"the Event deck has {state.deck} cards left, fewer than the {n} to draw")
    state = replace(state, deck=state.deck - n, monitor=tuple(range(1, n + 1)))
    return state.said(f"{n} Event cards on the Monitor; {state.deck} left in the deck")


def _reveal(state: StatusGame) -> StatusGame:
    """Phase III: an Event card without at least one Official goes back in the box."""
    empty = [c for c in state.monitor if not state.officials_on(c)]
    state = replace(state, monitor=tuple(c for c in state.monitor if c not in empty))
    for card in empty:
        state = state.said(f"Card {card} has no Official: back in the box")
    if state.monitor:
        state = state.said(f"Card {state.monitor[0]} resolves first")
    return state


def _final(state: StatusGame, event: FinalScoring) -> StatusGame:
    """End of the Game: the most Assets, the Continent majorities, the sets of four; the most Status wins."""
    if state.phase is not Phase.END:
        raise StatusError("type", f"the final score comes after round {ROUNDS}; this is round {state.round}, {state.phase.heading}")
    for name, table in (("assets", event.assets), ("continents", event.continents)):
        for faction in table:
            _in_play(state, faction, f"{name}.{faction}")
        for faction in state.factions:
            if faction not in table:
                raise StatusError(f"{name}.{faction}", f"missing: every Faction's {name} count")
    continents: dict[Faction, Mapping[Continent, int]] = {f: event.continents[f] for f in state.factions}
    score: FinalScore = final_score(state.status, {f: event.assets[f] for f in state.factions}, continents, state.track)
    state = state.with_track(score.track)
    for award in score.awards:
        tie = f" (a tie with {', '.join(f.full_name for f in award.tied if f is not award.faction)}, won on the Military track)" if award.tied else ""
        state = state.said(f"{award.faction.full_name} +{award.points} Status: {award.why}{tie}")
    state = replace(state, seats=tuple(replace(s, status=score.status[s.faction]) for s in state.seats), winner=score.winner)
    return state.said(f"{score.winner.full_name} wins with {score.status[score.winner]} Status points")
