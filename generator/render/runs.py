"""Styled runs: markup spans given the font that draws them, their colour and their width.

A text element's markup (:mod:`generator.render.markup`) becomes paragraphs of
:class:`Word`: the stretches between spaces, where a line may break. A word
is one or more :class:`Run` (a bold stem and a regular ending, a figure beside
an icon). Widths are measured at 1 pt: every width grows in proportion to the
type size, so fitting tries a size by multiplying, never by measuring again.

A soft hyphen (U+00AD, :data:`SOFT_HYPHEN`) cuts a word into syllables, each a
:class:`Word`, the next with no space before it, each but the last holding the
hyphen a line that breaks after it prints. No run holds the soft hyphen itself,
so it never prints and takes no width; a span without one is cut at spaces only.

:class:`SpanFonts` is the only place that decides which font draws a run: the
font the span's style and markup ask for, or, character by character, the first
font of the element's fallback list (``font: [Vera, DejaVuSans]``) that has it.

An icon's label (``:coin{2}:``) is set in the bold face of the text around it
(its own face where bold cannot set it), measured here as a :class:`Label`, on
cards and in rules booklets alike; where it sits in the icon is the icon stage's
(:func:`~generator.render.icons.label_place`).
A rule (``---``) is a paragraph of its own, :data:`~generator.render.text.RULE`.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from generator.errors import did_you_mean, printable
from generator.render.fonts import FontRegistry, MissingFace, ink_extent
from generator.render.markup import Markup, Span
from generator.render.text import RULE

ICON_MARGIN = 0.12
"""Space (in ems) either side of an inline icon, so it does not touch a figure glued to it."""
_SPACES = re.compile(r"( +)")
SOFT_HYPHEN = "\u00ad"
"""Where a line may break inside a word (German and Dutch designers type it); invisible unless
the line breaks there, when the line ends with a hyphen ``-``."""


class ShapeError(ValueError):
    """Text that cannot be set: an unknown icon or style, a missing face or glyph.

    ``token`` is the markup at fault (``:coyn:``), when one is, so the caller can
    tell whether it came from a card's field or from the layout.
    """

    def __init__(self, message: str, token: str | None = None, hint: str = "") -> None:
        super().__init__(message + hint)
        self.message = message
        self.token = token
        self.hint = hint


@dataclass(repr=False, eq=False)
class NamedStyle:
    """A layout's ``styles:`` entry, used in text as ``[Burn]{.burn}``."""

    font: str | None = None
    bold: bool = False
    italic: bool = False
    colour: Any = None  # a Paint, resolved per face
    fallback: tuple[str, ...] = ()  # fonts for characters ``font`` lacks


@dataclass(repr=False, eq=False)
class Label:
    """The text an inline icon shows, measured at 1 pt: its pieces (font as registered with
    reportlab, text, width), as :func:`~generator.render.icons.draw_label` draws them, and the
    cap height of its first font."""

    pieces: tuple[tuple[str, str, float], ...]
    cap_height: float

    @property
    def width(self) -> float:
        return sum(width for *_, width in self.pieces)


@dataclass(repr=False, eq=False)
class Run:
    """Text in one font and colour, or one inline icon (``icon`` set, ``text`` empty) with
    the label it shows, if any."""

    text: str
    font: str  # as registered with reportlab
    colour: Any  # a reportlab Color, or None for the element's own colour
    width: float  # at 1 pt
    icon: Any = None  # an icon from the layout's icons
    label: Label | None = None
    top: float = 0.0  # at 1 pt, how far its ink (its glyphs, or the icon) reaches above the baseline
    bottom: float = 0.0  # at 1 pt, how far it reaches below the baseline


@dataclass(repr=False, eq=False)
class Word:
    """Runs with no space between them; ``space`` is the space before the word (width at 1 pt),
    0 for a syllable after a soft hyphen, which goes on the word before it.

    A word that a soft hyphen ends holds ``hyphen_runs``, the hyphen printed after it when a
    line breaks there, and ``hyphen``, their width at 1 pt (0 for every other word)."""

    runs: tuple[Run, ...]
    width: float
    space: float = 0.0
    hyphen: float = 0.0
    hyphen_runs: tuple[Run, ...] = ()

    @property
    def top(self) -> float:
        """How far the word's ink reaches above the baseline, at 1 pt (its hyphen's too)."""
        return max((run.top for run in self.runs + self.hyphen_runs), default=0.0)

    @property
    def bottom(self) -> float:
        """How far the word's ink reaches below the baseline, at 1 pt."""
        return max((run.bottom for run in self.runs + self.hyphen_runs), default=0.0)


Paragraph = tuple[Word, ...]
"""The words of one line of the text, or :data:`~generator.render.text.RULE` for a rule."""


@dataclass(repr=False, eq=False)
class TextSettings:
    """What an element and its layout say about setting its text."""

    font: str
    icon_scale: float
    styles: dict[str, NamedStyle]
    style_colours: dict[str, Any]  # style name -> resolved colour for this face
    icons: dict[str, Any]
    fallback: tuple[str, ...] = ()  # fonts for characters ``font`` lacks, in order


