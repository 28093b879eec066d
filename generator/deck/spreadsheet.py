"""Card rows from a spreadsheet (CSV or XLSX) instead of YAML.

Many designers keep their cards in a spreadsheet. A deck file can point at one::

    cards: {from: cards.csv}     # or cards.xlsx; the file sits in the deck's folder

The first row names the columns: the deck's fields, ``id`` and ``count``
(optional), and ``back.<field>`` for a card's own back. Each later row is one
distinct card. Cells are typed by the deck's ``fields:`` declarations, so
``9`` in an ``int`` column is the number 9; an empty cell means "not set".

Rows become the same plain data a YAML ``cards:`` list gives, and every cell
keeps its position (``cards.csv:7:3`` is row 7, column 3), so validation errors
name the row and column.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator.deck.loading import MAX_FILE_BYTES, read_text
from generator.errors import InputError, Position

SPREADSHEET_SUFFIXES = (".csv", ".xlsx")
TRUE_WORDS = {"true", "yes", "y", "1", "x"}
FALSE_WORDS = {"false", "no", "n", "0", ""}


@dataclass
class Sheet:
    """A spreadsheet read as text cells: a header row and data rows with their row numbers."""

    path: Path
    header: list[str]
    rows: list[tuple[int, list[str]]]  # (1-based row number in the file, cells)
    header_line: int = 1  # the header is the first row that is not blank


def read_sheet(path: Path) -> Sheet:
    """Read a CSV or XLSX file; refuse other kinds with a clear message."""
    suffix = path.suffix.lower()
    if suffix == ".csv":
        return _read_csv(path)
    if suffix == ".xlsx":
        return _read_xlsx(path)
    raise InputError(f"cards can come from a .csv or .xlsx file, not '{path.suffix}'", Position(path))


def _read_csv(path: Path) -> Sheet:
    text = read_text(path, limit=MAX_FILE_BYTES)
    try:
        dialect = csv.Sniffer().sniff(text[:4096], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    reader = csv.reader(io.StringIO(text), dialect)
    try:
        lines = [(reader.line_num, row) for row in reader]
    except csv.Error as error:
        raise InputError(f"CSV error: {error}", Position(path, reader.line_num)) from None
    # line_num is the line where a row ends; rows with quoted newlines start earlier,
    # but for the rows designers write it is the row's own line.
    lines = [(number, row) for number, row in lines if any(cell.strip() for cell in row)]
    if not lines:
        raise InputError("spreadsheet is empty; the first row must name the columns", Position(path, 1))
    (header_line, header), rows = lines[0], lines[1:]
    return Sheet(path=path, header=[cell.strip() for cell in header], rows=rows, header_line=header_line)


def _read_xlsx(path: Path) -> Sheet:
    try:
        import openpyxl
    except ImportError:  # pragma: no cover - openpyxl is a declared dependency
        raise InputError("reading .xlsx needs the openpyxl package", Position(path)) from None
    if not path.is_file():
        raise InputError("file not found", Position(path))
    if path.stat().st_size > MAX_FILE_BYTES:
        raise InputError(f"file is larger than {MAX_FILE_BYTES:,} bytes", Position(path))
    try:
        workbook = openpyxl.load_workbook(path, read_only=True, data_only=True)
    except Exception as error:  # openpyxl raises many kinds for a damaged file
        raise InputError(f"not a readable .xlsx workbook: {error}", Position(path)) from None
    sheet = workbook.worksheets[0]
    lines = []
    for number, row in enumerate(sheet.iter_rows(values_only=True), start=1):
        cells = ["" if value is None else _cell_text(value) for value in row]
        if any(cell.strip() for cell in cells):
            lines.append((number, cells))
    workbook.close()
    if not lines:
        raise InputError("spreadsheet is empty; the first row must name the columns", Position(path, 1))
    (header_line, header), rows = lines[0], lines[1:]
    return Sheet(path=path, header=[cell.strip() for cell in header], rows=rows, header_line=header_line)


def _cell_text(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def sheet_to_cards(sheet: Sheet, fields: dict[str, Any]) -> tuple[list[dict], dict[tuple, Position]]:
    """Turn rows into card mappings typed by the deck's ``fields`` (name -> FieldSpec).

    Returns the cards and the position of every cell, keyed like a YAML document's
    positions: ``(index,)`` for a row and ``(index, column_name)`` for a cell.
    """
    check_columns(sheet)
    cards: list[dict] = []
    positions: dict[tuple, Position] = {}
    for index, (line, cells) in enumerate(sheet.rows):
        card: dict[str, Any] = {}
        positions[(index,)] = Position(sheet.path, line, 1)
        for column, name in enumerate(sheet.header):
            text = cells[column].strip() if column < len(cells) else ""
            if not name or text == "":
                continue
            position = Position(sheet.path, line, column + 1)
            field_name = name.removeprefix("back.")
            spec = fields.get(field_name)
            kind = "int" if name == "count" else getattr(spec, "type", "text")
            value = _typed(text, kind, getattr(spec, "choices", ()), position, name)
            if name.startswith("back."):
                card.setdefault("back", {})[field_name] = value
                positions[(index, "back", field_name)] = position
            else:
                card[name] = value
                positions[(index, name)] = position
        cards.append(card)
    return cards, positions


def check_columns(sheet: Sheet) -> None:
    """Every column has its own name, and every filled cell stands in a named column.

    A cell under a blank header, or past the last header, belongs to no field: it
    would be dropped without a word, so it is refused with its row and column.
    """
    seen: set[str] = set()
    for column, name in enumerate(sheet.header):
        if name in seen:
            raise InputError(f"duplicate column '{name}'", Position(sheet.path, sheet.header_line, column + 1),
                             field=name)
        if name:
            seen.add(name)
    for line, cells in sheet.rows:
        for column, cell in enumerate(cells):
            if not cell.strip():
                continue
            if column >= len(sheet.header):
                where = f"beyond the last named column; name column {column + 1}"
            elif not sheet.header[column]:
                where = f"in a column with no name; name column {column + 1}"
            else:
                continue
            raise InputError(f"'{cell.strip()}' stands {where} in the header row (row {sheet.header_line})",
                             Position(sheet.path, line, column + 1))


def _typed(text: str, kind: str, choices: tuple, position: Position, column: str) -> Any:
    """A cell's text as the value its field's type wants; the model checks ranges."""
    if kind in ("int", "number"):
        try:
            number = float(text) if kind == "number" else int(text)
        except ValueError:
            wanted = "a whole number" if kind == "int" else "a number"
            raise InputError(f"expected {wanted}, found '{text}'", position, field=column) from None
        return int(number) if kind == "number" and number.is_integer() else number
    if kind == "bool":
        word = text.lower()
        if word in TRUE_WORDS:
            return True
        if word in FALSE_WORDS:
            return False
        raise InputError(f"expected yes or no, found '{text}'", position, field=column)
    if kind == "choice":
        # Choices may be numbers (a die face, a card value): match the cell by its text.
        return next((choice for choice in choices if str(choice) == text), text)
    return text
