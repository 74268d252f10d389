"""Child process of the crash test: plays a script of operations on a journal, printing one ack per operation done.

    python -m tests.session.crash_child DB OPS.jsonl START

Each line of OPS is {"op": "event", "event": {...}}, {"op": "undo"} or {"op": "redo"}; the
child starts at line START (0-based) and prints {"done": index} once the operation is committed.
"""

from __future__ import annotations

import json
import sys

from assistant.session.games import StateFile
from tests.session.conftest import FOLDS


def main(path: str, ops_file: str, start: int) -> int:
    with open(ops_file, encoding="utf-8") as handle:
        ops = [json.loads(line) for line in handle]
    with StateFile(path, folds=FOLDS) as games:
        journal = games.journal()
        for index in range(start, len(ops)):
            op = ops[index]
            if op["op"] == "event":
                journal.append(op["event"])
            elif op["op"] == "undo":
                journal.undo()
            else:
                journal.redo()
            sys.stdout.write(json.dumps({"done": index}) + "\n")
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2], int(sys.argv[3])))
