"""Preflight: read any PDF and list, page by page, what a shop would reject in it.

The file's side of :mod:`~generator.shops.rules`, for files deckpress made and files it
did not. Read with pypdf, never drawn:

- each page's MediaBox, TrimBox and BleedBox against the shop's card sizes and bleed;
- every colour the pages paint, in their content streams, the forms and patterns
  they draw, their images (inline ones too) and shadings, against the colour spaces
  the PDF/X standard allows (no DeviceRGB, Lab or RGB ICC profiles in PDF/X-1a);
- transparency where the standard forbids it: soft masks, constant alpha below 1,
  blend modes, transparency groups;
- every font a page sets text in, which must be embedded;
- the catalog's OutputIntent (``/S /GTS_PDFX`` with a 4-component profile), the
  ``GTS_PDFX`` keys and the PDF version;
- total ink, computed from the colours the pages use: each ``k``/``K`` and CMYK
  ``sc`` colour, the stops of every shading, every pixel of CMYK images;
- every resource the content names (font, image, form, pattern, shading, colour space,
  graphics state), which the resources must hold: names are read as pypdf reads the
  resources' keys, so ``/Art#C3#A9`` is the key ``/Arté``.

Forms, fonts, images, shadings and functions a file shares between pages, or names many
times, are read once, and the work in all is bounded (the ``MAX_`` constants below), so a
small hostile file is one error, not hours or gigabytes. It proves the file keeps
these rules, which are the ones shops reject files for most; it is not a certified
PDF/X validator (such as Acrobat's), which checks far more of ISO 15930.
"""

from __future__ import annotations

import contextlib
import io
import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from pypdf import PdfReader
from pypdf.errors import PyPdfError
from pypdf.generic import ArrayObject, DictionaryObject, NameObject, StreamObject

from generator.render.images import MAX_IMAGE_PIXELS
from generator.render.units import MM, mm_text, size_text
from generator.shops.inks import INK_TOLERANCE
from generator.shops.presets import Preset, shown
from generator.shops.rules import Standard, rules_for, standard_of

MAX_PREFLIGHT_BYTES = 500_000_000
"""A file read by preflight: a deck of a thousand cards with full-bleed art is a few hundred
megabytes; past that the file is not a deck of cards."""
MAX_PREFLIGHT_PAGES = 100_000
"""Pages read: far more than any deck (one face a page); each takes a moment to read."""
MAX_PREFLIGHT_OPERATIONS = 500_000
"""Drawing operations read in all (forms and patterns read once): a card face takes a few hundred,
so this is a thousand distinct faces twice over, read in about ten seconds."""
MAX_PREFLIGHT_CONTENT_BYTES = 100_000_000
"""Decoded content read in all (each stream decoded once, a stream a page names twice counted
twice): the drawing operations above take a few dozen bytes each, and a card face's art is its
images, which are not content; a page that names one 70 MB stream a hundred times would take 7 GB."""
MAX_PREFLIGHT_FUNCTIONS = 100_000
"""Shading functions opened in all (each shading read once, each function once a shading): a
gradient has one for each pair of its stops, 15 at most in a deckpress layout, so this is over
six thousand distinct gradients."""
MAX_NESTING = 20
"""Forms drawn inside forms (patterns inside patterns, shading functions inside functions, colour
spaces based on colour spaces): real files nest two or three deep; one that holds itself would
go on for ever."""
BOX_TOLERANCE = 0.05 * MM
"""How far boxes may be off and still agree: PDF writers round to hundredths of a point."""
PageBox = tuple[float, float, float, float]
"""A page box as (left, bottom, right, top) in points."""
INHERITED_BOXES = ("/MediaBox", "/CropBox")
"""The page boxes a page takes from its page tree when it has none (PDF 32000-1, table 30)."""

RESOURCE_KINDS = {"/Font": "font", "/XObject": "image or form", "/ExtGState": "graphics state",
                  "/Shading": "shading", "/Pattern": "pattern", "/ColorSpace": "colour space"}
"""What each kind of resource a content stream names is called in a finding."""
_NO_RESOURCES = DictionaryObject()
"""The resources of a stream that has none (one object, so that what is read with it is remembered)."""
COLOUR_ABBREVIATIONS = {"G": "DeviceGray", "RGB": "DeviceRGB", "CMYK": "DeviceCMYK", "I": "Indexed"}
"""Inline images' short names for colour spaces."""


class UnreadablePdf(ValueError):
    """A file preflight cannot read as a PDF (exit 2); the message says why."""


@dataclass(repr=False, eq=False)
class Problem:
    """One thing the shop would reject: the rule, the page (None for the whole file) and what."""

    rule: str
    message: str
    page: int | None = None


@dataclass(repr=False, eq=False)
class _Seen:
    """What one content stream (a page's, a form's, a pattern's) uses, read once."""

    problems: list[tuple[str, str]] = field(default_factory=list)
    ink: float = 0.0  # the most ink any colour it paints puts down, percent
    ink_where: str = ""

    def add(self, rule: str, message: str) -> None:
        if (rule, message) not in self.problems:
            self.problems.append((rule, message))

    def take(self, other: _Seen) -> None:
        for problem in other.problems:
            self.add(*problem)
        self.inked(other.ink, other.ink_where)

    def inked(self, total: float, where: str) -> None:
        if total > self.ink:
            self.ink, self.ink_where = total, where


