"""The calibration sheet: measure how far a printer misplaces back pages, in millimetres.

Few duplex printers put the back of a sheet exactly behind the front; cards
then come out with backs a millimetre or two off. This two-page sheet
measures the error so ``deckpress build --back-offset X,Y`` can correct it.

How it reads: the back page carries one long line for each axis. The front
page carries a ladder of short ticks beside each line, every tick a quarter
millimetre further along than the one before and labelled with the back
offset that would bring the two sides into register if that tick is the one
lying on the line. Held against the light, the back's line shows through:
the tick sitting exactly on it names the offset. Because the back's line is
long, an error along the other axis does not change the reading.

The labels already include the mirroring of the chosen duplex mode and any
``--back-offset`` the sheet was printed with, so the number read is always the
value to pass to ``deckpress build``.

A cutting machine is calibrated apart (``deckpress calibrate --cutter``): one page
with the cutter's registration marks and one card-sized rectangle to cut, ringed by
grey guides 0.5 and 1 mm inside and outside it, and the cut file that cuts it. The marks
are the ones a build prints: the paper turned and the arms as long as a build of poker
cards (a layout's default size) chooses, for the orientation and the arm length are what
the designer types into the cutter's software. The page is laid out from where those
marks are, so every inset and paper a build takes for such a card gives one; its last
instruction is the build line that prints the paper and marks calibrated, naming the
orientation and arm length too, since a deck of another card size would choose its own.
"""

from __future__ import annotations

import dataclasses
import math
import shlex
from collections.abc import Callable
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path
from typing import cast

from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase.pdfmetrics import stringWidth

from generator.boxes import EPSILON, Box
from generator.errors import InputError
from generator.outputs import write_bytes_atomic, write_files_atomic
from generator.render.layout import DEFAULT_SIZE
from generator.render.renderer import builtin_tables
from generator.render.units import mm_text, size_text, to_points
from generator.sheets.cutfile import CutSheet, cut_file_bytes, cut_file_name
from generator.sheets.cutting import LENGTH_STEP, CutterSettings, Registration, place_marks
from generator.sheets.forms import sheet_canvas, sheet_font
from generator.sheets.geometry import SheetSettings, SheetSettingsError, back_box, mirror_axis, mirror_box, plan_layout
from generator.sheets.instructions import Label, draw_labels
from generator.sheets.marks import Line
from generator.sheets.style import MM, Paper

STEP = 0.25
"""Millimetres between neighbouring ticks of a ladder: the reading's resolution."""
REACH = 4.0
"""The largest error (mm, either way, on top of the offset printed with) a ladder measures."""
PITCH = 2.5 * MM
"""Distance between neighbouring ticks along the ladder."""
TICK = 0.8 * MM
"""Half the length of a front tick."""
OVERHANG = 6 * MM
"""How far a back line runs past its ladder, so an error along the other axis keeps it in view."""
LINE_WIDTH = 0.5
LABEL_SIZE = 7.0
"""Ladder numbers: the figures a user reads against the light, so no smaller than 7 pt."""
TEXT_SIZE = 8.0
TITLE_SIZE = TEXT_SIZE + 3
LEADING = 1.35
"""Baseline to baseline, as a multiple of the type size; a line's box reaches this far down from
its top (the ascent is one type size)."""
PARAGRAPH_GAP = 0.6
"""Extra room after a paragraph, as a multiple of its type size."""
SCALE_BAR = 100 * MM
CALIBRATION_MODES = ("long", "short")


@dataclass(repr=False, eq=False)
class Ladder:
    """One axis's ticks (front page), the line they are read against (back page), and labels."""

    ticks: tuple[Line, ...]
    back_line: Line
    """On the back page, in the back page's own coordinates, offset included."""
    labels: tuple[Label, ...]


@dataclass(repr=False, eq=False)
class CalibrationPlan:
    paper: Paper
    ladders: tuple[Ladder, Ladder]
    scale_bar: tuple[Line, ...]
    text: tuple[Label, ...]
    back_text: tuple[Label, ...]


def seen_from_front(paper: Paper, duplex: str, along: str) -> int:
    """+1 or -1: which way a shift of the back page along ``along`` looks from the front.

    Derived from the one mirroring rule (:func:`mirror_box`): a point of the
    back page shows through at its mirror image on the front.
    """
    mirrored = mirror_axis(paper, duplex)
    origin = mirror_box(Box(0, 0, 0, 0), paper, mirrored)
    step = (1.0, 0.0) if along == "x" else (0.0, 1.0)
    moved = mirror_box(origin.shifted(*step), paper, mirrored)
    return round(moved.x if along == "x" else moved.y)


