"""Attacks, wounds, KO, defeat and healing, as events of a game (see `game`)."""

from __future__ import annotations

from dataclasses import replace

from assistant.rules.combat import (
    Target,
    enemy_physical_attack,
    enemy_psychic_attack,
    hero_physical_attack,
    hero_prayer,
    hero_psychic_attack,
)
from assistant.rules.edition import Edition, term
from assistant.rules.equipment import (
    Placed,
    discard_wounds,
    effects_apply,
    equipment_takes,
    equipment_word,
    on_equipment_words,
    place_wounds,
)
from assistant.rules.errors import RuleError, shown
from assistant.rules.fields import Fields
from assistant.rules.flow import active_hero, finish_turn, move_active
from assistant.rules.horologium import roman, step
from assistant.rules.instructions import plan
from assistant.rules.perilium import KO_THREAT, ThreatCauses, adjust, threat_gain
from assistant.rules.names import model_name
from assistant.rules.prey import cards_left, current_card, is_prey
from assistant.rules.questions import counted
from assistant.rules.reactions import drop_move, settle_reaction
from assistant.rules.scenario import AttackSpec
from assistant.rules.state import AttackMade, GameState, GroupState, HeroState, ModelState
from assistant.rules.statuses import hero_gains, status_traits
from assistant.rules.stealth import stealth_active

KO_ENDS_MISSION = 3  # Renaissance "End of a Mission": "At least 3 Heroes are KO", a common condition


def model_at(state: GameState, f: Fields) -> tuple[GroupState, int]:
    group = state.group(f.text("group"))
    standing = group.standing
    if not standing:
        raise RuleError("group", f"every model of {shown(group.id)} is already defeated")
    number = f.integer("model", standing[0], low=1, high=len(group.models))
    if group.models[number - 1].defeated:
        raise RuleError("model", f"model {number} of {shown(group.id)} is already defeated (standing: {standing})")
    return group, number


def wound_model(state: GameState, group: GroupState, number: int, wounds: int) -> tuple[GameState, bool]:
    """Renaissance "Defeated Enemy": wounds up to Health defeat the model; the last one takes the token."""
    spec = state.scenario.enemy(group.id)
    model = group.models[number - 1]
    total = min(spec.health, model.wounds + wounds)
    defeated = total >= spec.health
    models = list(group.models)
    models[number - 1] = replace(model, wounds=total, defeated=defeated, statuses=() if defeated else model.statuses)
    group = replace(group, models=tuple(models))
    state = state.with_group(group)
    if defeated:
        state = settle_reaction(state, f"{group.id}/{number}")
        if state.edition is Edition.CLASSIC:  # first edition "Loot bag": dropped where it fell, drawn when collected
            state = replace(state, notes=state.notes + (f"Put a loot bag token where {model_name(state, f'{group.id}/{number}')} fell",))
        else:  # Renaissance "Defeated Enemies": its Reagent Cards go to the Loot
            state = replace(state, loot=state.loot + spec.loot)
        if is_prey(state, group.id):  # Renaissance "Hunt Missions": the Hunt ends when the Prey is defeated
            state = replace(state, over="victory: the Prey is defeated", notes=state.notes + (
                f"The Prey is defeated with {counted(cards_left(state), 'Action Card')} unrevealed",))  # fmt: skip
        if not group.standing and state.has_token(group.id):  # Renaissance "Defeated Enemies": the last of their type
            state = state.without_token(group.id)
            state = replace(state, notes=state.notes + (f"Remove the {spec.name} activation token: its last model is defeated",))
            if state.active == group.id:
                state = finish_turn(state)
    return state, defeated


