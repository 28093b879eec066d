"""Registration marks for print-and-cut machines: where each mark's ink goes. Pure geometry.

A cutting machine that cuts printed sheets (a Silhouette Cameo or Portrait)
finds the sheet by registration marks printed near its corners: a filled
square and L-shaped corners, or L-shaped corners only. Its software cuts only
inside the rectangle the marks enclose, and ink close to a mark confuses its
sensor. This module reads the marks' geometry from ``cutters.yaml`` (lengths
and their sources are written there) and places the marks on a paper; the
grid that fits between them is :func:`generator.sheets.geometry.plan_layout`'s.

Everything is in PDF points with the origin at the page's bottom-left corner,
as the rest of the sheet geometry. An L mark's corner is the point where the
centre lines of its two arms meet, ``inset`` from both paper edges; each arm
reaches ``length`` from that point inwards and is ``thickness`` thick, so its
ink begins half a thickness outside the corner point. The square's outer
corner lies ``inset`` from both edges.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from generator.boxes import EPSILON, Box, union
from generator.errors import InputError
from generator.loading import Document, load_yaml
from generator.render.units import MM, mm_text
from generator.sheets.style import settings_of

CUTTERS_FILE = Path(__file__).with_name("cutters.yaml")

CORNERS = ("top-left", "top-right", "bottom-left", "bottom-right")
MARK_KINDS = ("square", "L")
CUT_FILE_FORMATS = ("svg", "dxf")

LENGTH_STEP = 0.1 * MM
"""An arm lengthened to fit the page is rounded down to a tenth of a millimetre: the length
is typed into the cutter's software from the sheet's label."""

FOLD_REFUSAL = ("--cutter needs fronts on pages of their own, which --duplex fold does not print; "
                "use --duplex long, short or none")


class CutterSettingsError(InputError):
    """A mark setting the cutter cannot work with (an inset under its least, an arm too short).

    ``option`` names the command-line option the value came from, so the command line can
    say which one to change; the exit status is the usage error's, 2.
    """

    def __init__(self, message: str, option: str):
        super().__init__(message)
        self.option = option


@dataclass(repr=False, eq=False)
class Cutter:
    """One cutting machine's mark pattern, as ``cutters.yaml`` names it."""

    name: str
    label: str
    corners: tuple[tuple[str, str], ...]
    """(corner, kind) for every corner that carries a mark, in :data:`CORNERS` order."""


@dataclass(repr=False, eq=False)
class CutterStyle:
    """Everything ``cutters.yaml`` says, in points."""

    cutters: dict[str, Cutter]
    inset: float
    least_inset: float
    thickness: float
    thinnest: float
    thickest: float
    length: float
    longest: float
    square: float
    clear: float
    gutter: float
    corner_radius: float


@dataclass(repr=False, eq=False)
class CutterSettings:
    """The marks a build prints: which pattern, and each length in points.

    ``length`` is the shortest arm; where the page leaves room the arms grow to
    ``longest`` (the same as ``length`` when a length was asked for exactly).
    ``choose_orientation`` lets the layout turn the paper to whichever
    orientation holds more cards.
    """

    cutter: Cutter
    inset: float
    thickness: float
    length: float
    longest: float
    square: float
    clear: float
    least_inset: float
    """The least inset the cutter's software accepts."""
    choose_orientation: bool = True


@dataclass(repr=False, eq=False)
class Mark:
    """One registration mark: its kind, its corner of the page and its ink as rectangles."""

    kind: str
    corner: str
    ink: tuple[Box, ...]
    """Filled rectangles that do not overlap: one for the square, two arms for an L."""

    @property
    def bounds(self) -> Box:
        return union(self.ink)