def _to_back(line: Line, paper: Paper, duplex: str, offset: tuple[float, float]) -> Line:
    """A line given in front coordinates, drawn where it must be on the back page."""
    x0, y0, x1, y1 = line
    box = back_box(Box(min(x0, x1), min(y0, y1), abs(x1 - x0), abs(y1 - y0)), paper,
                   mirror_axis(paper, duplex), offset)
    return (box.x, box.y, box.right, box.top)


def _values(offset: float) -> list[float]:
    count = int(round(REACH / STEP))
    return [offset + STEP * step for step in range(-count, count + 1)]


def plan_calibration(paper: Paper, duplex: str = "long",
                     offset_mm: tuple[float, float] = (0.0, 0.0)) -> CalibrationPlan:
    """Where everything on the two calibration pages goes (points, each page's own coordinates)."""
    if duplex not in CALIBRATION_MODES:
        raise ValueError(f"calibration measures duplex printing: long or short, not '{duplex}'")
    offset = (offset_mm[0] * MM, offset_mm[1] * MM)
    width, height = paper.width, paper.height
    centre_x = width / 2
    values_x, values_y = _values(offset_mm[0]), _values(offset_mm[1])
    span = (len(values_x) - 1) * PITCH
    text = _instructions(paper, duplex, offset_mm)
    bar_y = text[-1].y - 12 * MM
    # The two ladders sit side by side, centred in the room left below the scale bar.
    middle = (bar_y - 8 * MM + 5 * MM) / 2
    ladder_x = centre_x - 50 * MM
    row_left = centre_x - 25 * MM

    # X ladder: a column of upright ticks, read against an upright line on the back.
    # A back drawn ``o`` off and misprinted by ``e`` shows through ``sign * (o + e)``
    # away; the tick for offset ``v`` (which cancels ``e = -v``) must sit there.
    x_top = middle + span / 2
    sign_x = seen_from_front(paper, duplex, "x")
    ticks_x, labels_x = [], []
    for row, value in enumerate(values_x):
        x = ladder_x - sign_x * (value - offset_mm[0]) * MM
        y = x_top - row * PITCH
        ticks_x.append((x, y - TICK, x, y + TICK))
        labels_x.append(Label(f"{value:+.2f}", ladder_x - REACH * MM - 3 * MM, y - LABEL_SIZE / 3, LABEL_SIZE,
                              align="right"))
    labels_x.append(Label("X", ladder_x, x_top + OVERHANG + 2 * MM, size=TEXT_SIZE, align="centre"))
    line_x = (ladder_x, x_top - span - OVERHANG, ladder_x, x_top + OVERHANG)

    # Y ladder: a row of level ticks, read against a level line on the back.
    sign_y = seen_from_front(paper, duplex, "y")
    ticks_y, labels_y = [], []
    for column, value in enumerate(values_y):
        x = row_left + column * PITCH
        y = middle - sign_y * (value - offset_mm[1]) * MM
        ticks_y.append((x - TICK, y, x + TICK, y))
        labels_y.append(Label(f"{value:+.2f}", x + LABEL_SIZE / 3, middle - REACH * MM - 3 * MM, LABEL_SIZE,
                              upright=True, align="right"))
    labels_y.append(Label("Y", row_left - OVERHANG - 3 * MM, middle - TEXT_SIZE / 3, size=TEXT_SIZE,
                          align="centre"))
    line_y = (row_left - OVERHANG, middle, row_left + span + OVERHANG, middle)

    lowest = min(x_top - span - OVERHANG, middle - REACH * MM - 15 * MM)
    leftmost = ladder_x - REACH * MM - 15 * MM
    rightmost = row_left + span + OVERHANG
    if lowest < 5 * MM or leftmost < 5 * MM or rightmost > width - 5 * MM or \
            x_top + OVERHANG + 5 * MM > bar_y - 6 * MM:
        raise InputError(f"the calibration sheet does not fit on {paper.describe()}; "
                          "use A5 portrait or larger")
    bar_left = centre_x - SCALE_BAR / 2
    scale_bar = ((bar_left, bar_y, bar_left + SCALE_BAR, bar_y),
                 (bar_left, bar_y - 2 * MM, bar_left, bar_y + 2 * MM),
                 (bar_left + SCALE_BAR, bar_y - 2 * MM, bar_left + SCALE_BAR, bar_y + 2 * MM))
    return CalibrationPlan(
        paper=paper,
        ladders=(Ladder(tuple(ticks_x), _to_back(line_x, paper, duplex, offset), tuple(labels_x)),
                 Ladder(tuple(ticks_y), _to_back(line_y, paper, duplex, offset), tuple(labels_y))),
        scale_bar=scale_bar,
        text=text + (Label("this bar must measure 100 mm; if not, print at actual size",
                           centre_x, bar_y - 5 * MM, size=LABEL_SIZE + 1, align="centre"),),
        back_text=(Label("calibration sheet, back: read it from the front, against the light",
                         centre_x, height - 12 * MM, size=TEXT_SIZE, align="centre"),),
    )


