"""Refit the face reader's value head on a table's own labelled dice, in numpy (no torch).

The network's value head is a set of directions in embedding space, one per class. Given the
embeddings of a few labelled dice (a profile), `fit_head` moves those directions by gradient
descent on the cross-entropy of the labelled examples, pulled back towards the network's own
head so that a few photos shift the reading without forgetting what the network knew: the
classes the photos do not show keep (nearly) their old directions.
"""

from __future__ import annotations

import numpy as np

STEPS = 300
RATE = 0.5
PULL = 0.02  # how strongly the head is held to the network's own (per step, times the offset)


def fit_head(base: np.ndarray, examples: np.ndarray, classes: np.ndarray, scale: float,
             steps: int = STEPS, rate: float = RATE, pull: float = PULL) -> np.ndarray:
    """A value head (classes x D) fitted to unit `examples` (n x D) labelled `classes` (n,)."""
    if len(examples) == 0:
        return base
    e = examples / np.maximum(np.linalg.norm(examples, axis=1, keepdims=True), 1e-6)
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
