"""What the table does next, in plain sentences: `plan(state)` for the active group, events, KO Heroes.

`plan(state)` is a pure function of the game state, whose activation in progress holds the
answers the table gave so far (`Turn.answers`) and the Enemy attacks resolved (`Turn.attacks`).
It returns every instruction for the active group as far as the facts go, and then either the
next Question to ask (journal the answer as `{"type": "ai_answer", "question": key, "answer": a}`),
or the attack whose Defense Test the Hero rolls (journal `attack.event(dice)`), or `done` (journal
`{"type": "end_activation"}`). Open choices the AI made where the books are silent are listed in
`choices`: an `ai_answer` with their key overrides them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from assistant.rules.ai import (
    Goal,
    GoalView,
    HeroFacts,
    Recalled,
    decide_goal,
    distance_question,
    factor_words,
    in_area_question,
    known_key,
)
from assistant.rules.edition import Edition, term
from assistant.rules.areas import NOBODY as NOBODY  # the answer for nobody (in the Area, adjacent)
from assistant.rules.areas import around_target, told_before, told_key
from assistant.rules.enemy_skills import activation_phases, ap_for, squares_per_ap
from assistant.rules.equipment import on_equipment_words
from assistant.rules.horologium import Side
from assistant.rules.names import agree, model_name, name_of
from assistant.rules.perilium import KO_THREAT, adjust
from assistant.rules.prey import cards_left, current_card
from assistant.rules.draft import draft_deck
from assistant.rules.questions import MORE, NO, YES, YES_NO, Answer, Answers, Question, answered, counted, listing
from assistant.rules.scenario import AttackSpec, EnemyGroupSpec, MissionGoal, PreyCard
from assistant.rules.state import UNDECIDED, AttackMade, DeclaredMove, GameState
from assistant.rules.statuses import start_reminder
from assistant.rules.stealth import needed, stealth_active

CLASSIC_ATTACK_AP = 3  # first edition "Attack (AP 3)": an attack generally costs 3 AP
ROMAN = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII")


@dataclass(frozen=True)
class AttackOrder:
    """An Enemy attack to resolve, with every number the Hero's Defense Test needs."""

    group: str
    model: int
    hero: str
    attack: str
    kind: str
    threshold: int
    defended_with: str
    dice: int  # dice the Hero rolls: their value of `defended_with`
    hits: int | None = None
    contrast: int | None = None
    effect_wounds: int = 0
    traits: tuple[str, ...] = ()
    reaction: bool = False
    area: bool = False  # Renaissance "Areas": another Hero in the attack's Area, with a Defense Test of their own

    def event(self, dice: Sequence[int]) -> dict[str, Any]:
        """The `enemy_attack` event that resolves this attack with the dice the Hero rolled."""
        event: dict[str, Any] = {"type": "enemy_attack", "group": self.group, "model": self.model,
                                 "hero": self.hero, "attack": self.attack, "dice": list(dice)}  # fmt: skip
        if self.reaction:
            event["reaction"] = True
        if self.area:
            event["area"] = True
        return event


@dataclass(frozen=True)
class Instruction:
    """One short sentence for the table, with the rule it follows."""

    kind: str  # activate, goal, move, attack, attacked, engage, stay, patrol, alarm, token, done, injury, event, draft, prey, order, declare, skill, status
    text: str
    rule: str
    model: str = ""  # "group/number" when it is about one Enemy model
    choice: str = ""  # the key of the open choice behind it: the table may override it
    attack: AttackOrder | None = None
    squares: int = 0  # a move: how many squares (at most, toward the mission goal or for a Patrol)
    toward: str = ""  # a move: the hero id it moves toward, "mission", or "patrol"


@dataclass(frozen=True)
class Plan:
    """The instructions so far and what the table must give next."""

    token: str | None
    steps: tuple[Instruction, ...]
    question: Question | None = None  # the next fact to ask (journal an `ai_answer`)
    attack: AttackOrder | None = None  # the attack waiting for the Hero's dice (journal `attack.event(dice)`)
    choices: tuple[Question, ...] = ()  # open choices the AI made: an `ai_answer` overrides them
    done: bool = False  # the active group has nothing left to do: end its activation
    recalled: tuple[tuple[Question, Answer], ...] = ()  # questions the AI answered itself from earlier answers (`ai.recall`)
    ap_left: tuple[tuple[str, int], ...] = ()  # ("group/n", AP): each Enemy model's AP still to spend, as far as planned

    def question_for(self, key: str) -> Question | None:
        """The pending question or open choice with this key."""
        for question in ((self.question,) if self.question else ()) + self.choices:
            if question.key == key:
                return question
        return None

    def recalled_question(self, key: str) -> Question | None:
        """A question the AI no longer asks, its answer following from earlier ones (a journal of an older
        Nova Table may still answer it: the table's answer then stands, as it did)."""
        return next((question for question, _ in self.recalled if question.key == key), None)


@dataclass
class _Draft:
    """The plan being written (mutable only inside `plan`)."""

    steps: list[Instruction] = field(default_factory=list)
    choices: list[Question] = field(default_factory=list)
    recalled: Recalled = field(default_factory=list)
    areas: dict[tuple[str, str], Answer] = field(default_factory=dict)  # the group's answers of Areas around a target
    ap: dict[str, int] = field(default_factory=dict)  # each model's AP still to spend, as far as planned

    def add(self, kind: str, text: str, rule: str, model: str = "", choice: str = "", attack: AttackOrder | None = None,
            squares: int = 0, toward: str = "") -> None:  # fmt: skip
        self.steps.append(Instruction(kind, text, rule, model, choice, attack, squares, toward))


