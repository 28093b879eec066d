"""Colour-blind safety: a field's values told apart by colour alone, as deficient vision sees them."""

from __future__ import annotations

import pytest
from access_support import write_deck

from generator.access.colourblind import colour_pair_problems
from generator.access.colours import DISTINCT_COLOURS
from generator.access.perception import distance
from generator.deck import load_deck
from generator.render.renderer import load_renderer

DECK = """\
deck: {name: Colours, layout: look}
fields:
  name: text
  suit: {choices: [red, green, blue]}
cards:
  - {id: ruby, name: Ruby, suit: red}
  - {id: fern, name: Fern, suit: green}
  - {id: sky, name: Sky, suit: blue}
"""
MAP = """\
colours:
  suit-colour: {field: suit, map: {red: "#c62f2a", green: "#3c8d3f", blue: "#2d63b3"}}
elements:
  - name: edge
    rect: card
    fill: suit-colour
  - name: panel
    rect: [4, 4, 55.5, 80.9]
    fill: white
  - name: title
    text: "{{ name }}"
    box: [5, 5, 53.5, 10]
"""
SUIT_AS_TEXT = """\
  - name: suit-name
    text: "{{ suit | upper }}"
    box: [5, 20, 53.5, 6]
"""
SUIT_AS_ICON = """\
  - name: suit-icon
    icon: "{{ {'red': 'sun', 'green': 'moon', 'blue': 'star'}[suit] }}"
    box: [20, 30, 20, 20]
"""


def hex_rgb(text: str) -> tuple[float, float, float]:
    return tuple(int(text[index:index + 2], 16) / 255 for index in (1, 3, 5))


def problems_for(tmp_path, layout: str):
    return colour_pair_problems(load_renderer(load_deck(write_deck(tmp_path, DECK, layout))))


def test_the_issues_red_and_green_look_alike_to_deuteranopes():
    assert distance(hex_rgb("#c62f2a"), hex_rgb("#3c8d3f"), "deuteranopia") == pytest.approx(6.4, abs=0.05)
    assert distance(hex_rgb("#c62f2a"), hex_rgb("#3c8d3f")) > 50


def test_a_red_green_map_is_flagged_when_colour_alone_tells_them_apart(tmp_path):
    found = problems_for(tmp_path, MAP)
    assert [(p.values, p.deficiency) for p in found] == [((("red",), ("green",)), "deuteranopia")]
    (problem,) = found
    assert problem.distance < DISTINCT_COLOURS
    assert problem.colour == "suit-colour" and problem.element == "edge"
    assert problem.position.line == 5  # where the map is written in the layout
    assert problem.describe() == (
        "field 'suit': red (#c62f2a) and green (#3c8d3f) are 6.4 apart in CAM02-UCS as seen with "
        "deuteranopia, closer than 10 (colour 'suit-colour'); nothing else on the card tells them apart")


def test_a_distance_just_under_the_threshold_never_reads_as_the_threshold(tmp_path):
    """A gold and a green 9.96 apart for protanopes: "9.9 apart, closer than 10", not "10.0"."""
    close = MAP.replace('red: "#c62f2a", green: "#3c8d3f", blue: "#2d63b3"',
                        'red: "#9a6a12", green: "#2e6b34", blue: "#2d63b3"')
    (problem,) = [found for found in problems_for(tmp_path, close) if found.deficiency == "protanopia"]
    assert 9.95 <= problem.distance < DISTINCT_COLOURS
    assert "are 9.9 apart in CAM02-UCS as seen with protanopia, closer than 10 " in problem.describe()


def test_the_same_map_with_the_value_printed_is_reported_as_mitigated(tmp_path):
    (problem,) = problems_for(tmp_path, MAP + SUIT_AS_TEXT)
    assert problem.values == (("red",), ("green",))
    assert problem.mitigation == "every such face prints suit as text ('suit-name')"
    assert problem.describe().endswith("; mitigated: every such face prints suit as text ('suit-name')")


def test_a_distinct_icon_chosen_by_the_field_mitigates_too(tmp_path):
    (problem,) = problems_for(tmp_path, MAP + SUIT_AS_ICON)
    assert problem.mitigation == "every such face shows a different icon for each suit ('suit-icon')"


