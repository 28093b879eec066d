"""Everything drawn once and placed many times: faces, crop marks, and the footer's font.

Each distinct card face becomes one PDF form (an XObject) drawn by reportlab;
every copy of the card is then a four-number placement of that form, so a
deck's file size and build time grow with its distinct faces, not its copies.

reportlab keeps a whole document in memory until it is saved, which would make
memory grow with the number of pages. So reportlab draws only the forms and
the fonts here, into a small document with no pages; :mod:`generator.sheets.pdf`
copies those objects into the output and streams the pages itself.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import re
import zlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from io import BytesIO
from operator import itemgetter
from typing import Any, TypeAlias, cast

from reportlab import rl_config
from reportlab.pdfbase import pdfdoc, pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from generator.render.fonts import register_font
from generator.sheets.marks import Line
from generator.sheets.style import LineStyle

SHEET_FONT = "DeckpressSheetSans"
"""The font of footers and calibration sheets: Bitstream Vera Sans, shipped with reportlab."""
SHEET_FONT_FILE = "Vera.ttf"

RESOURCES_NAME = "SheetResources"
"""Internal name of the one resource dictionary every page shares."""

STARTXREF = re.compile(rb"startxref\s+(\d+)\s+%%EOF\s*$")

Template: TypeAlias = tuple[bytes, bytes]
"""A formatted stream dictionary: the bytes before its length and the bytes after it."""


def sheet_font() -> str:
    """Register the sheet font with reportlab (once) and return its name."""
    if SHEET_FONT not in pdfmetrics.getRegisteredFontNames():
        register_font(TTFont(SHEET_FONT, SHEET_FONT_FILE))
    return SHEET_FONT


def sheet_canvas(stream: BytesIO, title: str, font: str, pagesize: tuple[float, float] | None = None) -> Canvas:
    """A reportlab canvas made by deckpress, titled ``title``, that writes the same bytes for the
    same drawing (no dates, fixed identifiers). Its starting font is ``font``: a TrueType one
    keeps reportlab from adding an unembedded Helvetica."""
    canvas = Canvas(stream, pagesize=pagesize, invariant=1, pageCompression=1, initialFontName=font)
    canvas.setTitle(title)
    canvas.setCreator("deckpress")
    canvas.setProducer("deckpress")
    return canvas


def font_for(text: str, candidates: Iterable[str]) -> str:
    """The first of ``candidates`` (TrueType fonts) with a glyph for every character of ``text``.

    Footers reuse a font the cards already embed when one will do, so the PDF
    carries one font fewer; otherwise they fall back to the sheet font.
    """
    needed = {ord(char) for char in text}
    for name in candidates:
        font = pdfmetrics.getFont(name)
        glyphs = getattr(getattr(font, "face", None), "charToGlyph", None)
        if getattr(font, "_dynamicFont", False) and glyphs and needed <= glyphs.keys():
            return name
    return sheet_font()


@dataclass(frozen=True)
class CompiledForms:
    """The objects reportlab wrote, ready to be copied into a streamed PDF."""

    version: bytes
    """The PDF header line, such as ``b"%PDF-1.4"``."""
    objects: tuple[tuple[int, bytes], ...]
    """``(number, "n 0 obj ... endobj")`` for every object to copy, by number."""
    catalog_number: int
    pages_number: int
    info_number: int
    resources_number: int
    free_numbers: tuple[int, ...]
    """Numbers of reportlab objects left out (its empty outline)."""
    last_number: int
    """The highest object number reportlab used; pages are numbered after it."""


class FormLibrary:
    """Draws each distinct thing once as a named form, and compiles them for the page writer.

    Use it in two phases: first :meth:`add` forms (each returns the name pages place it by)
    and :meth:`prepare_text` for every string pages will show, then :meth:`compile`. After
    compiling, :meth:`runs` and :meth:`show` give the operators pages use for text.
    """

    def __init__(self, title: str, font: str | None = None):
        self.font = font or sheet_font()
        """The font of the text the library shows (footers, a reprint's instructions)."""
        self._canvas = sheet_canvas(BytesIO(), title, self.font)
        self._names: dict[str, str] = {}
        self._glyphs: dict[str, tuple[bytes, bytes]] = {}
        """Per character: the font subset that has it and its code there, ready for a string."""
        self.compiled: CompiledForms | None = None

    def add(self, key: str, bbox: tuple[float, float, float, float],
            draw: Callable[[Canvas], None]) -> str:
        """Draw a form once under ``key``; ``bbox`` (x0, y0, x1, y1) clips it. Returns its name."""
        if key in self._names:
            return self._names[key]
        if self.compiled is not None:
            raise RuntimeError("forms cannot be added after compiling")
        form = f"f{len(self._names) + 1}"
        self._canvas.beginForm(form, *bbox)
        draw(self._canvas)
        self._end_form(form)
        self._names[key] = pdfdoc.xObjectName(form)
        return self._names[key]

    def _end_form(self, form: str) -> None:
        """End the form being drawn, encoding its operators with Python's ASCII codec when they are
        plain ASCII.

        reportlab encodes a form's operators with its PDFDocEncoding codec, a
        dictionary lookup per character. Operators are ASCII text, where that
        encoding is the identity, so they are encoded here and reportlab only
        encodes the (empty) rest. Anything else is left to reportlab.
        """
        canvas = self._canvas
        operators = "\n".join([canvas._preamble, *canvas._code])
        encoded = operators.encode("ascii") if operators.isascii() else None
        if encoded is None or any(code in encoded for code in _PDFDOC_GAPS):
            canvas.endForm()
            return
        canvas._code = []
        canvas.endForm()
        canvas._doc.idToObject[pdfdoc.xObjectName(form)].stream = encoded

    def add_lines(self, key: str, lines: Iterable[Line], style: LineStyle,
                  bbox: tuple[float, float, float, float]) -> str:
        """A form of straight lines in one style (crop marks, cut lines, a fold line)."""
        lines = list(lines)

        def draw(canvas: Canvas) -> None:
            canvas.setLineWidth(style.width)
            canvas.setStrokeGray(style.gray)
            if style.dash:
                canvas.setDash(list(style.dash), 0)
            canvas.lines(lines)

        return self.add(key, bbox, draw)

    def prepare_text(self, text: str) -> None:
        """Make every character of ``text`` available to :meth:`text` after compiling.

        The sheet font is embedded as a subset of the glyphs actually used, so
        the characters must be known before the font is written.
        """
        if self.compiled is not None:
            raise RuntimeError("text must be prepared before compiling")
        font = pdfmetrics.getFont(self.font)
        doc = self._canvas._doc  # reportlab numbers glyph subsets per document
        for char in sorted(set(text) - set(self._glyphs)):
            (subset, code), = font.splitString(char, doc)
            self._glyphs[char] = (font.getSubsetInternalName(subset, doc).encode(), escape(code))

    def runs(self, text: str) -> list[tuple[bytes, bytes]]:
        """``text`` as runs of (font subset, character codes in it), for :meth:`show`.

        Runs of two strings put one after the other show the two strings in a
        row (see :func:`joined_runs`), so a text that changes in one place
        can be encoded once around that place.
        """
        glyphs = [self._glyphs.get(char) or self._glyphs[" "] for char in text]
        return [(font, b"".join(code for _, code in run))
                for font, run in itertools.groupby(glyphs, key=itemgetter(0))]

    def show(self, runs: list[tuple[bytes, bytes]], x: float, y: float, size: float, gray: float,
             rgb: tuple[float, float, float] | None = None) -> bytes:
        """Content-stream operators showing ``runs`` (from :meth:`runs`) with the baseline starting
        at (x, y), in ``gray`` (or the colour ``rgb``)."""
        size_text = number(size).encode()
        shown = b" ".join(b"%s %s Tf (%s) Tj" % (font, size_text, codes) for font, codes in runs)
        paint = (b"%s rg" % " ".join(number(part) for part in rgb).encode() if rgb is not None
                 else b"%s g" % number(gray).encode())
        return b"q %s BT %s %s Td %s ET Q" % (paint, number(x).encode(), number(y).encode(), shown)

    def text_width(self, text: str, size: float) -> float:
        return float(pdfmetrics.stringWidth(text, self.font, size))

    def compile(self) -> CompiledForms:
        """Have reportlab write the forms and fonts; keep the objects a page writer copies."""
        if self.compiled is not None:
            return self.compiled
        self.prepare_text(" ")
        canvas = self._canvas
        doc = canvas._doc
        resources = _plain_form_resources()
        resources.XObject = doc.xobjDict([name.split(".", 1)[1] for name in self._names.values()])
        shadings = _shadings(doc)
        _give_forms_paint_resources(doc, self._names.values(), shadings)
        self._share_form_dictionaries(doc)
        doc.Reference(resources, RESOURCES_NAME)
        with binary_streams():
            data = canvas.getpdfdata()
        self.compiled = _split_objects(data, doc)
        return self.compiled

    def _share_form_dictionaries(self, doc: pdfdoc.PDFDocument) -> None:
        """Have forms that draw alike share one resources object and one formatted dictionary.

        Left alone, reportlab builds and formats each form's dictionary afresh,
        every name and number of it through its codec. Faces of one size differ
        only in their stream's length, so each dictionary is formatted once (see
        :class:`_FormStream`) and gives the same bytes.
        """
        plain = _plain_form_resources()
        templates: dict[tuple[Any, ...], Template] = {}
        boxes: dict[tuple[Any, ...], pdfdoc.PDFArray] = {}
        matrix = pdfdoc.PDFArray([1, 0, 0, 1, 0, 0])  # what reportlab gives a form without one
        forms = []
        for name in self._names.values():
            form = doc.idToObject[name]
            if form.Contents is not None or not form.stream or form.Annots:
                continue  # reportlab's own way for anything unusual
            if form.Resources is None and not form.XObjects:
                form.Resources = plain
            if form.BBox is None:  # the array reportlab would make, one for every form of a size
                corners = (form.lowerx, form.lowery, form.upperx, form.uppery)
                key = (corners, tuple(map(type, corners)))  # 1 and 1.0 may format apart
                form.BBox = boxes.get(key) or boxes.setdefault(key, pdfdoc.PDFArray(corners))
            form.Matrix = form.Matrix or matrix
            forms.append((name, form))
        shapes: dict[tuple[int, int, int, bool], Template] = {}
        for name, form in forms:
            form.Contents = _FormStream(form.stream, templates)
            if form.Resources is not None:
                doc.idToObject[name] = _FaceForm(form, shapes)


_PDFDOC_GAPS = [bytes([code]) for code in range(24, 32)]
"""The ASCII codes PDFDocEncoding lacks: ASCII text without them it encodes byte for byte."""


def _plain_form_resources() -> pdfdoc.PDFResourceDictionary:
    """The resources reportlab gives a form with no images, transparency or gradients."""
    resources = pdfdoc.PDFResourceDictionary()
    resources.basicFonts()
    resources.allProcs()
    return resources


class _LengthMark(pdfdoc.PDFObject):  # type: ignore[misc]  # reportlab has no type information
    """Stands for a stream's length while a shared form dictionary is formatted."""

    MARK = b"\x00length\x00"

    def format(self, document: pdfdoc.PDFDocument) -> bytes:
        return self.MARK


class _FormStream(pdfdoc.PDFStream):  # type: ignore[misc]  # reportlab has no type information
    """A form's stream, formatted as :class:`reportlab.pdfbase.pdfdoc.PDFStream` formats it, but
    with the dictionary (which reportlab fills in before formatting) formatted once per distinct
    content and the stream's length put in its place."""

    def __init__(self, content: bytes, templates: dict[tuple[Any, ...], Template]):
        super().__init__(content=content)
        self._templates = templates

    template: Template | None = None
    """The dictionary before and after its length, once formatted that way."""

    def format(self, document: pdfdoc.PDFDocument) -> bytes:
        entries = self.dictionary.dict
        if (list(self.filters or ()) != [pdfdoc.PDFZCompress] or "Filter" in entries or "Length" in entries
                or not isinstance(document.encrypt, pdfdoc.NoEncryption)):
            return cast(bytes, super().format(document))
        self.template = self._template(entries, document)
        return self.formatted(self.template)

    def formatted(self, template: Template) -> bytes:
        """The stream with its dictionary ``template`` (before and after its length)."""
        content = zlib.compress(self.content)  # what reportlab's PDFZCompress writes
        return b"%s%d%s\nstream\n%sendstream\n" % (template[0], len(content), template[1], content)

    def _template(self, entries: dict[str, Any], document: pdfdoc.PDFDocument) -> Template:
        """The formatted dictionary before and after its length.

        Dictionaries are told apart by their entries, names and values with the values' types
        (1, 1.0 and True format apart). reportlab's arrays and dictionaries compare as objects,
        so forms share their bounding box and matrix arrays to share a template (see
        :meth:`FormLibrary._share_form_dictionaries`); the key keeps the objects it holds alive.
        """
        key = (tuple(entries.items()), tuple(map(type, entries.values())))
        try:
            found = self._templates.get(key)
        except TypeError:  # a value that cannot be a key: formatted for this form alone
            return _formatted_template(entries, document)
        if found is None:
            found = self._templates[key] = _formatted_template(entries, document)
        return found


def _formatted_template(entries: dict[str, Any], document: pdfdoc.PDFDocument) -> Template:
    """A compressed stream's dictionary of ``entries``, formatted by reportlab, before and after its length."""
    filters = pdfdoc.PDFArray([pdfdoc.PDFName(pdfdoc.PDFZCompress.pdfname)])
    dictionary = pdfdoc.PDFDictionary({**entries, "Filter": filters, "Length": _LengthMark()})
    before, after = pdfdoc.format(dictionary, document).split(_LengthMark.MARK)
    return before, after


class _FaceForm(pdfdoc.PDFObject):  # type: ignore[misc]  # reportlab has no type information
    """Stands for a form in the document's table of objects, and writes it as reportlab would.

    reportlab's form builds its dictionary afresh each time (arrays, names,
    entries) before its stream formats it. What the dictionary holds comes from
    the form's bounding box, matrix and resources objects and its compression
    alone, so the first form of each such shape is written by reportlab and
    the rest reuse the dictionary it wrote (:attr:`_FormStream.template`).
    """

    def __init__(self, form: pdfdoc.PDFFormXObject, shapes: dict[tuple[int, int, int, bool], Template]):
        self._form = form
        self._shapes = shapes
        self._shape = (id(form.BBox), id(form.Matrix), id(form.Resources), bool(form.compression))
        """The objects stay alive with the form, so their ids name them."""

    def format(self, document: pdfdoc.PDFDocument) -> bytes:
        contents: _FormStream = self._form.Contents
        template = self._shapes.get(self._shape)
        if template is not None and isinstance(document.encrypt, pdfdoc.NoEncryption):
            return contents.formatted(template)
        formatted = cast(bytes, self._form.format(document))
        if contents.template is not None:
            self._shapes[self._shape] = contents.template
        return formatted


def _shadings(doc: pdfdoc.PDFDocument) -> pdfdoc.PDFObjectReference | None:
    """A reference to a dictionary of every gradient (shading) the faces draw, or None."""
    names = [f"Sh{number}" for number in range(doc.shadingCounter)]
    if not names:
        return None
    return doc.Reference(pdfdoc.PDFDictionary({name: pdfdoc.PDFObjectReference(name) for name in names}),
                         "SheetShadings")


def give_forms_paint_resources(canvas: Canvas, forms: Iterable[str]) -> None:
    """Let each of ``forms`` (names as given to ``canvas.beginForm``) name the transparency states
    and gradients it paints in its own resources, as a viewer needs; call it before
    ``canvas.save()``. Any document that places faces as forms needs this, not only a sheet."""
    doc = canvas._doc
    _give_forms_paint_resources(doc, [pdfdoc.xObjectName(name) for name in forms], _shadings(doc))


def _give_forms_paint_resources(doc: pdfdoc.PDFDocument, names: Iterable[str],
                                shadings: pdfdoc.PDFObjectReference | None) -> None:
    """Let every face form name its transparency and gradients in its own resources.

    reportlab keeps each form's transparency states (``/gs`` operands, named
    afresh in every form) beside the form but writes its resources with fonts
    and images only; shadings (``/sh``) are not kept at all. A viewer looks
    both up in the form's resources, so they are added here.
    """
    # Forms that need the gradients alone share one dictionary, so that their form
    # dictionaries are formatted once (see FormLibrary._share_form_dictionaries).
    gradients_only = None
    for name in names:
        form = doc.idToObject[name]
        states = getattr(form, "ExtGState", None)
        if not states and not shadings:
            continue
        if not states and not form.XObjects:
            if gradients_only is None:
                gradients_only = _plain_form_resources()
                gradients_only.Shading = shadings
            form.Resources = gradients_only
            continue
        resources = _plain_form_resources()
        if form.XObjects:
            resources.XObject = form.XObjects
        if states:
            resources.ExtGState = states
        if shadings:
            resources.Shading = shadings
        form.Resources = resources


@contextlib.contextmanager
def binary_streams() -> Iterator[None]:
    """Have reportlab write compressed streams as binary rather than ASCII85 text.

    ASCII85 makes every stream a quarter larger for no gain in a file that is
    binary anyway. reportlab only offers a process-wide switch, so it is set
    for the moment of writing and put back.
    """
    saved = rl_config.useA85
    rl_config.useA85 = 0
    try:
        yield
    finally:
        rl_config.useA85 = saved


def _split_objects(data: bytes, doc: pdfdoc.PDFDocument) -> CompiledForms:
    """Cut reportlab's output into its numbered objects, using the offsets it recorded."""
    match = STARTXREF.search(data)
    if not match:
        raise RuntimeError("reportlab output has no cross-reference table")
    xref_offset = int(match.group(1))

    def number_of(obj: object) -> int | None:
        """The object number reportlab gave ``obj``, or None if it never wrote it."""
        name = getattr(obj, pdfdoc.__InternalName__, None)
        return doc.idToObjectNumberAndVersion[name][0] if name else None

    def written(obj: object) -> int:
        """The object number of ``obj``, which every PDF has."""
        found = number_of(obj)
        if found is None:
            raise RuntimeError(f"reportlab did not write its {type(obj).__name__}")
        return found

    starts = sorted((offset, doc.idToObjectNumberAndVersion[oid][0])
                    for oid, offset in doc.idToOffset.items())
    ends = [offset for offset, _ in starts[1:]] + [xref_offset]
    outline = number_of(doc.Outlines)
    skipped = {number_of(doc.Catalog), number_of(doc.Pages), outline}
    objects = []
    for (start, number), end in zip(starts, ends, strict=True):
        chunk = data[start:end]
        if not chunk.startswith(b"%d 0 obj" % number):
            raise RuntimeError(f"reportlab object {number} is not where its offset says")
        if number not in skipped:
            objects.append((number, chunk))
    return CompiledForms(
        version=data.split(b"\n", 1)[0],
        objects=tuple(objects),
        catalog_number=written(doc.Catalog),
        pages_number=written(doc.Pages),
        info_number=written(doc.info),
        resources_number=doc.idToObjectNumberAndVersion[RESOURCES_NAME][0],
        free_numbers=(outline,) if outline else (),
        last_number=max(number for _, number in starts),
    )


def joined_runs(*parts: list[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    """The runs of strings shown one after the other: neighbours in one font become one run."""
    return [(font, b"".join(codes for _, codes in run))
            for font, run in itertools.groupby(itertools.chain(*parts), key=itemgetter(0))]


@functools.lru_cache(maxsize=4096)  # pages repeat their slots' corners, the footer's size and baseline
def number(value: float) -> str:
    """A coordinate for a content stream: at most three decimals, no trailing zeros."""
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def escape(codes: bytes) -> bytes:
    """Bytes made safe inside a PDF string literal ``( ... )``."""
    out = bytearray()
    for byte in codes:
        if byte in b"()\\":
            out += b"\\" + bytes([byte])
        elif 32 <= byte < 127:
            out.append(byte)
        else:
            out += b"\\%03o" % byte
    return bytes(out)
