"""Rectangles in PDF points, shared by card layouts and sheet geometry.

PDF measures from the bottom-left corner, with y going up; every stage that
places something (an element on a card face, a card on a sheet, a crop mark)
speaks in these boxes.
"""

from __future__ import annotations

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
