"""What a mission or skirmish sets on the table: heroes, enemy groups, Horologium, goals, times.

Pure values, no I/O: the TOML reader that builds them is `assistant.session.scenario_file`,
and `docs/scenario.md` documents the file format field by field.

Both editions map onto one shape (Renaissance "Heroes Characteristics"; first edition "Heroes"):

=====================  ===========================  =======================================
HeroSpec field         Renaissance hero sheet       first edition hero sheet
=====================  ===========================  =======================================
swiftness              Swiftness                    Rapidity (Ra)
dexterity              Dexterity                    Physical (Ph): it covers throwing and
                                                    fighting alike, so it is copied here
physique               Physique                     Physical (Ph)
mind                   Mind                         Mind (Mi)
health                 Health                       Wounds (Wo)
die                    8 (every test rolls d8)      Mastery: 6 (basic class) or 8 (specialisation)
resistance             the X of the Equipment       the Wo of the armour card
                       equipped with Resistance X,
                       summed
=====================  ===========================  =======================================

Enemy cards map the same way: Rapidity -> swiftness, Ca -> control_area, Pd -> physical_defense,
Md -> psychic_defense, Wo -> health; an attack's "Strikes" -> hits and "Physical attack N+" or
"Mental attack N+" -> threshold.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Edition = Literal["classic", "renaissance"]
Rank = Literal["troop", "elite", "monster"]
AttackKind = Literal["physical", "psychic"]
Characteristic = Literal["swiftness", "dexterity", "physique", "mind"]
TokenSide = Literal["hero", "enemy", "event", "mystery"]
Role = Literal["hero", "companion", "ally"]

EDITIONS: tuple[Edition, ...] = ("classic", "renaissance")
RANKS: tuple[Rank, ...] = ("troop", "elite", "monster")
ATTACK_KINDS: tuple[AttackKind, ...] = ("physical", "psychic")
CHARACTERISTICS: tuple[Characteristic, ...] = ("swiftness", "dexterity", "physique", "mind")
ROLES: tuple[Role, ...] = ("hero", "companion", "ally")
SECTORS = range(1, 13)
"""Horologium sectors I to XII, as numbers 1 to 12."""

PRIORITY_FACTORS: tuple[str, ...] = (
    "threat",
    "closest",
    "farthest",
    "most_wounds",
    "fewest_wounds",
    "lowest_health",
    "highest_mind",
    "lowest_mind",
    "highest_physique",
    "lowest_physique",
    "standard",
)
"""Profile-card target-priority factors ("Profile Card": the list ends in "Standard")."""


@dataclass(frozen=True)
class HeroSpec:
    """A hero as the scenario brings them to the table (hero sheet, class, starting Perilium)."""

    id: str
    name: str
    hero_class: str
    swiftness: int
    dexterity: int
    physique: int
    mind: int
    health: int
    die: int = 8
    threat: int = 0
    resistance: int = 0
    """Wounds the Hero's Equipment can take (Renaissance "Resistance X", summed; first edition: the armour's Wo)."""
    role: Role = "hero"
    """Renaissance "Companion" (a Hero who never draws Injury Cards) or "Ally" (a Friendly Model the players
    play, whose token moves its Swiftness at activation; a Hero when targeted); "hero" otherwise."""


@dataclass(frozen=True)
class AttackSpec:
    """One attack of an enemy card ("Enemies Attacks"; first edition "Enemies attack").

    A physical attack deals `hits`, each cancelled by one success of the hero's defence test on
    `defended_with` at `threshold`. A psychic attack is resisted when the hero's test reaches
    `contrast` successes; otherwise it inflicts `effect_wounds` (and its traits).
    """

    name: str
    kind: AttackKind
    ap: int
    range_min: int
    range_max: int
    threshold: int
    defended_with: Characteristic
    hits: int | None = None
    contrast: int | None = None
    effect_wounds: int = 0
    traits: tuple[str, ...] = ()


@dataclass(frozen=True)
class EnemyGroupSpec:
    """An enemy type: one card, one activation token, `models` miniatures ("Enemy Cards")."""

    id: str
    name: str
    rank: Rank
    faction: str
    swiftness: int
    control_area: int
    physical_defense: int
    psychic_defense: int
    health: int
    attacks: tuple[AttackSpec, ...]
    models: int = 1
    target_priority: tuple[str, ...] = ("standard",)
    loot: tuple[str, ...] = ()
    generic_skills: tuple[str, ...] = ()
    immune_to_critical: bool = False
    goal: str | None = None
    """Id of the MissionGoal this group pursues, or None when it only hunts heroes."""
    draft_models: int | None = None
    """"Draft Cards": the Number of Models available printed on the enemy's Draft Card (None: `models`)."""


