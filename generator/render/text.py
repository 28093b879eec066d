"""Fitting text into a box: titles shrink to stay on one line, body text wraps and shrinks.

Pure functions over paragraphs of words whose widths are known at 1 pt (see
:mod:`generator.render.runs`): at size ``s`` every width is ``s`` times as
large, so trying a size costs a multiplication, not a measurement. Sizes step
down in quarter points, from the layout's size to its minimum; when nothing
fits, the caller turns ``None`` into an error naming the card and element (or,
in a draft, draws :func:`overflowing` text and marks it).

A paragraph may be a :data:`RULE` (a line of ``---`` in card text): it holds no
words and takes :data:`RULE_STEP` of a line's leading above and below it, so two
abilities with a rule between them stand a line and a half apart (a blank line
between them takes two).

A line breaks at a space, or at a soft hyphen (U+00AD) inside a word: the text stage
cuts a word there into syllables, each a word, the next with no space before it
(see :class:`Measured`), so wrapping never looks inside a word and text without soft
hyphens wraps as it always has. A line that ends at a soft hyphen prints a hyphen,
counted in its width; elsewhere the soft hyphen is invisible and takes no room.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

SIZE_STEP = 0.25
"""Font sizes step down by this much (points) while wrapped text is fitted."""
EPSILON = 1e-9
RULE_STEP = 0.75
"""From the line before a rule to the rule, and from the rule to the line after it, in
lines of leading: together a short paragraph gap, the rule in its middle."""


class Rule(tuple[()]):
    """A paragraph that is a horizontal rule: it has no words (so it wraps as an empty one
    would), and the text stage gives it its own height and drawing."""

    __slots__ = ()

    def __new__(cls) -> Rule:
        return super().__new__(cls, ())


RULE = Rule()


class Measured(Protocol):
    width: float  # at 1 pt
    space: float  # the space before it, at 1 pt; 0 for a syllable after a soft hyphen
    hyphen: float  # at 1 pt, the hyphen a line ending after it prints (a soft hyphen ends it); else 0

    @property
    def top(self) -> float: ...  # at 1 pt, how far its ink (glyphs, inline icons) reaches above the baseline

    @property
    def bottom(self) -> float: ...  # at 1 pt, how far its ink reaches below the baseline


W = TypeVar("W", bound=Measured)
"""The kind of word fitted (a card's text fits :class:`generator.render.runs.Word`)."""


@dataclass(repr=False, eq=False)
class Metrics:
    """Vertical font metrics per point of size (ascent above, descent below the baseline)."""

    ascent: float
    descent: float
    cap_height: float


@dataclass(repr=False, eq=False)
class Line(Generic[W]):
    """Words on one printed line; ``last`` when it ends its paragraph (never justified);
    ``rule`` for a rule's line (no words)."""

    words: tuple[W, ...]
    last: bool
    rule: bool = False

    def width(self, size: float) -> float:
        """The line's width at ``size``: its words, the spaces between them and the hyphen it
        ends with when it breaks at a soft hyphen (only a line's last word can end with one
        that prints: one inside a line joins two syllables of a word)."""
        if not self.words:
            return 0.0
        words = self.words
        return size * (sum(word.width for word in words) + sum(word.space for word in words[1:]) + words[-1].hyphen)

    @property
    def top(self) -> float:
        """How far the line's ink reaches above its baseline, at 1 pt (0 for a rule's line)."""
        return max((word.top for word in self.words), default=0.0)

    @property
    def bottom(self) -> float:
        """How far the line's ink reaches below its baseline, at 1 pt."""
        return max((word.bottom for word in self.words), default=0.0)


@dataclass(repr=False, eq=False)
class FittedText(Generic[W]):
    """A text fitted to its box: the size it is printed at and its lines."""

    size: float
    lines: tuple[Line[W], ...]


def fit_line(paragraphs: Sequence[Sequence[W]], width: float, height: float, size: float,
             min_size: float, leading: float, metrics: Metrics) -> FittedText[W] | None:
    """Each paragraph on one line (no wrapping), at the largest size up to ``size`` that fits."""
    lines = tuple(_unwrapped(words) for words in paragraphs)
    limit = size
    natural = max((line.width(1.0) for line in lines), default=0.0)
    if natural > 0:
        limit = min(limit, width / natural)
    tall = block_height(lines, 1.0, leading, metrics)
    if tall > 0:
        limit = min(limit, height / tall)
    if limit >= size:
        return FittedText(size, lines)
    fitting = math.floor(limit / SIZE_STEP + EPSILON) * SIZE_STEP  # round down to a whole step
    if fitting < min_size - EPSILON:
        return None
    return FittedText(fitting, lines)


def fit_wrapped(paragraphs: Sequence[Sequence[W]], width: float, height: float, size: float,
                min_size: float, leading: float, metrics: Metrics) -> FittedText[W] | None:
    """Paragraphs wrapped at spaces, at the largest size that fits the box."""
    current = size
    while current >= min_size - EPSILON:
        lines = wrap(paragraphs, width, current)
        if lines is not None and block_height(lines, current, leading, metrics) <= height + EPSILON:
            return FittedText(current, lines)
        current -= SIZE_STEP
    return None


def overflowing(paragraphs: Sequence[Sequence[W]], width: float, min_size: float,
                wrapped: bool) -> FittedText[W]:
    """What a draft prints when nothing fits: the minimum size, wrapped as well as it goes."""
    if not wrapped:
        return FittedText(min_size, tuple(_unwrapped(words) for words in paragraphs))
    lines = wrap(paragraphs, width, min_size, allow_overflow=True)
    assert lines is not None  # allowed to overflow, every word finds a line
    return FittedText(min_size, lines)


def _unwrapped(words: Sequence[W]) -> Line[W]:
    """A paragraph on one line of its own."""
    return Line((), True, rule=True) if isinstance(words, Rule) else Line(tuple(words), True)


def block_height(lines: Sequence[Line[W]], size: float, leading: float, metrics: Metrics) -> float:
    """From the top of the first line's ink to the bottom of the last's: the font's ascent and
    descent, or further where the glyphs printed reach further (an accent on a capital, an
    inline icon taller than the letters), so fitted text never prints outside its box."""
    if not lines:
        return 0.0
    ink = first_ascent(lines, metrics) + last_descent(lines, metrics)
    return ink * size + line_offsets(lines, leading)[-1] * leading * size


def first_ascent(lines: Sequence[Line[W]], metrics: Metrics) -> float:
    """From the first line's baseline up to the top of the block, at 1 pt."""
    return max(metrics.ascent, lines[0].top) if lines else metrics.ascent


def last_descent(lines: Sequence[Line[W]], metrics: Metrics) -> float:
    """From the last line's baseline down to the bottom of the block, at 1 pt."""
    return max(metrics.descent, lines[-1].bottom) if lines else metrics.descent


def line_offsets(lines: Sequence[Line[W]], leading: float) -> list[float]:
    """How far each line's baseline lies below the first's, in lines of ``leading``: one a line,
    :data:`RULE_STEP` into and out of a rule, and more where a line's ink would meet the next's
    (a tall inline icon's line is as tall as the icon, so it never prints over a neighbour)."""
    offsets, offset = [], 0.0
    for index, line in enumerate(lines):
        if index:
            before = lines[index - 1]
            if line.rule or before.rule:
                offset += RULE_STEP
            else:
                offset += max(1.0, (before.bottom + line.top) / leading) if leading > 0 else 1.0
        offsets.append(offset)
    return offsets


def wrap(paragraphs: Sequence[Sequence[W]], width: float, size: float,
         allow_overflow: bool = False) -> tuple[Line[W], ...] | None:
    """Greedy word wrap keeping line breaks: each line as long as it can be; None when one word
    (one syllable, where soft hyphens cut a word) does not fit a line of its own (unless
    ``allow_overflow``, when it stands alone on a line)."""
    limit = width / size + EPSILON
    lines: list[Line[W]] = []
    for words in paragraphs:
        if not words:  # an empty paragraph, or a rule: a line of its own
            lines.append(_unwrapped(words))
            continue
        start, count = 0, len(words)
        while start < count:
            end = _line_end(words, start, limit)
            if end == start:
                if not allow_overflow:
                    return None
                end = start + 1
            lines.append(Line(tuple(words[start:end]), end == count))
            start = end
    while lines and not lines[-1].words and not lines[-1].rule:
        lines.pop()
    return tuple(lines)


def _line_end(words: Sequence[W], start: int, limit: float) -> int:
    """Where the line that begins with ``words[start]`` ends: after the last word it may end
    with and stay within ``limit`` (``start`` when not even the first fits).

    A line may end after any word; it then holds that word's hyphen too (when a soft hyphen
    ends the word), so the last syllable that fits may not be where it ends, and the words
    are read on until their own widths pass the limit."""
    word = words[start]
    used = word.width  # the first word's space stays at the line break
    if used > limit:
        return start
    end = start + 1 if used + word.hyphen <= limit else start
    for index in range(start + 1, len(words)):
        word = words[index]
        if used + word.space + word.width > limit:
            break
        used += word.space + word.width
        if used + word.hyphen <= limit:
            end = index + 1
    return end