@dataclass(repr=False, eq=False)
class Registration:
    """The marks on one page, the rectangle they enclose and the room kept free around them."""

    settings: CutterSettings
    length: float
    """The arms' length as printed (points)."""
    marks: tuple[Mark, ...]
    rectangle: Box
    """What the marks enclose, between the inner edges of the arms: the cutter cuts only here."""

    @property
    def keep_clear(self) -> tuple[Box, ...]:
        """Each mark's bounds grown by the clear margin: no other ink may reach into these."""
        return tuple(mark.bounds.grown(self.settings.clear) for mark in self.marks)

    def touches(self, box: Box) -> bool:
        """Whether ``box`` reaches into any mark's clear margin."""
        return any(box.overlaps(zone) for zone in self.keep_clear)

    def describe(self) -> str:
        """The settings a cutter's software is given, as the sheet's label prints them."""
        settings = self.settings
        return (f"{settings.cutter.label}: inset {mm_text(settings.inset)}, length {mm_text(self.length)}, "
                f"thickness {mm_text(settings.thickness)}")


def load_cutters(path: Path = CUTTERS_FILE) -> CutterStyle:
    """Read ``cutters.yaml`` (or a file of the same shape); a setting missing or malformed is
    an :class:`InputError` at its line."""
    document = load_yaml(path)
    setting, length = settings_of(document)

    cutters = setting("cutters")
    if not isinstance(cutters, dict) or not cutters:
        raise InputError("expected a mapping of cutters by name", document.at("cutters"), "cutters")
    return CutterStyle(
        cutters={str(name): _read_cutter(document, str(name)) for name in cutters},
        inset=length("marks", "inset"),
        least_inset=length("marks", "least_inset"),
        thickness=length("marks", "thickness"),
        thinnest=length("marks", "thinnest"),
        thickest=length("marks", "thickest"),
        length=length("marks", "length"),
        longest=length("marks", "longest"),
        square=length("marks", "square"),
        clear=length("marks", "clear"),
        gutter=length("gutter"),
        corner_radius=length("corner_radius"),
    )


def _read_cutter(document: Document, name: str) -> Cutter:
    spec = document.data["cutters"][name]
    if not isinstance(spec, dict) or not isinstance(spec.get("corners"), dict):
        raise InputError("a cutter is a mapping with a label and its marks by corner",
                         document.at("cutters", name), name)
    corners = spec["corners"]
    for corner, kind in corners.items():
        if corner not in CORNERS:
            raise InputError(f"unknown corner '{corner}'; use {', '.join(CORNERS)}",
                             document.at("cutters", name, "corners", corner), "corners")
        if kind not in MARK_KINDS:
            raise InputError(f"unknown mark '{kind}'; use square or L",
                             document.at("cutters", name, "corners", corner), "corners")
    return Cutter(name=name, label=str(spec.get("label", name)),
                  corners=tuple((corner, str(corners[corner])) for corner in CORNERS if corner in corners))


def cutter_settings(style: CutterStyle, name: str, inset_mm: float | None = None,
                    thickness_mm: float | None = None, length_mm: float | None = None,
                    choose_orientation: bool = True) -> CutterSettings:
    """The marks for cutter ``name`` with the lengths a user gave (mm; None for the default).

    Raises :class:`CutterSettingsError` for an unknown cutter, an inset under the least the
    cutter's software accepts, or a thickness or length outside what ``cutters.yaml`` allows.
    A length given is printed exactly; without one, arms grow where the page allows.
    """
    if name not in style.cutters:
        raise CutterSettingsError(f"unknown cutter {name!r}; use {' or '.join(sorted(style.cutters))}", "--cutter")
    inset = style.inset if inset_mm is None else _finite(inset_mm, "--mark-inset") * MM
    if inset < style.least_inset - EPSILON:
        raise CutterSettingsError(f"{inset_mm:g} mm is closer to the paper edge than the cutter's software "
                                  f"finds marks; use {style.least_inset / MM:g} mm or more", "--mark-inset")
    thickness = style.thickness if thickness_mm is None else _finite(thickness_mm, "--mark-thickness") * MM
    if not style.thinnest - EPSILON <= thickness <= style.thickest + EPSILON:
        raise CutterSettingsError(f"expected a thickness from {style.thinnest / MM:g} to {style.thickest / MM:g} mm; "
                                  f"found {thickness_mm:g}", "--mark-thickness")
    length = style.length if length_mm is None else _finite(length_mm, "--mark-length") * MM
    if not style.length - EPSILON <= length <= style.longest + EPSILON:
        raise CutterSettingsError(f"expected an arm length from {style.length / MM:g} to {style.longest / MM:g} mm; "
                                  f"found {length_mm:g}", "--mark-length")
    return CutterSettings(cutter=style.cutters[name], inset=inset, thickness=thickness, length=length,
                          longest=style.longest if length_mm is None else length, square=style.square,
                          clear=style.clear, least_inset=style.least_inset, choose_orientation=choose_orientation)


