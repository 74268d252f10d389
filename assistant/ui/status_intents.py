"""The menu of a game of Nova Lectio: Status (pure): what the table can do in this phase, then Fix, Undo, Redo;
and what the phase asks of the table, in words (the income reminders among them)."""

from __future__ import annotations

from assistant.status import Phase, StatusGame
from assistant.ui.intents import Item

ADVANCE = {"type": "advance"}

NEXT = {  # the phase an `advance` begins: the button's words
    Phase.I: ("Round {round}", "draw the Event cards"),
    Phase.II: ("Send Officials", "Phase II"),
    Phase.III: ("Resolve Events", "Phase III"),
    Phase.IV: ("Collect Income", "Phase IV"),
    Phase.V: ("Increase Status", "Phase V"),
    Phase.VI: ("Priority", "Phase VI"),
    Phase.END: ("End of the game", "the final count"),
}


def next_phase(state: StatusGame) -> Phase:
    order = [Phase.I, Phase.II, Phase.III, Phase.IV, Phase.V, Phase.VI]
    if state.phase is Phase.VI:
        return Phase.END if state.round >= 4 else Phase.I
    return order[order.index(state.phase) + 1]


def advance_item(state: StatusGame) -> Item:
    phase = next_phase(state)
    label, detail = NEXT[phase]
    return Item(label.format(round=state.round + 1), "n", event=dict(ADVANCE), detail=detail, kind="order")


def status_menu(state: StatusGame, can_undo: bool, can_redo: bool, steps_left: int = 0) -> list[Item]:
    """The intents open at this state, then Fix, Undo and Redo (kind "command"). `steps_left`: the steps of the
    final count not shown yet (the screen shows them one by one)."""
    items: list[Item] = []
    if state.over:
        if steps_left:
            items.append(Item("Next step", "n", command="reveal", detail=f"{steps_left} to show", kind="order"))
        items.append(Item("Play again", "p", command="restart", detail="the same table"))
    elif state.phase is Phase.END:
        items.append(Item("Final count", "c", form="final", detail="Assets and Continents", kind="order"))
    elif state.phase is Phase.II and state.to_play is not None:
        items.append(Item("Send Official", "s", form="send", detail=state.to_play.full_name, kind="order"))
    elif state.phase is Phase.III and state.next_card is not None:
        items.append(Item(f"Card {state.next_card}", "r", form="resolve", detail="enter the Officials", kind="order"))
    elif state.phase is Phase.V and state.to_play is not None:
        who = str(state.to_play)
        items += [
            Item("+1", "1", event={"type": "increase_status", "faction": who, "points": 1}, detail="1 of each"),
            Item("+2", "2", event={"type": "increase_status", "faction": who, "points": 2}, detail="2 of each"),
            Item("+0", "0", event={"type": "increase_status", "faction": who, "points": 0}, detail="none"),
        ]
    else:
        items.append(advance_item(state))
    items += [
        Item("Fix", "f", form="fix", kind="command", enabled=not state.over),
        Item("Undo", "u", command="undo", kind="command", enabled=can_undo),
        Item("Redo", "y", command="redo", kind="command", enabled=can_redo),
    ]
    return items


def asks(state: StatusGame) -> str:
    """What the phase asks of the table now, in a sentence (Phase IV: the income reminders)."""
    if state.over:
        return f"{state.winner.full_name if state.winner else ''} wins"
    turn = state.to_play
    if state.phase is Phase.I:
        return "Draw the Event cards onto the Monitor, left to right"
    if state.phase is Phase.II:
        if turn is None:
            return "Every Official is sent: turn them face up"
        sent = sum(1 for o in state.officials if o.faction is turn)
        return f"{turn.full_name} sends Official {sent + 1} of 4, then takes the next from its stack"
    if state.phase is Phase.III:
        if state.next_card is None:
            return "Every card is resolved: each Faction takes back and shuffles its Officials"
        return f"Card {state.next_card}: the Officials' values; the highest sum takes it"
    if state.phase is Phase.IV:
        tokens = [seat.faction.full_name for seat in state.seats if seat.military_income]
        military = f"; {', '.join(tokens)}: +1 Military (moved)" if tokens else ""
        return f"Income: each Faction takes one Asset per Income token, a Wild one of its choice{military}"
    if state.phase is Phase.V:
        if turn is None:
            return "Every Faction has had its turn"
        return f"{turn.full_name}: 1 Economy + 1 Politics + 1 Consensus for +1, two of each for +2"
    if state.phase is Phase.VI:
        return "The Priority token goes to the fewest Status; a tie to the furthest back on the Military track"
    return "The fourth round is over: count each Faction's Assets and Continent symbols"
