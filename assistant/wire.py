"""Reading rules requests from JSON objects and writing the answers (for `resolve` and scripts)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from assistant.rules.ai import Goal, GoalView, HeroFacts, distance_oracle, settle_goal
from assistant.rules.combat import (
    Target,
    enemy_physical_attack,
    enemy_psychic_attack,
    hero_physical_attack,
    hero_psychic_attack,
)
from assistant.rules.bounds import HEROES, TOKENS
from assistant.rules.dice import DEFAULT_THRESHOLD, astro, check_dice, successes
from assistant.rules.edition import Edition
from assistant.rules.equipment import effects_apply, equipment_takes, place_wounds
from assistant.rules.errors import RuleError, shown
from assistant.rules.fields import Fields
from assistant.rules.horologium import Clock, Side, Token, check_sector, forced_wait, next_activation
from assistant.rules.scenario import PRIORITY_FACTORS, MissionGoal


def _final(f: Fields, dice: tuple[int, ...]) -> dict[str, Any]:
    """The dice the answer was computed on, where re-rolls changed them (Renaissance "Dice Re-roll")."""
    return {"dice": list(dice)} if f.has("rerolls") else {}


def answer_test(f: Fields) -> dict[str, Any]:
    edition = f.edition()
    dice = f.rolled(edition)
    threshold = f.integer("threshold", DEFAULT_THRESHOLD, low=1)
    modifier = f.integer("modifier", 0)
    return {
        "successes": successes(edition, dice, threshold, modifier),
        "astro": astro(dice, edition).as_dict(),
    } | _final(f, dice)


def _target(f: Fields) -> Target:
    target = f.object("target")
    assert target is not None
    result = Target(
        health=target.integer("health", low=1),
        wounds=target.integer("wounds", 0, low=0),
        immune_to_critical=target.flag("immune_to_critical", False),
    )
    target.finish()
    return result


def answer_hero_attack(f: Fields) -> dict[str, Any]:
    edition = f.edition()
    kind = f.choice("kind", ("physical", "psychic"))
    dice = f.rolled(edition)
    defense = f.integer("defense", low=1)
    target = _target(f)
    modifier = f.integer("modifier", 0)
    bonus = f.integer("bonus_successes", 0, low=0)
    unblockable = f.flag("unblockable", False)
    if kind == "physical":
        result = hero_physical_attack(edition, dice, defense, target, modifier, bonus, unblockable, f.astro("astro_before"))
    else:
        result = hero_psychic_attack(
            edition,
            dice,
            defense,
            required=f.integer("required", low=1),
            effect_wounds=f.integer("effect_wounds", low=0),
            target=target,
            modifier=modifier,
            bonus_successes=bonus,
            astro_wounds=f.astro("astro_wounds"),
            unblockable=unblockable,
            astro_before=f.astro("astro_before"),
        )
    return {
        "successes": result.successes,
        "wounds": result.wounds,
        "critical": result.critical,
        "defeated": result.defeated,
        "threat": result.threat,
    } | _final(f, dice)


def answer_enemy_attack(f: Fields) -> dict[str, Any]:
    """The Hero's Defense Test; with `resistance_left` (room left on their Equipment for Wound Tokens) the
    wounds are split between the Hero and their Equipment, and `effects` says whether the attack's Effects
    apply (Renaissance "Wound Tokens and Equipment", "Effect"; first edition "Weapons and armour")."""
    edition = f.edition()
    kind = f.choice("kind", ("physical", "psychic"))
    threshold = f.integer("threshold", DEFAULT_THRESHOLD, low=1)
    dice = f.rolled(edition)
    modifier = f.integer("modifier", 0)
    unblockable = f.flag("unblockable", False)
    answer: dict[str, Any]
    if kind == "physical":
        result = enemy_physical_attack(edition, f.integer("hits", low=0), threshold, dice, modifier)
        answer = {"successes": result.successes, "wounds": result.wounds}
    else:
        result = enemy_psychic_attack(
            edition, f.integer("contrast", low=0), threshold, dice, f.integer("effect_wounds", low=0), modifier
        )
        answer = {"successes": result.successes, "resisted": result.resisted, "wounds": result.wounds}
    if f.has("resistance_left"):
        room = f.integer("resistance_left", low=0)
        physical = kind == "physical"
        placed = place_wounds(result.wounds, room if equipment_takes(edition, physical, unblockable) else 0)
        answer |= {"on_hero": placed.hero, "on_equipment": placed.equipment,
                   "effects": effects_apply(edition, physical, placed, result.resisted)}  # fmt: skip
    return answer | _final(f, dice)


def read_token(f: Fields) -> Token:
    side = Side.parse(f.raw("side"), f.name("side"))
    token = Token(
        id=f.text("id"),
        side=side,
        sector=f.sector("sector"),
        swiftness=f.integer("swiftness", 0, low=0),
        ko=f.flag("ko", False),
    )
    f.finish()
    return token


def answer_next_activation(f: Fields) -> dict[str, Any]:
    f.edition()  # both editions order a sector the same way
    clock = Clock(hour=f.integer("hour", low=0), minute=f.sector("minute"))
    tokens = [read_token(item) for item in f.items("tokens", most=TOKENS)]
    seen: set[str] = set()
    for index, token in enumerate(tokens):
        if token.id in seen:
            raise RuleError(f"tokens[{index}].id", f"{shown(token.id)} is on the Horologium twice")
        seen.add(token.id)
    done = [str(x) for x in f.array("done", [])]
    activation = next_activation(clock, tokens, done)
    return {
        "minute": activation.clock.minute,
        "hour": activation.clock.hour,
        "order": list(activation.order),
        "ties": [list(group) for group in activation.ties],
    }


def answer_forced_wait(f: Fields) -> dict[str, Any]:
    edition = f.edition()
    enemies = f.array("enemy_sectors", most=TOKENS)
    sectors = [check_sector(s, f"enemy_sectors[{i}]") for i, s in enumerate(enemies)]
    wait, end = forced_wait(f.sector("start"), f.sector("position"), f.integer("ap_left", low=0), sectors, edition)
    return {"wait": wait, "end": end}


def answer_ai_goal(f: Fields) -> dict[str, Any]:
    """Renaissance "Artificial Intelligence (AI)" / first edition "Rule the Enemies": one Enemy's goal."""
    edition = f.edition()
    control_area = f.integer("control_area", low=0)
    goal = f.object("mission_goal", None)
    mission = None
    if goal is not None:
        threat = goal.raw("threat", None)
        if threat is not None:
            threat = goal.integer("threat", low=0)
        goal.finish()
        mission = MissionGoal("mission", "the mission goal", threat)
    priority = tuple(str(p) for p in f.array("priority", ["standard"]))
    for index, factor in enumerate(priority):
        if factor not in PRIORITY_FACTORS:
            raise RuleError(f"priority[{index}]", f"must be one of {', '.join(PRIORITY_FACTORS)}, not {shown(factor)}")
    needs = {field for factor in priority for field in ("health", "mind", "physique") if field in factor}
    heroes: list[HeroFacts] = []
    distances: dict[str, int] = {}
    for index, item in enumerate(f.items("heroes", most=HEROES)):
        for field in sorted(needs):
            if not item.has(field):
                raise RuleError(item.name(field), f"missing (the priority {', '.join(priority)} needs it)")
        hero_id = item.text("id")
        if hero_id == "mission" or hero_id in distances:
            raise RuleError(f"heroes[{index}].id", f"{shown(hero_id)} is used twice or is the word 'mission'")
        distances[hero_id] = item.integer("distance", low=0)
        heroes.append(HeroFacts(
            id=hero_id,
            name=str(item.raw("name", hero_id)),
            threat=item.integer("threat", low=0),
            wounds=item.integer("wounds", 0, low=0),
            ko=item.flag("ko", False),
            health=item.integer("health", low=1) if item.has("health") else None,
            mind=item.integer("mind", low=0) if item.has("mind") else None,
            physique=item.integer("physique", low=0) if item.has("physique") else None,
        ))
        item.finish()
    view = GoalView(edition, "enemy", "the Enemy", control_area, tuple(heroes), mission, priority)
    step, _ = settle_goal(view, distance_oracle(distances))
    if isinstance(step, Goal):
        return {"goal": "mission" if step.mission else step.hero, "candidates": [], "reason": step.reason}
    return {"goal": None, "candidates": list(step.about), "reason": f"{step.why}: {step.text}"}
