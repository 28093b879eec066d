"""A card spreadsheet that is a zip bomb, a pipe, a million rows or one far-off cell ends
at once with one line naming the file (and row and column where there is one)."""

from __future__ import annotations

import os
import zipfile
from pathlib import Path

import pytest
from hostile_support import deckpress, refused, within, workbook

from generator.deck.spreadsheet import (
    MAX_SHEET_CELLS,
    MAX_SHEET_COLUMNS,
    MAX_SHEET_ROWS,
    MAX_XLSX_PARTS,
    MAX_XLSX_UNPACKED,
)

DECK = "deck:\n  name: Demo\nfields:\n  name: {type: text, required: true}\ncards: {from: cards.FORMAT}\n"


def deck_reading(root: Path, format: str) -> Path:
    folder = root / "cards" / "demo"
    folder.mkdir(parents=True)
    (folder / "deck.yaml").write_text(DECK.replace("FORMAT", format))
    return folder


def checked(folder: Path, *fragments: str, exit_codes=(2,)) -> str:
    with within():
        return refused(deckpress("check", folder), exit_codes, *fragments)


CARDS = [(1, [("A1", "name")]), (2, [("A2", "Knight")])]


def test_a_zip_bomb_is_refused_from_the_sizes_it_declares(tmp_path):
    folder = deck_reading(tmp_path, "xlsx")
    workbook(folder / "cards.xlsx", CARDS, extra={"xl/padding.xml": b" " * (MAX_XLSX_UNPACKED + 1)})
    assert (folder / "cards.xlsx").stat().st_size < 100_000
    checked(folder, f"{folder / 'cards.xlsx'}:", "(a zip bomb)", f"more than {MAX_XLSX_UNPACKED:,}")


def test_a_workbook_of_many_parts_is_refused(tmp_path):
    folder = deck_reading(tmp_path, "xlsx")
    workbook(folder / "cards.xlsx", CARDS, extra={f"xl/part{n}.xml": b"" for n in range(MAX_XLSX_PARTS)})
    checked(folder, f"holds {MAX_XLSX_PARTS + 5:,} files")


def test_a_sheet_declaring_every_row_and_column_is_refused_before_it_is_read(tmp_path):
    folder = deck_reading(tmp_path, "xlsx")
    workbook(folder / "cards.xlsx", CARDS + [(1048576, [("XFD1048576", "x")])], dimension="A1:XFD1048576")
    assert (folder / "cards.xlsx").stat().st_size < 3_000
    checked(folder, "declares 1,048,576 rows and 16,384 columns", f"at most {MAX_SHEET_ROWS:,} rows")


def test_one_far_off_cell_without_a_declared_size_is_named(tmp_path):
    folder = deck_reading(tmp_path, "xlsx")
    workbook(folder / "cards.xlsx", CARDS + [(1048576, [("XFD1048576", "x")])])
    checked(folder, f"{folder / 'cards.xlsx'}:1048576:16384:", f"at most {MAX_SHEET_COLUMNS} columns")


def test_far_apart_rows_within_the_limits_are_read(tmp_path):
    folder = deck_reading(tmp_path, "xlsx")
    workbook(folder / "cards.xlsx", CARDS + [(1_000_000, [("A1000000", "Far Away")])])
    with within():
        run = deckpress("check", folder)
    assert run.exit_code == 0, run.stderr
    assert "2 cards" in run.stdout


@pytest.mark.parametrize("format", ["csv", "xlsx"])
def test_a_spreadsheet_that_is_a_named_pipe_does_not_hang(tmp_path, format):
    folder = deck_reading(tmp_path, format)
    os.mkfifo(folder / f"cards.{format}")
    checked(folder, f"{folder / f'cards.{format}'}:", "is a named pipe, not a file")


def test_a_million_row_csv_is_refused_at_the_first_row_past_the_limit(tmp_path):
    folder = deck_reading(tmp_path, "csv")
    (folder / "cards.csv").write_text("name\n" + "".join(f"{n}\n" for n in range(1_000_000)))
    checked(folder, f"{folder / 'cards.csv'}:{MAX_SHEET_ROWS + 2}:", f"more than {MAX_SHEET_ROWS:,} rows")
    with within():
        refused(deckpress("import", folder / "cards.csv", "--out", tmp_path / "deck.yaml"), (2,),
                f"more than {MAX_SHEET_ROWS:,} rows")
    assert not (tmp_path / "deck.yaml").exists()


def test_too_many_filled_cells_are_refused(tmp_path):
    folder = deck_reading(tmp_path, "csv")
    columns = MAX_SHEET_COLUMNS - 1
    rows = MAX_SHEET_CELLS // columns + 1
    header = ",".join(["name", *(f"c{n}" for n in range(columns - 1))])
    (folder / "cards.csv").write_text(header + "\n" + (",".join(["x"] * columns) + "\n") * rows)
    checked(folder, f"more than {MAX_SHEET_CELLS:,} filled cells")


def test_a_cell_past_the_last_column_is_refused_at_its_row_and_column(tmp_path):
    folder = deck_reading(tmp_path, "csv")
    (folder / "cards.csv").write_text("name\nKnight" + "," * MAX_SHEET_COLUMNS + "stray\n")
    checked(folder, f"{folder / 'cards.csv'}:2:{MAX_SHEET_COLUMNS + 1}:", "a cell in column")


@pytest.mark.parametrize("damage", ["truncated", "not a zip", "empty"])
def test_a_damaged_workbook_is_one_line_without_exception_names(tmp_path, damage):
    folder = deck_reading(tmp_path, "xlsx")
    path = workbook(folder / "cards.xlsx", CARDS)
    data = path.read_bytes()
    path.write_bytes({"truncated": data[: len(data) // 2], "not a zip": b"hello", "empty": b""}[damage])
    line = checked(folder, f"{path}:", "not a readable .xlsx workbook")
    assert "Error" not in line and "zipfile" not in line


def test_a_workbook_with_a_damaged_sheet_is_one_line(tmp_path):
    folder = deck_reading(tmp_path, "xlsx")
    path = folder / "cards.xlsx"
    with zipfile.ZipFile(path, "w") as archive:
        from hostile_support import WORKBOOK_PARTS
        for name, data in WORKBOOK_PARTS.items():
            archive.writestr(name, data)
        archive.writestr("xl/worksheets/sheet1.xml", "<worksheet><sheetData><row r='x'><c r='!!'>")
    checked(folder, f"{path}:", "not a readable .xlsx workbook")
