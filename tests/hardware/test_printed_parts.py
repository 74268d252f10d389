"""hardware/nova_table.scad renders every printed part with openscad (Debian's package; `bootstrap.py --test`
installs it as root), the STL files in hardware/stl/ are what it renders now, and the camera's height and a
die's size follow from the tray, the camera and the dice."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

HARDWARE = Path(__file__).resolve().parents[2] / "hardware"
PARTS = ["tray", "mast_foot", "mast_column", "mast_arm", "enclosure_front", "enclosure_back"]


def openscad(out: Path, *definitions: str) -> subprocess.CompletedProcess[str]:
    if shutil.which("openscad") is None:
        pytest.skip("openscad is missing (Debian's openscad: bootstrap.py --test installs it as root)")
    command = ["openscad", "-o", str(out), *(f"-D{d}" for d in definitions), str(HARDWARE / "nova_table.scad")]
    return subprocess.run(command, capture_output=True, text=True, timeout=300)


def bounds(stl: Path) -> tuple[list[float], list[float], int]:
    """An ASCII STL's bounding box (lowest and highest x, y, z) and its count of facets."""
    points = [tuple(map(float, m.groups())) for m in re.finditer(r"vertex\s+(\S+)\s+(\S+)\s+(\S+)", stl.read_text())]
    return [min(p[i] for p in points) for i in range(3)], [max(p[i] for p in points) for i in range(3)], len(points) // 3


@pytest.mark.parametrize("part", PARTS)
def test_each_part_renders_and_its_stl_is_up_to_date(part: str, tmp_path: Path) -> None:
    done = openscad(tmp_path / f"{part}.stl", f'part="{part}"')
    assert done.returncode == 0, done.stderr
    low, high, facets = bounds(tmp_path / f"{part}.stl")
    assert facets > 12 and all(h - lo > 1 for lo, h in zip(low, high))  # a solid, not an empty export
    kept = bounds(HARDWARE / "stl" / f"{part}.stl")
    assert kept[0] == pytest.approx(low, abs=0.01) and kept[1] == pytest.approx(high, abs=0.01), (
        f"hardware/stl/{part}.stl is not what nova_table.scad renders now: render it again (hardware/README.md)")


def echoed(done: subprocess.CompletedProcess[str]) -> tuple[int, int]:
    height = re.search(r"camera height above the tray's floor: (\d+) mm", done.stderr)
    die = re.search(r"a die in the reader's view: (\d+) px across", done.stderr)
    assert height is not None and die is not None, done.stderr
    return int(height.group(1)), int(die.group(1))


def test_the_camera_is_as_high_as_its_view_needs_and_a_die_is_40_px(tmp_path: Path) -> None:
    """Camera Module 3 over the tray and its markers, in the app's 4:3 view: 25.5 cm up, a 16 mm die 40 px
    across in the reader's 640 px (its floor); a larger tray puts the camera higher and the dice smaller."""
    height, die = echoed(openscad(tmp_path / "tray.stl", 'part="tray"'))
    assert (height, die) == (255, 40)
    assert echoed(openscad(tmp_path / "wide.stl", 'part="tray"', "floor_w=250", "floor_d=180")) == (324, 32)
    from assistant.vision.picamera import FOCUS_CM

    assert FOCUS_CM * 10 == height  # the lens is focused where the mast holds it


def test_a_part_that_is_not_there_is_an_error(tmp_path: Path) -> None:
    done = openscad(tmp_path / "none.stl", 'part="lid"')
    assert done.returncode != 0 and 'no part named lid' in done.stderr
