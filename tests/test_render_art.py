"""Art on cards: SVG drawn as vector paths, SVG icons, raster images at print resolution,
and image and SVG files that are broken, huge or hostile."""

from __future__ import annotations

import hashlib
import io
import subprocess
from pathlib import Path

import pytest
import yaml
from cli_run import deckpress
from PIL import Image
from pypdf import PdfReader
from reportlab.graphics.shapes import _CLOSEPATH, _CURVETO, _LINETO, _MOVETO
from reportlab.pdfgen.canvas import Canvas
from shops_support import fonts
from svglib.svglib import svg2rlg
from test_render import MM, make_deck, render_page

from generator.errors import EXIT_INPUT, InputError
from generator.render import load_renderer
from generator.render.icons import ICONS_FILE, parse_path
from generator.render.svg import MAX_SVG_BYTES

ONE_COLOUR = """\
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">
  <path fill="#000" d="M256 32a224 224 0 1 0 0 448 224 224 0 1 0 0-448zm0 64a160 160 0 1 1 0 320 160 160 0 1 1 0-320z"/>
</svg>
"""
TWO_COLOURS = """\
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 100">
  <rect x="0" y="0" width="200" height="100" fill="#ffcc00"/>
  <circle cx="100" cy="50" r="40" fill="#00aa00"/>
</svg>
"""
RED, BLUE = (0xc0 / 255, 0x39 / 255, 0x2b / 255), (0x2d / 255, 0x63 / 255, 0xb3 / 255)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def fills(shapes) -> set[tuple[float, ...]]:
    return {tuple(round(value, 2) for value in shape["non_stroking_color"])
            for shape in shapes if shape["fill"]}


def face_of(tmp_path: Path, layout: str, card_id: str = "ogre"):
    deck = make_deck(tmp_path, layout)
    return render_page(load_renderer(deck), deck.card(card_id), "front", tmp_path / "face.pdf")


# --- SVG art --------------------------------------------------------------------------------


def test_a_sheet_with_svg_art_names_only_fonts_it_embeds(tmp_path):
    """reportlab's SVG renderer starts in Helvetica; the sheet must not list that unembedded font
    (print shops' preflight refuses one) although the art prints no text."""
    write(tmp_path / "cards" / "test" / "art" / "flag.svg", TWO_COLOURS)
    make_deck(tmp_path, "elements:\n  - {image: art/flag.svg, box: [10, 10, 30, 30]}\n"
                        "  - {text: '{{ name }}', box: [5, 50, 50, 10]}\n")
    run = deckpress("build", tmp_path / "cards" / "test", "--out", tmp_path / "out", "--quiet")
    assert run.exit_code == 0, run.output
    embedded = fonts(PdfReader(tmp_path / "out" / "test.pdf"))
    assert embedded and all(embedded.values()), embedded


@pytest.mark.parametrize("fit, x0, top, width, height", [
    ("contain", 10, 10 + 7.5, 30, 15),    # 2:1 art in a 30 x 30 mm box: full width, centred
    ("cover", 10, 10, 30, 30),            # fills the box, its sides cut off
    ("stretch", 10, 10, 30, 30),
])
def test_svg_image_is_drawn_as_vector_paths_without_a_raster_image(tmp_path, fit, x0, top, width, height):
    write(tmp_path / "cards" / "test" / "art" / "flag.svg", TWO_COLOURS)
    page = face_of(tmp_path, f"elements:\n  - {{image: art/flag.svg, box: [10, 10, 30, 30], fit: {fit}}}\n")
    assert page.images == []
    shapes = page.rects + page.curves
    assert fills(shapes) == {(1.0, 0.8, 0.0), (0.0, 0.67, 0.0)}  # the art's own colours
    background = max(shapes, key=lambda shape: shape["width"] * shape["height"])
    shown = (max(background["x0"], 10 * MM), max(background["top"], 10 * MM),
             min(background["x1"], 40 * MM), min(background["bottom"], 40 * MM))
    assert shown == pytest.approx((x0 * MM, top * MM, (x0 + width) * MM, (top + height) * MM), abs=0.2)
    if fit == "cover":
        assert background["width"] > 30 * MM + 1  # drawn wider than the box, clipped to it