@dataclass(repr=False, eq=False)
class Report:
    """What preflight found in one file."""

    pages: int
    problems: tuple[Problem, ...]

    def grouped(self) -> list[tuple[str, str, list[int]]]:
        """(rule, message, pages) for each distinct problem, in the order first found; the
        pages are empty for a problem of the whole file."""
        groups: dict[tuple[str, str], list[int]] = {}
        for problem in self.problems:
            pages = groups.setdefault((problem.rule, problem.message), [])
            if problem.page is not None:
                pages.append(problem.page)
        return [(rule, message, pages) for (rule, message), pages in groups.items()]


def preflight(data: bytes, preset: Preset) -> Report:
    """Every problem ``preset``'s shop would reject in the PDF ``data``; raises :class:`UnreadablePdf`."""
    if len(data) > MAX_PREFLIGHT_BYTES:
        raise UnreadablePdf(f"is {len(data):,} bytes; preflight reads files of at most {MAX_PREFLIGHT_BYTES:,}")
    if not data.lstrip()[:5] == b"%PDF-":
        raise UnreadablePdf("is not a PDF file (it does not start with %PDF-)")
    try:
        with _pypdf_silenced():
            return _read_and_check(data, preset)
    except UnreadablePdf:
        raise
    except Exception as error:  # a parser meeting a broken or hostile file fails in its own ways: report, not crash
        detail = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise UnreadablePdf(f"cannot be read as a PDF ({detail})") from None


def _read_and_check(data: bytes, preset: Preset) -> Report:
    reader = PdfReader(io.BytesIO(data), strict=False)
    if reader.is_encrypted:
        return Report(0, (Problem("encryption", "the file is encrypted: shops need files they can open "
                                                "and print without a password"),))
    count = len(reader.pages)
    if count > MAX_PREFLIGHT_PAGES:
        raise UnreadablePdf(f"has {count:,} pages; preflight reads at most {MAX_PREFLIGHT_PAGES:,}")
    return Report(count, tuple(_Checker(reader, preset).problems()))


@contextlib.contextmanager
def _pypdf_silenced() -> Iterator[None]:
    """pypdf logs what it mends in a damaged file ("EOF marker not found") straight to stderr;
    a file it cannot read is reported as one error line, and one it can is judged on what it is."""
    logger = logging.getLogger("pypdf")
    level = logger.level
    logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        logger.setLevel(level)


