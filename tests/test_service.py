"""The table under systemd (Type=notify, WatchdogSec=): what it tells systemd's notify socket (a real AF_UNIX
datagram socket, as systemd makes one), and that no screen is an error exit there."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def notify_socket(folder: Path) -> socket.socket:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(folder / "notify"))
    return sock


def play(folder: Path, sock: socket.socket, driver: str) -> subprocess.Popen[str]:
    environ = dict(os.environ, NOTIFY_SOCKET=sock.getsockname(), WATCHDOG_USEC="400000", SDL_VIDEODRIVER=driver,
                   SDL_AUDIODRIVER="dummy")  # fmt: skip
    environ.pop("WATCHDOG_PID", None)
    return subprocess.Popen([sys.executable, "-m", "assistant", "play", "--new", "--state", str(folder / "table.db")],
                            cwd=ROOT, env=environ, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip


def received(sock: socket.socket, until: float) -> list[str]:
    """The notifications that arrive before `until` (time.monotonic())."""
    got = []
    while (left := until - time.monotonic()) > 0:
        sock.settimeout(left)
        try:
            got.append(sock.recv(4096).decode())
        except TimeoutError:
            break
    return got


def test_ready_once_on_the_screen_then_the_watchdog_fed_from_the_loop(tmp_path: Path) -> None:
    sock = notify_socket(tmp_path)
    app = play(tmp_path, sock, "dummy")  # a screen asked for: the dummy driver, as SDL_VIDEODRIVER says
    try:
        sock.settimeout(120)  # the app's start (imports, the demo's journal) on a loaded machine
        assert sock.recv(4096) == b"READY=1"
        beats = received(sock, time.monotonic() + 2.0)
        assert set(beats) == {"WATCHDOG=1"} and 2 <= len(beats) <= 11  # every 0.2 s: half of WatchdogSec
        os.kill(app.pid, signal.SIGSTOP)  # a main loop that hangs: no more WATCHDOG=1, systemd kills it
        time.sleep(0.3)
        received(sock, time.monotonic() + 0.1)  # (any sent before the stop)
        assert received(sock, time.monotonic() + 1.0) == []
        os.kill(app.pid, signal.SIGCONT)
        assert "WATCHDOG=1" in received(sock, time.monotonic() + 2.0)
        app.terminate()
        assert app.wait(60) == 0
        assert received(sock, time.monotonic() + 1.0)[-1:] == ["STOPPING=1"]
    finally:
        app.kill()
        app.communicate()
        sock.close()


def test_under_systemd_a_screen_that_cannot_open_is_an_error_exit(tmp_path: Path) -> None:
    """KMS/DRM failing at boot (here: no /dev/dri at all) fell back to SDL's dummy driver: the app ran on
    unseen, and Restart=on-failure never fired. Under systemd it now stops with an error, saying why."""
    sock = notify_socket(tmp_path)
    app = play(tmp_path, sock, "kmsdrm")
    try:
        out, err = app.communicate(timeout=120)
        assert app.returncode == 1, err
        assert "no display (kmsdrm (" in err and "no screen, under systemd: stopping with an error" in err
        assert received(sock, time.monotonic() + 0.2) == []  # never said ready
    finally:
        app.kill()
        sock.close()
