"""hardware/wiring.svg: drawn by Graphviz from hardware/wiring.dot, it names every pin that wiring.md and the code use.

The SVG is compared with one made anew from the source by what it shows (its nodes, its wires and every
word), not byte for byte: Graphviz places things by its fonts' measures, which differ between machines.
"""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest

from assistant.hardware.config import EncoderConfig

ROOT = Path(__file__).resolve().parents[2]
HARDWARE = ROOT / "hardware"
SVG = "{http://www.w3.org/2000/svg}"
PARTS = ("Raspberry Pi 4 / 5", "Raspberry Pi Pico", "Touch Display", "Camera Module 3", "EC11", "74AHCT125N",
         "WS2812B", "IRLB8721PBF", "330 Ω", "100 Ω", "10 kΩ", "100 nF", "1000 µF")  # fmt: skip


def shown(svg: str) -> tuple[list[str], Counter[str]]:
    """What an SVG of Graphviz shows: its nodes' and wires' names ("knob1:sw--pico:gp10"), and its words."""
    root = ET.fromstring(svg)
    names = sorted(g.findtext(f"{SVG}title") or "" for g in root.iter(f"{SVG}g") if g.get("class") in ("node", "edge"))
    words = Counter("".join(text.itertext()).strip() for text in root.iter(f"{SVG}text"))
    return names, words


def firmware_pins() -> set[int]:
    """The Pico's GP numbers that firmware/board_pins.py uses (read from its source: it imports `machine`)."""
    pins: set[int] = set()
    for node in ast.parse((ROOT / "firmware" / "board_pins.py").read_text()).body:
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name) and node.targets[0].id.endswith("_PIN"):
            pins.add(ast.literal_eval(node.value))
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name) and node.targets[0].id.endswith("_PINS"):
            value = ast.literal_eval(node.value)
            pins.update(p for item in value for p in (item if isinstance(item, tuple) else (item,)))
    return pins


def test_the_svg_names_every_pin_of_the_wiring_and_the_code_and_every_part() -> None:
    names, words = shown((HARDWARE / "wiring.svg").read_text(encoding="utf-8"))
    pins = set(re.findall(r"\b(?:GPIO\d+|GP\d+|GND|3V3|5V|VBUS) \[\d+\]", (HARDWARE / "wiring.md").read_text()))
    assert len(pins) >= 20  # the Pi's header pins and the Pico's, as wiring.md's tables name them
    assert pins - set(words) == set()
    used = firmware_pins()
    assert len(used) == 4 * 3 + 2 and {pin for pin in used if not any(w.startswith(f"GP{pin} [") for w in words)} == set()
    encoder = EncoderConfig()
    for bcm in (encoder.a, encoder.b, encoder.button):  # the Pi side's default pins (hardware.toml may change them)
        assert any(word.startswith(f"GPIO{bcm} [") for word in words), bcm
    text = " ".join(words)
    assert [part for part in PARTS if part not in text] == []
    assert "knob4:sw--pico:gp13" in names and "encoder:sw--pi:p15" in names  # the wires are there, not only the words


def test_the_svg_is_the_one_its_source_draws() -> None:
    dot = shutil.which("dot")
    if dot is None:
        pytest.skip("Graphviz's dot is not installed: bootstrap.py --test installs it from apt (graphviz), as root")
    made = subprocess.run([dot, "-Tsvg", str(HARDWARE / "wiring.dot")], capture_output=True, text=True, timeout=120)
    assert made.returncode == 0, made.stderr
    committed = shown((HARDWARE / "wiring.svg").read_text(encoding="utf-8"))
    assert shown(made.stdout) == committed, "hardware/wiring.svg is out of date: dot -Tsvg hardware/wiring.dot -o hardware/wiring.svg"
    assert len(committed[0]) > 60  # (a diagram, not an empty page)