def plan(state: GameState) -> Plan:
    """The instructions for whatever the table does now (see the module docstring)."""
    if state.over is not None:
        result, _, reason = state.over.partition(": ")
        out = sum(1 for h in state.heroes if (h.ko or h.removed) and state.scenario.hero(h.id).role != "ally")  # an Ally is no Hero
        knocked = f"{counted(out, 'Hero', 'Heroes')} {term(state.edition, 'KO')}"
        if reason == "heroes KO":  # "End of a Mission": at least 3 Heroes are KO
            reason = knocked
        said = UNDECIDED.get(result, result) + (f" ({reason})" if reason else "")
        if result == "ko":  # "End of a Mission": the condition's paragraph says which it is
            said = f"{knocked}; read the paragraph the mission gives for it: victory or defeat"
        return Plan(None, (Instruction("done", f"The mission is over: {said}.", "End of a Mission"),), done=True)
    if state.due:
        return _events_plan(state)
    turn = state.turn
    if turn is None:
        return _stop_plan(state)
    if state.side_of(turn.token) is Side.HERO:
        return _hero_plan(state)
    return _group_plan(state)


# ---------------------------------------------------------------------------------------------
# between activations


def _events_plan(state: GameState) -> Plan:
    draft = _Draft()
    for event in state.scenario.events:
        if event.id not in state.due:
            continue
        draft.add("event", f"Event {name_of(state, event.id)}: {event.text}", "Horologium: events resolve before any activation")
        order = event.draft
        if order is not None:
            deck = draft_deck(state, order)
            names = [c.name for c in deck]
            where = f" at {order.place}" if order.place else ""
            sector = ROMAN[(order.sector if order.sector is not None else _next_sector(state)) - 1]
            squares = f"each of the {order.squares} squares" if order.squares != 1 else "the square"
            # "Enemy Draft" 4: a token only for Enemies the Horologium does not already hold
            placed = [c.name for c in deck if state.has_token(c.id)]
            if not placed:
                token = f"A new activation token goes in sector {sector}."
            elif len(placed) == len(deck):
                token = f"{listing(placed)} already {'has' if len(placed) == 1 else 'have'} an activation token: no new one."
            else:
                token = f"A new activation token goes in sector {sector}, unless the card drawn is {listing(placed, 'or')}, already on the Horologium."
            draft.add(
                "draft",
                f"Enemy Draft: shuffle the {order.faction} {order.rank} Draft Cards ({listing(names) or 'none'}) and draw one. "
                f"Place a model on {squares}{where}; if the card has too few models, draw again. {token}",
                "Enemy Draft",
            )
    return Plan(None, tuple(draft.steps))


def _next_sector(state: GameState) -> int:
    return state.clock.minute % 12 + 1


def _stop_plan(state: GameState) -> Plan:
    draft = _Draft()
    if state.queue and state.queue[0] in {t.id for t in state.tokens if t.side is Side.EVENT}:
        draft.add("event", f"Resolve the {name_of(state, state.queue[0])} token in sector {ROMAN[state.clock.minute - 1]} as the mission says.",
                  "Horologium: Event and Mystery Tokens")  # fmt: skip
    for tie in state.ties:
        names = listing([_token_name(state, t) for t in tie])
        enemies = state.side_of(tie[0]) is Side.ENEMY
        best = " (choose the order best for the Enemies)" if enemies else ""
        draft.add("order", f"{names} tie on {term(state.edition, 'Swiftness')}: the players order them{best}.", "Models Activation")
    return Plan(None, tuple(draft.steps))


def _hero_plan(state: GameState) -> Plan:
    assert state.turn is not None
    hero = state.hero(state.turn.token)
    name = state.hero_spec(hero.id).name
    draft = _Draft()
    if hero.ko and state.edition is Edition.CLASSIC:  # out of action by a reaction: it goes on (docs/ai.md 13)
        reacting = _reactions_plan(state, hero.id, draft)
        if reacting.question is not None or reacting.attack is not None:
            return reacting
        draft.add("done", f"{name} is out of action: end the activation.", "Characters out of action")
        return Plan(hero.id, tuple(draft.steps), choices=reacting.choices)
    if hero.ko:
        draft.add("injury", f"{name} is KO: draw an Injury Card instead of activating; draw again if {name} already has it.",
                  "Injury Cards")  # fmt: skip
        return Plan(hero.id, tuple(draft.steps))
    held = start_reminder(state.edition, name, hero.statuses)
    if held:  # "Hero or Ally Activation" 1a and 3a; first edition: before any action, the status tokens take effect
        draft.add("status", held, "Hero or Ally Activation: Status Tokens" if state.edition is Edition.RENAISSANCE else "Activation")
    if stealth_active(state):
        draft.add("stealth", f"After each Movement Action {name} rolls a Swiftness die (one more for each AP spent): "
                  f"one die must show {needed(state)} or more, or the Stealth Token moves up.", "Stealth Card")  # fmt: skip
    if state.edition is Edition.CLASSIC and state.reactions:
        return _reactions_plan(state, hero.id, draft)
    if state.turn.move is not None:
        return _declared_plan(state, hero.id, state.turn.move, draft)
    return Plan(hero.id, tuple(draft.steps))


# ---------------------------------------------------------------------------------------------
# the active Enemy group


