"""How far apart two colours look, as people with and without a colour-vision deficiency see them.

The colour-blind check compares a few dozen colours at most, so this module
does it in plain Python and ``check`` imports neither numpy nor colorspacious.
The numbers are colorspacious's, step for step (and tested against it):

- sRGB is linearised as in IEC 61966-2-1 and turned into CIE XYZ (D65 white,
  Y = 100) with the inverse of the standard's own matrix;
- a deficiency is Machado, Oliveira and Fernandes (2009), full severity: their
  matrix applied to linear sRGB, the result encoded back to sRGB and clipped to
  its gamut;
- distance is Euclidean in CAM02-UCS (Luo, Cui and Li 2006) over CIECAM02 under
  sRGB's viewing conditions (D65 white, background Y 20, adapting luminance
  64 lux / pi / 5, average surround).

Images (``export --simulate``) still go through colorspacious on whole arrays.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from functools import lru_cache

Vector = tuple[float, float, float]
Matrix = tuple[Vector, Vector, Vector]

MACHADO_2009_FULL_SEVERITY: dict[str, Matrix] = {
    "protanopia": ((0.152286, 1.052583, -0.204868),
                   (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968),
                     (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779),
                   (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}
"""Machado et al. (2009), severity 1.0 (the full loss of one cone type), on linear sRGB."""

XYZ_TO_LINEAR_SRGB: Matrix = ((3.2406, -1.5372, -0.4986),
                              (-0.9689, 1.8758, 0.0415),
                              (0.0557, -0.2040, 1.0570))
"""IEC 61966-2-1:1999's matrix; its inverse turns linear sRGB into XYZ."""
M_CAT02: Matrix = ((0.7328, 0.4296, -0.1624),
                   (-0.7036, 1.6975, 0.0061),
                   (0.0030, 0.0136, 0.9834))
M_HPE: Matrix = ((0.38971, 0.68898, -0.07868),
                 (-0.22981, 1.18340, 0.04641),
                 (0.00000, 0.00000, 1.00000))
WHITE_D65 = (95.047, 100.0, 108.883)
BACKGROUND_Y = 20.0
ADAPTING_LUMINANCE = (64 / math.pi) / 5  # sRGB's 64 lux ambient, grey-world assumption
SURROUND_F, SURROUND_C, SURROUND_NC = 1.0, 0.69, 1.0  # CIECAM02's "average" surround
UCS_C1, UCS_C2 = 0.007, 0.0228  # CAM02-UCS (K_L = 1)


def _inverse(matrix: Matrix) -> Matrix:
    (a, b, c), (d, e, f), (g, h, i) = matrix
    det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
    return ((((e * i - f * h) / det), ((c * h - b * i) / det), ((b * f - c * e) / det)),
            (((f * g - d * i) / det), ((a * i - c * g) / det), ((c * d - a * f) / det)),
            (((d * h - e * g) / det), ((b * g - a * h) / det), ((a * e - b * d) / det)))


def _vector(values: Iterable[float]) -> Vector:
    """Three numbers as a vector (refusing any other count)."""
    first, second, third = values
    return (first, second, third)


def _product(first: Matrix, second: Matrix) -> Matrix:
    one, two, three = (_vector(sum(first[row][k] * second[k][column] for k in range(3)) for column in range(3))
                       for row in range(3))
    return (one, two, three)


def _apply(matrix: Matrix, vector: Vector) -> Vector:
    return _vector(row[0] * vector[0] + row[1] * vector[1] + row[2] * vector[2] for row in matrix)


LINEAR_SRGB_TO_XYZ = _inverse(XYZ_TO_LINEAR_SRGB)
HPE_FROM_CAT02 = _product(M_HPE, _inverse(M_CAT02))