def _finite(value: float, option: str) -> float:
    if not math.isfinite(value):
        raise CutterSettingsError(f"expected a length in millimetres, found '{value:g}'", option)
    return value


def place_marks(paper_width: float, paper_height: float, settings: CutterSettings,
                length: float | None = None) -> Registration:
    """The marks on a page of this size, with arms ``length`` long (default: the shortest)."""
    length = settings.length if length is None else length
    inset, half = settings.inset, settings.thickness / 2
    marks = []
    for corner, kind in settings.cutter.corners:
        right, top = corner.endswith("right"), corner.startswith("top")
        if kind == "square":
            side = settings.square
            x = paper_width - inset - side if right else inset
            y = paper_height - inset - side if top else inset
            marks.append(Mark(kind, corner, (Box(x, y, side, side),)))
            continue
        corner_x = paper_width - inset if right else inset
        corner_y = paper_height - inset if top else inset
        across_x = corner_x - length if right else corner_x - half  # the arm along the edge, corner included
        across = Box(across_x, corner_y - half, length + half, 2 * half)
        down_y = corner_y - length if top else corner_y + half     # the other arm, from the first one's edge
        down = Box(corner_x - half, down_y, 2 * half, length - half)
        marks.append(Mark(kind, corner, (across, down)))
    rectangle = Box(inset + half, inset + half, paper_width - 2 * (inset + half), paper_height - 2 * (inset + half))
    return Registration(settings=settings, length=length, marks=tuple(marks), rectangle=rectangle)


def longest_arms(paper_width: float, paper_height: float, settings: CutterSettings,
                 clear_of: tuple[Box, ...]) -> float:
    """The longest arms (at most ``settings.longest``, at least ``settings.length``) whose marks,
    with their clear margin, keep off every box of ``clear_of`` (the cards with their bleed).

    An L's clear margin spans from ``inset - thickness / 2 - clear`` to ``inset + length + clear``
    in from both edges at its corner. A box keeps off it at any length when it lies wholly
    nearer an edge than that span (text between a mark and the paper's edge); else when it
    starts at least ``inset + length + clear`` in along one of the two edges. The arms also
    stay short of the middle of the page, so two marks' margins never meet.
    """
    inset, clear = settings.inset, settings.clear
    room = min(paper_width, paper_height) / 2 - inset - settings.thickness - clear
    longest = min(settings.longest, room)
    outside = inset - settings.thickness / 2 - clear + EPSILON  # a box's far side nearer the edge than this
    for corner, kind in settings.cutter.corners:
        if kind != "L":
            continue
        for box in clear_of:
            right, top = corner.endswith("right"), corner.startswith("top")
            near_x, far_x = (paper_width - box.right, paper_width - box.x) if right else (box.x, box.right)
            near_y, far_y = (paper_height - box.top, paper_height - box.y) if top else (box.y, box.top)
            if min(far_x, far_y) > outside:
                longest = min(longest, max(near_x, near_y) - inset - clear)
    steps = math.floor(longest / LENGTH_STEP + EPSILON)
    return max(settings.length, steps * LENGTH_STEP)