def _group_plan(state: GameState) -> Plan:
    turn = state.turn
    assert turn is not None
    spec = state.group_spec(turn.token)
    group = state.group(turn.token)
    answers = turn.answer_map()
    draft = _Draft()
    if turn.move is not None:  # a Hero's Dash or Forced Movement in the Enemy's activation: its Reaction Attacks first
        return _declared_plan(state, turn.move.hero, turn.move, draft)
    card = current_card(state)
    ap = card.ap if card is not None else spec.swiftness
    token = state.token(spec.id) if state.has_token(spec.id) else None
    where = f" to {ROMAN[token.sector - 1]}" if token else ""
    moved = f"The token moved {counted(turn.moved, 'sector')}{where}. " if turn.moved else ""
    each = " each" if len(group.standing) > 1 else ""
    if state.edition is Edition.CLASSIC:  # "Activation of enemies": status, equipment, skills, then actions
        draft.add("activate", f"{agree(spec.name, 'activates')} with {ap} AP{each}. {moved}", "Activation of enemies")
        for text, rule in activation_phases(spec):
            draft.add("skill", text, rule)
    else:
        draft.add("activate", f"{agree(spec.name, 'activates')} with {ap} AP{each}. {moved}Apply the Status Tokens first.",
                  "Enemy Activation")
    for number in group.standing:  # "Enemy Activation" 2a; first edition "Status phase"
        held = start_reminder(state.edition, model_name(state, f"{spec.id}/{number}"), group.models[number - 1].statuses)
        if held:
            draft.add("status", held, "Enemy Activation: Status Tokens", f"{spec.id}/{number}")
    if card is not None:
        return _prey_plan(state, spec, card, draft, answers)
    standing = list(group.standing)
    facts = _facts(state)
    done: list[int] = []
    for position in range(1, len(standing) + 1):
        left = [n for n in standing if n not in done]
        number = left[0]
        if len(left) > 1:
            choice = Question(
                key=f"{spec.id}:next{position}",
                kind="next",
                text=f"Which {spec.name} model activates next?",
                options=tuple(str(n) for n in left),
                model=f"{spec.id}/{left[0]}",
                default=(str(left[0]),),
                why="Enemy Activation 1b: the players choose; the AI takes the lowest number",
            )
            draft.choices.append(choice)
            picked = answered(choice, answers)
            number = int(picked[0]) if picked else left[0]
        done.append(number)
        made = [a for a in turn.attacks if a.group == spec.id and a.model == number]
        pending = _model_plan(state, spec, number, ap, answers, made, draft, "", facts)
        if pending is not None:
            return _finish(spec.id, draft, pending)
    draft.add("done", f"{spec.name}: done. End the activation.", "Enemy Activation 4-5")
    return Plan(spec.id, tuple(draft.steps), choices=tuple(draft.choices), done=True, recalled=tuple(draft.recalled),
                ap_left=tuple(draft.ap.items()))


def _finish(token: str, draft: _Draft, pending: Question | AttackOrder) -> Plan:
    ap = tuple(draft.ap.items())
    if isinstance(pending, Question):
        return Plan(token, tuple(draft.steps), question=pending, choices=tuple(draft.choices), recalled=tuple(draft.recalled),
                    ap_left=ap)  # fmt: skip
    return Plan(token, tuple(draft.steps), attack=pending, choices=tuple(draft.choices), recalled=tuple(draft.recalled),
                ap_left=ap)  # fmt: skip


def _mission(state: GameState, spec: EnemyGroupSpec) -> MissionGoal | None:
    for goal in state.scenario.goals:
        if goal.id == spec.goal:
            return goal
    return None


def _facts(state: GameState) -> dict[str, HeroFacts]:
    """The Heroes as the AI decides on them: as they are now, less what this activation's attacks did
    (in a Hero's activation, the attacks of the models reacting to it: first edition "Reaction").

    The plan replays those attacks in order (`_suffered`), so each model decides on the Heroes as
    they stood when it chose, while whatever else the table changed meanwhile is seen at once.
    """
    facts = {}
    for hero in state.heroes:
        if hero.removed or hero.location:  # "Location Card": "Enemies ignore them"
            continue
        sheet = state.scenario.hero(hero.id)
        facts[hero.id] = HeroFacts(hero.id, sheet.name, hero.threat, hero.wounds, hero.ko, sheet.health, sheet.mind, sheet.physique)
    turn = state.turn
    if turn is None:
        return facts
    enemy = state.side_of(turn.token) is Side.ENEMY
    before = {h.id: h for h in turn.heroes}
    for made in reversed(turn.attacks):
        seen = facts.get(made.hero)
        if not enemy and f"{made.group}/{made.model}" not in state.reacted:
            continue
        if seen is None:
            continue
        if made.ko and seen.ko:
            start = before.get(made.hero)
            seen = replace(seen, ko=False, threat=start.threat if start is not None else seen.threat - KO_THREAT)
        # a KO's wounds past Health were never placed: taking them off too would leave the Hero fewer than they had
        facts[made.hero] = replace(seen, wounds=max(0, seen.wounds - made.wounds + made.beyond))
    return facts


def _suffered(facts: dict[str, HeroFacts], made: AttackMade) -> None:
    """Update the AI's view of the Heroes with an attack of this activation ("KO Hero": Threat Level -2)."""
    hero = facts.get(made.hero)
    if hero is None:
        return
    knocked = made.ko and not hero.ko
    threat = adjust(hero.threat, KO_THREAT) if knocked else hero.threat
    facts[made.hero] = replace(hero, wounds=hero.wounds + made.wounds, ko=hero.ko or made.ko, threat=threat)


