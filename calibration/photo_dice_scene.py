"""Blender's side of calibration/photo_dice.py: true 3D dice rendered with Cycles, made to look photographed.

    blender -b --factory-startup -t 1 -P calibration/photo_dice_scene.py -- OUTDIR --count N --seed S --site DIR

One scene is built once (a pool of d6 and d8 meshes, a table, lights, a camera), then every picture i draws
its own look from numpy's generator seeded (S, i): 1 to 8 dice, about 2/3 d8 (numerals in many fonts, a
bar or dot under 6 and 9, a third of them the Nova Aetas d8 with Sun, Star and Moon), the rest d6 (pips or
numerals), each laid on a face (die_faces.lay) and spun; materials solid, marbled (two or three colours,
metallic bands among them), translucent, metallic or glittering, the marks printed or engraved, inked or
not; a procedural table (wood, felt, cloth, paper, a speckled laminate, a print), sometimes a tray's rim
and clutter; sun and area light of any warmth, hard or soft shadows; a camera from straight above to 45
degrees. After Cycles, in OpenCV: white balance, defocus or motion blur, sensor noise, JPEG 40 to 95.
The label of each die is the face up, computed from its turned mesh's normals (die_faces.up_value).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
argv = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
parser = argparse.ArgumentParser(prog="photo_dice_scene.py")
parser.add_argument("out", type=Path)
parser.add_argument("--count", type=int, required=True)
parser.add_argument("--first", type=int, default=0, help="the first picture's number (a chunk of a larger set)")
parser.add_argument("--seed", type=int, required=True)
parser.add_argument("--site", action="append", default=[], help="where numpy, OpenCV and pygame are installed")
parser.add_argument("--samples", type=int, default=6)
parser.add_argument("--glyphs", type=Path, required=True, help="face_marks.write_glyphs's digits")
args = parser.parse_args(argv)
sys.path[:0] = [str(ROOT), str(ROOT / "calibration"), *args.site]

import bpy  # noqa: E402
import cv2  # noqa: E402
import numpy as np  # noqa: E402
from bpy_extras.object_utils import world_to_camera_view  # noqa: E402
from mathutils import Matrix, Vector  # noqa: E402

import die_faces  # noqa: E402
import face_marks  # noqa: E402
from assistant.vision.dice import ASTRO_BY_VALUE  # noqa: E402

GROUNDS = ("wood", "felt", "cloth", "paper", "laminate", "print")
POOL = 8  # dice of each kind in the scene, hidden when not used
SCALE = {"d6": 1.0, "d8": 1.25}  # a unit mesh's size (a d6's half side, a d8's centre-to-corner)
REACH = {"d6": math.sqrt(2), "d8": 0.82}  # a resting die's farthest point from its centre, across the table


# -- the scene's parts -------------------------------------------------------------------------------

def node(tree, kind: str, **inputs):
    """A new node of `kind` in `tree`: its inputs' values, or its settings (operation=...), as given."""
    n = tree.nodes.new(kind)
    for name, value in inputs.items():
        if name in n.inputs:
            n.inputs[name].default_value = value
        else:
            setattr(n, name, value)
    return n


def link(tree, a, out, b, inp) -> None:
    tree.links.new(a.outputs[out], b.inputs[inp])