class _Viewing:
    """CIECAM02's constants for sRGB's viewing conditions, worked out once."""

    def __init__(self) -> None:
        white_rgb = _apply(M_CAT02, WHITE_D65)
        degree = SURROUND_F * (1 - (1 / 3.6) * math.exp((-ADAPTING_LUMINANCE - 42) / 92))
        degree = min(max(degree, 0.0), 1.0)
        self.d_rgb = _vector(degree * WHITE_D65[1] / channel + 1 - degree for channel in white_rgb)
        k = 1 / (5 * ADAPTING_LUMINANCE + 1)
        self.f_l = (0.2 * k ** 4 * (5 * ADAPTING_LUMINANCE)
                    + 0.1 * (1 - k ** 4) ** 2 * (5 * ADAPTING_LUMINANCE) ** (1. / 3))
        self.n = BACKGROUND_Y / WHITE_D65[1]
        self.z = 1.48 + math.sqrt(self.n)
        self.n_bb = 0.725 * (1 / self.n) ** 0.2
        adapted_white = _adapted(self, _vector(d * channel for d, channel in zip(self.d_rgb, white_rgb, strict=True)))
        self.a_w = (2 * adapted_white[0] + adapted_white[1] + adapted_white[2] / 20 - 0.305) * self.n_bb


def _adapted(viewing: _Viewing, cone: Vector) -> Vector:
    """CIECAM02 steps 3 and 4: Hunt-Pointer-Estevez space, then post-adaptation compression."""
    responses = []
    for channel in _apply(HPE_FROM_CAT02, cone):
        sign = (channel > 0) - (channel < 0)
        compressed = (viewing.f_l * sign * channel / 100) ** 0.42
        responses.append(sign * 400 * (compressed / (compressed + 27.13)) + 0.1)
    return _vector(responses)


_VIEWING = _Viewing()


def linear(channel: float) -> float:
    """An sRGB channel (0-1) as linear light."""
    return channel / 12.92 if channel < 0.04045 else ((channel + 0.055) / 1.055) ** 2.4


def encoded(channel: float) -> float:
    """Linear light as an sRGB channel."""
    return channel * 12.92 if channel <= 0.0031308 else 1.055 * channel ** (1 / 2.4) - 0.055


def simulate_colour(rgb: Vector, deficiency: str) -> Vector:
    """An sRGB colour as seen with ``deficiency`` (a key of MACHADO_2009_FULL_SEVERITY),
    clipped back into sRGB."""
    seen = _apply(MACHADO_2009_FULL_SEVERITY[deficiency], _vector(map(linear, rgb)))
    return _vector(min(max(encoded(channel), 0.0), 1.0) for channel in seen)


@lru_cache(maxsize=4096)  # a deck's few colours are compared with many others
def cam02_ucs(rgb: Vector) -> Vector:
    """An sRGB colour's J'a'b' coordinates in CAM02-UCS."""
    viewing = _VIEWING
    xyz = _vector(100 * part for part in _apply(LINEAR_SRGB_TO_XYZ, _vector(map(linear, rgb))))
    cone = _vector(d * channel for d, channel in zip(viewing.d_rgb, _apply(M_CAT02, xyz), strict=True))
    red, green, blue = _adapted(viewing, cone)
    a = red - 12. / 11 * green + 1. / 11 * blue
    b = (red + green - 2 * blue) / 9
    hue_radians = math.atan2(b, a)
    hue = math.degrees(hue_radians) % 360
    # Never below 0 for a colour inside sRGB; rounding must not make the power complex.
    achromatic = max((2 * red + green + blue / 20 - 0.305) * viewing.n_bb, 0.0)
    lightness = 100 * (achromatic / viewing.a_w) ** (SURROUND_C * viewing.z)
    eccentricity = (12500. / 13) * SURROUND_NC * viewing.n_bb * (math.cos(hue_radians + 2) + 3.8)
    t = eccentricity * math.sqrt(a ** 2 + b ** 2) / (red + green + 21. / 20 * blue)
    chroma = t ** 0.9 * (lightness / 100) ** 0.5 * (1.64 - 0.29 ** viewing.n) ** 0.73
    colourfulness = chroma * viewing.f_l ** 0.25
    j_prime = (1 + 100 * UCS_C1) * lightness / (1 + UCS_C1 * lightness)
    m_prime = (1. / UCS_C2) * math.log(1 + UCS_C2 * colourfulness)
    return (j_prime, m_prime * math.cos(math.radians(hue)), m_prime * math.sin(math.radians(hue)))


def distance(first: Vector, second: Vector, deficiency: str | None = None) -> float:
    """ΔE' (CAM02-UCS) between two sRGB colours, as seen with ``deficiency`` (None: normal vision)."""
    if deficiency is not None:
        first, second = simulate_colour(first, deficiency), simulate_colour(second, deficiency)
    return math.dist(cam02_ucs(first), cam02_ucs(second))
