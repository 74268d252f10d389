"""benchmarks/hardware_latency.py still runs and prints its two medians (a short run: the figures are the
benchmark's to measure, not a test's)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_hardware_latency_benchmark_prints_both_paths() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "hardware_latency.py"), "--turns", "5"], cwd=ROOT,
                          env=dict(os.environ, SDL_VIDEODRIVER="dummy"), capture_output=True, text=True, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr
    number = r"\d+\.\d\d"
    assert re.search(rf"^encoder to screen: median {number} ms, p90 {number} ms \(5 detents\)$", done.stdout, re.M), done.stdout
    assert re.search(rf"^knob to journal: +median {number} ms, p90 {number} ms \(5 turns\)$", done.stdout, re.M), done.stdout