def die_material(name: str, image) -> bpy.types.Material:
    """A die's material: marbled body colour, face marks from `image` (printed ink or engraved), glitter;
    its knobs are named nodes ("A", "B", "C" colours, "marble", "ink", "inked", "engrave", "glitter", ...)."""
    m = bpy.data.materials.new(name)
    m.use_nodes = True
    t = m.node_tree
    t.nodes.clear()
    out = node(t, "ShaderNodeOutputMaterial")
    bsdf = node(t, "ShaderNodeBsdfPrincipled")
    link(t, bsdf, "BSDF", out, "Surface")
    coords = node(t, "ShaderNodeTexCoord")
    mapping = node(t, "ShaderNodeMapping")
    mapping.name = "map"
    link(t, coords, "Object", mapping, "Vector")
    wave = node(t, "ShaderNodeTexWave", Scale=1.5, Distortion=6.0, Detail=3.0)
    wave.name = "wave"
    link(t, mapping, "Vector", wave, "Vector")
    noise = node(t, "ShaderNodeTexNoise", Scale=2.0, Detail=4.0)
    noise.name = "noise"
    link(t, mapping, "Vector", noise, "Vector")
    bands = node(t, "ShaderNodeMapRange")  # the wave's bands, sharpened: 0 body A, 1 colour B
    bands.name = "bands"
    link(t, noise, "Fac", bands, "Value")
    marble = node(t, "ShaderNodeMath", operation="MULTIPLY")
    marble.name = "marble"
    link(t, bands, "Result", marble, 0)
    ab = node(t, "ShaderNodeMixRGB")
    ab.name = "AB"
    link(t, marble, "Value", ab, "Fac")
    third = node(t, "ShaderNodeMapRange")
    third.name = "third"
    link(t, wave, "Fac", third, "Value")
    abc = node(t, "ShaderNodeMixRGB")
    abc.name = "ABC"
    link(t, ab, "Color", abc, "Color1")
    link(t, third, "Result", abc, "Fac")
    uv = node(t, "ShaderNodeTexCoord")
    tex = node(t, "ShaderNodeTexImage")
    tex.image = image
    tex.interpolation = "Linear"
    link(t, uv, "UV", tex, "Vector")
    inked = node(t, "ShaderNodeMath", operation="MULTIPLY")
    inked.name = "inked"
    link(t, tex, "Color", inked, 0)
    ink = node(t, "ShaderNodeMixRGB")
    ink.name = "ink"
    link(t, abc, "Color", ink, "Color1")
    link(t, inked, "Value", ink, "Fac")
    # glitter: small Voronoi cells, a few of them bright flakes
    flakes = node(t, "ShaderNodeTexVoronoi", Scale=60.0)
    flakes.name = "flakes"
    link(t, coords, "Object", flakes, "Vector")
    pick = node(t, "ShaderNodeSeparateColor")
    link(t, flakes, "Color", pick, "Color")
    sparkle = node(t, "ShaderNodeMath", operation="GREATER_THAN")
    sparkle.name = "sparkle"
    link(t, pick, "Red", sparkle, 0)
    glitter = node(t, "ShaderNodeMath", operation="MULTIPLY")
    glitter.name = "glitter"
    link(t, sparkle, "Value", glitter, 0)
    # metallic: the body's, more in the marble's bands (copper or steel veins), none under the ink
    band_metal = node(t, "ShaderNodeMath", operation="MULTIPLY_ADD")
    band_metal.name = "band_metal"
    link(t, marble, "Value", band_metal, 0)
    metal = node(t, "ShaderNodeMath", operation="MAXIMUM", use_clamp=True)
    link(t, band_metal, "Value", metal, 0)
    link(t, glitter, "Value", metal, 1)
    no_ink = node(t, "ShaderNodeMath", operation="SUBTRACT", use_clamp=True)
    no_ink.inputs[0].default_value = 1.0
    link(t, inked, "Value", no_ink, 1)
    metal_out = node(t, "ShaderNodeMath", operation="MULTIPLY")
    link(t, metal, "Value", metal_out, 0)
    link(t, no_ink, "Value", metal_out, 1)
    link(t, metal_out, "Value", bsdf, "Metallic")
    colour = node(t, "ShaderNodeMixRGB")  # flakes catch light: a paler colour
    colour.name = "flake_colour"
    link(t, ink, "Color", colour, "Color1")
    link(t, glitter, "Value", colour, "Fac")
    link(t, colour, "Color", bsdf, "Base Color")
    clear = node(t, "ShaderNodeMath", operation="MULTIPLY")  # translucent body, opaque ink
    clear.name = "clear"
    link(t, no_ink, "Value", clear, 0)
    link(t, clear, "Value", bsdf, "Transmission")
    rough = node(t, "ShaderNodeMath", operation="MULTIPLY_ADD")  # less rough on flakes
    rough.name = "rough"
    link(t, glitter, "Value", rough, 0)
    link(t, rough, "Value", bsdf, "Roughness")
    bump = node(t, "ShaderNodeBump", Distance=0.05)
    bump.name = "engrave"
    bump.invert = True
    link(t, tex, "Color", bump, "Height")
    link(t, bump, "Normal", bsdf, "Normal")
    bsdf.name = "bsdf"
    return m


def die_mesh(kind: str, index: int) -> bpy.types.Object:
    """A unit `kind` die (die_faces.MESHES), each face UV-mapped to its cell of a face_marks atlas, bevelled."""
    vertices, faces = die_faces.MESHES[kind]
    mesh = bpy.data.meshes.new(f"{kind}-{index}")
    mesh.from_pydata([tuple(v) for v in vertices], [], [tuple(f) for f in faces])
    uv = mesh.uv_layers.new(name="UV")
    for p in mesh.polygons:
        corners = face_marks.cell_uv(kind, p.index, p.loop_total)
        # d8: put the triangle's apex at a random corner of the face, so numerals point any way on the die
        turn = (index + p.index) % p.loop_total
        for k, loop in enumerate(range(p.loop_start, p.loop_start + p.loop_total)):
            uv.data[loop].uv = corners[(k + turn) % p.loop_total]
    obj = bpy.data.objects.new(f"{kind}-{index}", mesh)
    bpy.context.scene.collection.objects.link(obj)
    bevel = obj.modifiers.new("bevel", "BEVEL")
    bevel.width, bevel.segments, bevel.limit_method = 0.12, 3, "NONE"
    bevel.harden_normals = True
    for p in mesh.polygons:
        p.use_smooth = True
    mesh.use_auto_smooth = True
    columns, rows = face_marks.GRID[kind]
    image = bpy.data.images.new(f"{kind}-{index}-faces", columns * face_marks.CELL, rows * face_marks.CELL)
    image.colorspace_settings.name = "Non-Color"
    obj.data.materials.append(die_material(f"{kind}-{index}", image))
    obj["image"] = image.name
    return obj


