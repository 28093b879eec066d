"""SVG art and icons, drawn as vector paths (never rasterised).

An SVG file (art in the deck's folder, or an icon a layout names) is read as
untrusted input, then handed to svglib, which turns it into a reportlab
drawing that is drawn straight into the PDF:

- the file is at most :data:`MAX_SVG_BYTES` and :data:`MAX_SVG_ELEMENTS` elements
  (after ``<use>`` copies, :data:`MAX_SVG_SHAPES` shapes);
- entity declarations are refused (no "billion laughs") in whatever encoding the
  file is written (UTF-8, UTF-16 or UTF-32, with or without a byte order mark, or
  the one its XML declaration names): the text is decoded as the XML parser would
  decode it before it is searched, and what the parser read is asked again after;
  a DOCTYPE is never fetched, and nothing outside the file is read: every ``href`` and ``url()``
  must point inside the file (``#id``); ``<image>``, ``<text>``,
  ``<foreignObject>`` and ``<script>`` are refused with a word on what to do.

An SVG that paints in one colour only (the usual icon, such as those from
game-icons.net with a transparent background) takes the colour of the element
that draws it; one with several colours keeps its own.
"""

from __future__ import annotations

import codecs
import copy
import io
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reportlab.lib.colors import Color

from generator.boxes import Box
from generator.render.images import drawn_rectangle
from generator.render.paint import HEX_COLOUR, HEX_DIGIT_COUNTS
from generator.revisions import current_source

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

Element = Any
"""An element of the file's XML tree (lxml's, which has no type information)."""
Drawing = Any
"""svglib's drawing of a file: a reportlab Drawing, its groups and shapes (reportlab has no
type information)."""

MAX_SVG_BYTES = 2_000_000
"""An icon is a few kilobytes and detailed card art a few hundred; more is not art for a card."""
MAX_SVG_ELEMENTS = 20_000
"""Elements in the file: far above any drawing a card shows, far below what would stall a build."""
MAX_SVG_SHAPES = 50_000
"""Shapes once ``<use>`` copies are made: bounds a file that is small but multiplies itself."""
MIN_SVG_SIDE = 0.01
"""The least width and height an SVG's viewBox (in its own units) and its size (in points) may
have. Art is drawn scaled from its own size to its box, a card at most: from 0.01 that is a
scale of at most some hundred thousand, where ``viewBox="0 0 1e-300 1e-300"`` would need
numbers far beyond what a PDF can hold; and reportlab writes coordinates to six decimals, so
smaller art would lose its shape anyway."""
REFUSED_ELEMENTS = {
    "image": "embedded or linked raster images are not drawn; use an image element for photos",
    "text": "text in SVG art would need fonts of its own; convert it to paths (Inkscape: Path > Object to Path)",
    "foreignObject": "foreign content cannot be drawn",
    "script": "scripts have no place in print art",
}
_URL = re.compile(r"url\(\s*['\"]?\s*([^)'\"\s]*)", re.IGNORECASE)
_ENTITY = re.compile(r"<!ENTITY", re.IGNORECASE)
_BYTE_ORDER_MARKS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"), (codecs.BOM_UTF8, "utf-8-sig"),
                     (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))
"""Byte order marks and the encodings they mean (UTF-32's first: its little-endian mark begins
with UTF-16's)."""
_FIRST_BYTES = {b"\x00\x00\x00<": "utf-32-be", b"<\x00\x00\x00": "utf-32-le", b"\x00<\x00?": "utf-16-be",
                b"<\x00?\x00": "utf-16-le"}
"""How ``<`` or ``<?`` begins a file without a byte order mark in each wide encoding (XML 1.0, appendix F)."""
_DECLARED_ENCODING = re.compile(rb"\s*<\?xml[^>]*?encoding\s*=\s*[\"']([A-Za-z][A-Za-z0-9._-]*)[\"']")
_HREFS = ("href", "{http://www.w3.org/1999/xlink}href")
_SHAPES = frozenset({"path", "rect", "circle", "ellipse", "line", "polyline", "polygon"})
"""The elements that paint (``<text>`` and ``<image>`` are refused)."""


