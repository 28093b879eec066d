"""Contrast of text against what is painted behind it, as WCAG 2 measures it."""

from __future__ import annotations

import pytest
from access_support import write_deck
from PIL import Image

from generator.access.colours import contrast_ratio
from generator.access.contrast import contrast_problems
from generator.deck import load_deck
from generator.render.renderer import load_renderer

DECK = """\
deck: {name: Contrast, layout: look}
fields:
  name: text
  colour: text
cards:
  - {id: %s, name: "Sample", colour: "%s"}
"""


def hex_rgb(text: str) -> tuple[float, float, float]:
    return tuple(int(text[index:index + 2], 16) / 255 for index in (1, 3, 5))


def problems_for(tmp_path, colour: str, size: float, font: str = "Vera", backdrop: str = "#ffffff",
                 card: str = "sample"):
    layout = f"""\
elements:
  - name: panel
    rect: card
    fill: "{backdrop}"
  - name: label
    text: "{{{{ name }}}}"
    box: [5, 20, 50, 20]
    font: {font}
    size: {size}
    min_size: {size}
    colour: "{{{{ colour }}}}"
"""
    folder = write_deck(tmp_path, DECK % (card, colour), layout)
    return contrast_problems(load_renderer(load_deck(folder)))


def test_ratios_match_wcag():
    # WCAG's own examples: black on white is 21:1; the yellow digit 1.46:1.
    assert contrast_ratio((0, 0, 0), (1, 1, 1)) == pytest.approx(21.0)
    assert contrast_ratio(hex_rgb("#f2d600"), (1, 1, 1)) == pytest.approx(1.46, abs=0.005)
    assert contrast_ratio(hex_rgb("#767676"), (1, 1, 1)) == pytest.approx(4.54, abs=0.005)


@pytest.mark.parametrize("colour, flagged", [("#767676", False), ("#777777", True)])
def test_small_text_needs_four_and_a_half_to_one(tmp_path, colour, flagged):
    found = problems_for(tmp_path, colour, 9)
    assert bool(found) is flagged
    if flagged:
        (problem,) = found
        assert problem.card.id == "sample" and problem.side == "front" and problem.element == "label"
        assert problem.describe() == (
            "text 'label' (9 pt) on card 'sample' front: #777777 on #ffffff ('panel') has contrast "
            "4.47:1, below the 4.5:1 WCAG 2 asks of text")


@pytest.mark.parametrize("colour, flagged", [("#939393", False), ("#959595", True)])
def test_eighteen_point_text_needs_three_to_one(tmp_path, colour, flagged):
    found = problems_for(tmp_path, colour, 18)
    assert bool(found) is flagged
    if flagged:
        assert "has contrast 2.99:1, below the 3:1 WCAG 2 asks of large text" in found[0].describe()


def test_large_means_fourteen_point_only_when_bold(tmp_path):
    # 3.07:1 passes for 14 pt bold, fails for 14 pt regular (which needs 4.5:1) and 13 pt bold.
    assert problems_for(tmp_path / "bold", "#939393", 14, font="Vera-Bold") == []
    regular = problems_for(tmp_path / "regular", "#939393", 14)
    assert regular and "below the 4.5:1 WCAG 2 asks of text" in regular[0].describe()
    smaller = problems_for(tmp_path / "smaller", "#939393", 13, font="Vera-Bold")
    assert smaller and "(13 pt bold)" in smaller[0].describe()


def test_text_is_judged_against_the_shape_under_it_not_the_page(tmp_path):
    # White on a dark disc reads; the same white beside the disc, on the white card, does not.
    layout = """\
elements:
  - name: disc
    ellipse: [10, 10, 40, 40]
    fill: "#1d3b33"
  - name: on-disc
    text: "7"
    box: [20, 20, 20, 20]
    font: Vera-Bold
    size: 40
    align: center
    colour: white
  - name: off-disc
    text: "7"
    box: [20, 60, 20, 20]
    font: Vera-Bold
    size: 40
    align: center
    colour: white
"""
    folder = write_deck(tmp_path, "deck: {name: Disc, layout: look}\ncards:\n  - {id: one, name: One}\n", layout)
    found = contrast_problems(load_renderer(load_deck(folder)))
    assert [problem.element for problem in found] == ["off-disc"]
    assert "#ffffff on #ffffff (the paper)" in found[0].describe()


