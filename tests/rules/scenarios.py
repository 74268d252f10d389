"""Small scenarios built in code for the rules tests (card values are examples)."""

from __future__ import annotations

from assistant.rules.scenario import (
    AttackSpec,
    EndTime,
    EnemyGroupSpec,
    HeroSpec,
    HorologiumSetup,
    Scenario,
    TimedEvent,
    TokenPlacement,
)

HALBERD = AttackSpec("Halberd", "physical", ap=3, range_min=1, range_max=1, threshold=5, defended_with="physique", hits=2)
SOULFIRE = AttackSpec(
    "Soulfire", "psychic", ap=3, range_min=1, range_max=6, threshold=5, defended_with="mind", contrast=2, effect_wounds=3
)


def hero(hid: str, swiftness: int = 5, health: int = 5, threat: int = 0, resistance: int = 0) -> HeroSpec:
    return HeroSpec(hid, hid.title(), "Squire", swiftness, 3, 3, 3, health, threat=threat, resistance=resistance)


def group(gid: str, swiftness: int = 4, models: int = 2, health: int = 3, attack: AttackSpec = HALBERD) -> EnemyGroupSpec:
    return EnemyGroupSpec(
        gid, gid.title(), "troop", "Rome", swiftness, control_area=3, physical_defense=5, psychic_defense=5,
        health=health, attacks=(attack,), models=models, loot=("elementum",),
    )


def skirmish(
    edition: str = "renaissance",
    heroes: tuple[HeroSpec, ...] = (),
    enemies: tuple[EnemyGroupSpec, ...] = (),
    placements: tuple[tuple[str, int, str], ...] = (),
    hour: int = 1,
    minute: int = 12,
    events: tuple[TimedEvent, ...] = (),
    end: EndTime | None = None,
) -> Scenario:
    return Scenario(
        edition=edition,  # type: ignore[arg-type]
        title="Test skirmish",
        heroes=heroes,
        enemies=enemies,
        horologium=HorologiumSetup(hour, minute, tuple(TokenPlacement(t, s, side) for t, s, side in placements)),  # type: ignore[arg-type]
        events=events,
        end=end,
        example_values=True,
    )
