"""How colours look to players with a colour-vision deficiency, and how far apart they are.

Used to choose and test the player colours (``render/data/palettes.json``): every pair of
seats must stay apart for normal vision and under simulated protanopia, deuteranopia and
tritanopia (about 1 in 12 men has some red-green deficiency).

Simulation: Machado, Oliveira and Fernandes, "A Physiologically-based Model for
Simulation of Color Vision Deficiency", IEEE Transactions on Visualization and Computer
Graphics 15(6), 2009, pp. 1291-1298 -- the matrices for severity 1.0 (dichromacy) from the
table the authors publish with the paper. They act on *linear* RGB, so a colour is
linearised (sRGB transfer curve) before and encoded again after.

Distance: CIEDE2000 (CIE 142-2001; formulas and test data as in Sharma, Wu and Dalal,
"The CIEDE2000 Color-Difference Formula", Color Research & Application 30(1), 2005) in
CIELAB under D65, and the plain Euclidean CIE 1976 difference for comparison. As a rule
of thumb a difference of 1 is just noticeable side by side; small marks on a busy board
need far more (about 10 and up to be told apart at a glance).

Pure Python: a few dozen colours are compared, never images.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from itertools import combinations

RGB = tuple[int, int, int]
Lab = tuple[float, float, float]

# Machado et al. (2009), severity 1.0, rows give the simulated linear R, G and B.
MACHADO_2009: dict[str, tuple[tuple[float, float, float], ...]] = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}
DEFICIENCIES = tuple(MACHADO_2009)
#: Normal vision and the three simulated dichromacies, the ways a test looks at colours.
VISIONS = ("normal", *DEFICIENCIES)

# sRGB (linear) to CIE XYZ, D65 white (IEC 61966-2-1), and the D65 white point.
_XYZ = (
    (0.4124564, 0.3575761, 0.1804375),
    (0.2126729, 0.7151522, 0.0721750),
    (0.0193339, 0.1191920, 0.9503041),
)
_WHITE = (0.95047, 1.0, 1.08883)


def to_linear(channel: float) -> float:
    """One sRGB channel (0-255) as linear light (0-1)."""
    v = channel / 255
    return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4


def from_linear(value: float) -> float:
    """Linear light (clipped to 0-1) as an sRGB channel (0-255, not rounded)."""
    v = min(1.0, max(0.0, value))
    return 255 * (v * 12.92 if v <= 0.0031308 else 1.055 * v ** (1 / 2.4) - 0.055)


def _apply(matrix: Sequence[Sequence[float]], vector: Sequence[float]) -> tuple[float, ...]:
    return tuple(sum(m * v for m, v in zip(row, vector, strict=True)) for row in matrix)


def _simulated_linear(colour: Sequence[float], vision: str) -> tuple[float, ...]:
    linear = tuple(to_linear(c) for c in colour)
    if vision == "normal":
        return linear
    if vision not in MACHADO_2009:
        raise KeyError(f"unknown vision {vision!r}; known: {', '.join(VISIONS)}")
    return tuple(min(1.0, max(0.0, v)) for v in _apply(MACHADO_2009[vision], linear))


def simulate(colour: Sequence[float], vision: str) -> RGB:
    """``colour`` (sRGB) as seen with ``vision``: "normal" or one of :data:`DEFICIENCIES`."""
    r, g, b = (round(from_linear(v)) for v in _simulated_linear(colour, vision))
    return r, g, b


def _lab_of_linear(linear: Sequence[float]) -> Lab:
    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    x, y, z = (f(v / w) for v, w in zip(_apply(_XYZ, linear), _WHITE, strict=True))
    return 116 * y - 16, 500 * (x - y), 200 * (y - z)


def lab(colour: Sequence[float], vision: str = "normal") -> Lab:
    """CIELAB (D65) of ``colour`` as seen with ``vision`` (no rounding on the way)."""
    return _lab_of_linear(_simulated_linear(colour, vision))


def delta_e_76(a: Lab, b: Lab) -> float:
    """CIE 1976 colour difference: the Euclidean distance in CIELAB."""
    return math.dist(a, b)


def delta_e_2000(a: Lab, b: Lab) -> float:
    """CIEDE2000 colour difference of two CIELAB colours (kL = kC = kH = 1)."""
    l1, a1, b1 = a
    l2, a2, b2 = b
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean**7 / (c_mean**7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0

    dl = l2 - l1
    dc = c2p - c1p
    if c1p * c2p == 0:
        dh = 0.0
    elif abs(h2p - h1p) <= 180:
        dh = h2p - h1p
    elif h2p - h1p > 180:
        dh = h2p - h1p - 360
    else:
        dh = h2p - h1p + 360
    dh_big = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))

    l_mean = (l1 + l2) / 2
    cp_mean = (c1p + c2p) / 2
    if c1p * c2p == 0:
        h_mean = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_mean = (h1p + h2p) / 2
    elif h1p + h2p < 360:
        h_mean = (h1p + h2p + 360) / 2
    else:
        h_mean = (h1p + h2p - 360) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(h_mean - 30))
        + 0.24 * math.cos(math.radians(2 * h_mean))
        + 0.32 * math.cos(math.radians(3 * h_mean + 6))
        - 0.20 * math.cos(math.radians(4 * h_mean - 63))
    )
    d_theta = 30 * math.exp(-(((h_mean - 275) / 25) ** 2))
    r_c = 2 * math.sqrt(cp_mean**7 / (cp_mean**7 + 25**7))
    s_l = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    s_c = 1 + 0.045 * cp_mean
    s_h = 1 + 0.015 * cp_mean * t
    r_t = -math.sin(math.radians(2 * d_theta)) * r_c
    return math.sqrt(
        (dl / s_l) ** 2 + (dc / s_c) ** 2 + (dh_big / s_h) ** 2 + r_t * (dc / s_c) * (dh_big / s_h)
    )


def distance(a: Sequence[float], b: Sequence[float], vision: str = "normal") -> float:
    """CIEDE2000 difference of two sRGB colours as seen with ``vision``."""
    return delta_e_2000(lab(a, vision), lab(b, vision))


def worst_distance(
    a: Sequence[float], b: Sequence[float], visions: Iterable[str] = VISIONS
) -> float:
    """The smallest CIEDE2000 difference of ``a`` and ``b`` over ``visions``."""
    return min(distance(a, b, vision) for vision in visions)


def closest_pair(
    colours: Sequence[Sequence[float]], vision: str = "normal"
) -> tuple[float, int, int]:
    """The smallest pairwise CIEDE2000 difference among ``colours`` and which two it is."""
    labs = [lab(c, vision) for c in colours]
    return min(
        ((delta_e_2000(labs[i], labs[j]), i, j) for i, j in combinations(range(len(labs)), 2)),
        default=(math.inf, -1, -1),
    )