def hero_attack(state: GameState, f: Fields) -> GameState:
    """Renaissance "Heroes Attacks"; first edition "Hero attack": wounds, Critical, Threat. With `reaction: true`, the
    attack of a Reaction Skill (Renaissance "Reaction Skills"), made by a Hero who is not the Active Model, no AP."""
    reaction = f.flag("reaction", False)
    hero = reacting_hero(state, f) if reaction else active_hero(state, f)
    assert state.turn is not None
    if hero.location:  # "Location Card": "cannot target ... other Models"; only the card's Mission's Actions
        raise RuleError("hero", f"{state.name(hero.id)} is on a Location Card: they can only use the Mission's Actions on it")
    group, number = model_at(state, f)
    spec = state.scenario.enemy(group.id)
    kind = f.choice("kind", ("physical", "psychic"), "physical")
    ap = f.integer("ap", 0, low=0, high=0 if reaction else None)
    if ap > state.turn.ap_left:
        raise RuleError("ap", f"{state.name(hero.id)} has {state.turn.ap_left} AP left, not {ap}")
    dice = f.rolled(state.edition, state.hero_spec(hero.id).die)  # first edition "Mastery": d6 or d8; re-rolls made
    default_defense = spec.physical_defense if kind == "physical" else spec.psychic_defense
    defense = f.integer("defense", default_defense, low=1)
    target = Target(spec.health, group.models[number - 1].wounds, spec.immune_to_critical)
    modifier = f.integer("modifier", 0)
    bonus = f.integer("bonus_successes", 0, low=0)
    if stealth_active(state):
        bonus += 1  # Renaissance "Stealth Card": a Hero who attacks an Enemy gains an additional Success
        if f"{group.id}/{number}" not in state.attacked:
            state = replace(state, attacked=state.attacked + (f"{group.id}/{number}",))
    unblockable = f.flag("unblockable", False)
    before = f.astro("astro_before")
    if kind == "psychic" and f.flag("prayer", False):  # first edition "Prayers": the effect for each success
        result = hero_prayer(state.edition, dice, defense, f.integer("effect_wounds", low=0), target, modifier, bonus)
    elif kind == "physical":
        result = hero_physical_attack(state.edition, dice, defense, target, modifier, bonus, unblockable, before)
    else:
        result = hero_psychic_attack(
            state.edition,
            dice,
            defense,
            f.integer("required", low=1),
            f.integer("effect_wounds", low=0),
            target,
            modifier,
            bonus,
            f.astro("astro_wounds"),
            unblockable,
            before,
        )
    if ap:
        state = move_active(state, ap)
    earlier = state.notes
    state, _ = wound_model(state, group, number, result.wounds)
    hero = state.hero(hero.id)
    state = state.with_hero(replace(hero, threat=adjust(hero.threat, result.threat)))
    words = f"{state.name(hero.id)} {'reacts: attacks' if reaction else 'attacks'} {model_name(state, f'{group.id}/{number}')}: {counted(result.successes, 'success', 'successes')}, {counted(result.wounds, 'wound')}"
    if result.critical:
        words += ", Critical"
    if result.defeated:
        words += ", defeated"
    return said_first(earlier, state, f"{words}; {term(state.edition, 'Threat')} +{result.threat}")


def reacting_hero(state: GameState, f: Fields) -> HeroState:
    """Renaissance "Reaction Skills": "usable only when the Hero equipping it is not the Active Model"."""
    if state.edition is not Edition.RENAISSANCE:
        raise RuleError("reaction", "Reaction Skills are a Renaissance rule")
    hero = state.hero(f.text("hero"))
    if state.turn is None:
        raise RuleError("reaction", "a Reaction Skill is used during an activation: nobody is active")
    if hero.id == state.turn.token:
        raise RuleError("reaction", f"{state.name(hero.id)} is the Active Model: a Reaction Skill is usable only when not")
    if hero.ko or hero.removed:
        raise RuleError("hero", f"{state.name(hero.id)} is {_out(state, hero)}: such a Hero's Skills and Equipment produce no effect")
    return hero


