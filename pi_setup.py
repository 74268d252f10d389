"""`python3 bootstrap.py --pi`: Nova Table on a fresh Raspberry Pi OS (Bookworm, 64-bit); run again without harm.

Run as the user who plays (the system's part through sudo): the apt packages, that user's groups, udev rules
for the board and the GPIO, the venv (bootstrap.py) with a camera stack that imports, the hardware file
(/etc/nova-table/hardware.toml, left alone once there), the systemd unit with that user and this clone's
paths, enabled. It says what it did and what it leaves to the maker. Standard library only.

`--root DIR` is a rehearsal: the files are written under DIR (and the unit enabled there, by systemctl's own
--root), the cameras looked for, the other commands printed, not run.
"""

from __future__ import annotations

import grp
import os
import pwd
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

CLONE = Path(__file__).resolve().parent
APT = ["python3-picamera2", "python3-lgpio", "python3-venv", "git",  # picamera2 needs libcamera's Python binding: apt's
       # pygame-ce's SDL draws by KMS/DRM without a desktop and loads these from the system (Lite may lack them);
       # GBM and EGL load the GPU's driver from libgl1-mesa-dri
       "libdrm2", "libgbm1", "libegl1", "libgles2", "libgl1-mesa-dri"]
GROUPS = ["video", "render", "input", "gpio", "dialout", "tty"]  # the screen, touch, the encoder, the board, tty1
UNIT = Path("etc/systemd/system/nova-table.service")
RULES = Path("etc/udev/rules.d/60-nova-table.rules")
HARDWARE = Path("etc/nova-table/hardware.toml")
BOARD_USB = 'ATTRS{idVendor}=="2e8a", ATTRS{idProduct}=="0005"'  # a Pico running MicroPython (assistant/hardware/ports.py)
RULES_TEXT = f"""# Nova Table (bootstrap.py --pi)
# the RP2040 board running MicroPython: for the dialout group, also named /dev/nova-board
SUBSYSTEM=="tty", {BOARD_USB}, GROUP="dialout", MODE="0660", SYMLINK+="nova-board"
# the GPIO chips, for the encoder (Raspberry Pi OS has this already; another Debian may not)
SUBSYSTEM=="gpio", KERNEL=="gpiochip*", GROUP="gpio", MODE="0660"
"""
HARDWARE_TEXT = """# Nova Table's hardware: every key is in assistant/hardware/config.py. Written once by bootstrap.py --pi: yours.
[encoder]
a = 17
b = 27
button = 22

[board]
port = "auto"

[camera]
source = "{camera}"{seen}
tray = true
"""