def _instructions(paper: Paper, duplex: str, offset_mm: tuple[float, float]) -> tuple[Label, ...]:
    flip = {"long": "flip on long edge", "short": "flip on short edge"}[duplex]
    printed_with = (f" This sheet was printed with --back-offset {offset_mm[0]:g},{offset_mm[1]:g};"
                    " the numbers already include it." if offset_mm != (0.0, 0.0) else "")
    paragraphs = [
        f"Printer calibration: {paper.describe()}, duplex {flip}",
        f"1. Print both pages on one sheet: two-sided, {flip}, at actual size (no 'fit to page').",
        "2. Hold the sheet against a window or a lamp, this side towards you. A long line printed "
        "on the back shows through beside each ladder of short ticks.",
        "3. On each ladder, find the tick lying exactly on the line from the back. Its number is "
        "the back offset in millimetres: X from the upright ladder, Y from the level one."
        + printed_with,
        f"4. Build with: deckpress build --duplex {duplex} --back-offset X,Y",
        "If no tick meets a line, the error is larger than the ladder: calibrate again with your "
        "best guess as --back-offset.",
    ]
    margin = 12 * MM
    width = paper.width - 2 * margin
    return _lines(paragraphs, margin, paper.height - 14 * MM, width)


def draw_calibration(plan: CalibrationPlan) -> bytes:
    """The two pages as PDF bytes (reproducible: no dates, fixed identifiers)."""
    buffer = BytesIO()
    canvas = sheet_canvas(buffer, "deckpress printer calibration", sheet_font(), (plan.paper.width, plan.paper.height))
    canvas.setLineWidth(LINE_WIDTH)
    canvas.lines([tick for ladder in plan.ladders for tick in ladder.ticks])
    canvas.lines(list(plan.scale_bar))
    draw_labels(canvas, plan.text + tuple(label for ladder in plan.ladders for label in ladder.labels), sheet_font())
    canvas.showPage()
    canvas.setLineWidth(LINE_WIDTH)
    canvas.lines([ladder.back_line for ladder in plan.ladders])
    draw_labels(canvas, plan.back_text, sheet_font())
    canvas.showPage()
    return cast(bytes, canvas.getpdfdata())


def write_calibration(path: Path, paper: Paper, duplex: str = "long",
                      offset_mm: tuple[float, float] = (0.0, 0.0)) -> None:
    """Write the calibration PDF to ``path`` atomically."""
    write_bytes_atomic(path, draw_calibration(plan_calibration(paper, duplex, offset_mm)))


CUT_TEST_SIZE = (63 * MM, 88 * MM)
"""The rectangle a cutter calibration cuts: about a poker card (63.5 x 88.9 mm), the cut a deck
asks for most, in whole millimetres so that a ruler reads it easily."""
CUT_TEST_RINGS = (-1.0, -0.5, 0.5, 1.0)
"""Millimetres inside (-) and outside (+) the cut line where grey guides are printed, to read
how far a cut strays."""
CUT_TEST_TEXT_DROP = 16 * MM
"""From the marks' corners (the inset below the top paper edge) down to the first line of
instructions' baseline: room above the title for the top marks' arms up to about 10 mm (longer
arms push the text further down). The instructions follow the marks, so a deeper inset moves
them down with it."""
CUT_TEST_MARGIN = 20 * MM
"""Least room left and right of the instructions."""
CUT_TEST_NARROWEST = 50 * MM
"""The narrowest column the instructions are set in beside the rectangle: in a narrower one each
line holds two or three words, and the bands above and below the marks read better."""
CUT_TEST_EDGE = 5 * MM
"""Least room above and below the instructions where they must leave the marks' rectangle:
printers print no closer to the paper edge (the sheets' default margin)."""
CUT_TEST_GAP = 2 * MM
"""Least room between the instructions and the guides, or the top marks' clear margin."""
CUT_TEST_LINE = 0.5
CUT_TEST_GUIDE = 0.3
CUT_TEST_GUIDE_GRAY = 0.55
INSET_STEP = 0.1 * MM
"""An inset a refusal suggests is a multiple of this: the inset is typed back in millimetres."""

CALIBRATED_OPTIONS = ("--paper", "--orientation", "--mark-inset", "--mark-length", "--mark-thickness",
                      "--corner-radius")
