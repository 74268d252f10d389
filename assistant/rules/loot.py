"""Renaissance "Loot": Reagent Cards gained during a mission, and what the End of a Mission keeps of them."""

from __future__ import annotations

from assistant.rules.questions import counted

SPLITS = ("none", "half", "whole")


def kept(count: int, split: str) -> int:
    """Cards of a Loot of `count` whose contents go to the Treasury: "Loot: none" 0; "Loot: half": "Discard half of
    the cards that form the Loot (rounded up)", so the rest; "Loot: whole" all.

    >>> [kept(5, split) for split in SPLITS]
    [0, 2, 5]
    """
    if split not in SPLITS:
        raise ValueError(f"a Loot is none, half or whole, not {split!r}")
    return 0 if split == "none" else count // 2 if split == "half" else count


def split_words(count: int, split: str) -> str:
    """What the table does with the Loot at the End of a Mission, in words."""
    keep = kept(count, split)
    if split == "none":
        return f"Loot: none: discard all {counted(count, 'card')}"
    if split == "whole":
        return f"Loot: whole: reveal all {counted(count, 'card')} and mark their contents in the Treasury"
    return (f"Loot: half: discard {count - keep} of the {counted(count, 'card')} unrevealed, chosen by the symbol on "
            f"their backs, and mark the contents of the other {keep} in the Treasury")