PATTERN = {"wood": "ShaderNodeTexWave", "felt": "ShaderNodeTexNoise", "cloth": "ShaderNodeTexChecker",
           "paper": "ShaderNodeTexNoise", "laminate": "ShaderNodeTexVoronoi", "print": "ShaderNodeTexMagic"}


def ground_material(kind: str) -> bpy.types.Material:
    """A table of `kind` (PATTERN): one cheap texture ("pattern") between two colours ("mix")."""
    m = bpy.data.materials.new("ground-" + kind)
    m.use_nodes = True
    t = m.node_tree
    t.nodes.clear()
    out = node(t, "ShaderNodeOutputMaterial")
    bsdf = node(t, "ShaderNodeBsdfPrincipled")
    bsdf.name = "bsdf"
    link(t, bsdf, "BSDF", out, "Surface")
    coords = node(t, "ShaderNodeTexCoord")
    mapping = node(t, "ShaderNodeMapping")
    mapping.name = "map"
    link(t, coords, "Object", mapping, "Vector")
    pattern = node(t, PATTERN[kind])
    pattern.name = "pattern"
    if "Detail" in pattern.inputs:
        pattern.inputs["Detail"].default_value = 2.0
    link(t, mapping, "Vector", pattern, "Vector")
    ramp = node(t, "ShaderNodeMapRange")
    ramp.name = "ramp"
    link(t, pattern, "Distance" if kind == "laminate" else "Fac", ramp, "Value")
    mix = node(t, "ShaderNodeMixRGB")
    mix.name = "mix"
    link(t, ramp, "Result", mix, "Fac")
    link(t, mix, "Color", bsdf, "Base Color")
    return m


def plain_material(name: str) -> bpy.types.Material:
    m = bpy.data.materials.new(name)
    m.use_nodes = True
    m.node_tree.nodes["Principled BSDF"].name = "bsdf"
    return m


def box(name: str, material: bpy.types.Material) -> bpy.types.Object:
    mesh = bpy.data.meshes.new(name)
    mesh.from_pydata([tuple(v) for v in die_faces.D6_VERTICES], [], [tuple(f) for f in die_faces.D6_FACES])
    obj = bpy.data.objects.new(name, mesh)
    bpy.context.scene.collection.objects.link(obj)
    obj.data.materials.append(material)
    return obj


def build() -> dict:
    for obj in list(bpy.data.objects):
        bpy.data.objects.remove(obj)
    scene = bpy.context.scene
    scene.render.engine = "CYCLES"
    c = scene.cycles
    c.device, c.samples, c.use_denoising = "CPU", args.samples, False
    c.use_adaptive_sampling, c.adaptive_threshold = True, 0.05
    c.max_bounces, c.diffuse_bounces, c.glossy_bounces, c.transmission_bounces = 6, 1, 2, 4
    c.transparent_max_bounces, c.volume_bounces, c.caustics_reflective, c.caustics_refractive = 2, 0, False, False
    c.sample_clamp_direct, c.sample_clamp_indirect = 8.0, 3.0  # no fireflies at a few samples
    scene.render.threads_mode, scene.render.threads = "FIXED", 1
    scene.render.image_settings.file_format = "PNG"
    scene.view_settings.view_transform = "Filmic"
    world = bpy.data.worlds.new("world")
    world.use_nodes = True
    scene.world = world
    ground = box("ground", ground_material("wood"))
    for kind in GROUNDS[1:]:
        ground.data.materials.append(ground_material(kind))
    ground.scale = (60, 60, 1)
    ground.location = (0, 0, -1)
    rim_material, clutter_material = plain_material("rim"), plain_material("clutter")
    rims = [box(f"rim-{i}", rim_material) for i in range(4)]
    clutter = [box(f"clutter-{i}", clutter_material) for i in range(4)]
    sun = bpy.data.objects.new("sun", bpy.data.lights.new("sun", "SUN"))
    area = bpy.data.objects.new("area", bpy.data.lights.new("area", "AREA"))
    camera = bpy.data.objects.new("camera", bpy.data.cameras.new("camera"))
    for obj in (sun, area, camera):
        scene.collection.objects.link(obj)
    scene.camera = camera
    dice = {kind: [die_mesh(kind, i) for i in range(POOL)] for kind in ("d6", "d8")}
    return {"scene": scene, "world": world, "ground": ground, "rims": rims, "clutter": clutter, "sun": sun,
            "area": area, "camera": camera, "dice": dice}


