"""Answer rules questions as JSON lines: one request a line on stdin, one answer a line on stdout.

Operations: test, hero_attack, enemy_attack, next_activation, forced_wait, ai_goal.
A request that cannot be served gets {"error": "..."} naming the field at fault; the next line
is read as usual. Examples:

  {"op": "test", "edition": "renaissance", "dice": [6, 6, 5, 2], "threshold": 5}
  {"op": "forced_wait", "start": 12, "position": 3, "ap_left": 2, "enemy_sectors": [5, 9]}
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TextIO

from assistant.rules.errors import RuleError
from assistant.rules.fields import Fields
from assistant.wire import answer_ai_goal, answer_enemy_attack, answer_forced_wait
from assistant.wire import answer_hero_attack, answer_next_activation, answer_test

OPERATIONS: Mapping[str, Callable[[Fields], dict[str, Any]]] = {
    "test": answer_test,
    "hero_attack": answer_hero_attack,
    "enemy_attack": answer_enemy_attack,
    "next_activation": answer_next_activation,
    "forced_wait": answer_forced_wait,
    "ai_goal": answer_ai_goal,
}


def serve(line: str) -> dict[str, Any]:
    """The answer to one request line."""
    try:
        request = json.loads(line)
    except json.JSONDecodeError as bad:
        return {"error": f"request: not JSON ({bad.msg} at column {bad.colno})"}
    if not isinstance(request, dict):
        return {"error": f"request: must be a JSON object, not {type(request).__name__}"}
    op = request.get("op")
    if op is None:
        return {"error": "op: missing (one of " + ", ".join(OPERATIONS) + ")"}
    handler = OPERATIONS.get(op) if isinstance(op, str) else None
    if handler is None:
        return {"error": f"op: unknown operation {op!r} (one of " + ", ".join(OPERATIONS) + ")"}
    try:
        fields = Fields(request, known={"op"})
        result = handler(fields)
        fields.finish()
    except RuleError as refused:
        return {"error": str(refused)}
    return result


def serve_lines(lines: Iterable[str], out: TextIO) -> None:
    for line in lines:
        if line.strip():
            out.write(json.dumps(serve(line)) + "\n")
            out.flush()


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter


def run(args: argparse.Namespace) -> int:
    serve_lines(sys.stdin, sys.stdout)
    return 0
