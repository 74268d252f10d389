"""Frozen dataclasses to JSON-able data and back, checked field by field (for snapshots and files)."""

from __future__ import annotations

import types
import typing
from functools import cache
from dataclasses import fields, is_dataclass
from enum import Enum
from typing import Any, TypeVar, Union, get_args, get_origin, get_type_hints

from assistant.rules.errors import RuleError, shown

T = TypeVar("T")


def to_data(value: Any) -> Any:
    """Dataclasses become dicts (in field order), enums their values, tuples lists."""
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_data(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, (tuple, list)):
        return [to_data(item) for item in value]
    if isinstance(value, dict):
        return {str(key): to_data(item) for key, item in value.items()}
    return value


def from_data(kind: type[T], data: Any, path: str = "state") -> T:
    """Rebuild a value of type `kind` from `to_data`'s output; RuleError names the path at fault."""
    result: T = _build(kind, data, path)
    return result


@cache
def _shape(kind: type) -> tuple[dict[str, Any], frozenset[str]]:
    return get_type_hints(kind), frozenset(f.name for f in fields(kind))


def _build(kind: Any, data: Any, path: str) -> Any:
    origin = get_origin(kind)
    if origin in (Union, types.UnionType):
        options = get_args(kind)
        if data is None and type(None) in options:
            return None
        errors = []
        for option in options:
            if option is type(None):
                continue
            try:
                return _build(option, data, path)
            except RuleError as refused:
                errors.append(refused.message)
        raise RuleError(path, "; ".join(errors) or f"unexpected {shown(data)}")
    if origin is typing.Literal:
        if data not in get_args(kind):
            raise RuleError(path, f"must be one of {get_args(kind)}, not {shown(data)}")
        return data
    if origin is tuple:
        if not isinstance(data, list):
            raise RuleError(path, f"must be a list, not {shown(data)}")
        args = get_args(kind)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_build(args[0], item, f"{path}[{i}]") for i, item in enumerate(data))
        if len(args) != len(data):
            raise RuleError(path, f"must hold {len(args)} items, not {len(data)}")
        return tuple(_build(arg, item, f"{path}[{i}]") for i, (arg, item) in enumerate(zip(args, data)))
    if origin is dict:
        if not isinstance(data, dict):
            raise RuleError(path, f"must be an object, not {shown(data)}")
        key_kind, value_kind = get_args(kind)
        return {_build(key_kind, k, path): _build(value_kind, v, f"{path}.{k}") for k, v in data.items()}
    if isinstance(kind, type) and issubclass(kind, Enum):
        try:
            return kind(data)
        except ValueError:
            raise RuleError(path, f"must be one of {[e.value for e in kind]}, not {shown(data)}") from None
    if isinstance(kind, type) and is_dataclass(kind):
        if not isinstance(data, dict):
            raise RuleError(path, f"must be an object, not {shown(data)}")
        hints, names = _shape(kind)
        unknown = sorted(set(data) - names)
        if unknown:
            raise RuleError(f"{path}.{unknown[0]}", "unknown field")
        values = {name: _build(hints[name], data[name], f"{path}.{name}") for name in names if name in data}
        try:
            return kind(**values)
        except TypeError as missing:
            raise RuleError(path, str(missing)) from None
    if kind is Any:
        return data
    if kind in (int, float) and (isinstance(data, bool) or not isinstance(data, (int, float))):
        raise RuleError(path, f"must be a number, not {shown(data)}")
    if kind in (str, bool) and not isinstance(data, kind):
        raise RuleError(path, f"must be a {kind.__name__}, not {shown(data)}")
    if kind is int and not isinstance(data, int):
        raise RuleError(path, f"must be a whole number, not {shown(data)}")
    return data