# -- each picture's look -----------------------------------------------------------------------------

def hsv(h: float, s: float, v: float) -> tuple[float, float, float, float]:
    """A linear RGBA colour from hue, saturation, value in 0..1 (as sRGB gives them: each channel to the 2.2)."""
    import colorsys
    r, g, b = colorsys.hsv_to_rgb(h % 1, s, v)
    return (r ** 2.2, g ** 2.2, b ** 2.2, 1.0)


def any_colour(rng: np.random.Generator) -> tuple[float, float, float, float]:
    if rng.random() < 0.35:  # white, ivory, grey, black
        return hsv(rng.uniform(0.05, 0.15), rng.uniform(0, 0.15), rng.choice([rng.uniform(0.05, 0.25),
                                                                                 rng.uniform(0.6, 0.95)]))
    return hsv(rng.random(), rng.uniform(0.35, 1.0), rng.uniform(0.2, 0.95))


def lightness(colour) -> float:
    r, g, b = colour[:3]
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def ink_for(rng: np.random.Generator, body) -> tuple[float, float, float, float]:
    """An ink that stands out from the body: white, black, gold, or a colour far in lightness."""
    light = lightness(body)
    for _ in range(20):
        roll = rng.random()
        ink = hsv(0.12, 0.7, 0.85) if roll < 0.12 else hsv(0, 0, 0.9) if roll < 0.5 else hsv(0, 0, 0.06) \
            if roll < 0.8 else any_colour(rng)
        if abs(math.sqrt(lightness(ink)) - math.sqrt(light)) > 0.35:
            return ink
    return hsv(0, 0, 0.05) if light > 0.2 else hsv(0, 0, 0.92)


def set_die(obj, rng: np.random.Generator, look: dict) -> None:
    """Knobs of a die's material and mesh from its `look` (shared by the dice of a set)."""
    t = obj.active_material.node_tree.nodes
    body = look["body"]
    t["AB"].inputs["Color1"].default_value = body
    t["AB"].inputs["Color2"].default_value = look["vein"]
    t["ABC"].inputs["Color2"].default_value = look["third"]
    marbled = look["material"] in ("marbled", "metal-marbled")
    t["marble"].inputs[1].default_value = 1.0 if marbled else 0.0
    t["noise"].inputs["Scale"].default_value = look["wave_scale"]
    t["noise"].inputs["Distortion"].default_value = look["distortion"]
    t["bands"].inputs["From Min"].default_value = look["band_lo"]
    t["bands"].inputs["From Max"].default_value = look["band_lo"] + look["band_width"]
    t["third"].inputs["From Min"].default_value = 0.55 if marbled and look["three"] else 2.0
    t["third"].inputs["From Max"].default_value = 0.65 if marbled and look["three"] else 3.0
    t["map"].inputs["Location"].default_value = tuple(rng.uniform(-20, 20, 3))
    t["map"].inputs["Rotation"].default_value = tuple(rng.uniform(0, 6.3, 3))
    t["ink"].inputs["Color2"].default_value = look["ink"]
    t["inked"].inputs[1].default_value = look["inked"]
    t["engrave"].inputs["Strength"].default_value = look["engrave"]
    glitter = look["material"] == "glitter"
    t["sparkle"].inputs[1].default_value = look["flake_share"] if glitter else 2.0
    t["glitter"].inputs[1].default_value = 1.0
    t["flakes"].inputs["Scale"].default_value = look["flake_scale"]
    t["flake_colour"].inputs["Color2"].default_value = tuple(min(1.0, v * 1.6 + 0.15) for v in body[:3]) + (1.0,)
    t["band_metal"].inputs[1].default_value = 1.0 if look["material"] == "metal-marbled" else 0.0
    t["band_metal"].inputs[2].default_value = 1.0 if look["material"] == "metal" else 0.0
    t["clear"].inputs[1].default_value = look["transmission"]
    t["rough"].inputs[1].default_value = -look["roughness"] * 0.7
    t["rough"].inputs[2].default_value = look["roughness"]
    bsdf = t["bsdf"]
    bsdf.inputs["Specular"].default_value = look["specular"]
    bsdf.inputs["IOR"].default_value = 1.5
    bsdf.inputs["Clearcoat"].default_value = look["clearcoat"]
    obj.modifiers["bevel"].width = look["bevel"]


