"""First edition "Out of action": the d6 table, face by face, and the malus of unhealed minor wounds."""

from __future__ import annotations

import pytest

from assistant.rules.errors import RuleError
from assistant.rules.out_of_action import out_of_action


def test_each_face_of_the_d6_as_the_table_prints_it() -> None:
    assert [out_of_action(face) for face in range(1, 7)] == ["Serious wound"] + ["Minor wound"] * 4 + ["Unharmed"]


def test_penalties_accumulate_until_a_six_is_no_longer_unharmed() -> None:
    assert out_of_action(6, malus=1) == "Minor wound" and out_of_action(3, malus=2) == "Serious wound"


@pytest.mark.parametrize(("die", "malus", "field"), [(0, 0, "die"), (7, 0, "die"), (3, -1, "malus")])
def test_a_die_off_the_d6_or_a_negative_malus_is_refused(die: int, malus: int, field: str) -> None:
    with pytest.raises(RuleError) as refused:
        out_of_action(die, malus)
    assert refused.value.field == field
