"""``build --draft``: print for playtesting while the wording settles, and say so on every page.

Also: one deck built for two duplex modes into one folder keeps both files.
"""

from __future__ import annotations

import json

import pdfplumber
import pytest
from cli_run import deckpress, line_of
from test_verdict import DECK, LAYOUT, LONG_TEXT, project


def broken_deck(tmp_path):
    """A deck breaking its total rule, with one card's text far too long for its box."""
    deck = DECK.replace("text: Regrows.", f"text: {LONG_TEXT}").replace("total: 6", "total: 7")
    return project(tmp_path, deck)


def pages_text(pdf_path) -> list[str]:
    with pdfplumber.open(pdf_path) as pdf:
        return [page.extract_text() or "" for page in pdf.pages]


def test_a_draft_prints_despite_broken_rules_and_overflowing_text(tmp_path):
    path = broken_deck(tmp_path)
    out = tmp_path / "out"
    refused = deckpress("build", path, "--out", out, "--quiet")
    assert refused.exit_code == 1 and not out.exists()

    run = deckpress("build", path, "--out", out, "--draft")
    assert run.exit_code == 0, run.stdout + run.stderr
    lines = run.error_lines
    assert lines[0] == "note: deck 'game' has 2 problems; printing a draft all the same"
    troll, rule = line_of(path, "id: troll"), line_of(path, "total: 7")
    assert lines[1].startswith(f"{path}:{troll}:5: deck 'game', card 'troll', front: text \"This sentence")
    assert "the draft prints it at its minimum size, cut off and marked in red" in lines[1]
    assert lines[2] == f"{path}:{rule}: total (six cards): expected exactly 7 cards, found 6"
    assert f"wrote {out / 'game.pdf'}" in run.stdout

    manifest = json.loads((out / "game.json").read_text())
    assert manifest["draft"] is True
    assert len(manifest["placements"]) == 2 * 6  # every card, front and back
    pages = pages_text(out / "game.pdf")
    assert len(pages) == manifest["pages"] == 2
    assert all("DRAFT, not for final print" in text for text in pages)
    assert "Troll" in pages[0] and "This sentence is far" in pages[0]  # the overflowing text is printed


def test_a_sound_build_is_no_draft(tmp_path):
    out = tmp_path / "out"
    assert deckpress("build", project(tmp_path), "--out", out, "--quiet").exit_code == 0
    assert "draft" not in json.loads((out / "game.json").read_text())
    assert not any("DRAFT" in text for text in pages_text(out / "game.pdf"))


def test_a_draft_of_a_sound_deck_says_nothing_but_is_marked(tmp_path):
    out = tmp_path / "out"
    run = deckpress("build", project(tmp_path), "--out", out, "--draft", "--quiet")
    assert run.exit_code == 0 and run.stderr == ""
    assert json.loads((out / "game.json").read_text())["draft"] is True


@pytest.mark.parametrize("deck, layout, code, words", [
    (DECK.replace("cost: 2,", "cost: two,"), LAYOUT, 2, "expected a whole number, found 'two' (cost)"),
    (DECK, LAYOUT.replace("size: 9, min_size: 8", "size: 9, min_size: 8, colour: blurple"), 2, "blurple"),
    (DECK.replace("name: Knight", "name: Knight \u2603"), LAYOUT, 1, "has no glyph"),
])
def test_what_a_draft_cannot_print_still_stops_it(tmp_path, deck, layout, code, words):
    out = tmp_path / "out"
    run = deckpress("build", project(tmp_path, deck, layout), "--out", out, "--draft")
    assert run.exit_code == code, run.stdout + run.stderr
    assert any(words in line for line in run.error_lines), run.stderr
    assert not out.exists()


def test_each_duplex_mode_keeps_its_own_files(tmp_path):
    path = project(tmp_path)
    out = tmp_path / "out"
    for mode in ("long", "short", "fold", "none"):
        assert deckpress("build", path, "--out", out, "--duplex", mode, "--quiet").exit_code == 0
    assert sorted(p.name for p in out.iterdir()) == [
        "game.fold.json", "game.fold.pdf", "game.json", "game.none.json", "game.none.pdf", "game.pdf",
        "game.short.json", "game.short.pdf"]
    for name, mode in (("game", "long"), ("game.short", "short"), ("game.fold", "fold"), ("game.none", "none")):
        assert json.loads((out / f"{name}.json").read_text())["duplex"] == mode
