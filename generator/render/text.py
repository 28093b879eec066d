"""Fitting text into a box: titles shrink to stay on one line, body text wraps and shrinks.

Pure functions over a ``measure(text, size) -> width`` function, so they can be
tested without a PDF. Sizes step down in quarter points, from the layout's
size to its minimum; when nothing fits, the caller turns ``None`` into an
error naming the card and element.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

Measure = Callable[[str, float], float]
SIZE_STEP = 0.25
"""Font sizes step down by this much (points) while wrapped text is fitted."""


@dataclass(frozen=True)
class Metrics:
    """Vertical font metrics per point of size (ascent above, descent below the baseline)."""

    ascent: float
    descent: float
    cap_height: float

    def line_height(self, size: float) -> float:
        return (self.ascent + self.descent) * size


@dataclass(frozen=True)
class FittedText:
    size: float
    lines: tuple[str, ...]


def fit_line(text: str, width: float, height: float, size: float, min_size: float,
             measure: Measure, metrics: Metrics) -> FittedText | None:
    """``text`` on one line at the largest size up to ``size`` that fits the box."""
    limit = size
    natural = measure(text, 1.0)
    if natural > 0:
        limit = min(limit, width / natural)
    if metrics.line_height(1.0) > 0:
        limit = min(limit, height / metrics.line_height(1.0))
    if limit >= size:
        return FittedText(size, (text,))
    fitting = math.floor(limit / SIZE_STEP + 1e-9) * SIZE_STEP  # round down to a whole step
    if fitting < min_size - 1e-9:
        return None
    return FittedText(fitting, (text,))


def fit_wrapped(text: str, width: float, height: float, size: float, min_size: float,
                leading: float, measure: Measure, metrics: Metrics) -> FittedText | None:
    """``text`` wrapped at word boundaries, at the largest size that fits the box."""
    current = size
    while current >= min_size - 1e-9:
        lines = wrap(text, width, current, measure)
        if lines is not None and block_height(len(lines), current, leading, metrics) <= height:
            return FittedText(current, tuple(lines))
        current -= SIZE_STEP
    return None


def block_height(line_count: int, size: float, leading: float, metrics: Metrics) -> float:
    """From the top of the first line's ascenders to the bottom of the last's descenders."""
    if line_count == 0:
        return 0.0
    return metrics.line_height(size) + (line_count - 1) * leading * size


def wrap(text: str, width: float, size: float, measure: Measure) -> list[str] | None:
    """Greedy word wrap keeping line breaks; None when one word is wider than the box."""
    lines: list[str] = []
    space = measure(" ", size)
    for paragraph in text.split("\n"):
        words = paragraph.split()
        if not words:
            lines.append("")
            continue
        line, line_width = words[0], measure(words[0], size)
        if line_width > width:
            return None
        for word in words[1:]:
            word_width = measure(word, size)
            if word_width > width:
                return None
            if line_width + space + word_width <= width:
                line, line_width = f"{line} {word}", line_width + space + word_width
            else:
                lines.append(line)
                line, line_width = word, word_width
        lines.append(line)
    while lines and not lines[-1]:
        lines.pop()
    return lines