def _wounds_words(state: GameState, made: AttackMade) -> str:
    """'2 wounds', or '3 wounds (1 on the Equipment)' ("Wound Tokens and Equipment")."""
    total = made.wounds + made.on_equipment
    return f"{total} wound{'s' if total != 1 else ''}{on_equipment_words(state.edition, made.on_equipment)}"


def _yes_no(key: str, text: str, model: str, why: str) -> Question:
    return Question(key=key, kind="adjacent", text=text, options=YES_NO, model=model, why=why)


def _model_plan(state: GameState, spec: EnemyGroupSpec, number: int, ap: int, answers: Answers,
                made: Sequence[AttackMade], draft: _Draft, prefix: str,
                facts: dict[str, HeroFacts]) -> Question | AttackOrder | None:  # fmt: skip
    """Instructions for one model; the question or attack it waits for, or None when it is done.

    Its decisions use `facts`, the Heroes as they stood when it chose (earlier models' attacks
    included); its own attacks are added to `facts` as they are resolved.
    """
    model = f"{spec.id}/{number}"
    name = model_name(state, f"{spec.id}/{number}")
    mission = _mission(state, spec)
    if not prefix and model in state.reacted:
        draft.add("token", f"{name} reacted earlier: it spends all its AP to discard its reaction token.", "Reaction", model)
        return None
    if state.edition is Edition.CLASSIC and any(s.lower() == "marksman" for s in spec.generic_skills):
        draft.add("skill", f"Marksman: if engaged, {name} stands down first (Enemies disengage without a test).", "Enemy Skills", model)
    start = _yes_no(f"{prefix}{model}:adjacent:start", f"Is {name} adjacent to a Hero?", model,
                    "Stealth Token: an Enemy that begins its activation adjacent to a Hero raises the alarm")  # fmt: skip
    hidden = answers.get(start.key)  # asked only while the Stealth is on; a yes raised the alarm in the fold
    if hidden is None and stealth_active(state):
        return start
    # "Patrol": under the Stealth, or in a mission with no Stealth track (docs/ai.md choice 8).
    if (hidden == NO or not state.scenario.stealth) and any(s.lower() == "patrol" for s in spec.generic_skills):
        draft.add("patrol", f"Patrol: roll a {term(state.edition, 'Swiftness')} die; {name} moves {counted(spec.swiftness, 'square')} in the direction "
                  "the map's diagram shows for it; if blocked, it turns back until its AP are spent; it stops beside a Hero "
                  "rather than enter the Hero's square.", "Patrol", model, squares=spec.swiftness, toward="patrol")  # fmt: skip
        return _end_adjacent(name, model, prefix, answers) if hidden == NO else None
    if hidden == NO:  # the model began its activation under the Stealth, far from every Hero
        goal: Goal | Question = Goal(None, mission is not None, "Stealth: no Hero within 1 square", ("area",))
    else:
        goal = decide_goal(_view(state, spec, model, name, mission, prefix, facts), answers, draft.recalled)
    rounds = 1
    here: tuple[str, ...] = ()  # its earlier goal choices made from the square it stands on now (`ai.recall`)
    ap_left = draft.ap[model] = ap
    used = 0  # attacks of `made` accounted for
    while True:
        if isinstance(goal, Question):
            return goal
        rule = "Artificial Intelligence (AI)" if state.edition is Edition.RENAISSANCE else "Rule the Enemies"
        if goal.mission:
            assert mission is not None
            draft.add("goal", f"{name} pursues the mission goal: {mission.text}", rule, model)
            reach = ap_left * squares_per_ap(state.edition, spec)
            draft.add("move", f"{name} moves up to {counted(reach, 'square')} toward it.", "Playing the Enemies: goals set by Missions take priority",
                      model, squares=reach, toward="mission")  # fmt: skip
            return _end_adjacent(name, model, prefix, answers) if hidden == NO else None
        if goal.hero is None:
            draft.add("stay", f"{name} has no goal ({goal.reason}): it stays where it is.", "Playing the Enemies: best for the Enemies", model)
            return None
        hero = state.hero(goal.hero)
        hero_name = state.hero_spec(hero.id).name
        draft.add("goal", f"{name} goes for {goal.reason}.", rule, model)
        at = f"{prefix}r{rounds}:" if rounds > 1 else prefix  # this goal choice's question keys
        outcome = _move_and_attack(state, spec, number, name, goal.hero, hero_name, ap_left, answers, made[used:], draft,
                                   at, mission, facts)  # fmt: skip
        if not isinstance(outcome, tuple):
            return outcome
        ap_left, spent, moved = outcome
        draft.ap[model] = ap_left
        used += spent
        if not facts[goal.hero].ko or ap_left <= 0 or rounds >= 4:
            return None
        # the goal is KO and AP are left: choose again (best for the Enemies). Its distances are the same if neither
        # it nor a Hero moved since an earlier choice: what the table said then still holds (a KO Hero stays put).
        here = () if moved else here + (at,)
        rounds += 1
        still = () if _heroes_moved(state) else here
        since = f"{hero_name} is {term(state.edition, 'KO')}"
        view = replace(_view(state, spec, model, name, mission, f"{prefix}r{rounds}:", facts), same_place=still, since=since)
        goal = decide_goal(view, answers, draft.recalled)


