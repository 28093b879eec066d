"""Crop marks and cut lines: where the guides for scissors and cutters go. Pure geometry.

Crop marks are short lines in the margins, each in line with a cut (a card's
left, right, top or bottom edge). They start a small gap outside the grid's
outermost bleed and stop short of the paper edge, the footer and the fold
line, so a mark never touches a card. Cut lines, when asked for, run along
every card edge across the grid.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from generator.boxes import Box
from generator.sheets.style import MarkStyle

Line = tuple[float, float, float, float]
"""A straight line from (x0, y0) to (x1, y1), in points."""


@dataclass(repr=False, eq=False)
class Room:
    """The part of the page a grid may put marks in: its area less the edges kept clear."""

    left: float
    bottom: float
    right: float
    top: float


def mark_room(area: Box, paper_width: float, paper_height: float, style: MarkStyle,
              footer_top: float) -> Room:
    """Where marks for a grid living in ``area`` may go.

    Along a paper edge ``style.edge`` is kept clear (printers cannot print
    there); along the bottom edge the footer's line is kept clear too; along
    an edge inside the page (a fold line) the usual gap is kept.
    """
    bottom_clear = max(style.edge, footer_top + style.gap)
    return Room(
        left=area.x + (style.edge if area.x <= 0 else style.gap),
        bottom=area.y + (bottom_clear if area.y <= 0 else style.gap),
        right=area.right - (style.edge if area.right >= paper_width else style.gap),
        top=area.top - (style.edge if area.top >= paper_height else style.gap),
    )


def cut_positions(boxes: Sequence[Box]) -> tuple[list[float], list[float]]:
    """The distinct x and y coordinates of every card edge, in order."""
    xs = sorted({round(value, 4) for box in boxes for value in (box.x, box.right)})
    ys = sorted({round(value, 4) for box in boxes for value in (box.y, box.top)})
    return xs, ys


def crop_marks(boxes: Sequence[Box], bleed: float, room: Room, style: MarkStyle,
               filled: Sequence[Box] | None = None) -> list[Line]:
    """Marks around the grid of ``boxes`` (trim boxes), kept inside ``room``.

    ``filled`` (default: all of ``boxes``) are the slots that hold a card:
    only their cuts are marked, so a part-filled last page shows no marks
    for cuts nobody needs, while the marks stay in the grid's margins.
    """
    if not boxes:
        return []
    xs, ys = cut_positions(boxes if filled is None else filled)
    outer_left = min(box.x for box in boxes) - bleed
    outer_right = max(box.right for box in boxes) + bleed
    outer_bottom = min(box.y for box in boxes) - bleed
    outer_top = max(box.top for box in boxes) + bleed

    def span(start: float, limit: float, direction: int) -> tuple[float, float] | None:
        """A mark from ``gap`` beyond ``start`` towards ``limit``, or None if too short."""
        begin = start + direction * style.gap
        end = begin + direction * style.length
        end = min(end, limit) if direction > 0 else max(end, limit)
        if (end - begin) * direction < style.shortest:
            return None
        return begin, end

    lines: list[Line] = []
    for x in xs:
        for start, limit, direction in ((outer_top, room.top, 1), (outer_bottom, room.bottom, -1)):
            found = span(start, limit, direction)
            if found and room.left <= x <= room.right:
                lines.append((x, found[0], x, found[1]))
    for y in ys:
        for start, limit, direction in ((outer_left, room.left, -1), (outer_right, room.right, 1)):
            found = span(start, limit, direction)
            if found and room.bottom <= y <= room.top:
                lines.append((found[0], y, found[1], y))
    return lines


def cut_lines(boxes: Sequence[Box], bleed: float) -> list[Line]:
    """Lines along every card edge, across the whole grid (bleed included)."""
    if not boxes:
        return []
    xs, ys = cut_positions(boxes)
    left = min(box.x for box in boxes) - bleed
    right = max(box.right for box in boxes) + bleed
    bottom = min(box.y for box in boxes) - bleed
    top = max(box.top for box in boxes) + bleed
    return [(x, bottom, x, top) for x in xs] + [(left, y, right, y) for y in ys]


def kept_clear(lines: Sequence[Line], zones: Sequence[Box], width: float = 0.0,
               shortest: float = 0.0) -> list[Line]:
    """``lines`` (upright or level) with the pieces that would reach into any of ``zones`` cut out.

    A line ``width`` wide reaches half its width to either side; what is left of a
    line beside a zone is kept, so a cut line across the grid stays where no
    registration mark is near it, unless it is shorter than ``shortest``.
    """
    pieces = list(lines)
    for zone in zones:
        pieces = [piece for line in pieces for piece in _outside(line, zone.grown(width / 2))]
    return [piece for piece in pieces if abs(piece[2] - piece[0]) + abs(piece[3] - piece[1]) >= shortest]


def _outside(line: Line, zone: Box) -> list[Line]:
    """The parts of an upright or level ``line`` that lie outside ``zone``."""
    x0, y0, x1, y1 = line
    level = y0 == y1
    across, start, end = (y0, min(x0, x1), max(x0, x1)) if level else (x0, min(y0, y1), max(y0, y1))
    low, high = (zone.y, zone.top) if level else (zone.x, zone.right)
    begin, finish = (zone.x, zone.right) if level else (zone.y, zone.top)
    if not low < across < high or finish <= start or begin >= end:
        return [line]
    spans = [(start, min(end, begin)), (max(start, finish), end)]
    return [(a, across, b, across) if level else (across, a, across, b) for a, b in spans if b - a > 0]
