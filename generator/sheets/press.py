"""Pressing a deck: its faces onto print sheets, written as a PDF and a manifest.

The steps, each in its own module:

1. :mod:`~generator.sheets.geometry` fits the grid and plans pages (pure).
2. :mod:`~generator.sheets.forms` draws each distinct face once, plus the
   crop marks, cut lines and fold line, as PDF forms.
3. Pages are planned one at a time; each becomes a few placements of those
   forms (:mod:`~generator.sheets.pdf`) and the same placements become lines
   of the manifest (:mod:`~generator.sheets.manifest`).
4. For a cutting machine, the same layout's slots and registration marks become
   the cut file (:mod:`~generator.sheets.cutfile`), and the marks are drawn on
   every front page.

A build that prints only some copies (a :class:`~generator.sheets.instructions.PrintRun`:
``--only``, or a reprint of what changed) chooses them before any page is planned, so
the pages are those of an ordinary smaller deck; a reprint's instructions come first
(:mod:`~generator.sheets.instructions`).

The files are written atomically, together: a build that fails leaves no file behind.
"""

from __future__ import annotations

import contextlib
import functools
import io
import math
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import accumulate
from pathlib import Path
from typing import BinaryIO, TextIO

from reportlab.pdfgen.canvas import Canvas

from generator.boxes import Box
from generator.deck.model import Card, Deck
from generator.outputs import atomic_outputs
from generator.sheets.cutfile import cut_file_bytes, cut_file_name, cut_sheet
from generator.sheets.cutting import CUT_FILE_FORMATS
from generator.sheets.forms import FormLibrary, font_for, joined_runs, number
from generator.sheets.geometry import (
    DEFAULT_DUPLEX,
    PagePlan,
    SheetLayout,
    SheetSettings,
    SheetSettingsError,
    plan_pages,
    sheet_layout,
)
from generator.sheets.instructions import DUPLEX_WITH_BACKS, Instructions, PrintRun, draw_labels, instruction_pages
from generator.sheets.manifest import DeckRecord, ManifestWriter, manifest_header
from generator.sheets.marks import Line, crop_marks, cut_lines, kept_clear, mark_room
from generator.sheets.pdf import PdfPageWriter
from generator.sheets.renderer import CardRenderer
from generator.sheets.style import MM, SheetStyle, load_style

SIDES = ("front", "back")

PAGE_ROLES = ("fronts", "backs", "fold")
ROLE_LABELS = {
    ("fronts", None): "fronts",
    ("backs", None): "backs",
    ("fold", "y"): "fronts above, backs below: fold on the dashed line",
    ("fold", "x"): "fronts left, backs right: fold on the dashed line",
    ("instructions", None): "reprint instructions: what to take out, what to put in",
    ("blank", None): "back of the reprint instructions, left blank",
}
"""What a page holds, by its role and, for folded pages, the fold's mirror axis."""
MODE_LABELS = {
    "long": "duplex: flip on long edge",
    "short": "duplex: flip on short edge",
    "fold": "fold and glue, no duplex",
    "none": "single-sided, backs at the end",
}
FOOTER_SEPARATOR = "  ·  "
FOOTER_SIDE_ROOM = 5 * MM
"""The least distance from the footer to the paper's left and right edges (printers leave a few
millimetres unprinted); a footer that would come closer is set in smaller type."""


@dataclass(repr=False, eq=False)
class PressResult:
    """What a build wrote."""

    pdf: Path
    manifest: Path
    pages: int
    cards: int
    cut_file: Path | None = None
    """The cut file written beside the PDF (``--cut-file``), if any."""
    instruction_pages: int = 0
    """Pages of a reprint's instructions in front of the sheets (their blank backs included)."""
    pages_without_footer: tuple[int, ...] = ()
    """Pages whose cards left the footer no room (:func:`footer_size`), in order."""


def output_paths(deck: Deck, out_dir: Path, duplex: str = DEFAULT_DUPLEX, part: str | None = None) -> tuple[Path, Path]:
    """``<out>/<deck>.pdf`` and the manifest ``<out>/<deck>.json`` beside it (``<deck>.<lang>.pdf``
    for a translation). A duplex mode other than the default names itself, ``<deck>.short.pdf``,
    so building one deck for two printers keeps both; so does a build of some copies only
    (``part``: ``<deck>.reprint.pdf``), so it never replaces the full build's files."""
    stem = deck.output_name if part is None else f"{deck.output_name}.{part}"
    stem = stem if duplex == DEFAULT_DUPLEX else f"{stem}.{duplex}"
    return out_dir / f"{stem}.pdf", out_dir / f"{stem}.json"


