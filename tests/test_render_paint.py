"""Geometry and paint: turned elements, see-through colours, opacity and gradients, read back
from the PDF (character matrices, transparency states, shadings)."""

from __future__ import annotations

import math

import pytest
from cli_run import deckpress
from pypdf import PdfReader
from test_render import MM, make_deck, render_page

from generator.errors import InputError, LayoutError
from generator.render import load_renderer


def face_of(tmp_path, layout: str, card_id: str = "ogre"):
    deck = make_deck(tmp_path, layout)
    return render_page(load_renderer(deck), deck.card(card_id), "front", tmp_path / "face.pdf")


def built_faces(tmp_path, layout: str) -> list:
    """Build the test deck's sheets; the face forms (XObjects the size of a card) on the first page."""
    make_deck(tmp_path, layout)
    run = deckpress("build", tmp_path / "cards" / "test", "--out", tmp_path / "out", "--quiet")
    assert run.exit_code == 0, run.stderr
    page = PdfReader(tmp_path / "out" / "test.pdf").pages[0]
    forms = [form.get_object() for form in page["/Resources"]["/XObject"].values()]
    return [form for form in forms if float(form["/BBox"][2]) < 100 * MM]  # not crop marks


def transparency(resources) -> list[dict]:
    """The transparency states (/ca fill, /CA stroke) a resource dictionary offers."""
    states = resources.get("/ExtGState")
    if states is None:
        return []
    return [{key: float(value) for key, value in state.get_object().items() if key in ("/ca", "/CA")}
            for state in states.get_object().values()]


# --- rotation -------------------------------------------------------------------------------


@pytest.mark.parametrize("degrees, matrix", [
    (180, (-1, 0, 0, -1)),
    (90, (0, -1, 1, 0)),     # clockwise on the card: reads from top to bottom
    (270, (0, 1, -1, 0)),
    (30, (math.cos(math.radians(30)), -math.sin(math.radians(30)),
          math.sin(math.radians(30)), math.cos(math.radians(30)))),
])
def test_turned_text_is_drawn_with_a_turned_character_matrix(tmp_path, degrees, matrix):
    layout = (f"elements:\n  - {{text: '{{{{ roll }}}}', box: [20, 30, 20, 10], size: 16, align: center, "
              f"rotate: {degrees}}}\n")
    page = face_of(tmp_path, layout)
    seven, = page.chars
    assert seven["matrix"][:4] == pytest.approx(matrix, abs=1e-3)
    assert seven["text"] == "7"
    # it turns about the box's centre, so the figure stays in the middle of its box
    middle = ((seven["x0"] + seven["x1"]) / 2, (seven["top"] + seven["bottom"]) / 2)
    assert middle == pytest.approx((30 * MM, 35 * MM), abs=2.5)


def test_a_corner_index_turned_upside_down_reads_in_the_opposite_corner(tmp_path):
    layout = """\
elements:
  - {name: index, text: "{{ roll }}", box: [5, 5, 8, 8], size: 14, align: center}
  - {name: index-turned, text: "{{ roll }}", box: [50.5, 75.9, 8, 8], size: 14, align: center, rotate: 180}
"""
    page = face_of(tmp_path, layout)
    upright, turned = sorted(page.chars, key=lambda char: char["top"])
    assert upright["upright"] and upright["matrix"][0] > 0
    assert turned["matrix"][:4] == pytest.approx((-1, 0, 0, -1))
    width, height = 63.5 * MM, 88.9 * MM
    assert turned["x1"] == pytest.approx(width - upright["x0"], abs=0.5)
    assert turned["bottom"] == pytest.approx(height - upright["top"], abs=0.5)


def test_the_safe_zone_check_uses_the_turned_box(tmp_path):
    standing = "elements:\n  - {name: side, text: X, box: [35, 20, 40, 6], rotate: 90}\n"
    load_renderer(make_deck(tmp_path, standing))  # 6 mm wide once turned: inside the card
    lying = "elements:\n  - {name: side, text: X, box: [4, 5, 55, 6], rotate: 90}\n"
    with pytest.raises(LayoutError, match="'side' .* reaches outside the safe zone .* when turned 90 degrees"):
        load_renderer(make_deck(tmp_path, lying))


def test_shapes_icons_and_images_turn_too(tmp_path):
    layout = "elements:\n  - {rect: [10, 10, 30, 10], fill: red, rotate: 90}\n"
    page = face_of(tmp_path, layout)
    rect, = page.rects + page.curves
    assert (rect["width"], rect["height"]) == pytest.approx((10 * MM, 30 * MM), abs=0.1)
    assert (rect["x0"], rect["top"]) == pytest.approx((20 * MM, 0 * MM), abs=0.1)


