"""Colour-vision deficiency simulations (Machado, Oliveira and Fernandes 2009, severity 1.0, in linear RGB) and the
CIE 1976 colour difference in L*a*b*, for checking a palette."""

from __future__ import annotations

import math

Color = tuple[int, int, int]

MATRICES = {
    "normal": ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)),
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
}


def _linear(c: int) -> float:
    v = c / 255
    return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4


def simulate(color: Color, kind: str) -> tuple[float, float, float]:
    """`color` as seen with `kind`, in linear RGB (0..1)."""
    rgb = [_linear(c) for c in color]
    return tuple(min(1.0, max(0.0, sum(m * v for m, v in zip(row, rgb)))) for row in MATRICES[kind])  # type: ignore[return-value]


def lab(linear: tuple[float, float, float]) -> tuple[float, float, float]:
    r, g, b = linear
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def difference(a: Color, b: Color, kind: str) -> float:
    """CIE76 ΔE between `a` and `b` as seen with `kind`."""
    return math.dist(lab(simulate(a, kind)), lab(simulate(b, kind)))
