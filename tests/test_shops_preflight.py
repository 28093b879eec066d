"""``deckpress preflight FILE.pdf --for SHOP`` reads any PDF and names, page by page, what the
shop would reject: exit 0 clean, 1 with findings, 2 when the file cannot be read."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from cli_run import CARDS, deckpress
from PIL import Image
from pypdf import PdfWriter
from pypdf.generic import (
    ArrayObject,
    ByteStringObject,
    DictionaryObject,
    FloatObject,
    NameObject,
    NumberObject,
    StreamObject,
)
from reportlab.lib.colors import CMYKColor
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas
from shops_support import add_element, small_deck

from generator.errors import page_ranges
from generator.shops import preflight as preflight_module
from generator.shops.preflight import UnreadablePdf, preflight
from generator.shops.presets import find_preset


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """Tiki for DriveThruCards and the offset press, and its ordinary print sheets."""
    out = tmp_path_factory.mktemp("built")
    for extra in (["--for", "drivethrucards"], ["--for", "press-3mm"], []):
        run = deckpress("build", CARDS / "tiki", "--out", out, "--quiet", *extra)
        assert run.exit_code == 0, run.stderr
    return out


def test_our_files_pass_the_shop_they_were_made_for(built):
    run = deckpress("preflight", built / "tiki.drivethrucards.pdf", "--for", "drivethrucards")
    assert run.exit_code == 0, run.stdout
    pdf = built / "tiki.drivethrucards.pdf"
    assert run.stdout == f"ok    {pdf} for DriveThruCards: 82 pages, nothing it would reject\n"
    assert deckpress("preflight", built / "tiki.press-3mm.pdf", "--for", "press-3mm").exit_code == 0


def test_ordinary_print_sheets_fail_naming_the_pages_and_the_reasons(built):
    sheets = built / "tiki.pdf"
    run = deckpress("preflight", sheets, "--for", "drivethrucards")
    assert run.exit_code == 1
    lines = run.stdout.splitlines()
    assert lines[0].startswith(f"FAIL  {sheets} for DriveThruCards: 10 pages, ")
    assert f"{sheets}: pages 1-10: trim-box: the page has no TrimBox: the shop cannot tell where to cut" in lines
    assert f"{sheets}: pages 1-10: card-size: the page is 210 x 297 mm; DriveThruCards takes one card a page, " \
           "69.85 x 95.25 mm with its bleed" in lines
    assert any(line.startswith(f"{sheets}: pages 1-10: colour: a colour set in the content (rg, RG) is DeviceRGB")
               for line in lines)
    assert any("output-intent: no OutputIntent for PDF/X" in line for line in lines)
    assert any("pdfx-keys: GTS_PDFXVersion is missing" in line for line in lines)


def test_a_pdf_x4_file_with_transparency_fails_pdf_x1a_on_the_pages_that_show_it(tmp_path):
    deck = small_deck(tmp_path)
    add_element(deck, """  - name: glow
    when: "type == 'spell'"
    ellipse: [30%, 30%, 40%, 20%]
    fill: gold
    opacity: 0.5
