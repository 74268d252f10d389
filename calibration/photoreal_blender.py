"""Blender's half of `photoreal.py`: builds each scene of a spec file, renders it with Cycles and
writes what the camera sees of every die (its top face's centre and box, its whole box, how much
of its top face is in sight).

Run by `photoreal.py` as `blender -b --factory-startup -P calibration/photoreal_blender.py -- SPEC`;
it runs in Blender's own Python (no numpy there), so every random choice is made in the spec.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import bmesh  # type: ignore[import-not-found]
import bpy  # type: ignore[import-not-found]
from bpy_extras.object_utils import world_to_camera_view  # type: ignore[import-not-found]
from mathutils import Matrix, Vector  # type: ignore[import-not-found]

CUBE = [  # (normal, u, v) of the six faces, u x v = normal: a face's picture is seen unmirrored
    ((0, 0, 1), (1, 0, 0), (0, 1, 0)), ((0, 0, -1), (1, 0, 0), (0, -1, 0)),
    ((1, 0, 0), (0, 1, 0), (0, 0, 1)), ((-1, 0, 0), (0, -1, 0), (0, 0, 1)),
    ((0, 1, 0), (-1, 0, 0), (0, 0, 1)), ((0, -1, 0), (1, 0, 0), (0, 0, 1)),
]
OCTA = [(sx, sy, sz) for sx in (1, -1) for sy in (1, -1) for sz in (1, -1)]


def material(name: str, image: str, roughness: float, bump: float, clearcoat: float) -> bpy.types.Material:
    """A plastic printed with `image` (its dark or light marks pressed in by `bump`)."""
    mat = bpy.data.materials.new(name)
    mat.use_nodes = True
    nodes, links = mat.node_tree.nodes, mat.node_tree.links
    bsdf = nodes["Principled BSDF"]
    tex = nodes.new("ShaderNodeTexImage")
    tex.image = bpy.data.images.load(image)
    tex.interpolation = "Cubic"
    links.new(tex.outputs["Color"], bsdf.inputs["Base Color"])
    bsdf.inputs["Roughness"].default_value = roughness
    bsdf.inputs["Clearcoat"].default_value = clearcoat
    if bump > 0:
        grey = nodes.new("ShaderNodeRGBToBW")
        relief = nodes.new("ShaderNodeBump")
        relief.inputs["Strength"].default_value = bump
        relief.inputs["Distance"].default_value = 0.0005
        links.new(tex.outputs["Color"], grey.inputs["Color"])
        links.new(grey.outputs["Val"], relief.inputs["Height"])
        links.new(relief.outputs["Normal"], bsdf.inputs["Normal"])
    return mat


def cube_mesh(name: str, cells: dict[str, list[float]]) -> bpy.types.Mesh:
    """A unit cube whose face of normal n shows the atlas cell cells[str(n)] ([u0, v0, u1, v1])."""
    bm = bmesh.new()
    uv = bm.loops.layers.uv.new()
    for n, u, v in CUBE:
        corners = [(-1, -1), (1, -1), (1, 1), (-1, 1)]
        verts = [bm.verts.new([0.5 * (n[i] + a * u[i] + b * v[i]) for i in range(3)]) for a, b in corners]
        face = bm.faces.new(verts)
        u0, v0, u1, v1 = cells[str(list(n))]
        for loop, (a, b) in zip(face.loops, corners):
            loop[uv].uv = (u0 + (a + 1) / 2 * (u1 - u0), v0 + (b + 1) / 2 * (v1 - v0))
    bmesh.ops.remove_doubles(bm, verts=bm.verts, dist=1e-6)
    mesh = bpy.data.meshes.new(name)
    bm.to_mesh(mesh)
    bm.free()
    return mesh


def octa_mesh(name: str, cells: dict[str, list[float]]) -> bpy.types.Mesh:
    """A unit octahedron (vertices at distance 1) whose face of sign s shows the triangle of atlas
    cell cells[str(s)] ([u0, v0, u1, v1]; the triangle's apex at the cell's top middle)."""
    bm = bmesh.new()
    uv = bm.loops.layers.uv.new()
    for s in OCTA:
        pts = [Vector((s[0], 0, 0)), Vector((0, s[1], 0)), Vector((0, 0, s[2]))]
        normal = Vector(s)
        if (pts[1] - pts[0]).cross(pts[2] - pts[0]).dot(normal) < 0:
            pts = [pts[0], pts[2], pts[1]]
        face = bm.faces.new([bm.verts.new(p) for p in pts])
        u0, v0, u1, v1 = cells[str(list(s))]
        h = 0.866
        tri = [(0.5, 1.0), (0.0, 1.0 - h), (1.0, 1.0 - h)]  # apex, lower left, lower right (counter-clockwise)
        for loop, (a, b) in zip(face.loops, tri):
            loop[uv].uv = (u0 + a * (u1 - u0), v0 + b * (v1 - v0))
    bmesh.ops.remove_doubles(bm, verts=bm.verts, dist=1e-6)
    mesh = bpy.data.meshes.new(name)
    bm.to_mesh(mesh)
    bm.free()
    return mesh


def die(spec: dict, folder: Path) -> bpy.types.Object:
    cells = spec["cells"]
    mesh = cube_mesh(spec["name"], cells) if spec["kind"] == "d6" else octa_mesh(spec["name"], cells)
    obj = bpy.data.objects.new(spec["name"], mesh)
    bpy.context.scene.collection.objects.link(obj)
    obj.matrix_world = Matrix(spec["matrix"])
    bevel = obj.modifiers.new("round", "BEVEL")
    bevel.width = spec["bevel"]
    bevel.segments = 3 if spec["kind"] == "d6" else 2
    bevel.limit_method = "NONE"
    bevel.harden_normals = False
    obj.data.materials.append(material(spec["name"], str(folder / spec["atlas"]), spec["roughness"],
                                       spec["bump"], spec["clearcoat"]))
    for poly in obj.data.polygons:
        poly.use_smooth = True
    return obj


def table(spec: dict, folder: Path) -> None:
    bpy.ops.mesh.primitive_plane_add(size=spec["size"])
    plane = bpy.context.active_object
    plane.name = "table"
    mat = bpy.data.materials.new("table")
    mat.use_nodes = True
    nodes, links = mat.node_tree.nodes, mat.node_tree.links
    bsdf = nodes["Principled BSDF"]
    tex = nodes.new("ShaderNodeTexImage")
    tex.image = bpy.data.images.load(str(folder / spec["texture"]))
    mapping = nodes.new("ShaderNodeMapping")
    coords = nodes.new("ShaderNodeTexCoord")
    mapping.inputs["Scale"].default_value = (spec["repeat"], spec["repeat"], 1)
    links.new(coords.outputs["UV"], mapping.inputs["Vector"])
    links.new(mapping.outputs["Vector"], tex.inputs["Vector"])
    links.new(tex.outputs["Color"], bsdf.inputs["Base Color"])
    bsdf.inputs["Roughness"].default_value = spec["roughness"]
    bsdf.inputs["Specular"].default_value = spec["specular"]
    plane.data.materials.append(mat)


def lights(spec: dict) -> None:
    world = bpy.data.worlds.new("world")
    bpy.context.scene.world = world
    world.use_nodes = True
    background = world.node_tree.nodes["Background"]
    background.inputs["Color"].default_value = (*spec["ambient"], 1.0)
    background.inputs["Strength"].default_value = spec["ambient_strength"]
    for k, lamp in enumerate(spec["lamps"]):
        data = bpy.data.lights.new(f"lamp{k}", lamp["type"])
        data.energy = lamp["energy"]
        data.color = lamp["colour"]
        if lamp["type"] == "AREA":
            data.size = lamp["size"]
        elif lamp["type"] == "SUN":
            data.angle = lamp["angle"]
        else:
            data.shadow_soft_size = lamp["size"]
        obj = bpy.data.objects.new(f"lamp{k}", data)
        bpy.context.scene.collection.objects.link(obj)
        obj.location = lamp["location"]
        obj.rotation_euler = (Vector(lamp["aim"]) - obj.location).to_track_quat("-Z", "Y").to_euler()


def camera(spec: dict, width: int, height: int) -> bpy.types.Object:
    data = bpy.data.cameras.new("camera")
    data.lens = spec["lens"]
    data.sensor_fit = "HORIZONTAL"
    data.sensor_width = 36.0
    data.clip_start = 0.01
    cam = bpy.data.objects.new("camera", data)
    bpy.context.scene.collection.objects.link(cam)
    cam.location = spec["location"]
    cam.rotation_euler = (Vector(spec["target"]) - cam.location).to_track_quat("-Z", "Y").to_euler()
    cam.rotation_euler.rotate_axis("Z", spec["roll"])
    scene = bpy.context.scene
    scene.camera = cam
    scene.render.resolution_x, scene.render.resolution_y = width, height
    return cam


def seen(scene, cam, obj, corners: list[Vector], centre: Vector, width: int, height: int) -> dict:
    """What the camera sees of one die: its top face's centre and box, its whole box (from the
    rounded mesh), and the share of its top face's points that no other thing hides."""
    depsgraph = bpy.context.evaluated_depsgraph_get()

    def pixel(p: Vector) -> tuple[float, float]:
        q = world_to_camera_view(scene, cam, p)
        return (q.x * width, (1 - q.y) * height)

    top = [pixel(p) for p in corners]
    evaluated = obj.evaluated_get(depsgraph)
    mesh = evaluated.to_mesh()
    points = [pixel(evaluated.matrix_world @ v.co) for v in mesh.vertices]
    evaluated.to_mesh_clear()
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    tx, ty = [p[0] for p in top], [p[1] for p in top]
    visible = 0
    probes = [centre.lerp(c, f) for c in corners for f in (0.0, 0.45, 0.8)]
    for p in probes:
        origin = cam.matrix_world.translation
        direction = (p - origin).normalized()
        hit, _loc, _n, _i, what, _m = scene.ray_cast(depsgraph, origin, direction, distance=(p - origin).length * 1.05)
        visible += bool(hit and what.name == obj.name)
    return {"centre": pixel(centre), "top": [min(tx), min(ty), max(tx) - min(tx), max(ty) - min(ty)],
            "whole": [min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)], "visible": visible / len(probes)}