def output_files(deck: Deck, out_dir: Path, duplex: str = DEFAULT_DUPLEX, part: str | None = None) -> list[Path]:
    """Every file a build with these settings may write (:func:`output_paths`, and a cut file
    in each format beside the PDF): what an earlier build left that is to be taken away."""
    pdf_path, manifest_path = output_paths(deck, out_dir, duplex, part)
    return [pdf_path, manifest_path, *(pdf_path.with_name(cut_file_name(pdf_path.name, kind))
                                       for kind in CUT_FILE_FORMATS)]


def press_deck(deck: Deck, renderer: CardRenderer, settings: SheetSettings, out_dir: Path,
               style: SheetStyle | None = None,
               on_page: Callable[[PagePlan], None] | None = None,
               run: PrintRun | None = None,
               record: DeckRecord | None = None) -> PressResult:
    """Write ``<deck>.pdf`` and ``<deck>.json`` into ``out_dir`` (and the cut file beside them when
    ``settings.cut_file`` asks for one); call ``on_page`` after each page of cards.

    The deck's version is printed in every page's footer and kept in the manifest. ``run``
    prints only the copies it names (``<deck>.<part>.pdf``), behind its instructions' pages
    when it has any. ``record`` (every card's face fingerprints) is kept at the end of the
    manifest, for a later reprint to compare against.
    """
    style = style or load_style()
    layout = sheet_layout(deck, renderer, settings)
    total = deck.total if run is None else run.cards
    footer = Footer(deck.name, layout, layout.page_count(total), layout.sheet_count(total), style, deck.version)
    instructions = run.instructions if run is not None else None
    alphabet = footer.alphabet() + (instructions.alphabet() if instructions else "")
    library = FormLibrary(title=deck.name, font=font_for(alphabet, renderer.fonts))
    composer = PageComposer(
        faces=FaceForms(deck, renderer, library, layout.bleed, run.copies if run else None),
        furniture=Furniture(layout, style, library, total),
        footer=footer,
        library=library,
        copies=CopyIndex(deck, run.copies if run else None),
    )
    first_pages = _instruction_forms(instructions, layout, style, library) if instructions else []
    blank_backs = bool(first_pages) and layout.duplex in DUPLEX_WITH_BACKS
    before = len(first_pages) * (2 if blank_backs else 1)
    footer.pages += before
    library.prepare_text(footer.alphabet())
    compiled = library.compile()

    pdf_path, manifest_path = output_paths(deck, out_dir, settings.duplex, run.part if run else None)
    cut_path = pdf_path.with_name(cut_file_name(pdf_path.name, settings.cut_file)) if settings.cut_file else None
    run_header = None if run is None else {"reprint": instructions.as_json(before)} if instructions else \
        {"only": list(run.only)}
    with atomic_outputs(pdf_path, manifest_path, *([cut_path] if cut_path else [])) as streams, \
            _utf8(streams[1]) as manifest_text:
        if cut_path and settings.cut_file:  # the same layout as the pages and the manifest
            streams[2].write(cut_file_bytes(cut_sheet(layout), settings.cut_file))
        writer = PdfPageWriter(streams[0], compiled, (layout.paper.width, layout.paper.height))
        manifest = ManifestWriter(manifest_text, manifest_header(deck.id, deck.name, layout, total,
                                                                    footer.pages, deck.lang,
                                                                    cut_path.name if cut_path else None,
                                                                    fonts=renderer.font_files, version=deck.version,
                                                                    run=run_header))
        number = 0
        for form in first_pages:
            for role in ("instructions", "blank") if blank_backs else ("instructions",):
                number += 1
                page = PagePlan(number, role, (), 0)
                drawn = b"/%s Do\n" % form if role == "instructions" else b""
                writer.add_page(drawn + footer.line(page, library))
        for page in plan_pages(layout, total, before):
            writer.add_page(composer.compose(page, manifest))
            if on_page:
                on_page(page)
        writer.close()
        manifest.close(record)
    return PressResult(pdf_path, manifest_path, footer.pages, total, cut_path, before,
                       tuple(sorted(footer.left_out)))


