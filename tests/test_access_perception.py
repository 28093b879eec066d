"""The colour-blind check's own colour arithmetic gives colorspacious's numbers."""

import itertools
import random

import numpy
import pytest
from colorspacious import cspace_convert, deltaE

from generator.access.colours import DEFICIENCIES, FULL_SEVERITY
from generator.access.perception import cam02_ucs, distance, simulate_colour

CORNERS = [tuple(float(part) for part in corner) for corner in itertools.product((0, 1), repeat=3)]
GREYS = [(level, level, level) for level in (0.01, 0.04045, 0.2, 0.5, 0.93)]
RANDOM = [tuple(random.Random(seed).random() for _ in range(3)) for seed in range(60)]
COLOURS = CORNERS + GREYS + RANDOM


def colorspacious_seen(rgb, deficiency):
    space = {"name": "sRGB1+CVD", "cvd_type": DEFICIENCIES[deficiency], "severity": FULL_SEVERITY}
    return numpy.clip(cspace_convert(numpy.asarray(rgb, dtype=float), space, "sRGB1"), 0.0, 1.0)


def test_cam02_ucs_coordinates_match_colorspacious():
    for rgb in COLOURS:
        expected = cspace_convert(numpy.asarray(rgb), "sRGB1", "CAM02-UCS")
        assert cam02_ucs(rgb) == pytest.approx(tuple(expected), abs=1e-9), rgb


@pytest.mark.parametrize("deficiency", sorted(DEFICIENCIES))
def test_full_severity_simulation_matches_colorspacious(deficiency):
    for rgb in COLOURS:
        assert simulate_colour(rgb, deficiency) == pytest.approx(tuple(colorspacious_seen(rgb, deficiency)),
                                                                 abs=1e-12), rgb


@pytest.mark.parametrize("deficiency", [None, *sorted(DEFICIENCIES)])
def test_distances_match_colorspacious_delta_e(deficiency):
    pairs = list(zip(COLOURS, reversed(COLOURS), strict=True))
    first = numpy.asarray([one for one, _ in pairs])
    second = numpy.asarray([two for _, two in pairs])
    if deficiency is not None:
        first, second = colorspacious_seen(first, deficiency), colorspacious_seen(second, deficiency)
    expected = deltaE(first, second, input_space="sRGB1", uniform_space="CAM02-UCS")
    assert [distance(one, two, deficiency) for one, two in pairs] == pytest.approx(list(expected), abs=1e-9)


def test_red_and_green_look_alike_only_to_the_colour_blind():
    red, green = (0.8, 0.2, 0.2), (0.2, 0.6, 0.2)
    assert distance(red, green) > 30 > 10 > distance(red, green, "deuteranopia")
