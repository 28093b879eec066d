"""Numbers in a layout that no card could use (zero dash patterns, 400-digit integers,
1.0e+308, a billion repeats, a 5 m card at 300 dpi) end with one line naming the layout
file, the line and the setting, before anything is drawn."""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile_support import add_to_layout, deckpress, new_deck, refused, within

from generator.exports.raster import MAX_RASTER_PIXELS
from generator.render.icons import MAX_SHAPE_REPEAT
from generator.render.layout import MAX_DASH_LENGTHS, MAX_FONT_SIZE
from generator.render.units import MAX_LENGTH

HUGE = "1" * 400
BIG = "1.0e+308"


def with_element(deck: Path, element: str) -> range:
    """Append an element to the layout; returns the lines it takes."""
    path = deck / "layout.yaml"
    lines = path.read_text().rstrip("\n").splitlines()
    added = element.strip("\n").splitlines()
    path.write_text("\n".join(lines + added) + "\n")
    return range(len(lines) + 1, len(lines) + len(added) + 1)


ELEMENTS = {
    "dash of zero lengths": ("  - name: d\n    rect: [5, 5, 10, 10]\n    stroke: ink\n    dash: [0, 0]",
                             "dash needs a length above zero", "(dash)"),
    "too many dash lengths": ("  - name: d\n    rect: [5, 5, 10, 10]\n    stroke: ink\n    dash: ["
                              + ", ".join(["1"] * (MAX_DASH_LENGTHS + 1)) + "]", "at most", "(dash)"),
    "400-digit box": (f"  - name: b\n    rect: [{HUGE}, 5, 10, 10]\n    fill: ink",
                      "(400 characters) is too long a length", "(rect)"),
    "huge radius": (f"  - name: r\n    rect: [5, 5, 10, 10]\n    radius: {BIG}\n    fill: ink",
                    "1e+308 is too long a length", "(radius)"),
    "huge rect": (f"  - name: r\n    rect: [5, 5, {BIG}, 10]\n    fill: ink", "too long a length", "(rect)"),
    "huge percentage": ("  - name: r\n    rect: [5, 5, '99999999%', 10]\n    fill: ink", "too long a length",
                        "(rect)"),
    "huge line": (f"  - name: l\n    line: [5, 5, {BIG}, 10]\n    stroke: ink", "too long a length", "(line)"),
    "huge icon gap": (f"  - name: i\n    icon: star\n    box: [5, 5, 10, 10]\n    repeat: 3\n    gap: {BIG}",
                      "too long a length", "(gap)"),
    "huge icon box": (f"  - name: i\n    icon: star\n    box: [5, 5, {BIG}, 10]", "too long a length", "(box)"),
    "huge type size": (f"  - name: w\n    text: hello world\n    box: [7, 20, 49.5, 22]\n"
                       f"    size: {MAX_FONT_SIZE + 1:g}\n    fit: wrap", f"at most {MAX_FONT_SIZE:g} pt", "(size)"),
    "1.0e+300 type that wraps": ("  - name: w\n    text: hello world\n    box: [7, 20, 49.5, 22]\n    size: 1.0e+300"
                                 "\n    fit: wrap", "too long a length", "(size)"),
    "huge leading": (f"  - name: w\n    text: hi\n    box: [7, 20, 49.5, 22]\n    leading: {HUGE}",
                     "leading is a number above zero and at most", "(leading)"),
    "400-digit rotation": (f"  - name: r\n    rect: [5, 5, 10, 10]\n    rotate: {HUGE}\n    fill: ink", None, None),
}


@pytest.mark.parametrize("name", ELEMENTS)
def test_an_impossible_number_in_an_element_is_refused_where_it_is_written(tmp_path, name):
    element, message, field = ELEMENTS[name]
    deck = new_deck(tmp_path)
    lines = with_element(deck, element)
    for command in (("check", deck), ("build", deck, "--out", tmp_path / "out", "--quiet")):
        with within():
            run = deckpress(*command)
        if message is None:  # a whole number of turns, however long, is still an exact angle
            assert run.exit_code == 0, run.stderr
            continue
        error = refused(run, (2,), f"{deck / 'layout.yaml'}:", message, field)
        assert int(error.split("layout.yaml:")[1].split(":")[0]) in lines
        assert "_rl_accel" not in run.stderr
    assert not (tmp_path / "out").exists() or message is None


ICONS = {
    "repeat: many": ("many", f"repeat is a whole number of copies from 1 to {MAX_SHAPE_REPEAT}, found 'many'"),
    "repeat: a billion": ("1000000000", "found 1000000000"),
    "a path number of 1e400": (None, "1e400 is not a number from"),
}


@pytest.mark.parametrize("name", ICONS)
def test_an_icon_shape_with_impossible_numbers_is_refused(tmp_path, name):
    repeat, message = ICONS[name]
    deck = new_deck(tmp_path)
    path = "M 50 2 L 57 20 L 43 20 Z" if repeat else "M 50 2 L 1e400 20 L 43 20 Z"
    repeated = f"\n      repeat: {repeat}" if repeat else ""
    add_to_layout(deck, "icons:\n  burst:\n    - path: '" + path + "'" + repeated)
    with within():
        error = refused(deckpress("check", deck), (2,), message)
    assert f"{deck / 'layout.yaml'}:" in error


def card_size(deck: Path, size: str) -> None:
    path = deck / "layout.yaml"
    path.write_text(path.read_text().replace("size: poker", f"size: {size}", 1))