def _heroes_moved(state: GameState) -> bool:
    """Whether a Hero made a Dash or Forced Movement in this activation: distances told before may have changed."""
    return state.turn is not None and state.turn.shifts > 0


def _view(state: GameState, spec: EnemyGroupSpec, model: str, name: str, mission: MissionGoal | None, prefix: str,
          facts: dict[str, HeroFacts]) -> GoalView:  # fmt: skip
    own = len(state.group(spec.id).standing) > 1  # each model counts its own distances: the questions say so
    return GoalView(state.edition, model, name, spec.control_area, tuple(facts.values()), mission, spec.target_priority,
                    stealth_active(state), prefix, own=own)  # fmt: skip


def _end_adjacent(name: str, model: str, prefix: str, answers: Answers) -> Question | None:
    """Renaissance "Stealth Token": ending adjacent to a Hero, or moving into one's square, raises the alarm."""
    end = _yes_no(f"{prefix}{model}:adjacent:end", f"Did {name} end its move adjacent to a Hero, or try to enter a Hero's square?",
                  model, "Stealth Token: the alarm")  # fmt: skip
    return end if end.key not in answers else None


def attack_cost(edition: Edition, attack: AttackSpec) -> int:
    """AP an attack costs: its card's value; first edition "Attack (AP 3)" when the card gives none."""
    if attack.ap > 0:
        return attack.ap
    return CLASSIC_ATTACK_AP if edition is Edition.CLASSIC else 0


def _damage(attack: AttackSpec) -> int:
    return attack.hits or 0 if attack.kind == "physical" else attack.effect_wounds


def _ranged(spec: EnemyGroupSpec, attack: AttackSpec) -> bool:
    if area_of(attack).lower().startswith(("spear", "breath")):  # "Areas": they "require ... to be adjacent to the target"
        return False
    return attack.range_max > 1 or any(s.lower() == "marksman" for s in spec.generic_skills)


def reach_question(spec: EnemyGroupSpec, model: str, name: str, hero: str, hero_name: str, attack: AttackSpec,
                   ap_left: int, prefix: str, outside: bool = False) -> Question:  # fmt: skip
    """How far the model must move to attack `hero` with `attack` (line of sight; the farthest square for a ranged attack).
    `outside`: the table said `hero` is not within the Control Area: the squares no move could attack from are not
    offered (a ranged attack of range 6 from outside a Control Area of 6 needs 1 square at least; issue 62)."""
    reach = attack.range_max if _ranged(spec, attack) else 1
    least = min(ap_left + 1, max(0, spec.control_area + 1 - reach)) if outside else 0
    if _ranged(spec, attack):
        span = f"{attack.range_min}-{attack.range_max}" if attack.range_min != attack.range_max else f"{attack.range_max}"
        where = f"the farthest square within {span} squares of {hero_name}, in line of sight"
    else:
        where = f"a square adjacent to {hero_name}"
    return Question(
        key=f"{prefix}{model}:reach:{hero}:{attack.name}",
        kind="reach",
        text=f"How many squares must {name} move to reach {where}? (0 if it can attack from where it stands)",
        options=tuple(str(n) for n in range(least, ap_left + 1)) + (MORE,),
        model=model,
        about=(hero,),
        squares=attack.range_max,
        attack=attack.name,
        why=f"{attack.name}: range {attack.range_min}-{attack.range_max}, a Valid Target needs line of sight",
    )