class _Checker:
    """One file against one preset (see :func:`preflight`)."""

    def __init__(self, reader: PdfReader, preset: Preset) -> None:
        self.reader = reader
        self.preset = preset
        self.rules = {rule.id for rule in rules_for(preset)}
        self.standard: Standard | None = standard_of(preset) if preset.is_cmyk else None
        self._streams: dict[tuple[int, int, int], tuple[DictionaryObject, _Seen]] = {}
        self._same: dict[tuple[bytes, str], _Seen] = {}
        self._operations_read = 0
        self._content_bytes_read = 0
        self._functions_read = 0
        self._images: dict[tuple[int, int], _Seen] = {}
        self._fonts: dict[tuple[int, int, int], tuple[DictionaryObject, _Seen]] = {}
        self._shadings: dict[tuple[int, int, str], _Seen] = {}

    def problems(self) -> Iterator[Problem]:
        yield from self._document()
        for number, page in enumerate(self.reader.pages, start=1):
            for rule, message in self._boxes(page):
                yield Problem(rule, message, number)
            seen = self._content(page, page.get("/Resources"), 0, page=True)
            group = page.get("/Group")
            if self._forbids_transparency() and _is_transparency_group(group):
                seen.add("transparency", "the page is a transparency group")
            for rule, message in seen.problems:
                if rule in self.rules:
                    yield Problem(rule, message, number)
            if self.standard is not None and seen.ink > (self.preset.ink_limit or 400) + INK_TOLERANCE:
                yield Problem("ink-limit", f"{seen.ink_where} puts down {seen.ink:.0f}% ink, more than "
                                           f"{self.preset.owner} {self.preset.ink_limit:g}%", number)

    def _forbids_transparency(self) -> bool:
        return self.standard is not None and not self.standard.transparency

    # the whole file ------------------------------------------------------------------------

    def _document(self) -> Iterator[Problem]:
        standard = self.standard
        if standard is None:
            return
        version = _version(self.reader)
        if version > standard.pdf_version:
            yield Problem("pdf-version", f"the file is PDF {version}; {standard.name} allows at most "
                                         f"PDF {standard.pdf_version}")
        info = _dictionary(self.reader.trailer.get("/Info"))  # information that is no dictionary says nothing
        found = str(info.get("/GTS_PDFXVersion", ""))
        if found != standard.version_key:
            said = f"says '{shown(found)}'" if found else "is missing"
            yield Problem("pdfx-keys", f"GTS_PDFXVersion {said}; {self.preset.name} asks for {standard.version_key}")
        if standard.conformance_key:
            conformance = str(info.get("/GTS_PDFXConformance", ""))
            if conformance != standard.conformance_key:
                said = f"says '{shown(conformance)}'" if conformance else "is missing"
                yield Problem("pdfx-keys", f"GTS_PDFXConformance {said}; {standard.name} files say "
                                           f"{standard.conformance_key}")
        trapped = str(info.get("/Trapped", ""))
        if trapped not in ("/True", "/False"):
            yield Problem("pdfx-keys", "Trapped is not True or False in the document information, as PDF/X asks")
        if "/ID" not in self.reader.trailer:
            yield Problem("pdfx-keys", "the trailer has no file identifier (/ID), which PDF/X asks for")
        root = _dictionary(self.reader.trailer["/Root"])
        if standard.needs_xmp and not _xmp_names(root, standard.version_key):
            yield Problem("pdfx-keys", f"the XMP metadata does not say pdfxid:GTS_PDFXVersion {standard.version_key}")
        yield from self._output_intent(root)

    def _output_intent(self, root: DictionaryObject) -> Iterator[Problem]:
        intents = _resolved(root.get("/OutputIntents"))
        pdfx = [intent.get_object() for intent in intents or []
                if isinstance(intent.get_object(), DictionaryObject) and intent.get_object().get("/S") == "/GTS_PDFX"]
        if not pdfx:
            yield Problem("output-intent", "no OutputIntent for PDF/X (/S /GTS_PDFX) in the catalog: the file "
                                           "does not say which press its colours are for")
            return
        intent = pdfx[0]
        if not str(intent.get("/OutputConditionIdentifier", "")).strip():
            yield Problem("output-intent", "the OutputIntent has no OutputConditionIdentifier")
        profile = _resolved(intent.get("/DestOutputProfile"))
        if profile is None:
            condition = shown(str(intent.get("/OutputConditionIdentifier", "")))
            yield Problem("output-intent", f"the OutputIntent ('{condition}') embeds no profile "
                                           "(DestOutputProfile); deckpress cannot tell if it is a CMYK press")
        elif not isinstance(profile, StreamObject) or profile.get("/N") != 4:
            components = profile.get("/N") if isinstance(profile, StreamObject) else "no"
            yield Problem("output-intent", f"the OutputIntent's profile has {components} components; "
                                           f"{self.preset.name} prints CMYK (4)")

    # each page ----------------------------------------------------------------------------

    def _boxes(self, page: DictionaryObject) -> Iterator[tuple[str, str]]:
        media = _box(page, "/MediaBox")
        trim = _box(page, "/TrimBox") or _box(page, "/ArtBox")
        bleed = _box(page, "/BleedBox")
        if media is None:
            yield "card-size", "the page has no MediaBox"
            return
        page_size = (media[2] - media[0], media[3] - media[1])
        if trim is None:
            yield "trim-box", "the page has no TrimBox: the shop cannot tell where to cut"
            with_bleed = [(w + 2 * self.preset.bleed, h + 2 * self.preset.bleed) for w, h in self.preset.cards.values()]
            if with_bleed and not any(abs(page_size[0] - w) <= BOX_TOLERANCE and abs(page_size[1] - h) <= BOX_TOLERANCE
                                      for w, h in with_bleed):
                w, h = with_bleed[0]
                yield "card-size", (f"the page is {size_text(page_size[0], page_size[1])}; {self.preset.name} "
                                    f"takes one card a page, {size_text(w, h)} with its bleed")
        else:
            trim_size = (trim[2] - trim[0], trim[3] - trim[1])
            if self.preset.fits_card(trim_size) is None:
                sizes = ", ".join(f"{name} {size_text(w, h)}" for name, (w, h) in self.preset.cards.items())
                yield "card-size", (f"the TrimBox is {size_text(trim_size[0], trim_size[1])}; "
                                    f"{self.preset.name} prints {sizes}")
            printed, edge = _bleed_area(page, media, bleed)
            printed_margins = _margins(printed, trim)
            margins = _margins(media, trim)
            if min(printed_margins) < self.preset.bleed - BOX_TOLERANCE:
                yield "card-size", (f"{edge} leaves {mm_text(max(0.0, min(printed_margins)))} of bleed around the "
                                    f"TrimBox; {self.preset.name} asks for {mm_text(self.preset.bleed)}")
            elif self.preset.cards and max(margins) > self.preset.bleed + BOX_TOLERANCE:
                wanted = (trim_size[0] + 2 * self.preset.bleed, trim_size[1] + 2 * self.preset.bleed)
                yield "card-size", (f"the page is {size_text(page_size[0], page_size[1])}; {self.preset.name} "
                                    f"takes the card with its bleed, {size_text(wanted[0], wanted[1])}")
        if bleed is None:
            yield "bleed-box", "the page has no BleedBox"
        elif trim is not None and not (_holds(bleed, trim) and _holds(media, bleed)):
            yield "bleed-box", "the BleedBox does not lie between the TrimBox and the MediaBox"

    def _content(self, owner: DictionaryObject, resources: Any, depth: int, page: bool = False) -> _Seen:
        """What the content stream of ``owner`` (a page, form, tiling pattern or Type 3 glyph) uses,
        with ``resources`` and everything it draws; read once per stream object and resources."""
        if depth > MAX_NESTING:
            raise UnreadablePdf(f"nests forms or patterns more than {MAX_NESTING} deep")
        resources = _dictionary(resources) if resources is not None else _NO_RESOURCES
        cache_key = _object_key(owner, resources)
        if cache_key is not None and cache_key in self._streams:
            return self._streams[cache_key][1]
        contents = owner.get("/Contents") if page else owner
        data = self._stream_data(contents)
        # Pages that draw the same thing with the same resources (a shared back placed on
        # every other page) are read once.
        same_key = (data, repr(resources))
        if same_key in self._same:
            seen = self._same[same_key]
        else:
            seen = self._same[same_key] = _Seen()
            self._operations(operations(data), resources, seen, depth)
        if cache_key is not None:
            self._streams[cache_key] = (resources, seen)  # holding the resources keeps their id unique
        return seen

    def _stream_data(self, contents: Any) -> bytes:
        """The decoded bytes of a content stream, or of an array of them joined; each stream is
        decoded once, and what is joined counts towards :data:`MAX_PREFLIGHT_CONTENT_BYTES`
        before it is held (a page may name one stream many times)."""
        contents = _resolved(contents)
        parts = contents if isinstance(contents, ArrayObject) else [contents]
        decoded: dict[int, tuple[StreamObject, bytes]] = {}  # the stream is held so that its id stays its own
        pieces = []
        for part in parts:
            stream = _resolved(part)
            if not isinstance(stream, StreamObject):
                continue
            if id(stream) not in decoded:
                decoded[id(stream)] = (stream, stream.get_data())
            data = decoded[id(stream)][1]
            self._content_bytes_read += len(data)
            if self._content_bytes_read > MAX_PREFLIGHT_CONTENT_BYTES:
                raise UnreadablePdf(f"draws more than {MAX_PREFLIGHT_CONTENT_BYTES:,} bytes of content; preflight "
                                    "reads files of card faces, which draw far less")
            pieces.append(data)
        return b"\n".join(pieces)

    def _operations(self, stream: Iterator[tuple[list[Any], bytes]], resources: DictionaryObject, seen: _Seen,
                    depth: int) -> None:
        fill_space = stroke_space = "DeviceGray"
        stack: list[tuple[str, str]] = []
        for operands, operator in stream:
            self._operations_read += 1
            if self._operations_read > MAX_PREFLIGHT_OPERATIONS:
                raise UnreadablePdf(f"draws more than {MAX_PREFLIGHT_OPERATIONS:,} operations; preflight reads "
                                    "files of card faces, which draw far fewer")
            if operator == b"q":
                stack.append((fill_space, stroke_space))
            elif operator == b"Q" and stack:
                fill_space, stroke_space = stack.pop()
            elif operator in (b"rg", b"RG"):
                self._space(seen, "DeviceRGB", "a colour set in the content (rg, RG)")
            elif operator in (b"k", b"K"):
                self._ink(seen, [float(value) for value in operands], "a CMYK colour")
            elif operator in (b"cs", b"CS"):
                family = self._named_space(operands[0], resources, seen)
                if operator == b"cs":
                    fill_space = family
                else:
                    stroke_space = family
            elif operator in (b"sc", b"scn", b"SC", b"SCN"):
                space = fill_space if operator in (b"sc", b"scn") else stroke_space
                numbers = [float(value) for value in operands if not isinstance(value, NameObject)]
                if space == "DeviceCMYK" and len(numbers) == 4:
                    self._ink(seen, numbers, "a CMYK colour")
                if operands and isinstance(operands[-1], NameObject):
                    self._pattern(operands[-1], resources, seen, depth)
            elif operator == b"sh" and operands:
                shading = self._named(resources, "/Shading", operands[0], seen)
                if shading is not None:
                    seen.take(self._shading(shading, "a shading"))
            elif operator == b"gs" and operands:
                state = self._named(resources, "/ExtGState", operands[0], seen)
                if state is not None:
                    self._graphics_state(state, seen)
            elif operator == b"Tf" and operands:
                font = self._named(resources, "/Font", operands[0], seen)
                if font is not None:
                    seen.take(self._font(font, resources, depth))
            elif operator == b"Do" and operands:
                xobject = self._named(resources, "/XObject", operands[0], seen)
                if xobject is not None:
                    self._xobject(xobject, operands[0], resources, seen, depth)
            elif operator == b"INLINE IMAGE":
                self._inline_image(operands, resources, seen)

    def _named(self, resources: DictionaryObject, kind: str, name: Any, seen: _Seen) -> Any:
        """The resource of ``kind`` a content stream names, or None; a name the resources do not
        hold is noted: the file is damaged, and what it would draw cannot be checked."""
        found = _resource(resources, kind, name)
        if found is None and isinstance(name, NameObject):
            seen.add("resources", f"the content uses the {RESOURCE_KINDS[kind]} {shown(name[1:])}, which is not "
                                  "among its resources: the file is damaged")
        return found

    def _space(self, seen: _Seen, family: str, where: str, shown: str | None = None) -> None:
        if self.standard is not None and family not in self.standard.colour_spaces | {"Pattern", "Indexed"}:
            seen.add("colour", f"{where} is {shown or family}; {self.standard.name} allows only "
                               f"{', '.join(sorted(self.standard.colour_spaces))}")

    def _ink(self, seen: _Seen, values: list[float], where: str) -> None:
        if len(values) == 4:
            seen.inked(100 * sum(values), f"{where} ({', '.join(f'{value:g}' for value in values)})")

    def _named_space(self, name: Any, resources: DictionaryObject, seen: _Seen) -> str:
        """The family of the colour space a ``cs`` names, its problems noted."""
        if isinstance(name, NameObject) and name[1:] in ("DeviceRGB", "DeviceCMYK", "DeviceGray", "Pattern"):
            space: Any = name
        else:
            space = self._named(resources, "/ColorSpace", name, seen)
        return self._check_space(space, seen, "a colour in the content")

    def _check_space(self, space: Any, seen: _Seen, where: str, depth: int = 0) -> str:
        """The family of a colour space object, each part of it held to the standard; one
        based on itself is refused past :data:`MAX_NESTING`."""
        if depth > MAX_NESTING:
            raise UnreadablePdf(f"nests colour spaces more than {MAX_NESTING} deep")
        space = _resolved(space)
        if isinstance(space, NameObject):
            family = COLOUR_ABBREVIATIONS.get(space[1:], space[1:])
            self._space(seen, family, where)
            return family
        if isinstance(space, ArrayObject) and space:
            family = str(space[0])[1:]
            if family == "ICCBased":
                stream = space[1].get_object() if len(space) > 1 else None
                components = stream.get("/N") if isinstance(stream, StreamObject) else None
                kind = {1: "grey", 3: "RGB", 4: "CMYK"}.get(int(components or 0), "")
                self._space(seen, "ICCBased", where, f"ICCBased ({kind or 'an ICC profile'})")
                return "ICCBased"
            if family == "Indexed" and len(space) > 1:
                self._check_space(space[1], seen, f"{where}'s palette", depth + 1)
                return "Indexed"
            if family in ("Separation", "DeviceN") and len(space) > 2:
                self._check_space(space[2], seen, f"{where}'s alternate", depth + 1)
                return family
            if family == "Pattern" and len(space) > 1:
                self._check_space(space[1], seen, where, depth + 1)
                return "Pattern"
            self._space(seen, family, where)
            return family
        return "DeviceGray"

    def _pattern(self, name: Any, resources: DictionaryObject, seen: _Seen, depth: int) -> None:
        pattern = self._named(resources, "/Pattern", name, seen)
        if not isinstance(pattern, DictionaryObject):
            return
        if pattern.get("/PatternType") == 2:
            shading = pattern.get("/Shading")
            if shading is not None:
                seen.take(self._shading(shading.get_object(), "a shading pattern"))
            state = pattern.get("/ExtGState")
            if state is not None:
                self._graphics_state(state.get_object(), seen)
        elif isinstance(pattern, StreamObject):
            seen.take(self._content(pattern, pattern.get("/Resources"), depth + 1))

    def _shading(self, shading: Any, where: str) -> _Seen:
        """What a shading uses: its colour space and the ink of its function's colours; read once
        per shading object, however often it is painted."""
        reference = _reference(shading)
        cache_key = (*reference, where) if reference is not None else None
        if cache_key is not None and cache_key in self._shadings:
            return self._shadings[cache_key]
        seen = _Seen()
        if isinstance(shading, DictionaryObject):
            family = self._check_space(shading.get("/ColorSpace"), seen, where)
            if family == "DeviceCMYK":
                for values in self._function_colours(shading.get("/Function")):
                    self._ink(seen, values, where)
        if cache_key is not None:
            self._shadings[cache_key] = seen
        return seen

    def _function_colours(self, function: Any) -> list[list[float]]:
        """The colours a shading's function puts out at its ends (C0 and C1 of exponential ones,
        each part of a stitching one); sampled functions are not opened. Each function object is
        opened once a walk (a part listed many times is read once), and all walks together open
        at most :data:`MAX_PREFLIGHT_FUNCTIONS`; a function that contains itself nests past
        :data:`MAX_NESTING`."""
        colours: list[list[float]] = []
        opened: set[tuple[int, int]] = set()

        def walk(function: Any, depth: int) -> None:
            if depth > MAX_NESTING:
                raise UnreadablePdf(f"nests shading functions more than {MAX_NESTING} deep")
            function = _resolved(function)
            key = _reference(function)
            if key is not None and key in opened:
                return
            self._functions_read += 1
            if self._functions_read > MAX_PREFLIGHT_FUNCTIONS:
                raise UnreadablePdf(f"has shadings of more than {MAX_PREFLIGHT_FUNCTIONS:,} functions; preflight "
                                    "reads files of card faces, whose gradients have a few")
            parts: Any = []
            if isinstance(function, ArrayObject):
                parts = function
            elif isinstance(function, DictionaryObject):
                kind = function.get("/FunctionType")
                if kind == 2:
                    for colour_key, default in (("/C0", [0.0]), ("/C1", [1.0])):
                        colours.append([float(value) for value in function.get(colour_key, default)])
                elif kind == 3:
                    parts = _resolved(function.get("/Functions")) or []
            for part in parts if isinstance(parts, ArrayObject | list) else []:
                walk(part, depth + 1)
            if key is not None:
                opened.add(key)  # once every part is read: a function met again inside itself nests on

        walk(function, 0)
        return colours

    def _graphics_state(self, state: Any, seen: _Seen) -> None:
        if not isinstance(state, DictionaryObject) or not self._forbids_transparency():
            return
        for key, what in (("/CA", "stroking"), ("/ca", "filling")):
            value = state.get(key)
            if value is not None and float(value) < 1:
                seen.add("transparency", f"a graphics state paints with {what} alpha {float(value):g}")
        mask = state.get("/SMask")
        if mask is not None and mask != "/None":
            seen.add("transparency", "a graphics state has a soft mask")
        blend = state.get("/BM")
        blend = blend[0] if isinstance(blend, ArrayObject) and blend else blend
        if blend is not None and blend not in ("/Normal", "/Compatible"):
            seen.add("transparency", f"a graphics state blends with {str(blend)[1:]}")

    def _font(self, font: Any, resources: DictionaryObject, depth: int) -> _Seen:
        """What a font uses (whether it is embedded; a Type 3 font's glyphs, drawn with its own
        resources or, without them, those of the content that sets it); read once per font
        object and resources, however often it is set."""
        cache_key = _object_key(font, resources)
        if cache_key is not None and cache_key in self._fonts:
            return self._fonts[cache_key][1]
        seen = _Seen()
        self._font_problems(font, resources, seen, depth)
        if cache_key is not None:
            self._fonts[cache_key] = (resources, seen)
        return seen

    def _font_problems(self, font: Any, resources: DictionaryObject, seen: _Seen, depth: int) -> None:
        if not isinstance(font, DictionaryObject) or "fonts" not in self.rules:
            return
        name = str(font.get("/BaseFont", "(unnamed)"))[1:]
        subtype = font.get("/Subtype")
        if subtype == "/Type3":
            own = font.get("/Resources")
            glyphs = _dictionary(font.get("/CharProcs"))
            for glyph in glyphs.values():
                glyph = glyph.get_object()
                if isinstance(glyph, StreamObject):
                    seen.take(self._content(glyph, own if own is not None else resources, depth + 1))
            return
        if subtype == "/Type0":
            descendants = _resolved(font.get("/DescendantFonts"))
            font = descendants[0].get_object() if descendants else font
        descriptor = _resolved(font.get("/FontDescriptor"))
        embedded = isinstance(descriptor, DictionaryObject) and any(
            key in descriptor for key in ("/FontFile", "/FontFile2", "/FontFile3"))
        if not embedded:
            seen.add("fonts", f"the font {shown(name)} is not embedded")

    def _xobject(self, xobject: Any, name: Any, resources: DictionaryObject, seen: _Seen, depth: int) -> None:
        if not isinstance(xobject, StreamObject):
            return
        subtype = xobject.get("/Subtype")
        if subtype == "/Form":
            if self._forbids_transparency() and _is_transparency_group(xobject.get("/Group")):
                seen.add("transparency", f"the form {str(name)[1:]} is a transparency group")
            own = xobject.get("/Resources")  # without its own, a form draws with those of what draws it
            seen.take(self._content(xobject, own if own is not None else resources, depth + 1))
        elif subtype == "/Image":
            seen.take(self._image(xobject, str(name)[1:]))

    def _image(self, image: StreamObject, name: str) -> _Seen:
        key = _reference(image)
        if key is not None and key in self._images:
            return self._images[key]
        seen = _Seen()
        where = f"the image {name}"
        if not image.get("/ImageMask"):
            family = self._check_space(image.get("/ColorSpace"), seen, where)
            if family == "DeviceCMYK" and self.standard is not None:
                total = _image_ink(image)
                if total is not None:
                    seen.inked(total, where)
        if self._forbids_transparency():
            if image.get("/SMask") is not None:
                seen.add("transparency", f"{where} has a soft mask (see-through parts)")
            if int(image.get("/SMaskInData", 0) or 0):
                seen.add("transparency", f"{where} carries its own alpha (SMaskInData)")
        if key is not None:
            self._images[key] = seen
        return seen

    def _inline_image(self, operands: Any, resources: DictionaryObject, seen: _Seen) -> None:
        settings = operands[0] if operands and isinstance(operands[0], dict) else {}
        if b"true" in (settings.get("/IM"), settings.get("/ImageMask")):
            return
        space = settings.get("/CS", settings.get("/ColorSpace"))
        if isinstance(space, NameObject) and space[1:] not in COLOUR_ABBREVIATIONS \
                and space[1:] not in ("DeviceRGB", "DeviceCMYK", "DeviceGray"):
            space = self._named(resources, "/ColorSpace", space, seen)
        self._check_space(space, seen, "an inline image")