"""The options of ``calibrate --cutter`` that shape the sheet and that ``build`` takes too."""
PINNED_OPTIONS = ("--orientation", "--mark-length")
"""The options the sheet's build line names whether given or not: without them a build chooses
the orientation and the arms' length from its deck's card size, which need not be the one the
sheet's marks were chosen for."""


@dataclass(frozen=True, repr=False, eq=False)
class CalibratedBuild:
    """What the sheet's last instruction gives ``deckpress build`` besides the cutter and cut file.

    A build must print the paper and marks that were calibrated, so the line repeats every
    option of :data:`CALIBRATED_OPTIONS` the command line gave (``given``), and those of
    :data:`PINNED_OPTIONS` always, each with the value the sheet was laid out with: a sheet for
    another paper or inset names that one. ``others`` are further options for the build, as
    words (``--duplex short``).
    """

    given: frozenset[str] = frozenset()
    others: tuple[str, ...] = ()

    def with_option(self, option: str) -> CalibratedBuild:
        """The same build, with ``option`` given too (a refusal's remedy is typed in as one)."""
        return CalibratedBuild(self.given | {option}, self.others)


@dataclass(repr=False, eq=False)
class CutterCalibrationPlan:
    """A one-page sheet for a cutting machine: its marks, the rectangle to cut, guides, text."""

    paper: Paper
    sheet: CutSheet
    """The marks and the one rectangle, as the cut file has them."""
    guides: tuple[tuple[Box, float], ...]
    """Grey outlines around and inside the cut line, each with its corner radius."""
    text: tuple[Label, ...]


@dataclass(repr=False, eq=False)
class _Placed:
    """Where one way of laying out the sheet put the rectangle to cut, the marks and the text."""

    cut: Box
    registration: Registration
    text: tuple[Label, ...]


def plan_cutter_calibration(paper: Paper, cutter: CutterSettings, corner_radius: float, cut_file: str,
                            calibrated: CalibratedBuild = CalibratedBuild(),
                            papers: tuple[Paper, ...] = (), *, build: SheetSettings) -> CutterCalibrationPlan:
    """Where the marks, the rectangle to cut and the instructions go on ``paper``, turned as a
    build turns it.

    The marks are :func:`marks_as_built`'s, with ``build`` (the settings the build line's build
    prints with: its margin and gutter): where the cutter looks for them, ``cutter.inset`` from
    the edges, with the arms a build prints, or the longest shorter ones the sheet leaves room
    for (:func:`_placed_as_built`). The rest is laid out from where they are, the first of
    three ways that fits:
    :func:`_under_the_marks` (the instructions below the top marks, as far down as the inset
    puts those, and the rectangle centred on the page, as a build centres its cards, or just
    below them), :func:`_beside_the_card` (for a paper too short for that, such as A5
    landscape) and :func:`_around_the_card` (for an inset so deep that the instructions must
    leave the marks' rectangle). The last instruction is :func:`build_command`'s line, with
    ``calibrated``.

    Where a build fits a card of :data:`CUT_TEST_SIZE` between these marks on a known paper,
    one of the three fits. Raises :class:`InputError` when none does; the message names what
    would: the largest inset that fits this paper, the other orientation, or the smallest of
    ``papers`` (the known ones) no smaller than this paper either way that fits (else such a
    size made of them).
    """
    turned, placed = _placed_as_built(paper, cutter, corner_radius, cut_file, calibrated, build)
    if placed is None:
        raise InputError(_does_not_fit(paper, cutter, corner_radius, cut_file, calibrated, papers, build))
    guides = tuple((placed.cut.grown(step * MM), max(0.0, corner_radius + step * MM)) for step in CUT_TEST_RINGS)
    return CutterCalibrationPlan(
        paper=turned,
        sheet=CutSheet(width=turned.width, height=turned.height, trims=(placed.cut,), corner_radius=corner_radius,
                       registration=placed.registration),
        guides=guides,
        text=placed.text,
    )


def default_card_size() -> tuple[float, float]:
    """The card a layout prints when it names no size (poker), in points: the card whose build
    the sheet's marks are chosen for, since it is the one decks print most."""
    width, height = builtin_tables()[0][DEFAULT_SIZE]
    return to_points(width), to_points(height)


