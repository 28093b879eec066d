"""Card rows from a spreadsheet (CSV or XLSX) instead of YAML.

Many designers keep their cards in a spreadsheet. A deck file can point at one::

    cards: {from: cards.csv}                 # or cards.xlsx; the file sits in the deck's folder
    cards: {from: cards.xlsx, sheet: Cards}  # a workbook with cards on several sheets names one

The first row names the columns: the deck's fields, ``id`` and the number of
copies (``count``, or ``qty``, ``quantity`` or ``copies`` as designers often call
it; one of them), and ``back.<field>`` for a card's own back. Each later row is
one distinct card. Cells are typed by the deck's ``fields:`` declarations, so
``9`` in an ``int`` column is the number 9; an empty cell means "not set"; a
text cell is kept as written, spaces included. A CSV saved as "CSV UTF-8"
starts with a byte-order mark, which is ignored. A workbook whose other sheets
are empty (Excel's ``Sheet2``, ``Sheet3``) reads the one sheet that has cards.

Rows are read one at a time (:func:`open_sheet`): memory holds the cards made
of them, not the file. Rows become the same plain data a YAML ``cards:`` list
gives, and every cell keeps its position (``cards.csv:7:3`` is row 7, column
3), so validation errors name the row and column.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Protocol

from generator.errors import InputError, Position, did_you_mean, together
from generator.loading import MAX_FILE_BYTES, cannot_read, check_readable, read_text
from generator.revisions import current_source

SPREADSHEET_SUFFIXES = (".csv", ".xlsx")
COUNT_COLUMNS = ("count", "qty", "quantity", "copies")
"""Names a spreadsheet's column of copies goes by (any case); the deck calls it ``count``."""
MAX_SHEET_ROWS = 100_000
"""Rows of cards in one spreadsheet, each a distinct card. A party game of text cards has
tens of thousands (one has 28,748); every distinct card is a face ``check`` lays out, so a
sheet far past that would keep every check busy for minutes for no game's sake."""
MAX_SHEET_COLUMNS = 100
"""Columns: a card's fields, its id, count and back. A cell further right is a stray."""
MAX_SHEET_CELLS = 200_000
"""Filled cells in one spreadsheet: the same bound a deck file's YAML has on its nodes."""
MAX_XLSX_UNPACKED = 20_000_000
"""Bytes an XLSX workbook may unpack to (it is a zip of XML). A hundred thousand short rows
of cards are some 12 megabytes of XML; a 1 MB file that unpacks to a gigabyte is a zip bomb,
refused from the sizes its zip declares, before a byte is unpacked."""
MAX_XLSX_PARTS = 1_000
"""Files inside one XLSX: a workbook has a few dozen (sheets, styles, strings)."""
SNIFFED_CHARACTERS = 4096
"""How much of a CSV file is looked at to tell its delimiter (comma, semicolon or tab)."""
TRUE_WORDS = {"true", "yes", "y", "1", "x"}
FALSE_WORDS = {"false", "no", "n", "0", ""}

CardKeys = tuple[int | str, ...]
"""Where a value stands among the cards, keyed as a YAML document's positions are:
``(row index,)``, ``(row index, column)`` or ``(row index, "back", field)``."""
CellPosition = tuple[Path, int, int]
"""Where a value stands: its file, line and column (1-based), as a deck document keeps it
(:class:`~generator.loading.Document`); a :class:`Position` is made of it only when an error
names it."""
Rows = Iterator[tuple[int, list[str]]]
"""Rows as they are read: (1-based row number in the file, text cells)."""


class FieldKind(Protocol):
    """What typing a cell needs of its field's declaration (a deck's FieldSpec has it)."""

    @property
    def type(self) -> str: ...

    @property
    def choices(self) -> tuple[Any, ...]: ...