def settle(spec: dict, objects: list) -> None:
    """Drops the dice (Bullet, through Blender's rigid bodies) and lets them come to rest."""
    scene = bpy.context.scene
    bpy.ops.rigidbody.world_add()
    world = scene.rigidbody_world
    world.substeps_per_frame = 40
    world.solver_iterations = 30
    frames = spec["frames"]
    scene.frame_start, scene.frame_end = 1, frames
    world.point_cache.frame_start, world.point_cache.frame_end = 1, frames
    table_obj = bpy.data.objects["table"]
    for obj, kind in [(table_obj, "PASSIVE")] + [(o, "ACTIVE") for o in objects]:
        bpy.context.view_layer.objects.active = obj
        obj.select_set(True)
        bpy.ops.rigidbody.object_add(type=kind)
        body = obj.rigid_body
        body.collision_shape = "BOX" if obj is table_obj else "CONVEX_HULL"
        body.use_margin = True
        body.collision_margin = 0.0002
        body.friction = 0.6
        body.restitution = 0.2
        body.mass = 0.005
        body.linear_damping = 0.3
        body.angular_damping = 0.3
        obj.select_set(False)
    for frame in range(1, frames + 1):
        scene.frame_set(frame)


def top_face(pose: Matrix, faces: list[dict]) -> tuple[dict, float]:
    """The face looking most nearly up in `pose`, and its tilt from the vertical in degrees."""
    turn = pose.to_3x3().normalized()
    best = max(faces, key=lambda f: (turn @ Vector(f["normal"])).normalized().z)
    up = max(-1.0, min(1.0, (turn @ Vector(best["normal"])).normalized().z))
    return best, math.degrees(math.acos(up))