# --- transparency -------------------------------------------------------------------------------


def test_hex_colours_with_alpha_and_opacity_are_real_pdf_transparency(tmp_path):
    layout = """\
elements:
  - {rect: [5, 5, 20, 20], fill: "#c62f2a80"}
  - {rect: [30, 5, 20, 20], fill: "#2d63b3", stroke: "#000000", width: 1mm, opacity: 0.25}
  - {text: "{{ name }}", box: [5, 40, 50, 10], colour: "#0000004d"}
"""
    page = face_of(tmp_path, layout)
    states = transparency(PdfReader(tmp_path / "face.pdf").pages[0]["/Resources"])
    assert {"/ca": pytest.approx(128 / 255, abs=0.01)} in states      # the half-see-through red
    assert {"/ca": pytest.approx(0.25), "/CA": pytest.approx(0.25)} in states or \
        ({"/ca": pytest.approx(0.25)} in states and {"/CA": pytest.approx(0.25)} in states)
    assert {"/ca": pytest.approx(0x4d / 255, abs=0.01)} in states     # the faint text
    assert page.extract_text() == "Ogre"


def test_opacity_multiplies_a_colour_s_own_alpha(tmp_path):
    face_of(tmp_path, "elements:\n  - {ellipse: [5, 5, 20, 20], fill: '#00000080', opacity: 0.5}\n")
    states = transparency(PdfReader(tmp_path / "face.pdf").pages[0]["/Resources"])
    assert {"/ca": pytest.approx(0.5 * 128 / 255, abs=0.01)} in states


def test_transparency_inside_face_forms_is_in_each_form_s_own_resources(tmp_path):
    layout = "elements:\n  - {rect: [5, 5, 20, 20], fill: red, opacity: 0.4}\n"
    forms = built_faces(tmp_path, layout)
    assert forms and all({"/ca": pytest.approx(0.4)} in transparency(form["/Resources"]) for form in forms)


@pytest.mark.parametrize("setting, found", [
    ("opacity: 1.5", "opacity is a number from 0 (invisible) to 1 (solid), found 1.5"),
    ("rotate: lots", "rotate is a number of degrees (clockwise), found 'lots'"),
    ("fill: '#12345'", "'#12345' is not a colour"),
])
def test_bad_rotation_opacity_and_colours_are_refused_with_their_line(tmp_path, setting, found):
    with pytest.raises(InputError) as caught:
        load_renderer(make_deck(tmp_path, f"elements:\n  - rect: [5, 5, 20, 20]\n    {setting}\n"))
    assert found in str(caught.value) and "main.yaml:3:" in str(caught.value)


# --- gradients ------------------------------------------------------------------------------------


def shading_of(resources) -> dict:
    shading, = resources["/Shading"].get_object().values()
    return shading.get_object()


def test_a_gradient_fill_is_a_pdf_shading_across_the_shape(tmp_path):
    layout = "elements:\n  - {rect: [10, 10, 40, 20], fill: {linear: ['#ff0000', '#0000ff'], angle: 90}}\n"
    page = face_of(tmp_path, layout)
    assert not [rect for rect in page.rects if rect["fill"]]  # no stripes of flat colour
    shading = shading_of(PdfReader(tmp_path / "face.pdf").pages[0]["/Resources"])
    assert shading["/ShadingType"] == 2  # axial
    function = shading["/Function"].get_object()
    assert [list(map(float, function[key])) for key in ("/C0", "/C1")] == [[1, 0, 0], [0, 0, 1]]
    x0, y0, x1, y1 = map(float, shading["/Coords"])
    height = 88.9 * MM
    assert (x0, y0, x1, y1) == pytest.approx((30 * MM, height - 10 * MM, 30 * MM, height - 30 * MM), abs=0.1)


def test_a_gradient_with_more_stops_and_an_angle(tmp_path):
    layout = "elements:\n  - {ellipse: [10, 10, 20, 20], fill: {linear: [red, white, blue], angle: 45}}\n"
    face_of(tmp_path, layout)
    shading = shading_of(PdfReader(tmp_path / "face.pdf").pages[0]["/Resources"])
    stitched = shading["/Function"].get_object()
    assert len(stitched["/Functions"]) == 2  # three colours: two pieces
    x0, y0, x1, y1 = map(float, shading["/Coords"])
    assert math.degrees(math.atan2(y0 - y1, x1 - x0)) == pytest.approx(45)


def test_gradients_inside_face_forms_are_in_the_form_s_resources(tmp_path):
    layout = "elements:\n  - {rect: card, fill: {linear: [red, blue]}, bleed: true}\n"
    forms = built_faces(tmp_path, layout)
    assert all(shading_of(form["/Resources"])["/ShadingType"] == 2 for form in forms)