def _resolved(value: Any) -> Any:
    """The object ``value`` refers to (``value`` itself when it is no reference); None stays None."""
    return value.get_object() if value is not None else None


def _dictionary(value: Any) -> DictionaryObject:
    """``value`` (or what it refers to) as a dictionary; an empty one when it is not one."""
    value = _resolved(value)
    return value if isinstance(value, DictionaryObject) else DictionaryObject()


_TOKEN = re.compile(rb"""
    (?P<space>(?:[\x00\t\n\x0c\r ]+|%[^\r\n]*)+)
  | (?P<number>[+-]?(?:\d+\.?\d*|\.\d+))(?![^\x00\t\n\x0c\r ()<>\[\]{}/%])
  | (?P<name>/[^\x00\t\n\x0c\r ()<>\[\]{}/%]*)
  | (?P<open_dict><<) | (?P<close_dict>>>)
  | (?P<hex><[^>]*>)
  | (?P<string>\()
  | (?P<open_array>\[) | (?P<close_array>\])
  | (?P<word>[^\x00\t\n\x0c\r ()<>\[\]{}/%]+)
  | (?P<other>.)
""", re.VERBOSE | re.DOTALL)
_SPACE = re.compile(rb"(?:[\x00\t\n\x0c\r ]+|%[^\r\n]*)+")
_END_OF_IMAGE = re.compile(rb"[\x00\t\n\x0c\r ]EI(?=[\x00\t\n\x0c\r ]|$)")