def render(spec: dict, folder: Path) -> dict:
    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    scene.render.engine = "CYCLES"
    scene.cycles.device = "CPU"
    scene.cycles.samples = spec["samples"]
    scene.cycles.use_denoising = False
    scene.cycles.max_bounces = 3
    scene.cycles.use_adaptive_sampling = True
    scene.cycles.adaptive_threshold = 0.05
    scene.cycles.seed = spec["seed"]
    scene.render.threads_mode = "FIXED"
    scene.render.threads = spec["threads"]
    scene.view_settings.view_transform = "Standard"
    scene.view_settings.exposure = spec["exposure"]
    width, height = spec["width"], spec["height"]
    table(spec["table"], folder)
    lights(spec["light"])
    cam = camera(spec["camera"], width, height)
    objects = [die(d, folder) for d in spec["dice"]]
    bpy.context.view_layer.update()
    if spec["frames"]:
        settle(spec, objects)  # the render and the labels then see the last frame's poses
    scene.render.filepath = str(folder / spec["image"])
    scene.render.image_settings.file_format = "PNG"
    bpy.ops.render.render(write_still=True)
    dice = []
    depsgraph = bpy.context.evaluated_depsgraph_get()
    for d, obj in zip(spec["dice"], objects):
        m = obj.evaluated_get(depsgraph).matrix_world
        face, tilt = top_face(m, d["faces"])
        corners = [m @ Vector(c) for c in face["corners"]]
        centre = m @ Vector(face["centre"])
        dice.append({"kind": d["kind"], "value": face["value"], "tilt": tilt,
                     **seen(scene, cam, obj, corners, centre, width, height)})
    return {"image": spec["image"], "width": width, "height": height, "dice": dice}


def main() -> None:
    spec_file = Path(sys.argv[sys.argv.index("--") + 1])
    specs = json.loads(spec_file.read_text())
    folder = spec_file.parent
    out = spec_file.with_suffix(".seen.jsonl")
    with out.open("a") as f:
        for spec in specs:
            f.write(json.dumps(render(spec, folder)) + "\n")
            f.flush()


if __name__ == "__main__":
    main()
