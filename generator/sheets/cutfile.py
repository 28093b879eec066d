"""The cut file: where a cutting machine cuts each card of a sheet, as SVG or DXF.

One page-sized drawing in millimetres serves every page of a build, because
every front page shares its grid: one closed path per card slot along its trim
line (corners rounded by the corner radius), in a group or layer named ``cut``,
and the registration marks, each ink rectangle where the PDF prints it, in one
named ``registration``. Silhouette Studio and Cricut Design Space import both
formats; lining the imported marks up with the cutter's own shows that the file
and the sheet agree.

Both writers draw from the same :class:`CutSheet`, which is made from the
sheet layout the PDF pages and the manifest are drawn from, so the three
cannot disagree. An SVG measures y downwards from the top edge; a DXF, like
PDF, upwards from the bottom.
"""

from __future__ import annotations

import contextlib
import io
import math
from collections.abc import Iterator
from dataclasses import dataclass

from generator.boxes import Box
from generator.sheets.cutting import CUT_FILE_FORMATS, Registration
from generator.sheets.geometry import SheetLayout
from generator.sheets.style import MM

CUT_GROUP = "cut"
REGISTRATION_GROUP = "registration"
SVG_CUT_STROKE = "#ff0000"
"""Cut paths are drawn as thin red lines, as cutting software shows cut lines."""
SVG_CUT_WIDTH_MM = 0.25
DXF_CUT_COLOUR = 1
"""AutoCAD colour index of the cut layer: red."""
DXF_REGISTRATION_COLOUR = 7
"""AutoCAD colour index of the registration layer: black (white on a dark screen)."""
QUARTER_CIRCLE_BULGE = math.tan(math.pi / 8)
"""A DXF polyline's bulge for a quarter circle turning anticlockwise: tan(90 degrees / 4)."""


@dataclass(repr=False, eq=False)
class CutSheet:
    """What a cutting machine needs of one page: its size, every trim box and the marks (points)."""

    width: float
    height: float
    trims: tuple[Box, ...]
    corner_radius: float
    registration: Registration | None


def cut_sheet(layout: SheetLayout) -> CutSheet:
    """The front page of ``layout`` as a cutter sees it: every slot of the grid."""
    return CutSheet(width=layout.paper.width, height=layout.paper.height, trims=layout.slots,
                    corner_radius=layout.settings.corner_radius, registration=layout.registration)


def cut_file_name(pdf_name: str, cut_format: str) -> str:
    """``deck.pdf`` -> ``deck.cut.svg``: the cut file is named after the PDF it cuts."""
    stem = pdf_name[:-4] if pdf_name.lower().endswith(".pdf") else pdf_name
    return f"{stem}.cut.{cut_format}"


def cut_file_bytes(sheet: CutSheet, cut_format: str) -> bytes:
    """The cut file of ``sheet`` in ``cut_format`` ("svg" or "dxf")."""
    if cut_format not in CUT_FILE_FORMATS:
        raise ValueError(f"cut files are {' or '.join(CUT_FILE_FORMATS)}, not '{cut_format}'")
    return svg_cut_file(sheet) if cut_format == "svg" else dxf_cut_file(sheet)


def mm(points: float) -> str:
    """A length in millimetres for the SVG: to a ten-thousandth, no trailing zeros."""
    text = f"{points / MM:.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def svg_cut_file(sheet: CutSheet) -> bytes:
    """The cut file as SVG: a page ``width`` x ``height`` millimetres, y measured downwards."""
    width, height = mm(sheet.width), mm(sheet.height)
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<svg xmlns="http://www.w3.org/2000/svg" '
        'xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" '
        f'width="{width}mm" height="{height}mm" viewBox="0 0 {width} {height}">',
        "<title>deckpress cut file: cut along the paths of the cut group</title>",
        f'<g id="{REGISTRATION_GROUP}" inkscape:groupmode="layer" '
        f'inkscape:label="{REGISTRATION_GROUP}" fill="#000000" stroke="none">',
    ]
    marks = sheet.registration.marks if sheet.registration else ()
    for mark in marks:
        for ink in mark.ink:
            top = sheet.height - ink.top
            lines.append(f'<rect class="{mark.kind}" x="{mm(ink.x)}" y="{mm(top)}" '
                         f'width="{mm(ink.width)}" height="{mm(ink.height)}"/>')
    lines.append("</g>")
    lines.append(f'<g id="{CUT_GROUP}" inkscape:groupmode="layer" inkscape:label="{CUT_GROUP}" '
                 f'fill="none" stroke="{SVG_CUT_STROKE}" stroke-width="{SVG_CUT_WIDTH_MM:g}">')
    for number, trim in enumerate(sheet.trims, start=1):
        lines.append(f'<path id="slot-{number}" d="{_svg_outline(trim, sheet.height, sheet.corner_radius)}"/>')
    lines += ["</g>", "</svg>", ""]
    return "\n".join(lines).encode("utf-8")


