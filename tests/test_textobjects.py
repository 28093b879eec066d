"""Text objects written straight as operators: the very bytes reportlab's own text object writes,
so a face drawn either way is the same PDF."""

from __future__ import annotations

from io import BytesIO
from pathlib import Path

import reportlab
from reportlab.lib.colors import CMYKColor, Color, HexColor
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from generator.render.plan import Glyphs
from generator.render.textobjects import TextObjects

FONTS = Path(reportlab.__file__).parent / "fonts"


def _fonts() -> tuple[str, str]:
    for name, file in (("TextObjectsVera", "Vera.ttf"), ("TextObjectsVeraBold", "VeraBd.ttf")):
        if name not in pdfmetrics.getRegisteredFontNames():
            pdfmetrics.registerFont(TTFont(name, str(FONTS / file)))
    return "TextObjectsVera", "TextObjectsVeraBold"


def _by_reportlab(canvas: Canvas, runs: list[Glyphs], size: float) -> None:
    text = canvas.beginText()
    font = colour = None
    for run in runs:
        if run.font != font:
            text.setFont(run.font, size)
            font = run.font
        if run.colour is not None and run.colour != colour:
            text.setFillColor(run.colour)
            colour = run.colour
        text.setTextOrigin(run.x, run.y)
        text.textOut(run.text)
    canvas.drawText(text)


def _lines() -> list[list[Glyphs]]:
    regular, bold = _fonts()
    red, blue = HexColor("#b3261e"), Color(0.1, 0.2, 0.7)
    many = "".join(chr(code) for code in range(0x100, 0x17f))  # past one subset's 256 codes
    return [
        [Glyphs(10, 20, "Gold ", regular, None), Glyphs(31.5, 20, "Rush", bold, red)],
        [Glyphs(10, 8.25, "(over) \\ back ", regular, red), Glyphs(60, 8.25, "ÆØÅ “quoted” ", regular, blue),
         Glyphs(90, 8.25, many, bold, blue), Glyphs(200, 8.25, "Gold", bold, None)],
        [Glyphs(1, 2, "", regular, None), Glyphs(3, 4, many + " again", bold, red)],
    ]


def test_text_objects_are_written_as_reportlab_writes_them_fonts_subsets_and_colours():
    ours, theirs = Canvas(BytesIO()), Canvas(BytesIO())
    texts = TextObjects(ours)
    for runs in _lines() * 2:  # the second time, every string has been split before
        code = texts.code(ours, runs, 9.5)
        assert code is not None
        ours._code.append(code)
        _by_reportlab(theirs, runs, 9.5)
    assert ours._code == theirs._code
    assert ours._doc.fontMapping == theirs._doc.fontMapping  # fonts named in the same order


def test_a_font_or_colour_reportlab_writes_otherwise_is_left_to_reportlab():
    canvas = Canvas(BytesIO())
    regular, _ = _fonts()
    assert TextObjects(canvas).code(canvas, [Glyphs(0, 0, "Ink", regular, CMYKColor(0, 0, 0, 1))], 9) is None
    assert TextObjects(canvas).code(canvas, [Glyphs(0, 0, "Ink", "Helvetica", None)], 9) is None
    # an alpha the canvas does not have: reportlab's text object sets it (with /gs)
    assert TextObjects(canvas).code(canvas, [Glyphs(0, 0, "Ink", regular, Color(0, 0, 1, alpha=0.5))], 9) is None


def test_runs_in_the_canvas_s_own_alpha_are_written_as_reportlab_writes_them():
    ours, theirs = Canvas(BytesIO()), Canvas(BytesIO())
    regular, bold = _fonts()
    runs = [Glyphs(5, 5, "Faded ", regular, Color(0.2, 0.2, 0.2, alpha=0.5)),
            Glyphs(30, 5, "ink", bold, Color(0.9, 0.1, 0.1, alpha=0.5))]
    for canvas in (ours, theirs):
        canvas.setFillAlpha(0.5)
    ours._code.append(TextObjects(ours).code(ours, runs, 8))
    _by_reportlab(theirs, runs, 8)
    assert ours._code == theirs._code
    assert ours._doc._pdfVersion == theirs._doc._pdfVersion