class Setup:
    """The steps, each done only where the system is not as it should be; `done` and `left` say the rest."""

    def __init__(self, user: str, root: Path | None) -> None:
        self.user = user
        self.entry = pwd.getpwnam(user)
        self.root = root
        self.done: list[str] = []
        self.left: list[str] = []

    def system(self, *command: str) -> bool:
        """Run a command as root (sudo where this is not root); under --root, print it. Whether it worked."""
        if self.root is not None:
            print(f"pi-setup: would run: {shlex.join(command)}")
            return True
        full = list(command) if os.geteuid() == 0 else ["sudo", *command]
        return subprocess.run(full).returncode == 0

    def write(self, path: Path, text: str, keep: bool = False) -> bool:
        """Put `text` in /`path` (under --root's folder) unless it is there already (or, `keep`, anything is)."""
        target = (self.root or Path("/")) / path
        if target.exists() and (keep or target.read_text() == text):
            return False
        if self.root is not None or os.access(target.parent if target.parent.exists() else Path("/"), os.W_OK):
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text)
            return True
        with tempfile.NamedTemporaryFile("w", suffix=path.suffix) as staged:
            staged.write(text)
            staged.flush()
            return self.system("install", "-D", "-m", "0644", staged.name, str(target))

    def apt(self) -> None:
        missing = [name for name in APT if not installed(name)]
        if not missing:
            return
        if self.system("apt-get", "update", "-qq") and self.system("apt-get", "install", "-y", "--no-install-recommends",
                                                                   *missing):  # fmt: skip
            self.done.append(f"installed from apt: {', '.join(missing)}")
        else:
            self.left.append(f"apt could not install {', '.join(missing)} (its words above): is this Raspberry Pi OS?")

    def groups(self) -> None:
        have = {group.gr_name for group in grp.getgrall() if self.user in group.gr_mem}
        missing = [name for name in GROUPS if name not in have]
        if not missing:
            return
        if "gpio" in missing:
            self.system("groupadd", "-f", "--system", "gpio")
        if self.system("usermod", "-aG", ",".join(missing), self.user):
            self.done.append(f"{self.user} added to the groups {', '.join(missing)}")
            self.left.append("log out and in again, or reboot, for the new groups to count")

    def udev(self) -> None:
        if self.write(RULES, RULES_TEXT):
            self.system("udevadm", "control", "--reload-rules")
            self.system("udevadm", "trigger")
            self.done.append(f"/{RULES}: the board as /dev/nova-board (group dialout), the GPIO for group gpio")

    def venv(self) -> None:
        command = [sys.executable, str(CLONE / "bootstrap.py")]
        if os.geteuid() == 0 and self.user != "root":  # run with sudo: the venv is the player's, not root's
            command = ["sudo", "-u", self.user, *command]
        if self.root is not None:
            print(f"pi-setup: would run: {shlex.join(command)}")
        elif subprocess.run(command).returncode != 0:
            self.left.append(f"the venv: {shlex.join(command)} failed (its words above); run it again")
            return
        else:
            self.done.append(f"{CLONE / '.venv'}: Nova Table installed")
        probe = [str(CLONE / ".venv" / "bin" / "python"), "-c", "import picamera2"]
        if self.root is None and (tried := subprocess.run(probe, capture_output=True, text=True)).returncode != 0:
            why = (tried.stderr.strip().splitlines() or ["no output"])[-1]
            self.left.append(f"the camera stack does not import in the venv ({why}): docs/pi-setup.md, 'When something is wrong'")

    def hardware(self) -> None:
        if (self.root or Path("/")).joinpath(HARDWARE).exists():
            return  # the maker's: kept as it is
        cameras, why = cameras_seen()
        camera = "picamera" if cameras else "none"
        seen = f"  # {why}: once one is connected, \"picamera\"" if not cameras else ""
        if self.write(HARDWARE, HARDWARE_TEXT.format(camera=camera, seen=seen), keep=True):
            self.done.append(f"/{HARDWARE}: the default pins, the board found by itself, camera {camera}"
                             + (f" ({', '.join(cameras)})" if cameras else ""))
            if not cameras:
                self.left.append(f"{why}: once a camera is connected, set source = \"picamera\" in /{HARDWARE}")

    def unit(self) -> None:
        if self.write(UNIT, unit_text(self.user, grp.getgrgid(self.entry.pw_gid).gr_name, Path(self.entry.pw_dir))):
            self.system("systemctl", "daemon-reload")
            self.done.append(f"/{UNIT}: the table for {self.user}, from {CLONE}")
        systemctl = ["systemctl", *([f"--root={self.root}"] if self.root is not None else [])]  # (--root: offline)
        if subprocess.run([*systemctl, "is-enabled", "--quiet", "nova-table"], capture_output=True).returncode:
            enabled = self.system(*systemctl, "enable", "nova-table") if self.root is None else subprocess.run(
                [*systemctl, "--quiet", "enable", "nova-table"], capture_output=True).returncode == 0  # fmt: skip
            if enabled:
                self.done.append("nova-table enabled: it starts at boot, on tty1")
        self.left.append("start it now (it takes the screen and tty1): sudo systemctl start nova-table, or reboot")


def unit_text(user: str, group: str, home: Path, clone: Path = CLONE) -> str:
    """systemd/nova-table.service for `user` and a clone at `clone`."""
    text = (CLONE / "systemd" / "nova-table.service").read_text()
    text = text.replace("/home/pi/nova-table", str(clone)).replace("/home/pi", str(home))
    return text.replace("\nUser=pi\n", f"\nUser={user}\n").replace("\nGroup=pi\n", f"\nGroup={group}\n")


def installed(package: str) -> bool:
    try:
        done = subprocess.run(["dpkg-query", "-W", "-f=${Status}", package], capture_output=True, text=True)
    except OSError:  # not a Debian
        return False
    return done.stdout.endswith(" installed")


SEE_CAMERAS = ("from picamera2 import Picamera2\n"
               "for c in Picamera2.global_camera_info(): print(c.get('Model', '?'), c.get('Location', ''))")


def cameras_seen() -> tuple[list[str], str]:
    """The cameras picamera2 (apt's, as the table opens them) sees, and where none, why not in words."""
    try:
        listed = subprocess.run([sys.executable, "-c", SEE_CAMERAS], capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        return [], "no camera seen: picamera2 did not answer in 60 s"
    if listed.returncode != 0:
        last = (listed.stderr.strip().splitlines() or [f"exit status {listed.returncode}"])[-1]
        return [], f"no camera seen: picamera2 cannot look ({last})"
    cameras = [line.strip() for line in listed.stdout.splitlines() if line.strip()]
    return cameras, "" if cameras else "no camera seen: picamera2 finds none (the ribbon? docs/pi-setup.md)"


def main(root: Path | None = None) -> int:
    user = os.environ.get("SUDO_USER") or pwd.getpwuid(os.getuid()).pw_name
    setup = Setup(user, root)
    for step in (setup.apt, setup.groups, setup.udev, setup.venv, setup.hardware, setup.unit):
        step()
    rehearsal = "" if root is None else f" (a rehearsal under {root}: the commands printed were not run)"
    print(f"pi-setup: done{rehearsal}:" if setup.done else "pi-setup: nothing to change: all was in place")
    for line in setup.done:
        print(f"  - {line}")
    print("pi-setup: left to you:")
    for line in setup.left + ["the wiring, the board's firmware and the dice: docs/pi-setup.md"]:
        print(f"  - {line}")
    return 0
