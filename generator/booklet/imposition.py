"""Saddle-stitch imposition: reading pages -> two-up sheets that fold into a booklet.

Print the sheets double-sided, flipping on the short edge, keep them in
order, fold the stack in half and staple along the fold: the pages then read
1, 2, 3 ... For ``n`` pages (padded with blanks to a multiple of 4) sheet ``s``
(counting from 0) carries::

    front: left = n - 2s,     right = 2s + 1
    back:  left = 2s + 2,     right = n - 2s - 1

so the first sheet's front holds the last page and the cover, and the middle
sheet's back holds the centre spread. The order is a pure function, tested
on its own; pypdf then places the pages.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from pypdf import PageObject, PdfReader, PdfWriter
from pypdf.generic import ArrayObject, DictionaryObject, FloatObject, IndirectObject, NameObject, StreamObject
from reportlab.lib.colors import Color
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

PAGES_PER_SHEET = 4
"""A folded sheet makes four booklet pages: two on each side."""


@dataclass(frozen=True)
class Side:
    """One printed side of a sheet: the page numbers (from 1) on its left and right halves.

    ``None`` is a blank page added to reach a multiple of four.
    """

    left: int | None
    right: int | None


def padded_count(pages: int) -> int:
    """Pages rounded up to a whole number of folded sheets."""
    return -(-pages // PAGES_PER_SHEET) * PAGES_PER_SHEET


def saddle_stitch_order(pages: int) -> list[Side]:
    """Printed sides in print order (sheet 1 front, sheet 1 back, sheet 2 front, ...)."""
    total = padded_count(pages)

    def page(number: int) -> int | None:
        return number if number <= pages else None

    return [side for sheet in range(total // PAGES_PER_SHEET)
            for side in (Side(left=page(total - 2 * sheet), right=page(2 * sheet + 1)),
                         Side(left=page(2 * sheet + 2), right=page(total - 2 * sheet - 1)))]


NOTE_SIZE = 6.5
"""Points. The printing note (the ``printing_note`` phrase of generator/words/) is printed
this small in the top margin of the first sheet's left half (the back cover), clear of
the cover's frame: whoever prints the file sees how to make the booklet. A longer
note, in a wordier language, shrinks to stay within that half."""


def impose(reading_pdf: bytes, sheet_size: tuple[float, float], note: bytes) -> bytes:
    """Place the reading pages two-up on landscape sheets, in saddle-stitch order.

    Each page is centred in its half of the sheet (A5 on A4 and half-letter on
    Letter fill their halves exactly). A page becomes a form XObject that the
    sheet draws where it belongs: the page's drawing is copied once, never
    re-parsed, which keeps imposing fast however busy the pages are.

    ``note`` is a one-page PDF of the sheet's size (see :func:`printing_note_pdf`)
    drawn over the first printed side only.
    """
    reader = PdfReader(io.BytesIO(reading_pdf))
    sheet_width, sheet_height = sheet_size
    half = sheet_width / 2
    writer = PdfWriter()
    forms: dict[int, IndirectObject] = {}
    note_form = writer._add_object(_page_as_form(PdfReader(io.BytesIO(note)).pages[0], writer))
    for index, side in enumerate(saddle_stitch_order(len(reader.pages))):
        placements = [("/Note", note_form, 0.0, 0.0)] if index == 0 else []
        for number, x_origin in ((side.left, 0.0), (side.right, half)):
            if number is None:
                continue
            page = reader.pages[number - 1]
            if number not in forms:
                forms[number] = writer._add_object(_page_as_form(page, writer))
            offset_x = x_origin + (half - float(page.mediabox.width)) / 2
            offset_y = (sheet_height - float(page.mediabox.height)) / 2
            placements.append((f"/Page{number}", forms[number], offset_x, offset_y))
        sheet = writer.add_blank_page(width=sheet_width, height=sheet_height)
        _draw_forms(writer, sheet, placements)
    writer.add_metadata({key: value for key, value in (reader.metadata or {}).items()
                         if key in ("/Title", "/Author", "/Subject", "/Creator")})
    output = io.BytesIO()
    writer.write(output)
    return output.getvalue()


def _page_as_form(page: PageObject, writer: PdfWriter) -> StreamObject:
    """A reading page as a form XObject: its content stream, resources (copied
    into ``writer``, fonts and images included) and box."""
    resources = page.get("/Resources")
    resources = resources.get_object().clone(writer) if resources is not None else DictionaryObject()
    form = StreamObject()
    contents = page.get_contents()
    form.set_data(contents.get_data() if contents is not None else b"")
    box = page.mediabox
    form.update({
        NameObject("/Type"): NameObject("/XObject"),
        NameObject("/Subtype"): NameObject("/Form"),
        NameObject("/BBox"): ArrayObject([FloatObject(box.left), FloatObject(box.bottom),
                                          FloatObject(box.right), FloatObject(box.top)]),
        NameObject("/Resources"): resources,
    })
    return form.flate_encode()  # stored compressed, as the reading PDF stores it


def _draw_forms(writer: PdfWriter, sheet: PageObject,
                placements: list[tuple[str, IndirectObject, float, float]]) -> None:
    """Give ``sheet`` a content stream that draws each form at its offset."""
    xobjects = DictionaryObject({NameObject(name): form for name, form, _, _ in placements})
    sheet[NameObject("/Resources")] = DictionaryObject({NameObject("/XObject"): xobjects})
    commands = "".join(f"q 1 0 0 1 {x:.3f} {y:.3f} cm {name} Do Q\n" for name, _, x, y in placements)
    content = StreamObject()
    content.set_data(commands.encode("ascii"))
    sheet[NameObject("/Contents")] = writer._add_object(content)


def printing_note_pdf(sheet_size: tuple[float, float], font_name: str, colour: Color, note: str) -> bytes:
    """A sheet-sized page carrying only ``note``, over the left half's top margin."""
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=sheet_size, invariant=1, pageCompression=1, initialFontName=font_name)
    width, height = sheet_size
    room = width / 2 - 48  # the half page, less a margin either side
    canvas.setFont(font_name, min(NOTE_SIZE, NOTE_SIZE * room / max(stringWidth(note, font_name, NOTE_SIZE), 1)))
    canvas.setFillColor(colour)
    # In the back cover's blank top margin, well inside any printer's printable area.
    canvas.drawCentredString(width / 4, height - 24, note)
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()
