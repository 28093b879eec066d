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

import re
from collections import defaultdict
from dataclasses import dataclass
from functools import lru_cache
from itertools import groupby
from pathlib import Path

import reportlab
from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from generator.errors import InputError
from generator.loading import load_yaml

STYLE_FILE = Path(__file__).with_name("style.yaml")

FONT_FILES = {
    "body": ("Vera", "Vera.ttf"),
    "bold": ("Vera-Bold", "VeraBd.ttf"),
    "italic": ("Vera-Italic", "VeraIt.ttf"),
    "bolditalic": ("Vera-BoldItalic", "VeraBI.ttf"),
}
"""Style font role -> (registered font name, file shipped inside reportlab).

The names and files are the card renderer's (``fonts/fonts.yaml``), so both
stages share one registration in reportlab's process-wide font table."""

BUNDLED_FONTS_DIR = Path(reportlab.__file__).parent / "fonts"

FONT_FAMILY = "Vera"

MM = 72 / 25.4
UNITS = {"pt": 1.0, "mm": MM, "cm": 10 * MM, "in": 72.0}
_LENGTH = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*(pt|mm|cm|in)?\s*$")


@dataclass(eq=False)
class Paper:
    """A reading page size and the landscape sheet two of them are imposed on."""

    name: str
    page: tuple[float, float]
    sheet: tuple[float, float]


@dataclass(eq=False)
class Margins:
    """The reading page's margins in points (inner at the fold)."""

    top: float
    bottom: float
    inner: float
    outer: float


@dataclass(eq=False)
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


def to_points(value, where: str) -> float:
    """``"13mm"`` -> 36.85; plain numbers are points already."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    match = _LENGTH.match(str(value))
    if not match:
        raise InputError(f"'{value}' is not a length such as 12, 4mm or 0.5in", field=where)
    number, unit = match.groups()
    return float(number) * UNITS[unit or "pt"]


def register_fonts() -> None:
    """Register the Vera family once per process (reportlab keeps a global font table)."""
    registered = set(pdfmetrics.getRegisteredFontNames())
    for name, filename in FONT_FILES.values():
        if name not in registered:
            pdfmetrics.registerFont(TTFont(name, str(BUNDLED_FONTS_DIR / filename)))
    names = {role: name for role, (name, _) in FONT_FILES.items()}
    pdfmetrics.registerFontFamily(FONT_FAMILY, normal=names["body"], bold=names["bold"],
                                  italic=names["italic"], boldItalic=names["bolditalic"])


@lru_cache(maxsize=1)
def _style_data(path: Path) -> dict:
    return load_yaml(path).data


def _text_frame(data: dict, paper: str) -> tuple[float, float]:
    """The width and height of the text on a page of ``paper``, from the style file's data
    (as :meth:`BookletStyle.text_frame` gives them once the style is loaded)."""
    width, height = _pair(data["paper"][paper]["page"], f"paper.{paper}.page")
    inner, outer, top, bottom = (to_points(data["margins"][side], f"margins.{side}")
                                 for side in ("inner", "outer", "top", "bottom"))
    return width - inner - outer, height - top - bottom


def text_measures(paper: str, path: Path = STYLE_FILE) -> tuple[float, float]:
    """The text width of a page on ``paper`` and what an example box's padding takes from it,
    in points, read without registering the booklet's fonts (all ``check`` needs of the style)."""
    data = _style_data(path)
    return _text_frame(data, paper)[0], 2 * to_points(data["example_box"]["padding"], "example_box.padding")


@dataclass(eq=False)
class TextBounds:
    """The largest a line of text can be in each kind of block, read without registering the
    booklet's fonts: enough for ``check`` to tell that a block surely fits a page. Each kind is
    (font size, leading, space around a paragraph), the largest of its styles."""

    page_height: float
    """The height of the text on a page, in points."""
    list_indent: float
    card_width: float
    """The printed width of a card in the card reference, unless a directive gives one."""
    body: tuple[float, float, float]
    heading: tuple[float, float, float]
    table: tuple[float, float, float]


