"""A partial print run, and a reprint's instructions: the pages in front of its sheets.

A build may print only some copies of a deck (:class:`PrintRun`): those a selector
picks, or what a printed copy of an older iteration lacks. The sheets then hold an
ordinary, smaller deck: the run is a choice of copies made before imposition, so the
grid, marks, duplex mirroring and cut file are those of any build. Faces are still drawn
from the whole deck, so a face that prints its card's count or the deck's total prints
what the deck says, not what the run holds.

A reprint comes with its :class:`Instructions`: what to take out of the printed deck
(cards removed, copies that now print differently, copies past a count that went down)
and what the new sheets add, by title and count. :func:`instruction_pages` lays them out
(pure geometry: text lines at positions), as many pages as the lists need; printed
double-sided, each such page is followed by a back that holds only its footer, so the
sheets after them keep the order their backs need, and a printer that leaves out empty
pages still prints it. Folded sheets (``--duplex fold``) and single-sided ones
(``--duplex none``) are printed on one side only, so they need no blank backs.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from generator.errors import plural
from generator.sheets.style import MM, Paper

DUPLEX_WITH_BACKS = ("long", "short")
"""Duplex modes printed on both sides of the paper: their instruction pages need blank backs."""

MARGIN = 18 * MM
"""Distance from the paper's edges to the instructions' text (the footer stays below it)."""
HEADING_SIZE = 16.0
SECTION_SIZE = 11.0
TEXT_SIZE = 9.5
NOTE_SIZE = 8.5
NOTE_GRAY = 0.35
LEADING = 1.3
"""Line height as a multiple of the type size."""
COUNT_COLUMN = 16 * MM
"""Width of the column of counts (``12 ×``), right-aligned against the titles."""
TITLE_SHARE = 0.5
"""How much of the width right of the counts the titles take; the notes take the rest."""
GAP = 2 * MM
"""Space between columns, and above a section's heading."""
TITLE_SHOWN = 200
"""Characters of a title a row shows; a longer one is cut, so one row cannot outgrow a page."""


@dataclass(frozen=True, eq=False, repr=False)
class Entry:
    """One line of the instructions: copies of one card to take out or to put in."""

    card: str
    title: str
    """The card's title, control characters already escaped (it is printed and listed)."""
    copies: int
    why: str
    """For tools: "removed", "stale", "surplus" (taken out), "new", "redrawn", "more copies" (added)."""
    note: str
    """The why in words, for the page: ``no longer in the deck``, ``the deck now has 3``."""
    numbers: tuple[int, ...] = ()
    """The copy numbers printed, for the cards added (as the manifest's placements number them)."""

    def as_json(self) -> dict[str, Any]:
        shown: dict[str, Any] = {"card": self.card, "title": self.title, "copies": self.copies, "why": self.why}
        if self.numbers:
            shown["copy_numbers"] = list(self.numbers)
        return shown


