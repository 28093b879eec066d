"""A line of ``---`` alone in card text draws a rule across the text box (the line between two
abilities), read back from real PDFs: a line object from edge to edge of the box between the
two paragraphs, in the text's colour, taking the room of a short paragraph gap, fitted with the
text; where markup is off, or the hyphens are escaped or share their line, they print."""

from __future__ import annotations

import pdfplumber
import pytest
from cli_run import deckpress
from test_render import MM, make_deck, plain_field_page, render_page

from generator.render import load_renderer
from generator.render.text import RULE_STEP

LEADING = 1.2
BODY = """\
elements:
  - name: body
    text: "{{ text }}"
    box: [5, 10, 53, 40]
    fit: wrap
    size: 10
    min_size: 4
    valign: top
    colour: "#2d63b3"
"""


def face(tmp_path, text: str, layout: str = BODY):
    escaped = text.replace("'", "''").replace("\n", "\n\n      ")  # a quoted YAML scalar: a blank line is a newline
    deck = make_deck(tmp_path, layout, f"  - {{id: zap, name: Zap, kind: spell, text: '{escaped}'}}\n")
    return render_page(load_renderer(deck), deck.card("zap"), "front", tmp_path / "face.pdf")


def baselines(page) -> dict[str, float]:
    """The first word of each printed line and its baseline (top down, as pdfplumber measures)."""
    found: dict[str, float] = {}
    for word in page.extract_words(extra_attrs=["size"]):
        char = next(char for char in page.chars if abs(char["x0"] - word["x0"]) < 0.01
                    and abs(char["top"] - word["top"]) < 0.01)
        found.setdefault(word["text"], page.height - char["matrix"][5])
    return found


def test_a_rule_crosses_the_text_box_between_the_two_abilities_in_the_text_s_colour(tmp_path):
    page = face(tmp_path, "+1 Card\n---\nGain a Silver.")
    [rule] = page.lines
    assert rule["x0"] == pytest.approx(5 * MM, abs=0.01) and rule["x1"] == pytest.approx(58 * MM, abs=0.01)
    assert rule["top"] == pytest.approx(rule["bottom"], abs=0.01)  # level
    lines = baselines(page)
    assert lines["+1"] < rule["top"] < lines["Gain"] - 0.73 * 10  # below the first line, above the next's capitals
    assert rule["stroking_color"] == pytest.approx((0x2d / 255, 0x63 / 255, 0xb3 / 255), abs=0.002)
    assert rule["linewidth"] == pytest.approx(0.6, abs=0.01)  # thin, and in proportion to the type
    assert page.extract_text() == "+1 Card\nGain a Silver."


def test_a_rule_takes_the_room_of_a_short_paragraph_gap(tmp_path):
    ruled = baselines(face(tmp_path / "ruled", "+1 Card\n---\nGain a Silver."))
    plain = baselines(face(tmp_path / "plain", "+1 Card\nGain a Silver."))
    blank = baselines(face(tmp_path / "blank", "+1 Card\n\nGain a Silver."))
    line = LEADING * 10
    assert plain["Gain"] - plain["+1"] == pytest.approx(line, abs=0.01)
    assert ruled["Gain"] - ruled["+1"] == pytest.approx(2 * RULE_STEP * line, abs=0.01)
    assert plain["Gain"] - plain["+1"] < ruled["Gain"] - ruled["+1"] < blank["Gain"] - blank["+1"]


def test_text_fitting_makes_room_for_a_rule(tmp_path):
    layout = BODY.replace("box: [5, 10, 53, 40]", "box: [5, 10, 53, 13]")
    three = "+1 Card\n+1 Action\n+1 Buy"
    plain = face(tmp_path / "plain", three, layout)
    ruled = face(tmp_path / "ruled", three.replace("\n+1 Buy", "\n---\n+1 Buy"), layout)
    assert {char["size"] for char in plain.chars} == {10}
    [size] = {char["size"] for char in ruled.chars}
    assert size < 10  # two rule steps more than a line: the text shrinks to take the rule
    [rule] = ruled.lines
    assert rule["linewidth"] == pytest.approx(0.06 * size, abs=0.01)
    bottom = max(char["bottom"] for char in ruled.chars)
    assert bottom <= (10 + 13) * MM + 0.5  # still inside the box


def test_hyphens_that_are_no_rule_print_as_written(tmp_path):
    page = face(tmp_path, "a --- b\n\\---\n-- two\n---- four ----")
    assert not page.lines
    assert page.extract_text() == "a --- b\n---\n-- two\n---- four ----"


def test_a_rule_in_a_yaml_block_scalar_of_the_deck(tmp_path):
    make_deck(tmp_path, BODY, "  - id: zap\n    name: Zap\n    kind: spell\n    text: |\n"
                              "      +1 Card\n      ---\n      Gain a Silver.\n")
    folder = tmp_path / "cards" / "test"
    assert deckpress("check", folder).exit_code == 0
    assert deckpress("build", folder, "--out", tmp_path / "out", "--quiet").exit_code == 0
    page = pdfplumber.open(tmp_path / "out" / "test.pdf").pages[0]
    rules = [line for line in page.lines if abs(line["x1"] - line["x0"] - 53 * MM) < 0.01]
    assert len(rules) == 1  # the one card's text: a line of the text box's width


def test_a_plain_field_prints_its_line_of_hyphens(tmp_path):
    page = plain_field_page(tmp_path, "  - id: odd\n    text: |\n      one\n      ---\n      two\n")
    assert "one\n---\ntwo" in page.extract_text()
    assert not [line for line in page.lines if abs(line["x1"] - line["x0"] - 53 * MM) < 0.01]
