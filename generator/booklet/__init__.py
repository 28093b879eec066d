"""Rules booklets: a deck's ``rules.md`` -> a reading PDF and a fold-and-staple booklet PDF.

The stages, one module each::

    rules.md --directives--> Markdown with the deck's numbers filled in
             --markdown----> platypus flowables (blocks from the deck for block directives)
             --document----> reading-order pages: cover, contents, page numbers
             --imposition--> two pages a side, in saddle-stitch order

:func:`build_booklet` runs them all for one deck and returns the bytes of both
PDFs; :func:`write_booklet` writes them where ``deckpress booklet`` and the live
preview's downloads want them, so both hand out the same bytes.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from generator.booklet.directives import expand_inline
from generator.booklet.limits import cover_problems, phrase_problems
from generator.booklet.style import BookletStyle, font_has_glyph, load_style
from generator.deck.model import RULES_FILENAME, Deck, has_rules_file, rules_path
from generator.errors import InputError, Position, together
from generator.loading import read_text
from generator.outputs import write_files_atomic
from generator.paths import resolve_inside
from generator.words import words_for

if TYPE_CHECKING:  # the drawing modules (platypus, pypdf, markdown-it) load only when a booklet is made
    from generator.booklet.cards import CardFace, Renderer, RendererFactory
    from generator.render.icons import Icon

MAX_RULES_BYTES = 64 * 1024
"""Card games' rulebooks run to 32 pages at most, and a page holds about 1.5 KB of Markdown:
64 KB is some 45 pages. Each pass of the contents lays the whole booklet out again, so a
longer file would keep ``booklet`` busy for long when every paragraph is a heading."""

PAPERS = ("a4", "letter")


@dataclass(repr=False, eq=False)
class Booklet:
    """Both PDFs of one deck's rules, ready to write."""

    reading_pdf: bytes
    booklet_pdf: bytes
    pages: int

    @property
    def sheets(self) -> int:
        """Sheets of paper the printed booklet takes (each printed on both sides)."""
        from generator.booklet.imposition import padded_count  # noqa: PLC0415  (it imports pypdf; see build_booklet)

        return padded_count(self.pages) // 4


def booklet_paths(deck: Deck, out_dir: Path) -> tuple[Path, Path]:
    """``<out>/<deck>-rules.pdf`` (reading order) and ``<out>/<deck>-rules-booklet.pdf``
    (imposed), ``-rules.<lang>.pdf`` and ``-rules-booklet.<lang>.pdf`` for a translation."""
    suffix = f".{deck.lang}" if deck.lang else ""
    return out_dir / f"{deck.id}-rules{suffix}.pdf", out_dir / f"{deck.id}-rules-booklet{suffix}.pdf"


def has_rules(deck: Deck) -> bool:
    """Whether the deck has rules to make a booklet of: its ``rules.md``, or (translated)
    ``rules.<code>.md``. A translation without its own rules file is an error, not a deck
    without rules."""
    source = deck.folder / RULES_FILENAME
    return has_rules_file(deck) or source.exists() or source.is_symlink()


def read_rules(deck: Deck) -> str:
    """The text of the deck's ``rules.md``, which must be a file inside the deck folder.

    A rules file that is a symlink to somewhere else on the disk is refused: a
    downloaded deck must not be able to print the reader's files into a booklet.
    """
    path = rules_path(deck)
    if not has_rules_file(deck):
        raise InputError(f"no {path.name} beside the deck: write the rules there", Position(path))
    target = resolve_inside(deck.folder, path.name, Position(path), field="rules")
    return read_text(target, limit=MAX_RULES_BYTES)


