"""What an Enemy attack's trait does, in a few words for the table (beside the attack on the activation card)."""

from __future__ import annotations

from assistant.rules.statuses import STATUS_TRAITS


def trait_effect(trait: str) -> str:
    """A trait's effect as the rules core applies it ("" for a trait it keeps as a reminder only).

    Renaissance "Critical" (Critical X: X more, docs/rules.md); a trait naming a Status Token (`STATUS_TRAITS`);
    "Unblockable Wounds"; "Areas" (`instructions.area_of`)."""
    words = trait.strip().lower()
    head, _, number = words.partition(" ")
    if head == "critical" and number.isdigit():
        return f"3 or more wounds: {number} more"
    if words in STATUS_TRAITS:
        return "a wounded Hero gains it"
    if words.startswith("unblockable"):
        return "no wound goes on Equipment"
    if words.endswith("area") or head in ("cross", "burst", "breath", "spear"):
        return "every Hero in the Area rolls a Defense Test"
    return ""