def knock_out(state: GameState, hero: HeroState) -> GameState:
    """Renaissance "KO Hero": Perilium -2, token to its KO side; first edition "out of action" -2 TV."""
    if state.scenario.hero(hero.id).role == "ally":
        return defeat_ally(state, hero)
    # "A KO Hero discards all Status Tokens on their Hero Sheet"
    state = state.with_hero(replace(hero, ko=True, threat=adjust(hero.threat, KO_THREAT), statuses=()))
    if state.has_token(hero.id):
        state = state.with_token(replace(state.token(hero.id), ko=True))
    state = drop_move(state, hero.id)  # "Reaction Attacks": KO, "without performing any Movement"
    if state.active == hero.id and not (state.edition is Edition.CLASSIC and state.reactions):
        state = finish_turn(state)  # first edition: the models reacting to the Hero finish their activation first
    heroes = [h for h in state.heroes if state.scenario.hero(h.id).role != "ally"]  # an Ally is no Hero
    knocked = sum(1 for h in heroes if h.ko or h.removed)
    if knocked >= min(KO_ENDS_MISSION, len(heroes)):
        # "End of a Mission": each condition sends the players to a paragraph, which says victory or defeat
        # (`end_mission`); "Playing a Hunt Mission": without the Prey defeated there is no Reward, a defeat.
        over = "defeat: heroes KO" if state.scenario.prey is not None else "ko"
        state = replace(state, over=over, notes=state.notes + (f"The mission ends: {counted(knocked, 'Hero', 'Heroes')} {term(state.edition, 'KO')}",))
    return state


def defeat_ally(state: GameState, ally: HeroState) -> GameState:
    """Renaissance "Wounds": wounds "determine when a Hero Model is KO'd and when a Model other than a Hero is
    Defeated": an Ally with Wound Tokens equal to its Health leaves the Battlefield and the Horologium."""
    state = state.with_hero(replace(ally, ko=True, removed=True))
    state = drop_move(state, ally.id)
    if state.active == ally.id:
        state = finish_turn(state)
    if state.has_token(ally.id):
        state = state.without_token(ally.id)
    return replace(state, notes=state.notes + (f"{state.name(ally.id)} is defeated: remove the Ally's model and token",))


def wound_hero(state: GameState, hero_id: str, wounds: int, equipment: bool = False) -> tuple[GameState, Placed]:
    """Renaissance "Wounds and Wound Tokens": Wound Tokens up to Health KO the Hero. With `equipment`, the
    wounds go on the Hero's Equipment first ("Wound Tokens and Equipment"; first edition "Weapons and armour")."""
    hero = state.hero(hero_id)
    spec = state.scenario.hero(hero_id)
    placed = place_wounds(wounds, spec.resistance - hero.equipment_wounds if equipment else 0)
    total = min(spec.health, hero.wounds + placed.hero)
    hero = replace(hero, wounds=total, equipment_wounds=hero.equipment_wounds + placed.equipment)
    state = state.with_hero(hero)
    if total >= spec.health and not hero.ko:
        state = knock_out(state, hero)
    return state, placed


def critical_of(attack: AttackSpec) -> int:
    """X of the attack's Critical X trait (Renaissance "Critical": of Critical 1, "any Attack that inflicts 3 or more
    Wounds always inflicts an extra Wound"; X extra Wounds for Critical X, docs/rules.md), 0 without one."""
    for trait in attack.traits:
        word, _, number = trait.strip().partition(" ")
        if word.lower() == "critical" and number.strip().isdigit():
            return int(number)
    return 0


def unblockable_attack(attack: AttackSpec) -> bool:
    """An attack whose card lists an Unblockable trait ("Unblockable Wounds")."""
    return any(trait.strip().lower().startswith("unblockable") for trait in attack.traits)


def _effects_words(state: GameState, attack: AttackSpec, placed: Placed) -> str:
    """Renaissance "Effect": a Physical Attack whose every wound went on the Equipment applies no Effect."""
    if attack.kind != "physical" or placed.equipment == 0 or effects_apply(state.edition, True, placed):
        return ""
    return f"; every wound is on {equipment_word(state.edition)}: the attack's Effects do not apply"


def attacks_of(state: GameState, group_id: str) -> tuple[AttackSpec, ...]:
    """The group's attacks, and the Prey's Action Card's own while it holds one (Renaissance "Hunt Missions")."""
    attacks = state.scenario.enemy(group_id).attacks
    card = current_card(state)
    if card is not None and card.attack is not None and is_prey(state, group_id):
        return (*attacks, card.attack)
    return attacks


