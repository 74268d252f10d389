"""Logging a fault that can repeat fast (a flood of bad serial lines): the first few are logged, the rest counted."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

WINDOW = 10.0
"""Seconds in which a repeated fault is logged at most `BURST` times."""

BURST = 5


class Repeats:
    """One kind of fault on `log`: at most `burst` records in each `window` seconds; the others are counted, and
    said in one line ("312 more bad lines in the last 10 s") once the window is over (at the next fault, or
    `flush`). Safe from any thread."""

    def __init__(self, log: logging.Logger, what: str, window: float = WINDOW, burst: int = BURST,
                 clock: Callable[[], float] = time.monotonic) -> None:  # fmt: skip
        self.log = log
        self.what = what
        self.window = window
        self.burst = burst
        self.clock = clock
        self._lock = threading.Lock()
        self._start = clock()
        self._seen = 0
        self._dropped = 0

    def warning(self, message: str, *args: object, exc_info: bool = False) -> None:
        with self._lock:
            now = self.clock()
            if now - self._start >= self.window:
                self._say(now)
                self._start, self._seen = now, 0
            self._seen += 1
            if self._seen > self.burst:
                self._dropped += 1
                return
        self.log.warning(message, *args, exc_info=exc_info)

    def flush(self) -> None:
        """Say how many were not logged, now (the link closes, say)."""
        with self._lock:
            self._say(self.clock())

    def _say(self, now: float) -> None:
        if self._dropped:
            self.log.warning("%d more %s in the last %.0f s", self._dropped, self.what, now - self._start)
            self._dropped = 0
