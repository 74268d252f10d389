"""Photoreal dice scenes rendered by Blender's path tracer, with exact labels, as a manifest.

`dice_scenes.py` paints each die's faces flat and shades them by hand; here Blender's Cycles
lights rounded dice (pips pressed in, glossy or matt plastic) on a table under room lamps, with
real soft shadows, highlights and perspective. The random choices (and the face and table
pictures, drawn by `dice_scenes`) are made here; `photoreal_blender.py` builds and renders each
scene in Blender and reports where every die's top face landed. The result is a folder in the
manifest format of ../shared/dice/README.md (top-face boxes), plus `labels.jsonl` with each
die's whole box and how much of its top face is in sight, and a die hidden in part makes its
picture incomplete. A training and measuring tool only: nothing at run time imports it.

Needs Blender (Debian: `apt install blender`; 3.4 here): python calibration/photoreal.py --out DIR
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from calibration import dice_scenes  # noqa: E402

TEX = 128  # face picture side in the atlas, pixels (dice_scenes' faces, drawn at its size, scaled up)
VISIBLE = 0.8  # a die is labelled when this share of its top face's points is in sight (and it does not lean)
OCTA = [(sx, sy, sz) for sx in (1, -1) for sy in (1, -1) for sz in (1, -1)]


def cell(k: int, cols: int, rows: int) -> list[float]:
    """Atlas cell k's UV rectangle [u0, v0, u1, v1] (rows from the picture's top), inset a pixel."""
    col, row = k % cols, k // cols
    e = 1.0 / (TEX * cols)
    return [col / cols + e, 1 - (row + 1) / rows + e, (col + 1) / cols - e, 1 - row / rows - e]


def manifest_box(box: list[float]) -> list[float]:
    """A box as the manifests write it (0.1 px)."""
    return [round(v, 1) for v in box]


def larger(face: np.ndarray) -> np.ndarray:
    return np.clip(cv2.resize(face, (TEX, TEX), interpolation=cv2.INTER_CUBIC), 0, 255).astype(np.uint8)


def d6_atlas(value: int, rng: np.random.Generator) -> tuple[np.ndarray, dict[str, list[float]], list[dict[str, Any]], dict[str, Any]]:
    """The six faces' pictures (3 x 2 cells, cell v-1 shows v), which face shows which (cells by
    normal, and each face's normal, centre and value; +z shows `value`), its look."""
    body = dice_scenes.random_colour(rng)
    ink = dice_scenes.ink_for(body, rng)
    style = "pips" if rng.random() < 0.8 else "numerals"
    look = {"round": 0.0, "step": rng.uniform(0.24, 0.3), "pip": rng.uniform(0.07, 0.11),
            "engraved": float(rng.random() < 0.3), "font": float(rng.integers(len(dice_scenes.FONTS)))}
    atlas = np.zeros((2 * TEX, 3 * TEX, 3), np.uint8)
    for v in range(1, 7):
        face, _mask = dice_scenes.square_face(v, body, ink, style, rng, look)
        r, c = (v - 1) // 3, (v - 1) % 3
        atlas[r * TEX:(r + 1) * TEX, c * TEX:(c + 1) * TEX] = larger(face)
    sides = dice_scenes.cube_faces(value, rng)
    cells = {str([int(x) for x in n]): cell(val - 1, 3, 2) for n, _u, _v, val in sides}
    faces = [{"normal": n.tolist(), "normal3": n.tolist(), "u": u.tolist(), "v": v.tolist(), "centre": (0.5 * n).tolist(),
              "value": int(val)} for n, u, v, val in sides]
    return atlas, cells, faces, {"style": style, "bump": rng.uniform(0.2, 1.0) if style == "pips" else rng.uniform(0, 0.5)}