""")
    assert deckpress("build", deck, "--for", "press-3mm", "--out", tmp_path, "-q").exit_code == 0
    pdf = tmp_path / "demo.press-3mm.pdf"
    assert deckpress("preflight", pdf, "--for", "press-3mm").exit_code == 0  # PDF/X-4 allows it
    run = deckpress("preflight", pdf, "--for", "drivethrucards", "--format", "json")
    assert run.exit_code == 1
    problems = json.loads(run.stdout)["files"][0]["problems"]
    seen = [problem for problem in problems if problem["rule"] == "transparency"]
    # Fireball and Shield come last: 3 + 3 copies, a front and a back each, fronts first
    assert seen == [{"rule": "transparency", "message": "a graphics state paints with filling alpha 0.5",
                     "pages": list(range(41, 52, 2))}]
    assert any(problem["rule"] == "pdf-version" for problem in problems)


def one_card_pdf(draw, cmyk: bool = True, bleed: float = 9.0) -> bytes:
    """One 2.5 x 3.5 in card with ``bleed`` and its boxes, drawn by ``draw(canvas)``."""
    buffer = io.BytesIO()
    size = (180 + 2 * bleed, 252 + 2 * bleed)
    canvas = Canvas(buffer, pagesize=size, trimBox=(bleed, bleed, bleed + 180, bleed + 252), bleedBox=(0, 0, *size),
                    invariant=1)
    draw(canvas)
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def problems_of(data: bytes, shop: str = "drivethrucards") -> set[tuple[str, str]]:
    return {(problem.rule, problem.message) for problem in preflight(data, find_preset(shop)).problems}


def test_constant_alpha_soft_masks_and_unembedded_fonts_are_found():
    def draw(canvas):
        canvas.setFillColor(CMYKColor(0, 0.5, 0.5, 0, alpha=0.4))
        canvas.rect(20, 20, 50, 50, fill=1, stroke=0)
        canvas.setFont("Helvetica", 10)
        canvas.drawString(30, 100, "Hello")
        canvas.drawImage(ImageReader(Image.new("RGBA", (8, 8), (0, 0, 0, 100))), 40, 40, 20, 20, mask="auto")

    found = problems_of(one_card_pdf(draw))
    assert ("transparency", "a graphics state paints with filling alpha 0.4") in found
    assert ("fonts", "the font Helvetica is not embedded") in found
    assert any(rule == "transparency" and "soft mask" in message for rule, message in found)
    assert any(rule == "colour" and "DeviceRGB" in message for rule, message in found)  # the RGB image


def test_total_ink_over_the_limit_is_found_from_the_colours_used():
    def draw(canvas):
        canvas.setFillColorCMYK(1, 1, 1, 1)
        canvas.rect(20, 20, 50, 50, fill=1, stroke=0)

    found = problems_of(one_card_pdf(draw))
    assert ("ink-limit", "a CMYK colour (1, 1, 1, 1) puts down 400% ink, more than DriveThruCards' 240%") in found


def test_a_card_with_too_little_bleed_is_named():
    found = problems_of(one_card_pdf(lambda canvas: None, bleed=4.0))
    assert ("card-size", "the page leaves 1.41 mm of bleed around the TrimBox; DriveThruCards asks for 3.17 mm") \
        in found


@pytest.mark.parametrize("box, edge", [("bleedBox", "BleedBox"), ("cropBox", "CropBox")])
def test_a_bleed_or_crop_box_on_the_trim_leaves_no_bleed_however_large_the_page(box, edge):
    """The bleed is what lies between the TrimBox and the BleedBox (by default the CropBox,
    by default the MediaBox): a 3.17 mm page margin outside them does not print."""
    buffer = io.BytesIO()
    trim = (9, 9, 189, 261)
    canvas = Canvas(buffer, pagesize=(198, 270), trimBox=trim, invariant=1, **{box: trim})
    canvas.showPage()
    canvas.save()
    assert ("card-size", f"the {edge} leaves 0 mm of bleed around the TrimBox; DriveThruCards asks for 3.17 mm") \
        in problems_of(buffer.getvalue())


def test_files_that_are_not_pdfs_are_exit_2_and_the_others_still_read(built, tmp_path):
    garbage = tmp_path / "garbage.pdf"
    garbage.write_bytes(b"not a pdf at all")
    truncated = tmp_path / "truncated.pdf"
    truncated.write_bytes((built / "tiki.drivethrucards.pdf").read_bytes()[:2000])
    run = deckpress("preflight", garbage, truncated, tmp_path / "missing.pdf", built / "tiki.drivethrucards.pdf",
                    "--for", "drivethrucards")
    assert run.exit_code == 2
    assert f"error: {garbage}: is not a PDF file (it does not start with %PDF-)" in run.error_lines
    assert any(line.startswith(f"error: {truncated}: ") for line in run.error_lines)
    assert f"error: {tmp_path / 'missing.pdf'}: no such file" in run.error_lines
    assert "nothing it would reject" in run.stdout


def test_a_damaged_file_is_one_error_line_in_a_real_terminal(built, tmp_path):
    """Run as its own process: pypdf's log of what it mends ("EOF marker not found") would reach
    stderr there, where the test runner's log capture does not stand in the way."""
    truncated = tmp_path / "truncated.pdf"
    truncated.write_bytes((built / "tiki.drivethrucards.pdf").read_bytes()[:2000])
    run = subprocess.run([sys.executable, "-m", "generator", "preflight", str(truncated), "--for", "drivethrucards"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 2
    assert run.stderr.splitlines() == [f"error: {truncated}: cannot be read as a PDF (Stream has ended unexpectedly)"]


def test_an_unknown_shop_offers_the_shops_preflight_reads_and_a_preset_file(built):
    run = deckpress("preflight", built / "tiki.pdf", "--for", "low-ink")
    assert run.exit_code == 2
    assert run.stderr.strip() == ("error: unknown shop 'low-ink'; expected one of: drivethrucards, press-3mm; "
                                  "or name a preset file of your own (a path ending in .yaml) (for)")


def test_an_image_shop_takes_no_pdf(built):
    run = deckpress("preflight", built / "tiki.pdf", "--for", "thegamecrafter")
    assert run.exit_code == 2 and "The Game Crafter takes one image a face, not a PDF" in run.stderr


@pytest.mark.parametrize("info", [b" ", b"/Info 7"], ids=["missing", "not a dictionary"])
def test_document_information_missing_or_not_a_dictionary_lacks_every_pdf_x_key(built, info):
    original = (built / "tiki.drivethrucards.pdf").read_bytes()
    edited = re.sub(rb"/Info \d+ 0 R", lambda found: info.ljust(len(found.group())), original)
    assert edited != original
    messages = {problem.message for problem in preflight(edited, find_preset("drivethrucards")).problems}
    assert messages == {"GTS_PDFXVersion is missing; DriveThruCards asks for PDF/X-1a:2003",
                        "GTS_PDFXConformance is missing; PDF/X-1a:2003 files say PDF/X-1a:2003",
                        "Trapped is not True or False in the document information, as PDF/X asks"}


def test_page_ranges_read_as_people_write_them():
    assert page_ranges([1, 2, 3, 7, 9, 10]) == "pages 1-3, 7, 9-10"
    assert page_ranges([4]) == "page 4"


def test_a_damaged_file_is_reported_never_a_crash(built):
    """Bytes of a good file overwritten here and there: every result is a report or one error."""
    import random

    original = (built / "tiki.drivethrucards.pdf").read_bytes()
    preset = find_preset("drivethrucards")
    chances = random.Random(26)
    for _ in range(25):
        damaged = bytearray(original)
        for _ in range(chances.randint(1, 40)):
            place = chances.randrange(len(damaged))
            damaged[place:place + 4] = bytes(chances.randrange(256) for _ in range(4))
        try:
            report = preflight(bytes(damaged), preset)
        except UnreadablePdf as error:
            assert "\n" not in str(error)
        else:
            assert report.pages >= 0


def card_drawing(content: bytes, resources: dict[str, dict[str, object]], *contents: object) -> bytes:
    """A blank card (:func:`one_card_pdf`) whose page also draws ``content`` with ``resources``
    added to its own (``{"/XObject": {"/Art1": object}}``), each object made by a function given the
    writer (to add objects it refers to); ``contents`` replace the page's content when given,
    made the same way."""
    writer = PdfWriter(clone_from=io.BytesIO(one_card_pdf(lambda canvas: None)))
    page = writer.pages[0]
    page_resources = page["/Resources"].get_object()
    for kind, named in resources.items():
        held = page_resources.setdefault(NameObject(kind), DictionaryObject()).get_object()
        for name, make in named.items():
            held[NameObject(name)] = writer._add_object(make(writer))
    stream = StreamObject()
    stream.set_data(content)
    parts = [make(writer) for make in contents] if contents else [page.raw_get("/Contents"), writer._add_object(stream)]
    page[NameObject("/Contents")] = ArrayObject(parts)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def rgb_image(writer: PdfWriter) -> StreamObject:
    image = StreamObject()
    image.set_data(b"\xff\x00\x00" * 4)
    image.update({NameObject("/Type"): NameObject("/XObject"), NameObject("/Subtype"): NameObject("/Image"),
                  NameObject("/Width"): NumberObject(2), NameObject("/Height"): NumberObject(2),
                  NameObject("/ColorSpace"): NameObject("/DeviceRGB"),
                  NameObject("/BitsPerComponent"): NumberObject(8)})
    return image


@pytest.mark.parametrize("written", [b"/Art1", b"/Art#C3#A9", "/Art\u00e9".encode()],
                         ids=["ascii", "escaped", "utf-8 bytes"])
def test_a_resource_is_found_however_its_name_is_written(tmp_path, written):
    """pypdf reads the resources' key ``/Art#C3#A9`` as UTF-8: the content stream's name must be
    read the same way, or the RGB image behind it is never looked at and the file passes."""
    name = "Art1" if written == b"/Art1" else "Art\u00e9"
    pdf = tmp_path / "art.pdf"
    pdf.write_bytes(card_drawing(b"q 100 0 0 100 20 20 cm " + written + b" Do Q",
                                 {"/XObject": {f"/{name}": rgb_image}}))
    run = deckpress("preflight", pdf, "--for", "drivethrucards")
    assert run.exit_code == 1
    assert f"{pdf}: page 1: colour: the image {name} is DeviceRGB; PDF/X-1a:2003 allows only DeviceCMYK, " \
           "DeviceGray, DeviceN, Separation" in run.stdout.splitlines()


def test_a_name_the_resources_do_not_hold_is_a_damaged_file(tmp_path):
    """What a missing image or font would print cannot be checked, and a shop refuses the file;
    a form without resources of its own draws with the page's (the font it sets is no finding)."""

    def form(writer):
        drawn = StreamObject()
        drawn.set_data(b"BT /F1 10 Tf (x) Tj ET")
        drawn.update({NameObject("/Type"): NameObject("/XObject"), NameObject("/Subtype"): NameObject("/Form"),
                      NameObject("/BBox"): ArrayObject([NumberObject(0), NumberObject(0), NumberObject(9),
                                                        NumberObject(9)])})
        return drawn

    def font(writer):
        return DictionaryObject({NameObject("/Type"): NameObject("/Font"), NameObject("/Subtype"): NameObject("/Type1"),
                                 NameObject("/BaseFont"): NameObject("/Helvetica")})

    pdf = tmp_path / "damaged.pdf"
    pdf.write_bytes(card_drawing(b"/Form Do /Arte#CC#81 Do BT /F9 12 Tf ET /Missing gs",
                                 {"/XObject": {"/Form": form}, "/Font": {"/F1": font}}))
    run = deckpress("preflight", pdf, "--for", "drivethrucards", "--format", "json")
    assert run.exit_code == 1
    problems = json.loads(run.stdout)["files"][0]["problems"]
    assert [problem["message"] for problem in problems if problem["rule"] == "resources"] == [
        "the content uses the image or form Arte\u0301, which is not among its resources: the file is damaged",
        "the content uses the font F9, which is not among its resources: the file is damaged",
        "the content uses the graphics state Missing, which is not among its resources: the file is damaged"]
    assert {"rule": "fonts", "message": "the font Helvetica is not embedded", "pages": [1]} in problems


def fanned_functions(depth: int, fan_out: int, loop: bool = False) -> object:
    """A CMYK shading whose stitching functions each list the next ``fan_out`` times, ``depth``
    deep, down to one exponential function putting down 400% ink; with ``loop`` the last lists
    the first instead. Read part by part, it is ``fan_out ** depth`` functions."""

    def shading(writer):
        leaf = DictionaryObject({NameObject("/FunctionType"): NumberObject(2), NameObject("/N"): NumberObject(1),
                                 NameObject("/Domain"): ArrayObject([NumberObject(0), NumberObject(1)]),
                                 NameObject("/C1"): ArrayObject([FloatObject(1)] * 4)})
        below = writer._add_object(leaf)
        levels = [DictionaryObject({NameObject("/FunctionType"): NumberObject(3),
                                    NameObject("/Domain"): ArrayObject([NumberObject(0), NumberObject(1)])})
                  for _ in range(depth)]
        for stitching in levels:
            stitching[NameObject("/Functions")] = ArrayObject([below] * fan_out)
            below = writer._add_object(stitching)
        if loop:
            levels[0][NameObject("/Functions")] = ArrayObject([below] * fan_out)
        return DictionaryObject({NameObject("/ShadingType"): NumberObject(2),
                                 NameObject("/ColorSpace"): NameObject("/DeviceCMYK"),
                                 NameObject("/Coords"): ArrayObject([NumberObject(0)] * 4),
                                 NameObject("/Function"): below})

    return shading


def preflight_process(pdf: Path) -> subprocess.CompletedProcess[str]:
    """Preflight in its own process, so that a file that would keep it busy for hours fails the
    test in seconds instead of hanging it."""
    return subprocess.run([sys.executable, "-m", "generator", "preflight", str(pdf), "--for", "drivethrucards"],
                          capture_output=True, text=True, timeout=60)


def test_a_shading_function_listed_many_times_is_read_once(tmp_path):
    """Eight parts of eight parts, ten deep: 8 ** 10 functions read one by one, eleven once each."""
    pdf = tmp_path / "fan.pdf"
    pdf.write_bytes(card_drawing(b"/Sh sh", {"/Shading": {"/Sh": fanned_functions(depth=10, fan_out=8)}}))
    run = preflight_process(pdf)
    assert run.returncode == 1, run.stderr
    assert f"{pdf}: page 1: ink-limit: a shading (1, 1, 1, 1) puts down 400% ink, more than DriveThruCards' 240%" \
        in run.stdout.splitlines()


def test_a_shading_function_that_lists_itself_is_one_error_line(tmp_path):
    pdf = tmp_path / "loop.pdf"
    pdf.write_bytes(card_drawing(b"/Sh sh", {"/Shading": {"/Sh": fanned_functions(depth=1, fan_out=8, loop=True)}}))
    run = preflight_process(pdf)
    assert run.returncode == 2
    assert run.stderr.splitlines() == [f"error: {pdf}: nests shading functions more than 20 deep"]


def test_a_colour_space_based_on_itself_is_one_error_line(tmp_path):
    """An Indexed palette whose base is the space itself: without a bound, a recursion error."""

    def looped(writer):
        space = ArrayObject([NameObject("/Indexed")])
        reference = writer._add_object(space)
        space.extend([reference, NumberObject(0), ByteStringObject(b"\x00\x00\x00")])
        return space

    pdf = tmp_path / "looped.pdf"
    pdf.write_bytes(card_drawing(b"/Loop cs 0 sc", {"/ColorSpace": {"/Loop": looped}}))
    run = preflight_process(pdf)
    assert run.returncode == 2
    assert run.stderr.splitlines() == [f"error: {pdf}: nests colour spaces more than 20 deep"]


def test_shading_functions_past_the_limit_are_one_error(monkeypatch):
    monkeypatch.setattr(preflight_module, "MAX_PREFLIGHT_FUNCTIONS", 5)
    data = card_drawing(b"/Sh sh", {"/Shading": {"/Sh": fanned_functions(depth=6, fan_out=2)}})
    with pytest.raises(UnreadablePdf, match="^has shadings of more than 5 functions; preflight reads files of card "
                                            "faces, whose gradients have a few$"):
        preflight(data, find_preset("drivethrucards"))
    monkeypatch.undo()
    assert preflight_module.MAX_PREFLIGHT_FUNCTIONS == 100_000


def test_content_past_the_limit_is_one_error_however_small_the_file(tmp_path):
    """One 4 MB stream of spaces, a few kilobytes compressed, named 30 times by the page: 120 MB
    of content, refused before it is joined (a hundred 70 MB ones took 7 GB)."""

    def spaces(writer):
        stream = StreamObject()
        stream.set_data(b" " * 4_000_000)
        return writer._add_object(stream.flate_encode())

    data = card_drawing(b"", {}, spaces)
    writer = PdfWriter(clone_from=io.BytesIO(data))
    page = writer.pages[0]
    page[NameObject("/Contents")] = ArrayObject(list(page["/Contents"]) * 30)
    pdf = tmp_path / "bomb.pdf"
    with pdf.open("wb") as out:
        writer.write(out)
    assert pdf.stat().st_size < 100_000
    run = deckpress("preflight", pdf, "--for", "drivethrucards")
    assert run.exit_code == 2
    assert run.error_lines == [f"error: {pdf}: draws more than 100,000,000 bytes of content; preflight reads files "
                               "of card faces, which draw far less"]