@dataclass(frozen=True, eq=False, repr=False)
class Instructions:
    """What turns the printed copy of an older iteration into the deck these sheets belong to."""

    deck_name: str
    basis: dict[str, str]
    """What the printed copy is: ``{"since": "HEAD"}`` (a git revision) or ``{"from": "game.json"}``
    (the manifest of the build that printed it)."""
    old_version: str | None
    new_version: str | None
    take_out: tuple[Entry, ...]
    add: tuple[Entry, ...]
    cards_after: int
    """The cards in the deck once the old copies are out and the new ones in."""

    @property
    def cards_taken_out(self) -> int:
        return sum(entry.copies for entry in self.take_out)

    @property
    def cards_added(self) -> int:
        return sum(entry.copies for entry in self.add)

    def basis_text(self) -> str:
        """``since HEAD`` or ``since the build of game.json``."""
        if "since" in self.basis:
            return f"since {self.basis['since']}"
        return f"since the build that wrote {self.basis.get('from', 'the old manifest')}"

    def as_json(self, pages: int) -> dict[str, Any]:
        """The manifest's ``reprint`` section: the same lists as the pages, and how many pages they take."""
        return {**self.basis, "old_version": self.old_version, "new_version": self.new_version,
                "take_out": [entry.as_json() for entry in self.take_out],
                "add": [entry.as_json() for entry in self.add],
                "cards_taken_out": self.cards_taken_out, "cards_added": self.cards_added,
                "cards_after": self.cards_after, "instruction_pages": pages}

    def alphabet(self) -> str:
        """Every character the pages can show (to choose a font that has them all)."""
        return "".join(self.paragraphs("", True).values()) + "".join(
            entry.title + entry.note for entry in (*self.take_out, *self.add)) + "0123456789 ×(continued)"

    def paragraphs(self, printing: str, blank_backs: bool) -> dict[str, str]:
        """The text around the lists, by where it goes: "intro" under the heading, "out" and "in" the
        sections' headings, "end" after them."""
        versions = ""
        if self.new_version and self.old_version and self.old_version != self.new_version:
            versions = f" The printed copy is version {self.old_version}; these sheets print version " \
                       f"{self.new_version} in small type on every face, so new cards and old are told apart."
        elif self.new_version:
            versions = f" These sheets print version {self.new_version} in small type on every face."
        out = (f"1. Take out of the printed deck: {plural(self.cards_taken_out, 'card')}" if self.take_out
               else "1. Nothing to take out of the printed deck.")
        put = f"2. Put in the cards of the sheets that follow: {plural(self.cards_added, 'card')}"
        end = f"Then the deck holds {plural(self.cards_after, 'card')}."
        if printing:
            end += f" Print the sheets that follow as the first copy was printed ({printing})."
        if blank_backs:
            end += " Each page of these instructions has a blank back, so the sheets keep their duplex order."
        return {"intro": f"What changed {self.basis_text()}.{versions}", "out": out, "in": put, "end": end}


@dataclass(frozen=True, eq=False, repr=False)
class PrintRun:
    """The copies a build prints when it prints not the whole deck."""

    copies: Mapping[str, tuple[int, ...]]
    """Card id -> the copy numbers to print (as a full build numbers them), in deck order."""
    part: str
    """What the output files are called after the deck's name: ``reprint``, ``only``."""
    instructions: Instructions | None = None
    """For a reprint, what its first pages and the manifest's ``reprint`` section say."""
    only: tuple[str, ...] = ()
    """The selectors that chose the copies (``--only``), for the manifest."""

    @property
    def cards(self) -> int:
        return sum(len(numbers) for numbers in self.copies.values())


@dataclass(frozen=True, eq=False, repr=False)
class Label:
    """A line of text on an instruction page or a calibration sheet: its baseline start (its right
    end for "right", its middle for "centre"), and whether it runs upwards (a calibration ladder's
    numbers do), turned a quarter turn about that point."""

    text: str
    x: float
    y: float
    size: float
    gray: float = 0.0
    align: str = "left"
    upright: bool = False


@dataclass
class _Block:
    """Lines that stay together on one page, measured from their top."""

    height: float
    labels: list[Label] = field(default_factory=list)
    section: str | None = None
    """The section's heading the block belongs under (repeated on a page it continues on)."""


def instruction_pages(instructions: Instructions, paper: Paper, font: str, bottom: float,
                      printing: str = "", blank_backs: bool = False) -> tuple[tuple[Label, ...], ...]:
    """The instructions laid out on pages of ``paper`` in ``font``, above the height ``bottom``
    (where the footer begins): one tuple of labels a page, at least one page. A list too long
    for a page continues on the next, its heading repeated with "(continued)"."""
    width = paper.width - 2 * MARGIN
    top = paper.height - MARGIN
    floor = bottom + MARGIN / 2
    pages: list[list[Label]] = []
    y = top
    fresh = True
    """Whether the page holds nothing but its headings (a block goes on it however tall)."""

    def place(block: _Block) -> None:
        nonlocal y
        pages[-1].extend(Label(label.text, label.x, y - label.y, label.size, label.gray, label.align)
                         for label in block.labels)
        y -= block.height

    def new_page(heading: str, section: str | None = None) -> None:
        nonlocal y, fresh
        pages.append([])
        y, fresh = top, True
        place(_text_block(heading, font, HEADING_SIZE, width))
        if section is not None:
            place(_text_block(f"{section} (continued)", font, SECTION_SIZE, width, space=2 * GAP))

    new_page(f"Reprint of {instructions.deck_name}")
    for block in _blocks(instructions, font, width, printing, blank_backs):
        if y - block.height < floor and not fresh:
            new_page(f"Reprint of {instructions.deck_name} (continued)", block.section)
        place(block)
        fresh = False
    return tuple(tuple(page) for page in pages)


