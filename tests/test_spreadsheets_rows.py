"""A party game's spreadsheet: tens of thousands of rows of text cards, stars in their text,
two backs. Read a row at a time up to 100,000 rows; the row past that is refused at its line."""

from __future__ import annotations

import json
from pathlib import Path

import pdfplumber
import pytest
from cli_run import deckpress
from test_spreadsheets_designers import workbook

from generator.deck import load_deck
from generator.deck.spreadsheet import MAX_SHEET_ROWS

DECK = """deck: {name: Party Prompts, title_field: text}
fields:
  text: {type: text, required: true}
  colour: {choices: [white, black]}
cards: {from: cards.csv}
"""
STARRED = ["Pay 2*", "The NuvaRing\u2122.*", "5*", "A *literal* prompt", "Two ** stars", "*Wink*"]


def party(folder: Path, rows: int) -> Path:
    """``rows`` prompts, every tenth with a star or two, the colours taking turns."""
    folder.mkdir(parents=True)
    lines = [f"{STARRED[(n // 10) % len(STARRED)] if n % 10 == 0 else f'Prompt number {n}'} ({n}),"
             f"{'white' if n % 2 else 'black'}" for n in range(rows)]
    (folder / "cards.csv").write_text("text,colour\n" + "\n".join(lines) + "\n", encoding="utf-8")
    (folder / "deck.yaml").write_text(DECK, encoding="utf-8")
    return folder


def test_the_party_game_s_full_set_of_28_748_rows_is_read(tmp_path):
    deck = load_deck(party(tmp_path / "party", 28_748))
    assert len(deck.cards) == 28_748 and deck.cards[-1].fields["text"] == "Prompt number 28747 (28747)"
    assert deck.cards[0].fields == {"text": "Pay 2* (0)", "colour": "black"}


def test_the_row_past_the_bound_is_refused_at_its_line(tmp_path):
    assert MAX_SHEET_ROWS == 100_000
    folder = tmp_path / "huge"
    folder.mkdir()
    (folder / "cards.csv").write_text("text\n" + "".join(f"c{n}\n" for n in range(MAX_SHEET_ROWS + 1)),
                                      encoding="utf-8")
    (folder / "deck.yaml").write_text(DECK.replace("  colour: {choices: [white, black]}\n", ""), encoding="utf-8")
    checked = deckpress("check", folder)
    assert checked.exit_code == 2
    assert checked.error_lines == [f"error: {folder / 'cards.csv'}:{MAX_SHEET_ROWS + 2}: more than "
                                   f"{MAX_SHEET_ROWS:,} rows of cards; a deck of more distinct cards takes too "
                                   f"long to lay out [from {folder / 'deck.yaml'}:4]"]


def test_stars_in_prompts_check_and_print_as_written_on_1_549_cards_with_two_backs(tmp_path):
    folder = party(tmp_path / "party", 1_549)
    deck_text = DECK.replace("cards: {from: cards.csv}", "cards: {from: cards.csv}\nback: {text: Party Prompts}")
    (folder / "deck.yaml").write_text(deck_text, encoding="utf-8")
    csv = (folder / "cards.csv").read_text(encoding="utf-8").splitlines()  # black cards have a back of their own
    csv[0] += ",back.text"
    csv[1:] = [line + (",Black Card" if line.endswith("black") else ",") for line in csv[1:]]
    (folder / "cards.csv").write_text("\n".join(csv) + "\n", encoding="utf-8")
    checked = deckpress("check", folder)
    assert checked.exit_code == 0, checked.stdout[:2000]
    built = deckpress("build", folder, "--out", tmp_path / "out", "--quiet")
    assert built.exit_code == 0, built.stderr[:2000]
    manifest = json.loads((tmp_path / "out" / "party.json").read_text(encoding="utf-8"))
    titles = {placement["title"] for placement in manifest["placements"]}
    assert {"Pay 2* (0)", "The NuvaRing\u2122.* (10)", "5* (20)", "Two ** stars (40)"} <= titles
    assert {"Party Prompts", "Black Card"} <= titles
    assert "A literal prompt (30)" in titles and "Wink (50)" in titles  # stars that pair are italic
    page = next(placement["page"] for placement in manifest["placements"]
                if placement["title"] == "The NuvaRing\u2122.* (10)")
    with pdfplumber.open(tmp_path / "out" / "party.pdf") as pdf:
        assert "The NuvaRing\u2122.* (10)" in pdf.pages[page - 1].extract_text()


