"""Spreadsheets as designers keep them: a qty column, Excel's "CSV UTF-8", workbooks of
several sheets, imports that keep the cards in the spreadsheet, and errors that name the
spreadsheet's row and column and the deck line that reads it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_run import deckpress, line_of
from test_spreadsheets import DECK

from generator.deck import load_deck

ROWS = [("name", "type", "power"), ("Fire Imp", "creature", 2), ("Water Sprite", "creature", 1),
        ("Heal", "spell", None)]
COPIES = (3, 2, 4)


def csv_text(count_column: str = "count") -> str:
    header = f"name,{count_column},type,power\n"
    rows = "".join(f"{name},{copies},{kind},{'' if power is None else power}\n"
                   for (name, kind, power), copies in zip(ROWS[1:], COPIES, strict=True))
    return header + rows


def make_deck(folder: Path, sheet: str | bytes, deck: str = DECK, name: str = "cards.csv") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    if isinstance(sheet, bytes):
        (folder / name).write_bytes(sheet)
    else:
        (folder / name).write_text(sheet, encoding="utf-8")
    (folder / "deck.yaml").write_text(deck, encoding="utf-8")
    return folder


def workbook(path: Path, sheets: dict[str, list[tuple]]) -> Path:
    import openpyxl

    book = openpyxl.Workbook()
    book.remove(book.active)
    for title, rows in sheets.items():
        sheet = book.create_sheet(title)
        for row in rows:
            sheet.append(list(row))
    book.save(path)
    return path


CARD_ROWS = [("name", "qty", "type", "power")] + [(name, copies, kind, power)
                                                 for (name, kind, power), copies in zip(ROWS[1:], COPIES, strict=True)]


@pytest.mark.parametrize("column", ["count", "qty", "quantity", "copies", "Qty", "QUANTITY"])
def test_each_usual_name_of_the_copies_column_counts_copies(tmp_path, column):
    deck = load_deck(make_deck(tmp_path / "sprites", csv_text(column)))
    assert [(card.id, card.count) for card in deck.cards] == [("fire-imp", 3), ("water-sprite", 2), ("heal", 4)]
    assert deck.total == 9
    assert all(column not in card.fields for card in deck.cards)


def test_two_columns_of_copies_are_refused(tmp_path):
    folder = make_deck(tmp_path / "sprites", csv_text("qty").replace("power\n", "power,count\n", 1))
    run = deckpress("check", folder)
    assert run.exit_code == 2
    assert run.error_lines == [f"error: {folder / 'cards.csv'}:1:5: 'qty' and 'count' both give the number "
                               f"of copies; keep one column (count) [from {folder / 'deck.yaml'}:6]"]


def test_a_csv_saved_as_csv_utf8_with_its_byte_order_mark(tmp_path):
    folder = make_deck(tmp_path / "sprites", b"\xef\xbb\xbf" + csv_text("qty").encode("utf-8"))
    run = deckpress("check", folder)
    assert run.exit_code == 0, run.stdout + run.stderr
    assert load_deck(folder).card("fire-imp").fields == {"name": "Fire Imp", "type": "creature", "power": 2}


def test_every_bad_cell_names_sheet_row_column_and_the_deck_line_reading_it(tmp_path):
    text = csv_text().replace("Fire Imp,3,creature,2", "Fire Imp,three,creature,2") \
        .replace("Heal,4,spell,", "Heal,4,spel,-1")
    folder = make_deck(tmp_path / "sprites", text)
    run = deckpress("check", folder)
    assert run.exit_code == 2
    sheet, reads = folder / "cards.csv", f"[from {folder / 'deck.yaml'}:6]"
    assert run.error_lines == [
        f"error: {sheet}:2:2: expected a whole number, found 'three' (count) {reads}",
        f"error: {sheet}:4:3: expected one of creature, spell, found 'spel' (type) {reads}",
        f"error: {sheet}:4:4: must be at least 0, found -1 (power) {reads}",
    ]


def test_a_workbook_sheet_is_named_in_the_deck(tmp_path):
    folder = tmp_path / "sprites"
    folder.mkdir()
    workbook(folder / "cards.xlsx", {"Notes": [("todo",), ("art",)], "Cards": CARD_ROWS})
    (folder / "deck.yaml").write_text(DECK.replace("{from: cards.csv}", "{from: cards.xlsx, sheet: Cards}"))
    run = deckpress("check", folder)
    assert run.exit_code == 0, run.stdout + run.stderr
    assert load_deck(folder).total == 9


def test_several_sheets_and_none_named_is_an_error_listing_them(tmp_path):
    folder = tmp_path / "sprites"
    folder.mkdir()
    workbook(folder / "cards.xlsx", {"Cards": CARD_ROWS, "Tokens": [("name",), ("Coin",)]})
    deck_file = folder / "deck.yaml"
    deck_file.write_text(DECK.replace("cards.csv", "cards.xlsx"))
    run = deckpress("check", folder)
    assert run.exit_code == 2
    assert run.error_lines == [
        f"error: {deck_file}:6:9: cards.xlsx has 2 sheets ('Cards', 'Tokens'); name the one holding the cards "
        "(cards: {from: cards.xlsx, sheet: Cards} in a deck, --sheet on import) (sheet)"]
    deck_file.write_text(DECK.replace("{from: cards.csv}", "{from: cards.xlsx, sheet: Cardz}"))
    run = deckpress("check", folder)
    assert run.error_lines == [f"error: {deck_file}:6:27: cards.xlsx has no sheet 'Cardz'; did you mean "
                               "'Cards'? (sheet)"]


def test_a_bad_cell_in_a_workbook_names_its_row_and_column(tmp_path):
    folder = tmp_path / "sprites"
    folder.mkdir()
    rows = list(CARD_ROWS)
    rows[2] = ("Water Sprite", 2, "creature", "strong")
    workbook(folder / "cards.xlsx", {"Cards": rows})
    (folder / "deck.yaml").write_text(DECK.replace("cards.csv", "cards.xlsx"))
    run = deckpress("check", folder)
    assert run.error_lines == [f"error: {folder / 'cards.xlsx'}:3:4: expected a whole number, found 'strong' "
                               f"(power) [from {folder / 'deck.yaml'}:6]"]


def test_a_csv_has_no_sheets(tmp_path):
    folder = make_deck(tmp_path / "sprites", csv_text(), DECK.replace("{from: cards.csv}",
                                                                     "{from: cards.csv, sheet: Cards}"))
    run = deckpress("check", folder)
    assert run.exit_code == 2 and "cards.csv is a CSV file, which has no sheets; leave out 'sheet'" in run.stderr


# --- import --------------------------------------------------------------------------------

def uno_rows() -> list[tuple]:
    rows = [("id", "colour", "kind", "number", "qty")]
    for colour in ("red", "yellow", "green", "blue"):
        rows += [(f"{colour}-{n}", colour, "number", n, 1 if n == 0 else 2) for n in range(10)]
        rows += [(f"{colour}-{kind}", colour, kind, None, 2) for kind in ("skip", "reverse", "draw-two")]
    rows += [("wild", "wild", "wild", None, 4), ("wild-draw-four", "wild", "wild-draw-four", None, 4)]
    return rows


def test_import_reports_distinct_cards_and_copies(tmp_path):
    folder = tmp_path / "uno"
    folder.mkdir()
    sheet = folder / "cards.csv"
    sheet.write_text("\n".join(",".join("" if cell is None else str(cell) for cell in row) for row in uno_rows()))
    run = deckpress("import", sheet, "--name", "Uno")
    assert run.exit_code == 0, run.stderr
    assert run.stdout == f"wrote {folder / 'deck.yaml'}: 54 cards, 108 copies; run `deckpress check " \
                         f"{folder / 'deck.yaml'}`\n"
    deck = load_deck(folder)
    assert (len(deck.cards), deck.total) == (54, 108)
    assert "qty" not in deck.fields


def test_import_a_named_sheet_and_link_the_deck_to_it(tmp_path):
    folder = tmp_path / "uno"
    folder.mkdir()
    book = workbook(folder / "cards.xlsx", {"Notes": [("todo",), ("art",)], "Deck": uno_rows()})
    run = deckpress("import", book)
    assert run.exit_code == 2
    assert "cards.xlsx has 2 sheets ('Notes', 'Deck')" in run.stderr
    run = deckpress("import", book, "--sheet", "Deck", "--link", "--name", "Uno")
    assert run.exit_code == 0, run.stderr
    assert run.stdout.startswith(f"wrote {folder / 'deck.yaml'}: 54 cards, 108 copies, read from cards.xlsx;")
    text = (folder / "deck.yaml").read_text()
    assert "cards: {from: cards.xlsx, sheet: Deck}\n" in text
    assert "red-0" not in text  # the cards stay in the spreadsheet
    assert deckpress("check", folder).exit_code == 0
    # Editing the spreadsheet edits the deck.
    rows = uno_rows()
    rows[1] = ("red-0", "red", "number", 0, 3)
    workbook(book, {"Notes": [("todo",), ("art",)], "Deck": rows})
    assert load_deck(folder).total == 110


def test_link_needs_the_spreadsheet_inside_the_deck_folder(tmp_path):
    sheet = tmp_path / "cards.csv"
    sheet.write_text(csv_text())
    out = tmp_path / "game" / "deck.yaml"
    out.parent.mkdir()
    run = deckpress("import", sheet, "--out", out, "--link")
    assert run.exit_code == 2
    assert run.error_lines == [f"error: {sheet}: to link it, the spreadsheet must be in the deck's folder "
                               f"({out.parent}) or below it (link)"]
    assert not out.exists()


def test_import_of_a_sheet_check_would_refuse_names_row_and_column(tmp_path):
    sheet = tmp_path / "cards.csv"
    sheet.write_text(csv_text("qty").replace("Heal,4,", "Heal,-4,"))
    run = deckpress("import", sheet)
    assert run.exit_code == 2
    assert run.error_lines == [f"error: {sheet}:4:2: must be at least 0, found -4 (count)"]
    assert line_of(sheet, "Heal") == 4