@dataclass(repr=False, eq=False, slots=True)
class RowPlace:
    """Where a spreadsheet row and its cells stand: the row's line and, shared by every row,
    each key's column. A deck document keeps one of these a row (see
    :class:`~generator.loading.Locator`), not a position for every cell."""

    path: Path
    line: int
    columns: Mapping[tuple[str, ...], int]
    """The column of ``(field,)``, ``("count",)`` or ``("back", field)``."""

    def locate(self, rest: tuple[Any, ...]) -> Position:
        return Position(self.path, self.line, self.columns.get(rest, 1) if rest else 1)


Place = CellPosition | RowPlace
"""Where a card or one of its values stands, as :func:`sheet_to_cards` and card files give it."""


@dataclass(repr=False, eq=False)
class Sheet:
    """A spreadsheet read as text cells: a header row and the data rows with their row numbers.

    ``rows`` is read once, as the file is (see :func:`open_sheet`), unless :func:`read_sheet`
    has made a list of it."""

    path: Path
    header: list[str]
    rows: Iterable[tuple[int, list[str]]]
    header_line: int = 1  # the header is the first row that is not blank
    name: str | None = None  # the workbook sheet read, for an XLSX file
    unsaved: list[InputError] = field(default_factory=list)
    """A workbook's cells that hold a formula with no saved value (see :func:`_unsaved_formulas`),
    one error each. They read as blank, so :func:`sheet_to_cards` reports them with the sheet's
    other bad cells and leaves their rows out, rather than stopping before the rows are read."""

    @property
    def copies(self) -> str | None:
        """The header of the column of copies (``count``, ``qty`` ...), if the sheet has one."""
        return next((name for name in self.header if name.lower() in COUNT_COLUMNS), None)


def read_sheet(path: Path, sheet: str | None) -> Sheet:
    """The whole spreadsheet, its rows in a list (an import looks at each column twice)."""
    with open_sheet(path, sheet) as found:
        found.rows = list(found.rows)
    return found


@contextmanager
def open_sheet(path: Path, sheet: str | None = None, named_at: Position | None = None) -> Iterator[Sheet]:
    """A CSV or XLSX file (the workbook's sheet ``sheet``), its rows read one at a time while
    the ``with`` block runs. Its callers have refused every other kind of file, and a sheet
    named for a CSV file, first (:func:`generator.deck.sources.check_source_kind`).

    ``named_at`` is where the choice of sheet is made (the deck's ``from:`` or ``sheet:``
    line), for the errors about it.
    """
    if path.suffix.lower() == ".csv":
        with _csv_rows(path) as rows:
            yield _sheet_from_rows(path, rows)
        return
    with _xlsx_rows(path, sheet, named_at or Position(path)) as (title, rows, unsaved):
        found = _sheet_from_rows(path, rows)
        found.name = title
        found.unsaved = unsaved
        yield found


@contextmanager
def _csv_rows(path: Path) -> Iterator[Rows]:
    check_readable(path)
    try:
        # utf-8-sig: a CSV saved as Excel's "CSV UTF-8" starts with a byte-order mark, left out.
        # newline="" as the csv module asks: rows may end in \n, \r\n or an old Mac's lone \r.
        # Read through the deck's file source, so a deck at a git revision has that revision's rows.
        stream = io.TextIOWrapper(current_source().opened(path, MAX_FILE_BYTES), encoding="utf-8-sig", newline="")
    except OSError as error:
        raise cannot_read(path, error) from None
    with stream:
        try:
            sample = stream.read(SNIFFED_CHARACTERS)
            stream.seek(0)
        except UnicodeDecodeError:
            _refuse_undecodable(path)
        yield _csv_lines(path, stream, _dialect(sample))


def _dialect(sample: str) -> type[csv.Dialect]:
    """How the sheet is written, guessed from its start: its delimiter (comma, semicolon or tab)
    and whether its cells follow the delimiter after a space (``a, "b, c"``). Quoting is not
    guessed: it is RFC 4180's (and every spreadsheet program's), a quote inside a quoted cell
    doubled. The sniffer's guess of it fails on a cell ending in doubled quotes (``and
    ""quotes""`` then the closing quote), which it takes for no escape at all."""
    try:
        sniffed = csv.Sniffer().sniff(sample, delimiters=",;\t")
    except csv.Error:
        return csv.excel

    class Sheet(csv.excel):
        delimiter = sniffed.delimiter
        skipinitialspace = sniffed.skipinitialspace

    return Sheet