@pytest.mark.parametrize("setting, found", [
    ("stroke: {linear: [red, blue]}", "stroke cannot be a gradient: only a fill can"),
    ("fill: {linear: [red]}", "a gradient reads {linear: [from, to], angle: degrees}"),
    ("fill: {linear: ['#ff000080', blue]}", "cannot be see-through; give the element an opacity"),
])
def test_gradients_only_where_they_can_be_drawn(tmp_path, setting, found):
    with pytest.raises(InputError, match=found.replace("[", r"\[").replace("]", r"\]").replace("{", r"\{")
                       .replace("}", r"\}")):
        load_renderer(make_deck(tmp_path, f"elements:\n  - rect: [5, 5, 20, 20]\n    {setting}\n"))


def test_editors_schema_accepts_every_new_setting():
    import json

    import jsonschema
    import yaml

    layout = yaml.safe_load("""\
styles: {burn: {colour: "#e0601e", bold: true}}
icons:
  coin: {svg: icons/coin.svg, colour: "#c9a227"}
colours:
  sky: {linear: ["#2d63b3", "#ffffff"], angle: 90}
elements:
  - {name: bg, rect: card, fill: sky, bleed: true}
  - {name: panel, rect: [5, 40, 53.5, 30], fill: "#ffffffaa", opacity: 0.8}
  - {name: index, text: "{{ value }}", box: [50, 75, 8, 8], rotate: 180, align: justify, icon_scale: 1.2}
  - {name: art, image: art/x.svg, box: [5, 5, 20, 20], fit: cover, dpi: 600, rotate: 15}
""")
    schema = json.loads(deckpress("schema", "layout").stdout)
    assert list(jsonschema.Draft202012Validator(schema).iter_errors(layout)) == []
    layout["elements"][0]["opacity"] = 2
    assert list(jsonschema.Draft202012Validator(schema).iter_errors(layout))


# --- drafts -------------------------------------------------------------------------------------

OVERFLOWING = """\
elements:
  - {name: title, text: "{{ name }} of the Very Long Name Indeed", box: [5, 5, 30, 6], size: 14, min_size: 10}
  - name: body
    text: "{{ text }}"
    box: [5, 40, 30, 8]
    fit: wrap
    size: 9
    min_size: 8
"""
LONG_TEXT = ("  - {id: zap, name: Zap, kind: spell, text: '" + "Far too many words for the box. " * 8 + "'}\n")


def test_a_draft_draws_overflowing_text_at_its_minimum_size_clipped_and_marked(tmp_path):
    deck = make_deck(tmp_path, OVERFLOWING, LONG_TEXT)
    renderer = load_renderer(deck, draft=True)
    renderer.validate()  # a draft lets overflow pass
    problems = renderer.problems()
    assert [(problem.side, problem.element, problem.kind, problem.drafted) for problem in problems] == \
        [("front", "title", "fit", True), ("front", "body", "fit", True), ("back", "title", "fit", True)]
    assert all("the draft prints it at its minimum size" in str(problem) for problem in problems)
    page = render_page(renderer, deck.card("zap"), "front", tmp_path / "face.pdf")
    sizes = {round(char["size"], 2) for char in page.chars if char["text"].strip()}
    assert sizes == {10, 8}
    red = (0xe0 / 255, 0, 0)
    frames = [rect for rect in page.rects if rect["stroke"]
              and tuple(rect["stroking_color"]) == pytest.approx(red, abs=0.01)]
    assert sorted((round(rect["x0"] / MM), round(rect["top"] / MM), round(rect["width"] / MM),
                   round(rect["height"] / MM)) for rect in frames) == [(5, 5, 30, 6), (5, 40, 30, 8)]
    flags = [curve for curve in page.curves if curve["fill"]
             and tuple(curve["non_stroking_color"]) == pytest.approx(red, abs=0.01)]
    assert len(flags) == 2
    first_line = min(char["top"] for char in page.chars if char["size"] == pytest.approx(8))
    assert first_line == pytest.approx(40 * MM, abs=1)  # from the start of the text, at the top


def test_without_draft_overflow_still_stops_the_face_and_drafts_keep_other_errors(tmp_path):
    deck = make_deck(tmp_path, OVERFLOWING, LONG_TEXT)
    with pytest.raises(LayoutError, match="does not fit"):
        load_renderer(deck).validate()
    broken = OVERFLOWING + "  - {name: mark, text: 'Pay :coyn:', box: [5, 60, 40, 6]}\n"
    renderer = load_renderer(make_deck(tmp_path, broken, LONG_TEXT), draft=True)
    with pytest.raises(LayoutError, match="unknown icon ':coyn:'"):
        renderer.validate()
