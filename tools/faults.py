#!/usr/bin/env python3
"""Faults a table meets, rerun as an outside tester ran them, and the figures printed (not CI: minutes, and root for
the full disk).

    .venv/bin/python tools/faults.py [--kills 100] [--only play,apply,disk,resolve,scenario,flood]

- play: `nova-table play` on the demo, a board on a pty turning Perilium knobs; each event is acknowledged when the
  board is shown it; SIGKILL at a random moment, restart, and the journal must hold every acknowledged event (one
  more at most, committed but not yet shown), the file intact, the board's first Perilium the journal's.
- apply: `nova-table session apply` fed the autoplayer's events, killed the same way.
- disk: a 2 MB tmpfs (mount, as root) filled by `session apply` until the card is full: one clear message, every
  acknowledged event kept.
- resolve: fuzzed request lines into one `nova-table resolve`: one JSON answer a line, no traceback.
- scenario: the demo scenario mutated, `session new` on each: refused with a message naming the file, or taken;
  no traceback, the state file unchanged when refused.
- flood: 100,000 lines of garbage in 10 s into `play`'s board port: the app alive, a knob shown after it, the
  log's size.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import termios
import threading
import time
import tty
from contextlib import closing
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "assistant" / "demo" / "skirmish.toml"
NOVA = [sys.executable, "-m", "assistant"]
ENV = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1",
           NOVA_TABLE_HARDWARE=str(ROOT / "tests" / "no_hardware.toml"), PYTHONPATH=str(ROOT))


def nova(*args: str, stdin: str = "", timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*NOVA, *args], input=stdin, capture_output=True, text=True, env=ENV, timeout=timeout)


def integrity(path: Path) -> str:
    with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
        return "; ".join(row[0] for row in db.execute("PRAGMA integrity_check"))


def stored(path: Path) -> int:
    """Events up to the head of the current game."""
    with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
        (game,) = db.execute("SELECT value FROM meta WHERE key = 'current_game'").fetchone()
        (head,) = db.execute("SELECT head FROM games WHERE id = ?", (int(game),)).fetchone()
        return int(head)


def shown(path: Path) -> dict[str, Any]:
    done = nova("session", "show", "--state", str(path))
    if done.returncode != 0:
        raise RuntimeError(f"session show failed: {done.stderr.strip()}")
    return json.loads(done.stdout)


class Board:
    """The board's side of a pty: says hello and beats; records every line the app sends."""

    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        attrs = termios.tcgetattr(self.slave)
        attrs[3] &= ~termios.ECHO
        termios.tcsetattr(self.slave, termios.TCSANOW, attrs)
        self.name = os.ttyname(self.slave)
        self.lines: list[dict[str, Any]] = []
        self.changed = threading.Condition()
        self.stop = False
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._beat, daemon=True).start()

    def send(self, message: dict[str, Any] | bytes) -> None:
        data = message if isinstance(message, bytes) else (json.dumps(message) + "\n").encode()
        os.write(self.master, data)

    def _beat(self) -> None:
        while not self.stop:
            try:
                self.send({"t": "beat"})
            except OSError:
                pass
            time.sleep(0.5)

    def _read(self) -> None:
        pending = b""
        while not self.stop:
            try:
                data = os.read(self.master, 65536)
            except OSError:
                time.sleep(0.05)  # no slave open for a moment (the app restarting)
                continue
            pending += data
            *lines, pending = pending.split(b"\n")
            for raw in lines:
                try:
                    message = json.loads(raw)
                except ValueError:
                    continue
                if message.get("t") == "hello":
                    self.send({"t": "hello", "board": "faults", "protocol": 3, "leds": 24, "knobs": 4})
                with self.changed:
                    self.lines.append(message)
                    self.changed.notify_all()

    def perilium(self, after: int, timeout: float) -> tuple[int, list[int]] | None:
        """The first Perilium message from line `after` on: (its index, its values)."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while True:
                for index in range(after, len(self.lines)):
                    if self.lines[index].get("t") == "perilium":
                        return index, list(self.lines[index]["values"])
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self.changed.wait(left)

    def close(self) -> None:
        self.stop = True
        os.close(self.master)
        os.close(self.slave)


def play_kills(kills: int, rng: random.Random) -> None:
    folder = Path(tempfile.mkdtemp(prefix="faults-play-"))
    state = folder / "table.db"
    created = nova("session", "new", "--scenario", str(DEMO), "--state", str(state))
    assert created.returncode == 0, created.stderr
    board = Board()
    acked = lost = corrupt = failed = mismatched = extra = 0
    try:
        for _ in range(kills):
            before = stored(state)
            mark = len(board.lines)
            app = subprocess.Popen([*NOVA, "play", "--state", str(state), "--board", board.name, "--no-encoder",
                                    "--camera", "none"], env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            first = board.perilium(mark, 60)
            if first is None:
                failed += 1
                app.kill()
                print("  no board message after a restart:", app.communicate()[1][-400:].decode(errors="replace"))
                continue
            values = first[1]
            mismatched += values != [hero["threat"] for hero in shown(state)["heroes"]]
            deadline = time.monotonic() + rng.uniform(0.1, 4.0)
            last = first[0]
            run_acked = 0
            while time.monotonic() < deadline:
                hero = rng.randrange(len(values))
                board.send({"t": "knob", "hero": hero, "delta": 1 if values[hero] == 0 else -1})
                reply = board.perilium(last + 1, max(0.0, deadline - time.monotonic()))
                if reply is None:
                    break
                last, values = reply
                run_acked += 1
            app.send_signal(signal.SIGKILL)
            app.wait()
            acked += run_acked
            check = integrity(state)
            corrupt += check != "ok"
            now = stored(state)
            lost += max(0, before + run_acked - now)
            extra += max(0, now - before - run_acked)
    finally:
        board.close()
    print(f"play: {kills} SIGKILLs, {acked} acknowledged events, {lost} lost, {corrupt} corrupt, {failed} failed "
          f"restarts, {mismatched} first boards unlike the journal, {extra} committed but not yet shown; "
          f"{stored(state)} events in the journal")
    shutil.rmtree(folder)


def script(count: int, seed: int) -> list[dict[str, Any]]:
    from assistant.demo.autoplay import endless, play
    from assistant.session.fold import default_folds

    fold = default_folds("mission", endless(DEMO.read_text()), "faults")
    return list(play(fold.initial(), random.Random(seed), count, gentle=True))


def apply_kills(kills: int, rng: random.Random) -> None:
    from assistant.demo.autoplay import endless

    folder = Path(tempfile.mkdtemp(prefix="faults-apply-"))
    scenario = folder / "endless.toml"
    scenario.write_text(endless(DEMO.read_text()))
    state = folder / "table.db"
    assert nova("session", "new", "--scenario", str(scenario), "--state", str(state)).returncode == 0
    events = script(80000, seed=rng.randrange(1 << 30))
    acked = lost = corrupt = failed = extra = 0
    for _ in range(kills):
        before = stored(state)
        child = subprocess.Popen([*NOVA, "session", "apply", "--state", str(state)], env=ENV, stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        answers: list[str] = []
        reader = threading.Thread(target=lambda: answers.extend(child.stdout), daemon=True)  # type: ignore[arg-type]
        reader.start()
        feeder = threading.Thread(target=_feed, args=(child, events[before:]), daemon=True)
        feeder.start()
        time.sleep(rng.uniform(0.05, 1.5))
        child.send_signal(signal.SIGKILL)
        child.wait()
        reader.join(5)
        run_acked = sum(1 for line in answers if line.endswith("\n") and '"seq"' in line)
        failed += sum(1 for line in answers if '"error"' in line)
        acked += run_acked
        corrupt += integrity(state) != "ok"
        now = stored(state)
        lost += max(0, before + run_acked - now)
        extra += max(0, now - before - run_acked)
    show = nova("session", "show", "--state", str(state))
    print(f"apply: {kills} SIGKILLs, {acked} acknowledged events, {lost} lost, {corrupt} corrupt, {failed} refused, "
          f"{extra} committed but not yet acknowledged; `session show` exit {show.returncode}")
    shutil.rmtree(folder)


def _feed(child: subprocess.Popen[str], events: list[dict[str, Any]]) -> None:
    try:
        for event in events:
            child.stdin.write(json.dumps(event) + "\n")  # type: ignore[union-attr]
            child.stdin.flush()  # type: ignore[union-attr]
    except (BrokenPipeError, OSError, ValueError):
        pass


def disk_full() -> None:
    from assistant.demo.autoplay import endless

    mount = Path(tempfile.mkdtemp(prefix="faults-disk-"))
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(mount)]).returncode != 0:
        print("disk: cannot mount a 2 MB tmpfs here (not root?): skipped")
        return
    try:
        state = mount / "table.db"
        scenario = mount / "endless.toml"
        scenario.write_text(endless(DEMO.read_text()))
        assert nova("session", "new", "--scenario", str(scenario), "--state", str(state)).returncode == 0
        lines = "".join(json.dumps(event) + "\n" for event in script(20000, seed=7))
        done = nova("session", "apply", "--state", str(state), stdin=lines, timeout=600)
        acked = sum('"seq"' in line for line in done.stdout.splitlines())
        errors = [line for line in done.stdout.splitlines() if '"error"' in line]
        messages = [line for line in done.stderr.splitlines() if line.strip()]
        now = stored(state)
        print(f"disk: {acked} acknowledged events, {now} in the journal ({max(0, acked - now)} lost), "
              f"integrity {integrity(state)}, exit {done.returncode}; {len(errors)} error answer(s), "
              f"stderr {len(messages)} line(s): {messages[-1][:160] if messages else ''}")
    finally:
        subprocess.run(["umount", str(mount)])
        shutil.rmtree(mount, ignore_errors=True)


REQUESTS = [
    {"op": "test", "dice": [6, 6, 5, 2], "threshold": 5},
    {"op": "hero_attack", "kind": "physical", "dice": [8, 6, 3], "defense": 2, "target": {"health": 3}},
    {"op": "enemy_attack", "kind": "physical", "hits": 3, "threshold": 5, "dice": [5, 2], "resistance_left": 1},
    {"op": "next_activation", "hour": 0, "minute": 3, "tokens": [{"id": "a", "side": "hero", "sector": 3}]},
    {"op": "forced_wait", "start": 12, "position": 3, "ap_left": 2, "enemy_sectors": [5, 9]},
    {"op": "ai_goal", "control_area": 6, "heroes": [{"id": "v", "threat": 3, "distance": 4},
                                                      {"id": "s", "threat": 5, "distance": 8}]},
    {"op": "status_military", "track": {"mano": 4, "ragione": 5, "pugno": 6, "milizia": 7}, "faction": "ragione",
     "steps": 2},
]
ODD = [None, True, -1, 0, 2**70, 1e308, "x" * 5, [], {}, [1] * 50, "\udcff", "8"]


def fuzzed(rng: random.Random) -> str:
    request = json.loads(json.dumps(rng.choice(REQUESTS)))
    way = rng.randrange(5)
    if way == 0:  # a field's value replaced
        key = rng.choice(sorted(request))
        request[key] = rng.choice(ODD)
    elif way == 1:  # a field dropped or added
        if rng.random() < 0.5 and len(request) > 1:
            request.pop(rng.choice(sorted(set(request) - {"op"}) or ["op"]))
        else:
            request[rng.choice(["x", "dice", "edition", "tokens"])] = rng.choice(ODD)
    elif way == 2:  # many of what a game holds few of
        request["heroes" if request["op"] == "ai_goal" else "dice"] = (
            [{"id": f"h{i}", "threat": i, "distance": i} for i in range(rng.choice([50, 5000, 20000]))]
            if request["op"] == "ai_goal" else [6] * rng.choice([50, 5000]))
    text = json.dumps(request, ensure_ascii=False)
    if way == 3:  # bytes garbled
        chars = list(text)
        for _ in range(rng.randint(1, 4)):
            chars[rng.randrange(len(chars))] = chr(rng.randrange(32, 0x2FF))
        text = "".join(chars)
    elif way == 4:  # cut short
        text = text[: rng.randrange(1, len(text))]
    return text.replace("\n", " ")


def resolve_fuzz(count: int, rng: random.Random) -> None:
    lines = [fuzzed(rng) for _ in range(count)]
    started = time.monotonic()
    done = subprocess.run([*NOVA, "resolve"], input="\n".join(lines) + "\n", capture_output=True, text=True, env=ENV,
                          timeout=1200, errors="surrogateescape")
    answers = done.stdout.splitlines()
    parsed = sum(1 for line in answers if _json(line))
    longest = max((len(line) for line in answers), default=0)
    print(f"resolve: {count} fuzzed lines, {len(answers)} answers ({parsed} JSON), "
          f"{sum('error' in line for line in answers)} errors, {done.stderr.count('Traceback')} tracebacks, "
          f"longest answer {longest} characters, {time.monotonic() - started:.1f} s in all")


def _json(line: str) -> bool:
    try:
        json.loads(line)
    except ValueError:
        return False
    return True


def mutations(text: str, rng: random.Random) -> str:
    lines = text.splitlines(keepends=True)
    way = rng.randrange(6)
    index = rng.randrange(len(lines))
    if way == 0:
        del lines[index]
    elif way == 1:
        lines.insert(index, lines[rng.randrange(len(lines))])
    elif way == 2:
        lines[index] = lines[index].replace("=", "= -", 1)
    elif way == 3:
        lines[index] = lines[index].replace("=", '= "x" #', 1)
    elif way == 4:
        data = bytearray("".join(lines).encode())
        data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
        return data.decode("utf-8", errors="surrogateescape")
    else:
        lines[index] = lines[index][: rng.randrange(len(lines[index]) + 1)] + "\n"
    return "".join(lines)


def scenario_mutations(count: int, rng: random.Random) -> None:
    folder = Path(tempfile.mkdtemp(prefix="faults-scenario-"))
    state = folder / "table.db"
    assert nova("session", "new", "--scenario", str(DEMO), "--state", str(state)).returncode == 0
    refused = taken = tracebacks = changed = unnamed = 0
    text = DEMO.read_text()
    for number in range(count):
        mutant = folder / f"m{number}.toml"
        mutant.write_bytes(mutations(text, rng).encode("utf-8", errors="surrogateescape"))
        before = state.read_bytes()
        done = nova("session", "new", "--scenario", str(mutant), "--state", str(state))
        tracebacks += "Traceback" in done.stderr
        if done.returncode == 0:
            taken += 1
        else:
            refused += 1
            changed += state.read_bytes() != before
            unnamed += str(mutant) not in done.stderr and mutant.name not in done.stderr
    print(f"scenario: {count} mutations, {refused} refused ({changed} with the state file changed, {unnamed} "
          f"without the file named), {taken} taken, {tracebacks} tracebacks")
    shutil.rmtree(folder)


def flood(seconds: float = 10.0, lines: int = 100_000) -> None:
    folder = Path(tempfile.mkdtemp(prefix="faults-flood-"))
    state = folder / "table.db"
    assert nova("session", "new", "--scenario", str(DEMO), "--state", str(state)).returncode == 0
    board = Board()
    log = folder / "stderr.txt"
    with log.open("wb") as err:
        app = subprocess.Popen([*NOVA, "play", "--state", str(state), "--board", board.name, "--no-encoder",
                                "--camera", "none"], env=ENV, stdout=subprocess.DEVNULL, stderr=err)
        first = board.perilium(0, 60)
        assert first is not None, "no board message from play"
        garbage = [b"{\"t\": \"knob\", \"hero\": x}\n", b"\xff\xfe garbage\n", b"{}\n", b"[1, 2]\n"]
        started = time.monotonic()
        for number in range(lines):
            board.send(garbage[number % len(garbage)])
            if number % 1000 == 999:
                time.sleep(max(0.0, started + seconds * (number + 1) / lines - time.monotonic()))
        sent = time.monotonic()
        mark = len(board.lines)
        values = first[1]
        board.send({"t": "knob", "hero": 0, "delta": 1 if values[0] == 0 else -1})
        reply = board.perilium(mark, 30)
        seen = time.monotonic()
        alive = app.poll() is None
        app.terminate()
        app.wait(30)
    board.close()
    size = log.stat().st_size
    count = log.read_bytes().count(b"\n")
    print(f"flood: {lines} bad lines in {sent - started:.1f} s; app alive {alive}; a knob after it shown "
          f"{'in %.0f ms' % ((seen - sent) * 1000) if reply else 'never'}; stderr {count} lines, {size} bytes")
    shutil.rmtree(folder)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=100)
    parser.add_argument("--fuzz", type=int, default=2400)
    parser.add_argument("--mutations", type=int, default=260)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", default="play,apply,disk,resolve,scenario,flood")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    parts = {"play": lambda: play_kills(args.kills, rng), "apply": lambda: apply_kills(args.kills, rng),
             "disk": disk_full, "resolve": lambda: resolve_fuzz(args.fuzz, rng),
             "scenario": lambda: scenario_mutations(args.mutations, rng), "flood": flood}
    for name in args.only.split(","):
        parts[name]()
    return 0


if __name__ == "__main__":
    sys.exit(main())