def _csv_lines(path: Path, stream: IO[str], dialect: Any) -> Rows:
    reader = csv.reader(_bounded(path, stream), dialect)
    bounds = _Bounds(path)
    try:
        # line_num is the line where a row ends; rows with quoted newlines start earlier,
        # but for the rows designers write it is the row's own line.
        for row in reader:
            yield reader.line_num, bounds.row(reader.line_num, row)
    except csv.Error as error:
        raise InputError(f"CSV error: {error}", Position(path, reader.line_num)) from None
    except UnicodeDecodeError:
        _refuse_undecodable(path)


def _bounded(path: Path, stream: IO[str], limit: int = MAX_FILE_BYTES) -> Iterator[str]:
    """The file's lines, refusing it once it has grown past ``limit`` while it is read (its
    size was checked before; a character is at least a byte)."""
    read = 0
    for line in stream:
        read += len(line)
        if read > limit:
            raise InputError(f"file is more than {limit:,} bytes", Position(path))
        yield line


def _refuse_undecodable(path: Path) -> None:
    """A file that is not UTF-8: read it whole once, for the line and column of the first
    byte that cannot be read (read_text says where)."""
    read_text(path)
    raise InputError("not UTF-8 text; save the file as UTF-8", Position(path))  # pragma: no cover


@contextmanager
def _xlsx_rows(path: Path, wanted: str | None, named_at: Position
               ) -> Iterator[tuple[str, Rows, list[InputError]]]:
    """The sheet to read's title, its rows, and its cells holding a formula with no saved value."""
    try:
        import openpyxl  # noqa: PLC0415  (a third of a second to import; only .xlsx decks need it)
    except ImportError:  # pragma: no cover - openpyxl is a declared dependency
        raise InputError("reading .xlsx needs the openpyxl package", Position(path)) from None
    check_readable(path)
    try:
        current_source().local(path)  # openpyxl reads the file by name: a Git LFS pointer is named so first
    except OSError as error:
        raise cannot_read(path, error) from None
    _check_unpacked_size(path)
    try:
        workbook = openpyxl.load_workbook(path, read_only=True, data_only=True)
    except Exception as error:  # openpyxl raises many kinds for a damaged file
        raise InputError(f"not a readable .xlsx workbook: {_reason(error)}", Position(path)) from None
    worksheet = None
    try:
        try:
            # what each sheet says of its size, before one is read (reading forgets it)
            declared = {name: (workbook[name].max_row or 0, workbook[name].max_column or 0)
                        for name in workbook.sheetnames}
            title = _pick_sheet(path, workbook, wanted, named_at)
            worksheet = workbook[title]
            _check_declared_size(path, title, *declared[title])
            unsaved = _unsaved_formulas(path, worksheet) if _holds_formulas(path, worksheet._worksheet_path) else []
        except InputError:
            raise
        except Exception as error:  # a damaged sheet fails inside openpyxl's parser while it is read
            raise _damaged(path, worksheet, error) from None
        yield title, _worksheet_rows(path, worksheet), unsaved
    finally:
        workbook.close()


def _damaged(path: Path, worksheet: Any, error: Exception) -> InputError:
    """What a sheet openpyxl fails to read holds: a cell stored as a number that holds text
    (``<v>12 gold</v>``) is named with its sheet and cell; anything else is a damaged file."""
    if worksheet is not None and isinstance(error, ValueError):
        found = _number_holding_text(path, worksheet)
        if found is not None:
            return found
    return InputError(f"not a readable .xlsx workbook: {_reason(error)}", Position(path))


NUMBER_CELL_TYPES = {"n": "a number", "b": "yes/no (a boolean)"}
"""A cell's ``t=`` (``n`` when left out) whose value openpyxl reads as a number or yes/no."""


