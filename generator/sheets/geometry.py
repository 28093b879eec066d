"""Sheet geometry: where every card face lands on the paper. Pure functions, no drawing.

Everything is in PDF points with the origin at the bottom-left corner of the
page, x to the right and y up, exactly as the manifest reports it.

The plan is made in two steps. :func:`plan_layout` fits a grid of cards on
the paper once; :func:`plan_pages` then walks the deck's copies and yields one
:class:`PagePlan` at a time, so a deck of 100,000 cards never becomes a list of
100,000 placements.

Duplex mirroring lives in :func:`back_box` and nowhere else. Printing both
sides of a sheet turns the paper over about one of its edges, so the back of
a card must be drawn at the mirror image of its front. On a portrait page of
width W and height H, for a front at (x, y, w, h):

- ``long``  (flip on the long edge):  back at (W - x - w, y) on the next page
- ``short`` (flip on the short edge): back at (x, H - y - h) on the next page
- ``fold``: fronts on one half of the page, backs on the other half, mirrored
  about the fold line in the middle of the page
- ``none``: fronts only; the backs follow on pages of their own at the end,
  each where its front stood

On a landscape page the long edge runs across the top, so ``long`` mirrors
rows and ``short`` mirrors columns.

Folding across the page (fronts above, backs below) also turns each back
upside down: the fold swaps top and bottom, and a card is then turned over
sideways to read its back, which swaps left and right as well. So backs below
a fold line that runs across are drawn rotated by 180 degrees (within the
same trim box), and the folded card reads upright when turned over sideways,
as a card printed with ``long`` does. A fold line that runs upright swaps
left and right only, which the sideways turn undoes: no rotation there. Last of all the back offset (a correction
for a printer that does not print both sides in register) is added to every
back: positive x moves backs to the right and positive y moves them up, as
seen looking at the back page.

Printing for a cutting machine (``settings.cutter``), the grid is fitted inside
the rectangle its registration marks enclose and kept clear of the marks
(:mod:`generator.sheets.cutting` places them); the layout carries the marks,
so the pages, the manifest and the cut file all draw the same ones. Backs
mirror their fronts by the same rule as always.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from generator.boxes import EPSILON, Box
from generator.errors import InputError
from generator.sheets.cutting import FOLD_REFUSAL, CutterSettings, Registration, longest_arms, place_marks
from generator.sheets.style import MM, ORIENTATIONS, Paper, SheetStyle, find_paper

if TYPE_CHECKING:
    from generator.deck.model import Deck
    from generator.sheets.renderer import CardRenderer

DUPLEX_MODES = ("long", "short", "fold", "none")
DEFAULT_DUPLEX = "long"
MAX_BACK_OFFSET_MM = 20.0
"""The largest back offset accepted, either way: printers misregister by a few millimetres,
so anything beyond this is a typo, and it would push backs off their page."""


@dataclass(repr=False, eq=False)
class SheetSettings:
    """The choices a user makes about printing, in points."""

    paper: Paper
    duplex: str = DEFAULT_DUPLEX
    margin: float = 5 * MM
    gutter: float = 0.0
    bleed: bool = False
    back_offset: tuple[float, float] = (0.0, 0.0)
    crop_marks: bool = True
    cut_lines: bool = False
    draft: bool = False
    """A draft: printed though its rules or text fit fail, and marked so on every page."""
    cutter: CutterSettings | None = None
    """Registration marks for a print-and-cut machine on every front page (None: no marks)."""
    cut_file: str | None = None
    """Also write the cut file for a cutting machine: "svg" or "dxf" (None: none)."""
    corner_radius: float = 0.0
    """How round the cut file cuts each card's corners (0: square corners)."""

    @classmethod
    def default(cls, style: SheetStyle) -> SheetSettings:
        """What ``deckpress build`` prints with when given no options (``check`` proves the
        cards fit it; the live preview shows where they land on it)."""
        return cls(paper=find_paper(style.default_paper, "portrait", style), margin=style.default_margin,
                   gutter=style.default_gutter)