class SvgError(ValueError):
    """An SVG file that cannot or may not be drawn; the caller adds which file. ``line`` is
    the line of the file at fault, when one is."""

    def __init__(self, message: str, line: int = 0):
        super().__init__(message)
        self.line = line or 0


@dataclass(repr=False, eq=False)
class SvgArt:
    """A loaded SVG: its drawing, its size in points, and the colours it paints."""

    path: Path
    drawing: Drawing
    width: float
    height: float
    colours: tuple[Color, ...]  # every flat colour it paints
    one_colour: bool  # one flat colour and no gradient: it takes the colour of what draws it
    _recoloured: dict[tuple[str, float], Drawing] = field(default_factory=dict, repr=False)

    def drawing_in(self, ink: Color | None, opacity: float = 1.0) -> Drawing:
        """The drawing, painted in ``ink`` when the art is one colour (else in its own colours),
        every alpha multiplied by ``opacity``; each variant made once."""
        ink = ink if self.one_colour else None
        if ink is None and opacity >= 1:
            return self.drawing
        key = (ink.hexval() if ink is not None else "", round(opacity, 4))
        if key not in self._recoloured:
            recoloured = copy.deepcopy(self.drawing)
            for shape in leaf_shapes(recoloured):
                for attribute, alpha_attribute in (("fillColor", "fillOpacity"), ("strokeColor", "strokeOpacity")):
                    old = getattr(shape, attribute, None)
                    if isinstance(old, Color):
                        base = ink or old
                        # svglib gives the colour the shape's own opacity as its alpha (for a
                        # fill, always); the two are one alpha, never to be multiplied.
                        own = getattr(shape, alpha_attribute, None)
                        alpha = (getattr(old, "alpha", 1) if own is None else own) * opacity
                        setattr(shape, attribute, Color(base.red, base.green, base.blue, alpha=alpha))
                        if hasattr(shape, alpha_attribute):  # drawn after the colour, so it must agree
                            setattr(shape, alpha_attribute, alpha)
            self._recoloured[key] = recoloured
        return self._recoloured[key]


def load_svg(path: Path) -> SvgArt:
    """Read, check and convert the SVG file at ``path``; raises :class:`SvgError`."""
    from lxml import etree  # noqa: PLC0415  (svglib's parser, with svglib: only a deck with SVG art needs them)

    source = current_source()
    try:
        size = source.entry(path).size
        if size > MAX_SVG_BYTES:
            raise SvgError(f"is {size:,} bytes; SVG art may be at most {MAX_SVG_BYTES:,}")
        data = source.read(path, MAX_SVG_BYTES)
    except OSError as error:
        raise SvgError(f"cannot be read: {error.strerror or error}") from None
    _refuse_entities(xml_text(data))
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False,
                             remove_comments=True, remove_pis=True)
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as error:
        raise SvgError(f"is not well-formed XML: {error.msg}", error.lineno) from None
    declared = root.getroottree().docinfo.internalDTD
    if declared is not None and next(iter(declared.iterentities()), None) is not None:
        # An encoding the search above cannot read, but the parser could: what it read decides.
        raise SvgError(_ENTITIES_REFUSED)
    if _local(root.tag) != "svg":
        raise SvgError(f"is not an SVG file (its root element is <{_local(root.tag)}>)")
    _check_tree(root)
    _check_view_box(root)
    _fold_opacity(root)
    drawing = _render(path, root)
    shapes = list(leaf_shapes(drawing))
    if len(shapes) > MAX_SVG_SHAPES:
        raise SvgError(f"draws {len(shapes):,} shapes; SVG art may draw at most {MAX_SVG_SHAPES:,}")
    if not drawing.width or not drawing.height:
        raise SvgError("has no size: give the <svg> a viewBox or a width and height")
    if not (drawing.width >= MIN_SVG_SIDE and drawing.height >= MIN_SVG_SIDE):  # also refuses nan
        raise SvgError(f"is {drawing.width:g} by {drawing.height:g} points; SVG art is at least {MIN_SVG_SIDE:g} "
                       "wide and high, or scaling it to its box would need numbers too large to draw",
                       root.sourceline)
    _check_drawable(drawing)
    colours = _colours(shapes)
    gradients = any("Gradient" in type(shape).__name__ for shape in shapes)
    return SvgArt(path, drawing, float(drawing.width), float(drawing.height), colours,
                  one_colour=len(colours) == 1 and not gradients)