def _number_holding_text(path: Path, worksheet: Any) -> InputError | None:
    """The first cell the sheet stores as a number (or yes/no) whose value is not one."""
    import zipfile  # noqa: PLC0415  (workbooks only: a deck without one never loads it)

    from openpyxl.utils.cell import coordinate_to_tuple  # noqa: PLC0415  (only .xlsx decks need openpyxl)
    from openpyxl.xml.functions import iterparse  # noqa: PLC0415  (as above; openpyxl's own: defusedxml when installed)

    with zipfile.ZipFile(path) as archive, archive.open(worksheet._worksheet_path) as stream:
        for _, element in iterparse(stream):
            if element.tag.rpartition("}")[2] != "c":
                continue
            kind = element.get("t", "n")
            saved = next((child.text for child in element if child.tag.rpartition("}")[2] == "v"), None)
            if kind in NUMBER_CELL_TYPES and saved and not _reads_as(kind, saved.strip()):
                reference = element.get("r") or "?"
                where = Position(path, *coordinate_to_tuple(reference)) if element.get("r") else Position(path)
                shown = saved if len(saved) <= 40 else saved[:37] + "..."
                return InputError(f"cell {reference} of sheet '{worksheet.title}' is stored as "
                                  f"{NUMBER_CELL_TYPES[kind]} but holds '{shown}'; type it again in a "
                                  "spreadsheet program (or format the cell as text) and save", where)
            element.clear()
    return None


def _reads_as(kind: str, text: str) -> bool:
    if kind == "b":
        return text in ("0", "1")
    try:
        float(text)
    except ValueError:
        return False
    return True


def _check_unpacked_size(path: Path) -> None:
    """Refuse a workbook whose parts would unpack past MAX_XLSX_UNPACKED, from the sizes the
    zip declares (Python's zip reader never unpacks more than a part declares)."""
    import zipfile  # noqa: PLC0415  (workbooks only: a deck without one never loads it)

    try:
        with zipfile.ZipFile(path) as archive:
            parts = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError) as error:
        raise InputError(f"not a readable .xlsx workbook: {_reason(error)}", Position(path)) from None
    if len(parts) > MAX_XLSX_PARTS:
        raise InputError(f"the workbook holds {len(parts):,} files; an .xlsx has at most {MAX_XLSX_PARTS:,}",
                         Position(path))
    unpacked = sum(part.file_size for part in parts)
    if unpacked > MAX_XLSX_UNPACKED:
        bomb = " (a zip bomb)" if unpacked > 100 * path.stat().st_size else ""
        raise InputError(f"the workbook unpacks to {unpacked:,} bytes{bomb}, more than {MAX_XLSX_UNPACKED:,}; "
                         "a sheet of cards is a few megabytes", Position(path))


TEXT_CELL_TYPES = ("str", "inlineStr", "s")
"""A cell's ``t=`` when it holds text: a formula's saved result may be empty text."""
_FORMULA_TAG = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?f[\s>/]")
"""A cell's formula element in a worksheet's XML (``<f>2+4</f>``, or ``<x:f ...>`` prefixed)."""


def _holds_formulas(path: Path, part: str) -> bool:
    """Whether the worksheet stored as ``part`` has a formula: a quick look at its XML, so a
    sheet without one (most sheets of cards) is never parsed a second time."""
    import zipfile  # noqa: PLC0415  (workbooks only: a deck without one never loads it)

    with zipfile.ZipFile(path) as archive:  # sizes already bounded by MAX_XLSX_UNPACKED
        return _FORMULA_TAG.search(archive.read(part)) is not None