def test_an_enormous_card_size_names_the_layout_on_build_and_export(tmp_path):
    deck = new_deck(tmp_path)
    card_size(deck, f"[{BIG}, 88]")
    for command in (("build", deck, "--out", tmp_path / "out", "--quiet"),
                    ("export", deck, "--png", tmp_path / "png", "--quiet")):
        with within():
            refused(deckpress(*command), (2,), f"{deck / 'layout.yaml'}:", "too long a length", "(size)")
    assert not (tmp_path / "out").exists() and not (tmp_path / "png").exists()


def test_a_card_too_large_to_rasterise_is_refused_before_pixels_are_made(tmp_path):
    deck = new_deck(tmp_path)
    card_size(deck, "[5000mm, 5000mm]")  # within the longest length, far past the pixels of one image
    with within():
        error = refused(deckpress("export", deck, "--png", tmp_path / "png", "--quiet"), (2,),
                        f"{deck / 'layout.yaml'}:", "59,055 x 59,055 pixels", f"more than {MAX_RASTER_PIXELS:,}")
    assert "export it at --dpi 35 or less" in error
    assert not (tmp_path / "png").exists()


def test_a_contact_sheet_past_the_pixel_limit_is_drawn_coarser_instead(tmp_path, monkeypatch):
    import generator.exports.raster as raster
    monkeypatch.setattr(raster, "MAX_RASTER_PIXELS", 400_000)  # a small limit, so the test stays quick
    deck, out = new_deck(tmp_path), tmp_path / "png"
    with within(120):
        run = deckpress("export", deck, "--png", out, "--dpi", "30", "--quiet")
    assert run.exit_code == 0, run.stderr
    from PIL import Image
    with Image.open(out / "knight-front.png") as face:
        assert face.size == (75, 105)  # the faces keep the resolution asked for
    with Image.open(out / "demo.contact-sheet.png") as sheet:
        assert 300_000 < sheet.size[0] * sheet.size[1] <= 400_000


def test_lengths_at_the_limit_are_accepted(tmp_path):
    deck = new_deck(tmp_path)
    with_element(deck, f"  - name: far\n    line: [0, 0, {MAX_LENGTH * 25.4 / 72 - 1:.0f}mm, 5]\n    stroke: ink")
    with within():
        run = deckpress("check", deck)
    assert run.exit_code == 0, run.stderr


SVGS = {
    "a path to 1e308": '<path d="M 0 0 L 1e308 1e308 Z" fill="red"/>',
    "a stroke 1e308 wide": '<rect width="1" height="1" stroke="red" stroke-width="1e308"/>',
}


@pytest.mark.parametrize("name", SVGS)
def test_svg_art_with_numbers_pdf_cannot_hold_is_refused_by_check_and_build(tmp_path, name):
    deck = new_deck(tmp_path)
    (deck / "art.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">'
                                  f"{SVGS[name]}</svg>")
    with_element(deck, "  - name: art\n    image: art.svg\n    box: [10, 20, 40, 30]")
    for command in (("check", deck), ("build", deck, "--out", tmp_path / "out", "--quiet")):
        with within():
            error = refused(deckpress(*command), (2,), f"{deck / 'art.svg'}:", "cannot be drawn: a number too large")
        assert "_fp_one" not in error


BAD_STOP = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">\n<linearGradient id="g">\n'
            '  <stop offset="0" {colour}/>\n  <stop offset="1" stop-color="#000"/>\n</linearGradient>\n'
            '<rect width="100" height="100" fill="url(#g)"/>\n</svg>\n')


@pytest.mark.parametrize("colour", ['stop-color="#zzzzzz"', 'style="stop-color: #12g"'])
def test_a_gradient_stop_that_is_not_a_colour_is_named_in_our_words(tmp_path, colour):
    deck = new_deck(tmp_path)
    (deck / "art.svg").write_text(BAD_STOP.format(colour=colour))
    bad = colour.split('"')[1].split(": ")[-1]
    said = f"has a gradient stop coloured '{bad}', which is not a colour: write it as #rrggbb"
    with_element(deck, "  - name: art\n    image: art.svg\n    box: [10, 20, 40, 30]")
    for command in (("check", deck), ("build", deck, "--out", tmp_path / "out", "--quiet")):
        error = refused(deckpress(*command), (2,), f"{deck / 'art.svg'}:3:", said)
        assert "int()" not in error and "base 16" not in error
    (deck / "icons" / "hero.svg").write_text(BAD_STOP.format(colour=colour))
    (deck / "art.svg").write_text(BAD_STOP.format(colour='stop-color="#aabbcc"'))
    error = refused(deckpress("check", deck), (2,), "icon 'hero': 'icons/hero.svg' (line 3) " + said)
    assert error.startswith(f"error: {deck / 'layout.yaml'}:")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("picture", ["bomb", "damaged"])
def test_a_broken_picture_on_every_face_is_one_error_line(tmp_path, picture):
    from hostile_support import broken_pngs, png_declaring

    deck = new_deck(tmp_path)
    if picture == "bomb":
        png_declaring(deck / "art.png", 30_000, 30_000)
    else:
        (deck / "art.png").write_bytes(broken_pngs(tmp_path / "pictures")["damaged"].read_bytes())
    lines = with_element(deck, "  - name: art\n    image: art.png\n    box: [10, 20, 40, 30]")
    for command in (("check", deck), ("build", deck, "--out", tmp_path / "out", "--quiet")):
        with within():
            run = deckpress(*command)
        error = refused(run, (2,), f"error: {deck / 'art.png'}: ", "image 'art.png'")
        assert f"layout.yaml:{lines[0]}:" in error
        assert [line for line in run.error_lines if line.startswith("error:")] == [error]
    assert "1 problem" in deckpress("check", deck).stdout
    assert not (tmp_path / "out").exists()
