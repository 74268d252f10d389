"""The TOML a game keeps its scenario in (cards written in) reads back as the data it was written from."""

from __future__ import annotations

import datetime
import tomllib
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.session.toml_writer import toml_text

TEXT = st.text(st.characters(exclude_categories=["Cs"]), max_size=12)  # any character but a lone surrogate
KEYS = st.one_of(st.from_regex(r"[a-z_][a-z0-9_-]{0,8}", fullmatch=True), TEXT)
SCALARS = st.one_of(
    TEXT, st.booleans(), st.integers(-(2**63), 2**63 - 1), st.floats(allow_nan=False),
    st.dates(), st.datetimes(timezones=st.just(datetime.timezone.utc)), st.times(),
)  # fmt: skip
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(KEYS, inner, max_size=4), max_leaves=25)
DOCUMENTS = st.dictionaries(KEYS, VALUES, max_size=6)


@settings(max_examples=150, deadline=None)
@given(DOCUMENTS)
def test_any_document_reads_back_the_same(data: dict[str, Any]) -> None:
    assert tomllib.loads(toml_text(data)) == data


def test_a_key_that_ends_in_a_newline_is_quoted() -> None:
    """Found by the property above: a bare key's pattern matched "0\n" (`$` matches before a last newline)."""
    documents: list[dict[str, Any]] = [{"_": [], "0\n": {}}, {"_": [], "0\n": []}, {"a\n": 1}]
    for data in documents:
        assert tomllib.loads(toml_text(data)) == data


def test_a_scenarios_tables_are_written_as_a_person_would() -> None:
    data = {"title": 'The "Bridge"\nat night', "horologium": {"hour": 1, "tokens": {"sofia": 2}},
            "enemies": [{"id": "guard", "range": [1, 2], "attacks": [{"name": "Halberd"}]}, {"id": "slingers"}]}  # fmt: skip
    assert toml_text(data) == """title = "The \\"Bridge\\"\\nat night"

[horologium]
hour = 1

[horologium.tokens]
sofia = 2

[[enemies]]
id = "guard"
range = [1, 2]

[[enemies.attacks]]
name = "Halberd"

[[enemies]]
id = "slingers"
"""
