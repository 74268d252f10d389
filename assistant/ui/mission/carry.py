"""A campaign mission's end onto the campaign sheet (pure): its result, the Loot it kept, the Experience the Plotbook
gives, as the campaign event `mission_end` (one per game: the sheet refuses a second; its Undo takes it back)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from assistant.rules.state import GameState
from assistant.ui.campaign_forms import REAGENTS
from assistant.ui.form import Form, Number

XP_MOST = 30


@dataclass(frozen=True)
class MissionEnd:
    """What a mission's end carries onto the sheet: the game, its title, its result, the Reagents its Loot kept."""

    game: int
    title: str
    result: str
    reagents: tuple[tuple[str, int], ...]


def result_of(state: GameState) -> str | None:
    """ "victory" or "defeat" once the mission's end says which; None before (or while the table is asked)."""
    word = (state.over or "").split(":")[0]
    return word if word in ("victory", "defeat") else None


def mission_end(state: GameState, events: Sequence[dict[str, Any]], game: int) -> MissionEnd | None:
    """The end of a campaign mission, decided; None where the game is no campaign mission or is not over. The Loot
    kept is all of it after "Loot: whole", none after "none" or "half" (which cards are discarded is the table's)."""
    result = result_of(state)
    if result is None or not state.scenario.campaign:
        return None
    split = next((str(e.get("loot", "whole")) for e in reversed(events) if e.get("type") == "end_mission"), "whole")
    kept = Counter(state.loot) if split == "whole" else Counter[str]()
    return MissionEnd(game, state.scenario.title, result, tuple(sorted(kept.items())))


def carry_form(end: MissionEnd) -> Form:
    """The party's Experience (the Plotbook's number for this end) and each Reagent the Loot gave, to the sheet."""
    kept = dict(end.reagents)
    types = list(dict.fromkeys([*REAGENTS, *kept]))
    fields = [Number("xp", "Experience", 0, XP_MOST, 0)] + [Number(f"reagent:{name}", name, 0, 20, kept.get(name, 0)) for name in types]

    def build(form: Form) -> dict[str, Any]:
        counts = {name: int(form.value(f"reagent:{name}")) for name in types if form.value(f"reagent:{name}")}
        return {"type": "mission_end", "game": end.game, "title": end.title, "result": end.result,
                "xp": int(form.value("xp")), "reagents": counts}  # fmt: skip

    return Form("mission_end", f"{end.title}: {end.result}", fields, build, apply_label="To the sheet",
                note="The Experience the Plotbook gives, and the Reagents of the Loot kept")  # fmt: skip