def operations(data: bytes) -> Iterator[tuple[list[Any], bytes]]:
    """The (operands, operator) pairs of a content stream: numbers as floats, names as
    NameObjects, arrays as lists, dictionaries as dicts, strings as bytes; an inline image
    is one operation, ``b"INLINE IMAGE"``, its dictionary the only operand."""
    position, operands = 0, []
    while True:
        kind, value, position = _next_value(data, position)
        if kind == "end":
            return
        if kind != "word":
            operands.append(value)
        elif value == b"BI":
            items, position = _values_until(data, position, b"ID")
            end = _END_OF_IMAGE.search(data, position)  # the data runs from one byte after ID to EI
            position = end.end() if end else len(data)
            yield [dict(zip(items[::2], items[1::2], strict=False))], b"INLINE IMAGE"
            operands = []
        else:
            yield operands, value
            operands = []


def pdf_name(written: bytes) -> NameObject:
    """The name written ``written`` (``/Art#C3#A9``) as pypdf reads it in a dictionary: its ``#``
    escapes undone by pypdf's own rule, then decoded by the first of pypdf's charsets that takes it
    (UTF-8, GBK, Latin-1). A name in a content stream is then the very key pypdf gave the
    resources, however its bytes are encoded, so a resource cannot hide behind an accent."""
    raw = NameObject.unnumber(written)
    for charset in NameObject.CHARSETS:
        with contextlib.suppress(UnicodeDecodeError):
            return NameObject(raw.decode(charset))
    return NameObject(raw.decode("charmap"))