def die_look(rng: np.random.Generator, kind: str) -> dict:
    """A die's look: its face marks' style and its material (see set_die)."""
    if kind == "d8":
        face_look = "astro" if rng.random() < 0.35 else "numerals"
    else:
        face_look = "pips" if rng.random() < 0.5 else "numerals"
    material = str(rng.choice(["solid", "solid", "marbled", "metal-marbled", "translucent", "metal", "glitter"],
                              p=[0.2, 0.1, 0.2, 0.15, 0.15, 0.08, 0.12]))
    body = any_colour(rng)
    if material == "metal-marbled":  # copper, bronze or steel veins in grey, smoke or a colour (d8-marbled-tiles)
        vein = hsv(rng.uniform(0.04, 0.1), rng.uniform(0.5, 0.8), rng.uniform(0.55, 0.85)) if rng.random() < 0.7 \
            else hsv(0, 0, rng.uniform(0.6, 0.85))
        body = hsv(rng.random(), rng.uniform(0, 0.3), rng.uniform(0.25, 0.7)) if rng.random() < 0.7 else body
    else:
        vein = any_colour(rng)
    translucent = material == "translucent" or material in ("marbled", "metal-marbled") and rng.random() < 0.5
    engraved = rng.random() < 0.6
    return {
        "face_style": face_marks.die_style(rng, kind, face_look), "material": material, "body": body,
        "vein": vein, "third": any_colour(rng), "three": bool(rng.random() < 0.4),
        "wave_scale": float(rng.uniform(0.4, 2.5)), "distortion": float(rng.uniform(1, 8)),
        "band_lo": float(rng.uniform(0.35, 0.6)), "band_width": float(rng.uniform(0.03, 0.25)),
        "ink": ink_for(rng, body), "inked": 1.0 if not engraved or rng.random() < 0.87 else 0.0,
        "engrave": float(rng.uniform(0.3, 1.0)) if engraved else 0.0,
        "flake_share": float(rng.uniform(0.85, 0.97)), "flake_scale": float(rng.uniform(25, 90)),
        "transmission": float(rng.uniform(0.5, 0.85)) if translucent else 0.0,
        "roughness": float(rng.uniform(0.05, 0.6)) if material != "metal" else float(rng.uniform(0.15, 0.45)),
        "specular": float(rng.uniform(0.3, 0.7)), "clearcoat": float(rng.uniform(0, 0.6) if rng.random() < 0.3 else 0),
        "bevel": float(rng.uniform(0.05, 0.22) if kind == "d6" else rng.uniform(0.02, 0.1)),
    }


def set_faces(obj, rng: np.random.Generator, kind: str, style: dict) -> None:
    mask = face_marks.atlas(rng, kind, style, die_faces.NUMERALS[kind])
    rgba = np.repeat(mask[::-1, :, None], 4, axis=2)
    rgba[..., 3] = 1.0
    bpy.data.images[obj["image"]].pixels.foreach_set(rgba.ravel())
    bpy.data.images[obj["image"]].update()


def set_ground(parts: dict, rng: np.random.Generator) -> None:
    kind = str(rng.choice(GROUNDS, p=[0.2, 0.18, 0.17, 0.12, 0.2, 0.13]))
    ground = parts["ground"]
    ground.data.polygons.foreach_set("material_index", [GROUNDS.index(kind)] * len(ground.data.polygons))
    ground.data.update()
    t = ground.data.materials[GROUNDS.index(kind)].node_tree.nodes
    pattern = t["pattern"]
    a = any_colour(rng)
    b = tuple(min(1.0, v * rng.uniform(0.5, 1.4)) for v in a[:3]) + (1.0,)
    lo, hi = 0.0, 1.0
    if kind == "wood":
        a = hsv(rng.uniform(0.04, 0.11), rng.uniform(0.4, 0.8), rng.uniform(0.25, 0.8))
        b = tuple(v * rng.uniform(0.4, 0.7) for v in a[:3]) + (1.0,)
        pattern.inputs["Scale"].default_value = rng.uniform(0.2, 0.8)
        pattern.inputs["Distortion"].default_value = rng.uniform(3, 12)
    elif kind == "felt":
        pattern.inputs["Scale"].default_value = rng.uniform(5, 40)
        lo, hi = 0.3, 0.7
    elif kind == "cloth":
        pattern.inputs["Scale"].default_value = rng.choice([rng.uniform(0.5, 3), rng.uniform(40, 120)])
    elif kind == "paper":
        a = hsv(rng.uniform(0.08, 0.15), rng.uniform(0, 0.12), rng.uniform(0.75, 0.95))
        b = tuple(v * 0.9 for v in a[:3]) + (1.0,)
        pattern.inputs["Scale"].default_value = rng.uniform(20, 80)
    elif kind == "laminate":  # the speckled grey tables of mixed-oblique-d6
        a = hsv(rng.uniform(0, 1), rng.uniform(0, 0.1), rng.uniform(0.45, 0.85))
        b = hsv(0, 0, rng.uniform(0.02, 0.2))
        pattern.inputs["Scale"].default_value = rng.uniform(20, 90)
        lo, hi = 0.12, 0.0  # the few points nearest a cell's seed: dark specks
    else:
        b = any_colour(rng)
        pattern.inputs["Scale"].default_value = rng.uniform(0.1, 0.6)
    t["ramp"].inputs["From Min"].default_value = lo
    t["ramp"].inputs["From Max"].default_value = hi
    t["mix"].inputs["Color1"].default_value = a
    t["mix"].inputs["Color2"].default_value = b
    t["map"].inputs["Location"].default_value = tuple(rng.uniform(-50, 50, 3))
    t["map"].inputs["Rotation"].default_value = (0, 0, rng.uniform(0, 6.3))
    t["bsdf"].inputs["Roughness"].default_value = rng.uniform(0.3, 1.0)
    t["bsdf"].inputs["Specular"].default_value = rng.uniform(0.1, 0.5)