def _blocks(instructions: Instructions, font: str, width: float, printing: str,
            blank_backs: bool) -> Iterator[_Block]:
    words = instructions.paragraphs(printing, blank_backs)
    yield _text_block(words["intro"], font, TEXT_SIZE, width, space=GAP)
    for key, entries in (("out", instructions.take_out), ("in", instructions.add)):
        yield _text_block(words[key], font, SECTION_SIZE, width, space=2 * GAP)
        for entry in entries:
            yield _row(entry, font, width, words[key])
    yield _text_block(words["end"], font, TEXT_SIZE, width, space=2 * GAP)


def _text_block(text: str, font: str, size: float, width: float, space: float = 0.0) -> _Block:
    """A paragraph wrapped to ``width`` (a word wider than it broken inside), ``space`` above it."""
    lines = _wrapped(text, font, size, width)
    labels = [Label(line, MARGIN, space + size + index * size * LEADING, size) for index, line in enumerate(lines)]
    return _Block(space + size + (len(lines) - 1) * size * LEADING + size * (LEADING - 1), labels)


def _row(entry: Entry, font: str, width: float, section: str) -> _Block:
    """``3 ×  Ogre  prints differently now``: the count right-aligned, title and note each wrapped in its column."""
    title_width = (width - COUNT_COLUMN - 2 * GAP) * TITLE_SHARE
    note_width = width - COUNT_COLUMN - 2 * GAP - title_width
    title = entry.title if len(entry.title) <= TITLE_SHOWN else entry.title[:TITLE_SHOWN - 3] + "..."
    title_lines = _wrapped(title, font, TEXT_SIZE, title_width)
    note_lines = _wrapped(entry.note, font, NOTE_SIZE, note_width)
    space = TEXT_SIZE * (LEADING - 1)
    labels = [Label(f"{entry.copies} ×", MARGIN + COUNT_COLUMN, space + TEXT_SIZE, TEXT_SIZE, align="right")]
    labels += [Label(line, MARGIN + COUNT_COLUMN + GAP, space + TEXT_SIZE + index * TEXT_SIZE * LEADING, TEXT_SIZE)
               for index, line in enumerate(title_lines)]
    left = MARGIN + COUNT_COLUMN + 2 * GAP + title_width
    labels += [Label(line, left, space + TEXT_SIZE + index * NOTE_SIZE * LEADING, NOTE_SIZE, NOTE_GRAY)
               for index, line in enumerate(note_lines)]
    height = space + max(TEXT_SIZE + (len(title_lines) - 1) * TEXT_SIZE * LEADING,
                         TEXT_SIZE + (len(note_lines) - 1) * NOTE_SIZE * LEADING)
    return _Block(height, labels, section)


def _wrapped(text: str, font: str, size: float, width: float) -> list[str]:
    """``text`` in lines no wider than ``width``; a word wider than the column is broken inside."""
    lines: list[str] = []
    for line in simpleSplit(text, font, size, width) or [""]:
        while pdfmetrics.stringWidth(line, font, size) > width and len(line) > 1:
            cut = len(line)
            while cut > 1 and pdfmetrics.stringWidth(line[:cut], font, size) > width:
                cut -= 1
            lines.append(line[:cut])
            line = line[cut:]
        lines.append(line)
    return lines


def draw_labels(canvas: Canvas, labels: Iterable[Label], font: str) -> None:
    """Draw labels in ``font``: an instruction page's (a form's drawing, see
    :mod:`generator.sheets.forms`) or a calibration sheet's."""
    for label in labels:
        canvas.setFont(font, label.size)
        canvas.setFillGray(label.gray)
        draw = {"left": canvas.drawString, "right": canvas.drawRightString,
                "centre": canvas.drawCentredString}[label.align]
        if not label.upright:
            draw(label.x, label.y, label.text)
            continue
        canvas.saveState()
        canvas.translate(label.x, label.y)
        canvas.rotate(90)
        draw(0, 0, label.text)
        canvas.restoreState()