def sheet_of(folder: Path, header: str, rows: int, row: str = "c{n},Prompt {n},white,1") -> Path:
    """The party deck reading ``rows`` rows (``row`` with its number) under the header ``header``."""
    folder.mkdir(parents=True)
    lines = [header] + [row.format(n=n) for n in range(rows)]
    (folder / "cards.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (folder / "deck.yaml").write_text(DECK, encoding="utf-8")
    return folder


@pytest.mark.parametrize("header, where, message", [
    ("id,ability,colour,qty", "1:2", "unknown column 'ability'; expected one of: colour, count, id, text (ability)"),
    ("id,text,colour,amount", "1:4", "unknown column 'amount'; did you mean 'count'? (amount)"),
    ("id,text,color,qty", "1:3", "unknown column 'color'; did you mean 'colour'? (color)"),
    ("id,text,colour,back.txt", "1:4", "unknown column 'back.txt'; did you mean 'back.text'? (back.txt)"),
])
def test_a_column_that_names_no_field_is_one_line_at_its_header_not_one_a_row(tmp_path, header, where, message):
    folder = sheet_of(tmp_path / "party", header, 2_000)
    checked = deckpress("check", folder)
    assert checked.exit_code == 2
    assert checked.error_lines == [f"error: {folder / 'cards.csv'}:{where}: {message} [from {folder / 'deck.yaml'}:5]"]


def test_a_required_field_no_column_holds_is_one_line_at_the_header(tmp_path):
    folder = sheet_of(tmp_path / "party", "id,colour,qty", 2_000, "c{n},white,1")
    checked = deckpress("check", folder)
    assert checked.exit_code == 2
    assert checked.error_lines == [f"error: {folder / 'cards.csv'}:1: no column holds the required field 'text' "
                                   f"(text) [from {folder / 'deck.yaml'}:5]"]


def test_a_renamed_column_beside_a_bad_cell_still_names_the_cell(tmp_path):
    folder = sheet_of(tmp_path / "party", "id,ability,colour,qty", 20)
    sheet = folder / "cards.csv"
    sheet.write_text(sheet.read_text(encoding="utf-8").replace("c1,Prompt 1,white", "c1,Prompt 1,grey"),
                     encoding="utf-8")
    checked = deckpress("check", folder)
    assert checked.exit_code == 2
    assert [line.split(": ", 2)[1] for line in checked.error_lines] == [f"{sheet}:1:2", f"{sheet}:3:3"]
    assert "expected one of white, black, found 'grey' (colour)" in checked.error_lines[1]


def test_a_workbook_s_renamed_column_is_one_line_at_its_header_cell(tmp_path):
    folder = tmp_path / "party"
    folder.mkdir()
    workbook(folder / "cards.xlsx", {"Cards": [("colour", "ability")]
                                     + [("white" if n % 2 else "black", f"Prompt {n}") for n in range(500)]})
    (folder / "deck.yaml").write_text(DECK.replace("cards.csv", "cards.xlsx"), encoding="utf-8")
    checked = deckpress("check", folder)
    assert checked.exit_code == 2
    assert checked.error_lines == [f"error: {folder / 'cards.xlsx'}:1:2: unknown column 'ability'; expected one "
                                   f"of: colour, count, id, text (ability) [from {folder / 'deck.yaml'}:5]"]


def test_an_unknown_key_in_a_yaml_card_list_is_said_on_each_card_that_has_it(tmp_path):
    folder = tmp_path / "party"
    folder.mkdir()
    cards = "".join(f"  - {{id: c{n}, text: Prompt {n}, {'ability: Draw, ' if n % 2 else ''}colour: black}}\n"
                    for n in range(40))
    path = folder / "deck.yaml"
    path.write_text(DECK.replace("cards: {from: cards.csv}\n", "cards:\n" + cards), encoding="utf-8")
    checked = deckpress("check", folder)
    assert checked.exit_code == 2
    lines = path.read_text(encoding="utf-8").splitlines()
    assert checked.error_lines == [f"error: {path}:{number}:{line.index('ability') + 1}: unknown field 'ability'; "
                                   "expected one of: colour, text (ability)"
                                   for number, line in enumerate(lines, start=1) if "ability" in line]
    assert len(checked.error_lines) == 20


def test_a_column_no_row_fills_is_left_alone_as_before(tmp_path):
    """A heading for notes never written holds nothing to judge: the deck still checks."""
    folder = sheet_of(tmp_path / "party", "id,text,colour,qty,notes", 20, "c{n},Prompt {n},white,1,")
    checked = deckpress("check", folder)
    assert checked.exit_code == 0, checked.error_lines
    assert load_deck(folder).total == 20


def test_a_bad_back_column_does_not_hide_a_missing_required_column(tmp_path):
    """Only a front column can be the required field mistyped."""
    folder = sheet_of(tmp_path / "party", "id,colour,qty,back.txt", 5, "c{n},white,1,Back {n}")
    checked = deckpress("check", folder)
    assert checked.exit_code == 2
    sheet = folder / "cards.csv"
    assert [line.split(" [from")[0] for line in checked.error_lines] == [
        f"error: {sheet}:1: no column holds the required field 'text' (text)",
        f"error: {sheet}:1:4: unknown column 'back.txt'; did you mean 'back.text'? (back.txt)"]
