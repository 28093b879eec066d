"""Images recoloured as players with a colour-vision deficiency see them."""

from __future__ import annotations

import numpy
import pytest
from colorspacious import cspace_convert
from PIL import Image

from generator.access.simulation import SIMULATIONS, simulate_image

RED, GREEN, BLUE = (198, 47, 42), (60, 141, 63), (45, 99, 179)


def expected(rgb: tuple[int, int, int], cvd_type: str) -> tuple[int, ...]:
    """The colour as colorspacious's Machado et al. 2009 model gives it, at full severity."""
    space = {"name": "sRGB1+CVD", "cvd_type": cvd_type, "severity": 100}
    seen = numpy.clip(cspace_convert(numpy.array(rgb) / 255, space, "sRGB1"), 0, 1)
    return tuple(int(value) for value in numpy.rint(seen * 255))


@pytest.mark.parametrize("deficiency, cvd_type", [("protanopia", "protanomaly"),
                                                  ("deuteranopia", "deuteranomaly"),
                                                  ("tritanopia", "tritanomaly")])
def test_every_pixel_becomes_the_colour_the_model_gives(deficiency, cvd_type):
    image = Image.new("RGBA", (30, 10), (255, 255, 255, 255))
    image.paste(RED + (255,), (0, 0, 10, 10))
    image.paste(GREEN + (128,), (10, 0, 20, 10))
    image.paste(BLUE + (255,), (20, 0, 30, 10))
    seen = simulate_image(image, deficiency)
    assert seen.size == image.size and seen.mode == "RGBA"
    assert seen.getpixel((5, 5)) == expected(RED, cvd_type) + (255,)
    assert seen.getpixel((15, 5)) == expected(GREEN, cvd_type) + (128,)  # transparency is kept
    assert seen.getpixel((25, 5)) == expected(BLUE, cvd_type) + (255,)


def test_deuteranopia_brings_the_issues_red_and_green_together():
    image = Image.new("RGB", (2, 1))
    image.putpixel((0, 0), RED)
    image.putpixel((1, 0), GREEN)
    seen = simulate_image(image, "deuteranopia")
    before = sum(abs(a - b) for a, b in zip(RED, GREEN))
    after = sum(abs(a - b) for a, b in zip(seen.getpixel((0, 0)), seen.getpixel((1, 0))))
    assert after < before / 3
    assert seen.mode == "RGB"


def test_the_three_deficiencies_are_offered():
    assert SIMULATIONS == ("protanopia", "deuteranopia", "tritanopia")