def attack_spec(state: GameState, group_id: str, f: Fields) -> AttackSpec:
    attacks = attacks_of(state, group_id)
    if not attacks:
        raise RuleError("group", f"{shown(group_id)} has no attack")
    name = f.text("attack", attacks[0].name)
    for attack in attacks:
        if attack.name == name:
            return attack
    raise RuleError("attack", f"{shown(group_id)} has no attack {shown(name)} (attacks: {', '.join(a.name for a in attacks)})")


def enemy_attack(state: GameState, f: Fields) -> GameState:
    """Renaissance "Enemies Attacks"; first edition "Enemies attack": the Hero's Defense Test."""
    group = state.group(f.text("group"))
    if not group.standing:
        raise RuleError("group", f"every model of {shown(group.id)} is defeated")
    hero = state.hero(f.text("hero"))
    if hero.ko or hero.removed:
        raise RuleError("hero", f"{state.name(hero.id)} is {term(state.edition, 'KO')} and cannot be targeted")
    if hero.location:
        raise RuleError("hero", f"{state.name(hero.id)} is on a Location Card: they cannot be targeted by other Models")
    attack = attack_spec(state, group.id, f)
    waiting = plan(state).attack
    default_model = waiting.model if waiting is not None and waiting.group == group.id else group.standing[0]
    model = f.integer("model", default_model, low=1, high=len(group.models))
    if group.models[model - 1].defeated:
        raise RuleError("model", f"model {model} of {shown(group.id)} is defeated (standing: {group.standing})")
    reaction = f.flag("reaction", False)
    area = f.flag("area", False)  # Renaissance "Areas": another Hero in the Area; the attack's AP are not spent again
    unblockable = f.flag("unblockable", unblockable_attack(attack))
    dice = f.rolled(state.edition, state.hero_spec(hero.id).die)  # the Hero's Defense Test, on their own dice
    threshold = f.integer("threshold", attack.threshold, low=1)
    modifier = f.integer("modifier", 0)
    if attack.kind == "physical":
        hits = f.integer("hits", attack.hits if attack.hits is not None else 1, low=0)
        result = enemy_physical_attack(state.edition, hits, threshold, dice, modifier)
        resisted = False
        words = f"{attack.name} on {state.name(hero.id)}: {counted(hits, 'hit')}, {result.successes} saved, {counted(result.wounds, 'wound')}"
    else:
        contrast = f.integer("contrast", attack.contrast if attack.contrast is not None else 1, low=0)
        effect = f.integer("effect_wounds", attack.effect_wounds, low=0)
        result = enemy_psychic_attack(state.edition, contrast, threshold, dice, effect, modifier)
        resisted = result.resisted
        outcome = "resisted" if resisted else counted(result.wounds, "wound")
        words = f"{attack.name} on {state.name(hero.id)}: {result.successes} of {contrast} needed, {outcome}"
    turn = state.turn
    equipment = equipment_takes(state.edition, attack.kind == "physical", unblockable)
    earlier = state.notes
    before = state.hero(hero.id).wounds
    state, placed = wound_hero(state, hero.id, result.wounds, equipment)
    applies = effects_apply(state.edition, attack.kind == "physical", placed, resisted)
    extra = critical_of(attack) if applies and result.wounds >= 3 and state.edition is Edition.RENAISSANCE else 0
    if extra and not state.hero(hero.id).ko:  # Renaissance "Critical": 3 or more Wounds inflict an extra Wound
        state, more = wound_hero(state, hero.id, extra, equipment)
        placed = Placed(placed.hero + more.hero, placed.equipment + more.equipment)
        words += f"; Critical {extra}: {counted(extra, 'extra wound')}"
    beyond = before + placed.hero - state.hero(hero.id).wounds  # Wound Tokens stop at Health
    if reaction:  # Renaissance "Reaction Attacks": this model's attack is rolled (a KO Hero's move is over already)
        state = settle_reaction(state, f"{group.id}/{model}")
    words += on_equipment_words(state.edition, placed.equipment) + _effects_words(state, attack, placed)
    for token in status_traits(attack.traits) if applies else ():  # an Effect's Status Token: the Hero gains it
        if not state.hero(hero.id).ko:  # "KO Hero": a KO Hero suffers no game effect
            state = hero_gains(state, hero.id, token)
    ko = state.hero(hero.id).ko
    if ko:
        words += f"; {state.name(hero.id)} is {term(state.edition, 'KO')}"
    if turn is not None and not reaction and state.turn is not None:
        made = AttackMade(group.id, model, hero.id, attack.name, placed.hero, ko, placed.equipment, area, beyond)
        state = replace(state, turn=replace(state.turn, attacks=state.turn.attacks + (made,)))
    return said_first(earlier, state, ("Reaction Attack: " if reaction else "In the Area: " if area else "") + words)