@dataclass(repr=False, eq=False)
class SpanFonts:
    """The fonts that may draw one span, in order: ``families``, each in the face ``bold`` and
    ``italic`` ask for (:meth:`of` gives a span's).

    Each is styled only when a character needs it, so a fallback family without a bold
    face is no error until bold text needs a character from it.
    """

    fonts: FontRegistry
    families: tuple[str, ...]
    bold: bool = False
    italic: bool = False
    _styled: dict[int, str] = field(default_factory=dict, init=False)

    @classmethod
    def of(cls, fonts: FontRegistry, settings: TextSettings, span: Span) -> SpanFonts:
        """A span's fonts: its style's family (or the element's) in the face its markup asks
        for, then the fallback list's families in that face."""
        style = settings.styles.get(span.style) if span.style else None
        families = (style.font, *style.fallback) if style and style.font else (settings.font, *settings.fallback)
        return cls(fonts, families, span.bold or bool(style and style.bold),
                   span.italic or bool(style and style.italic))

    def face(self, index: int) -> str:
        if index not in self._styled:
            try:
                self._styled[index] = self.fonts.styled(self.families[index], self.bold, self.italic)
            except MissingFace as error:
                raise ShapeError(str(error)) from None
        return self._styled[index]

    def pieces(self, text: str) -> list[tuple[str, str]]:
        """``text`` (no spaces) cut where the font drawing it changes: (registry name, text) pieces.

        Each character goes to the first font of the list that has it, so
        ``font: [Vera, DejaVuSans]`` prints "Łódź" as "Ł" in DejaVuSans, "ód" in Vera
        and "ź" in DejaVuSans again. A character no font has raises :class:`ShapeError`.
        """
        first = self.face(0)
        glyphs = self.fonts.font(first).face.charToGlyph
        if all(map(glyphs.__contains__, map(ord, text))):  # the common case, at C speed
            return [(first, text)]
        pieces: list[tuple[str, str]] = []
        for character in text:
            font = self._for_character(character)
            if pieces and pieces[-1][0] == font:
                pieces[-1] = (font, pieces[-1][1] + character)
            else:
                pieces.append((font, character))
        return pieces

    def _for_character(self, character: str) -> str:
        for index in range(len(self.families)):
            if self.fonts.has_glyph(self.face(index), character):
                return self.face(index)
        shown = f"'{character}' (U+{ord(character):04X})"
        if len(self.families) == 1:
            raise ShapeError(f"font '{self.face(0)}' has no glyph for {shown}")
        raise ShapeError(f"no font of [{', '.join(self.families)}] has a glyph for {shown}")


def icon_side(fonts: FontRegistry, font: str, icon_scale: float) -> float:
    """Side of an inline icon's square at 1 pt: the font's cap height, scaled by ``icon_scale``."""
    cap_height: float = fonts.font(font).face.capHeight
    return cap_height / 1000 * icon_scale


MeasuredWords = dict[tuple[Any, ...], tuple[Run, ...]]
"""Runs of each word already measured, by its fonts, styles, colour and text (see :func:`shape_text`)."""


def shape_text(markup: Markup, settings: TextSettings, fonts: FontRegistry,
               measured: MeasuredWords) -> tuple[Paragraph, ...]:
    """``markup`` as paragraphs of measured words; raises :class:`ShapeError`.

    ``measured`` remembers each word's runs for the next texts set with the same
    ``fonts``: card texts repeat their words ("Draw", "monster", a name on every
    card of a kind), so most words are looked up, not cut and measured again.
    """
    check_styles(markup, settings)
    check_direction(markup)
    side = icon_side(fonts, settings.font, settings.icon_scale)
    cap_height = fonts.font(settings.font).face.capHeight / 1000
    return tuple(_paragraph(line, settings, fonts, side, cap_height, measured) for line in markup)


