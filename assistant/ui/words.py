"""The words the screen uses for a state: names, token labels, Roman numerals, the headline."""

from __future__ import annotations

from assistant.rules.edition import Edition, term
from assistant.rules.horologium import ROMAN, Side
from assistant.rules.names import name_of
from assistant.rules.scenario import Scenario
from assistant.rules.state import GameState

def roman(number: int) -> str:
    """I..XII for 1..12 (the hour hand's 0 is XII)."""
    return ROMAN[(number - 1) % 12]


_labels: dict[int, tuple[Scenario, dict[str, str]]] = {}


def token_labels(state: GameState) -> dict[str, str]:
    """Two letters per hero ("Va") and enemy group ("PG"), none alike; "?" for events (made once per scenario)."""
    scenario = state.scenario
    kept = _labels.get(id(scenario))
    if kept is not None and kept[0] is scenario:
        return kept[1]
    labels: dict[str, str] = {}
    taken: set[str] = set()
    heroes = {h.id for h in scenario.heroes}
    for token_id in [h.id for h in scenario.heroes] + [g.id for g in scenario.enemies + scenario.reserves]:
        words = name_of(state, token_id).split()
        first = words[0][0]
        options = [first + words[1][0]] if len(words) > 1 else []
        letters = "".join(words)[1:]
        options += [first + letter for letter in letters if letter.isalnum()] + [first + str(n) for n in range(2, 100)]
        for option in options:
            label = option.capitalize() if token_id in heroes else option.upper()
            if label.lower() not in taken:
                break
        labels[token_id] = label
        taken.add(label.lower())
    if len(_labels) > 8:
        _labels.clear()
    _labels[id(scenario)] = (scenario, labels)
    return labels


def token_label(state: GameState, token_id: str) -> str:
    """The two letters on a token (see `token_labels`)."""
    if state.side_of(token_id) is Side.EVENT:
        return "?"
    return token_labels(state).get(token_id, token_id[:2])


def headline(state: GameState) -> tuple[str, str]:
    """What the table must do now, as a title and a line under it."""
    if state.over is not None:
        return over_words(state)
    if state.due:
        return "Event", ", ".join(name_of(state, event) for event in state.due) + (" is due" if len(state.due) == 1 else " are due")
    turn = state.turn
    if turn is not None:
        who = name_of(state, turn.token)
        if state.side_of(turn.token) is Side.HERO:
            if state.hero(turn.token).ko:
                return who, "out of action" if state.edition is Edition.CLASSIC else "KO: draws an Injury"
            return who, f"{turn.ap_left} of {turn.ap} AP left"
        return who, f"{turn.ap} AP"
    head = state.up_next
    if head is not None:
        tie = next((group for group in state.ties if head in group), None)
        if tie is not None:
            return "Tie", "Order: " + ", ".join(name_of(state, i) for i in tie)
        if state.side_of(head) is Side.EVENT:
            return "Event", f"{name_of(state, head)} to resolve"
    return "Horologium", "moving on"


def up_next(state: GameState) -> list[str]:
    """Who still acts at this stop after the active model (or the event the headline says is to resolve), by name."""
    return [name_of(state, i) for i in next_ids(state)]


def next_ids(state: GameState) -> list[str]:
    """The tokens `up_next` names."""
    now = state.active
    if state.turn is None and state.up_next is not None and state.side_of(state.up_next) is Side.EVENT:
        now = state.up_next  # "Mystery 1 to resolve": not its own next
    return [i for i in state.queue if i != now]


def over_words(state: GameState) -> tuple[str, str]:
    """Why the mission ended, as a title ("Victory", "Defeat", "Time is up") and a few words (they fit the header)."""
    over = state.over or ""
    result, _, reason = over.partition(": ")
    if over == "time":
        end = state.scenario.end
        when = f": {roman(end.minute)}, hour {end.hour}" if end is not None else ""
        return "Time is up", f"Mission end{when}"
    if over == "empty":
        return "Mission over", "No token left to act"
    if over == "ko":  # the mission's paragraph says victory or defeat
        return "Mission over", _are_ko(sum(1 for h in state.heroes if h.ko or h.removed), term(state.edition, "KO"))
    reasons = {
        "heroes KO": _are_ko(sum(1 for h in state.heroes if h.ko or h.removed), term(state.edition, "KO")),
        "the Prey is defeated": "The Prey is defeated",
        "the Prey has no Action Card left": "No Prey Action Card left",
    }
    if result in ("victory", "defeat"):
        said = reasons.get(reason, reason[:1].upper() + reason[1:])
        said = said or "As the mission cards say"
        return result.capitalize(), said
    return "Mission over", over[:1].upper() + over[1:]


def _are_ko(count: int, ko: str) -> str:
    return f"{count} Hero is {ko}" if count == 1 else f"{count} Heroes are {ko}"


def over_is_good(state: GameState) -> bool:
    """True for a victory (drawn in green), False for a defeat, the time running out or anything else."""
    return (state.over or "").startswith("victory")