def test_svg_icon_named_by_a_project_layout_takes_the_element_colour(tmp_path):
    write(tmp_path / "layouts" / "icons" / "coin.svg", ONE_COLOUR)
    layout = """\
icons:
  coin: {svg: icons/coin.svg}
elements:
  - {icon: coin, box: [10, 10, 20, 20], colour: "#c0392b"}
"""
    page = face_of(tmp_path, layout)
    assert page.images == []
    assert fills(page.curves) == {tuple(round(value, 2) for value in RED)}
    ring = page.curves[0]
    assert (ring["x0"], ring["top"], ring["width"]) == pytest.approx((10 * MM + 20 * MM / 16, 10 * MM + 20 * MM / 16,
                                                                      20 * MM * 14 / 16), abs=0.2)


HALF_SEEN = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16">'
             '<circle cx="8" cy="8" r="6" fill="#224488" fill-opacity="0.5" stroke="#224488" '
             'stroke-opacity="0.5"/></svg>')


@pytest.mark.parametrize("element, seen", [
    ("{image: art/ghost.svg, box: [10, 10, 20, 20]}", 0.5),
    ("{image: art/ghost.svg, box: [10, 10, 20, 20], opacity: 0.8}", 0.4),
    ("{icon: ghost, box: [10, 10, 20, 20], colour: '#c0392b'}", 0.5),     # recoloured, alpha kept
])
def test_half_transparent_svg_art_prints_as_transparent_as_it_is_drawn(tmp_path, element, seen):
    """svglib gives a shape's fill-opacity to its colour too: the two are one alpha, so a
    recoloured or faded copy of the art must not take it twice (0.5 printing as 0.25)."""
    write(tmp_path / "cards" / "test" / "art" / "ghost.svg", HALF_SEEN)
    write(tmp_path / "layouts" / "icons" / "ghost.svg", HALF_SEEN)
    face_of(tmp_path, f"icons:\n  ghost: {{svg: icons/ghost.svg}}\nelements:\n  - {element}\n")
    states = PdfReader(tmp_path / "face.pdf").pages[0]["/Resources"]["/ExtGState"]
    fills = {round(float(state.get_object()["/ca"]), 3) for state in states.values() if "/ca" in state.get_object()}
    strokes = {round(float(state.get_object()["/CA"]), 3) for state in states.values()
               if "/CA" in state.get_object()}
    assert min(fills) == seen and min(strokes) == seen  # the faintest state any shape is painted with


SEE_THROUGH = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16">'
               '<g opacity="0.4"><rect width="8" height="8" fill="#224488"/></g>'
               '<rect x="8" y="8" width="8" height="8" style="opacity:.5;fill:#884422;fill-opacity:0.5"/>'
               '<circle cx="4" cy="12" r="3" fill="#c62f2a" opacity="80%"/></svg>')


def test_svg_opacity_of_shapes_and_groups_prints_as_a_browser_shows_it(tmp_path):
    """Inkscape's object and layer opacity is the opacity property, which svglib does not draw:
    it reaches each shape's fill, times the fill-opacity the shape has."""
    write(tmp_path / "cards" / "test" / "art" / "faded.svg", SEE_THROUGH)
    face_of(tmp_path, "elements:\n  - {image: art/faded.svg, box: [10, 10, 20, 20]}\n")
    states = PdfReader(tmp_path / "face.pdf").pages[0]["/Resources"]["/ExtGState"]
    fills = {round(float(state.get_object()["/ca"]), 3) for state in states.values() if "/ca" in state.get_object()}
    assert {0.4, 0.25, 0.8} <= fills