def _unsaved_formulas(path: Path, worksheet: Any) -> list[InputError]:
    """An error for every formula whose result the file does not hold. A workbook saved by a
    program that does not calculate (a script writing it with openpyxl) keeps only the formula,
    and read for its values the cell would be blank: a card silently one copy, or nameless. A
    formula whose saved result is empty text (``=IF(A2, "x", "")``) is marked as text, and
    stays a blank cell. A formula is a filled cell, counted against MAX_SHEET_CELLS, so a
    sheet of a million of them is one error, not a million."""
    import zipfile  # noqa: PLC0415  (workbooks only, as above)

    from openpyxl.utils.cell import coordinate_to_tuple  # noqa: PLC0415  (only .xlsx decks need openpyxl)
    from openpyxl.xml.functions import iterparse  # noqa: PLC0415  (as above; openpyxl's own: defusedxml when installed)

    found: list[InputError] = []
    with zipfile.ZipFile(path) as archive, archive.open(worksheet._worksheet_path) as stream:
        for _, element in iterparse(stream):
            if element.tag.rpartition("}")[2] != "c":
                continue
            parts = {child.tag.rpartition("}")[2]: child for child in element}
            saved = parts.get("v")
            if "f" in parts and (saved is None or not saved.text) and element.get("t") not in TEXT_CELL_TYPES:
                if len(found) == MAX_SHEET_CELLS:
                    raise InputError(f"more than {MAX_SHEET_CELLS:,} filled cells", Position(path))
                where = Position(path, *coordinate_to_tuple(element.get("r"))) if element.get("r") else Position(path)
                found.append(InputError("cell holds a formula with no saved value; open and save it in a "
                                        "spreadsheet program", where))
            element.clear()  # a row's cells are done with: memory stays flat however long the sheet
    return found


def _worksheet_rows(path: Path, worksheet: Any) -> Rows:
    """The sheet's rows as text cells, one at a time."""
    worksheet.reset_dimensions()  # read what is there, not what the file says is there
    bounds = _Bounds(path)
    rows = enumerate(worksheet.iter_rows(values_only=True), start=1)
    while True:
        try:
            number, row = next(rows)
        except StopIteration:
            return
        except Exception as error:  # a damaged sheet fails inside openpyxl's parser while it is read
            raise _damaged(path, worksheet, error) from None
        if any(value is not None for value in row):  # rows between filled ones come empty: skip them
            yield number, bounds.row(number, ["" if value is None else _cell_text(value) for value in row])


def _check_declared_size(path: Path, title: str, rows: int, columns: int) -> None:
    """Refuse a sheet that declares more rows or columns than a sheet of cards has, before it
    is read: openpyxl pads every row out to the declared width, so one cell declared at
    XFD1048576 would make 17 billion empty cells."""
    if rows > MAX_SHEET_ROWS + 1 or columns > MAX_SHEET_COLUMNS:
        raise InputError(f"sheet '{title}' declares {rows:,} rows and {columns:,} columns; a sheet "
                         f"of cards has at most {MAX_SHEET_ROWS:,} rows (and a header) and "
                         f"{MAX_SHEET_COLUMNS} columns", Position(path))


class _Bounds:
    """Counts rows and cells as a spreadsheet is read, refusing the first past a limit."""

    def __init__(self, path: Path):
        self.path = path
        self.rows = 0
        self.cells = 0

    def row(self, number: int, cells: list[str]) -> list[str]:
        filled = sum(1 for cell in cells if cell.strip())
        if not filled:
            return cells
        if len(cells) > MAX_SHEET_COLUMNS and any(cell.strip() for cell in cells[MAX_SHEET_COLUMNS:]):
            column = next(index for index, cell in enumerate(cells) if index >= MAX_SHEET_COLUMNS and cell.strip())
            raise InputError(f"a cell in column {column + 1:,}; a sheet of cards has at most "
                             f"{MAX_SHEET_COLUMNS} columns", Position(self.path, number, column + 1))
        self.rows += 1
        self.cells += filled
        if self.rows > MAX_SHEET_ROWS + 1:  # the header, then the cards
            raise InputError(f"more than {MAX_SHEET_ROWS:,} rows of cards; a deck of more distinct cards "
                             "takes too long to lay out", Position(self.path, number))
        if self.cells > MAX_SHEET_CELLS:
            raise InputError(f"more than {MAX_SHEET_CELLS:,} filled cells", Position(self.path, number))
        return cells


def _reason(error: Exception) -> str:
    """What a library said went wrong, without its exception's name."""
    return str(error).strip().splitlines()[0] if str(error).strip() else "the file is damaged"