@dataclass(repr=False, eq=False)
class SheetLayout:
    """A grid fitted on the paper: where each front goes, and how backs mirror it."""

    settings: SheetSettings
    card_width: float
    card_height: float
    bleed: float
    """Bleed actually printed around each card (0 unless bleed is asked for)."""
    slots: tuple[Box, ...]
    """Front trim boxes, in reading order (left to right, then top to bottom)."""
    front_area: Box
    """The part of the page the fronts live in: the page, or its front half when folding."""
    mirror: str | None
    """Which coordinate a back mirrors: "x" (columns), "y" (rows) or None."""
    registration: Registration | None = None
    """The cutter's marks on every front page, when printing for a cutter."""

    @property
    def paper(self) -> Paper:
        return self.settings.paper

    @property
    def duplex(self) -> str:
        return self.settings.duplex

    @property
    def cards_per_sheet(self) -> int:
        return len(self.slots)

    @property
    def back_area(self) -> Box:
        """The part of the page the backs live in (without the back offset)."""
        return mirror_box(self.front_area, self.paper, self.mirror)

    @property
    def fold_line(self) -> tuple[float, float, float, float] | None:
        """The fold line ``(x0, y0, x1, y1)`` across the middle of the page, when folding."""
        if self.duplex != "fold":
            return None
        width, height = self.paper.width, self.paper.height
        if self.mirror == "x":
            return (width / 2, 0.0, width / 2, height)
        return (0.0, height / 2, width, height / 2)

    def back_box(self, front: Box) -> Box:
        """Where the back of the card whose front is at ``front`` is drawn."""
        return back_box(front, self.paper, self.mirror, self.settings.back_offset)

    @property
    def back_rotation(self) -> int:
        """Degrees (anticlockwise, about the trim box's centre) every back is turned by.

        180 below a fold line running across the page, 0 otherwise; see the
        module's docstring for why.
        """
        return 180 if self.duplex == "fold" and self.mirror == "y" else 0

    def sheet_count(self, total_cards: int) -> int:
        return math.ceil(total_cards / self.cards_per_sheet)

    def page_count(self, total_cards: int) -> int:
        """Pages in the PDF: two a sheet, except when fronts and backs share a page."""
        sheets = self.sheet_count(total_cards)
        return sheets if self.duplex == "fold" else 2 * sheets


class Placement(NamedTuple):
    """One face of one physical card on a page.

    ``copy_index`` counts the deck's physical cards from 0 in deck order; the
    build turns it back into a card and copy number. (A named tuple: a build makes
    two for every copy in the deck.)
    """

    copy_index: int
    face: str
    box: Box
    rotation: int = 0
    """Degrees the face is turned about the centre of ``box``: 0 or 180."""


@dataclass(repr=False, eq=False)
class PagePlan:
    """One page of the PDF: its number (from 1), what it holds, and its placements."""

    number: int
    role: str
    """"fronts", "backs" or "fold" (fronts and backs on one page); a reprint's first pages
    are "instructions" and, behind them in duplex, "blank"."""
    placements: tuple[Placement, ...]
    sheet: int = 1
    """The sheet of paper the page is printed on (from 1): a front page and its backs share one."""


def mirror_axis(paper: Paper, duplex: str) -> str | None:
    """Which coordinate the backs mirror for this duplex mode on this paper.

    The paper turns over about its long edge (``long``) or its short edge
    (``short``). A portrait page's long edge is upright, so turning about it
    mirrors x; a landscape page's long edge lies across, so it mirrors y. ``fold`` and
    ``none`` turn nothing over (a fold's axis is :func:`_best_fold`'s).
    """
    if duplex not in DUPLEX_MODES:
        raise ValueError(f"unknown duplex mode '{duplex}'")
    long_edge_axis = "y" if paper.orientation == "landscape" else "x"
    short_edge_axis = "x" if long_edge_axis == "y" else "y"
    return {"long": long_edge_axis, "short": short_edge_axis, "fold": None, "none": None}[duplex]


def mirror_box(box: Box, paper: Paper, axis: str | None) -> Box:
    """``box`` mirrored across the middle of the page (about x = W/2 or y = H/2).

    Mirroring about the middle is both what turning the paper over does and
    what folding it in half does, so every duplex mode shares this one rule.
    """
    if axis == "x":
        return Box(paper.width - box.x - box.width, box.y, box.width, box.height)
    if axis == "y":
        return Box(box.x, paper.height - box.y - box.height, box.width, box.height)
    return box


