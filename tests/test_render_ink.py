"""Fitted text keeps its ink inside its box, read back from rendered pixels: accents on
capitals and descenders count, not just the font's ascent and descent, and a line holding a
tall inline icon is as tall as the icon, so it never prints over its neighbours."""

from __future__ import annotations

from pathlib import Path

from cli_run import deckpress
from test_render import MM, make_deck, render_page

from generator.render import load_renderer

DPI = 288
SCALE = DPI / 72


def card(text: str) -> str:
    escaped = text.replace("'", "''")
    return f"  - {{id: zap, name: Zap, kind: spell, text: '{escaped}'}}\n"


def body(box: str, extra: str = "", size: int = 30) -> str:
    return f"""\
elements:
  - name: body
    text: "{{{{ text }}}}"
    box: {box}
    size: {size}
    min_size: 4
    colour: "#000000"
{extra}"""


def ink_rows(tmp_path: Path, layout: str, text: str) -> list[int]:
    """The pixel rows (top down) of the rendered face that hold any dark ink."""
    deck = make_deck(tmp_path, layout, card(text))
    page = render_page(load_renderer(deck), deck.card("zap"), "front", tmp_path / "face.pdf")
    image = page.to_image(resolution=DPI).original.convert("L")
    width, height = image.size
    pixels = image.load()
    return [y for y in range(height) if any(pixels[x, y] < 128 for x in range(0, width, 2))]


def test_accents_on_capitals_stay_inside_a_box_the_text_is_fitted_to(tmp_path):
    # 10 mm tall: 30 pt letters shrink to fit, and the ring of the Å must not rise past the top
    rows = ink_rows(tmp_path, body("[5, 20, 53, 10]", "    valign: top\n"), "ÅÉÁ")
    assert rows, "the text prints"
    assert rows[0] >= 20 * MM * SCALE - 1  # no ink above the box's top
    assert rows[-1] <= 30 * MM * SCALE + 1


def test_descenders_stay_inside_a_box_when_text_sits_at_its_bottom(tmp_path):
    rows = ink_rows(tmp_path, body("[5, 20, 53, 10]", "    valign: bottom\n    fit: wrap\n"), "gypsy jig")
    assert rows[-1] <= 30 * MM * SCALE + 1


def test_a_tall_inline_icon_does_not_print_over_the_next_line(tmp_path):
    layout = body("[5, 10, 53, 60]", "    fit: wrap\n    icon_scale: 3\n    valign: top\n", size=10)
    text = "Pay :coin: and then " + "some more words " * 6
    deck = make_deck(tmp_path, layout, card(text))
    page = render_page(load_renderer(deck), deck.card("zap"), "front", tmp_path / "face.pdf")
    first, second, *_ = page.extract_text_lines()
    icon_bottom = max(curve["bottom"] for curve in page.curves)
    assert icon_bottom <= second["top"] + 0.01  # the coin ends above the next line's letters
    assert first["top"] >= 10 * MM  # nothing of the first line rises past the box
    assert deckpress("check", tmp_path / "cards" / "test").exit_code == 0


def test_check_refuses_text_whose_accents_only_fit_by_reaching_past_the_box(tmp_path):
    # 30 pt at the least: its em (ascent and descent) fits 11 mm, its accented capitals do not
    layout = body("[5, 20, 53, 11]", "    min_size: 30\n").replace("    min_size: 4\n", "")
    make_deck(tmp_path, layout, card("ÅÉ"))
    run = deckpress("check", tmp_path / "cards" / "test")
    assert run.exit_code == 1
    assert "does not fit its" in run.stdout and "body" in run.stdout
    make_deck(tmp_path, layout, card("AE"))
    assert deckpress("check", tmp_path / "cards" / "test").exit_code == 0
