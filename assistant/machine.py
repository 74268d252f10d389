"""Answer rules questions as JSON lines: one request a line on stdin, one answer a line on stdout.

Operations: test, hero_attack, enemy_attack, next_activation, forced_wait, ai_goal (Nova Aetas);
status_military, status_tie, status_priority, status_final (Nova Lectio: Status, docs/status.md).
A request that cannot be served gets {"error": "..."} naming the field at fault; the next line
is read as usual, and the exit code is 1 once stdin ends. A line holds at most 65,536 characters,
a request at most 12 Heroes, 64 tokens, 32 dice (`assistant/rules/bounds.py`). Examples:

  {"op": "test", "edition": "renaissance", "dice": [6, 6, 5, 2], "threshold": 5}
  {"op": "forced_wait", "start": 12, "position": 3, "ap_left": 2, "enemy_sectors": [5, 9]}
  {"op": "status_military", "track": {"mano": 4, "ragione": 5, "pugno": 6, "milizia": 7}, "faction": "ragione", "steps": 2}
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Mapping
from typing import Any, TextIO

from assistant.reading import NotJSON, bounded_lines, loads
from assistant.rules.bounds import LINE
from assistant.rules.errors import RuleError, shown
from assistant.rules.fields import Fields
from assistant.status.wire import OPERATIONS as STATUS_OPERATIONS
from assistant.wire import answer_ai_goal, answer_enemy_attack, answer_forced_wait
from assistant.wire import answer_hero_attack, answer_next_activation, answer_test

OPERATIONS: Mapping[str, Callable[[Fields], dict[str, Any]]] = {
    "test": answer_test,
    "hero_attack": answer_hero_attack,
    "enemy_attack": answer_enemy_attack,
    "next_activation": answer_next_activation,
    "forced_wait": answer_forced_wait,
    "ai_goal": answer_ai_goal,
    **STATUS_OPERATIONS,
}


def serve(line: str) -> dict[str, Any]:
    """The answer to one request line."""
    try:
        request = loads(line)
    except NotJSON as bad:
        return {"error": f"request: not JSON ({bad})"}
    if not isinstance(request, dict):
        return {"error": f"request: must be a JSON object, not {type(request).__name__}"}
    op = request.get("op")
    if op is None:
        return {"error": "op: missing (one of " + ", ".join(OPERATIONS) + ")"}
    handler = OPERATIONS.get(op) if isinstance(op, str) else None
    if handler is None:
        return {"error": f"op: unknown operation {shown(op)} (one of " + ", ".join(OPERATIONS) + ")"}
    try:
        fields = Fields(request, known={"op"})
        result = handler(fields)
        fields.finish()
    except RuleError as refused:
        return {"error": str(refused)}
    return result


TOO_LONG = {"error": f"request: longer than {LINE} characters (the line is skipped)"}


def serve_lines(lines: TextIO, out: TextIO) -> int:
    """Answer each request line of `lines`; how many were answered with an error."""
    errors = 0
    for line in bounded_lines(lines, LINE):
        if line is None or line.strip():
            answer = TOO_LONG if line is None else serve(line)
            errors += "error" in answer
            out.write(json.dumps(answer) + "\n")
            out.flush()
    return errors


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter


def run(args: argparse.Namespace) -> int:
    return 1 if serve_lines(sys.stdin, sys.stdout) else 0
