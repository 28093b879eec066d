"""The booklet's look, read from ``style.yaml``: paper, margins, colours, type styles.

Everything a designer might want to tune lives in the YAML file beside this
module; this module only turns it into reportlab objects (points, colours,
ParagraphStyles) and registers the fonts.

Fonts are reportlab's bundled Bitstream Vera family, registered as TrueType
fonts so every glyph used is embedded in the PDF and the booklet prints the
same on any machine. Characters Vera lacks print in the first of the style's
``fallback_fonts`` (DejaVu Sans) that has them: :func:`paragraph_text` marks
those runs for reportlab's paragraphs (and :mod:`generator.booklet.paragraphs`
gives them the bold or italic face their place asks for).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache
from html import escape
from itertools import groupby
from pathlib import Path
from typing import Any

from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase import pdfmetrics

from generator.errors import InputError, Position
from generator.loading import Document, load_yaml
from generator.render.fonts import FontRegistry, load_font_registry
from generator.render.units import MM as MM  # booklet sizes are checked in it; imported from here by callers
from generator.render.units import read_length

STYLE_FILE = Path(__file__).with_name("style.yaml")

FONT_ROLES = {"body": "Vera", "bold": "Vera-Bold", "italic": "Vera-Italic", "bolditalic": "Vera-BoldItalic"}
"""Style font role -> the name of its font among those deckpress ships (the Vera family),
as the card renderer's registry of bundled fonts knows it."""

EXAMPLE_BOX_RULE = 3
"""Points of the coloured rule down the left of an example box, taken from the text width beside
its padding."""

@dataclass(repr=False, eq=False)
class Paper:
    """A reading page size and the landscape sheet two of them are imposed on."""

    name: str
    page: tuple[float, float]
    sheet: tuple[float, float]


@dataclass(repr=False, eq=False)
class Margins:
    """The reading page's margins in points (inner at the fold)."""

    top: float
    bottom: float
    inner: float
    outer: float


@dataclass(repr=False, eq=False)
class BookletStyle:
    """Everything the booklet stages need to know about the look, in points."""

    papers: dict[str, Paper]
    margins: Margins
    colours: dict[str, colors.Color]
    text: dict[str, ParagraphStyle]
    list_indent: float
    bullets: tuple[str, ...]
    box_padding: float
    box_space_after: float
    card_width: float
    card_gap: float
    cover_card_width: float
    toc_after_pages: int
    fallback_fonts: tuple[str, ...] = ()  # families for characters Vera lacks, loaded when one needs them

    def text_frame(self, paper: str) -> tuple[float, float]:
        """The width and height, in points, of the text on a page of ``paper``."""
        width, height = self.papers[paper].page
        margins = self.margins
        return width - margins.inner - margins.outer, height - margins.top - margins.bottom


def to_points(value: object, where: str, position: Position | None = None) -> float:
    """A booklet length in points (``"13mm"`` -> 36.85; a bare number is points), read as
    :mod:`generator.render.units` reads every length; an :class:`InputError` naming ``where``."""
    return read_length(value, "pt", position, where)


@lru_cache(maxsize=1)
def booklet_fonts() -> dict[str, str]:
    """Style font role -> the name the booklet's font is registered under with reportlab,
    through the registry of bundled fonts: a deck's own file called ``Vera`` met before in
    the process (the preview, watch) keeps its name, and the booklet still prints in Vera."""
    fonts = bundled_fonts()
    names = {role: fonts.font(name).fontName for role, name in FONT_ROLES.items()}
    pdfmetrics.registerFontFamily(names["body"], normal=names["body"], bold=names["bold"],
                                  italic=names["italic"], boldItalic=names["bolditalic"])
    return names


@lru_cache(maxsize=1)
def _style_document(path: Path) -> Document:
    return load_yaml(path)


def _setting(document: Document, *keys: str) -> Any:
    """The style file's setting at ``keys``; one that is missing is an :class:`InputError`."""
    node = document.data
    for key in keys:
        if not isinstance(node, dict) or key not in node:
            raise InputError("missing setting", document.at(*keys[:-1]), ".".join(keys))
        node = node[key]
    return node


def _length(document: Document, *keys: str) -> float:
    """The length setting at ``keys``, in points."""
    return to_points(_setting(document, *keys), ".".join(keys), document.at(*keys))


def _text_frame(document: Document, paper: str) -> tuple[float, float]:
    """The width and height of the text on a page of ``paper``, from the style file
    (as :meth:`BookletStyle.text_frame` gives them once the style is loaded)."""
    width, height = _pair(document, "paper", paper, "page")
    inner, outer, top, bottom = (_length(document, "margins", side) for side in ("inner", "outer", "top", "bottom"))
    return width - inner - outer, height - top - bottom


@dataclass(repr=False, eq=False)
class TextBounds:
    """The largest a line of text can be in each kind of block, read without registering the
    booklet's fonts: enough for ``check`` to tell that a block surely fits a page. Each kind is
    (font size, leading, space around a paragraph), the largest of its styles."""

    width: float
    page_height: float
    """The width and height of the text on a page, in points."""
    box_inset: float
    """What an example box takes from the text width: its padding either side and its rule."""
    list_indent: float
    card_width: float
    """The printed width of a card in the card reference, unless a directive gives one."""
    body: tuple[float, float, float]
    heading: tuple[float, float, float]
    table: tuple[float, float, float]


