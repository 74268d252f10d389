"""The table as a systemd service (`systemd/nova-table.service`: Type=notify, WatchdogSec=).

READY=1 once the first frame is on the screen (the table's, or a chooser's shown before it), WATCHDOG=1
from each pass of the loop that is running, at most every half of WatchdogSec: a loop that hangs is
killed and restarted by systemd. Outside systemd (no NOTIFY_SOCKET) nothing is sent. sdnotify speaks
the protocol (sd_notify(3)).
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from typing import Any

from sdnotify import SystemdNotifier

WAIT_MS = 1000  # how long a screen waiting for input waits before feeding the watchdog (WatchdogSec is more)


class Service:
    """What systemd is told; `watched`: whether it listens (NOTIFY_SOCKET is set)."""

    def __init__(self, environ: Mapping[str, str] = os.environ) -> None:
        self.watched = bool(environ.get("NOTIFY_SOCKET"))
        self.notifier = SystemdNotifier() if self.watched else None
        usec = environ.get("WATCHDOG_USEC", "")
        for_us = environ.get("WATCHDOG_PID", str(os.getpid())) == str(os.getpid())  # (sd_watchdog_enabled)
        self.every = int(usec) / 2e6 if usec.isdigit() and for_us else None  # seconds between two WATCHDOG=1
        self.is_ready = False
        self.fed = 0.0

    def _tell(self, state: str) -> None:
        if self.notifier is not None:
            self.notifier.notify(state)

    def ready(self) -> None:
        """The first frame is on the screen (said once)."""
        if not self.is_ready:
            self._tell("READY=1")
            self.is_ready = True
            self.fed = time.monotonic()

    def alive(self) -> None:
        """A pass of the loop went round: WATCHDOG=1, if half of WatchdogSec has passed since the last."""
        if self.every is not None and time.monotonic() - self.fed >= self.every:
            self._tell("WATCHDOG=1")
            self.fed = time.monotonic()

    def stopping(self) -> None:
        self._tell("STOPPING=1")


service = Service()


def next_event() -> Any:
    """`pygame.event.wait()` for a screen that waits for input (a chooser, a notice): its frame is on the
    screen (ready), and the watchdog is fed while nobody touches anything."""
    import pygame

    service.ready()
    while True:
        event = pygame.event.wait(WAIT_MS)
        service.alive()
        if event.type != pygame.NOEVENT:
            return event
