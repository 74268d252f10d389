"""The demo skirmish for the tests: the bundled TOML file through the session's loader.

If the session package (the TOML loader) is not in this tree, an equivalent skirmish is built
in code, so the UI tests do not depend on another part landing first.
"""

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


def demo_scenario() -> Scenario:
    try:
        from assistant.ui.table import demo_path, load_scenario

        return load_scenario(demo_path())
    except ModuleNotFoundError:
        return built_demo()


def built_demo() -> Scenario:
    """Four heroes, three enemy groups, a mystery token, a timed event and an end time (example values)."""
    halberd = AttackSpec("Halberd", "physical", 3, 1, 2, 5, "physique", hits=3, traits=("Critical 1",))
    sling = AttackSpec("Sling", "physical", 2, 2, 6, 5, "physique", hits=1)
    mist = AttackSpec("Quicksilver Mist", "psychic", 4, 1, 4, 5, "mind", contrast=2, effect_wounds=2)
    return Scenario(
        edition="renaissance",
        title="Skirmish at the Ponte Sisto",
        heroes=(
            HeroSpec("valerio", "Valerio", "Squire", 5, 3, 4, 2, 6),
            HeroSpec("sofia", "Sofia", "Huntress", 6, 5, 3, 3, 5),
            HeroSpec("vincenzo", "Vincenzo", "Novice", 4, 2, 3, 5, 5),
            HeroSpec("eleonora", "Eleonora", "Apprentice", 5, 3, 2, 6, 4),
        ),
        enemies=(
            EnemyGroupSpec("papal_guard", "Papal Guard", "elite", "Rome", 4, 4, 6, 5, 6, (halberd,), 1),
            EnemyGroupSpec("slingers", "Slingers", "troop", "Rome", 5, 6, 4, 4, 2, (sling,), 3),
            EnemyGroupSpec("alchemist", "Venetian Alchemist", "elite", "Venice", 3, 5, 4, 6, 4, (mist,), 1),
        ),
        horologium=HorologiumSetup(1, 12, (
            TokenPlacement("valerio", 1), TokenPlacement("sofia", 2), TokenPlacement("vincenzo", 3),
            TokenPlacement("eleonora", 4), TokenPlacement("papal_guard", 2, "enemy"),
            TokenPlacement("slingers", 3, "enemy"), TokenPlacement("alchemist", 6, "enemy"),
            TokenPlacement("mystery-1", 9, "mystery"),
        )),  # fmt: skip
        events=(TimedEvent("bells", 2, 6, "The bells of Santo Spirito ring."),),
        end=EndTime(3, 12),
        example_values=True,
    )
