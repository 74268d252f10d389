"""The examples in the rules' docstrings run as written."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import assistant.rules

MODULES = [m.name for m in pkgutil.iter_modules(assistant.rules.__path__, "assistant.rules.")]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0