def set_light(parts: dict, rng: np.random.Generator) -> None:
    warm = rng.uniform(-1, 1)  # from bluish daylight to warm lamp
    colour = (1.0, 1 - 0.15 * max(warm, 0) + 0.02 * min(warm, 0), 1 - 0.45 * max(warm, 0) - 0.1 * min(warm, 0))
    sun = parts["sun"]
    sun.data.color = colour
    sun.data.energy = rng.uniform(1.0, 4.0)
    sun.data.angle = math.radians(rng.choice([rng.uniform(0.5, 5), rng.uniform(10, 40)]))  # hard or soft shadows
    sun.rotation_euler = (math.radians(rng.uniform(0, 60)), 0, rng.uniform(0, 6.3))
    sun.hide_render = rng.random() < 0.2
    area = parts["area"]
    area.hide_render = not sun.hide_render and rng.random() < 0.5
    area.data.size = rng.uniform(2, 30)
    area.data.energy = rng.uniform(300, 3000)
    area.data.color = colour
    a, e = rng.uniform(0, 6.3), math.radians(rng.uniform(40, 90))
    area.location = (20 * math.cos(a) * math.cos(e), 20 * math.sin(a) * math.cos(e), 20 * math.sin(e))
    area.rotation_euler = Vector(area.location).to_track_quat("Z", "Y").to_euler()
    bg = parts["world"].node_tree.nodes["Background"]
    bg.inputs["Color"].default_value = hsv(rng.uniform(0.05, 0.65), rng.uniform(0, 0.2), 1.0)
    bg.inputs["Strength"].default_value = rng.uniform(0.1, 0.8) * (2.5 if sun.hide_render else 1.0)
    view = parts["scene"].view_settings
    view.view_transform = "Filmic" if rng.random() < 0.6 else "Standard"
    view.look = str(rng.choice(["Medium Contrast", "Medium High Contrast", "High Contrast",
                                "Very High Contrast"])) if view.view_transform == "Filmic" else "None"
    view.exposure = rng.uniform(-0.6, 0.8) if view.view_transform == "Filmic" else rng.uniform(-1.2, 0.2)


def place(rng: np.random.Generator, kinds: list[str], scales: list[float], spread: float) -> list[tuple[float, float]]:
    """Centres on the table for dice of `kinds` and `scales`, apart (some touching), within `spread` of 0."""
    out: list[tuple[float, float]] = []
    for kind, s in zip(kinds, scales):
        r = REACH[kind] * s
        for _ in range(60):
            if out and rng.random() < 0.3:  # touching a die before
                j = int(rng.integers(len(out)))
                gap = (r + REACH[kinds[j]] * scales[j]) * rng.uniform(0.92, 1.0)
                a = rng.uniform(0, 2 * math.pi)
                p = (out[j][0] + gap * math.cos(a), out[j][1] + gap * math.sin(a))
            else:  # in a disc: a turned camera's frame holds it
                a, d = rng.uniform(0, 2 * math.pi), spread * math.sqrt(rng.random())
                p = (d * math.cos(a), d * math.sin(a))
            if all(math.dist(p, q) >= (r + REACH[kinds[k]] * scales[k]) * 0.92 for k, q in enumerate(out)):
                out.append(p)  # type: ignore[arg-type]
                break
    return out