def _move_and_attack(state: GameState, spec: EnemyGroupSpec, number: int, name: str, hero: str, hero_name: str,
                     ap_left: int, answers: Answers, made: Sequence[AttackMade], draft: _Draft, prefix: str,
                     mission: MissionGoal | None, facts: dict[str, HeroFacts]) -> Question | AttackOrder | tuple[int, int, bool]:  # fmt: skip
    """Move toward the goal keeping the AP of the attack, then attack while AP allow; (AP left, attacks used, moved) when done."""
    model = f"{spec.id}/{number}"
    per_ap = squares_per_ap(state.edition, spec)  # first edition "Chivalry": 2 squares an AP
    outside = answers.get(f"{prefix}{model}:in_area:{hero}:{spec.control_area}") == NO  # the table said so
    usable = [a for a in spec.attacks if attack_cost(state.edition, a) <= ap_left]
    if not usable:
        draft.add("move", f"{name} moves up to {counted(ap_left * per_ap, 'square')} toward {hero_name}; it has too few AP to attack.", "Action Points",
                  model, squares=ap_left * per_ap, toward=hero)  # fmt: skip
        return 0, 0, True
    preferred = sorted(usable, key=lambda a: (-_damage(a), -a.range_max, spec.attacks.index(a)))
    chosen = preferred[0]
    choice_key = ""
    if len(usable) > 1:
        # "Enemies Attacks": two Attacks follow the Handbook's Eclectic rule (not in the rulebook): best for the Enemies.
        for attack in preferred:
            question = reach_question(spec, model, name, hero, hero_name, attack, ap_left * per_ap, prefix, outside)
            answer = answers.get(question.key)
            if answer is None:
                return question
            if answer[0] != MORE and ap_for(int(answer[0]), per_ap) <= ap_left - attack_cost(state.edition, attack):
                chosen = attack
                break
        choice = Question(
            key=f"{prefix}{model}:attack",
            kind="attack",
            text=f"Which attack does {name} make?",
            options=tuple(a.name for a in usable),
            model=model,
            default=(chosen.name,),
            why="two attacks (Eclectic): the AI takes the most harmful one it can make this activation",
        )
        draft.choices.append(choice)
        choice_key = choice.key
        picked = answered(choice, answers)
        chosen = next(a for a in usable if picked is not None and a.name == picked[0])
    cost = attack_cost(state.edition, chosen)
    question = reach_question(spec, model, name, hero, hero_name, chosen, ap_left * per_ap, prefix, outside)
    answer = answers.get(question.key)
    if answer is None:
        return question
    if answer[0] == MORE or ap_for(int(answer[0]), per_ap) > ap_left - cost:
        steps = ap_left * per_ap if answer[0] == MORE else int(answer[0])
        draft.add("move", f"{name} moves {steps} square{'s' if steps != 1 else ''} toward {hero_name}; "
                  f"not enough AP left to attack this activation.", "Artificial Intelligence (AI): it moves toward its Goal", model, choice_key,
                  squares=steps, toward=hero)  # fmt: skip
        if state.edition is Edition.CLASSIC and answer[0] != MORE and ap_left - ap_for(steps, per_ap) >= 1 and not _ranged(spec, chosen):
            threat = facts[hero].threat
            if mission is None or mission.threat is None or threat > mission.threat:
                draft.add("engage", f"{name} engages {hero_name} (1 AP): to move away {hero_name} must Disengage.", "Engage", model)
        return 0, 0, True
    steps = int(answer[0])
    ap_left = draft.ap[model] = ap_left - ap_for(steps, per_ap)
    if steps:
        keep = f" (it keeps {cost} AP for {chosen.name})" if cost else ""
        rule = "Chivalry: 2 squares per AP" if per_ap > 1 else "Movement: 1 AP per square"
        draft.add("move", f"{name} moves {steps} square{'s' if steps != 1 else ''} toward {hero_name}{keep}.",
                  rule, model, choice_key, squares=steps, toward=hero)  # fmt: skip
    used = 0
    strikes = 0
    earlier: Answer | None = None  # the Area's Heroes told for its attack before, from this square on this target
    while ap_left >= cost:
        order = _order(state, spec, number, hero, chosen)
        strikes += 1
        others: tuple[str, ...] = ()
        if area_of(chosen):
            question = area_question(state, model, name, hero, chosen, facts, f"{prefix}{model}:area{strikes}")
            answer = answers.get(question.key)
            if answer is None:  # told already for this target (`areas`): asked once for the group, or for the model
                answer = told_before(area_of(chosen), hero, question.options, draft.areas, earlier, _heroes_moved(state))
                if answer is not None:
                    draft.recalled.append((question, answer))
            if answer is None:
                return question
            earlier = answer
            draft.areas[told_key(area_of(chosen), hero)] = answer
            others = tuple(h for h in answer if h != NOBODY)
        if used >= len(made):
            draft.add("attack", _attack_text(state, name, hero_name, order, chosen), "Enemies Attacks", model, choice_key, order)
            return order
        for index, target in enumerate((hero, *others)):  # "Areas": each Hero in the Area has a Defense Test
            extra = _order(state, spec, number, target, chosen, area=index > 0)
            if used >= len(made):
                draft.add("attack", "In the Area: " + _attack_text(state, name, state.hero_spec(target).name, extra, chosen),
                          "Areas", model, choice_key, extra)  # fmt: skip
                return extra
            done = made[used]
            used += 1
            _suffered(facts, done)
            ko = f"; {state.hero_spec(done.hero).name} is {term(state.edition, 'KO')}" if done.ko else ""
            draft.add("attacked", f"{'In the Area: ' if index else ''}{chosen.name} on {state.hero_spec(done.hero).name}: "
                      f"{_wounds_words(state, done)}{ko}.", "Areas" if index else "Enemies Attacks", model, choice_key, extra)  # fmt: skip
        ap_left = draft.ap[model] = ap_left - max(cost, 1)
        if facts[hero].ko or cost == 0:
            break
    return ap_left, used, steps > 0


def area_of(attack: AttackSpec) -> str:
    """The Area trait of an attack ("Areas": Cross, Burst, Breath or Spear X), or ""."""
    for trait in attack.traits:
        words = trait.strip().lower()
        if words.endswith("area") or words.startswith(("cross", "burst", "breath", "spear")):
            return trait.strip()
    return ""


def area_question(state: GameState, model: str, name: str, hero: str, attack: AttackSpec, facts: dict[str, HeroFacts],
                  key: str) -> Question:  # fmt: skip
    """Renaissance "Areas": which other Heroes are in the Area of the attack on `hero` (the answer "none": nobody)."""
    hero_name = state.hero_spec(hero).name
    others = tuple(h.id for h in facts.values() if h.id != hero and not h.ko)
    group = model.partition("/")[0]
    once = around_target(area_of(attack)) and len(state.group(group).standing) > 1  # ("Areas"; `areas.py`)
    every = f" The answer stands for every {state.group_spec(group).name} model attacking {hero_name} now." if once else ""
    return Question(
        key=key,
        kind="in_area_heroes",
        text=f"{name} attacks {hero_name} with {attack.name} ({area_of(attack)}): which other Heroes are in the Area? "
             f"(on the same Height Level; Line of Sight is not needed){every}",
        options=others + (NOBODY,),
        model=model,
        about=(hero,),
        attack=attack.name,
        several=True,
        why="Areas: the Attack applies to the target and every other Hero in the Area, each with a Defense Test",
    )