def back_box(front: Box, paper: Paper, axis: str | None, offset: tuple[float, float]) -> Box:
    """The back of ``front``: mirrored as the duplex mode asks, then shifted by the back offset."""
    return mirror_box(front, paper, axis).shifted(*offset)


def fit_grid(area: Box, card_width: float, card_height: float, bleed: float,
             gutter: float, margin: float) -> tuple[Box, ...]:
    """As many cards as fit in ``area``, centred, as trim boxes in reading order.

    Neighbouring cards are ``gutter`` apart, but never closer than twice the
    bleed, so one card's bleed never prints over its neighbour. ``margin`` is
    kept clear between the area's edge and the outermost bleed.
    """
    spacing = max(gutter, 2 * bleed)
    columns = _fitting(area.width - 2 * margin - 2 * bleed, card_width, spacing)
    rows = _fitting(area.height - 2 * margin - 2 * bleed, card_height, spacing)
    if not columns or not rows:
        return ()
    return centred_grid(area, card_width, card_height, spacing, columns, rows)


def centred_grid(area: Box, card_width: float, card_height: float, spacing: float,
                 columns: int, rows: int) -> tuple[Box, ...]:
    """``columns`` x ``rows`` trim boxes ``spacing`` apart, centred in ``area``, in reading order."""
    used_width = columns * card_width + (columns - 1) * spacing
    used_height = rows * card_height + (rows - 1) * spacing
    left = area.x + (area.width - used_width) / 2
    top = area.top - (area.height - used_height) / 2
    return tuple(
        Box(left + column * (card_width + spacing),
            top - card_height - row * (card_height + spacing),
            card_width, card_height)
        for row in range(rows)
        for column in range(columns)
    )


def _fitting(room: float, size: float, spacing: float) -> int:
    """How many ``size``-long items, ``spacing`` apart, fit in ``room``."""
    if room < size - EPSILON:
        return 0
    return int(math.floor((room + spacing) / (size + spacing) + EPSILON))


class SheetSettingsError(InputError):
    """The print settings cannot work for this card: not one fits, or backs would leave the page.

    A usage error (exit 2), the same for every deck of a card size, so a build
    reports it once and stops.
    """


def plan_layout(settings: SheetSettings, card_size: tuple[float, float], bleed: float) -> SheetLayout:
    """Fit the grid for ``settings`` and a card of ``card_size`` (points) with ``bleed`` available.

    Raises :class:`SheetSettingsError` when not even one card fits on the
    paper, or when the back offset moves a back off its page (or, folding,
    off its half of the page, over the fronts). With a cutter the grid fits
    between its registration marks instead (:func:`_cutter_layout`).
    """
    if settings.duplex not in DUPLEX_MODES:
        raise ValueError(f"unknown duplex mode '{settings.duplex}'")
    card_width, card_height = card_size
    printed_bleed = bleed if settings.bleed else 0.0
    _check_corner_radius(settings.corner_radius, card_width, card_height)
    if settings.cut_file and settings.duplex == "fold":
        raise SheetSettingsError(FOLD_REFUSAL.replace("--cutter", "--cut-file"))
    if settings.cutter is not None:
        layout = _cutter_layout(settings, settings.cutter, card_width, card_height, printed_bleed)
        _check_backs_stay_home(layout)
        return layout
    paper = settings.paper

    def grid(area: Box) -> tuple[Box, ...]:
        return fit_grid(area, card_width, card_height, printed_bleed, settings.gutter, settings.margin)

    axis: str | None
    if settings.duplex == "fold":
        area, slots, axis = _best_fold(paper, grid)
    else:
        area = Box(0.0, 0.0, paper.width, paper.height)
        slots, axis = grid(area), mirror_axis(paper, settings.duplex)
    if not slots:
        where = f"half of {paper.describe()} (fold)" if settings.duplex == "fold" else paper.describe()
        with_bleed = f" with {printed_bleed / MM:g} mm of bleed around it" if printed_bleed else ""
        raise SheetSettingsError(
            f"a {card_width / MM:.1f} x {card_height / MM:.1f} mm card{with_bleed} does not fit on {where} "
            f"with {settings.margin / MM:g} mm margins; choose a larger paper or a smaller margin"
            + (", or print without --bleed" if printed_bleed else ""))
    layout = SheetLayout(settings=settings, card_width=card_width, card_height=card_height,
                         bleed=printed_bleed, slots=slots, front_area=area, mirror=axis)
    _check_backs_stay_home(layout)
    return layout


