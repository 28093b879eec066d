"""A row or column of repeated icons (``repeat:`` with a ``gap:``) stays inside its box: icons
shrink to make room, but a count whose gaps alone would crowd the icons below the size of the
gaps between them is refused by ``check`` (exit 1), naming the layout's line and the field,
rather than printed as a dotted line or a column running past its box."""

from __future__ import annotations

from pathlib import Path

from cli_run import deckpress
from test_render import MM, make_deck, render_page

from generator.errors import EXIT_RULES
from generator.render import load_renderer

LAYOUT = """\
elements:
  - name: coins
    icon: coin
    repeat: "{{{{ roll }}}}"
    box: {box}
    direction: {direction}
    gap: {gap}
"""


def card(roll: int) -> str:
    return f"  - {{id: rich, name: Rich, kind: monster, roll: {roll}}}\n"


def icon_extent(tmp_path: Path, layout: str, roll: int) -> tuple[float, float, float, float]:
    deck = make_deck(tmp_path, layout, card(roll))
    page = render_page(load_renderer(deck), deck.card("rich"), "front", tmp_path / "face.pdf")
    curves = page.curves
    return (min(c["x0"] for c in curves), min(c["top"] for c in curves),
            max(c["x1"] for c in curves), max(c["bottom"] for c in curves))


def test_a_row_that_fits_shrinks_its_icons_and_stays_inside_its_box(tmp_path):
    layout = LAYOUT.format(box="[5, 10, 50, 8]", direction="row", gap=1)
    x0, top, x1, bottom = icon_extent(tmp_path, layout, 8)
    assert 5 * MM - 0.1 <= x0 and x1 <= 55 * MM + 0.1
    assert deckpress("check", tmp_path / "cards" / "test").exit_code == 0


def test_forty_coins_that_would_print_as_a_dotted_line_are_refused_by_check(tmp_path):
    make_deck(tmp_path, LAYOUT.format(box="[5, 10, 50, 8]", direction="row", gap=1), card(40))
    run = deckpress("check", tmp_path / "cards" / "test")
    assert run.exit_code == EXIT_RULES
    [line] = [line for line in run.stdout.splitlines() if "repeat" in line]
    assert "main.yaml:2:" in line and "coins" in line and "40" in line
    assert "at most 25" in line


def test_a_column_of_stars_that_would_run_past_its_box_is_refused_by_check(tmp_path):
    make_deck(tmp_path, LAYOUT.format(box="[5, 10, 8, 30]", direction="column", gap=3), card(12))
    run = deckpress("check", tmp_path / "cards" / "test")
    assert run.exit_code == EXIT_RULES
    built = deckpress("build", tmp_path / "cards" / "test", "--out", tmp_path / "out", "--quiet")
    assert built.exit_code == EXIT_RULES