def _paragraph(spans: tuple[Span, ...], settings: TextSettings, fonts: FontRegistry,
               side: float, cap_height: float, measured: MeasuredWords) -> Paragraph:
    if len(spans) == 1 and spans[0].rule:
        return RULE
    words: list[Word] = []
    runs: list[Run] = []
    space = 0.0  # width of the space(s) waiting before the next word

    def close_word() -> None:
        nonlocal runs
        if runs:
            words.append(Word(tuple(runs), sum(run.width for run in runs), space if words else 0.0))
            runs = []
        elif words and words[-1].hyphen_runs:  # a soft hyphen ends the word: no syllable to break before
            words[-1] = replace(words[-1], hyphen=0.0, hyphen_runs=())

    def close_syllable(hyphen: tuple[Run, ...]) -> None:
        """At a soft hyphen: the runs so far become a word that may end a line with ``hyphen``."""
        nonlocal runs, space
        if runs:  # a soft hyphen after a space (or another soft hyphen) breaks nothing new
            words.append(Word(tuple(runs), sum(run.width for run in runs), space if words else 0.0,
                              sum(run.width for run in hyphen), hyphen))
            runs, space = [], 0.0

    for span in spans:
        colour = settings.style_colours.get(span.style) if span.style else None
        if span.fault:
            raise ShapeError(span.fault, span.text)
        if span.icon:
            label = icon_label(span.label, SpanFonts.of(fonts, settings, span)) if span.label else None
            runs.append(_icon_run(span.icon, settings, colour, side, cap_height, label))
            continue
        span_fonts = SpanFonts.of(fonts, settings, span)
        space_font = fonts.font(span_fonts.face(0))
        hyphenated = SOFT_HYPHEN in span.text  # once a span: text without one takes the plain path
        for chunk in _SPACES.split(span.text):
            if not chunk:
                continue
            if chunk.startswith(" "):
                close_word()
                space = space_font.stringWidth(" ", 1.0)  # runs of spaces print as one
                continue
            if hyphenated and SOFT_HYPHEN in chunk:
                hyphen = _word_runs("-", span_fonts, colour, fonts, measured)
                first, *syllables = chunk.split(SOFT_HYPHEN)
                runs.extend(_word_runs(first, span_fonts, colour, fonts, measured) if first else ())
                for syllable in syllables:
                    close_syllable(hyphen)
                    runs.extend(_word_runs(syllable, span_fonts, colour, fonts, measured) if syllable else ())
                continue
            runs.extend(_word_runs(chunk, span_fonts, colour, fonts, measured))
    close_word()
    return tuple(words)


def _word_runs(text: str, span_fonts: SpanFonts, colour: Any, fonts: FontRegistry,
               measured: MeasuredWords) -> tuple[Run, ...]:
    """The runs of one word (``text``, no spaces) in the span's fonts and colour, measured once."""
    key = (span_fonts.families, span_fonts.bold, span_fonts.italic, colour, text)
    runs = measured.get(key)
    if runs is None:
        faces = [(fonts.font(name), piece) for name, piece in span_fonts.pieces(text)]
        runs = measured[key] = tuple(Run(piece, font.fontName, colour, font.stringWidth(piece, 1.0),
                                         top=extent[0], bottom=extent[1])
                                     for font, piece in faces for extent in (ink_extent(font, piece),))
    return runs


def _icon_run(name: str, settings: TextSettings, colour: Any, side: float, cap_height: float,
              label: Label | None) -> Run:
    """An inline icon, ``side`` ems square, centred on the capitals of the element's font."""
    icon = settings.icons.get(name)
    if icon is None:
        # ":name" is what both ":coyn:" and ":coyn{2}:" hold, so the field that has it is found
        raise ShapeError(f"unknown icon ':{name}:'", f":{name}", did_you_mean(name, settings.icons))
    return Run("", "", colour, side + 2 * ICON_MARGIN, icon=icon, label=label,
               top=(cap_height + side) / 2, bottom=max(0.0, (side - cap_height) / 2))


def icon_label(text: str, text_fonts: SpanFonts) -> Label:
    """An icon's label, ``text``, in the bold face of the fonts of the text around it
    (``text_fonts``), measured; in their own face where bold cannot set it (a family without a
    bold face, a character only a regular face has). Raises :class:`ShapeError` when neither can."""
    try:
        pieces = replace(text_fonts, bold=True).pieces(text)
    except ShapeError:
        pieces = text_fonts.pieces(text)
    faces = [(text_fonts.fonts.font(name), part) for name, part in pieces]
    return Label(tuple((font.fontName, part, font.stringWidth(part, 1.0)) for font, part in faces),
                 faces[0][0].face.capHeight / 1000)


RIGHT_TO_LEFT = {"R", "AL"}
"""Bidirectional classes of right-to-left letters (Hebrew; Arabic, Syriac, Thaana)."""


def check_direction(markup: Markup) -> None:
    """Refuses right-to-left letters: lines are set left to right in stored order, unshaped, so
    Hebrew would print backwards and Arabic unjoined. Better refused than printed wrong."""
    for line in markup:
        for span in line:
            for text in (span.text, span.label):
                if text.isascii():  # nearly every text: no character to look up
                    continue
                letter = next((character for character in text
                               if unicodedata.bidirectional(character) in RIGHT_TO_LEFT), None)
                if letter is not None:
                    word = next(part for part in text.split() if letter in part)
                    raise ShapeError(f"right-to-left text ('{printable(word)}', U+{ord(letter):04X}) is not "
                                     "supported yet: Hebrew and Arabic would print in the wrong order", word)


def check_styles(markup: Markup, settings: TextSettings) -> None:
    """Every ``[text]{.name}`` names a style of the layout."""
    for line in markup:
        for span in line:
            if span.style and span.style not in settings.styles:
                known: Iterable[str] = settings.styles or ("(none: add styles: to the layout)",)
                raise ShapeError(f"unknown style '.{span.style}'", f"{{.{span.style}}}",
                                 did_you_mean(span.style, known))