def said_first(earlier: tuple[str, ...], state: GameState, words: str) -> GameState:
    """`words` (what the event did) before the notes of what it caused (a KO's end of the turn or of the mission,
    the last of a type's token removed, a loot bag); `earlier`: the notes before it."""
    return replace(state, notes=earlier + (words,) + state.notes[len(earlier):])


def damage(state: GameState, f: Fields) -> GameState:
    """Wounds from anything but an attack test (a Status Token, a mission effect, a correction).

    A Hero's go on their Equipment first only with `equipment: true`; that is the default in the first
    edition ("the first wounds inflicted must be positioned on the armour card"), not in Renaissance,
    where only a Physical Attack's may ("Wound Tokens and Equipment": never a Status Token's).
    """
    wounds = f.integer("wounds", low=1)
    if f.has("hero"):
        hero = state.hero(f.text("hero"))
        if hero.ko or hero.removed:
            raise RuleError("hero", f"{state.name(hero.id)} is {_out(state, hero)}: such a Hero suffers no game effect")
        equipment = f.flag("equipment", equipment_takes(state.edition, physical=False))
        earlier = state.notes
        state, placed = wound_hero(state, hero.id, wounds, equipment)
        words = f"{state.name(hero.id)} suffers {counted(wounds, 'wound')}{on_equipment_words(state.edition, placed.equipment)}"
        return said_first(earlier, state, words + (f"; {state.name(hero.id)} is {term(state.edition, 'KO')}" if state.hero(hero.id).ko else ""))
    group, number = model_at(state, f)
    by = acting_hero(state, f)
    earlier = state.notes
    state, defeated = wound_model(state, group, number, wounds)
    if by is not None:  # wounds from a Status Token count for nobody ("Status Tokens")
        hero = state.hero(by)
        gain = threat_gain(state.edition, ThreatCauses(wounds=wounds, defeated=int(defeated)))
        state = state.with_hero(replace(hero, threat=adjust(hero.threat, gain)))
    name = model_name(state, f"{group.id}/{number}")
    return said_first(earlier, state, f"{name} suffers {counted(wounds, 'wound')}" + (", defeated" if defeated else ""))


def heal(state: GameState, f: Fields) -> GameState:
    """Renaissance "Wounds" / "Threat Level" / "KO Hero": discard wounds; the healer gains 1 Threat.

    The Hero's wounds go first; first edition "Weapons and armour": then the armour's. Renaissance "Wound
    Tokens and Equipment": those on Equipment only by effects that say so (event `equipment_wounds`).
    """
    wounds = f.integer("wounds", low=1)
    if not f.has("hero") and f.has("group"):
        return heal_model(state, f, wounds)
    target = state.hero(f.text("hero"))
    if target.removed:
        raise RuleError("hero", f"{state.name(target.id)} is out of the game: an out of action hero not treated before their next activation is removed")
    by = acting_hero(state, f)
    discarded = discard_wounds(state.edition, target.wounds, target.equipment_wounds, wounds)
    if discarded.total == 0:
        kept = f" ({target.equipment_wounds} on the Equipment: only an effect that says so discards them, event equipment_wounds)"
        raise RuleError("hero", f"{state.name(target.id)} has no wound to discard" + (kept if target.equipment_wounds else ""))
    healed = replace(target, wounds=target.wounds - discarded.hero, equipment_wounds=target.equipment_wounds - discarded.equipment)
    placed_words = ""
    if target.ko:  # no longer KO: Renaissance "KO Hero": the token goes one sector ahead of the active model's
        healed = replace(healed, ko=False)
        anchor = state.token(state.active).sector if state.active else state.clock.minute
        if state.has_token(target.id) and state.edition is Edition.CLASSIC:  # "treated": it stays (nothing said)
            state = state.placed(replace(state.token(target.id), ko=False))
        elif state.has_token(target.id):
            state = state.placed(replace(state.token(target.id), ko=False, sector=step(anchor, 1)))
            placed_words = f"; {state.name(target.id)}'s token goes to sector {roman(step(anchor, 1))}"
    state = state.with_hero(healed)
    if by is not None:
        healer = state.hero(by)
        gain = threat_gain(state.edition, ThreatCauses(healed=True))
        state = state.with_hero(replace(healer, threat=adjust(healer.threat, gain)))
    words = f"{state.name(target.id)} discards {counted(discarded.total, 'wound')}{on_equipment_words(state.edition, discarded.equipment)}"
    return replace(state, notes=state.notes + (words + placed_words,))