def marks_as_built(paper: Paper, cutter: CutterSettings, build: SheetSettings) -> tuple[Paper, CutterSettings]:
    """``paper`` turned as a build turns it and ``cutter`` with its arms as long as a build prints
    them, both fixed (one orientation, ``length`` equal to ``longest``), so the sheet prints
    these and its build line can name them.

    A build chooses both from its cards (:func:`~generator.sheets.geometry.plan_layout`, asked
    here with ``build``'s margin and gutter, for cards of :func:`default_card_size` without
    bleed): the orientation that holds most, the longest arms they leave room for. Where no
    such card fits between the marks (that build is refused), the paper stays as given and
    the arms are the shortest, which every build between these marks can print.
    """
    try:
        layout = plan_layout(dataclasses.replace(build, paper=paper, cutter=cutter), default_card_size(), 0.0)
    except SheetSettingsError:
        layout = None
    registration = layout.registration if layout is not None else None
    if layout is None or registration is None:
        return paper, dataclasses.replace(cutter, longest=cutter.length, choose_orientation=False)
    return layout.paper, dataclasses.replace(cutter, length=registration.length, longest=registration.length,
                                             choose_orientation=False)


def _placed_as_built(paper: Paper, cutter: CutterSettings, corner_radius: float, cut_file: str,
                     calibrated: CalibratedBuild, build: SheetSettings) -> tuple[Paper, _Placed | None]:
    """The paper as a build turns it, and the sheet laid out on it around the marks that build
    prints (:func:`marks_as_built`). Where the text finds no room beside arms that long (A5
    landscape, its marks 15 mm or more in), around the longest shorter ones it does, down to
    ``cutter.length``: the build line names the length, and arms no longer than the build's
    own keep off the cards it keeps off, so that build prints the same cards. None when the
    sheet fits with none."""
    turned, marks = marks_as_built(paper, cutter, build)
    for length in _arm_lengths(marks.length, cutter.length):
        placed = _placed(turned, dataclasses.replace(marks, length=length, longest=length), corner_radius,
                         cut_file, calibrated)
        if placed is not None:
            return turned, placed
    return turned, None


def _arm_lengths(longest: float, shortest: float) -> list[float]:
    """``longest``, then every multiple of :data:`LENGTH_STEP` below it down to ``shortest``: the
    arms a sheet tries, longest first (just ``longest`` when the two are one length given)."""
    below = math.ceil(longest / LENGTH_STEP - EPSILON) - 1
    least = math.ceil(shortest / LENGTH_STEP - EPSILON)
    return [longest] + [steps * LENGTH_STEP for steps in range(below, least - 1, -1)]


def _placed(paper: Paper, cutter: CutterSettings, corner_radius: float, cut_file: str,
            calibrated: CalibratedBuild) -> _Placed | None:
    """The sheet laid out around marks as ``cutter`` fixes them (one length), the first way that
    fits; None when none does."""
    instructions = _cutter_instructions(paper, cutter, cut_file, build_command(paper, cutter, cut_file,
                                                                                corner_radius, calibrated))
    return (_under_the_marks(paper, cutter, instructions) or _beside_the_card(paper, cutter, instructions)
            or _around_the_card(paper, cutter, instructions))


def _under_the_marks(paper: Paper, cutter: CutterSettings, instructions: list[str]) -> _Placed | None:
    """The instructions in a column inside the marks' rectangle, below the top marks; the
    rectangle centred, or just below the instructions. None when that does not fit."""
    width, height = paper.width, paper.height
    card_width, card_height = CUT_TEST_SIZE
    reach = max(CUT_TEST_RINGS) * MM
    registration = place_marks(width, height, cutter)
    column = min(width - 2 * CUT_TEST_MARGIN, registration.rectangle.width)
    if column <= 0:
        return None
    left = (width - column) / 2
    first_line = min(height - cutter.inset - CUT_TEST_TEXT_DROP,
                     _below_top_marks(registration) - CUT_TEST_GAP - TITLE_SIZE)
    text = _lines(instructions + [registration.describe()], left, first_line, column)
    below_text = min(label.y for label in text) - TEXT_SIZE - 3 * MM
    bottom = min((height - card_height) / 2, below_text - reach - card_height)
    cut = Box((width - card_width) / 2, bottom, card_width, card_height)
    outermost = cut.grown(reach)
    text_top = first_line + TITLE_SIZE  # the title's ascent
    band = Box(left, outermost.top, column, max(0.0, text_top - outermost.top))
    """Where the instructions go: from their first line down to the guides."""
    lowest_text = min(label.y for label in text) - TEXT_SIZE
    if not outermost.inside(registration.rectangle, tolerance=EPSILON) or registration.touches(outermost) \
            or registration.touches(band) or lowest_text < outermost.top + CUT_TEST_GAP or not _within(text, column):
        return None
    return _Placed(cut, registration, text)


