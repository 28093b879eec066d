"""Workbooks as Excel leaves them: the one sheet with cards beside empty default sheets is read
without being named, two sheets of cards are asked about in one line, and a cell stored as a
number that holds text is named with its sheet and cell."""

from __future__ import annotations

import zipfile
from pathlib import Path

from cli_run import deckpress, place_of
from test_spreadsheets import DECK
from test_spreadsheets_designers import CARD_ROWS, workbook

from generator.deck import load_deck


def deck_reading(folder: Path, sheets: dict[str, list[tuple]]) -> Path:
    folder.mkdir(parents=True)
    workbook(folder / "cards.xlsx", sheets)
    (folder / "deck.yaml").write_text(DECK.replace("cards.csv", "cards.xlsx"), encoding="utf-8")
    return folder


def test_the_one_sheet_with_cards_is_read_beside_empty_default_sheets(tmp_path):
    folder = deck_reading(tmp_path / "sprites", {"Sheet1": CARD_ROWS, "Sheet2": [], "Sheet3": []})
    checked = deckpress("check", folder)
    assert checked.exit_code == 0, checked.stdout + checked.stderr
    assert load_deck(folder).total == 9


def test_a_sheet_of_notes_without_cards_does_not_count(tmp_path):
    """A sheet with one line (a title, a note) has no card under it."""
    folder = deck_reading(tmp_path / "sprites", {"Notes": [("print on 300 gsm",)], "Cards": CARD_ROWS,
                                                 "Sheet3": [(None,), (None,)]})
    assert deckpress("check", folder).exit_code == 0
    imported = deckpress("import", folder / "cards.xlsx", "--out", tmp_path / "linked" / "deck.yaml", "--link")
    assert imported.exit_code == 2  # the linked spreadsheet must be in the deck's folder
    (folder / "deck.yaml").unlink()
    imported = deckpress("import", folder / "cards.xlsx", "--link")
    assert imported.exit_code == 0, imported.stderr
    assert "cards: {from: cards.xlsx, sheet: Cards}" in (folder / "deck.yaml").read_text(encoding="utf-8")


def test_two_sheets_with_cards_are_asked_about_in_one_line(tmp_path):
    folder = deck_reading(tmp_path / "sprites", {"Cards": CARD_ROWS, "Sheet2": [], "Tokens": [("name",), ("Coin",)]})
    checked = deckpress("check", folder)
    assert checked.exit_code == 2
    assert checked.error_lines == [
        f"error: {place_of(folder / 'deck.yaml', 'from: cards.xlsx')}: cards.xlsx has 3 sheets ('Cards', "
        "'Sheet2', 'Tokens'), 2 of them with cards ('Cards', 'Tokens'); name the one holding the cards "
        "(cards: {from: cards.xlsx, sheet: Cards} in a deck, --sheet on import) (sheet)"]


def test_a_number_cell_holding_text_is_named_with_its_file_sheet_and_cell(tmp_path):
    """A workbook written by another program can mark a cell as a number and store words in it;
    openpyxl's int() fails on it, which must reach the designer as the cell to retype."""
    folder = deck_reading(tmp_path / "sprites", {"Cards": CARD_ROWS})
    book = folder / "cards.xlsx"
    with zipfile.ZipFile(book) as archive:
        parts = {name: archive.read(name) for name in archive.namelist()}
    sheet = "xl/worksheets/sheet1.xml"
    assert b'<c r="D3" t="n"><v>1</v></c>' in parts[sheet]
    parts[sheet] = parts[sheet].replace(b'<c r="D3" t="n"><v>1</v></c>', b'<c r="D3" t="n"><v>12 gold</v></c>')
    with zipfile.ZipFile(book, "w") as archive:
        for name, data in parts.items():
            archive.writestr(name, data)
    for command in (("check", folder), ("import", book, "--force")):
        run = deckpress(*command)
        assert run.exit_code == 2
        assert len(run.error_lines) == 1 and "invalid literal" not in run.stderr
        assert run.error_lines[0].startswith(f"error: {book}:3:4: cell D3 of sheet 'Cards' is stored as a number "
                                             "but holds '12 gold'; type it again")
