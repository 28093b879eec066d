"""Rectangles in PDF points, shared by card layouts and sheet geometry.

PDF measures from the bottom-left corner, with y going up; every stage that
places something (an element on a card face, a card on a sheet, a crop mark)
speaks in these boxes.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

EPSILON = 1e-6
"""Points closer than this are the same point: floating-point sums of mm never land exactly."""


@dataclass(frozen=True)
class Box:
    """A rectangle: lower-left corner (x, y), width and height, in points."""

    x: float
    y: float
    width: float
    height: float

    @property
    def right(self) -> float:
        return self.x + self.width

    @property
    def top(self) -> float:
        return self.y + self.height

    def shifted(self, dx: float, dy: float) -> Box:
        return Box(self.x + dx, self.y + dy, self.width, self.height)

    def grown(self, margin: float) -> Box:
        """The box with ``margin`` added on every side (negative shrinks it)."""
        return Box(self.x - margin, self.y - margin, self.width + 2 * margin, self.height + 2 * margin)

    def inside(self, other: Box, tolerance: float = 0.01) -> bool:
        """True when this box lies within ``other``, give or take ``tolerance``."""
        return (self.x >= other.x - tolerance and self.y >= other.y - tolerance
                and self.right <= other.right + tolerance and self.top <= other.top + tolerance)

    def overlaps(self, other: Box) -> bool:
        """True when the two boxes share some area (touching edges do not count)."""
        return (self.x < other.right - EPSILON and other.x < self.right - EPSILON
                and self.y < other.top - EPSILON and other.y < self.top - EPSILON)

    def rounded(self, places: int = 3) -> list[float]:
        """``[x, y, width, height]`` rounded for the manifest."""
        return [round(value, places) + 0.0 for value in (self.x, self.y, self.width, self.height)]


Corners = tuple[tuple[float, float], ...]
"""A region as its corners on the page (a turned box is no longer upright)."""


def turn_point(point: tuple[float, float], centre: tuple[float, float], degrees: float) -> tuple[float, float]:
    """``point`` turned ``degrees`` clockwise on the card about ``centre`` (PDF's y grows up)."""
    radians = math.radians(-degrees)
    dx, dy = point[0] - centre[0], point[1] - centre[1]
    return (centre[0] + dx * math.cos(radians) - dy * math.sin(radians),
            centre[1] + dx * math.sin(radians) + dy * math.cos(radians))


def region_bounds(points: Corners) -> Box:
    """The upright box around a region's corners."""
    xs, ys = [x for x, _ in points], [y for _, y in points]
    return Box(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))


def union(boxes: Iterable[Box]) -> Box:
    """The upright box around all of ``boxes`` (at least one)."""
    boxes = list(boxes)
    left, bottom = min(box.x for box in boxes), min(box.y for box in boxes)
    right, top = max(box.right for box in boxes), max(box.top for box in boxes)
    return Box(left, bottom, right - left, top - bottom)
