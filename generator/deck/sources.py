"""Where a deck's cards come from when its file does not list them: ``cards: {from: FILE}``.

A spreadsheet (CSV or XLSX, :mod:`generator.deck.spreadsheet`) or a card file (JSON or
YAML, :mod:`generator.deck.cardfile`) in the deck's folder. Either gives the same plain
data a deck file's ``cards:`` list holds, with the place of every value in its own file.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from generator.deck.cardfile import CARD_FILE_SUFFIXES, read_card_file
from generator.deck.spreadsheet import (
    SPREADSHEET_SUFFIXES,
    CardKeys,
    FieldKind,
    Header,
    Place,
    open_sheet,
    sheet_header,
    sheet_to_cards,
)
from generator.errors import InputError, Position

CARD_SOURCE_SUFFIXES = SPREADSHEET_SUFFIXES + CARD_FILE_SUFFIXES


def check_source_kind(path: Path, sheet: str | None, named_at: Position | None = None) -> None:
    """Refuse a file of a kind cards cannot come from, or a sheet named for a file that has none."""
    suffix = path.suffix.lower()
    if suffix not in CARD_SOURCE_SUFFIXES:
        kinds = ", ".join(CARD_SOURCE_SUFFIXES[:-1])
        raise InputError(f"cards can come from a {kinds} or {CARD_SOURCE_SUFFIXES[-1]} file, not "
                         f"'{path.suffix}'", Position(path))
    if sheet is not None and suffix != ".xlsx":
        kind = "a CSV file" if suffix == ".csv" else "a card file"
        raise InputError(f"{path.name} is {kind}, which has no sheets; leave out 'sheet'",
                         named_at or Position(path), field="sheet")


def read_cards_from(path: Path, sheet: str | None, named_at: Position, fields: Mapping[str, FieldKind],
                    problems: list[InputError]
                    ) -> tuple[list[dict[str, Any]], dict[CardKeys, Place], Header | None]:
    """The cards ``path`` holds (the workbook's sheet ``sheet``), where each value stands, and
    a spreadsheet's header (None for a card file, whose cards each name their own keys).
    A spreadsheet's cells are typed by ``fields``, each cell that cannot be read kept in
    ``problems`` (its row left out); a card file's values keep their own types."""
    check_source_kind(path, sheet, named_at)
    if path.suffix.lower() in CARD_FILE_SUFFIXES:
        return (*read_card_file(path), None)
    with open_sheet(path, sheet, named_at) as found:
        header = sheet_header(found)
        return (*sheet_to_cards(found, fields, problems, header.filled), header)
