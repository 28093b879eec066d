"""The contrast check looks only at what can paint under a text: shapes a text reaches on
some faces and not on others must still be found where they are reached."""

from __future__ import annotations

import pytest
from access_support import write_deck

from generator.access.contrast import contrast_problems
from generator.deck import load_deck
from generator.render.renderer import load_renderer

DECK = """\
deck: {name: Reach, layout: look}
fields:
  name: text
cards:
  - {id: short, name: "Hi"}
  - {id: long, name: "%s"}
"""

LAYOUT = """\
elements:
%s  - name: dark
    rect: [44, 20, 12, 20]
    fill: "#202020"
    rotate: %s
  - name: label
    text: "{{ name }}"
    box: [5, 20, 50, 20]
    fit: %s
    size: 10
    min_size: 10
    colour: "#303030"
"""


PANEL = """\
  - name: panel
    rect: card
    fill: "#ffffff"
"""


def problems(tmp_path, long_name: str, turn: int = 0, fit: str = "line", under: str = ""):
    folder = write_deck(tmp_path, DECK % long_name, LAYOUT % (under, turn, fit))
    return contrast_problems(load_renderer(load_deck(folder)))


@pytest.mark.parametrize("under", ["", PANEL], ids=["on-paper", "on-panel"])
@pytest.mark.parametrize("turn", [0, 3])
def test_a_shape_only_long_names_reach_is_found_on_their_faces(tmp_path, turn, under):
    # Dark grey text reads on the white card (or a white panel covering it) but not on the
    # near-black box at its right end: the short name stops well before the box, the long
    # one runs onto it.
    (problem,) = problems(tmp_path, "A NAME THAT RUNS ON", turn, under=under)
    assert problem.card.id == "long" and problem.backdrop_element == "dark"
    assert "#303030 on #202020 ('dark')" in problem.describe()


def test_a_shape_only_a_later_line_reaches_is_found(tmp_path):
    # The first line is short; the wrapped second one runs onto the box.
    (problem,) = problems(tmp_path, "Go\\nA NAME THAT RUNS ON", fit="wrap")
    assert problem.card.id == "long" and problem.backdrop_element == "dark"


def test_short_names_alone_raise_nothing(tmp_path):
    assert problems(tmp_path, "Lo") == []