def _pick_sheet(path: Path, workbook: Any, wanted: str | None, named_at: Position) -> str:
    """The sheet to read: the one named, or the only one, or the only one with cards (Excel
    gives a new workbook empty sheets); several with cards and none named is an error."""
    names: list[str] = list(workbook.sheetnames)
    listed = ", ".join(f"'{name}'" for name in names)
    if wanted is not None:
        if wanted not in names:
            raise InputError(f"{path.name} has no sheet '{wanted}'{did_you_mean(wanted, names)}", named_at,
                             field="sheet")
        return wanted
    if len(names) == 1:
        return names[0]
    with_cards = [name for name in names if _has_cards(workbook[name])]
    if len(with_cards) == 1:
        return with_cards[0]
    if not with_cards:  # no sheet has a card: the first says the sheet is empty
        return names[0]
    which = "" if len(with_cards) == len(names) else \
        f", {len(with_cards)} of them with cards ({', '.join(repr(name) for name in with_cards)})"
    raise InputError(f"{path.name} has {len(names)} sheets ({listed}){which}; name the one holding the cards "
                     f"(cards: {{from: {path.name}, sheet: {with_cards[0]}}} in a deck, --sheet on import)",
                     named_at, field="sheet")


def _has_cards(worksheet: Any) -> bool:
    """Whether a sheet has a header row and a card below it: two rows that are not blank.
    Its declared size is not trusted (see :func:`_worksheet_rows`), and reading stops there."""
    worksheet.reset_dimensions()
    filled = 0
    for row in worksheet.iter_rows(values_only=True):
        if any(value is not None and str(value).strip() for value in row):
            filled += 1
            if filled == 2:
                return True
    return False


def _sheet_from_rows(path: Path, lines: Rows) -> Sheet:
    """The first row that is not blank names the columns; blank rows are skipped."""
    filled = ((number, row) for number, row in lines if any(cell.strip() for cell in row))
    first = next(filled, None)
    if first is None:
        raise InputError("spreadsheet is empty; the first row must name the columns", Position(path, 1))
    header_line, header = first
    return Sheet(path=path, header=[cell.strip() for cell in header], rows=filled, header_line=header_line)


