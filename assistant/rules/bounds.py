"""How much one request or event can hold: bounds far above what the rulebooks allow, checked before any work.

A line of `nova-table resolve` or `nova-table session apply` that goes past one is refused with an error
naming the field, so that no line can take the time or memory of the next ones.
"""

from __future__ import annotations

LINE = 65_536
"""Characters in one JSON line (64 Ki): a request of the largest game below is a few thousand."""

HEROES = 12
"""Heroes in one request or scenario: both editions are played with 4 Heroes (first edition "Components": "4
Miniatures of the heroes"; Renaissance "Campaign Setup": "balanced to be approached with 4 Heroes"), three times that."""

GROUPS = 36
"""Enemy groups (cards) in a scenario: Renaissance "Components" has 18 Enemy Cards, twice that."""

TOKENS = 64
"""Tokens on the Horologium: one per Hero and Enemy group, and the Event and Mystery tokens of a mission."""

DICE = 32
"""Dice in one roll: as many as the Characteristic tested, 1 to 6 (Renaissance "Characteristics"; first edition
"Mastery"), changed by a few modifiers."""

ITEMS = 64
"""Any other list in a request or an event (cards drawn, models named, ids of a tie)."""

NUMBER = 1_000_000
"""The largest whole number a field holds, either sign: nothing the table counts comes near (a Characteristic is 1
to 6, a Threat Level 0 to 30, an hour of the Horologium a few dozen)."""

TEXT = 256
"""Characters of an id, a name or a note."""

QUOTED = 40
"""Characters of a bad value an error message quotes; longer ones are cut, with "..."."""
