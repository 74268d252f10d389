"""Enemy goal choice for both editions: which Hero (or the mission goal) one Enemy model goes for.

`decide_goal(view, answers)` returns the next Question the decision needs, or the Goal. It asks
only what the decision needs: nothing when the mission goal has no Threat Level; whether a Hero
is in the Control Area only for Heroes who could become the goal, highest first, and no further
once the goal is settled; which Hero is closest only when Heroes tie on what is already known.

Renaissance "Artificial Intelligence (AI)" (the "Standard" priority):

    mission goal without a Threat Level --------------------------------> the mission goal
    Heroes in the Control Area (no LoS), with a mission goal only those whose
    Threat Level is equal to or greater than the goal's:
        some  -> highest Threat Level -> closest -> most Wound Tokens -> the players choose
        none  -> mission goal if any; else the closest Hero anywhere -> highest Threat Level
                 -> most Wound Tokens -> the players choose
    a Profile Card's own factors come first, among the Heroes in the Control Area; a tie they
    leave, or nobody in the Control Area, goes on with the Standard rule.

First edition "Rule the Enemies" / "Enemy attacking priorities": a Hero in the Ca whose TV is
equal to or greater than the mission's TV is a threat; among threats: highest TV -> closest ->
most wounded -> a die roll.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from assistant.rules.edition import Edition, term
from assistant.rules.errors import RuleError, shown
from assistant.rules.questions import (
    NO,
    YES,
    YES_NO,
    Answer,
    Answers,
    Oracle,
    Question,
    counted,
    die_faces,
    die_legend,
    die_pick,
    listing,
)
from assistant.rules.scenario import PRIORITY_FACTORS, MissionGoal

STANDARD_IN_AREA = ("threat", "closest", "most_wounds")  # Renaissance "Artificial Intelligence (AI)" steps 2-3
STANDARD_ANYWHERE = ("closest", "threat", "most_wounds")  # Renaissance "Artificial Intelligence (AI)" step 4
CLASSIC_PRIORITIES = ("threat", "closest", "most_wounds")  # first edition "Enemy attacking priorities"
DISTANCE_FACTORS = ("closest", "farthest")

FACTOR_WORDS = {
    "threat": "the highest Threat Level",
    "closest": "the closest",
    "farthest": "the farthest",
    "most_wounds": "the most Wound Tokens",
    "fewest_wounds": "the fewest Wound Tokens",
    "lowest_health": "the fewest Health left",
    "highest_mind": "the highest Mind",
    "lowest_mind": "the lowest Mind",
    "highest_physique": "the highest Physique",
    "lowest_physique": "the lowest Physique",
}


@dataclass(frozen=True)
class HeroFacts:
    """What the AI knows of a Hero without asking: Perilium, wounds, KO, sheet values."""

    id: str
    name: str
    threat: int
    wounds: int = 0
    ko: bool = False
    health: int | None = None
    mind: int | None = None
    physique: int | None = None


@dataclass(frozen=True)
class GoalView:
    """Everything the goal choice of one Enemy model needs that the table need not be asked."""

    edition: Edition
    model: str  # "group/number", the key its questions carry
    name: str  # "Papal Guard 1"
    control_area: int
    heroes: tuple[HeroFacts, ...]
    mission: MissionGoal | None = None
    priority: tuple[str, ...] = ("standard",)
    stealth: bool = False  # Renaissance "Stealth": Control Area 1, never a target outside it
    prefix: str = ""  # added to question keys (a second goal in the same activation)
    same_place: tuple[str, ...] = ()  # prefixes of this model's earlier goal choices made where it stands now, nothing moved since
    own: bool = False  # other models of its group measure their own distances: the distance questions say so
    since: str = ""  # why the goal is chosen again ("Valerio is KO"): the distance questions say so

    @property
    def area(self) -> int:
        """The Control Area in force (Renaissance "Stealth": 1 while the Stealth Token is on the card)."""
        return 1 if self.stealth else self.control_area


@dataclass(frozen=True)
class Goal:
    """The goal: a Hero, the mission goal, or nothing; with the tie-breaks applied, in order."""

    hero: str | None
    mission: bool
    reason: str
    steps: tuple[str, ...] = ()  # "area", then the factors applied, then "players" or "die"
    candidates: tuple[str, ...] = ()  # the heroes still tied before the players' pick


def known_key(factor: str) -> Callable[[HeroFacts], int] | None:
    """The key of a factor known without asking (bigger is preferred), or None for a distance."""
    def need(value: int | None, what: str, hero: HeroFacts) -> int:
        if value is None:
            raise RuleError(what, f"the priority needs the {what} of {hero.name}")
        return value

    keys: dict[str, Callable[[HeroFacts], int]] = {
        "threat": lambda h: h.threat,
        "most_wounds": lambda h: h.wounds,
        "fewest_wounds": lambda h: -h.wounds,
        "lowest_health": lambda h: h.wounds - need(h.health, "health", h),
        "highest_mind": lambda h: need(h.mind, "mind", h),
        "lowest_mind": lambda h: -need(h.mind, "mind", h),
        "highest_physique": lambda h: need(h.physique, "physique", h),
        "lowest_physique": lambda h: -need(h.physique, "physique", h),
    }
    if factor in DISTANCE_FACTORS:
        return None
    if factor not in keys:
        raise RuleError("priority", f"unknown factor {shown(factor)} (one of {', '.join(PRIORITY_FACTORS)})")
    return keys[factor]


def factor_words(view: GoalView, factor: str) -> str:
    """'the highest Threat Level' ('the highest TV' in the first edition)."""
    words = FACTOR_WORDS[factor]
    return words.replace("Threat Level", term(view.edition, "Threat Level"))


def _label(view: GoalView, hero: HeroFacts) -> str:
    """'Scum (TV 6)' in the first edition, 'Sofia (Threat Level 3)' in Renaissance."""
    return f"{hero.name} ({term(view.edition, 'Threat Level')} {hero.threat})"


def _key(view: GoalView, *parts: str) -> str:
    return ":".join((view.prefix + view.model, *parts))


def in_area_question(view: GoalView, hero: HeroFacts) -> Question:
    stealth = " (Stealth: Control Area 1)" if view.stealth else ""
    return Question(
        key=_key(view, "in_area", hero.id, str(view.area)),
        kind="in_area",
        text=f"Is {hero.name} within {counted(view.area, 'square')} of {view.name}?",
        options=YES_NO,
        model=view.model,
        about=(hero.id,),
        squares=view.area,
        why=f"Control Area {view.area}{stealth}, no line of sight needed (\"Artificial Intelligence (AI)\" step 1)",
    )


def distance_question(view: GoalView, heroes: Sequence[HeroFacts], factor: str, why: str) -> Question:
    """Which of `heroes` is closest to (farthest from) the model. Each Enemy Model counts from where it stands
    (Renaissance "Artificial Intelligence (AI)": "When an Enemy Model activates, carry out the following steps";
    first edition: "Each enemy has their own area of control"), so a group's models each ask it: the text says
    "closest to Slingers 2 itself" then, and why it is asked again when a goal is chosen anew ("Valerio is KO: ...
    now"). Each model's answers stand for that model only (`recall`)."""
    names = [h.name for h in heroes]
    adjective, preposition = ("closest", "to") if factor == "closest" else ("farthest", "from")
    lead = f"{view.since}: who" if view.since else "Who"
    now = " now" if view.since else ""
    itself = " itself" if view.own else ""  # short: the question keeps its size on the table's screen
    return Question(
        key=_key(view, factor, *(h.id for h in heroes)),
        kind=factor,
        text=f"{lead} is {adjective}{now} {preposition} {view.name}{itself}: {listing(names, 'or')}? "
             f"(tap all who are equally {'close' if factor == 'closest' else 'far'})",
        options=tuple(h.id for h in heroes),
        model=view.model,
        about=tuple(h.id for h in heroes),
        several=True,
        why=why,
    )


Recalled = list[tuple[Question, Answer]]
"""The questions the goal choice answered itself from earlier answers, with those answers (collected by the plan)."""


def recall(view: GoalView, question: Question, answers: Answers, recalled: Recalled | None = None,
           ask: Oracle | None = None) -> Answer | None:
    """The answer to `question`: the table's, or one that follows from what the table already said.

    Distances are each model's own ("Control Area" and "closest" are counted from the Enemy Model that
    activates), so only the same model's answers count, given where it stands now: those of this goal
    choice (`view.prefix`) and of its earlier ones in this activation from the same square with no
    Hero moved (`view.same_place`). From them:
    - the closest (farthest) of a set of Heroes are, among fewer of them, those still there, if any;
    - Heroes equally close are all in the Control Area, or none; nobody farther than one outside is.
    A Hero KO or removed only leaves the sets; it moves nobody ("KO Hero": placed prone where it stands).
    Neither: `ask(question)`, if given (`settle_goal`), or None.
    """
    answer = answers.get(question.key)
    if answer is None:
        answer = _derive(view, question, answers)
        if answer is not None and recalled is not None:
            recalled.append((question, answer))
    if answer is None and ask is not None:
        answer = ask(question)
    return answer


def _prefixes(view: GoalView) -> tuple[str, ...]:
    return (view.prefix, *view.same_place)


def _sets(view: GoalView, answers: Answers, kind: str) -> list[tuple[tuple[str, ...], Answer]]:
    """(the Heroes asked about, the answer) of each `kind` question ("closest", "farthest") answered for this place."""
    found = []
    for prefix in _prefixes(view):
        head = f"{prefix}{view.model}:{kind}:"
        found += [(tuple(key[len(head):].split(":")), answer) for key, answer in answers.items() if key.startswith(head)]
    return found


def _in_area_answer(view: GoalView, hero: str, squares: int, answers: Answers) -> Answer | None:
    for prefix in _prefixes(view):
        answer = answers.get(f"{prefix}{view.model}:in_area:{hero}:{squares}")
        if answer is not None:
            return answer
    return None


def _derive(view: GoalView, question: Question, answers: Answers) -> Answer | None:
    if question.kind in DISTANCE_FACTORS:
        for asked, best in _sets(view, answers, question.kind):
            if set(question.about) <= set(asked):
                still = tuple(h for h in question.about if h in best)
                if still:
                    return still
        return None
    if question.kind != "in_area":
        return None
    hero = question.about[0]
    direct = _in_area_answer(view, hero, question.squares, answers)
    if direct is not None:
        return direct
    for kind, beyond in (("closest", NO), ("farthest", YES)):
        for asked, best in _sets(view, answers, kind):
            if hero not in asked:
                continue
            for other in best:
                said = _in_area_answer(view, other, question.squares, answers)
                if said is not None and (hero in best or said == beyond):
                    return said
    return None


def _in_area(view: GoalView, pool: Sequence[HeroFacts], first: str, answers: Answers,
             recalled: Recalled | None = None, ask: Oracle | None = None) -> Question | list[HeroFacts]:
    """The Heroes of `pool` inside the Control Area, asked best first, stopping when the rest cannot matter."""
    if first == "closest" and len(pool) > 1:
        # the closest Heroes inside the area are the closest of all, if they are inside at all: two taps
        question = distance_question(view, pool, "closest", "the closest Heroes, to see if they are in the Control Area")
        nearest = recall(view, question, answers, recalled, ask)
        if nearest is None:
            return question
        closest = [h for h in pool if h.id in nearest]
        inside = _in_area(view, closest[:1], "threat", answers, recalled, ask)
        return inside if isinstance(inside, Question) or not inside else closest
    key = known_key(first)
    ordered = sorted(pool, key=lambda h: -(key(h) if key else h.threat))
    found: list[HeroFacts] = []
    for hero in ordered:
        if found and key is not None and key(hero) < key(found[0]):
            break  # a lower tier of the first factor can no longer become the goal
        question = in_area_question(view, hero)
        answer = recall(view, question, answers, recalled, ask)
        if answer is None:
            return question
        if answer == YES:
            found.append(hero)
        elif answer != NO:
            raise RuleError(question.key, f"must be yes or no, not {shown(answer)}")
    return found


def _break_ties(
    view: GoalView, candidates: Sequence[HeroFacts], factors: Sequence[str], answers: Answers, why: str, steps: tuple[str, ...],
    recalled: Recalled | None = None, ask: Oracle | None = None,
) -> Question | Goal:
    """Apply `factors` in order to `candidates`; the players (or a die) settle what is left."""
    left = list(candidates)
    applied: list[str] = []
    for index, factor in enumerate(dict.fromkeys(factors)):  # each factor once, in the order given
        key = known_key(factor)
        if len(left) == 1 and (index > 0 or key is None):
            break  # settled (a known first factor is still named: it is what picked the goal)
        applied.append(factor)
        if key is not None:
            best = max(key(h) for h in left)
            left = [h for h in left if key(h) == best]
            continue
        question = distance_question(view, left, factor, f"{listing([h.name for h in left])} tie ({why})")
        answer = recall(view, question, answers, recalled, ask)
        if answer is None:
            return question
        left = [h for h in left if h.id in answer]
        if not left:
            raise RuleError(question.key, f"must name one of {', '.join(question.options)}")
    steps = steps + tuple(applied)
    if len(left) == 1:
        hero = left[0]
        words = " then ".join(factor_words(view, f) for f in applied)
        return Goal(hero.id, False, f"{_label(view, hero)}: {why}" + (f"; {words}" if words else ""), steps)
    return _players(view, left, answers, why, steps)


def _players(
    view: GoalView, left: Sequence[HeroFacts], answers: Answers, why: str, steps: tuple[str, ...]
) -> Question | Goal:
    ids = tuple(h.id for h in left)
    names = [h.name for h in left]
    if view.edition is Edition.CLASSIC:
        # First edition "Enemy attacking priorities": "a random decision will be made by rolling a die".
        attempt = 1
        while True:
            question = Question(
                key=_key(view, f"roll{attempt}", *ids),
                kind="roll",
                text=f"Roll a d{die_faces(len(ids))} for {view.name}'s target: {die_legend(names)}.",
                options=tuple(str(n) for n in range(1, die_faces(len(ids)) + 1)),
                model=view.model,
                about=ids,
                why=f"{listing(names)} still tie on TV, distance and wounds (\"Enemy attacking priorities\")",
            )
            answer = answers.get(question.key)
            if answer is None:
                return question
            picked = die_pick(ids, int(answer[0]))
            if picked is not None:
                hero = next(h for h in left if h.id == picked)
                return Goal(hero.id, False, f"{_label(view, hero)}: {why}; the die picked them", steps + ("die",), ids)
            attempt += 1
    # Renaissance "Artificial Intelligence (AI)" step 3: "the players may choose which Hero will be the Enemy's Goal".
    question = Question(
        key=_key(view, "choose", *ids),
        kind="choose",
        text=f"{listing(names)} tie for {view.name}'s goal: the players choose.",
        options=ids,
        model=view.model,
        about=ids,
        why=f"every tie-break is spent ({why})",
    )
    answer = answers.get(question.key)
    if answer is None:
        return question
    hero = next(h for h in left if h.id == answer[0])
    return Goal(hero.id, False, f"{_label(view, hero)}: {why}; the players chose", steps + ("players",), ids)


def decide_goal(view: GoalView, answers: Answers, recalled: Recalled | None = None, ask: Oracle | None = None) -> Question | Goal:
    """The next question the goal choice needs, or the goal itself; what it could tell from earlier answers
    instead of asking goes into `recalled`, and what `ask` answers is taken as it goes (see `recall`)."""
    mission = view.mission
    if mission is not None and mission.threat is None:
        # Renaissance "Artificial Intelligence (AI)": a Goal without a Threat Level is pursued regardless.
        return Goal(None, True, f"the mission goal has no Threat Level: {view.name} pursues it regardless", ("mission",))
    standing = [h for h in view.heroes if not h.ko]  # "KO Hero": cannot be targeted or considered by any rule
    pool = standing if mission is None else [h for h in standing if h.threat >= (mission.threat or 0)]
    profile = tuple(f for f in view.priority if f != "standard")
    if view.edition is Edition.CLASSIC:
        ties = profile + CLASSIC_PRIORITIES  # first edition "Enemy attacking priorities"
    else:
        ties = profile + STANDARD_IN_AREA  # "Profile Card" factors first, then "Standard"
    found = _in_area(view, pool, ties[0], answers, recalled, ask)
    if isinstance(found, Question):
        return found
    word = term(view.edition, "Threat Level")
    threat = f", {word} {mission.threat} or more" if mission is not None else ""
    if found:
        why = f"in the Control Area{threat}"  # the factors that chose among them follow (`_break_ties`)
        return _break_ties(view, found, ties, answers, why, ("area",), recalled, ask)
    if mission is not None:
        return Goal(
            None, True,
            f"no Hero in the Control Area ({view.area}) has a {word} of {mission.threat} or more: {view.name} pursues the mission goal",
            ("area", "mission"),
        )  # fmt: skip
    if view.stealth:
        # Renaissance "Stealth": Enemies never target Heroes who are not within their Control Area.
        return Goal(None, False, f"Stealth: no Hero within 1 square of {view.name}; it targets nobody", ("area",))
    if not standing:
        return Goal(None, False, "every Hero is KO: no goal", ())
    # Renaissance "Artificial Intelligence (AI)" step 4 (and, by choice, a first-edition enemy with no mission).
    return _break_ties(view, standing, STANDARD_ANYWHERE, answers, "no Hero in the Control Area, the closest Hero anywhere", ("area", "anywhere"),
                       recalled, ask)


def settle_goal(view: GoalView, oracle: Oracle, answers: Answers | None = None) -> tuple[Question | Goal, dict[str, tuple[str, ...]]]:
    """Ask `oracle` every question it can answer; the goal, or the first question it cannot answer. The distance
    questions are asked as the choice meets them, in one pass (not one pass over the Heroes per answer);
    the players' choice and the die, as the choice stops at them."""
    known = dict(answers or {})
    unanswered: set[str] = set()

    def ask(question: Question) -> Answer | None:
        answer = oracle(question)
        if answer is None:
            unanswered.add(question.key)
        else:
            known[question.key] = answer
        return answer

    for _ in range(10_000):
        step = decide_goal(view, known, ask=ask)
        if isinstance(step, Goal) or step.key in unanswered:
            return step, known
        answer = oracle(step)
        if answer is None:
            return step, known
        known[step.key] = answer
    raise RuleError("answers", "the goal choice did not settle")  # pragma: no cover - each answer narrows the choice


def distance_oracle(distances: dict[str, int]) -> Oracle:
    """Answers the goal's questions from known distances in squares (what the `ai_goal` request gives)."""

    def answer(question: Question) -> tuple[str, ...] | None:
        if question.kind == "in_area":
            return YES if distances[question.about[0]] <= question.squares else NO
        if question.kind in DISTANCE_FACTORS:
            pick = min if question.kind == "closest" else max
            best = pick(distances[h] for h in question.about)
            return tuple(h for h in question.about if distances[h] == best)
        return None  # the players' choice and the die are the table's

    return answer