def _values_until(data: bytes, position: int, stop: bytes) -> tuple[list[Any], int]:
    """The values before the word ``stop`` (or the end), and where reading stopped."""
    values: list[Any] = []
    while True:
        kind, value, position = _next_value(data, position)
        if kind == "end" or (kind == "word" and value == stop):
            return values, position
        values.append(value)


def _next_value(data: bytes, position: int) -> tuple[str, Any, int]:
    """The next value of a content stream: its kind ("end", "word" for an operator or a keyword,
    "value" for the rest), the value, and where it ends. Arrays and dictionaries are read whole."""
    while position < len(data):
        match = _TOKEN.match(data, position)
        assert match is not None, "the last alternative matches any byte"
        kind, text, position = match.lastgroup, match.group(), match.end()
        if kind in ("space", "other", "close_array", "close_dict"):
            continue
        if kind == "number":
            return "value", float(text), position
        if kind == "name":
            return "value", pdf_name(text), position
        if kind == "string":
            return ("value", *_literal_string(data, position))
        if kind == "hex":
            return "value", text, position
        if kind in ("open_array", "open_dict"):
            items, position = _values_until_close(data, position, b"]" if kind == "open_array" else b">>")
            value = items if kind == "open_array" else dict(zip(items[::2], items[1::2], strict=False))
            return "value", value, position
        return "word", text, position
    return "end", None, position


