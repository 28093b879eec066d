"""The calibration sheet, printed by a simulated printer that misplaces the back page."""

import pdfplumber
import pytest
from click.testing import CliRunner
from pypdf import PdfReader
from sheets_support import embedded_fonts

from generator.cli import cli
from generator.sheets.style import MM


def calibrate(tmp_path, *args):
    out = tmp_path / "calibration.pdf"
    result = CliRunner().invoke(cli, ["calibrate", "--out", str(out), *args])
    return result, out


def seen_through(point, page_size, duplex):
    """Where a point printed on the back shows through, in front-page coordinates.

    Written out physically and independently of the product: a portrait sheet
    turned over its long (upright) edge swaps left and right, over its short
    edge swaps top and bottom; a landscape sheet the other way round.
    """
    x, y = point
    width, height = page_size
    portrait = height >= width
    swaps_left_right = (duplex == "long") == portrait
    return (width - x, y) if swaps_left_right else (x, height - y)


def read_sheet(pdf_path, duplex, error_mm):
    """Read the X and Y offsets off the sheet as a person would, with the back misprinted by ``error_mm``."""
    with pdfplumber.open(pdf_path) as pdf:
        front, back = pdf.pages
        size = (float(front.width), float(front.height))

        def points(page, line):  # bottom-left origin
            return ((line["x0"], page.height - line["bottom"]), (line["x1"], page.height - line["top"]))

        back_lines = [points(back, line) for line in back.lines]
        shifted = [[(x + error_mm[0] * MM, y + error_mm[1] * MM) for x, y in line] for line in back_lines]
        seen = [[seen_through(p, size, duplex) for p in line] for line in shifted]
        upright = next(line for line in seen if abs(line[0][0] - line[1][0]) < 0.01)
        level = next(line for line in seen if abs(line[0][1] - line[1][1]) < 0.01)

        words = front.extract_words()
        ticks = [points(front, line) for line in front.lines if line["x1"] - line["x0"] < 0.01
                 or line["bottom"] - line["top"] < 0.01]
        short = [t for t in ticks if abs((t[1][0] - t[0][0]) + (t[1][1] - t[0][1])) < 2 * MM]
        x_ticks = [t for t in short if abs(t[0][0] - t[1][0]) < 0.01]
        y_ticks = [t for t in short if abs(t[0][1] - t[1][1]) < 0.01]
        assert len(x_ticks) == len(y_ticks) == 33

        x_tick = min(x_ticks, key=lambda t: abs(t[0][0] - upright[0][0]))
        y_tick = min(y_ticks, key=lambda t: abs(t[0][1] - level[0][1]))
        assert abs(x_tick[0][0] - upright[0][0]) < 0.05 and abs(y_tick[0][1] - level[0][1]) < 0.05

        def label_left_of(tick):  # the X labels stand at the tick's height, to its left
            y = front.height - (tick[0][1] + tick[1][1]) / 2
            return next(float(w["text"]) for w in words if w["top"] - 2 < y < w["bottom"] + 2
                        and w["x1"] < tick[0][0] and w["text"][0] in "+-")

        def label_below(tick):  # the Y labels run upwards, below the middle of the tick
            x = (tick[0][0] + tick[1][0]) / 2
            chars = [c for c in front.chars if abs((c["x0"] + c["x1"]) / 2 - x) < 2.5
                     and c["top"] > front.height - tick[0][1] + 5]
            chars.sort(key=lambda c: -c["top"])  # upright text reads bottom to top
            return float("".join(c["text"] for c in chars))

        return label_left_of(x_tick), label_below(y_tick)


@pytest.mark.parametrize("paper, orientation", [("a4", "portrait"), ("letter", "landscape")])
@pytest.mark.parametrize("duplex", ["long", "short"])
def test_the_sheet_reads_the_offset_that_cancels_the_printers_error(tmp_path, paper, orientation, duplex):
    result, out = calibrate(tmp_path, "--paper", paper, "--orientation", orientation, "--duplex", duplex)
    assert result.exit_code == 0, result.output
    for error in [(0.0, 0.0), (1.25, -0.75), (-3.5, 2.0)]:
        assert read_sheet(out, duplex, error) == (-error[0], -error[1])


def test_a_sheet_printed_with_an_offset_still_reads_the_whole_correction(tmp_path):
    result, out = calibrate(tmp_path, "--back-offset", "1,-0.5")
    assert result.exit_code == 0
    # the printer misplaces backs by +1.5, +0.5 mm; the offset that cancels that is -1.5, -0.5
    assert read_sheet(out, "long", (1.5, 0.5)) == (-1.5, -0.5)


