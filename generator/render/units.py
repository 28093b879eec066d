"""Lengths in real units, turned into PDF points: the one reader of lengths for layouts,
``sheets.yaml`` and the booklet's ``style.yaml``.

Lengths are written the way a designer measures a card: ``63.5mm``, ``0.25in``,
``9pt``. What a bare number means is the caller's to say: a layout's default unit
(``units:``, millimetres unless the layout says otherwise), points in the sheet and
booklet styles and for type sizes. Box coordinates may also be percentages of the
card (``50%`` of its width for x and widths, of its height for y and heights), which
lets one layout serve every card size. Whatever the file, a length is a finite number
no longer than the largest page a PDF can have.
"""

from __future__ import annotations

import math
import re

from generator.errors import InputError, Position

POINTS_PER_UNIT = {
    "pt": 1.0,
    "in": 72.0,
    "mm": 72.0 / 25.4,
    "cm": 72.0 / 2.54,
}
"""How many PDF points (1/72 inch) one of each unit is."""

MM = POINTS_PER_UNIT["mm"]
"""Points in one millimetre."""

MAX_LENGTH = 14_400.0
"""The longest length (points) a file may give: 200 inches (5.08 m), the largest page
PDF readers open. No card, box, gap, line, paper or margin is longer; past it
(``1.0e+308``, a 400-digit number) the drawing arithmetic overflows to infinity."""

MAX_LENGTH_TEXT = 40
"""Characters in a written length ('63.5mm'); a longer one is not a length but a number
too long to be one."""

EXAMPLES = "expected a length such as 3mm, 0.5in or 9pt"

_LENGTH = re.compile(r"^\s*(-?\d+(?:\.\d+)?|-?\.\d+)\s*(mm|cm|in|pt|%)?\s*$")


class UnitError(ValueError):
    """A length that cannot be read; the caller adds the file position."""


def to_points(value: object, bare_unit: str = "mm", reference: float | None = None) -> float:
    """One length in points. A bare number is in ``bare_unit``; a percentage is of
    ``reference`` and refused without one. Raises :class:`UnitError`.

    >>> round(to_points("25.4mm"), 3), to_points(1, "in"), to_points("50%", reference=200)
    (72.0, 72.0, 100.0)
    """
    if isinstance(value, bool) or value is None:
        raise UnitError(f"{EXAMPLES}, found {value!r}")
    if isinstance(value, (int, float)):
        if isinstance(value, float) and not math.isfinite(value):  # YAML's .nan and .inf are floats too
            raise UnitError(f"{EXAMPLES}, found {value!r}, which is not a finite number")
        return _bounded(_number(value) * POINTS_PER_UNIT[bare_unit], value)
    text = str(value)
    match = _LENGTH.match(text) if len(text) <= MAX_LENGTH_TEXT else None
    if not match:
        why = ", which is not a finite number" if _names_non_finite(text) else ""
        raise UnitError(f"{EXAMPLES}, found '{text[:40]}'{why}")
    number, unit = _number(match.group(1)), match.group(2) or bare_unit
    if unit == "%":
        if reference is None:
            raise UnitError(f"a percentage ('{value}') is not allowed here")
        return _bounded(number * reference / 100.0, value)
    return _bounded(number * POINTS_PER_UNIT[unit], value)


def read_length(value: object, bare_unit: str, position: Position | None, field: str,
                reference: float | None = None) -> float:
    """:func:`to_points` for a setting of a file: what is wrong with it becomes an
    :class:`InputError` at ``position``, naming ``field``."""
    try:
        return to_points(value, bare_unit, reference)
    except UnitError as error:
        raise InputError(str(error), position, field) from None


def _names_non_finite(text: str) -> bool:
    """Whether ``text`` is a word for an infinite or undefined number ('nan', 'inf',
    '-.inf', 'Infinity'), which a designer may have meant as a number."""
    return text.strip().lower().lstrip("+-").lstrip(".") in {"nan", "inf", "infinity"}


def _number(written: int | float | str) -> float:
    """The number as a float; a whole number too large for one counts as infinite."""
    try:
        return float(written)
    except OverflowError:
        return math.inf


def _bounded(points: float, written: object) -> float:
    if not abs(points) <= MAX_LENGTH:  # also false for nan
        shown = str(written)
        shown = shown if len(shown) <= 20 else f"{shown[:12]}... ({len(shown)} characters)"
        raise UnitError(f"{shown} is too long a length: at most {MAX_LENGTH * 25.4 / 72:,.0f} mm "
                        f"({MAX_LENGTH / 72:.0f} in), the largest page a PDF can have")
    return points


def check_unit(unit: object) -> str:
    """Validate a ``units:`` setting."""
    if not isinstance(unit, str) or unit not in POINTS_PER_UNIT:
        raise UnitError(f"units must be one of {', '.join(POINTS_PER_UNIT)}, found '{unit}'")
    return str(unit)


def mm_text(points: float) -> str:
    """A length in points as messages give it: ``3.18 mm`` (to a hundredth, no trailing zeros)."""
    return _millimetres(points) + " mm"


def size_text(width: float, height: float) -> str:
    """A size in points as messages give it: ``63.5 x 88.9 mm``."""
    return f"{_millimetres(width)} x {mm_text(height)}"


def _millimetres(points: float) -> str:
    return f"{points / MM:.2f}".rstrip("0").rstrip(".")
