"""Colour science for the checks: WCAG contrast, colour-vision deficiency, perceptual distance.

Contrast follows WCAG 2.x exactly (its relative luminance and contrast ratio
are two short formulas, written out below with their source). Simulating
colour-blind vision in whole images is left to colorspacious, a library
implementing Machado, Oliveira and Fernandes (2009) and CIECAM02-UCS; the few
colours the colour-blind check compares are measured with the same formulas in
plain Python (:mod:`generator.access.perception`), so ``check`` loads neither
numpy nor colorspacious.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from reportlab.lib.colors import Color

RGB = tuple[float, float, float]  # sRGB, each channel 0 to 1

NORMAL_TEXT_CONTRAST = 4.5
"""WCAG 2.x success criterion 1.4.3 (Contrast, Minimum, level AA): text needs a
contrast ratio of at least 4.5:1 against what is behind it."""
LARGE_TEXT_CONTRAST = 3.0
"""WCAG 2.x 1.4.3: large text (see the two sizes below) needs 3:1."""
LARGE_TEXT_SIZE = 18.0
"""Points: WCAG 2.x counts text this large as large text, whatever its weight."""
LARGE_BOLD_TEXT_SIZE = 14.0
"""Points: WCAG 2.x counts bold text this large as large text."""
BOLD_WEIGHT = 700
"""OpenType weight class (OS/2 usWeightClass) from which a font counts as bold: 700 is
the weight CSS and the OpenType specification call bold."""

DISTINCT_COLOURS = 10.0
"""CAM02-UCS distance (ΔE') below which two colours chosen by a field's values
are too close to tell apart. A ΔE' of about 1 is the smallest difference people
notice side by side; two card kinds must be told apart at a glance, across a
table, under room light and printed on a home printer that shifts colours by a
few units, so the bar is ten times that."""

DEFICIENCIES = {
    "protanopia": "protanomaly",
    "deuteranopia": "deuteranomaly",
    "tritanopia": "tritanomaly",
}
"""Each deficiency checked, and its name in colorspacious (Machado et al. 2009
model; at severity 100 an anomaly is the full loss of that cone type)."""
FULL_SEVERITY = 100


def rgb_of(colour: Color) -> RGB:
    return (float(colour.red), float(colour.green), float(colour.blue))


def hex_of(colour: Color | RGB) -> str:
    """``#c62f2a``: how a designer writes the colour in a layout."""
    red, green, blue = rgb_of(colour) if isinstance(colour, Color) else colour
    return "#" + "".join(f"{round(max(0.0, min(1.0, part)) * 255):02x}" for part in (red, green, blue))


@lru_cache(maxsize=4096)  # a face's few colours are measured against each other hundreds of times
def relative_luminance(rgb: RGB) -> float:
    """WCAG 2.x relative luminance of an sRGB colour (0 black to 1 white).

    Each channel is linearised (0.04045 is the sRGB standard's threshold; WCAG
    2.0 printed 0.03928, which gives the same result for 8-bit colours), then
    weighted by how bright it looks.
    """
    def linear(channel: float) -> float:
        return channel / 12.92 if channel <= 0.04045 else ((channel + 0.055) / 1.055) ** 2.4

    red, green, blue = (linear(part) for part in rgb)
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast_ratio(first: RGB, second: RGB) -> float:
    """WCAG 2.x contrast ratio, 1 (no contrast) to 21 (black on white)."""
    one, two = relative_luminance(first), relative_luminance(second)
    lighter, darker = max(one, two), min(one, two)
    return (lighter + 0.05) / (darker + 0.05)


def shown_ratio(ratio: float) -> float:
    """A contrast ratio as people read it, in messages and in JSON alike: cut to two
    decimals, never rounded up, so 4.499 shows as 4.49 and not as the 4.5 it fails to
    reach (as the WebAIM checker shows it). Cut from the ratio's shortest decimal form,
    so a ratio of 4.14 is not shown as 4.13 for a float a hair below it."""
    from decimal import ROUND_FLOOR, Decimal  # noqa: PLC0415  (only a text that fails shows its ratio)

    return float(Decimal(repr(ratio)).quantize(Decimal("0.01"), rounding=ROUND_FLOOR))


def is_large_text(size: float, bold: bool) -> bool:
    return size >= LARGE_TEXT_SIZE - 1e-6 or (bold and size >= LARGE_BOLD_TEXT_SIZE - 1e-6)


def required_contrast(size: float, bold: bool) -> float:
    return LARGE_TEXT_CONTRAST if is_large_text(size, bold) else NORMAL_TEXT_CONTRAST


def simulate(colours: Any, deficiency: str) -> Any:
    """sRGB colour(s) (an array whose last axis holds 0-1 channels) as seen with
    ``deficiency`` at full severity, clipped back into sRGB."""
    import numpy  # noqa: PLC0415  (numpy takes a tenth of a second to import; only export --simulate needs it)
    from colorspacious import cspace_convert  # noqa: PLC0415  (it imports numpy; only export --simulate needs it)

    space = {"name": "sRGB1+CVD", "cvd_type": DEFICIENCIES[deficiency], "severity": FULL_SEVERITY}
    return numpy.clip(cspace_convert(numpy.asarray(colours, dtype=float), space, "sRGB1"), 0.0, 1.0)
