"""Every test, and every process a test starts, reads tests/no_hardware.toml as its hardware settings."""

import os
from pathlib import Path

os.environ["NOVA_TABLE_HARDWARE"] = str(Path(__file__).with_name("no_hardware.toml"))