def _instruction_forms(instructions: Instructions, layout: SheetLayout, style: SheetStyle,
                       library: FormLibrary) -> list[bytes]:
    """Each page of a reprint's instructions drawn once as a form; their names."""
    paper = layout.paper
    pages = instruction_pages(instructions, paper, library.font, style.footer.top, MODE_LABELS[layout.duplex],
                              layout.duplex in DUPLEX_WITH_BACKS)
    return [library.add(f"instructions:{index}", (0.0, 0.0, paper.width, paper.height),
                        functools.partial(draw_labels, labels=labels, font=library.font)).encode()
            for index, labels in enumerate(pages, start=1)]


@contextlib.contextmanager
def _utf8(binary: BinaryIO) -> Iterator[TextIO]:
    """Text written as UTF-8 into ``binary``, which stays open for its owner to close."""
    text = io.TextIOWrapper(binary, encoding="utf-8", newline="\n")
    try:
        yield text
        text.flush()
    finally:
        text.detach()


@dataclass(repr=False, eq=False)
class PageComposer:
    """Turns a planned page into content-stream operators, and its placements into manifest lines.

    Pages repeat the same few slots over and over, so what a slot contributes
    (where its form goes, its position in the manifest) is worked out once per
    slot, and each placement only adds its form's name, copy and page.
    """

    faces: FaceForms
    furniture: Furniture
    footer: Footer
    library: FormLibrary
    copies: CopyIndex
    _slots: dict[tuple[int, int], tuple[bytes, str, Box]] = field(default_factory=dict)

    def compose(self, page: PagePlan, manifest: ManifestWriter) -> bytes:
        filled = len({placement.copy_index for placement in page.placements})
        parts = [self.furniture.under(page.role, filled)]
        lines = []
        # looked up once a page rather than once a placement: 200,000 placements at 100,000 copies
        locate, face_of, slot, line = self.copies.locate, self.faces.of, self._slot, ManifestWriter.placement
        number = page.number
        for placement in page.placements:
            card, copy = locate(placement.copy_index)
            form, manifest_parts = face_of(card, placement.face)
            placing, position = slot(placement.box, placement.rotation)
            parts.append(placing % form)
            lines.append(line(manifest_parts, copy, number, position))
        manifest.add(lines)
        parts.append(self.furniture.over(page.role))
        parts.append(self.footer.line(page, self.library))
        return b"\n".join(part for part in parts if part)

    def _slot(self, box: Box, rotation: int) -> tuple[bytes, str]:
        """Operators placing a form (``%s`` for its name) in ``box``, and the manifest's position."""
        # The page planner hands out one Box a slot, so looking it up by identity spares hashing
        # its four floats for every placement; the box is kept with its entry so its id stays its own.
        key = (id(box), rotation)
        found = self._slots.get(key)
        if found is None:
            found = self._slots[key] = (placing(box, rotation), ManifestWriter.position(box.rounded(), rotation),
                                        box)
        return found[0], found[1]


def placing(box: Box, rotation: int = 0) -> bytes:
    """Operators drawing a form (``%s``: its name) into ``box``, turned by ``rotation`` (0 or 180)
    about its centre.

    Unturned, the form's trim origin goes to the box's lower-left corner;
    turned 180 degrees, to its upper-right corner, with both axes reversed.
    """
    if rotation == 0:
        return b"q 1 0 0 1 %s %s cm /%%s Do Q" % (number(box.x).encode(), number(box.y).encode())
    if rotation == 180:
        return b"q -1 0 0 -1 %s %s cm /%%s Do Q" % (number(box.right).encode(), number(box.top).encode())
    raise ValueError(f"faces turn by 0 or 180 degrees, not {rotation}")