def heal_model(state: GameState, f: Fields, wounds: int) -> GameState:
    """Renaissance "Wounds": "remove an equal number of Wound Tokens ... from among those placed next to the Model";
    first edition "Healing" (an Enemy Skill). No Hero gains Threat for it."""
    group, number = model_at(state, f)
    if f.has("by"):
        raise RuleError("by", "an Enemy's wounds are discarded by an Enemy's effect: no Hero's Threat Level changes")
    model = group.models[number - 1]
    name = model_name(state, f"{group.id}/{number}")
    if model.wounds == 0:
        raise RuleError("group", f"{name} has no wound to discard")
    gone = min(wounds, model.wounds)
    models = list(group.models)
    models[number - 1] = replace(model, wounds=model.wounds - gone)
    state = state.with_group(replace(group, models=tuple(models)))
    return replace(state, notes=state.notes + (f"{name} discards {counted(gone, 'wound')}",))


def acting_hero(state: GameState, f: Fields) -> str | None:
    """The Hero named by `by`, whose Skill or Equipment had the effect: never a KO one (Renaissance "KO Hero")."""
    if not f.has("by"):
        return None
    hero = state.hero(f.text("by"))
    if hero.ko or hero.removed:
        raise RuleError("by", f"{state.name(hero.id)} is {_out(state, hero)}: such a Hero's Skills and Equipment produce no effect")
    return hero.id


def _out(state: GameState, hero: HeroState) -> str:
    return "out of the game" if hero.removed else term(state.edition, "KO")


def equipment_wounds(state: GameState, f: Fields) -> GameState:
    """Wounds put on or taken off a Hero's Equipment: an effect that says so (Renaissance "Wound Tokens and
    Equipment": they are "only discarded by effects that specifically indicate so"), or a correction."""
    hero = state.hero(f.text("hero"))
    room = state.hero_spec(hero.id).resistance
    delta = f.integer("delta")
    where = equipment_word(state.edition)
    if room == 0:
        raise RuleError("hero", f"{state.name(hero.id)} has nothing on {where} to hold wounds (resistance 0 in the scenario)")
    total = hero.equipment_wounds + delta
    if not 0 <= total <= room:
        raise RuleError("delta", f"must be from {-hero.equipment_wounds} to {room - hero.equipment_wounds}, not {delta}: "
                                 f"{where} of {state.name(hero.id)} holds {hero.equipment_wounds} of {room} wounds")  # fmt: skip
    state = state.with_hero(replace(hero, equipment_wounds=total))
    return replace(state, notes=state.notes + (f"{state.name(hero.id)}: {'+' if delta > 0 else '-'}{counted(abs(delta), 'wound')} on {where}, now {total} of {room}",))


def discard_at_end(state: GameState) -> GameState:
    """Renaissance "Wound Tokens and Equipment": "The Wounds on an Equipment Card are all discarded after the End
    of a Mission" (the first edition's armour too: a choice, see docs/rules.md)."""
    if state.over is None or not any(h.equipment_wounds for h in state.heroes):
        return state
    heroes = tuple(replace(h, equipment_wounds=0) for h in state.heroes)
    return replace(state, heroes=heroes, notes=state.notes + (f"The wounds on {equipment_word(state.edition)} are discarded",))