def test_inline_svg_icon_takes_the_text_colour_and_an_icon_colour_wins(tmp_path):
    write(tmp_path / "layouts" / "icons" / "coin.svg", ONE_COLOUR)
    write(tmp_path / "layouts" / "icons" / "flag.svg", TWO_COLOURS)
    layout = """\
icons:
  coin: {svg: icons/coin.svg}
  gem: {svg: icons/coin.svg, colour: "#2d63b3"}
  flag: {svg: icons/flag.svg}
elements:
  - {text: "Pay :coin: gain :gem: wave :flag:", box: [5, 10, 53, 10], size: 10, colour: "#c0392b"}
"""
    page = face_of(tmp_path, layout)
    assert page.extract_text() == "Pay gain wave"
    by_x = sorted(page.curves + page.rects, key=lambda shape: shape["x0"])
    words = {word["text"]: word for word in page.extract_words()}
    coin = [shape for shape in by_x if words["Pay"]["x1"] < shape["x0"] < words["gain"]["x0"]]
    gem = [shape for shape in by_x if words["gain"]["x1"] < shape["x0"] < words["wave"]["x0"]]
    flag = [shape for shape in by_x if words["wave"]["x1"] < shape["x0"]]
    assert fills(coin) == {tuple(round(value, 2) for value in RED)}
    assert fills(gem) == {tuple(round(value, 2) for value in BLUE)}
    assert fills(flag) == {(1.0, 0.8, 0.0), (0.0, 0.67, 0.0)}


@pytest.mark.parametrize("reference, found", [
    ("../secret.svg", "points outside"),
    ("/etc/hosts", "absolute path"),
    ("icons/missing.svg", "not found"),
])
def test_svg_icons_stay_inside_the_layout_folder(tmp_path, reference, found):
    write(tmp_path / "secret.svg", ONE_COLOUR)
    layout = f"icons:\n  coin: {{svg: '{reference}'}}\nelements: []\n"
    with pytest.raises(InputError) as caught:
        load_renderer(make_deck(tmp_path, layout))
    assert found in str(caught.value) and "main.yaml:2:" in str(caught.value)


def test_a_file_name_holding_a_nul_character_is_refused_at_its_line(tmp_path):
    layout = 'icons:\n  coin: {svg: "icons/co\\0in.svg"}\nelements: []\n'  # YAML's \0 is NUL
    with pytest.raises(InputError) as caught:
        load_renderer(make_deck(tmp_path, layout))
    assert "'icons/co\\x00in.svg' holds a NUL character, which no file name can" in str(caught.value)
    assert "main.yaml:2:" in str(caught.value) and "embedded null byte" not in str(caught.value)


def test_an_svg_icon_symlinked_out_of_the_layout_folder_is_refused(tmp_path):
    write(tmp_path / "secret.svg", ONE_COLOUR)
    (tmp_path / "layouts").mkdir()
    (tmp_path / "layouts" / "coin.svg").symlink_to(tmp_path / "secret.svg")
    with pytest.raises(InputError, match="points outside"):
        load_renderer(make_deck(tmp_path, "icons:\n  coin: {svg: coin.svg}\nelements: []\n"))


BILLION_LAUGHS = """<?xml version="1.0"?>
<!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><title>&b;</title></svg>
"""
USE_BOMB = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><defs><g id="a"><rect width="1" height="1"/>'
            + "".join(f'</g><g id="{name}">' + f'<use href="#{previous}"/>' * 10
                      for previous, name in zip("abcde", "bcdef", strict=True))
            + '</g></defs><use href="#f"/></svg>')


