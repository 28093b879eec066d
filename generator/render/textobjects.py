"""Text objects written as reportlab writes them, without a PDFTextObject for each.

reportlab's text object costs a dozen Python calls per run of text: font
lookups, a width sum the operators never use, a character-by-character split
into glyph subsets. A face's text is runs of words that recur card after card,
so :class:`TextObjects` writes the very operators ``PDFTextObject`` writes
(``BT``, ``Tm``, ``rg``, ``Tf``, ``Tj``, ``ET``, joined as its ``getCode``
joins them) and splits each distinct string into subsets once per document.

It does so for what the layouts draw: TrueType fonts (subset as they are
used) in plain RGB colours of the canvas's fill alpha, on a canvas drawing
bottom-up. For anything else (a built-in Type 1 font, a CMYK or spot colour,
a colour whose alpha the text object would set) it answers None and the
caller draws with reportlab.

The split is kept per document because subsets are numbered per document. A
string split before gives the same subsets and codes again without changing
anything, and reportlab's subset names are asked for at the moment its own
text object would first ask, so fonts are named in the same order.
"""

from __future__ import annotations

from typing import Iterable

from reportlab.lib.colors import CMYKColor, Color
from reportlab.lib.rl_accel import fp_str
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from generator.render.plan import Glyphs

BEGIN = "BT 1 0 0 1 0 0 Tm"
"""What reportlab's ``beginText()`` starts a text object with (its origin at 0 0)."""
LEADING = 1.2
"""reportlab's leading for ``setFont`` without one, as a multiple of the size (written with ``Tf``)."""


class TextObjects:
    """Writes text objects on one canvas (see the module docstring)."""

    def __init__(self, canvas: Canvas):
        self._doc = canvas._doc
        self._escape = canvas._escape
        self._shown: dict[tuple[str, str], tuple[tuple[int, str], ...]] = {}
        """By font and string: each subset's part of the string, as ``(subset, "(codes) Tj")``."""
        self._subset_names: dict[tuple[str, int], str] = {}
        self._fonts: dict[str, object | None] = {}
        """By name: the TrueType font, or None for a font left to reportlab."""

    def code(self, canvas: Canvas, runs: Iterable[Glyphs], size: float) -> str | None:
        """The operators of one text object showing ``runs`` at ``size``, each run in its font and
        colour from its origin, as reportlab's text object writes them (None: let reportlab)."""
        if not canvas.bottomup or getattr(canvas, "_enforceColorSpace", None) is not None:
            return None
        code = [BEGIN]
        font_name = colour = font = template = None
        subset = -1
        for run in runs:
            if run.font != font_name:
                font = self._font(run.font)
                if font is None:
                    return None
                font_name, subset = run.font, -1
                template = f"{fp_str(size)} Tf {fp_str(size * LEADING)} TL"
            # as in draw._text_lines: a colour is set when it changes ("is not" first spares Color.__eq__)
            if run.colour is not None and run.colour is not colour and run.colour != colour:
                if not _plain(run.colour, canvas):
                    return None
                if getattr(run.colour, "alpha", None) is not None:
                    self._doc.ensureMinPdfVersion("transparency")  # as the text object's setFillAlpha does
                code.append(f"{fp_str((run.colour.red, run.colour.green, run.colour.blue))} rg")
                colour = run.colour
            if type(run.text) is not str:  # reportlab's shaped strings are its own to write
                return None
            code.append(f"1 0 0 1 {fp_str(run.x, run.y)} Tm")
            shown = []
            for part_subset, part in self._split(font, font_name, run.text):
                if part_subset != subset:
                    shown.append(f"{self._subset_name(font, font_name, part_subset)} {template}")
                    subset = part_subset
                shown.append(part)
            code.append(" ".join(shown))
        code.append("ET")
        return " ".join(code)

    def _font(self, name: str):
        if name not in self._fonts:
            font = pdfmetrics.getFont(name)
            self._fonts[name] = font if getattr(font, "_dynamicFont", False) else None
        return self._fonts[name]

    def _split(self, font, name: str, text: str) -> tuple[tuple[int, str], ...]:
        found = self._shown.get((name, text))
        if found is None:
            found = self._shown[(name, text)] = tuple(
                (subset, f"({self._escape(codes)}) Tj") for subset, codes in font.splitString(text, self._doc))
        return found

    def _subset_name(self, font, name: str, subset: int) -> str:
        found = self._subset_names.get((name, subset))
        if found is None:  # reportlab names the font on its first use in the document
            found = self._subset_names[(name, subset)] = font.getSubsetInternalName(subset, self._doc)
        return found


def _plain(colour, canvas: Canvas) -> bool:
    """Whether reportlab sets ``colour`` in a text object with ``rg`` alone: an RGB colour whose
    alpha, if it has one, is the canvas's fill alpha already (another would be set with ``gs``)."""
    if not isinstance(colour, Color) or isinstance(colour, CMYKColor):
        return False
    alpha = getattr(colour, "alpha", None)
    return alpha is None or (isinstance(alpha, (float, int)) and 0 <= alpha <= 1
                             and alpha == canvas._extgstate.getValue("ca"))
