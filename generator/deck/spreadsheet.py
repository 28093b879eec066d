"""Card rows from a spreadsheet (CSV or XLSX) instead of YAML.

Many designers keep their cards in a spreadsheet. A deck file can point at one::

    cards: {from: cards.csv}                 # or cards.xlsx; the file sits in the deck's folder
    cards: {from: cards.xlsx, sheet: Cards}  # a workbook of several sheets names one

The first row names the columns: the deck's fields, ``id`` and the number of
copies (``count``, or ``qty``, ``quantity`` or ``copies`` as designers often call
it; one of them), and ``back.<field>`` for a card's own back. Each later row is
one distinct card. Cells are typed by the deck's ``fields:`` declarations, so
``9`` in an ``int`` column is the number 9; an empty cell means "not set". A CSV
saved as "CSV UTF-8" starts with a byte-order mark, which is ignored.

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
from generator.errors import InputError, Position, did_you_mean

SPREADSHEET_SUFFIXES = (".csv", ".xlsx")
COUNT_COLUMNS = ("count", "qty", "quantity", "copies")
"""Names a spreadsheet's column of copies goes by (any case); the deck calls it ``count``."""
BYTE_ORDER_MARK = "\ufeff"
TRUE_WORDS = {"true", "yes", "y", "1", "x"}
FALSE_WORDS = {"false", "no", "n", "0", ""}


@dataclass
class Sheet:
    """A spreadsheet read as text cells: a header row and data rows with their row numbers."""

    path: Path
    header: list[str]
    rows: list[tuple[int, list[str]]]  # (1-based row number in the file, cells)
    header_line: int = 1  # the header is the first row that is not blank
    name: str | None = None  # the workbook sheet read, for an XLSX file

    @property
    def copies(self) -> str | None:
        """The header of the column of copies (``count``, ``qty`` ...), if the sheet has one."""
        return next((name for name in self.header if name.lower() in COUNT_COLUMNS), None)


def read_sheet(path: Path, sheet: str | None = None, named_at: Position | None = None) -> Sheet:
    """Read a CSV or XLSX file (the workbook's sheet ``sheet``); refuse other kinds clearly.

    ``named_at`` is where the choice of sheet is made (the deck's ``from:`` or ``sheet:``
    line), for the errors about it.
    """
    suffix = path.suffix.lower()
    if suffix == ".csv":
        if sheet is not None:
            raise InputError(f"{path.name} is a CSV file, which has no sheets; leave out 'sheet'",
                             named_at or Position(path), field="sheet")
        return _read_csv(path)
    if suffix == ".xlsx":
        return _read_xlsx(path, sheet, named_at or Position(path))
    raise InputError(f"cards can come from a .csv or .xlsx file, not '{path.suffix}'", Position(path))


def _read_csv(path: Path) -> Sheet:
    text = read_text(path, limit=MAX_FILE_BYTES).removeprefix(BYTE_ORDER_MARK)
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
    return _sheet_from_rows(path, lines)


def _read_xlsx(path: Path, sheet: str | None, named_at: Position) -> Sheet:
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
    try:
        worksheet = workbook[_pick_sheet(path, workbook.sheetnames, sheet, named_at)]
        lines = [(number, ["" if value is None else _cell_text(value) for value in row])
                 for number, row in enumerate(worksheet.iter_rows(values_only=True), start=1)]
    finally:
        workbook.close()
    found = _sheet_from_rows(path, lines)
    found.name = worksheet.title
    return found


def _pick_sheet(path: Path, names: list[str], wanted: str | None, named_at: Position) -> str:
    """The sheet to read: the one named, or the only one; several and none named is an error."""
    listed = ", ".join(f"'{name}'" for name in names)
    if wanted is None:
        if len(names) == 1:
            return names[0]
        raise InputError(f"{path.name} has {len(names)} sheets ({listed}); name the one holding the cards "
                         f"(cards: {{from: {path.name}, sheet: {names[0]}}} in a deck, --sheet on import)",
                         named_at, field="sheet")
    if wanted not in names:
        raise InputError(f"{path.name} has no sheet '{wanted}'{did_you_mean(wanted, names)}", named_at,
                         field="sheet")
    return wanted


def _sheet_from_rows(path: Path, lines: list[tuple[int, list[str]]]) -> Sheet:
    """The first row that is not blank names the columns; blank rows are skipped."""
    lines = [(number, row) for number, row in lines if any(cell.strip() for cell in row)]
    if not lines:
        raise InputError("spreadsheet is empty; the first row must name the columns", Position(path, 1))
    (header_line, header), rows = lines[0], lines[1:]
    return Sheet(path=path, header=[cell.strip() for cell in header], rows=rows, header_line=header_line)


def _cell_text(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def sheet_to_cards(sheet: Sheet, fields: dict[str, Any],
                   problems: list[InputError] | None = None) -> tuple[list[dict], dict[tuple, Position]]:
    """Turn rows into card mappings typed by the deck's ``fields`` (name -> FieldSpec).

    Returns the cards and the position of every cell, keyed like a YAML document's
    positions: ``(index,)`` for a row and ``(index, column_name)`` for a cell. With
    ``problems``, every cell that cannot be read is kept there and its row left out;
    without, the first raises.
    """
    check_columns(sheet)
    copies = sheet.copies
    cards: list[dict] = []
    positions: dict[tuple, Position] = {}
    for line, cells in sheet.rows:
        index = len(cards)
        card: dict[str, Any] = {}
        row_positions = {(index,): Position(sheet.path, line, 1)}
        bad = False
        for column, name in enumerate(sheet.header):
            text = cells[column].strip() if column < len(cells) else ""
            if not name or text == "":
                continue
            position = Position(sheet.path, line, column + 1)
            key = "count" if name == copies else name
            field_name = key.removeprefix("back.")
            spec = fields.get(field_name)
            kind = "int" if key == "count" else getattr(spec, "type", "text")
            try:
                value = _typed(text, kind, getattr(spec, "choices", ()), position, name)
            except InputError as error:
                if problems is None:
                    raise
                problems.append(error)
                bad = True
                continue
            if key.startswith("back."):
                card.setdefault("back", {})[field_name] = value
                row_positions[(index, "back", field_name)] = position
            else:
                card[key] = value
                row_positions[(index, key)] = position
        if not bad:
            cards.append(card)
            positions.update(row_positions)
    return cards, positions


def check_columns(sheet: Sheet) -> None:
    """Every column has its own name, and every filled cell stands in a named column.

    A cell under a blank header, or past the last header, belongs to no field: it
    would be dropped without a word, so it is refused with its row and column.
    """
    seen: set[str] = set()
    copies: str | None = None
    for column, name in enumerate(sheet.header):
        position = Position(sheet.path, sheet.header_line, column + 1)
        if name in seen:
            raise InputError(f"duplicate column '{name}'", position, field=name)
        if name.lower() in COUNT_COLUMNS:
            if copies is not None:
                raise InputError(f"'{copies}' and '{name}' both give the number of copies; keep one column",
                                 position, field=name)
            copies = name
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
