"""The state of a game in progress: one immutable value, the fold of its events (see `game`)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from assistant.rules.codec import from_data, to_data
from assistant.rules.edition import Edition
from assistant.rules.errors import RuleError, shown
from assistant.rules.horologium import Clock, Side, Token
from assistant.rules.scenario import EnemyGroupSpec, HeroSpec, Scenario


@dataclass(frozen=True)
class HeroState:
    id: str
    wounds: int = 0
    threat: int = 0
    ko: bool = False
    injuries: tuple[str, ...] = ()
    removed: bool = False  # first edition: out of action and not treated in time, out of the game
    equipment_wounds: int = 0  # Wound Tokens on their Equipment (Resistance X; first edition: armour), not theirs
    swiftness: int | None = None  # a Swiftness changed during the mission (an Injury, an effect); None: the sheet's
    location: bool = False  # on a Location Card: off the Battlefield, Enemies ignore them
    statuses: tuple[str, ...] = ()  # Status Tokens on the Hero Sheet (event `status`)


@dataclass(frozen=True)
class ModelState:
    """One miniature of an enemy group."""

    wounds: int = 0
    defeated: bool = False
    statuses: tuple[str, ...] = ()  # Status Tokens next to the model (event `status`)


@dataclass(frozen=True)
class GroupState:
    id: str
    models: tuple[ModelState, ...]

    @property
    def standing(self) -> tuple[int, ...]:
        """Numbers (from 1) of the models still on the battlefield."""
        return tuple(i + 1 for i, model in enumerate(self.models) if not model.defeated)


@dataclass(frozen=True)
class Answer:
    """A fact the table gave the Enemy AI (or a choice of the AI it overrode), kept for the activation."""

    key: str
    value: tuple[str, ...]


@dataclass(frozen=True)
class AttackMade:
    """An Enemy attack resolved during the activation in progress."""

    group: str
    model: int
    hero: str
    attack: str
    wounds: int  # placed on the Hero (those on their Equipment are not theirs: "Wound Tokens and Equipment")
    ko: bool  # the Hero was KO after it
    on_equipment: int = 0  # placed on the Hero's Equipment
    area: bool = False  # Renaissance "Areas": another Hero in the Area's Defense Test, no AP of its own
    beyond: int = 0  # of `wounds`, those past the Hero's Health: no Wound Token left to place (the AI's replay needs it)


@dataclass(frozen=True)
class DeclaredMove:
    """Renaissance "Reaction Attacks": the active Hero declared a Move; every adjacent Enemy attacks before it."""

    adjacent: tuple[str, ...] = ()  # the models ("group/number") the table said were adjacent, with a Range 1 attack
    owed: tuple[str, ...] = ()  # those whose Reaction Attack is still to be rolled, in order
    hero: str = ""  # the Hero who moves ("": the active Hero, as journals before Dashes said)
    movement: str = "move"  # "move" (a Movement Action: the next spend_ap), "dash" or "forced" (no AP: made once none is owed)


@dataclass(frozen=True)
class Turn:
    """The activation in progress."""

    token: str
    ap: int  # Action Points it had at the start
    ap_left: int
    start: int  # the sector its token was in when it activated
    moved: int = 0  # sectors its token has moved since
    answers: tuple[Answer, ...] = ()  # what the table told the Enemy AI during this activation
    attacks: tuple[AttackMade, ...] = ()  # Enemy attacks resolved during this activation
    heroes: tuple[HeroState, ...] = ()  # the Heroes as they stood when the activation began
    move: DeclaredMove | None = None  # a Hero's declared Move (or Dash, Forced Movement) until it is made (`declare_move`)
    shifts: int = 0  # Dashes and Forced Movements of Heroes declared during this activation (the AI's distances change)

    def answer_map(self) -> dict[str, tuple[str, ...]]:
        return {answer.key: answer.value for answer in self.answers}


UNDECIDED = {"time": "time is up", "empty": "no token left", "ko": "heroes KO"}  # `over` values whose result the mission's paragraph gives


@dataclass(frozen=True)
class GameState:
    scenario: Scenario
    clock: Clock
    tokens: tuple[Token, ...]
    heroes: tuple[HeroState, ...]
    groups: tuple[GroupState, ...]
    queue: tuple[str, ...] = ()  # who still acts at this stop, in order (events first)
    ties: tuple[tuple[str, ...], ...] = ()  # groups in the queue the players have still to order
    acted: tuple[str, ...] = ()  # tokens that acted at this stop
    turn: Turn | None = None
    due: tuple[str, ...] = ()  # timed events to resolve before anyone acts
    fired: tuple[str, ...] = ()  # timed events already fired
    reactions: tuple[str, ...] = ()  # first edition: enemy tokens the active Hero overtook
    loot: tuple[str, ...] = ()
    over: str | None = None  # why the mission ended, once it has
    stealth: int = 0  # Renaissance "Stealth": the slot of the Stealth Token (0 = lowest)
    attacked: tuple[str, ...] = ()  # enemy models ("group/n") targeted by an Attack Action during Stealth
    prey_drawn: int = 0  # Renaissance "Hunt Missions": Prey Action Cards drawn so far
    reacted: tuple[str, ...] = ()  # first edition "Reaction": models ("group/n") holding a reaction token
    notes: tuple[str, ...] = ()  # what the last event did, in words
    count: int = 0  # events folded so far

    @property
    def edition(self) -> Edition:
        return Edition(self.scenario.edition)

    def token(self, token_id: str) -> Token:
        for token in self.tokens:
            if token.id == token_id:
                return token
        raise RuleError("token", f"there is no token {shown(token_id)} on the Horologium")

    def has_token(self, token_id: str) -> bool:
        return any(t.id == token_id for t in self.tokens)

    def hero(self, hero_id: str) -> HeroState:
        for hero in self.heroes:
            if hero.id == hero_id:
                return hero
        raise RuleError("hero", f"there is no hero {shown(hero_id)} (heroes: {', '.join(h.id for h in self.heroes)})")

    def hero_spec(self, hero_id: str) -> HeroSpec:
        self.hero(hero_id)
        return self.scenario.hero(hero_id)

    def group(self, group_id: str) -> GroupState:
        for group in self.groups:
            if group.id == group_id:
                return group
        raise RuleError(
            "group", f"there is no enemy group {shown(group_id)} (groups: {', '.join(g.id for g in self.groups)})"
        )

    def group_spec(self, group_id: str) -> EnemyGroupSpec:
        self.group(group_id)
        return self.scenario.enemy(group_id)

    def name(self, token_id: str) -> str:
        """What the table calls a token: the hero's or enemy's name, else its id."""
        for hero in self.scenario.heroes:
            if hero.id == token_id:
                return hero.name
        try:
            return self.scenario.enemy(token_id).name  # drafted groups come from the reserves
        except KeyError:
            return token_id

    def side_of(self, token_id: str) -> Side:
        if any(h.id == token_id for h in self.heroes):
            return Side.HERO
        if any(g.id == token_id for g in self.groups):
            return Side.ENEMY
        return Side.EVENT

    @property
    def active(self) -> str | None:
        return self.turn.token if self.turn else None

    @property
    def up_next(self) -> str | None:
        """The token at the head of the queue, once nothing else is waiting."""
        return self.queue[0] if self.queue else None

    def with_hero(self, hero: HeroState) -> GameState:
        return replace(self, heroes=tuple(hero if h.id == hero.id else h for h in self.heroes))

    def with_group(self, group: GroupState) -> GameState:
        return replace(self, groups=tuple(group if g.id == group.id else g for g in self.groups))

    def with_token(self, token: Token) -> GameState:
        return replace(self, tokens=tuple(token if t.id == token.id else t for t in self.tokens))

    def without_token(self, token_id: str) -> GameState:
        return replace(self, tokens=tuple(t for t in self.tokens if t.id != token_id))._unqueued(token_id)

    def placed(self, token: Token) -> GameState:
        """`token` put in its sector: out of the models waiting to activate there, unless that is the sector the
        hand is on (Renaissance "Horologium": the models with their tokens in the sector become active)."""
        state = self.with_token(token)
        return state if token.sector == self.clock.minute else state._unqueued(token.id)

    def _unqueued(self, token_id: str) -> GameState:
        return replace(
            self,
            queue=tuple(q for q in self.queue if q != token_id),
            ties=tuple(g for g in (tuple(i for i in group if i != token_id) for group in self.ties) if len(g) > 1),
        )

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = to_data(self)
        return data

    @classmethod
    def from_dict(cls, data: Any) -> GameState:
        return from_data(cls, data)