@pytest.mark.parametrize("svg, found", [
    (BILLION_LAUGHS, "declares entities"),
    ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">\n'
     '<use xlink:href="other.svg#x"/></svg>', "links to 'other.svg#x'"),
    ('<svg xmlns="http://www.w3.org/2000/svg">\n<image href="/etc/passwd"/></svg>', "<image> element"),
    ('<svg xmlns="http://www.w3.org/2000/svg">\n<rect style="fill:url(http://x.invalid/p)"/></svg>',
     "refers to 'http://x.invalid/p'"),
    ('<svg xmlns="http://www.w3.org/2000/svg">\n<style>@import "x.css";</style></svg>', "imports a style sheet"),
    ('<svg xmlns="http://www.w3.org/2000/svg">\n<text>Hi</text></svg>', "convert it to paths"),
    ('<svg xmlns="http://www.w3.org/2000/svg"><rect>\n</svg>', "not well-formed"),
    ('<svg xmlns="http://www.w3.org/2000/svg"><g id="a">\n<use href="#a"/></g></svg>', "inside itself"),
    (USE_BOMB, "more than 50,000 shapes"),
    ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><defs><rect id="r" width="5" height="5"/></defs>'
     '<g opacity="0.5">\n<use href="#r"/></g></svg>', "draws a <use> copy at opacity 0.5, which cannot be drawn"),
    ("<html></html>", "not an SVG file"),
])
def test_hostile_or_broken_svg_art_is_an_input_error_naming_the_file(tmp_path, svg, found):
    write(tmp_path / "cards" / "test" / "art" / "bad.svg", svg)
    make_deck(tmp_path, "elements:\n  - {name: art, image: art/bad.svg, box: [10, 10, 30, 30]}\n")
    run = deckpress("build", tmp_path / "cards" / "test", "--out", tmp_path / "out", "--quiet")
    assert run.exit_code == EXIT_INPUT
    assert len(run.error_lines) == 1 and "Traceback" not in run.stderr
    line = run.error_lines[0]
    assert found in line and f"{tmp_path / 'cards' / 'test' / 'art' / 'bad.svg'}" in line
    assert "card 'ogre'" in line and "element 'art'" in line
    assert not (tmp_path / "out").exists()


def test_an_svg_larger_than_the_limit_is_refused_unread(tmp_path):
    write(tmp_path / "layouts" / "big.svg", ONE_COLOUR.replace("</svg>", " " * MAX_SVG_BYTES + "</svg>"))
    with pytest.raises(InputError, match=r"icon 'big': 'big.svg' is 2,000,\d+ bytes"):
        load_renderer(make_deck(tmp_path, "icons:\n  big: {svg: big.svg}\nelements: []\n"))


def test_a_svg_with_an_external_doctype_is_drawn_without_fetching_it(tmp_path):
    doctype = ('<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" '
               '"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n')
    write(tmp_path / "cards" / "test" / "art" / "coin.svg", doctype + ONE_COLOUR)
    page = face_of(tmp_path, "elements:\n  - {image: art/coin.svg, box: [10, 10, 30, 30]}\n")
    assert page.curves and not page.images


# --- raster images ----------------------------------------------------------------------------


def art_file(tmp_path: Path, name: str, size: tuple[int, int]) -> Path:
    path = tmp_path / "cards" / "test" / "art" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.linear_gradient("L").resize(size).convert("RGB").save(path)
    return path


@pytest.mark.parametrize("name, fit, dpi, embedded", [
    ("photo.jpg", "contain", 300, (237, 237)),   # 20 mm at 300 dpi
    ("photo.png", "contain", 600, (473, 473)),
    ("photo.jpg", "cover", 300, (237, 355)),     # a 20 x 30 mm box shows a slice of the square
])
def test_large_images_are_downsampled_to_print_resolution_once_and_the_file_is_untouched(
        tmp_path, name, fit, dpi, embedded):
    path = art_file(tmp_path, name, (3000, 3000))
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    layout = (f"elements:\n  - {{image: art/{name}, box: [10, 10, 20, {30 if fit == 'cover' else 20}], "
              f"fit: {fit}, dpi: {dpi}}}\n")
    page = face_of(tmp_path, layout)
    image, = page.images
    assert image["srcsize"] == embedded
    assert (image["width"], image["height"]) == pytest.approx((20 * MM, (30 if fit == "cover" else 20) * MM), abs=0.1)
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before