def _cell_text(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def sheet_to_cards(sheet: Sheet, fields: Mapping[str, FieldKind], problems: list[InputError] | None = None,
                   filled: set[str] | None = None) -> tuple[list[dict[str, Any]], dict[CardKeys, Place]]:
    """Turn rows into card mappings typed by the deck's ``fields`` (name -> FieldSpec), reading
    each row once, as it comes.

    Returns the cards and where each row stands, keyed like a YAML document's positions
    (``(index,)``), its cells' columns with it (a :class:`RowPlace`). A text
    cell is kept as written; others are read without the spaces around them. With
    ``problems``, every cell that cannot be read is kept there and its row left out (a
    workbook's formulas with no saved value, :attr:`Sheet.unsaved`, among them); without, the
    first raises (every unsaved formula together). ``filled`` gathers the key of each column
    some row fills.
    """
    check_header(sheet)
    if sheet.unsaved and problems is None:
        raise together(sheet.unsaved)
    if problems is not None:
        problems.extend(sheet.unsaved)
    unsaved_lines = {error.position.line for error in sheet.unsaved if error.position is not None}
    columns = _columns(sheet)
    places: dict[tuple[str, ...], int] = {
        (("back", key.removeprefix("back.")) if key.startswith("back.") else (key,)): column + 1
        for column, _, key in columns}
    cards: list[dict[str, Any]] = []
    positions: dict[CardKeys, Place] = {}
    path = sheet.path
    for line, cells in sheet.rows:
        check_row(sheet, line, cells)
        card: dict[str, Any] = {}
        bad = line in unsaved_lines
        for column, name, key in columns:
            written = cells[column] if column < len(cells) else ""
            text = written.strip()
            if text == "":
                continue
            if filled is not None:
                filled.add(key)
            field_name = key.removeprefix("back.")
            spec = fields.get(field_name)
            kind = "int" if key == "count" else spec.type if spec is not None else "text"
            try:
                value = written if kind == "text" else _typed(text, kind, spec.choices if spec is not None else (),
                                                              Position(path, line, column + 1), name)
            except InputError as error:
                if problems is None:
                    raise
                problems.append(error)
                bad = True
                continue
            if key.startswith("back."):
                card.setdefault("back", {})[field_name] = value
            else:
                card[key] = value
        if not bad:
            positions[(len(cards),)] = RowPlace(path, line, places)
            cards.append(card)
    return cards, positions


def _columns(sheet: Sheet) -> list[tuple[int, str, str]]:
    """Each named column: its index, its header and the key its cells are read under (``count``
    for the column of copies, whatever the sheet calls it)."""
    copies = sheet.copies
    return [(column, name, "count" if name == copies else name) for column, name in enumerate(sheet.header) if name]


@dataclass(repr=False, eq=False)
class Header:
    """Where a sheet names its columns: its header row, and the cell of each column by the key
    its cells are read under (``count``, ``back.<field>``), for problems of a whole column."""

    row: Position
    cells: dict[str, Position]
    filled: set[str]
    """The keys of the columns some row fills (see :func:`sheet_to_cards`): an empty column
    (a heading for notes never written) holds nothing to judge."""


def sheet_header(sheet: Sheet) -> Header:
    """The header of ``sheet`` (see :class:`Header`), its ``filled`` set empty until the rows are read."""
    return Header(Position(sheet.path, sheet.header_line),
                  {key: Position(sheet.path, sheet.header_line, column + 1) for column, _, key in _columns(sheet)},
                  set())


def check_columns(sheet: Sheet) -> None:
    """Every column has its own name, and every filled cell stands in a named column (of a
    sheet whose rows :func:`read_sheet` has read)."""
    check_header(sheet)
    for line, cells in sheet.rows:
        check_row(sheet, line, cells)


def check_header(sheet: Sheet) -> None:
    """Every column has its own name, and one at most gives the number of copies."""
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


def check_row(sheet: Sheet, line: int, cells: list[str]) -> None:
    """Every filled cell of a row stands in a named column. A cell under a blank header, or
    past the last header, belongs to no field: it would be dropped without a word, so it is
    refused with its row and column."""
    header = sheet.header
    if len(cells) <= len(header) and all(header[column] or not cell.strip() for column, cell in enumerate(cells)):
        return
    for column, cell in enumerate(cells):
        if not cell.strip():
            continue
        if column >= len(header):
            where = f"beyond the last named column; name column {column + 1}"
        elif not header[column]:
            where = f"in a column with no name; name column {column + 1}"
        else:
            continue
        raise InputError(f"'{cell.strip()}' stands {where} in the header row (row {sheet.header_line})",
                         Position(sheet.path, line, column + 1))


def _typed(text: str, kind: str, choices: tuple[Any, ...], position: Position, column: str) -> Any:
    """A cell's text as the value its field's type wants; the model checks ranges."""
    try:
        return cell_value(text, kind, choices)
    except ValueError:
        wanted = CELL_WANTED[kind]
        raise InputError(f"expected {wanted}, found '{text}'", position, field=column) from None


CELL_WANTED = {"int": "a whole number", "number": "a number", "bool": "yes or no"}
"""What a cell of each type that cannot be read must hold instead, for its error."""


def cell_value(text: str, kind: str, choices: tuple[Any, ...] = ()) -> Any:
    """A cell's text (without the spaces around it) as a ``kind`` field reads it; raises
    :class:`ValueError` for a cell of another kind. An import infers a column's type by it,
    so that it types the cells exactly as the deck will."""
    if kind in ("int", "number"):
        number = float(text) if kind == "number" else int(text)
        return int(number) if isinstance(number, float) and number.is_integer() else number
    if kind == "bool":
        word = text.lower()
        if word in TRUE_WORDS:
            return True
        if word in FALSE_WORDS:
            return False
        raise ValueError(text)
    if kind == "choice":
        # Choices may be numbers (a die face, a card value): match the cell by its text.
        return next((choice for choice in choices if str(choice) == text), text)
    return text