def _svg_outline(trim: Box, page_height: float, radius: float) -> str:
    """A closed path round ``trim`` (clockwise on the page), its corners rounded by ``radius``."""
    left, right = trim.x, trim.right
    top, bottom = page_height - trim.top, page_height - trim.y  # SVG's y runs down the page
    if radius <= 0:
        return f"M{mm(left)},{mm(top)} H{mm(right)} V{mm(bottom)} H{mm(left)} Z"
    r = mm(radius)
    arc = f"A{r},{r} 0 0 1"
    return (f"M{mm(left + radius)},{mm(top)} H{mm(right - radius)} {arc} {mm(right)},{mm(top + radius)} "
            f"V{mm(bottom - radius)} {arc} {mm(right - radius)},{mm(bottom)} "
            f"H{mm(left + radius)} {arc} {mm(left)},{mm(bottom - radius)} "
            f"V{mm(top + radius)} {arc} {mm(left + radius)},{mm(top)} Z")


def dxf_outline(trim: Box, radius: float) -> list[tuple[float, float, float]]:
    """A closed polyline round ``trim`` in millimetres (anticlockwise, y up) as (x, y, bulge) vertices.

    A vertex's bulge shapes the segment that starts there: 0 for a straight side, a
    quarter circle's for a rounded corner.
    """
    left, bottom, right, top = (value / MM for value in (trim.x, trim.y, trim.right, trim.top))
    if radius <= 0:
        return [(left, bottom, 0.0), (right, bottom, 0.0), (right, top, 0.0), (left, top, 0.0)]
    r, bulge = radius / MM, QUARTER_CIRCLE_BULGE
    return [(left + r, bottom, 0.0), (right - r, bottom, bulge), (right, bottom + r, 0.0), (right, top - r, bulge),
            (right - r, top, 0.0), (left + r, top, bulge), (left, top - r, 0.0), (left, bottom + r, bulge)]


def dxf_cut_file(sheet: CutSheet) -> bytes:
    """The cut file as DXF (AutoCAD 2010), in millimetres with y up: layers ``cut`` and
    ``registration``, each slot a closed polyline, each mark's ink a filled one.

    Written with the dates and identifiers ezdxf stamps fixed, and its classes registered
    in the order of their names (ezdxf adds those of the entities in use from a set, in an
    order that changes from one process to the next), so the same sheet gives the same bytes.
    """
    import ezdxf  # noqa: PLC0415  (only a DXF cut file needs it, and it takes a while to import)
    from ezdxf import units  # noqa: PLC0415  (part of the same library)

    with _fixed_dxf_stamps():
        document = ezdxf.new("R2010")
        document.units = units.MM
        document.header["$MEASUREMENT"] = 1  # metric
        document.layers.add(CUT_GROUP, color=DXF_CUT_COLOUR)
        document.layers.add(REGISTRATION_GROUP, color=DXF_REGISTRATION_COLOUR)
        space = document.modelspace()
        marks = sheet.registration.marks if sheet.registration else ()
        for mark in marks:
            for ink in mark.ink:
                corners = dxf_outline(ink, 0.0)
                space.add_lwpolyline([(x, y) for x, y, _ in corners], close=True,
                                     dxfattribs={"layer": REGISTRATION_GROUP})
                hatch = space.add_hatch(color=DXF_REGISTRATION_COLOUR, dxfattribs={"layer": REGISTRATION_GROUP})
                hatch.paths.add_polyline_path([(x, y) for x, y, _ in corners], is_closed=True)
        for trim in sheet.trims:
            space.add_lwpolyline(dxf_outline(trim, sheet.corner_radius), format="xyb", close=True,
                                 dxfattribs={"layer": CUT_GROUP})
        for dxf_type in sorted(document.entitydb.dxf_types_in_use()):
            document.classes.add_class(dxf_type)
        text = io.StringIO()
        document.write(text)
    return text.getvalue().encode("utf-8")


@contextlib.contextmanager
def _fixed_dxf_stamps() -> Iterator[None]:
    """ezdxf stamps a file with the time and fresh identifiers unless told to write fixed
    ones; its switch is process-wide, so it is set for the moment of writing and put back."""
    from ezdxf import options  # noqa: PLC0415  (only a DXF cut file needs it)

    saved = options.write_fixed_meta_data_for_testing
    options.write_fixed_meta_data_for_testing = True
    try:
        yield
    finally:
        options.write_fixed_meta_data_for_testing = saved