def _order(state: GameState, spec: EnemyGroupSpec, number: int, hero: str, attack: AttackSpec, reaction: bool = False,
           area: bool = False) -> AttackOrder:  # fmt: skip
    sheet = state.hero_spec(hero)
    dice = getattr(sheet, attack.defended_with)
    return AttackOrder(spec.id, number, hero, attack.name, attack.kind, attack.threshold, attack.defended_with, dice,
                       attack.hits, attack.contrast, attack.effect_wounds, attack.traits, reaction, area)  # fmt: skip


def _attack_text(state: GameState, name: str, hero_name: str, order: AttackOrder, attack: AttackSpec) -> str:
    test = f"{hero_name} rolls {counted(order.dice, 'die', 'dice')} on {term(state.edition, order.defended_with.title())}, {order.threshold}+"
    if attack.kind == "physical":
        text = f"{name} attacks {hero_name} with {attack.name}: {counted(order.hits or 0, 'hit')}. {test}: each success cancels a hit."
    else:
        effect = counted(attack.effect_wounds, "wound") if attack.effect_wounds else "its effect"
        text = f"{name} attacks {hero_name} with {attack.name}. {test}: {counted(order.contrast or 0, 'success', 'successes')} {'resists' if order.contrast == 1 else 'resist'} it, else {effect}."
    if attack.traits:
        text += f" Traits: {', '.join(attack.traits)}."
    return text


# ---------------------------------------------------------------------------------------------
# the Prey of a Hunt Mission


def _prey_plan(state: GameState, spec: EnemyGroupSpec, card: PreyCard, draft: _Draft, answers: Answers) -> Plan:
    """Renaissance "Playing a Hunt Mission": the drawn Action Card, its Target Hero, its attack."""
    assert state.turn is not None
    name = spec.name
    left = cards_left(state)
    draft.add("prey", f"{name} draws Action Card {card.number} ({card.ap} AP): {card.text} ({left} card{'s' if left != 1 else ''} left)",
              "Playing a Hunt Mission", f"{spec.id}/1")  # fmt: skip
    if card.target == "none":
        return _prey_done(spec, draft)
    model = f"{spec.id}/1"
    view = GoalView(state.edition, model, name, spec.control_area, tuple(_facts(state).values()), None, spec.target_priority,
                    stealth_active(state))  # fmt: skip
    goal: Goal | Question
    if card.target != "target_hero":
        goal = _specific_target(view, card.target, answers, draft.recalled)
    else:
        goal = decide_goal(view, answers, draft.recalled)
    if isinstance(goal, Question):
        return Plan(spec.id, tuple(draft.steps), question=goal, recalled=tuple(draft.recalled))
    if goal.hero is None:
        draft.add("stay", f"No Target Hero for {name} ({goal.reason}).", "Playing a Hunt Mission", model)
        return _prey_done(spec, draft)
    hero_name = state.hero_spec(goal.hero).name
    draft.add("goal", f"Target Hero: {goal.reason}.", "Playing a Hunt Mission", model)
    if card.attack is not None:
        made = [a for a in state.turn.attacks if a.group == spec.id]
        order = _order(state, spec, 1, goal.hero, card.attack)
        if not made:
            draft.add("attack", _attack_text(state, name, hero_name, order, card.attack), "Playing a Hunt Mission", model, attack=order)
            return Plan(spec.id, tuple(draft.steps), attack=order)
        draft.add("attacked", f"{card.attack.name} on {hero_name}: {_wounds_words(state, made[0])}.", "Enemies Attacks", model, attack=order)
    return _prey_done(spec, draft)


def _prey_done(spec: EnemyGroupSpec, draft: _Draft) -> Plan:
    draft.add("done", f"Put the card on the discard pile; {spec.name}'s activation ends.", "Playing a Hunt Mission 5-7")
    return Plan(spec.id, tuple(draft.steps), done=True)


def _specific_target(view: GoalView, factor: str, answers: Answers, recalled: Recalled) -> Goal | Question:
    """"Playing a Hunt Mission": a card's own target ignores the Control Area; a tie or nobody falls back on the priority."""
    standing = [h for h in view.heroes if not h.ko]
    if standing:
        key = known_key(factor)
        if key is not None:
            best = max(key(h) for h in standing)
            left = [h for h in standing if key(h) == best]
        else:
            question = distance_question(view, standing, factor, f"the card's target ({factor_words(view, factor)}), ignoring the Control Area")
            answer = answers.get(question.key)
            if answer is None:
                return question
            left = [h for h in standing if h.id in answer]
        if len(left) == 1:
            return Goal(left[0].id, False, f"{left[0].name}, {factor_words(view, factor)}, as the card says", (factor,))
    return decide_goal(view, answers, recalled)


# ---------------------------------------------------------------------------------------------
# reactions


def reaction_question(state: GameState, hero: str) -> Question:
    """Renaissance "Reaction Attacks": which Enemy models are adjacent to `hero` as the Hero moves away from them."""
    name = state.hero_spec(hero).name
    models = []
    for group in state.groups:
        spec = state.group_spec(group.id)
        if _reaction_attack(state, spec) is None:
            continue
        models += [f"{group.id}/{n}" for n in group.standing]
    return Question(
        key=f"reaction:{hero}",
        kind="adjacent_models",
        text=f"{name} moves: which Enemies are adjacent to {name} now? Nobody if the Move keeps {name} beside every one.",
        options=tuple(models) + ("none",),
        about=(hero,),
        several=True,
        why="Reaction Attacks: a Move away from an adjacent Enemy: every adjacent Enemy with a Range 1 attack attacks first",
    )