def test_text_printed_on_only_some_faces_does_not_mitigate(tmp_path):
    partial = SUIT_AS_TEXT + "    when: \"suit != 'green'\"\n"
    (problem,) = problems_for(tmp_path, MAP + partial)
    assert problem.mitigation == ""


def test_text_that_reads_the_field_but_prints_the_same_for_both_does_not_mitigate(tmp_path):
    same_word = """\
  - name: kind
    text: "{{ 'WARM' if suit != 'blue' else 'COLD' }}"
    box: [5, 20, 53.5, 6]
"""
    (problem,) = problems_for(tmp_path, MAP + same_word)  # red and green both print WARM
    assert problem.values == (("red",), ("green",))
    assert problem.mitigation == ""
    assert problem.describe().endswith("; nothing else on the card tells them apart")


def test_an_icon_and_a_text_the_field_chooses_count_when_they_differ_by_value(tmp_path):
    three_words = SUIT_AS_TEXT.replace("{{ suit | upper }}",
                                       "{{ {'red': 'FIRE', 'green': 'LEAF', 'blue': 'SKY'}[suit] }}")
    (problem,) = problems_for(tmp_path, MAP + three_words)
    assert problem.mitigation == "every such face prints suit as text ('suit-name')"


def test_colours_far_apart_for_every_deficiency_pass(tmp_path):
    layout = MAP.replace('green: "#3c8d3f"', 'green: "#f0e442"')  # a yellow instead of the green
    assert problems_for(tmp_path, layout) == []


def test_colours_a_template_picks_are_checked_like_a_map(tmp_path):
    layout = MAP.replace('suit-colour: {field: suit, map: {red: "#c62f2a", green: "#3c8d3f", blue: "#2d63b3"}}',
                         'ruby: "#c62f2a"\n  fern: "#3c8d3f"\n  sky: "#2d63b3"\n'
                         '  suit-colour: "{{ {\'red\': \'ruby\', \'green\': \'fern\', \'blue\': \'sky\'}[suit] }}"')
    (problem,) = problems_for(tmp_path, layout)
    assert problem.values == (("red",), ("green",)) and problem.colour == "suit-colour"


def test_a_second_colour_that_tells_them_apart_clears_the_pair(tmp_path):
    # A dark disc for green and a light one for red: lightness survives every deficiency.
    layout = MAP + """\
  - name: disc
    ellipse: [20, 30, 20, 20]
    fill: {field: suit, map: {red: "#f4cccc", green: "#1b3d1c", blue: "#2d63b3"}}
"""
    assert problems_for(tmp_path, layout) == []


def test_values_sharing_their_colours_are_one_group(tmp_path):
    deck = DECK.replace("suit: {choices: [red, green, blue]}", "suit: {choices: [red, crimson, green, blue]}")
    deck += "  - {id: rose, name: Rose, suit: crimson}\n"
    layout = MAP.replace('red: "#c62f2a",', 'red: "#c62f2a", crimson: "#c62f2a",')
    (problem,) = colour_pair_problems(load_renderer(load_deck(write_deck(tmp_path, deck, layout))))
    assert problem.values == (("red", "crimson"), ("green",))
    assert problem.describe().startswith("field 'suit': red/crimson (#c62f2a) and green (#3c8d3f) are 6.4 apart")


@pytest.mark.parametrize("greys, compared", [(22, True), (23, False)])
def test_a_field_with_more_colours_than_a_code_has_is_not_compared(tmp_path, greys, compared):
    # The issue's red and green among greys: 24 colours are still a code, 25 are not.
    from generator.access.colourblind import MAX_CODE_COLOURS

    tints = ["#c62f2a", "#3c8d3f"] + [f"#{level:02x}{level:02x}{level:02x}" for level in range(20, 20 + 10 * greys, 10)]
    assert (len(tints) <= MAX_CODE_COLOURS) is compared
    cards = "".join(f"  - {{id: c{index}, name: C{index}, tint: '{tint}'}}\n" for index, tint in enumerate(tints))
    deck = "deck: {name: Tints, layout: look}\nfields: {name: text, tint: text}\ncards:\n" + cards
    layout = "elements:\n  - name: edge\n    rect: card\n    fill: \"{{ tint or '#000000' }}\"\n"
    found = colour_pair_problems(load_renderer(load_deck(write_deck(tmp_path, deck, layout))))
    assert bool(found) is compared
    if compared:
        assert [problem.values for problem in found] == [(("#c62f2a",), ("#3c8d3f",))]