def _check_corner_radius(radius: float, card_width: float, card_height: float) -> None:
    """A cut's corners can be rounded by at most half the card's shorter side."""
    shorter = min(card_width, card_height)
    if not 0 <= radius <= shorter / 2 + EPSILON:
        raise SheetSettingsError(f"--corner-radius {radius / MM:g} mm does not fit a {card_width / MM:.1f} x "
                                 f"{card_height / MM:.1f} mm card; use 0 to {shorter / 2 / MM:g} mm")


def _cutter_layout(settings: SheetSettings, cutter: CutterSettings, card_width: float, card_height: float,
                   bleed: float) -> SheetLayout:
    """The grid between a cutter's registration marks, in the orientation that holds most cards.

    Fronts go on pages of their own (never ``fold``), centred on the page both ways, so a
    back the printer misplaces errs evenly on every side. Ties keep the paper as given.
    """
    if settings.duplex == "fold":
        raise SheetSettingsError(FOLD_REFUSAL)
    papers = [settings.paper]
    if cutter.choose_orientation:
        papers += [settings.paper.turned(other) for other in ORIENTATIONS if other != settings.paper.orientation]
    paper, slots, registration = max(  # the first of those that hold most
        ((paper, *_between_marks(paper, cutter, settings, card_width, card_height, bleed)) for paper in papers),
        key=lambda found: len(found[1]))
    if not slots:
        with_bleed = f" with {bleed / MM:g} mm of bleed around it" if bleed else ""
        either_way = f"{paper.label}, either way up" if cutter.choose_orientation else paper.describe()
        smaller_inset = " or a smaller --mark-inset" if cutter.inset > cutter.least_inset + EPSILON else ""
        raise SheetSettingsError(
            f"a {card_width / MM:.1f} x {card_height / MM:.1f} mm card{with_bleed} does not fit between the "
            f"registration marks of --cutter {cutter.cutter.name} ({cutter.inset / MM:g} mm inset) on {either_way}; "
            f"choose a larger paper{smaller_inset}" + (", or print without --bleed" if bleed else ""))
    settings = dataclasses.replace(settings, paper=paper)
    return SheetLayout(settings=settings, card_width=card_width, card_height=card_height, bleed=bleed,
                       slots=slots, front_area=Box(0.0, 0.0, paper.width, paper.height),
                       mirror=mirror_axis(paper, settings.duplex), registration=registration)


def _between_marks(paper: Paper, cutter: CutterSettings, settings: SheetSettings, card_width: float,
                   card_height: float, bleed: float) -> tuple[tuple[Box, ...], Registration]:
    """The most cards (trim boxes, reading order) that fit inside the marks on ``paper``, and the marks.

    Every card with its bleed lies inside the rectangle the marks enclose and within the
    margin, and keeps off each mark's clear margin: a slot of the grid that would reach
    into one stays empty. A grid one column or row smaller is tried too, since it may leave
    the corners free and hold more cards; on a tie the one with fewer empty slots wins.
    The arms then grow as long as the cards leave room for.
    """
    shortest = place_marks(paper.width, paper.height, cutter)
    page = Box(0.0, 0.0, paper.width, paper.height).grown(-settings.margin)
    inside = shortest.rectangle
    left, bottom = max(inside.x, page.x), max(inside.y, page.y)
    area = Box(left, bottom, min(inside.right, page.right) - left, min(inside.top, page.top) - bottom)
    spacing = max(settings.gutter, 2 * bleed)
    columns = _fitting(area.width - 2 * bleed, card_width, spacing) if area.width > 0 else 0
    rows = _fitting(area.height - 2 * bleed, card_height, spacing) if area.height > 0 else 0
    kept: tuple[Box, ...] = ()
    best_key: tuple[int, int] | None = None
    for across in (columns, columns - 1):
        for down in (rows, rows - 1):
            if across < 1 or down < 1:
                continue
            grid = centred_grid(area, card_width, card_height, spacing, across, down)
            clear = tuple(slot for slot in grid if not shortest.touches(slot.grown(bleed)))
            key = (len(clear), len(clear) - len(grid))
            if best_key is None or key > best_key:
                kept, best_key = clear, key
    if not kept:
        return (), shortest
    length = longest_arms(paper.width, paper.height, cutter, tuple(slot.grown(bleed) for slot in kept))
    return kept, place_marks(paper.width, paper.height, cutter, length)