def test_small_images_are_embedded_as_they_are(tmp_path):
    art_file(tmp_path, "small.png", (100, 80))
    page = face_of(tmp_path, "elements:\n  - {image: art/small.png, box: [10, 10, 20, 20]}\n")
    assert page.images[0]["srcsize"] == (100, 80)


def test_dpi_is_bounded(tmp_path):
    with pytest.raises(InputError, match="dpi is a whole number from 300 to 600, found 1200"):
        load_renderer(make_deck(tmp_path, "elements:\n  - {image: a.png, box: [1, 1, 2, 2], dpi: 1200}\n"))


def test_an_image_with_too_many_pixels_is_refused_from_its_header(tmp_path):
    art_file(tmp_path, "large.png", (7000, 6000))
    with pytest.raises(InputError, match="image 'art/large.png' is 7000 x 6000 pixels, more than the 40"):
        load_renderer(make_deck(tmp_path, "elements:\n  - {image: art/large.png, box: [1, 1, 2, 2]}\n")).validate()
    path = tmp_path / "cards" / "test" / "art" / "bomb.png"
    Image.new("1", (30000, 30000)).save(path)  # 900 megapixels in a small file
    make_deck(tmp_path, "elements:\n  - {name: art, image: art/bomb.png, box: [10, 10, 20, 20]}\n")
    run = deckpress("build", tmp_path / "cards" / "test", "--out", tmp_path / "out", "--quiet")
    assert run.exit_code == EXIT_INPUT
    assert "image 'art/bomb.png' has more than the 40 megapixels card art may have" in run.stderr
    assert "Traceback" not in run.stderr and "DecompressionBomb" not in run.stderr


def test_a_corrupt_image_is_one_line_naming_file_card_and_element(tmp_path):
    path = tmp_path / "cards" / "test" / "art" / "broken.png"
    path.parent.mkdir(parents=True)
    Image.effect_noise((300, 300), 60).save(path)
    path.write_bytes(path.read_bytes()[:20000])
    make_deck(tmp_path, "elements:\n  - {name: art, image: art/broken.png, box: [10, 10, 20, 20]}\n")
    run = deckpress("build", tmp_path / "cards" / "test", "--out", tmp_path / "out", "--quiet")
    assert run.exit_code == EXIT_INPUT
    line, = run.error_lines
    assert line.startswith(f"error: {path}: ") and "card 'ogre'" in line and "element 'art'" in line
    assert "not a readable image" in line and "ImageReader" not in line


# --- icon path data -------------------------------------------------------------------------

BUILT_IN_PATHS = [shape["path"] for icon in yaml.safe_load(ICONS_FILE.read_text()).values()
                  for shape in icon if "path" in shape]
TRICKY_PATHS = [
    "M10 10 h 5 v 5 H 1 V 2 z m 3 3 l 1 1 2 2 c 1 1 2 2 3 3 s 4 4 5 5 S 1 1 2 2 q 1 2 3 4 t 5 5 T 9 9 Q 1 1 2 2 Z",
    "m 5 5 10 10 20 20",                                      # pairs after a move are lines
    "M 1 1 C 1 2 3 4 5 6 S 7 8 9 10 Z M 20 20 Q 25 25 30 20 T 40 20",
    "M0,0L1e2,2.5e1-3-4.5.5.5",                               # exponents, signs and dots run together
    "M 0 0 A 10 5 30 0 1 20 20 a 10 10 0 1 0 -5 -5 A 0 5 0 0 1 3 3 A 5 5 0 0 0 3 3",
    "M 50 50 A 30 20 45 1 1 60 60 A 1 1 0 0 1 100 0",         # radii too small grow to reach
    "M10 50a40 40 0 1140 40a40 40 0 0 1-40-40a5 5 0 01.5.5",  # flags run on, as minifiers write them
]


