"""Hardware settings from a TOML file: encoder pins, pin factory, the board's port, the tray light levels, the camera.

Looked for, in order: the file given on the command line, the file named by the environment's
NOVA_TABLE_HARDWARE (the tests name one with every device off, so a Pi's own file is never read by
them), /etc/nova-table/hardware.toml, ~/.config/nova-table/hardware.toml; otherwise the defaults
below (the wiring of hardware/wiring.md).

    [encoder]
    enabled = "auto"       # true, false, or "auto": only where the Pi has GPIO (/dev/gpiochip*)
    a = 17                 # BCM numbers of the encoder's A and B pins and of its push switch
    b = 27
    button = 22
    hold_time = 0.8        # seconds the switch is held to mean "back" (0.1 to 10)
    bounce_time = 0.01     # seconds the push switch must rest before a press or release counts (0 to 1)
    pin_factory = "auto"   # "auto" (lgpio on a Pi 5, gpiozero's choice elsewhere), "lgpio", "mock", ...

    [board]
    port = "auto"          # "auto" (the first port with a Pico's USB id that answers hello), "none", or a port
    tray_idle = 10         # tray light, percent (0 to 100), while nobody is rolling
    tray_dice = 100        # tray light, percent (0 to 100), while a form waits for dice

    [camera]
    source = "none"        # "none" (or ""), or what `play --camera` takes: "picamera", "camera:N", "auto", ...
                           # (a video:FILE or folder:DIR path as profile's)
    tray = false           # the tray has corner markers: read inside them (`--camera-tray`)
    profile = ""           # the table's own dice (`nova-table dice calibrate`); ~ is the home folder,
                           # a relative path is from this file's folder; "" for none (`--dice-profile`)

What the command line says wins over the file (`--camera none` leaves the file's camera out).
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from assistant.files import HARDWARE, Refused, read_file
from assistant.reading import beyond_python

ENVIRON = "NOVA_TABLE_HARDWARE"
SEARCH = (Path("/etc/nova-table/hardware.toml"),
          Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config") / "nova-table" / "hardware.toml")  # fmt: skip


class ConfigError(ValueError):
    """A hardware file that cannot be used; the message names the file and every wrong key, a line each."""


@dataclass(frozen=True)
class EncoderConfig:
    enabled: bool | str = "auto"
    a: int = 17
    b: int = 27
    button: int = 22
    hold_time: float = 0.8
    bounce_time: float = 0.01
    pin_factory: str = "auto"


@dataclass(frozen=True)
class BoardConfig:
    port: str = "auto"
    tray_idle: int = 10
    tray_dice: int = 100


@dataclass(frozen=True)
class CameraConfig:
    source: str = "none"
    tray: bool = False
    profile: str = ""


@dataclass(frozen=True)
class HardwareConfig:
    encoder: EncoderConfig = field(default_factory=EncoderConfig)
    board: BoardConfig = field(default_factory=BoardConfig)
    camera: CameraConfig = field(default_factory=CameraConfig)
    source: str = "defaults"

    def dice_profile(self) -> Path | None:
        """[camera] profile as a path: ~ expanded, relative to the settings file's folder; None when not set."""
        return self.beside(self.camera.profile) if self.camera.profile else None

    def camera_source(self) -> str:
        """[camera] source, a video's or a folder's path taken as `profile` is ("" is "none")."""
        name, _, arg = self.camera.source.partition(":")
        if name in ("video", "folder") and arg:
            return f"{name}:{self.beside(arg)}"
        return self.camera.source or "none"

    def beside(self, text: str) -> Path:
        """A path of the file: ~ is the home folder, and a relative one is from the file's folder."""
        path = Path(text).expanduser()
        return path if path.is_absolute() or self.source == "defaults" else Path(self.source).parent / path


def _section(data: dict[str, Any], name: str, kind: type, problems: list[str]) -> Any:
    """[name] of `data` as a `kind`; each wrong key is added to `problems` (and the default kept for it)."""
    values = data.get(name, {})
    if not isinstance(values, dict):
        problems.append(f"[{name}] must be a table")
        return kind()
    defaults = kind()
    known = set(defaults.__dataclass_fields__)
    kept = {}
    for key, value in values.items():
        problem = _problem(key, value, known, defaults)
        if problem:
            problems.append(f"[{name}] {key}: {problem}")
        else:
            kept[key] = value
    return kind(**kept)


def _problem(key: str, value: Any, known: set[str], defaults: Any) -> str | None:
    """What is wrong with `key = value` in a section whose defaults are `defaults`; None when nothing."""
    if key not in known:
        return f"unknown key (known: {', '.join(sorted(known))})"
    default = getattr(defaults, key)
    if key == "enabled":
        if not (value is True or value is False or value == "auto"):  # not 0 or 1: TOML's integers
            return f'must be true, false or "auto", not {value!r}'
    elif key == "bounce_time":
        if not _seconds(value, 0.0, 1.0):
            return f"must be a number of seconds from 0 to 1, not {value!r}"
    elif type(value) is not type(default) and not (
        isinstance(default, float) and isinstance(value, int) and not isinstance(value, bool)
    ):
        return f"must be {type(default).__name__}, not {value!r}"
    elif key == "hold_time" and not _seconds(value, 0.1, 10.0):
        return f"must be a number of seconds from 0.1 to 10, not {value!r}"
    elif key in ("tray_idle", "tray_dice") and not 0 <= value <= 100:
        return f"must be a percent from 0 to 100, not {value!r}"
    return None


def _seconds(value: object, low: float, high: float) -> bool:
    """A TOML number of seconds from `low` to `high` (not a boolean, not nan or inf)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and low <= value <= high


def _there(path: Path) -> bool:
    """A settings file at `path`; not where its folder cannot be looked into (another user's home, as
    HOME=/root under `sudo -u`: pathlib says PermissionError there, not False)."""
    try:
        return path.is_file()
    except OSError:
        return False


def load_config(path: Path | None = None) -> HardwareConfig:
    """The settings of `path`, or of the file NOVA_TABLE_HARDWARE names, or of the first file found in SEARCH,
    or the defaults."""
    named = path
    if named is None and os.environ.get(ENVIRON):
        named = Path(os.environ[ENVIRON])
        if not named.is_file():
            raise ConfigError(f"{ENVIRON}={named}: no such settings file")
    candidates = [named] if named is not None else [p for p in SEARCH if _there(p)]
    if not candidates:
        return HardwareConfig()
    chosen = candidates[0]
    try:
        data = tomllib.loads(read_file(chosen, HARDWARE).decode("utf-8"))
    except Refused as error:  # a folder, a pipe (waited on for ever), a device (read without end), too large
        raise ConfigError(str(error)) from None
    except OSError as error:
        raise ConfigError(f"{chosen}: cannot read: {error.strerror}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise ConfigError(f"{chosen}: not valid TOML: {error}") from None
    except (ValueError, RecursionError) as error:
        raise ConfigError(f"{chosen}: not valid TOML: {beyond_python(error)}") from None
    sections = {"encoder": EncoderConfig, "board": BoardConfig, "camera": CameraConfig}
    problems = [f"[{key}]: unknown section (known: {', '.join(sections)})" for key in data if key not in sections]
    read = {name: _section(data, name, kind, problems) for name, kind in sections.items()}
    if problems:  # every one at once: a maker at the Pi mends the file in one go
        raise ConfigError("\n".join(f"{chosen}: {problem}" for problem in problems))
    return HardwareConfig(**read, source=str(chosen))