def _values_until_close(data: bytes, position: int, close: bytes) -> tuple[list[Any], int]:
    """The values of an array or dictionary whose opening was just read, up to its ``close``."""
    values: list[Any] = []
    while position < len(data):
        match = _SPACE.match(data, position)
        position = match.end() if match else position
        if data.startswith(close, position):
            return values, position + len(close)
        kind, value, position = _next_value(data, position)
        if kind == "end":
            break
        values.append(value)
    return values, position


def _literal_string(data: bytes, position: int) -> tuple[bytes, int]:
    """A ``( ... )`` string starting after its opening bracket: its bytes (escapes as written) and
    where it ends."""
    depth, start = 1, position
    while position < len(data) and depth:
        byte = data[position]
        if byte == 0x5C:  # a backslash escapes the next byte
            position += 2
            continue
        depth += 1 if byte == 0x28 else -1 if byte == 0x29 else 0
        position += 1
    return data[start:position - 1], position


def _is_transparency_group(group: Any) -> bool:
    group = _resolved(group)
    return isinstance(group, DictionaryObject) and group.get("/S") == "/Transparency"


def _object_key(thing: Any, context: Any) -> tuple[int, int, int] | None:
    """What a stream, font or shading read in ``context`` (the resources it is drawn with, or
    where it is painted) is remembered by: its object and the context's identity; None for an
    object written in place, which nothing else can share."""
    reference = _reference(thing)
    return (*reference, id(context)) if reference is not None else None


