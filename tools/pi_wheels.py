#!/usr/bin/env python3
"""What a Pi downloads for Nova Table: pyproject.toml's dependencies and the extras a Pi gets (fast, learn, camera),
as PyPI's wheels for aarch64 CPython 3.11, each requirement followed; each file, the total, and any CUDA package.

    python3 tools/pi_wheels.py [--dest DIR] [--limit-mb 700]

Needs PyPI (not run by CI). pip's --platform picks the wheels but evaluates environment markers for this machine:
pip is run with platform.machine() answering "aarch64", so the markers are a Pi's too. sdnotify has no wheel: its
source is fetched alone. Exit status 1 where a CUDA package is among them or they pass the limit.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXTRAS = ["fast", "learn", "camera"]  # bootstrap.extras_for on a Pi, and "fast"
NO_WHEEL = {"sdnotify"}  # source only on PyPI
PLATFORM = ["--platform", "manylinux2014_aarch64", "--platform", "manylinux_2_28_aarch64", "--python-version", "3.11",
            "--implementation", "cp"]
AS_AARCH64 = ("import platform, sys; platform.machine = lambda: 'aarch64'; "
              "from pip._internal.cli.main import main; sys.exit(main())")
CUDA = ("nvidia", "cuda", "triton", "cupy")  # names of CUDA's packages on PyPI begin so


def requirements() -> list[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    every = list(project["dependencies"]) + [r for e in EXTRAS for r in project["optional-dependencies"][e]]
    return [r.split("#")[0].strip() for r in every]


def name_of(requirement: str) -> str:
    return requirement.split(";")[0].replace(" ", "").split("=")[0].split(">")[0].split("<")[0].split("[")[0].lower()


def pip_download(dest: Path, *args: str) -> None:
    env = {k: v for k, v in os.environ.items() if k != "PIP_FIND_LINKS"}
    env["PIP_CONFIG_FILE"] = os.devnull  # PyPI alone: no local wheels for this machine
    command = [sys.executable, "-c", AS_AARCH64, "download", "--quiet", "--dest", str(dest), *args]
    done = subprocess.run(command, env=env)
    if done.returncode != 0:
        sys.exit(f"pi_wheels: pip download failed (its words above): {' '.join(args)}")


def cuda_inside(wheel: Path) -> bool:
    """Whether a torch wheel carries CUDA's libraries itself (libtorch_cuda.so)."""
    if not wheel.name.startswith("torch-"):
        return False
    with zipfile.ZipFile(wheel) as archive:
        return any("libtorch_cuda" in n for n in archive.namelist())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dest", type=Path, default=None, help="keep the files here (default: a temporary folder)")
    parser.add_argument("--limit-mb", type=float, default=700.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        dest = args.dest or Path(tmp)
        dest.mkdir(parents=True, exist_ok=True)
        wanted = requirements()
        pip_download(dest, *PLATFORM, "--only-binary=:all:", *[r for r in wanted if name_of(r) not in NO_WHEEL])
        pip_download(dest, "--no-deps", "--no-binary=:all:", *[r for r in wanted if name_of(r) in NO_WHEEL])
        files = sorted(dest.iterdir(), key=lambda f: -f.stat().st_size)
        total = sum(f.stat().st_size for f in files)
        cuda = [f.name for f in files if f.name.lower().startswith(CUDA) or cuda_inside(f)]
        print(f"pi_wheels: {', '.join(wanted)}")
        for f in files:
            print(f"{f.stat().st_size / 1e6:9.1f} MB  {f.name}")
        print(f"total {total / 1e6:.1f} MB in {len(files)} files (limit {args.limit_mb:.0f} MB); "
              f"CUDA packages: {', '.join(cuda) if cuda else 'none'}")
        good = not cuda and total <= args.limit_mb * 1e6
        print("pass" if good else "fail")
        return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main())
