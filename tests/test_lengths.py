"""Lengths in the print sheets' style (``sheets.yaml``) and the booklet's (``style.yaml``) are
read as a layout's are: the same units, the same limits, and a malformed one (``nan``,
``.inf``, ``3 furlongs``) is one line naming the file, the line and the setting.

Both files ship with deckpress and a designer changes the look by editing them, so they
are tried here through their loaders, on edited copies."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_run import line_of

from generator.booklet import style as booklet_style
from generator.errors import EXIT_INPUT, InputError
from generator.render.units import MM, to_points
from generator.sheets import style as sheets_style


def edited(tmp_path: Path, original: Path, old: str, new: str) -> Path:
    """A copy of ``original`` with the first ``old`` replaced by ``new``."""
    path = tmp_path / original.name
    text = original.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def refused(load, path: Path, written: str, field: str) -> str:
    """The one line ``load(path)`` refuses the file with; it names the file, line and field."""
    with pytest.raises(InputError) as caught:
        load(path)
    error = caught.value
    line = str(error)
    assert error.exit_code == EXIT_INPUT
    assert "\n" not in line
    assert line.startswith(f"{path}:{line_of(path, written)}:"), line
    assert line.endswith(f"({field})"), line
    return line


SHEETS = {
    "a margin of .nan": ("margin: 5mm", "margin: .nan", "margin"),
    "a paper width of inf": ("width: 210mm", "width: inf", "width"),
    "a mark of -.inf": ("length: 5mm", "length: -.inf", "length"),
    "a dash step of nan": ("dash: [3pt, 2pt]", "dash: [3pt, nan]", "dash"),
    "a footer of NaN points": ("size: 6pt", "size: NaN", "size"),
}


@pytest.mark.parametrize("name", SHEETS)
def test_a_non_finite_length_in_the_sheets_style_is_refused_at_its_line(tmp_path, name):
    old, new, field = SHEETS[name]
    path = edited(tmp_path, sheets_style.STYLE_FILE, old, new)
    line = refused(sheets_style.load_style, path, new, field)
    assert "not a finite number" in line


def test_the_sheets_style_refuses_a_gray_that_is_not_a_number_from_0_to_1(tmp_path):
    path = edited(tmp_path, sheets_style.STYLE_FILE, "gray: 0.55", "gray: .nan")
    assert "gray level from 0 (black) to 1 (white)" in refused(sheets_style.load_style, path, "gray: .nan", "gray")


def test_a_paper_longer_than_a_pdf_page_is_refused_where_the_sheets_style_gives_it(tmp_path):
    path = edited(tmp_path, sheets_style.STYLE_FILE, "height: 420mm", "height: 6000mm")
    assert "too long a length" in refused(sheets_style.load_style, path, "height: 6000mm", "height")


def test_sheets_lengths_take_every_unit_and_a_bare_number_is_points(tmp_path):
    path = edited(tmp_path, sheets_style.STYLE_FILE, "margin: 5mm", "margin: 0.5in")
    path.write_text(path.read_text().replace("gutter: 0mm", "gutter: 12").replace("edge: 3mm", "edge: .3cm"))
    style = sheets_style.load_style(path)
    assert style.default_margin == pytest.approx(36)
    assert style.default_gutter == 12
    assert style.marks.edge == pytest.approx(3 * MM)


BOOKLET = {
    "a margin of .nan": ("top: 14mm", "top: .nan", "margins.top"),
    "a page side of inf": ("page: [148mm, 210mm]", "page: [148mm, inf]", "paper.a4.page"),
    "a card width of -.inf": ("width: 36mm", "width: -.inf", "cards.width"),
    "a type size of nan": ("size: 9.5, leading: 12.6", "size: nan, leading: 12.6", "text.body.size"),
    "a leading of .inf": ("leading: 19", "leading: .inf", "text.h1.leading"),
    "a list indent of NaN": ("indent: 13", "indent: NaN", "lists.indent"),
}


@pytest.mark.parametrize("name", BOOKLET)
def test_a_non_finite_length_in_the_booklet_style_is_refused_at_its_line(tmp_path, name):
    old, new, field = BOOKLET[name]
    path = edited(tmp_path, booklet_style.STYLE_FILE, old, new)
    line = refused(booklet_style.load_style, path, new, field)
    assert "not a finite number" in line


@pytest.mark.parametrize("name", ["a margin of .nan", "a card width of -.inf", "a type size of nan"])
def test_check_reads_the_booklet_style_as_strictly_as_the_booklet(tmp_path, name):
    """``check`` measures rules text from the style without loading it whole."""
    old, new, field = BOOKLET[name]
    path = edited(tmp_path, booklet_style.STYLE_FILE, old, new)
    refused(lambda path: booklet_style.text_bounds("a4", path), path, new, field)


def test_booklet_lengths_take_every_unit_and_a_bare_number_is_points(tmp_path):
    path = edited(tmp_path, booklet_style.STYLE_FILE, "top: 14mm", "top: 0.5in")
    path.write_text(path.read_text().replace("gap: 4mm", "gap: .4cm"))
    style = booklet_style.load_style(path)
    assert style.margins.top == pytest.approx(36)
    assert style.margins.inner == pytest.approx(13 * MM)
    assert style.card_gap == pytest.approx(4 * MM)
    assert style.list_indent == 13
    assert style.text["body"].fontSize == 9.5


@pytest.mark.parametrize("written", ["63.5mm", "2.5in", "6.35cm", "180pt", ".5in"])
def test_a_written_length_means_the_same_in_a_layout_the_sheets_and_the_booklet(tmp_path, written):
    layout = to_points(written, "mm")
    sheets = sheets_style.load_style(edited(tmp_path, sheets_style.STYLE_FILE, "margin: 5mm", f"margin: {written}"))
    booklet = booklet_style.load_style(edited(tmp_path, booklet_style.STYLE_FILE, "gap: 4mm", f"gap: {written}"))
    assert sheets.default_margin == booklet.card_gap == layout