def text_bounds(paper: str, path: Path = STYLE_FILE) -> TextBounds:
    """The :class:`TextBounds` of a page on ``paper``."""
    data = _style_data(path)

    def largest(*names: str) -> tuple[float, float, float]:
        styles = [_paragraph_style(name, data["text"][name], defaultdict(lambda: colors.black))
                  for name in names]
        return (max(style.fontSize for style in styles), max(style.leading for style in styles),
                max(style.spaceBefore + style.spaceAfter for style in styles))

    return TextBounds(page_height=_text_frame(data, paper)[1],
                      list_indent=to_points(data["lists"]["indent"], "lists.indent"),
                      card_width=to_points(data["cards"]["width"], "cards.width"), body=largest("body"),
                      heading=largest("h1", "h2", "h3", "h4"), table=largest("table", "table_head"))


@lru_cache(maxsize=1)
def load_style(path: Path = STYLE_FILE) -> BookletStyle:
    """Read the style file (cached: it is the same for every booklet of a run)."""
    register_fonts()
    data = _style_data(path)
    palette = {name: colors.HexColor(value) for name, value in data["colours"].items()}
    margins = data["margins"]
    return BookletStyle(
        papers={name: Paper(name, _pair(spec["page"], f"paper.{name}.page"),
                            _pair(spec["sheet"], f"paper.{name}.sheet"))
                for name, spec in data["paper"].items()},
        margins=Margins(**{side: to_points(margins[side], f"margins.{side}")
                           for side in ("top", "bottom", "inner", "outer")}),
        colours=palette,
        text={name: _paragraph_style(name, spec, palette) for name, spec in data["text"].items()},
        list_indent=to_points(data["lists"]["indent"], "lists.indent"),
        bullets=tuple(data["lists"]["bullets"]),
        box_padding=to_points(data["example_box"]["padding"], "example_box.padding"),
        box_space_after=to_points(data["example_box"]["space_after"], "example_box.space_after"),
        card_width=to_points(data["cards"]["width"], "cards.width"),
        card_gap=to_points(data["cards"]["gap"], "cards.gap"),
        cover_card_width=to_points(data["cards"]["cover_width"], "cards.cover_width"),
        toc_after_pages=int(data["toc_after_pages"]),
        fallback_fonts=tuple(data.get("fallback_fonts", ())),
    )


@lru_cache(maxsize=1)
def bundled_fonts():
    """The card stage's registry of the fonts deckpress ships: the fallback families' faces,
    each loaded (and registered with reportlab) the first time a character needs it."""
    from generator.render.fonts import load_font_registry

    return load_font_registry(None)


def fallback_face(family: str, bold: bool, italic: bool) -> str:
    """The registered name of ``family``'s face for bold/italic text (loaded on first use)."""
    fonts = bundled_fonts()
    return fonts.font(fonts.styled(family, bold, italic)).fontName


def _pair(values, where: str) -> tuple[float, float]:
    width, height = values
    return (to_points(width, where), to_points(height, where))


def _paragraph_style(name: str, spec: dict, palette: dict) -> ParagraphStyle:
    font_name = FONT_FILES[spec.get("font", "body")][0]
    return ParagraphStyle(
        name,
        fontName=font_name,
        fontSize=float(spec["size"]),
        leading=float(spec.get("leading", spec["size"] * 1.25)),
        spaceBefore=to_points(spec.get("space_before", 0), f"text.{name}.space_before"),
        spaceAfter=to_points(spec.get("space_after", 0), f"text.{name}.space_after"),
        textColor=palette[spec.get("colour", "text")],
    )


@lru_cache(maxsize=1)
def printable_characters() -> frozenset[int]:
    """Code points the booklet's body font has glyphs for (read once from the font)."""
    register_fonts()
    return frozenset(pdfmetrics.getFont("Vera").face.charToGlyph)


def font_has_glyph(character: str) -> bool:
    """True when the booklet can print ``character``: in Vera or one of its fallback fonts."""
    return _font_for(character) is not None


@lru_cache(maxsize=None)  # once a character: every booklet text asks of each of its characters
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
    from xml.sax.saxutils import escape

    pieces = ((font, "".join(characters))
              for font, characters in groupby(text, key=lambda character: _font_for(character) or ""))
    return "".join(escape(part) if not font else f'<font name="{font}">{escape(part)}</font>'
                   for font, part in pieces)


def derive(style: ParagraphStyle, **changes) -> ParagraphStyle:
    """A copy of ``style`` with some settings changed (``derive(body, alignment=TA_CENTER)``)."""
    return ParagraphStyle(f"{style.name}*", parent=style, **changes)