def project(camera, obj, size: tuple[int, int]) -> tuple[float, float, float, float]:
    """The box of `obj`'s vertices in the picture's pixels (x, y, w, h; y down)."""
    scene = bpy.context.scene
    points = [world_to_camera_view(scene, camera, obj.matrix_world @ v.co) for v in obj.data.vertices]
    xs = [p.x * size[0] for p in points]
    ys = [(1 - p.y) * size[1] for p in points]
    return min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)


def picture(parts: dict, rng: np.random.Generator) -> tuple[list[dict], tuple[int, int]]:
    """Set up one picture's scene; its dice's labels (boxes in pixels) and the frame's size."""
    scene, camera = parts["scene"], parts["camera"]
    width = int(rng.choice([320, 352, 384]))
    height = int(round(width * rng.choice([0.75, 1.0, 0.75, 1.333]) / 8) * 8)
    if height > 384:
        width, height = int(round(width * 384 / height / 8) * 8), 384
    # rendered smaller (a soft camera's detail, at a third to half of the cost) and enlarged after
    scene.render.resolution_x, scene.render.resolution_y = width, height
    scene.render.resolution_percentage = int(rng.integers(55, 81))
    count = int(rng.choice(range(1, 9), p=[0.04, 0.06, 0.1, 0.12, 0.14, 0.16, 0.18, 0.2]))
    kinds = sorted("d8" if rng.random() < 2 / 3 else "d6" for _ in range(count))  # d6 placed first: larger
    sets = {k: die_look(rng, k) for k in ("d6", "d8")} if rng.random() < 0.5 else None  # all alike, or each its own
    scales = [SCALE[k] * rng.uniform(0.9, 1.1) for k in kinds]
    # camera: the dice `pixels` across in a frame `width` wide, from straight above to 45 degrees
    lens = rng.uniform(24, 70)
    camera.data.lens, camera.data.sensor_width = lens, 36
    pixels = 30 + 70 * rng.beta(1.5, 2.5)  # 30 to 100 px across, most near 55
    focal = width * lens / 36
    distance = focal * 2.4 / pixels
    elevation = math.radians(rng.choice([90, rng.uniform(45, 90)]) if rng.random() < 0.3 else rng.uniform(45, 90))
    azimuth = rng.uniform(0, 2 * math.pi)
    half = distance * 0.5 * min(width, height) / focal  # the table's half width in view, near the middle
    spots = place(rng, kinds, scales, half * 0.8 - 1.0)
    kinds, scales = kinds[:len(spots)], scales[:len(spots)]
    aim = Vector((rng.normal(0, half * 0.1), rng.normal(0, half * 0.1), 0))
    camera.location = aim + distance * Vector((math.cos(azimuth) * math.cos(elevation),
                                               math.sin(azimuth) * math.cos(elevation), math.sin(elevation)))
    camera.rotation_euler = (camera.location - aim).to_track_quat("Z", "Y").to_euler()
    camera.rotation_euler.rotate_axis("Z", rng.uniform(-0.3, 0.3) if rng.random() < 0.5 else rng.uniform(-3.1, 3.1))
    used = {"d6": 0, "d8": 0}
    for obj in parts["dice"]["d6"] + parts["dice"]["d8"]:
        obj.hide_render = True
    shown = []
    for kind, s, (x, y) in zip(kinds, scales, spots):
        obj = parts["dice"][kind][used[kind]]
        used[kind] += 1
        look = sets[kind] if sets else die_look(rng, kind)
        value = int(rng.integers(1, 9 if kind == "d8" else 7))
        turn = die_faces.lay(kind, value, rng.uniform(0, 2 * math.pi))
        obj.matrix_world = Matrix.Translation((x, y, die_faces.rest_height(kind) * s)) @ \
            Matrix([list(r) + [0] for r in turn] + [[0, 0, 0, 1]]) @ Matrix.Diagonal((s, s, s, 1))
        set_die(obj, rng, look)
        set_faces(obj, rng, kind, look["face_style"])
        obj.hide_render = False
        shown.append((obj, kind, look))
    set_ground(parts, rng)
    set_light(parts, rng)
    set_props(parts, rng, half, azimuth)
    bpy.context.view_layer.update()
    dice = []
    for obj, kind, look in shown:
        rotation = np.array(obj.matrix_world.to_3x3().normalized())
        value = die_faces.up_value(kind, rotation)  # the face up, from the turned mesh's normals
        x, y, w, h = project(camera, obj, (width, height))
        if x < 1 or y < 1 or x + w > width - 1 or y + h > height - 1:
            obj.hide_render = True  # partly out of view: not in the picture, not labelled
            continue
        die = {"kind": kind, "value": value, "box": [round(x), round(y), round(w), round(h)]}
        if look["face_style"]["look"] == "astro" and ASTRO_BY_VALUE[value]:
            die["symbol"] = ASTRO_BY_VALUE[value]
        dice.append(die)
    return dice, (width, height)


