"""Refit the face reader's value head on a table's own labelled dice, in numpy (no torch).

The network's value head is a set of directions in embedding space, one per class. Given the
embeddings of a few labelled dice (a profile), `fit_head` moves those directions by gradient
descent on the cross-entropy of the labelled examples, pulled back towards the network's own
head so that a few photos shift the reading without forgetting what the network knew: the
classes the photos do not show keep (nearly) their old directions.

A few photos can also teach too little: dice whose faces the network cannot tell apart (a busy
marbled body) give embeddings that all look alike, and a head fitted on them picks one class for
all of them, surely. `trust` measures that on the profile itself: the examples are dealt into
folds, the head is fitted without each fold and reads it; for each class, the lesser of the share
of its calls on held-out examples that were right and the share of its own examples called so. The reader multiplies its confidence by it, so a
calibrated call that was not borne out on the table's own photos is withheld, not guessed.

`trust` cannot see one thing: faces the profile does not show. A head refitted on the threes and
eights of a d8 reads every d8 as one of them, and the held-out check passes. So a kind is refitted
only when the profile shows every one of its faces (`every_face`, `taught`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from assistant.vision.dice import FACES
from assistant.vision.facenet import unit

STEPS = 300
RATE = 0.5
PULL = 0.02  # how strongly the head is held to the network's own (per step, times the offset)


def fit_head(base: np.ndarray, examples: np.ndarray, classes: np.ndarray, scale: float,
             steps: int = STEPS, rate: float = RATE, pull: float = PULL) -> np.ndarray:
    """A value head (classes x D) fitted to unit `examples` (n x D) labelled `classes` (n,)."""
    if len(examples) == 0:
        return base
    e = unit(examples)
    target = np.zeros((len(e), base.shape[0]), np.float32)
    target[np.arange(len(e)), classes] = 1.0
    weights = base.astype(np.float64).copy()
    for _ in range(steps):
        z = scale * e @ weights.T
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        grad = scale * (p - target).T @ e / len(e) + pull * (weights - base)
        weights -= rate * grad
    return weights.astype(np.float32)


FOLDS = 5


def trust(base: np.ndarray, examples: np.ndarray, classes: np.ndarray, scale: float,
          folds: int = FOLDS, group: int = 1) -> np.ndarray:
    """Per class, with each example held out in turn (folds): the lesser of how often the class was
    right when named (precision) and how often its own examples were named so (recall). 1.0 for a
    class the profile does not show and that was never named: the network's own, untested here.
    `group`: the examples come in runs of that many views of one die, held out together."""
    n = len(examples)
    named = np.zeros(base.shape[0])
    right = np.zeros(base.shape[0])
    dice = n // group
    if dice < 2:
        return np.ones(base.shape[0], np.float32)
    e = unit(examples)
    fold = (np.arange(n) // group) % min(folds, dice)
    for f in np.unique(fold):
        held = fold == f
        head = fit_head(base, examples[~held], classes[~held], scale)
        guess = np.argmax(e[held] @ head.T, axis=1)
        np.add.at(named, guess, 1)
        np.add.at(right, guess, guess == classes[held])
    out = np.ones(base.shape[0], np.float32)
    seen = named > 0
    out[seen] = right[seen] / named[seen]  # precision: its calls that were right
    shown = np.bincount(classes, minlength=base.shape[0])
    taught = shown > 0
    out[taught] = np.minimum(out[taught], right[taught] / shown[taught])  # recall: its own dice read as it
    return out


def every_face(labels: Sequence[str], kind: str) -> bool:
    """Whether the labels ("d6:V" / "d8:V") show every face of a `kind` die: a head refitted on some
    faces only calls the others by their names too, and its held-out check (`trust`) cannot see
    that."""
    return {f"{kind}:{v}" for v in range(1, FACES[kind] + 1)} <= set(labels)


def missing_faces(labels: Sequence[str]) -> dict[str, list[int]]:
    """Per kind the labels show some faces of: the faces they do not show."""
    shown = set(labels)
    return {kind: [v for v in range(1, n + 1) if f"{kind}:{v}" not in shown]
            for kind, n in FACES.items()
            if any(label.startswith(kind + ":") for label in shown) and not every_face(labels, kind)}


def taught(examples: np.ndarray, labels: list[str]) -> tuple[np.ndarray, list[str]]:
    """The examples of the kinds whose every face the labels show (and "none")."""
    kinds = {kind for kind in FACES if every_face(labels, kind)}
    keep = [i for i, label in enumerate(labels) if label == "none" or label.split(":")[0] in kinds]
    return examples[keep], [labels[i] for i in keep]