def build_booklet(deck: Deck, paper: str = "a4",
                  renderer_factory: RendererFactory | None = None) -> Booklet:
    """Lay out ``deck``'s rules booklet on ``paper`` ("a4" or "letter")."""
    # Making a booklet takes platypus, pypdf and markdown-it, which take a noticeable share of a
    # second to import; check and serve import this package for the rules file alone.
    from reportlab.platypus.doctemplate import LayoutError  # noqa: PLC0415

    from generator.booklet import cards  # noqa: PLC0415
    from generator.booklet.document import Body, build_reading_pdf  # noqa: PLC0415
    from generator.booklet.imposition import impose, printing_note_pdf  # noqa: PLC0415
    from generator.booklet.markdown import Converter  # noqa: PLC0415

    style = load_style()
    if paper not in style.papers:
        raise InputError(f"unknown paper '{paper}'; choose one of {', '.join(sorted(style.papers))}")
    path = rules_path(deck)
    text = read_rules(deck)
    unprintable = cover_problems(deck, font_has_glyph) + phrase_problems(deck, font_has_glyph)
    if unprintable:
        raise together(unprintable)
    renderer = _LazyRenderer(deck, renderer_factory or cards.load_default_renderer)

    def make_body(frame_width: float, frame_height: float) -> Body:
        # Directives are expanded afresh for each layout pass: flowables are single-use.
        converter = Converter(deck, style, path, expand_inline(text, path, deck),
                              frame_width, frame_height, renderer.cards, renderer.icons)
        flowables = converter.convert()
        card = _cover_card(deck, renderer.loaded(), style) if renderer.showed_cards else None
        return Body(flowables, converter.cover_components, card)

    try:
        reading, pages = build_reading_pdf(deck, style.papers[paper], style, make_body, renderer.icons)
    except LayoutError as error:
        # The converter refuses the blocks it knows cannot fit a page; this is the last resort.
        raise InputError(f"part of the rules cannot be placed on a page: {_described(error)}",
                         Position(path), field="rules") from None
    sheet = style.papers[paper].sheet
    note = printing_note_pdf(sheet, style.text["footer"].fontName, style.colours["muted"],
                             words_for(deck)("printing_note"))
    return Booklet(reading_pdf=reading, booklet_pdf=impose(reading, sheet, note), pages=pages)


def write_booklet(deck: Deck, out_dir: Path, paper: str = "a4") -> tuple[Booklet, Path, Path]:
    """Build ``deck``'s booklet on ``paper`` and write both PDFs into ``out_dir``
    (:func:`booklet_paths`), both or neither: a reading PDF beside a stale imposed one would
    print the wrong rules. Returns the booklet and the two files.

    ``deck`` is the deck as its files give it (as ``load_deck`` reads it, translated), not
    one a renderer stamped with the version git gives its files: the pictures of cards in
    the booklet print the deck's own ``version:`` only, the same whether the booklet is
    made from a commit or from the working tree."""
    booklet = build_booklet(deck, paper)
    reading, imposed = booklet_paths(deck, out_dir)
    write_files_atomic({reading: booklet.reading_pdf, imposed: booklet.booklet_pdf})
    return booklet, reading, imposed


def _cover_card(deck: Deck, renderer: Renderer, style: BookletStyle) -> CardFace:
    """The card back (or the first card) for the cover, when the rules show cards at all."""
    from generator.booklet.cards import CardFace  # noqa: PLC0415  (it imports platypus; see build_booklet)

    card = next(card for card in deck.cards if card.count)
    side = "back" if deck.shared_back is not None else "front"
    return CardFace(renderer, card, side, style.cover_card_width, style.colours["rule"])


def _described(error: Exception) -> str:
    """reportlab's message without its object addresses: what did not fit, and how big."""
    text = re.sub(r"<[^>]*>|\(\d[^)]*\)|\s+", " ", str(error))
    found = re.search(r"(too large|tallest cell [\d.]+ points).*?(?= in frame|$)", text)
    return found.group(0).strip() if found else "a block is taller or wider than the page"


class _LazyRenderer:
    """Loads the card renderer on first use only, and once per booklet, for the pictures of cards
    (which the cover then shows too) or for the layouts' icons."""

    def __init__(self, deck: Deck, factory: RendererFactory):
        self.deck = deck
        self.factory = factory
        self.renderer: Renderer | None = None
        self.showed_cards = False

    def cards(self) -> Renderer:
        self.showed_cards = True
        return self.loaded()

    def icons(self) -> Mapping[str, Icon]:
        return self.loaded().icons

    def loaded(self) -> Renderer:
        if self.renderer is None:
            self.renderer = self.factory(self.deck)
        return self.renderer


__all__ = ["Booklet", "PAPERS", "RULES_FILENAME", "build_booklet", "rules_path", "write_booklet"]