def set_props(parts: dict, rng: np.random.Generator, half: float, azimuth: float) -> None:
    """A tray's rim round the dice (a quarter of the pictures) and clutter beside them (a third), on the dice's
    far side from the camera at `azimuth` (so that it hides none)."""
    tray = rng.random() < 0.25
    edge = half * rng.uniform(0.9, 1.6)
    rim = parts["rims"][0].active_material.node_tree.nodes["bsdf"]
    rim.inputs["Base Color"].default_value = any_colour(rng)
    rim.inputs["Roughness"].default_value = rng.uniform(0.2, 0.9)
    for i, obj in enumerate(parts["rims"]):
        obj.hide_render = not tray
        along, across = (edge + 0.5, 0.5) if i % 2 == 0 else (0.5, edge + 0.5)
        obj.scale = (along, across, rng.uniform(0.3, 1.0))
        sign = 1 if i < 2 else -1
        obj.location = (0, sign * edge, 0) if i % 2 == 0 else (sign * edge, 0, 0)
    clutter = parts["clutter"][0].active_material.node_tree.nodes["bsdf"]
    clutter.inputs["Base Color"].default_value = any_colour(rng)
    for obj in parts["clutter"]:
        obj.hide_render = rng.random() > 0.3
        a, r = azimuth + math.pi + rng.uniform(-1.0, 1.0), half * rng.uniform(1.1, 2.0)
        obj.scale = tuple(rng.uniform(0.5, 4, 2)) + (rng.uniform(0.05, 2),)
        obj.location = (r * math.cos(a), r * math.sin(a), obj.scale[2])
        obj.rotation_euler = (0, 0, rng.uniform(0, 6.3))


# -- after the render: what a camera does ------------------------------------------------------------

def photographed(rng: np.random.Generator, image: np.ndarray, die: float) -> np.ndarray:
    """White balance, defocus or motion blur, sensor noise (the JPEG comes after)."""
    img = image.astype(np.float32)
    img *= rng.uniform(0.88, 1.12, 3)  # white balance off
    blur = rng.random()
    if blur < 0.35:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.4, 0.6 + die / 60))
    elif blur < 0.5:
        length = int(rng.integers(3, max(4, int(die / 8))))
        kernel = np.zeros((length, length), np.float32)
        kernel[length // 2, :] = 1 / length
        turn = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), rng.uniform(0, 180), 1)
        kernel = cv2.warpAffine(kernel, turn, (length, length))
        img = cv2.filter2D(img, -1, kernel / max(kernel.sum(), 1e-6))
    sigma = rng.uniform(1, 7)
    img += rng.normal(0, sigma, img.shape[:2])[..., None] * rng.uniform(0.6, 1.0)
    img += rng.normal(0, sigma * rng.uniform(0.2, 0.6), img.shape)
    return np.clip(img, 0, 255).astype(np.uint8)


def main() -> int:
    images = args.out / "images"
    images.mkdir(parents=True, exist_ok=True)
    face_marks.load_glyphs(args.glyphs)
    parts = build()
    scratch = Path(tempfile.mkdtemp(prefix="photo-dice-"))
    start = time.time()
    dice_count = 0
    with open(args.out / "manifest.jsonl", "a", encoding="utf-8") as manifest:
        for i in range(args.first, args.first + args.count):
            rng = np.random.default_rng([args.seed, i])
            dice, size = picture(parts, rng)
            parts["scene"].cycles.seed = (args.seed * 100_003 + i) % 2**31
            parts["scene"].render.filepath = str(scratch / "frame.png")
            bpy.ops.render.render(write_still=True)
            frame = cv2.resize(cv2.imread(str(scratch / "frame.png"), cv2.IMREAD_COLOR), size,
                               interpolation=cv2.INTER_CUBIC if rng.random() < 0.5 else cv2.INTER_LINEAR)
            side = float(np.median([max(d["box"][2:]) for d in dice])) if dice else 60.0
            frame = photographed(rng, frame, side)
            name = f"images/{args.seed:03d}-{i:05d}.jpg"
            ok, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(40, 96))])
            (args.out / name).write_bytes(data.tobytes())
            manifest.write(json.dumps({"image": name, "dice": dice, "complete": True, "box": "whole_die"}) + "\n")
            manifest.flush()
            dice_count += len(dice)
            print(f"photo-dice {i + 1}/{args.first + args.count}: {len(dice)} dice, {dice_count / (time.time() - start):.2f} "
                  f"dice/s", flush=True)
    os.remove(scratch / "frame.png")
    scratch.rmdir()
    return 0


main()