def _beside_the_card(paper: Paper, cutter: CutterSettings, instructions: list[str]) -> _Placed | None:
    """The rectangle halfway up the page, as far right as the marks' rectangle and the right
    marks let it go, and the instructions in a column left of it, between the top and the bottom
    marks: for a paper too short for the instructions above the rectangle (A5 landscape). None
    when that does not fit."""
    width, height = paper.width, paper.height
    card_width, card_height = CUT_TEST_SIZE
    reach = max(CUT_TEST_RINGS) * MM
    registration = place_marks(width, height, cutter)
    inside = registration.rectangle
    bottom = (height - card_height) / 2
    right = min([inside.right] + [zone.x for zone in registration.keep_clear if zone.x > width / 2
                                  and zone.y < bottom + card_height + reach and zone.top > bottom - reach])
    cut = Box(right - CUT_TEST_GAP - reach - card_width, bottom, card_width, card_height)
    outermost = cut.grown(reach)
    left = inside.x + CUT_TEST_GAP
    column = outermost.x - 2 * CUT_TEST_GAP - left
    if column < CUT_TEST_NARROWEST or not outermost.inside(inside, tolerance=EPSILON) \
            or registration.touches(outermost):
        return None
    first_line = _below_top_marks(registration, left, left + column) - CUT_TEST_GAP - TITLE_SIZE
    floor = max(zone.top for mark, zone in zip(registration.marks, registration.keep_clear, strict=True)
                if mark.corner.startswith("bottom")) + CUT_TEST_GAP
    # the lowest the instructions may reach: above the bottom marks' clear margins
    text = _lines(instructions + [registration.describe()], left, first_line, column)
    lowest = min(label.y - (LEADING - 1) * label.size for label in text)
    column_box = Box(left, lowest, column, first_line + TITLE_SIZE - lowest)
    if lowest < floor or registration.touches(column_box) or not _within(text, column):
        return None
    return _Placed(cut, registration, text)


def _within(text: tuple[Label, ...], width: float) -> bool:
    """Whether every line is no wider than ``width``: a word longer than a narrow column stands
    alone on its line and would reach past it."""
    font = sheet_font()
    return all(stringWidth(label.text, font, label.size) <= width + EPSILON for label in text)


def _below_top_marks(registration: Registration, left: float = -math.inf, right: float = math.inf) -> float:
    """How high on the page text from ``left`` to ``right`` may reach below the top marks: the
    lowest edge of the clear margins above it. A mark beside the text, not above it, leaves it
    be: long arms at the far side of the card need not push a column beside it down."""
    return min(zone.y for mark, zone in zip(registration.marks, registration.keep_clear, strict=True)
               if mark.corner.startswith("top") and zone.x < right and zone.right > left)


def _around_the_card(paper: Paper, cutter: CutterSettings, instructions: list[str]) -> _Placed | None:
    """The rectangle centred, and the instructions in the bands across the page that neither it
    (with its guides) nor a mark's clear margin reaches into: no text beside a mark, so the
    sensor finds only the marks' edges there. None when that does not fit."""
    width, height = paper.width, paper.height
    card_width, card_height = CUT_TEST_SIZE
    registration = place_marks(width, height, cutter)
    cut = Box((width - card_width) / 2, (height - card_height) / 2, card_width, card_height)
    outermost = cut.grown(max(CUT_TEST_RINGS) * MM)
    column = width - 2 * CUT_TEST_MARGIN
    if column <= 0 or not cut.inside(registration.rectangle, tolerance=EPSILON) or registration.touches(outermost) \
            or not outermost.inside(Box(0.0, 0.0, width, height), tolerance=EPSILON):
        return None
    left = (width - column) / 2
    taken = [(zone.y, zone.top) for zone in registration.keep_clear]
    taken.append((outermost.y - CUT_TEST_GAP, outermost.top + CUT_TEST_GAP))
    spans = _free_spans(CUT_TEST_EDGE, height - CUT_TEST_EDGE, taken)
    text = _flowed(instructions + [registration.describe()], left, column, spans)
    if text is None or not _within(text, column):
        return None
    return _Placed(cut, registration, text)