def test_text_straddling_two_fills_is_judged_by_the_worse(tmp_path):
    layout = """\
elements:
  - name: dark-half
    rect: [0, 0, 31.75, 88.9]
    fill: "#000000"
  - name: light-half
    rect: [31.75, 0, 31.75, 88.9]
    fill: "#ffffff"
  - name: across
    text: "ACROSS THE LINE"
    box: [10, 40, 43.5, 10]
    size: 12
    align: center
    colour: "#333333"
"""
    folder = write_deck(tmp_path, "deck: {name: Halves, layout: look}\ncards:\n  - {id: one, name: One}\n", layout)
    (problem,) = contrast_problems(load_renderer(load_deck(folder)))
    assert "#333333 on #000000 ('dark-half')" in problem.describe()


def test_an_image_behind_text_is_sampled_for_its_worst_point(tmp_path):
    folder = tmp_path / "game"
    folder.mkdir()
    picture = Image.new("RGB", (100, 100), "#000000")
    picture.paste((250, 250, 250), (40, 0, 60, 100))  # a light stripe down the middle
    picture.save(folder / "art.png")
    layout = """\
elements:
  - name: art
    image: art.png
    box: [0, 0, 63.5, 88.9]
    fit: stretch
  - name: caption
    text: "CAPTION ACROSS"
    box: [5, 40, 53.5, 10]
    size: 12
    align: center
    colour: white
"""
    write_deck(tmp_path, "deck: {name: Art, layout: look}\ncards:\n  - {id: one, name: One}\n", layout)
    (problem,) = contrast_problems(load_renderer(load_deck(folder)))
    assert "#ffffff on #fafafa ('art')" in problem.describe()


def test_each_distinct_face_is_checked_once(tmp_path):
    deck = ("deck: {name: Copies, layout: look}\nfields: {name: text, colour: text}\ncards:\n"
            "  - {id: a, name: Same, colour: '#eeeeee', count: 9}\n"
            "  - {id: b, name: Same, colour: '#eeeeee', count: 3}\n"
            "  - {id: c, name: Other, colour: '#eeeeee'}\n")
    layout = """\
elements:
  - name: label
    text: "{{ name }}"
    box: [5, 20, 50, 20]
    colour: "{{ colour }}"
"""
    folder = write_deck(tmp_path, deck, layout)
    found = contrast_problems(load_renderer(load_deck(folder)))
    assert sorted(problem.card.id for problem in found) == ["a", "c"]  # b draws exactly as a does


def test_a_faint_styled_word_is_found_inside_readable_text(tmp_path):
    layout = """\
styles:
  pale: {colour: "#f2d600"}
elements:
  - name: rule
    text: "Dark words and one [pale]{.pale} word"
    box: [5, 20, 53.5, 10]
    size: 9
"""
    folder = write_deck(tmp_path, "deck: {name: Styled, layout: look}\ncards:\n  - {id: one, name: One}\n", layout)
    (problem,) = contrast_problems(load_renderer(load_deck(folder)))
    assert problem.element == "rule"
    assert "#f2d600 on #ffffff (the paper) has contrast 1.45:1" in problem.describe()