def d8_atlas(value: int, rng: np.random.Generator) -> tuple[np.ndarray, dict[str, list[float]], list[dict[str, Any]], dict[str, Any]]:
    """The eight faces' triangles (4 x 2 cells); the face of sign (1, 1, 1) shows `value`."""
    body = dice_scenes.random_colour(rng)
    ink = dice_scenes.ink_for(body, rng)
    look = {"font": float(rng.integers(len(dice_scenes.FONTS)))}
    values = [value] + [int(v) for v in rng.permutation([v for v in range(1, 9) if v != value])]
    atlas = np.zeros((2 * TEX, 4 * TEX, 3), np.uint8)
    atlas[:] = np.clip(body, 0, 255).astype(np.uint8)
    cells, faces = {}, []
    for k, (sign, shown) in enumerate(zip(OCTA, values)):
        face, _mask, _corners = dice_scenes.triangle_face(shown, body, ink, rng, look)
        r, c = k // 4, k % 4
        atlas[r * TEX:(r + 1) * TEX, c * TEX:(c + 1) * TEX] = larger(face)
        cells[str(list(sign))] = cell(k, 4, 2)
        corners = [[sign[0], 0, 0], [0, sign[1], 0], [0, 0, sign[2]]]
        faces.append({"normal": list(sign), "corners": corners, "centre": [c / 3 for c in sign], "value": shown})
    return atlas, cells, faces, {"style": "numerals", "bump": rng.uniform(0, 0.4)}


def random_turn(rng: np.random.Generator) -> np.ndarray:
    """A rotation drawn uniformly (from a random unit quaternion)."""
    w, x, y, z = rng.normal(size=4) / 1.0
    n = np.sqrt(w * w + x * x + y * y + z * z)
    w, x, y, z = w / n, x / n, y / n, z / n
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                     [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                     [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])


def placement(rng: np.random.Generator, count: int, spread: float, size: float, crowd: bool) -> list[np.ndarray]:
    """Up to `count` table positions (metres) within `spread` of the middle, none overlapping."""
    placed: list[np.ndarray] = []
    heap = rng.uniform(-0.4, 0.4, 2) * spread
    for _ in range(count):
        for _attempt in range(40):
            if placed and rng.random() < (0.6 if crowd else 0.35):  # beside a die already there
                a = rng.uniform(0, 2 * np.pi)
                p = placed[int(rng.integers(len(placed)))] + size * rng.uniform(1.45, 1.7) * np.array([np.cos(a), np.sin(a)])
            elif crowd:
                p = heap + rng.normal(0, size * 2.5, 2)
            else:
                p = rng.uniform(-spread, spread, 2)
            if all(np.hypot(*(p - q)) > 1.42 * size for q in placed):
                placed.append(p)
                break
    return placed


