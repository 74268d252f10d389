"""Every test, and every process a test starts, reads tests/no_hardware.toml as its hardware settings, and runs
as if not under systemd."""

import os
from pathlib import Path

os.environ["NOVA_TABLE_HARDWARE"] = str(Path(__file__).with_name("no_hardware.toml"))
for name in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"):  # outside systemd, even where CI runs under it
    os.environ.pop(name, None)  # (tests/test_service.py gives the app a notify socket of its own)