def _reaction_attack(state: GameState, spec: EnemyGroupSpec) -> AttackSpec | None:
    """"Reaction Attacks": an Attack with Range 1 or 1-X (the most harmful if several); none, no Reaction Attack."""
    fits = [a for a in spec.attacks if a.range_min <= 1 <= a.range_max]
    if not fits:
        return None
    return sorted(fits, key=lambda a: (-_damage(a), spec.attacks.index(a)))[0]


def reaction_attacks(state: GameState, hero: str, adjacent: Sequence[str]) -> tuple[Instruction, ...]:
    """Renaissance "Reaction Attacks": one attack per adjacent Enemy model ("group/number"), no AP spent."""
    name = state.hero_spec(hero).name
    steps = []
    for model in adjacent:
        if model == "none":
            continue
        group_id, _, number = model.partition("/")
        spec = state.group_spec(group_id)
        attack = _reaction_attack(state, spec)
        if attack is None:
            continue
        order = _order(state, spec, int(number), hero, attack, reaction=True)
        text = "Reaction Attack (no AP): " + _attack_text(state, model_name(state, f"{spec.id}/{number}"), name, order, attack)
        steps.append(Instruction("attack", text, "Reaction Attacks", model, "", order))
    if steps:
        steps.append(Instruction("move", f"Then {name} moves, unless KO: a KO Hero ends the activation where they are.", "Reaction Attacks"))
    return tuple(steps)


MOVEMENT_WORDS = {"move": ("a Move", "Reaction Attacks"), "dash": ("a Dash (no AP)", "Dash"),
                  "forced": ("a Forced Movement (no AP)", "Forced Movement")}  # fmt: skip


def declare_instruction(state: GameState, hero: str, movement: str = "move") -> Instruction:
    """Renaissance "Reaction Attacks": what a Hero's declared Move (Dash, Forced Movement) brings first."""
    name = state.hero_spec(hero).name
    words, rule = MOVEMENT_WORDS[movement]
    return Instruction("declare", f"{name} declares {words}: first every adjacent Enemy with a Range 1 attack attacks (no AP); "
                       "a KO Hero stays put.", rule)  # fmt: skip


def _declared_plan(state: GameState, hero: str, move: DeclaredMove, draft: _Draft) -> Plan:
    """Renaissance "Reaction Attacks": the declared Move waits for the attack of each adjacent Enemy, the rolled ones first."""
    hero = move.hero or hero
    name = state.hero_spec(hero).name
    token = state.turn.token if state.turn is not None else hero
    draft.steps.append(declare_instruction(state, hero, move.movement))
    steps = {step.model: step for step in reaction_attacks(state, hero, move.adjacent) if step.attack is not None}
    draft.steps += [replace(steps[m], kind="attacked") for m in move.adjacent if m not in move.owed]
    if move.owed:
        pending = steps[move.owed[0]]
        draft.steps.append(pending)
        return Plan(token, tuple(draft.steps), attack=pending.attack)
    draft.add("move", f"{name} moves now.", "Reaction Attacks")
    return Plan(token, tuple(draft.steps))


def _reactions_plan(state: GameState, hero: str, draft: _Draft) -> Plan:
    """First edition "Reaction": models of an overtaken token whose Ca holds the Hero activate in response."""
    assert state.turn is not None
    answers = state.turn.answer_map()
    hero_name = state.hero_spec(hero).name
    facts = _facts(state)
    for group_id in state.reactions:
        if not any(g.id == group_id for g in state.groups):
            continue
        spec = state.group_spec(group_id)
        for number in state.group(group_id).standing:
            model = f"{group_id}/{number}"
            name = model_name(state, f"{spec.id}/{number}")
            key = f"react:{model}:in_area:{hero}"
            question = Question(key, "in_area", f"Is {hero_name} within {counted(spec.control_area, 'square')} of {name} (its Control Area)?",
                                YES_NO, model, (hero,), spec.control_area, why="Reaction: the Hero's token overtook theirs")  # fmt: skip
            answer = answers.get(key)
            if answer is None and model in state.reacted:  # it reacted on an earlier turn (docs/ai.md choice 17)
                draft.add("token", f"{name} holds a reaction token: it does not react again until it discards it.", "Reaction", model)
                continue
            if answer is None:
                return Plan(hero, tuple(draft.steps), question=question, choices=tuple(draft.choices))
            if answer != YES:
                continue
            draft.add("react", f"{name} reacts: it activates now, then places a reaction token.", "Reaction", model)
            made = [a for a in state.turn.attacks if a.group == group_id and a.model == number]
            view = _view(state, spec, model, name, _mission(state, spec), "react:", facts)
            same = in_area_question(view, facts[hero])  # its goal asks the same fact when its Ca is the one in force
            known = {same.key: answer, **answers} if same.squares == question.squares else answers
            pending = _model_plan(state, spec, number, spec.swiftness, known, made, draft, "react:", facts)
            if pending is not None:
                return _finish(hero, draft, pending)
    return Plan(hero, tuple(draft.steps), choices=tuple(draft.choices))


def _token_name(state: GameState, token: str) -> str:
    for hero in state.scenario.heroes:
        if hero.id == token:
            return hero.name
    for group in state.scenario.enemies + state.scenario.reserves:
        if group.id == token:
            return group.name
    return token


