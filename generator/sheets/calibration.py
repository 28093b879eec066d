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
grey guides 0.5 and 1 mm inside and outside it, and the cut file that cuts it.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path
from typing import cast

from reportlab.lib.utils import simpleSplit

from generator.boxes import Box
from generator.errors import InputError
from generator.outputs import write_bytes_atomic, write_files_atomic
from generator.sheets.cutfile import CutSheet, cut_file_bytes, cut_file_name
from generator.sheets.cutting import CutterSettings, longest_arms, place_marks
from generator.sheets.forms import sheet_canvas, sheet_font
from generator.sheets.geometry import back_box, mirror_axis, mirror_box
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
CUT_TEST_TEXT_TOP = 26 * MM
"""From the top paper edge to the first line of instructions' baseline."""
CUT_TEST_MARGIN = 20 * MM
"""Least room left and right of the instructions."""
CUT_TEST_LINE = 0.5
CUT_TEST_GUIDE = 0.3
CUT_TEST_GUIDE_GRAY = 0.55

CALIBRATED_OPTIONS = ("--paper", "--orientation", "--mark-inset", "--mark-length", "--mark-thickness",
                      "--corner-radius")
"""The options of ``calibrate --cutter`` that shape the sheet and that ``build`` takes too."""


@dataclass(frozen=True, repr=False, eq=False)
class CalibratedBuild:
    """What the sheet's last instruction gives ``deckpress build`` besides the cutter and cut file.

    A build must print the paper and marks that were calibrated, so the line repeats every
    option of :data:`CALIBRATED_OPTIONS` the command line gave (``given``), each with the value
    the sheet was laid out with. ``others`` are further options for the build, as words
    (``--duplex short``).
    """

    given: frozenset[str] = frozenset()
    others: tuple[str, ...] = ()


@dataclass(repr=False, eq=False)
class CutterCalibrationPlan:
    """A one-page sheet for a cutting machine: its marks, the rectangle to cut, guides, text."""

    paper: Paper
    sheet: CutSheet
    """The marks and the one rectangle, as the cut file has them."""
    guides: tuple[tuple[Box, float], ...]
    """Grey outlines around and inside the cut line, each with its corner radius."""
    text: tuple[Label, ...]


def plan_cutter_calibration(paper: Paper, cutter: CutterSettings, corner_radius: float, cut_file: str,
                            calibrated: CalibratedBuild = CalibratedBuild()) -> CutterCalibrationPlan:
    """Where the marks, the rectangle to cut and the instructions go on ``paper``.

    The instructions stand at the top; the rectangle is centred on the page, as a build
    centres its cards, or just below the instructions where the page is too short for
    that. The marks' arms grow as long as both leave room for, as a build's do. The last
    instruction is :func:`build_command`'s line, with ``calibrated``. Raises
    :class:`InputError` when the paper leaves no room for them.
    """
    width, height = paper.width, paper.height
    card_width, card_height = CUT_TEST_SIZE
    reach = max(CUT_TEST_RINGS) * MM
    shortest = place_marks(width, height, cutter)
    column = min(width - 2 * CUT_TEST_MARGIN, shortest.rectangle.width)
    does_not_fit = InputError(f"the cutter calibration sheet does not fit on {paper.describe()}; "
                              "use A5 portrait or larger")
    if column <= 0:
        raise does_not_fit
    left, first_line = (width - column) / 2, height - CUT_TEST_TEXT_TOP
    instructions = _cutter_instructions(paper, cutter, cut_file,
                                        build_command(paper, cutter, cut_file, corner_radius, calibrated))
    below_text = min(label.y for label in _lines(instructions + [shortest.describe()], left, first_line,
                                                  column)) - TEXT_SIZE - 3 * MM
    bottom = min((height - card_height) / 2, below_text - reach - card_height)
    cut = Box((width - card_width) / 2, bottom, card_width, card_height)
    outermost = cut.grown(reach)
    text_top = first_line + TEXT_SIZE + 3  # the title's ascent
    band = Box(left, outermost.top, column, max(0.0, text_top - outermost.top))
    """Where the instructions go: from their first line down to the guides."""
    registration = place_marks(width, height, cutter, longest_arms(width, height, cutter, (outermost, band)))
    text = _lines(instructions + [registration.describe()], left, first_line, column)
    lowest_text = min(label.y for label in text) - TEXT_SIZE
    if not outermost.inside(registration.rectangle, tolerance=0) or registration.touches(outermost) \
            or registration.touches(band) or lowest_text < outermost.top + 2 * MM:
        raise does_not_fit
    guides = tuple((cut.grown(step * MM), max(0.0, corner_radius + step * MM)) for step in CUT_TEST_RINGS)
    return CutterCalibrationPlan(
        paper=paper,
        sheet=CutSheet(width=width, height=height, trims=(cut,), corner_radius=corner_radius,
                       registration=registration),
        guides=guides,
        text=text,
    )


def build_command(paper: Paper, cutter: CutterSettings, cut_file: str, corner_radius: float,
                  calibrated: CalibratedBuild) -> str:
    """The ``deckpress build`` line that prints what this sheet calibrates, quoted for a shell."""
    values = {"--paper": paper.name, "--orientation": paper.orientation, "--mark-inset": _mm(cutter.inset),
              "--mark-length": _mm(cutter.length), "--mark-thickness": _mm(cutter.thickness)}
    words = ["deckpress", "build", "--cutter", cutter.cutter.name]
    words += [word for option, value in values.items() if option in calibrated.given for word in (option, value)]
    words += ["--cut-file", cut_file]
    words += ["--corner-radius", _mm(corner_radius)] if "--corner-radius" in calibrated.given else []
    return shlex.join([*words, *calibrated.others])


def _mm(points: float) -> str:
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
        size = TEXT_SIZE + (3 if index == 0 else 0)
        for line in simpleSplit(paragraph, font, size, width):
            labels.append(Label(line, left, y, size=size))
            y -= size * 1.35
        y -= size * 0.6
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
                             cut_file: str = "svg", calibrated: CalibratedBuild = CalibratedBuild()) -> Path:
    """Write the cutter calibration PDF to ``path`` and its cut file beside it, both or neither;
    return the cut file's path. ``calibrated`` is :func:`plan_cutter_calibration`'s."""
    plan = plan_cutter_calibration(paper, cutter, corner_radius, cut_file, calibrated)
    cut_path = path.with_name(cut_file_name(path.name, cut_file))
    write_files_atomic({path: draw_cutter_calibration(plan), cut_path: cut_file_bytes(plan.sheet, cut_file)})
    return cut_path
