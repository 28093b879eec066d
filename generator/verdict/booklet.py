"""What ``deckpress booklet`` would refuse in a deck's rules file, found without making the booklet.

The rules file is read as the booklet reads it, by the booklet's own reader
(:class:`generator.booklet.blocks.Reader`), which here keeps every problem instead of
stopping at the first: every directive readable and filled in from the deck, every
character printable in the booklet font (the rules file's, and those of every text the
booklet prints from the deck and its translation: the cover, the phrases, what a block
directive shows), every word and heading within its length, every
image a readable picture inside the deck folder. This adds what the booklet finds while
drawing: every block directive on a line of its own with its options, fields, decklists
and cards in order, and every table narrow enough for the page. The measures are the
default paper's (A4), as ``booklet`` uses without ``--paper``.

Whether a table row, an example box or a row of cards is taller than a page is the
booklet's own measurement (its converter builds and measures the block), asked only of
blocks that a cheap bound (:func:`_could_outgrow_page`) cannot clear: laying blocks out
needs platypus, which ordinary rules never load.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from generator.booklet import blocks, read_rules, rules_path
from generator.booklet.blocks import Reader
from generator.booklet.directives import (
    Directive,
    ExpandedSource,
    captions_words,
    card_reference,
    card_table_columns,
    column_header,
    directive_table,
    expand_inline,
)
from generator.booklet.limits import (
    MAX_HEADING_LENGTH,
    MAX_WORD_LENGTH,
    check_columns,
    check_table_rows,
    column_need,
    cover_problems,
    phrase_problems,
)
from generator.booklet.style import TextBounds, font_has_glyph, load_style, text_bounds, to_points
from generator.deck.model import Deck
from generator.errors import InputError
from generator.findings import Finding, findings_from
from generator.render.markup import ICON_PATTERN

if TYPE_CHECKING:
    from generator.booklet.cards import Renderer
    from generator.booklet.markdown import Converter

DEFAULT_PAPER = "a4"

ASCII_WIDTHS = (
    0.35, 0.46, 0.53, 0.84, 0.7, 1.01, 0.88, 0.31, 0.46, 0.46, 0.53, 0.84, 0.38, 0.42, 0.38, 0.37, 0.7, 0.7,
    0.7, 0.7, 0.7, 0.7, 0.7, 0.7, 0.7, 0.7, 0.4, 0.4, 0.84, 0.84, 0.84, 0.59, 1.0, 0.78, 0.77, 0.74, 0.84,
    0.69, 0.69, 0.83, 0.84, 0.38, 0.38, 0.78, 0.64, 1.0, 0.84, 0.86, 0.74, 0.86, 0.78, 0.73, 0.69, 0.82, 0.78,
    1.11, 0.78, 0.73, 0.73, 0.46, 0.37, 0.46, 0.84, 0.5, 0.5, 0.68, 0.72, 0.6, 0.72, 0.68, 0.44, 0.72, 0.72,
    0.35, 0.35, 0.67, 0.35, 1.05, 0.72, 0.69, 0.72, 0.72, 0.5, 0.6, 0.48, 0.72, 0.66, 0.93, 0.65, 0.66, 0.59,
    0.72, 0.37, 0.72, 0.84,
)
"""Each printable ASCII character's widest advance in the booklet's four Vera faces, in ems,
rounded up (``ASCII_WIDTHS[ord(char) - 32]``): a word is at most the sum of its characters'
widths times the font size, whatever style it is set in. Read from the fonts by a test that
keeps this table true; check uses it so that it need not read the fonts themselves."""


WIDEST_GLYPH = max(ASCII_WIDTHS)
"""The widest printable ASCII character of the booklet's fonts (Vera Bold's W), in ems: a line
of N such characters is at most N times this times the font size wide."""


def word_width_at_most(word: str, size: float) -> float:
    """How wide ``word`` (printable ASCII) can print at font ``size``, in any booklet style."""
    return sum(ASCII_WIDTHS[ord(char) - 32] for char in word) * size


CARD_SHARE_MEASURED = 0.5
"""A row of cards whose card alone takes more than this share of the page height is measured
(the caption under it takes the rest); smaller cards always fit."""

QUOTE_LINE = re.compile(r"^ {0,3}>", re.MULTILINE)
MARKERS = re.compile(r"^(\s*(>|[-*+]|\d+[.)])(?=\s|$))*\s*")
"""Block quote and list markers at the start of a source line, which print no text."""


def booklet_findings(deck: Deck, renderer: Renderer | None = None) -> list[Finding]:
    """Every problem ``booklet`` would stop at in the deck's rules file, which the deck has
    (:func:`~generator.deck.model.has_rules_file`). ``renderer`` (the deck's card renderer)
    gives the card size rows of cards are measured at; without it they are not measured (the
    layouts could not be read, which is reported)."""
    path = rules_path(deck)
    try:
        text = read_rules(deck)
    except InputError as error:
        return findings_from(error, "booklet")
    problems = cover_problems(deck, _printable) + phrase_problems(deck, _printable)
    bounds = text_bounds(DEFAULT_PAPER)
    source = expand_inline(text, path, deck, problems)
    reader = Reader(deck.folder, path, source, _printable, problems,
                    icons=None if renderer is None else lambda: renderer.icons)
    if _plain(source, _printable, bounds):
        source.used.update(source.blocks)  # each stands alone in a top-level paragraph
        found: Iterable[blocks.Block] = source.blocks.values()
    else:
        found = reader.document()
    walk = _Walk(deck, reader, bounds, renderer)
    walk.walk(found, bounds.width)
    reader.stranded()
    return [finding for error in problems for finding in findings_from(error, "booklet")] + walk.untranslated


def _printable(character: str) -> bool:
    """Whether the booklet can print ``character``. Its body font has every printable ASCII
    character, so rules written in plain ASCII never load the booklet's fonts."""
    return " " <= character <= "~" or font_has_glyph(character)


def _underline(lines: list[str], number: int) -> bool:
    """Whether the line after ``number`` underlines it as a heading (=== or ---)."""
    following = lines[number + 1].strip() if number + 1 < len(lines) else ""
    return bool(following) and (set(following) <= {"="} or set(following) <= {"-"})


MARKDOWN_THAT_MATTERS = ("![", "|", "&", "```", "~~~")
"""Images, tables, character references and fenced code: only a Markdown parse can tell
where these stand and what they print."""


def _plain(source: ExpandedSource, printable: Callable[[str], bool], bounds: TextBounds) -> bool:
    """Whether the rules file's Markdown structure cannot change what the booklet refuses, so
    the parse (and importing the Markdown library) can be skipped: every character prints,
    nothing in :data:`MARKDOWN_THAT_MATTERS` and no icon appears, every example box surely fits a page
    (given ``bounds``), and every block directive stands
    unindented on a line of its own between blank lines, which CommonMark always reads as a
    paragraph of its own at the top level."""
    text = source.text
    if any(marker in text for marker in MARKDOWN_THAT_MATTERS) or ICON_PATTERN.search(text):
        return False  # an icon: only the parse tells it from code or an escaped colon
    box_width = bounds.width - bounds.box_inset
    if any(QUOTE_LINE.search(chunk) and _could_outgrow_page(chunk, box_width, bounds)
           for chunk in re.split(r"\n[ \t]*\n", text)):
        return False  # a blank line ends a quote, so each lies within one chunk
    if not all(printable(character) for character in set(text) - set("\n\t")):
        return False
    lines = text.splitlines()
    if any(len(word) > MAX_WORD_LENGTH for word in text.split()) or any(
            len(line) > MAX_HEADING_LENGTH and (line.lstrip().startswith("#") or _underline(lines, number))
            for number, line in enumerate(lines)):
        return False  # an overlong word or heading: the parse finds and places it
    for number, directive in source.blocks.items():
        before = lines[number - 2] if number > 1 else ""
        after = lines[number] if number < len(lines) else ""
        if lines[number - 1].rstrip() != directive.source or before.strip() or after.strip():
            return False
    return True


def _could_outgrow_page(text: str, width: float, bounds: TextBounds) -> bool:
    """Whether the block whose source is ``text``, printed ``width`` points wide, might be taller
    than a page: False only when an over-estimate of its height fits. Each source line is a
    paragraph of its own (headings at the largest heading's size) wrapped greedily, so every
    wrapped line but the last is filled to within a word of the width. Pictures, directives
    and characters beyond ASCII (other fonts, other widths) always need the measurement."""
    if "{{" in text or "![" in text or not text.isascii():
        return True
    height = 0.0
    for line in text.splitlines():
        shown = MARKERS.sub("", line)
        size, leading, spacing = bounds.heading if shown.startswith("#") else bounds.body
        lines = _lines_at_most(shown, width - 2 * bounds.list_indent, size)
        height += lines * leading + spacing if lines else 0
    return height > bounds.page_height


def _lines_at_most(text: str, width: float, size: float) -> int:
    """The most lines ``text`` can wrap to in ``width`` points at font ``size``."""
    words = text.split()
    if not words:
        return 0
    em = size * WIDEST_GLYPH
    room = width - max(len(word) for word in words) * em - em
    if room < width / 4:
        return len(words)  # long words: at worst one a line
    return 1 + math.ceil(len(text) * em / room)


def _cells_could_outgrow_page(cells: Iterable[str], bounds: TextBounds) -> bool:
    """Whether a table row holding one of ``cells`` might be taller than a page: a column
    may be as narrow as one word, so a cell takes at most a line a word (and two for padding)."""
    _, leading, _ = bounds.table
    return any((len(cell.split()) + 2) * leading > bounds.page_height for cell in cells)


def _untranslated_headers(directive: Directive, deck: Deck) -> list[Finding]:
    """A card table of a translated booklet whose headers are the deck's field names, which are
    in the deck's own language (its ``count`` and ``decklist:`` columns are named in the
    booklet's language): ``headers=`` gives them in the translation's."""
    if deck.translation is None or directive.name != "cardtable" or "headers" in directive.options:
        return []
    named = [column_header(name) for name in card_table_columns(directive, deck)
             if name != "count" and not name.startswith("decklist:")]
    if not named:
        return []
    return [Finding(kind="translation", position=directive.position, message=(
        f"the card table's headers would print the deck's field names ({', '.join(named)}) untranslated; "
        f"give them in this language with headers=\"...\""))]


def _words_could_outgrow_width(rows: Iterable[Iterable[str]], width: float, bounds: TextBounds,
                               shares: tuple[float, ...] | None = None) -> bool:
    """Whether a table of cells ``rows`` (their source text) might not hold each column's longest
    word whole ``width`` points wide (each column in its share of it, given ``shares``): False
    only when an over-estimate of each word's width fits. Characters beyond ASCII (other fonts,
    other widths) always need the measurement."""
    size, _, _ = bounds.table
    longest: dict[int, float] = {}
    for row in rows:
        for index, cell in enumerate(row):
            if not cell.isascii() or not cell.isprintable():
                return True
            longest[index] = max([longest.get(index, 0.0)] + [word_width_at_most(word, size) for word in cell.split()])
    # Every column of the widest row, empty ones too, as the booklet measures it.
    needs = [column_need(longest.get(index, 0.0)) for index in range(max(longest, default=-1) + 1)]
    if shares is None:
        return sum(needs) > width
    return any(need > width * share for need, share in zip(needs, shares, strict=False))


class _NoRenderer(Exception):
    """The card layouts could not be read (which is reported), so no card can be measured."""


@dataclass(repr=False, eq=False)
class _Walk:
    """One pass over a rules file's blocks, keeping every problem it meets."""

    deck: Deck
    reader: Reader
    """Reads the blocks, keeping the problems of their texts and pictures (and those found here)."""
    bounds: TextBounds
    renderer: Renderer | None = None
    converters: dict[float, Converter] = field(default_factory=dict)
    untranslated: list[Finding] = field(default_factory=list)
    """What a translated booklet would print in the deck's own language (as ``check --lang``
    reports a card's untranslated text)."""

    def measure(self, width: float, build: Callable[[Converter], object]) -> None:
        """Build a block as the booklet does, ``width`` points wide, which measures it; keep its
        refusal unless it is one already found (the booklet's converter stops at the first)."""
        try:
            build(self.converter(width))
        except InputError as error:
            if (error.message, error.position) not in {(found.message, found.position)
                                                       for found in self.reader.problems or ()}:
                self.reader.keep(error)
        except _NoRenderer:
            pass

    def converter(self, width: float) -> Converter:
        from generator.booklet.markdown import Converter  # noqa: PLC0415  (it loads platypus, 60 ms; few rules need it)

        if width not in self.converters:
            self.converters[width] = Converter(self.deck, load_style(), self.reader.path, self.reader.source, width,
                                               self.bounds.page_height, self.card_renderer,
                                               lambda: self.card_renderer().icons, check_faces=False)
        return self.converters[width]

    def card_renderer(self) -> Renderer:
        if self.renderer is None:
            raise _NoRenderer
        return self.renderer

    # --- blocks ---------------------------------------------------------------

    def walk(self, found: Iterable[blocks.Block], width: float) -> None:
        """Measure what the reader cannot: whether a table fits the page's width, and whether
        a table row, an example box or a directive's block fits a page."""
        for block in found:
            match block:
                case Directive():
                    self.reader.attempt(self.directive, block, width)
                case blocks.ListBlock():
                    for item in block.items:
                        self.walk(self.reader.read(item), width)
                case blocks.Table():
                    self.table(block, width)
                case blocks.Quote():
                    self.quote(block, width)

    def quote(self, quote: blocks.Quote, width: float) -> None:
        self.walk(self.reader.read(quote.body), width - self.bounds.box_inset)
        start, end = quote.span or (0, 1)
        if _could_outgrow_page("\n".join(self.reader.lines[start:end]), width - self.bounds.box_inset, self.bounds):
            self.measure(width, lambda converter: converter.example_box(quote, 0))

    def table(self, table: blocks.Table, width: float) -> None:
        rows = self.reader.rows(table)
        self.reader.attempt(check_columns, max((len(row.cells) for row in rows), default=0), width, table.position)
        sources = [[cell.source for cell in row.cells] for row in rows]
        if _cells_could_outgrow_page([cell for row in sources for cell in row], self.bounds) or \
                _words_could_outgrow_width(sources, width, self.bounds):
            self.measure(width, lambda converter: converter.table(table))

    def directive(self, directive: Directive, width: float) -> None:
        """What a block directive's block would be refused for: its options, fields, decklists,
        cards and table, and (measured, when it might be) a height taller than a page."""
        if directive.name == "pagebreak":
            return
        check = self.cards if directive.name == "cards" else self.directive_table
        if check(directive, width):
            self.measure(width, lambda converter: converter.directive_block(directive))

    def cards(self, directive: Directive, width: float) -> bool:
        """Check a ``{{ cards }}``; whether its row of cards might be taller than a page."""
        sides, _, cards = card_reference(directive, self.deck, width)
        self.reader.directive_text(captions_words(self.deck, cards, sides), directive)
        if self.renderer is None:
            return False
        card_width, card_height = self.renderer.card_size
        shown = to_points(directive.options["width"], "width") if "width" in directive.options else \
            self.bounds.card_width
        return shown * card_height / card_width > self.bounds.page_height * CARD_SHARE_MEASURED

    def directive_table(self, directive: Directive, width: float) -> bool:
        """Check a table directive's texts, rows and columns; whether a row might be taller than a page."""
        table = directive_table(directive, self.deck)
        self.reader.directive_text(" ".join(table.printed), directive)
        self.untranslated += _untranslated_headers(directive, self.deck)
        check_table_rows(len(table.rows), directive.position, directive.name)
        check_columns(len(table.headers), width, directive.position, directive.name)
        columns = [table.headers] + [[f"{cell.text} {cell.note}" if cell else "" for cell in row] for row in table.rows]
        return _cells_could_outgrow_page([text for row in columns for text in row], self.bounds) or \
            _words_could_outgrow_width(columns, width, self.bounds, table.shares)