def test_svg_art_behind_text_counts_with_every_colour_it_paints(tmp_path):
    folder = tmp_path / "game"
    folder.mkdir()
    (folder / "banner.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="20">'
        '<rect width="100" height="20" fill="#1d3b33"/><rect x="40" width="20" height="20" fill="#f2d600"/></svg>')
    layout = """\
elements:
  - name: banner
    image: banner.svg
    box: [5, 40, 53.5, 10.7]
    fit: stretch
  - name: caption
    text: "ON THE BANNER"
    box: [5, 40, 53.5, 10.7]
    size: 12
    align: center
    colour: white
  - name: on-the-dark-end
    text: "OK"
    box: [6, 40, 14, 10.7]
    size: 12
    colour: white
"""
    write_deck(tmp_path, "deck: {name: Art, layout: look}\ncards:\n  - {id: one, name: One}\n", layout)
    (problem,) = contrast_problems(load_renderer(load_deck(folder)))  # the dark end hides the paper
    assert problem.element == "caption" and "#ffffff on #f2d600 ('banner')" in problem.describe()


def test_see_through_paint_is_blended_over_what_lies_beneath(tmp_path):
    # A black panel at half opacity over white paper prints mid grey: white text on it is too faint.
    layout = """\
elements:
  - name: veil
    rect: [5, 15, 53.5, 30]
    fill: "#000000"
    opacity: 0.5
  - name: caption
    text: "CAPTION"
    box: [10, 20, 43.5, 10]
    size: 12
    align: center
    colour: white
  - name: ghost
    text: "GHOST"
    box: [10, 60, 43.5, 10]
    size: 12
    align: center
    colour: "#00000040"
"""
    folder = write_deck(tmp_path, "deck: {name: Veil, layout: look}\ncards:\n  - {id: one, name: One}\n", layout)
    found = {problem.element: problem for problem in contrast_problems(load_renderer(load_deck(folder)))}
    assert set(found) == {"caption", "ghost"}
    assert "#ffffff on #808080 ('veil') has contrast 3.97:1" in found["caption"].describe()
    # A quarter-strength black prints as a light grey on the paper.
    assert "#000000 at 25% opacity on #ffffff (the paper) has contrast 1.83:1" in found["ghost"].describe()


def test_a_turned_disc_is_measured_in_its_own_frame(tmp_path):
    # A long thin bar turned 90 degrees stands upright: a word across the old, lying bar's
    # place is now mostly on the paper.
    layout = """\
elements:
  - name: bar
    rect: [6.75, 40, 50, 8]
    fill: "#1d3b33"
    rotate: {turn}
  - name: word
    text: "LYING DOWN"
    box: [8, 41, 47.5, 6]
    size: 12
    align: center
    colour: white
"""
    deck = "deck: {name: Turn, layout: look}\ncards:\n  - {id: one, name: One}\n"
    level = write_deck(tmp_path / "level", deck, layout.replace("{turn}", "0"))
    assert contrast_problems(load_renderer(load_deck(level))) == []
    upright = write_deck(tmp_path / "upright", deck, layout.replace("{turn}", "90"))
    (problem,) = contrast_problems(load_renderer(load_deck(upright)))
    assert "#ffffff on #ffffff (the paper)" in problem.describe()


def test_turned_text_is_judged_where_the_card_turns_it_clockwise(tmp_path):
    # On a dark card, white text turned 45 degrees clockwise runs from the upper left to the
    # lower right of its centre: over two white patches placed there, it cannot be read.
    layout = """\
elements:
  - name: card
    rect: [0, 0, 63.5, 88]
    fill: "#1d3b33"
  - rect: [{left_x}, 28, 8, 8]
    fill: white
  - rect: [{right_x}, 52, 8, 8]
    fill: white
  - name: word
    text: "DIAGONAL LINE"
    box: [11.75, 42, 40, 4]
    size: 10
    align: center
    colour: white
    rotate: 45
"""
    deck = "deck: {name: Turn, layout: look}\ncards:\n  - {id: one, name: One}\n"
    along = write_deck(tmp_path / "along", deck, layout.format(left_x=15.75, right_x=39.75))
    (problem,) = contrast_problems(load_renderer(load_deck(along)))
    assert problem.element == "word" and "#ffffff on #ffffff" in problem.describe()
    across = write_deck(tmp_path / "across", deck, layout.format(left_x=39.75, right_x=15.75))
    assert contrast_problems(load_renderer(load_deck(across))) == []