_ENTITIES_REFUSED = "declares entities, which SVG art does not need; remove the <!ENTITY ...> lines"


def xml_text(data: bytes) -> str:
    """The characters of an XML file, decoded as an XML parser decodes them: by its byte
    order mark, else by how its first characters are written (UTF-16 and UTF-32 without a
    mark), else by the encoding its XML declaration names, else as UTF-8. Bytes that do not
    decode become U+FFFD (the parser then refuses the file itself)."""
    for mark, encoding in _BYTE_ORDER_MARKS:
        if data.startswith(mark):
            return data.decode(encoding, errors="replace")
    declared = _DECLARED_ENCODING.match(data)
    encoding = _FIRST_BYTES.get(data[:4]) or (declared.group(1).decode("ascii") if declared else "utf-8")
    try:
        return data.decode(encoding, errors="replace")
    except LookupError:  # an encoding Python does not know: libxml2 would refuse the file too
        return data.decode("utf-8", errors="replace")


def _refuse_entities(text: str) -> None:
    """An entity declaration anywhere in the decoded file is refused, at its line, before the
    parser expands it (in attributes, libxml2 expands entities whatever it is told)."""
    declaration = _ENTITY.search(text)
    if declaration is not None:
        raise SvgError(_ENTITIES_REFUSED, text.count("\n", 0, declaration.start()) + 1)


def _check_drawable(drawing: Drawing) -> None:
    """Draw the art once into a scratch PDF: a number PDF cannot hold (``1e308`` in a path, a
    stroke width or the size) fails here, with the file named, instead of in the middle of
    a build. The drawing is only replayed later, scaled to its box, so it draws then too."""
    # reportlab's graphics bring its platypus, and its canvas, which check otherwise never loads
    from reportlab.graphics import renderPDF  # noqa: PLC0415
    from reportlab.pdfgen.canvas import Canvas  # noqa: PLC0415

    try:
        renderPDF.draw(drawing, Canvas(io.BytesIO()), 0, 0)
    except (ValueError, TypeError, ArithmeticError) as error:
        detail = str(error).strip().splitlines()[-1] if str(error).strip() else type(error).__name__
        if "too large" in detail:
            detail = f"a number too large to draw ({detail.rsplit(' ', 1)[-1]})"
        raise SvgError(f"cannot be drawn: {detail}") from None


def _check_view_box(root: Element) -> None:
    """A viewBox narrower or lower than :data:`MIN_SVG_SIDE` is refused at the ``<svg>``'s line
    (one that is not four numbers is svglib's to ignore, as a browser does)."""
    numbers = root.get("viewBox", "").replace(",", " ").split()
    try:
        width, height = (float(number) for number in numbers[2:]) if len(numbers) == 4 else (MIN_SVG_SIDE,) * 2
    except ValueError:
        return
    if not (width >= MIN_SVG_SIDE and height >= MIN_SVG_SIDE):
        raise SvgError(f"has a viewBox {width:g} by {height:g} across; SVG art is at least {MIN_SVG_SIDE:g} "
                       "wide and high, or scaling it to its box would need numbers too large to draw",
                       root.sourceline)


def _local(tag: object) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _check_tree(root: Element) -> None:
    """Refuse what could read outside the file or cannot be drawn faithfully."""
    for count, element in enumerate(root.iter(), start=1):
        if count > MAX_SVG_ELEMENTS:
            raise SvgError(f"has more than {MAX_SVG_ELEMENTS:,} elements")
        name = _local(element.tag)
        if name in REFUSED_ELEMENTS:
            raise SvgError(f"has an <{name}> element: {REFUSED_ELEMENTS[name]}", element.sourceline)
        for attribute, value in element.attrib.items():
            if attribute in _HREFS and not value.startswith("#"):
                raise SvgError(f"links to '{value}'; SVG art may only refer to its own parts (#id)",
                               element.sourceline)
            _check_urls(value, element.sourceline)
        if name == "stop":
            _check_stop_colour(element)
        if name == "style" and element.text:
            if "@import" in element.text:
                raise SvgError("imports a style sheet; keep styles in the file", element.sourceline)
            _check_urls(element.text, element.sourceline)
    _expanded_count(root)


