"""Renaissance "Loot" at the End of a Mission: none, half (half discarded, rounded up), whole."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from assistant.rules.loot import SPLITS, kept


@given(count=st.integers(0, 60))
def test_half_discards_the_larger_half_and_the_splits_are_ordered(count: int) -> None:
    none, half, whole = (kept(count, split) for split in SPLITS)
    assert none == 0 <= half <= whole == count
    assert count - half == -(-count // 2)  # discarded: half, rounded up


def test_a_split_the_book_does_not_name_is_refused() -> None:
    with pytest.raises(ValueError, match="none, half or whole"):
        kept(4, "most")