def text_bounds(paper: str, path: Path = STYLE_FILE) -> TextBounds:
    """The :class:`TextBounds` of a page on ``paper``."""
    document = _style_document(path)

    def largest(*names: str) -> tuple[float, float, float]:
        measures = [_type_measures(document, name) for name in names]
        return (max(size for size, _, _, _ in measures), max(leading for _, leading, _, _ in measures),
                max(before + after for _, _, before, after in measures))

    width, height = _text_frame(document, paper)
    return TextBounds(width=width, page_height=height,
                      box_inset=2 * _length(document, "example_box", "padding") + EXAMPLE_BOX_RULE,
                      list_indent=_length(document, "lists", "indent"),
                      card_width=_length(document, "cards", "width"), body=largest("body"),
                      heading=largest("h1", "h2", "h3", "h4"), table=largest("table", "table_head"))


@lru_cache(maxsize=1)
def load_style(path: Path = STYLE_FILE) -> BookletStyle:
    """Read the style file (cached: it is the same for every booklet of a run)."""
    document = _style_document(path)
    data = document.data
    palette = {name: colors.HexColor(value) for name, value in data["colours"].items()}
    return BookletStyle(
        papers={name: Paper(name, _pair(document, "paper", name, "page"), _pair(document, "paper", name, "sheet"))
                for name in data["paper"]},
        margins=Margins(**{side: _length(document, "margins", side) for side in ("top", "bottom", "inner", "outer")}),
        colours=palette,
        text={name: _paragraph_style(document, name, palette) for name in data["text"]},
        list_indent=_length(document, "lists", "indent"),
        bullets=tuple(data["lists"]["bullets"]),
        box_padding=_length(document, "example_box", "padding"),
        box_space_after=_length(document, "example_box", "space_after"),
        card_width=_length(document, "cards", "width"),
        card_gap=_length(document, "cards", "gap"),
        cover_card_width=_length(document, "cards", "cover_width"),
        toc_after_pages=int(data["toc_after_pages"]),
        fallback_fonts=tuple(data.get("fallback_fonts", ())),
    )


@lru_cache(maxsize=1)
def bundled_fonts() -> FontRegistry:
    """The card stage's registry of the fonts deckpress ships: the fallback families' faces,
    each loaded (and registered with reportlab) the first time a character needs it."""
    return load_font_registry(None)


def fallback_face(family: str, bold: bool, italic: bool) -> str:
    """The registered name of ``family``'s face for bold/italic text (loaded on first use)."""
    fonts = bundled_fonts()
    return fonts.font(fonts.styled(family, bold, italic)).fontName


def _pair(document: Document, *keys: str) -> tuple[float, float]:
    """A [width, height] setting, in points."""
    values = _setting(document, *keys)
    where = ".".join(keys)
    if not isinstance(values, list) or len(values) != 2:
        raise InputError("expected [width, height], such as [148mm, 210mm]", document.at(*keys), where)
    return (to_points(values[0], where, document.at(*keys, 0)), to_points(values[1], where, document.at(*keys, 1)))


def _paragraph_style(document: Document, name: str, palette: dict[str, colors.Color]) -> ParagraphStyle:
    """The type style ``text.<name>``: its font, size and leading, space around it and colour."""
    spec = _type_spec(document, name)
    size, leading, before, after = _type_measures(document, name)
    return ParagraphStyle(name, fontName=booklet_fonts()[spec.get("font", "body")], fontSize=size,
                          leading=leading, spaceBefore=before, spaceAfter=after,
                          textColor=palette[spec.get("colour", "text")])


def _type_spec(document: Document, name: str) -> dict[str, Any]:
    spec = _setting(document, "text", name)
    if not isinstance(spec, dict):
        raise InputError("a type style is a mapping such as {font: body, size: 9.5}", document.at("text", name),
                         f"text.{name}")
    return spec


def _type_measures(document: Document, name: str) -> tuple[float, float, float, float]:
    """The type style ``text.<name>``'s font size, leading, and space before and after, in
    points: what a page's text takes, known without loading a font."""
    spec = _type_spec(document, name)

    def length(key: str, default: object) -> float:
        keys = ("text", name, key)
        return to_points(spec.get(key, default), ".".join(keys), document.at(*keys))

    size = _length(document, "text", name, "size")
    return size, length("leading", size * 1.25), length("space_before", 0), length("space_after", 0)


@lru_cache(maxsize=1)
def printable_characters() -> frozenset[int]:
    """Code points the booklet's body font has glyphs for (read once from the font)."""
    return frozenset(pdfmetrics.getFont(booklet_fonts()["body"]).face.charToGlyph)


def font_has_glyph(character: str) -> bool:
    """True when the booklet can print ``character``: in Vera or one of its fallback fonts."""
    return _font_for(character) is not None


@cache  # once a character: every booklet text asks of each of its characters
def _font_for(character: str) -> str | None:
    """'' for Vera itself, a fallback font's name, or None when no font has ``character``."""
    code = ord(character)
    if code in printable_characters() or character in "\n\t":
        return ""
    for family in load_style().fallback_fonts:
        if bundled_fonts().has_glyph(family, character):
            return fallback_face(family, False, False)
    return None


def paragraph_text(text: str) -> str:
    """``text`` escaped for a reportlab paragraph, each run of characters Vera lacks wrapped
    in ``<font name=...>`` for the first fallback font that has them (bold and italic carry
    over to its faces). Characters no font has are left for the caller to have refused."""
    pieces = ((font, "".join(characters))
              for font, characters in groupby(text, key=lambda character: _font_for(character) or ""))
    escaped = ((font, escape(part, quote=False)) for font, part in pieces)
    return "".join(part if not font else f'<font name="{font}">{part}</font>' for font, part in escaped)


def derive(style: ParagraphStyle, **changes) -> ParagraphStyle:
    """A copy of ``style`` with some settings changed (``derive(body, alignment=TA_CENTER)``)."""
    return ParagraphStyle(f"{style.name}*", parent=style, **changes)