def _fold_opacity(root: Element) -> None:
    """Give each shape the ``opacity`` of itself and of the groups around it, which svglib does
    not draw, as its fill-opacity and stroke-opacity, which it does.

    For one shape that is what a browser shows, but where its stroke overlaps its fill; where
    the shapes of a see-through group overlap, each shows through the other, where a browser
    would fade the group as one picture. A ``<use>`` drawn see-through is refused: its copy is
    made after this, out of reach.
    """
    # Each entry: an element, the opacity of the groups around it, and the fill-opacity and
    # stroke-opacity it inherits (the nearest of its ancestors' own), so each style is read once.
    stack = [(root, 1.0, 1.0, 1.0)]
    while stack:
        element, outer, fill, stroke = stack.pop()
        styles = _styles(element)
        opacity = outer * _property_opacity(element, styles, "opacity", 1.0)
        fill = _property_opacity(element, styles, "fill-opacity", fill)
        stroke = _property_opacity(element, styles, "stroke-opacity", stroke)
        name = _local(element.tag)
        if opacity < 1 and name == "use":
            raise SvgError(f"draws a <use> copy at opacity {opacity:g}, which cannot be drawn; give the shapes "
                           "it copies fill-opacity and stroke-opacity instead", element.sourceline)
        if opacity < 1 and name in _SHAPES:
            _set_style(element, "fill-opacity", f"{fill * opacity:.6g}")
            _set_style(element, "stroke-opacity", f"{stroke * opacity:.6g}")
        stack.extend((child, opacity, fill, stroke) for child in element if isinstance(child.tag, str))


def _styles(element: Element) -> dict[str, str]:
    """The properties of an element's ``style`` attribute."""
    pairs = (part.partition(":") for part in element.get("style", "").split(";"))
    return {key.strip(): value.strip() for key, _, value in pairs if key.strip()}


def _opacity_value(text: str | None) -> float | None:
    """An opacity as SVG writes it (``0.5``, ``50%``) within 0 to 1; None when there is none or
    it cannot be read (a browser then ignores it)."""
    if not text or text == "inherit":
        return None
    try:
        value = float(text[:-1]) / 100 if text.endswith("%") else float(text)
    except ValueError:
        return None
    return min(max(value, 0.0), 1.0) if value == value else None  # NaN is no opacity


def _property_opacity(element: Element, styles: dict[str, str], prop: str, otherwise: float) -> float:
    """The element's own ``prop`` (``opacity``, ``fill-opacity`` ...: its style's, else its
    attribute's), else ``otherwise``."""
    value = _opacity_value(styles.get(prop) or element.get(prop))
    return otherwise if value is None else value


def _set_style(element: Element, prop: str, value: str) -> None:
    """Set ``prop`` in the element's style, where it wins over an attribute of the same name."""
    styles = _styles(element)
    styles[prop] = value
    element.set("style", ";".join(f"{key}:{text}" for key, text in styles.items()))


def _check_stop_colour(stop: Element) -> None:
    """A gradient stop's colour, read where svglib reads it (its style, else its attribute):
    svglib fails on a '#' colour of a hex colour's length that is not hex digits ("#zzzzzz")
    with Python's words, so it is refused here in ours. (Any other colour it cannot read it
    draws black, as a browser does.)"""
    colour = _styles(stop).get("stop-color", stop.get("stop-color", ""))
    if colour.startswith("#") and len(colour) - 1 in HEX_DIGIT_COUNTS and not HEX_COLOUR.fullmatch(colour):
        raise SvgError(f"has a gradient stop coloured '{colour}', which is not a colour: write it as "
                       "#rrggbb with the digits 0-9 and a-f, or name it (red, navy ...)", stop.sourceline)