def _reference(thing: Any) -> tuple[int, int] | None:
    """The object number and generation ``thing`` was read from; None for one written in place."""
    reference = getattr(thing, "indirect_reference", None)
    return (reference.idnum, reference.generation) if reference is not None else None


def _resource(resources: Any, kind: str, name: Any) -> Any:
    """The object named ``name`` among ``resources``' ``kind`` (None when it is not there)."""
    if not isinstance(name, NameObject):
        return None
    return _resolved(_dictionary(_dictionary(resources).get(kind)).get(name))


def _image_ink(image: StreamObject) -> float | None:
    """The most ink any pixel of a CMYK image puts down (None when it cannot be decoded here)."""
    import numpy  # noqa: PLC0415  (only measuring CMYK images needs it)

    width, height = int(image.get("/Width", 0)), int(image.get("/Height", 0))
    if width * height > MAX_IMAGE_PIXELS or int(image.get("/BitsPerComponent", 8)) != 8:
        return None
    filters = image.get("/Filter")
    filters = [filters] if isinstance(filters, NameObject) else list(filters or [])
    try:
        if filters and filters[-1] == "/DCTDecode":
            from PIL import Image  # noqa: PLC0415  (decoding JPEG images only)

            raw = image.get_data() if len(filters) > 1 else image._data
            with Image.open(io.BytesIO(raw)) as picture:
                samples = numpy.asarray(picture.convert("CMYK"), dtype=numpy.uint16)
        else:
            raw_samples = numpy.frombuffer(image.get_data(), dtype=numpy.uint8)[:width * height * 4]
            samples = raw_samples.reshape(-1, 4).astype(numpy.uint16)
            decode = image.get("/Decode")
            if decode is not None and [float(value) for value in decode][:2] == [1.0, 0.0]:
                samples = 255 - samples
    except (ValueError, OSError, PyPdfError):
        return None
    if samples.size == 0:
        return None
    return 100 * float(samples.reshape(-1, 4).sum(axis=1).max()) / 255


def _version(reader: PdfReader) -> str:
    """The file's PDF version: its header's, or the catalog's /Version when that is later."""
    header = re.match(r"%PDF-(\d\.\d)", reader.pdf_header or "")
    version = header.group(1) if header else "1.0"
    root = _dictionary(reader.trailer["/Root"])
    declared = root.get("/Version")
    if declared is not None and re.fullmatch(r"\d\.\d", str(declared)[1:]):
        version = max(version, str(declared)[1:])
    return version


def _xmp_names(root: DictionaryObject, version: str) -> bool:
    metadata = _resolved(root.get("/Metadata"))
    if not isinstance(metadata, StreamObject):
        return False
    text = metadata.get_data().decode("utf-8", "replace")
    return re.search(r"GTS_PDFXVersion(?:>|=\")\s*" + re.escape(version), text) is not None


def _box(page: DictionaryObject, key: str) -> PageBox | None:
    value = page.get(key)
    if value is None:
        parent = page.get("/Parent")
        while value is None and parent is not None and key in INHERITED_BOXES:
            parent = parent.get_object()
            value = parent.get(key)
            parent = parent.get("/Parent")
    value = _resolved(value)
    if not isinstance(value, ArrayObject) or len(value) != 4:
        return None
    x0, y0, x1, y1 = (float(number) for number in value)
    return (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))


def _bleed_area(page: DictionaryObject, media: PageBox, bleed: PageBox | None) -> tuple[PageBox, str]:
    """What prints beyond the TrimBox, and what the message calls its edge: the BleedBox, which
    defaults to the CropBox, which defaults to the MediaBox (PDF 32000-1, 14.11.2), each clipped
    to the box it defaults to. A page with its BleedBox or CropBox on the TrimBox has no bleed,
    however large its MediaBox."""
    crop = _box(page, "/CropBox")
    visible = media if crop is None else _clipped(crop, media)
    area = visible if bleed is None else _clipped(bleed, visible)
    if _holds(area, media):
        return media, "the page"
    return area, "the BleedBox" if bleed is not None and _holds(visible, bleed) else "the CropBox"


def _clipped(box: PageBox, within: PageBox) -> PageBox:
    return (max(box[0], within[0]), max(box[1], within[1]), min(box[2], within[2]), min(box[3], within[3]))


def _margins(outer: PageBox, trim: PageBox) -> tuple[float, float, float, float]:
    """How far ``outer`` reaches past ``trim`` on each side (negative where it falls short)."""
    return (trim[0] - outer[0], trim[1] - outer[1], outer[2] - trim[2], outer[3] - trim[3])


def _holds(outer: tuple[float, ...], inner: tuple[float, ...]) -> bool:
    return (inner[0] >= outer[0] - BOX_TOLERANCE and inner[1] >= outer[1] - BOX_TOLERANCE
            and inner[2] <= outer[2] + BOX_TOLERANCE and inner[3] <= outer[3] + BOX_TOLERANCE)