class CopyIndex:
    """Turns a physical card's position in the deck (from 0) into its card and copy number.

    Given ``copies`` (card id -> copy numbers), only those copies are in the deck, each
    keeping its number (a reprint of copies 4 and 5 of a card numbers them 4 and 5).
    """

    def __init__(self, deck: Deck, copies: Mapping[str, Sequence[int]] | None = None):
        if copies is None:  # every copy: a card's copies numbered from 1
            copies = {card.id: range(1, card.count + 1) for card in deck.cards}
        self._cards = [card for card in deck.cards if copies.get(card.id)]
        self._numbers = [copies[card.id] for card in self._cards]
        self._ends = list(accumulate(map(len, self._numbers)))
        self._run: tuple[int, int, Card, Sequence[int]] | None = None
        """The indices the card last found covers, ``start <= index < end``, that card and its copy numbers."""

    def locate(self, index: int) -> tuple[Card, int]:
        run = self._run
        if run is None or not run[0] <= index < run[1]:  # pages walk a card's copies in a row: search when it ends
            position = bisect_right(self._ends, index)
            start = self._ends[position - 1] if position else 0
            run = self._run = (start, self._ends[position], self._cards[position], self._numbers[position])
        start, _, card, numbers = run
        return card, numbers[index - start]


class FaceForms:
    """Every distinct face drawn once; per card and side, its form and manifest parts."""

    def __init__(self, deck: Deck, renderer: CardRenderer, library: FormLibrary, bleed: float,
                 copies: Mapping[str, Sequence[int]] | None = None):
        width, height = renderer.card_size
        bbox = (-bleed, -bleed, width + bleed, height + bleed)
        self._by_card: dict[tuple[str, str], tuple[bytes, tuple[str, str]]] = {}
        for card in deck.cards:
            if card.count == 0 or (copies is not None and not copies.get(card.id)):
                continue
            for side in SIDES:
                key = renderer.face_key(card, side)
                name = library.add(key, bbox, functools.partial(renderer.draw, card=card, side=side, bleed=bleed > 0))
                fields = card.face(side, deck.shared_back) or {}
                parts = ManifestWriter.face_parts(deck.id, card.id, side,
                                                  renderer.title(card, side), fields)
                self._by_card[(card.id, side)] = (name.encode(), parts)

    def of(self, card: Card, side: str) -> tuple[bytes, tuple[str, str]]:
        return self._by_card[(card.id, side)]


class Furniture:
    """Crop marks and the fold line (drawn under the cards) and cut lines (over them), per page role.

    A part-filled last sheet gets crop marks of its own, for the cuts of its
    cards only; every other page shares the full grid's marks.
    """

    def __init__(self, layout: SheetLayout, style: SheetStyle, library: FormLibrary, total_cards: int):
        self._under: dict[str, list[bytes]] = {role: [] for role in PAGE_ROLES}
        self._over = dict.fromkeys(PAGE_ROLES, b"")
        """Cut lines' form, placed over the cards, by page role (none: nothing)."""
        self._marks: dict[tuple[str, int], bytes] = {}
        """Crop-mark forms by page role and the number of cards on the page."""
        self._per_sheet = layout.cards_per_sheet
        paper = layout.paper
        page_box = (0.0, 0.0, paper.width, paper.height)
        fronts = (layout.slots, layout.front_area)
        backs = (tuple(layout.back_box(slot) for slot in layout.slots), layout.back_area)
        grids_by_role = {"fold": [fronts, backs]} if layout.duplex == "fold" else \
            {"fronts": [fronts], "backs": [backs]}
        last_sheet = total_cards - (layout.sheet_count(total_cards) - 1) * self._per_sheet
        registration = layout.registration
        for role, grids in grids_by_role.items():
            # On a cutter's front pages no line comes near a registration mark.
            zones = registration.keep_clear if registration and role == "fronts" else ()
            for filled in sorted({self._per_sheet, last_sheet}):
                marks: list[Line] = []
                for boxes, area in grids:
                    if layout.settings.crop_marks:
                        room = mark_room(area, paper.width, paper.height, style.marks, style.footer.top)
                        marks += crop_marks(boxes, layout.bleed, room, style.marks, boxes[:filled])
                marks = kept_clear(marks, zones, style.marks.line.width, style.marks.shortest) if zones else marks
                if marks:
                    name = library.add_lines(f"marks:{role}:{filled}", marks, style.marks.line, page_box)
                    self._marks[(role, filled)] = name.encode()
            over = [line for boxes, _ in grids for line in cut_lines(boxes, layout.bleed)] \
                if layout.settings.cut_lines else []
            over = kept_clear(over, zones, style.cut_lines.width) if zones else over
            if over:
                name = library.add_lines(f"cuts:{role}", over, style.cut_lines, page_box)
                self._over[role] = b"/%s Do" % name.encode()
        if layout.fold_line:
            name = library.add_lines("fold", [layout.fold_line], style.fold_line, page_box)
            self._under["fold"].append(name.encode())
        if registration:  # on front pages only: the machine reads the side it cuts
            ink = [box for mark in registration.marks for box in mark.ink]
            name = library.add("registration", page_box, lambda canvas: _fill_black(canvas, ink))
            self._under["fronts"].append(name.encode())
        self._under_operators: dict[tuple[str, int], bytes] = {}

    def under(self, role: str, filled: int | None = None) -> bytes:
        """What goes under the cards of a page of ``role`` holding ``filled`` cards (default: full)."""
        key = (role, filled or self._per_sheet)
        found = self._under_operators.get(key)
        if found is None:  # made once a role and fill, not once a page
            marks = self._marks.get(key)
            names = ([marks] if marks else []) + self._under[role]
            found = self._under_operators[key] = b"\n".join(b"/%s Do" % name for name in names)
        return found

    def over(self, role: str) -> bytes:
        return self._over[role]