def test_sheet_has_two_pages_of_the_paper_size_embedded_fonts_and_a_100_mm_bar(tmp_path):
    result, out = calibrate(tmp_path, "--paper", "letter")
    assert "wrote" in result.output
    pages = PdfReader(out).pages
    assert len(pages) == 2
    assert [(float(p.mediabox.width), float(p.mediabox.height)) for p in pages] == [(612, 792)] * 2
    assert all(embedded_fonts(out).values())
    with pdfplumber.open(out) as pdf:
        assert any(abs(line["x1"] - line["x0"] - 100 * MM) < 0.01 for line in pdf.pages[0].lines)


def test_two_sheets_are_byte_identical(tmp_path):
    _, first = calibrate(tmp_path / "one")
    _, second = calibrate(tmp_path / "two")
    assert first.read_bytes() == second.read_bytes()


def test_paper_too_small_is_refused_without_writing(tmp_path):
    result, out = calibrate(tmp_path, "--paper", "100x140")
    assert result.exit_code == 2  # the paper chosen is wrong: a usage error
    assert "the calibration sheet does not fit on 100x140 portrait" in result.output
    assert not out.exists()


def test_fold_is_not_a_printer_setting_to_calibrate(tmp_path):
    result, _ = calibrate(tmp_path, "--duplex", "fold")
    assert result.exit_code == 2


@pytest.mark.parametrize("offset", ["1e308,1", "inf,0", "nan,0", "21,0"])
def test_an_offset_beyond_twenty_millimetres_is_a_usage_error(tmp_path, offset):
    result, out = calibrate(tmp_path, "--back-offset", offset)
    assert result.exit_code == 2
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "each part must lie between -20 and 20 mm" in result.output
    assert not out.exists()


def test_the_largest_offsets_still_fit_the_sheet(tmp_path):
    for offset in ("20,20", "-20,-20"):
        result, out = calibrate(tmp_path, "--back-offset", offset)
        assert result.exit_code == 0, result.output
        with pdfplumber.open(out) as pdf:
            back = pdf.pages[1]
            assert back.lines and all(0 <= line["x0"] <= line["x1"] <= back.width and
                                      0 <= line["top"] <= line["bottom"] <= back.height
                                      for line in back.lines)


def test_ladder_numbers_are_large_enough_to_read_and_never_touch(tmp_path):
    import re

    for paper in ("a4", "a5"):
        result, out = calibrate(tmp_path, "--paper", paper)
        assert result.exit_code == 0, result.output
        with pdfplumber.open(out) as pdf:
            chars = pdf.pages[0].chars

        def size(char):  # the font size: the glyph box's extent across the line, whichever way it runs
            return char["bottom"] - char["top"] if char["upright"] else char["x1"] - char["x0"]

        ladder_chars = [char for char in chars if re.fullmatch(r"[-+0-9.]", char["text"])
                        and size(char) < 10]
        assert len(ladder_chars) >= 2 * 33 * 5  # two ladders of 33 numbers such as +0.25
        assert min(size(char) for char in ladder_chars) >= 7
        boxes = [(char["x0"], char["top"], char["x1"], char["bottom"]) for char in chars]
        slack = 0.05  # neighbouring letters of one word share an edge
        for index, (x0, top, x1, bottom) in enumerate(boxes):
            for other in boxes[index + 1:]:
                assert not (x0 < other[2] - slack and other[0] < x1 - slack and
                            top < other[3] - slack and other[1] < bottom - slack), (paper, x0, top)


@pytest.mark.parametrize("name, written", [("sheet", "sheet.pdf"), ("sheet.v2", "sheet.v2.pdf"),
                                           ("sheet.PDF", "sheet.PDF")])
def test_out_without_pdf_is_named_as_a_pdf(tmp_path, name, written):
    result = CliRunner().invoke(cli, ["calibrate", "--out", str(tmp_path / name)])
    assert result.exit_code == 0, result.output
    assert [path.name for path in tmp_path.iterdir()] == [written]
    assert result.output.startswith(f"wrote {tmp_path / written}:")
    assert (tmp_path / written).read_bytes().startswith(b"%PDF")


def test_an_empty_out_is_a_usage_error_that_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["calibrate", "--out", ""])
    assert result.exit_code == 2
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Invalid value for '--out': needs a file name, such as build/calibration.pdf." in result.output
    assert list(tmp_path.iterdir()) == []