def _expanded_count(root: Element) -> int:
    """Elements once every ``<use>`` is copied out, refused past :data:`MAX_SVG_SHAPES`
    before svglib spends minutes making them (ten uses of ten uses of ... grow fast)."""
    targets = {element.get("id"): element for element in root.iter() if element.get("id") is not None}
    expanded: dict[str, int] = {}

    def count(element: Element, expanding: frozenset[str]) -> int:
        total = 1 + sum(count(child, expanding) for child in element)
        if _local(element.tag) == "use":
            reference = next((element.get(name) for name in _HREFS if element.get(name)), "")[1:]
            if reference in expanding:
                raise SvgError(f"uses '#{reference}' inside itself", element.sourceline)
            if reference in targets:
                if reference not in expanded:
                    expanded[reference] = count(targets[reference], expanding | {reference})
                total += expanded[reference]
        if total > MAX_SVG_SHAPES:
            raise SvgError(f"copies its parts into more than {MAX_SVG_SHAPES:,} shapes", element.sourceline)
        return total

    return count(root, frozenset())


def _check_urls(value: str, line: int) -> None:
    for target in _URL.findall(value):
        if not target.startswith("#"):
            raise SvgError(f"refers to '{target}'; SVG art may only refer to its own parts (#id)", line)


def _render(path: Path, root: Element) -> Drawing:
    """svglib's drawing of the checked tree; its complaints about the file become an error."""
    import logging  # noqa: PLC0415  (svglib's log; a deck without SVG art never loads it)

    from svglib.svglib import SvgRenderer  # noqa: PLC0415  (with reportlab's graphics: only SVG art needs it)

    complaints: list[str] = []

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            if record.levelno >= logging.ERROR:
                complaints.append(record.getMessage())

    logger = logging.getLogger("svglib.svglib")
    handler, propagate = Collect(), logger.propagate
    logger.addHandler(handler)
    logger.propagate = False  # svglib's warnings about unsupported details are not the user's problem
    try:
        drawing = SvgRenderer(str(path), external_reference_root=str(path.parent)).render(root)
    except Exception as error:  # a converter meeting hostile input fails in its own ways: report, not crash
        raise SvgError(f"cannot be drawn: {error}") from None
    finally:
        logger.removeHandler(handler)
        logger.propagate = propagate
    if complaints:
        raise SvgError(f"cannot be drawn: {complaints[0]}")
    return drawing


def leaf_shapes(node: Drawing) -> Iterator[Drawing]:
    """Every leaf shape of a drawing, inside its groups, in drawing order."""
    for child in getattr(node, "contents", ()):
        if hasattr(child, "contents"):
            yield from leaf_shapes(child)
        else:
            yield child


def _colours(shapes: list[Drawing]) -> tuple[Color, ...]:
    """The distinct visible flat colours the shapes fill and stroke with (alpha aside)."""
    found: dict[str, Color] = {}
    for shape in shapes:
        for attribute in ("fillColor", "strokeColor"):
            colour = getattr(shape, attribute, None)
            if attribute == "strokeColor" and not getattr(shape, "strokeWidth", 0):
                continue
            if isinstance(colour, Color) and getattr(colour, "alpha", 1) > 0:
                found.setdefault(colour.hexval()[:8], colour)
    return tuple(found.values())


def draw_svg(canvas: Canvas, art: SvgArt, box: Box, fit: str, ink: Color | None = None,
             opacity: float = 1.0) -> None:
    """Draw ``art`` into ``box``: ``contain`` (whole, centred), ``cover`` (filling it, clipped)
    or ``stretch``; one-colour art is painted in ``ink`` when it is given."""
    from reportlab.graphics import renderPDF  # noqa: PLC0415  (brings platypus: only SVG art needs it)

    drawn = drawn_rectangle(box, (art.width, art.height), fit)
    canvas.saveState()
    if fit == "cover":
        clip = canvas.beginPath()
        clip.rect(box.x, box.y, box.width, box.height)
        canvas.clipPath(clip, stroke=0, fill=0)
    canvas.translate(drawn.x, drawn.y)
    canvas.scale(drawn.width / art.width, drawn.height / art.height)
    if opacity < 1:
        canvas.setFillAlpha(opacity)  # gradients inside the art: shadings take the constant alpha
    drawing = art.drawing_in(ink, opacity)
    # reportlab's renderer starts each drawing in its default font, Helvetica, and so names that
    # unembedded font in the PDF although SVG art prints no text (it is refused): start it in the
    # canvas's own font instead (the renderer takes a drawing's ``initialFontName`` as its start).
    drawing.initialFontName, drawing.initialFontSize = canvas._fontname, canvas._fontsize
    renderPDF.draw(drawing, canvas, 0, 0)
    canvas.restoreState()