@dataclass(frozen=True)
class TokenPlacement:
    """An activation (or event / mystery) token in a Horologium sector at the start."""

    token: str
    sector: int
    side: TokenSide = "hero"


@dataclass(frozen=True)
class HorologiumSetup:
    """The "Horologium" section of a mission card: hands and tokens at the start."""

    hour: int
    minute: int
    tokens: tuple[TokenPlacement, ...]


@dataclass(frozen=True)
class DraftOrder:
    """An Enemy Draft a mission calls for (Renaissance "Enemy Draft"): which cards, how many squares, where."""

    faction: str
    rank: Rank
    squares: int
    place: str = ""  # where the models go, as the mission says (a map point, a Focus Point)
    exclude: tuple[str, ...] = ()  # enemy ids whose Draft Card stays out of the deck
    exclude_skills: tuple[str, ...] = ()  # cards with these skills stay out (e.g. "Shooter", "Horde")
    sector: int | None = None  # the sector for new activation tokens; None: the one after the active sector


@dataclass(frozen=True)
class TimedEvent:
    """Instructions that fire when the hands reach `hour` and sector `minute`."""

    id: str
    hour: int
    minute: int
    text: str
    draft: DraftOrder | None = None  # an Enemy Draft the event calls for


@dataclass(frozen=True)
class PreyCard:
    """A Prey Action Card (Renaissance "Hunt Missions"): the AP it spends and what the Prey does."""

    number: int
    ap: int
    text: str
    target: str = "target_hero"  # "target_hero", "none", or a factor chosen ignoring the Control Area
    attack: AttackSpec | None = None  # the attack the card makes on its target, if any


@dataclass(frozen=True)
class PreySpec:
    """The Prey of a Hunt Mission: its enemy group and its Action deck, card 1 on top."""

    group: str
    deck: tuple[PreyCard, ...]


@dataclass(frozen=True)
class MissionGoal:
    """A goal the mission gives the enemies, with its Threat Level (None: pursued regardless)."""

    id: str
    text: str
    threat: int | None = None


@dataclass(frozen=True)
class EndTime:
    """The mission ends at once when the hands reach this hour and sector ("End of a Mission")."""

    hour: int
    minute: int


@dataclass(frozen=True)
class Scenario:
    """A whole mission or skirmish, as read from a scenario file."""

    edition: Edition
    title: str
    heroes: tuple[HeroSpec, ...]
    enemies: tuple[EnemyGroupSpec, ...]
    horologium: HorologiumSetup
    goals: tuple[MissionGoal, ...] = ()
    events: tuple[TimedEvent, ...] = ()
    end: EndTime | None = None
    victory: tuple[str, ...] = ()
    defeat: tuple[str, ...] = ()
    example_values: bool = False
    """True when the card values are made up for the example (the rulebooks print none)."""
    description: str = ""
    reserves: tuple[EnemyGroupSpec, ...] = ()
    """Enemy cards that enter only through an Enemy Draft (`models`: miniatures the Draft Card makes available)."""
    stealth: tuple[int, ...] = ()
    """Renaissance "Stealth": the values of the track's slots above the lowest, bottom to top; the top slot is the alarm."""
    prey: PreySpec | None = None
    """Renaissance "Hunt Missions": the Prey and its Action deck."""
    campaign: bool = False
    """A mission of the Renaissance campaign: its end goes onto the state file's campaign sheet."""

    def hero(self, hero_id: str) -> HeroSpec:
        """The hero with this id (KeyError if the scenario has none)."""
        for spec in self.heroes:
            if spec.id == hero_id:
                return spec
        raise KeyError(hero_id)

    def enemy(self, group_id: str) -> EnemyGroupSpec:
        """The enemy group (or Draft reserve) with this id (KeyError if the scenario has none)."""
        for spec in self.enemies + self.reserves:
            if spec.id == group_id:
                return spec
        raise KeyError(group_id)
