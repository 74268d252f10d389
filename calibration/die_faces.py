"""The faces of a d6 and a d8 as meshes (numpy only): their numerals, the turn that lays a face up, and the face up.

Shared by calibration/photo_dice_scene.py (inside Blender) and its tests. A mesh is vertices (a unit die: a
d6's corners at +-1, a d8's at +-1 on each axis) and faces (vertex indices, counter-clockwise seen from
outside); `NUMERALS[kind][i]` is the numeral printed on face i, opposite faces summing to 7 (d6) or 9 (d8).
"""

from __future__ import annotations

import numpy as np

D6_VERTICES = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], float)
D6_FACES = (  # +x, -x, +y, -y, +z, -z
    (4, 6, 7, 5), (0, 1, 3, 2), (2, 3, 7, 6), (0, 4, 5, 1), (1, 5, 7, 3), (0, 2, 6, 4),
)
D8_VERTICES = np.array([[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]], float)


def _d8_faces() -> tuple[tuple[int, int, int], ...]:
    faces = []
    for sx in (1, -1):
        for sy in (1, -1):
            for sz in (1, -1):
                tri = [0 if sx > 0 else 1, 2 if sy > 0 else 3, 4 if sz > 0 else 5]
                if sx * sy * sz < 0:  # keep every face counter-clockwise seen from outside
                    tri[1], tri[2] = tri[2], tri[1]
                faces.append(tuple(tri))
    return tuple(faces)  # type: ignore[return-value]


D8_FACES = _d8_faces()
MESHES = {"d6": (D6_VERTICES, D6_FACES), "d8": (D8_VERTICES, D8_FACES)}


def normals(kind: str) -> np.ndarray:
    """The outward unit normal of each face of a `kind` die, unturned."""
    vertices, faces = MESHES[kind]
    out = []
    for face in faces:
        a, b, c = (vertices[i] for i in face[:3])
        n = np.cross(b - a, c - a)
        out.append(n / np.linalg.norm(n))
    return np.array(out)


def _numerals(kind: str) -> tuple[int, ...]:
    """Numerals for the faces in order: the first of each opposite pair gets the next low value."""
    n = normals(kind)
    top = {"d6": 7, "d8": 9}[kind]
    values = [0] * len(n)
    low = 1
    for i in range(len(n)):
        if values[i]:
            continue
        j = int(np.argmin(n @ n[i]))  # the opposite face
        values[i], values[j] = low, top - low
        low += 1
    return tuple(values)


NUMERALS = {kind: _numerals(kind) for kind in MESHES}


def up_face(kind: str, rotation: np.ndarray) -> int:
    """The index of the face of a `kind` die turned by `rotation` (3 x 3) whose normal points most nearly up (+Z)."""
    return int(np.argmax((normals(kind) @ np.asarray(rotation, float).T)[:, 2]))


def up_value(kind: str, rotation: np.ndarray) -> int:
    """The numeral on the face up of a `kind` die turned by `rotation`."""
    return NUMERALS[kind][up_face(kind, rotation)]


def _turn_between(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The rotation taking unit vector `a` onto unit vector `b` (Rodrigues)."""
    v = np.cross(a, b)
    c = float(a @ b)
    if c < -1 + 1e-9:  # opposite: half a turn about any axis square to a
        axis = np.cross(a, [1.0, 0, 0] if abs(a[0]) < 0.9 else [0, 1.0, 0])
        axis /= np.linalg.norm(axis)
        return 2 * np.outer(axis, axis) - np.eye(3)
    k = np.array([[0, -v[2], v[1]], [v[2], 0, -v[0]], [-v[1], v[0], 0]])
    return np.eye(3) + k + k @ k / (1 + c)


def spin(angle: float) -> np.ndarray:
    """A turn of `angle` radians about +Z."""
    c, s = np.cos(angle), np.sin(angle)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1.0]])


def lay(kind: str, value: int, angle: float) -> np.ndarray:
    """The rotation that lays a `kind` die with `value` up (that face level, facing +Z), spun `angle` about +Z."""
    face = NUMERALS[kind].index(value)
    return spin(angle) @ _turn_between(normals(kind)[face], np.array([0, 0, 1.0]))


def rest_height(kind: str) -> float:
    """How far a unit die's centre lies above the table when it rests on a face."""
    return 1.0 if kind == "d6" else 1 / np.sqrt(3)