def _free_spans(bottom: float, top: float, taken: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The stretches of height from ``top`` down to ``bottom`` that no (low, high) of ``taken``
    covers, highest first."""
    spans = []
    for low, high in sorted(taken, key=lambda span: -span[1]):
        if high < top:
            spans.append((max(high, bottom), top))
        top = min(top, low)
    spans.append((bottom, top))
    return [(low, high) for low, high in spans if high > low]


def _flowed(paragraphs: list[str], left: float, width: float,
            spans: list[tuple[float, float]]) -> tuple[Label, ...] | None:
    """``paragraphs`` wrapped to ``width``, the first as a title, top down through ``spans``
    (highest first): a paragraph that the rest of its span cannot hold starts in the next one
    that holds it whole, if one does. None when the spans run out."""
    font = sheet_font()
    labels: list[Label] = []
    index, top = 0, spans[0][1] if spans else 0.0
    for number, paragraph in enumerate(paragraphs):
        size = TITLE_SIZE if number == 0 else TEXT_SIZE
        lines = simpleSplit(paragraph, font, size, width)
        needed = len(lines) * size * LEADING
        if index < len(spans) and top - needed < spans[index][0]:
            whole = next((later for later in range(index + 1, len(spans))
                          if spans[later][1] - spans[later][0] >= needed), None)
            if whole is not None:
                index, top = whole, spans[whole][1]
        for line in lines:
            while index < len(spans) and top - size * LEADING < spans[index][0]:
                index += 1
                top = spans[index][1] if index < len(spans) else 0.0
            if index == len(spans):
                return None
            labels.append(Label(line, left, top - size, size=size))
            top -= size * LEADING
        top -= size * PARAGRAPH_GAP
    return tuple(labels)


def _does_not_fit(paper: Paper, cutter: CutterSettings, corner_radius: float, cut_file: str,
                  calibrated: CalibratedBuild, papers: tuple[Paper, ...], build: SheetSettings) -> str:
    """Why the sheet is refused, and the changes that make it fit, each tried with the marks a
    build prints once that change is typed in (:func:`marks_as_built`)."""

    def fits(other: Paper, marks: CutterSettings, option: str) -> bool:
        return _placed_as_built(other, marks, corner_radius, cut_file, calibrated.with_option(option),
                                build)[1] is not None

    tried = marks_as_built(paper, cutter, build)[0]
    remedies = []
    inset = _largest_inset(paper, cutter, lambda marks: fits(paper, marks, "--mark-inset"))
    if inset is not None:
        remedies.append(f"--mark-inset {mm_argument(inset)}")  # tried: with long arms, not every smaller one fits
    turned = tried.turned("landscape" if tried.orientation == "portrait" else "portrait")
    if (turned.width, turned.height) != (tried.width, tried.height) \
            and fits(turned, dataclasses.replace(cutter, choose_orientation=False), "--orientation"):
        remedies.append(f"--orientation {turned.orientation}")
    larger = next((other for other in _larger_papers(paper, papers) if fits(other, cutter, "--paper")), None)
    if larger is not None:
        remedies.append(f"--paper {larger.name}")
    return (f"the cutter calibration sheet (a {size_text(*CUT_TEST_SIZE)} card to cut, its guides and "
            f"instructions) does not fit on {tried.describe()} with marks {mm_text(cutter.inset)} in from "
            f"the edges; use " + (", or ".join(remedies) if remedies else "a larger paper or a smaller --mark-inset"))


def _largest_inset(paper: Paper, cutter: CutterSettings, fits: Callable[[CutterSettings], bool]) -> float | None:
    """The largest inset under ``cutter.inset`` (a multiple of :data:`INSET_STEP`, no less than the
    cutter's least) at which the sheet ``fits``; None when none does. Each is tried, from the
    largest down: with long arms a smaller inset can move a mark into the text's way, so room
    does not always grow as the inset shrinks."""
    least = math.ceil(cutter.least_inset / INSET_STEP - EPSILON)
    below = math.ceil(cutter.inset / INSET_STEP - EPSILON) - 1
    for steps in range(below, least - 1, -1):
        if fits(dataclasses.replace(cutter, inset=steps * INSET_STEP)):
            return steps * INSET_STEP
    return None


def _larger_papers(paper: Paper, papers: tuple[Paper, ...]) -> list[Paper]:
    """Papers no smaller than ``paper`` either way, turned as it is: the known ones that are,
    smallest first, then sizes such as ``148x300mm`` made of a known one grown to cover ``paper``."""
    known: dict[tuple[float, float], Paper] = {}
    grown: dict[tuple[float, float], Paper] = {}
    for each in sorted(papers, key=lambda each: each.name):
        turned = each.turned(paper.orientation)
        size = (max(paper.width, turned.width), max(paper.height, turned.height))
        if size == (paper.width, paper.height):
            continue
        if size == (turned.width, turned.height):
            known.setdefault(size, turned)
        else:
            grown.setdefault(size, Paper(name=f"{mm_argument(min(size))}x{mm_argument(max(size))}mm",
                                         label=f"{mm_argument(size[0])}x{mm_argument(size[1])}mm",
                                         width=size[0], height=size[1]))

    def smallest_first(found: dict[tuple[float, float], Paper]) -> list[Paper]:
        return [found[size] for size in sorted(found, key=lambda size: size[0] * size[1])]

    return smallest_first(known) + [each for each in smallest_first(grown)
                                    if (each.width, each.height) not in known]


def build_command(paper: Paper, cutter: CutterSettings, cut_file: str, corner_radius: float,
                  calibrated: CalibratedBuild) -> str:
    """The ``deckpress build`` line that prints what this sheet calibrates, quoted for a shell:
    ``paper`` as the sheet lies and ``cutter``'s arms at the one length the sheet prints, named
    by :data:`PINNED_OPTIONS` so that a deck of any card size prints them too."""
    values = {"--paper": paper.name, "--orientation": paper.orientation, "--mark-inset": mm_argument(cutter.inset),
              "--mark-length": mm_argument(cutter.length), "--mark-thickness": mm_argument(cutter.thickness)}
    named = calibrated.given | set(PINNED_OPTIONS)
    words = ["deckpress", "build", "--cutter", cutter.cutter.name]
    words += [word for option, value in values.items() if option in named for word in (option, value)]
    words += ["--cut-file", cut_file]
    words += ["--corner-radius", mm_argument(corner_radius)] if "--corner-radius" in calibrated.given else []
    return shlex.join([*words, *calibrated.others])


def mm_argument(points: float) -> str:
    """A length in points as a command line takes it back: millimetres, exactly enough to round-trip
    what was typed, no trailing zeros."""
    return format(points / MM, ".15g")


def _cutter_instructions(paper: Paper, cutter: CutterSettings, cut_file: str, command: str) -> list[str]:
    return [
        f"Cutter calibration: {cutter.cutter.label}, {paper.describe()}",
        "1. Print this page at actual size (no 'fit to page') on the paper you will cut.",
        f"2. Open the cut file in the cutter's software, page {paper.describe()}; set its registration "
        "marks as below, line them up with the file's 'registration' layer and cut the 'cut' layer only.",
        "3. The cut should fall on the black line; the grey lines lie 0.5 and 1 mm inside and outside it.",
        f"4. Then build: {command}",
    ]


def _lines(paragraphs: list[str], left: float, top: float, width: float) -> tuple[Label, ...]:
    """``paragraphs`` wrapped to ``width``, the first as a title, from the baseline ``top`` down."""
    labels = []
    y = top
    font = sheet_font()
    for index, paragraph in enumerate(paragraphs):
        size = TITLE_SIZE if index == 0 else TEXT_SIZE
        for line in simpleSplit(paragraph, font, size, width):
            labels.append(Label(line, left, y, size=size))
            y -= size * LEADING
        y -= size * PARAGRAPH_GAP
    return tuple(labels)


def draw_cutter_calibration(plan: CutterCalibrationPlan) -> bytes:
    """The one page as PDF bytes (reproducible: no dates, fixed identifiers)."""
    buffer = BytesIO()
    canvas = sheet_canvas(buffer, "deckpress cutter calibration", sheet_font(), (plan.paper.width, plan.paper.height))
    registration = plan.sheet.registration
    canvas.setFillGray(0)
    for mark in registration.marks if registration else ():
        for ink in mark.ink:
            canvas.rect(ink.x, ink.y, ink.width, ink.height, stroke=0, fill=1)
    canvas.setLineWidth(CUT_TEST_GUIDE)
    canvas.setStrokeGray(CUT_TEST_GUIDE_GRAY)
    for box, radius in plan.guides:
        canvas.roundRect(box.x, box.y, box.width, box.height, radius, stroke=1, fill=0)
    canvas.setLineWidth(CUT_TEST_LINE)
    canvas.setStrokeGray(0)
    for box in plan.sheet.trims:
        canvas.roundRect(box.x, box.y, box.width, box.height, plan.sheet.corner_radius, stroke=1, fill=0)
    draw_labels(canvas, plan.text, sheet_font())
    canvas.showPage()
    return cast(bytes, canvas.getpdfdata())


def write_cutter_calibration(path: Path, paper: Paper, cutter: CutterSettings, corner_radius: float,
                             cut_file: str = "svg", calibrated: CalibratedBuild = CalibratedBuild(),
                             papers: tuple[Paper, ...] = (), *, build: SheetSettings) -> Path:
    """Write the cutter calibration PDF to ``path`` and its cut file beside it, both or neither;
    return the cut file's path. ``calibrated``, ``papers`` and ``build`` are
    :func:`plan_cutter_calibration`'s."""
    plan = plan_cutter_calibration(paper, cutter, corner_radius, cut_file, calibrated, papers, build=build)
    cut_path = path.with_name(cut_file_name(path.name, cut_file))
    write_files_atomic({path: draw_cutter_calibration(plan), cut_path: cut_file_bytes(plan.sheet, cut_file)})
    return cut_path