def _fill_black(canvas: Canvas, boxes: list[Box]) -> None:
    """Rectangles filled solid black, without an outline (a registration mark's ink)."""
    canvas.setFillGray(0)
    for box in boxes:
        canvas.rect(box.x, box.y, box.width, box.height, stroke=0, fill=1)


def lowest_card_edge(boxes: Iterable[Box], bleed: float, left: float, right: float) -> float:
    """How high above the paper's bottom edge something spanning ``left`` to ``right`` may
    reach without touching a card: the lowest outer edge (trim box grown by ``bleed``) of the
    cards in ``boxes`` that reach over that span, or infinity when none does."""
    return min((box.y - bleed for box in boxes if box.x - bleed < right and box.right + bleed > left),
               default=math.inf)


def footer_size(size: float, baseline: float, ceiling: float, smallest: float) -> float | None:
    """The type size a footer on ``baseline`` of ``size`` (its letters reach ``baseline + size``)
    takes to stay below ``ceiling``: its own size when it fits, smaller down to ``smallest``,
    and None when even that would reach past the ceiling (the page then has no footer).

    Crop marks keep above the full-size footer's top (:func:`~generator.sheets.marks.mark_room`), so only the cards
    can come down to it: a grid that nearly fills the paper's height."""
    room = ceiling - baseline
    if room >= size:
        return size
    return room if room >= smallest and room > 0 else None