def pdf_path_code(segments) -> str:
    """What a PDF gets for a path of (kind, numbers) segments."""
    path = Canvas(io.BytesIO()).beginPath()
    for kind, numbers in segments:
        {"M": path.moveTo, "L": path.lineTo, "C": path.curveTo, "Z": lambda: path.close()}[kind](*numbers)
    return path.getCode()


def svglib_path_code(folder: Path, data: str) -> str:
    """What svglib draws for ``data`` as the path of an SVG file."""
    svg = write(folder / "path.svg", '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">'
                                      f'<path fill="none" stroke="#000" d="{data}"/></svg>')
    drawing = svg2rlg(str(svg))
    shape = drawing
    while hasattr(shape, "contents"):
        shape = shape.contents[0]
    points, segments = list(shape.points), []
    for operator in shape.operators:
        kind, count = {_MOVETO: ("M", 2), _LINETO: ("L", 2), _CURVETO: ("C", 6), _CLOSEPATH: ("Z", 0)}[operator]
        segments.append((kind, points[:count]))
        del points[:count]
    return pdf_path_code(segments)


@pytest.mark.parametrize("data", BUILT_IN_PATHS + TRICKY_PATHS)
def test_icon_path_data_draws_as_the_same_path_in_an_svg_file(tmp_path, data):
    """Path data pasted into an icon's shapes draws exactly what it draws in an SVG icon."""
    assert pdf_path_code(parse_path(data)) == svglib_path_code(tmp_path, data)


@pytest.mark.parametrize("data, found", [
    ("L 10 10", "path data starts with M"),
    ("M 10", "'M' needs 2 numbers"),
    ("M 0 0 C 1 2 3 4 5", "'C' needs 6 numbers"),
    ("M 0 0 L 5 5 Z 5 5", "'Z' takes no numbers"),
    ("M 0 0 L 5 5 z 5", "'z' takes no numbers"),
    ("M 0 0 L 20001 5", "20001 is not a number from -10,000 to 10,000"),
    ("M 0 0 A 5 5 0 1e5 1 3 3", "expected a number, found 'e5'"),
    ("M 0 0" + " L 1 1" * 7_000, "more than 20,000"),
])
def test_malformed_icon_path_data_is_refused_at_its_line(tmp_path, data, found):
    layout = f"icons:\n  spark:\n    - path: '{data}'\nelements: []\n"
    with pytest.raises(InputError) as caught:
        load_renderer(make_deck(tmp_path, layout))
    line = str(caught.value)
    assert line.startswith(f"{tmp_path / 'layouts' / 'main.yaml'}:3:") and "bad path: " in line and found in line


@pytest.mark.parametrize("size", [(64, 64), (3000, 3000)])  # embedded as it is; downsampled
@pytest.mark.parametrize("mode, name", [("I;16", "grey.png"), ("I", "grey.tif")])
def test_sixteen_bit_greyscale_art_prints_its_grey_not_white(tmp_path, mode, name, size):
    path = tmp_path / "cards" / "test" / "art" / name
    path.parent.mkdir(parents=True)
    Image.new(mode, size, 30000).save(path)  # 30000 of 65535: a mid-grey
    face_of(tmp_path, f"elements:\n  - {{image: art/{name}, box: [0, 0, 60, 90]}}\n")
    subprocess.run(["pdftoppm", "-r", "20", "-png", "-singlefile", tmp_path / "face.pdf", tmp_path / "face"],
                   check=True)
    with Image.open(tmp_path / "face.png") as shown:
        grey = shown.convert("L").getpixel((shown.width // 2, shown.height // 2))
    assert grey == pytest.approx(30000 / 257, abs=3)
