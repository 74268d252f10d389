"""Random legal games folded through `apply`: the table's invariants hold after every event; the core is pure."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assistant.status import Faction, Phase, StatusGame, apply, new_game
from assistant.status.military import FIRST_SPACE



def check(state: StatusGame, before: StatusGame) -> None:
    spaces = list(state.track.values())
    assert len(set(spaces)) == len(spaces) and min(spaces) >= FIRST_SPACE  # one indicator a space, none lost
    assert state.factions == before.factions or before.phase is Phase.SETUP
    assert all(s.status >= 0 for s in state.seats)
    assert state.count == before.count + 1
    assert StatusGame.from_dict(json.loads(json.dumps(state.to_dict()))) == state


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.large_base_example, HealthCheck.too_slow])
@given(st.data())
def test_random_games_keep_the_table_whole(data: st.DataObject) -> None:
    factions = data.draw(st.lists(st.sampled_from(list(Faction)), min_size=2, max_size=4, unique=True))
    state = apply(new_game(), {"type": "start", "factions": factions, "priority": data.draw(st.sampled_from(factions))})
    hands: dict[Faction, list[int]] = {}
    sent: list[tuple[Faction, int | None, int]] = []  # this round's Officials: faction, card, true value
    while not state.over:
        event: dict[str, Any]
        if state.phase is Phase.II and state.to_play is not None:
            who = state.to_play
            if not hands.get(who):
                hands[who] = data.draw(st.permutations([1, 2, 3, 4]))
            if data.draw(st.integers(0, 9)) == 0:
                event = {"type": "military", "faction": str(who), "steps": data.draw(st.sampled_from([-3, -1, 1, 2]))}
            else:
                value = hands[who].pop()
                place = ({"card": data.draw(st.sampled_from(state.monitor))} if data.draw(st.booleans())
                         else {"newspaper": 1})  # fmt: skip
                shown = value if data.draw(st.booleans()) else None
                sent.append((who, place.get("card"), value))
                event = {"type": "send_official", "faction": str(who), **place, "value": shown}
        elif state.phase is Phase.III and state.next_card is not None:
            card = state.next_card
            officials: dict[str, list[int]] = {}
            for faction, on, value in sent:
                if on == card:
                    officials.setdefault(str(faction), []).append(value)
            event = {"type": "resolve_card", "officials": officials, "reward": data.draw(st.integers(0, 2))}
        elif state.phase is Phase.V and state.to_play is not None and data.draw(st.booleans()):
            event = {"type": "increase_status", "faction": str(state.to_play), "points": data.draw(st.integers(0, 2))}
        elif state.phase is Phase.END:
            counts = st.integers(0, 4)
            event = {"type": "final_score",
                     "assets": {str(f): data.draw(counts) for f in factions},
                     "continents": {str(f): {c: data.draw(counts) for c in ("AM", "EU", "AF", "AS")} for f in factions}}  # fmt: skip
        else:
            if state.phase is Phase.III:
                hands, sent = {}, []
            event = {"type": "advance"}
        after = apply(state, event)
        check(after, state)
        state = after
    assert state.round == 4 and state.deck == 0
    assert state.winner in factions and state.status[state.winner] == max(state.status.values())