class Footer:
    """The small print at the bottom of each page: deck, page, what the page holds, how to print.

    On a cutter's sheets it is the label that keeps loose sheets in order: the deck, its
    version (when given), "sheet N of M" and the mark settings to give the cutter's software.
    It stays below the rectangle the marks enclose, clear of every mark, and below every card
    of its page: where the cards come down to its line it is set smaller, or left out
    (:func:`footer_size`), rather than printed over them.
    """

    def __init__(self, deck_name: str, layout: SheetLayout, pages: int, sheets: int, style: SheetStyle,
                 version: str | None):
        self._deck_name = deck_name
        self.pages = pages
        """Pages in the PDF, as "page N of M" counts them (a reprint's instructions included)."""
        self._mode = MODE_LABELS[layout.duplex]
        self._fold_axis = layout.mirror if layout.duplex == "fold" else None
        offset_x, offset_y = layout.settings.back_offset
        self._offset = (f"back offset {offset_x / MM:+.2f}, {offset_y / MM:+.2f} mm"
                        if (offset_x, offset_y) != (0.0, 0.0) else "")
        self._paper_width = layout.paper.width
        self._fold_x = layout.paper.width / 2 if self._fold_axis == "x" else None
        """Where a folded page's fold line runs up the page: the footer keeps to the fronts' half."""
        self._bleed = layout.bleed
        self._style = style.footer
        self._draft = layout.settings.draft
        registration = layout.registration
        # the paper too: a cutter's software is set to the page the marks were placed on, and a
        # cutter may turn the sheet from the orientation asked for by default
        self._cutter = f"{layout.paper.describe()}, {registration.describe()}" if registration else ""
        self._version = f"version {version}" if version else ""
        self._sheets = sheets
        if registration:
            band = Box(0.0, 0.0, layout.paper.width, self._style.top)
            if registration.touches(band):
                raise SheetSettingsError("the page label would print beside a registration mark; "
                                         "use a larger --mark-inset")
        self.left_out: set[int] = set()
        """The pages whose cards left the footer no room: the build says so."""
        self._around: dict[str, tuple[str, ...]] = {}
        self._runs: dict[str, list[list[tuple[bytes, bytes]]]] = {}
        """Per page role, the footer's text between its numbers as runs (see :meth:`FormLibrary.runs`)."""

    def alphabet(self) -> str:
        """Every character a footer of this build can contain."""
        return "".join([self._deck_name, FOOTER_SEPARATOR, "page of 0123456789", self._mode,
                        self._offset, self._style.draft_label, *ROLE_LABELS.values(),
                        self._cutter, self._version, "sheet " if self._cutter else ""])

    def role(self, page: PagePlan) -> str:
        return ROLE_LABELS[(page.role, self._fold_axis if page.role == "fold" else None)]

    def numbers(self, page: PagePlan) -> tuple[int, ...]:
        """The numbers the footer shows, in order: the page's, and first its sheet's on a cutter's
        sheets of cards."""
        return (page.sheet, page.number) if self._cutter and page.role in PAGE_ROLES else (page.number,)

    def text(self, page: PagePlan) -> str:
        parts = self._text_around(page)
        return "".join(part + str(value) for part, value in zip(parts, self.numbers(page), strict=False)) + parts[-1]

    def _text_around(self, page: PagePlan) -> tuple[str, ...]:
        """The footer of every page in ``page``'s role, around its numbers (one more part than numbers)."""
        around = self._around.get(page.role)
        if around is None:
            first = [self._style.draft_label] if self._draft else []  # a draft says so on every page
            named = [*first, self._deck_name, *([self._version] if self._version else [])]
            cards = page.role in PAGE_ROLES
            rest = [self.role(page)] + ([self._mode] if cards else [])
            rest += [self._offset] if self._offset and page.role in ("backs", "fold") else []
            rest += [self._cutter] if self._cutter and cards else []  # the settings to give the cutter's software
            after = f" of {self.pages}{FOOTER_SEPARATOR}{FOOTER_SEPARATOR.join(rest)}"
            if self._cutter and cards:
                around = (FOOTER_SEPARATOR.join([*named, "sheet "]), f" of {self._sheets}{FOOTER_SEPARATOR}page ",
                          after)
            else:
                around = (FOOTER_SEPARATOR.join([*named, "page "]), after)
            self._around[page.role] = around
        return around

    def _span(self, page: PagePlan) -> tuple[float, float]:
        """The stretch of the bottom edge ``page``'s footer is centred in: the paper's width, or
        on a page folded down the middle the fronts' half, so the fold does not cut the label
        in two and half of it is not glued inside the card."""
        if self._fold_x is not None and page.role == "fold":
            return 0.0, self._fold_x
        return 0.0, self._paper_width

    def line(self, page: PagePlan, library: FormLibrary) -> bytes:
        """The footer's operators (none when the page's cards leave it no room); only the numbers
        are encoded afresh for each page."""
        text = self.text(page)
        size = self._style.size
        width = library.text_width(text, size)
        start, end = self._span(page)
        room = end - start - 2 * FOOTER_SIDE_ROOM
        if width > room:  # a narrow paper: the whole label in smaller type rather than cut off at the edges
            size, width = size * room / width, room
        left = start + (end - start - width) / 2
        ceiling = lowest_card_edge((placement.box for placement in page.placements), self._bleed, left, left + width)
        fitting = footer_size(size, self._style.baseline, ceiling, self._style.smallest)
        if fitting is None:
            self.left_out.add(page.number)
            return b""
        if fitting < size:  # the cards come down to its line: smaller type, centred under them
            size, width = fitting, width * fitting / size
        runs = self._runs.get(page.role)
        if runs is None:
            runs = self._runs[page.role] = [library.runs(part) for part in self._text_around(page)]
        pieces = [piece for part, value in zip(runs, self.numbers(page), strict=False)
                  for piece in (part, library.runs(str(value)))] + [runs[-1]]
        return library.show(joined_runs(*pieces),
                            start + (end - start - width) / 2, self._style.baseline, size,
                            self._style.gray, self._style.draft_rgb if self._draft else None)