def sheet_layout(deck: Deck, renderer: CardRenderer, settings: SheetSettings) -> SheetLayout:
    """Fit the grid for this deck's card size; raise if nothing is to be printed or no card fits.
    ``build`` asks this with its options, ``check`` with the defaults: one question, one answer."""
    if deck.total == 0:
        raise InputError("nothing to print: every card's count is 0", deck.source.at("cards"), "count")
    return plan_layout(settings, renderer.card_size, renderer.bleed)


def _check_backs_stay_home(layout: SheetLayout) -> None:
    """Refuse a back offset that pushes a back (with its bleed) off the page or off its half.

    What falls outside the page is cut off before the printer ever sees it,
    and a folded sheet's back drawn over the fold line would print over fronts.
    """
    home = layout.back_area if layout.duplex == "fold" else Box(0.0, 0.0, layout.paper.width,
                                                                 layout.paper.height)
    for slot in layout.slots:
        if not layout.back_box(slot).grown(layout.bleed).inside(home, tolerance=EPSILON):
            offset_x, offset_y = (value / MM for value in layout.settings.back_offset)
            where = "their half of the page" if layout.duplex == "fold" else "the paper"
            raise SheetSettingsError(
                f"--back-offset {offset_x:g},{offset_y:g} moves backs off {where}; "
                "use a smaller offset or a larger --margin")


def _best_fold(paper: Paper, grid: Callable[[Box], tuple[Box, ...]]) -> tuple[Box, tuple[Box, ...], str]:
    """The fold that fits more cards: fronts on the left half or on the top half.

    On a tie the fold line runs parallel to the paper's short edge, halving
    its long side, the way a sheet is usually folded.
    """
    width, height = paper.width, paper.height
    left_half = Box(0.0, 0.0, width / 2, height)        # fold line upright: backs mirror x
    top_half = Box(0.0, height / 2, width, height / 2)  # fold line across: backs mirror y
    across = (top_half, grid(top_half), "y")
    upright = (left_half, grid(left_half), "x")
    preferred, other = (across, upright) if paper.orientation == "portrait" else (upright, across)
    return preferred if len(preferred[1]) >= len(other[1]) else other


def plan_pages(layout: SheetLayout, total_cards: int, before: int = 0) -> Iterator[PagePlan]:
    """Every page of the PDF in order, one at a time, for a deck of ``total_cards`` copies;
    ``before`` pages come ahead of the sheets (a reprint's instructions), so the first sheet's
    first page is numbered ``before + 1``. Sheets are numbered from 1 all the same."""
    per_sheet = layout.cards_per_sheet
    sheets = layout.sheet_count(total_cards)
    slots = layout.slots
    back_slots = tuple(layout.back_box(slot) for slot in slots)  # the same on every sheet
    back_rotation = layout.back_rotation

    def faces(sheet: int, face: str) -> tuple[Placement, ...]:
        first = sheet * per_sheet
        boxes, rotation = (slots, 0) if face == "front" else (back_slots, back_rotation)
        return tuple(Placement(first + slot, face, boxes[slot], rotation)
                     for slot in range(min(per_sheet, total_cards - first)))

    if layout.duplex == "fold":
        for sheet in range(sheets):
            yield PagePlan(before + sheet + 1, "fold", faces(sheet, "front") + faces(sheet, "back"), sheet + 1)
    elif layout.duplex == "none":
        for sheet in range(sheets):
            yield PagePlan(before + sheet + 1, "fronts", faces(sheet, "front"), sheet + 1)
        for sheet in range(sheets):
            yield PagePlan(before + sheets + sheet + 1, "backs", faces(sheet, "back"), sheet + 1)
    else:
        for sheet in range(sheets):
            yield PagePlan(before + 2 * sheet + 1, "fronts", faces(sheet, "front"), sheet + 1)
            yield PagePlan(before + 2 * sheet + 2, "backs", faces(sheet, "back"), sheet + 1)