def scene_spec(index: int, seed: int, folder: Path, samples: int) -> dict[str, Any]:
    """One scene's every random choice; writes its table and dice pictures into `folder`."""
    rng = np.random.default_rng([seed, index])
    name = f"s{seed}_{index:06d}"
    width, height = (640, 480) if rng.random() < 0.8 else (480, 640)
    crowd = rng.random() < 0.1
    count = int(rng.integers(16, 41)) if crowd else int(rng.choice([1, 2, 3, 4, 6, 8, 10, 14],
                                                                     p=[0.16, 0.16, 0.14, 0.14, 0.12, 0.1, 0.1, 0.08]))
    size = rng.uniform(0.012, 0.022)  # a die's side, metres
    pixels = float(np.exp(rng.uniform(np.log(14), np.log(45 if crowd else 100))))  # its side in the picture
    lens = rng.uniform(22, 55)
    distance = lens / 36 * width * size / pixels
    elevation = np.radians(rng.choice([rng.uniform(25, 60), rng.uniform(55, 90)]))
    azimuth = rng.uniform(0, 2 * np.pi)
    target = np.array([0.0, 0.0, 0.0])
    location = target + distance * np.array([np.cos(elevation) * np.cos(azimuth), np.cos(elevation) * np.sin(azimuth),
                                             np.sin(elevation)])
    spread = 0.8 * distance * 18 / lens
    cv2.imwrite(str(folder / f"{name}_table.jpg"), np.clip(dice_scenes.table(rng, 1024, 1024), 0, 255).astype(np.uint8),
                [cv2.IMWRITE_JPEG_QUALITY, 92])
    dice = []
    physics = rng.random() < (0.7 if crowd else 0.35)  # dropped and left to settle: heaps, dice leaning on dice
    layers = int(rng.integers(1, 4)) if physics and crowd else 1
    spots = [(x, y, layer) for layer in range(layers)
             for x, y in placement(rng, count // layers, spread, size, crowd)]
    for k, (x, y, layer) in enumerate(spots):
        kind = "d8" if rng.random() < 0.25 else "d6"
        value = int(rng.integers(1, 9 if kind == "d8" else 7))
        atlas, cells, faces, look = (d8_atlas if kind == "d8" else d6_atlas)(value, rng)
        cv2.imwrite(str(folder / f"{name}_die{k}.png"), atlas)
        yaw = rng.uniform(0, 2 * np.pi)
        bevel = float(rng.uniform(0.06, 0.2) if kind == "d6" else rng.uniform(0.02, 0.06))
        if kind == "d8":
            rest = dice_scenes.align(np.ones(3) / np.sqrt(3), np.array([0, 0, 1.0]))
            scale = size * 0.62
            verts = np.vstack([np.eye(3), -np.eye(3)])
        else:
            rest = np.eye(3)
            scale = size
            verts = np.array([[a, b, c] for a in (-0.5, 0.5) for b in (-0.5, 0.5) for c in (-0.5, 0.5)])
            e = 0.5 - 0.3 * bevel  # a face's corners, as far as the rounding leaves them
            for face in faces:
                n, u, v = (np.array(face.pop(key), float) for key in ("normal3", "u", "v"))
                face["corners"] = [(0.5 * n + a * e * u + b * e * v).tolist() for a, b in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
        if physics:
            turn = random_turn(rng)
        else:
            tilt = dice_scenes.rot_axis(np.array([np.cos(yaw + 1), np.sin(yaw + 1), 0.0]), np.radians(rng.uniform(0, 4)))
            turn = tilt @ dice_scenes.rot_z(yaw) @ rest
        lift = -float((verts @ (turn * scale).T)[:, 2].min())
        if physics:
            lift += size * (rng.uniform(0.1, 1.5) + 1.8 * layer)
        matrix = np.eye(4)
        matrix[:3, :3] = turn * scale
        matrix[:3, 3] = (x, y, lift)
        dice.append({"name": f"die{k}", "kind": kind, "atlas": f"{name}_die{k}.png", "cells": cells, "faces": faces,
                     "matrix": matrix.tolist(), "bevel": bevel,
                     "roughness": float(rng.uniform(0.08, 0.6)), "bump": float(look["bump"]),
                     "clearcoat": float(rng.uniform(0, 0.6) if rng.random() < 0.4 else 0.0)})
    lamps = []
    for _ in range(int(rng.integers(1, 4))):
        kind = str(rng.choice(["AREA", "SUN", "POINT"], p=[0.6, 0.2, 0.2]))
        warm = rng.uniform(-0.12, 0.12)
        lamps.append({"type": kind, "colour": [1 + warm, 1.0, 1 - warm],
                      "location": [float(rng.uniform(-1.5, 1.5)), float(rng.uniform(-1.5, 1.5)), float(rng.uniform(0.8, 2.5))],
                      "aim": [float(v) for v in rng.normal(0, 0.2, 3) * (1, 1, 0)],
                      "size": float(rng.uniform(0.3, 2.0) if kind == "AREA" else rng.uniform(0.02, 0.3)),
                      "angle": float(np.radians(rng.uniform(0.5, 15))),
                      "energy": float({"AREA": rng.uniform(40, 400), "SUN": rng.uniform(1, 4),
                                       "POINT": rng.uniform(20, 200)}[kind])})
    tint = rng.uniform(-0.08, 0.08)
    return {"seed": int(rng.integers(1 << 30)), "image": f"{name}.png", "width": width, "height": height,
            "samples": samples, "threads": 1, "frames": 90 if physics else 0, "exposure": float(rng.normal(0, 0.35)),
            "table": {"texture": f"{name}_table.jpg", "size": 4.0, "repeat": float(4.0 / (1024 * rng.uniform(0.0004, 0.0012))),
                      "roughness": float(rng.uniform(0.25, 0.95)), "specular": float(rng.uniform(0.1, 0.6))},
            "light": {"ambient": [1 + tint, 1.0, 1 - tint], "ambient_strength": float(rng.uniform(0.15, 1.0)),
                      "lamps": lamps},
            "camera": {"lens": float(lens), "location": location.tolist(), "target": target.tolist(),
                       "roll": float(rng.normal(0, 0.15))},
            "dice": dice}


def render_chunk(blender: str, folder: Path, specs: list[dict[str, Any]], k: int) -> Path:
    spec_file = folder / f"chunk{k:04d}.json"
    spec_file.write_text(json.dumps(specs))
    seen = spec_file.with_suffix(".seen.jsonl")
    seen.unlink(missing_ok=True)
    subprocess.run([blender, "-b", "--factory-startup", "-noaudio", "-P", str(ROOT / "calibration" / "photoreal_blender.py"),
                    "--", str(spec_file)], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return seen


def finish(folder: Path, out: Path, seen: Path, seed: int) -> tuple[int, int]:
    """The rendered pictures through `dice_scenes.camera` (light, blur, noise, JPEG) into
    out/images, with their manifest and labels lines; (pictures, labelled dice)."""
    pictures = labelled = 0
    with (out / "manifest.jsonl").open("a") as manifest, (out / "labels.jsonl").open("a") as labels:
        for line in seen.read_text().splitlines():
            shot = json.loads(line)
            image = cv2.imread(str(folder / shot["image"]))
            if image is None:
                continue
            rng = np.random.default_rng([seed, len(shot["image"]), int(shot["image"].split("_")[-1][:-4])])
            image = dice_scenes.camera(image.astype(np.float32), rng)
            name = f"images/{Path(shot['image']).stem}.jpg"
            cv2.imwrite(str(out / name), image, [cv2.IMWRITE_JPEG_QUALITY, 90])
            w, h = shot["width"], shot["height"]
            inside = [d for d in shot["dice"] if 0 <= d["centre"][0] < w and 0 <= d["centre"][1] < h]
            shown = [d for d in inside if d["visible"] >= VISIBLE and d.get("tilt", 0.0) <= dice_scenes.LEAN_DEGREES]
            manifest.write(json.dumps({"image": name, "complete": len(shown) == len(inside), "box": "top_face",
                                       "dice": [{"kind": d["kind"], "value": d["value"],
                                                 "box": manifest_box(d["top"])} for d in shown]}) + "\n")
            labels.write(json.dumps({"image": name, "dice": inside}) + "\n")
            pictures += 1
            labelled += len(shown)
    return pictures, labelled


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--count", type=int, default=100, help="pictures")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--first", type=int, default=0, help="the first picture's index (to add to a folder)")
    parser.add_argument("--samples", type=int, default=24, help="Cycles' samples a pixel")
    parser.add_argument("--chunk", type=int, default=10, help="pictures a Blender run renders")
    parser.add_argument("--workers", type=int, default=2, help="Blender runs at once (one thread each)")
    parser.add_argument("--blender", default=shutil.which("blender") or "blender")
    args = parser.parse_args(argv)
    work = args.out / "work"
    (args.out / "images").mkdir(parents=True, exist_ok=True)
    work.mkdir(exist_ok=True)
    indices = list(range(args.first, args.first + args.count))
    chunks = [indices[i:i + args.chunk] for i in range(0, len(indices), args.chunk)]
    total = [0, 0]

    def one(chunk: list[int]) -> Path:
        folder = work / f"c{chunk[0]}"
        folder.mkdir(exist_ok=True)
        specs = [scene_spec(i, args.seed, folder, args.samples) for i in chunk]
        return render_chunk(args.blender, folder, specs, chunk[0])

    with ThreadPoolExecutor(args.workers) as pool:
        for seen in pool.map(one, chunks):
            got = finish(seen.parent, args.out, seen, args.seed)
            total = [total[0] + got[0], total[1] + got[1]]
            shutil.rmtree(seen.parent)
            print(f"{total[0]} pictures, {total[1]} labelled dice", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
