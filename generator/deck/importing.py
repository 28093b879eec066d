"""``deckpress import``: a spreadsheet of cards becomes a deck file a designer can edit.

Column types are inferred from the cells (whole numbers, yes/no, a short list of
repeated words becomes a choice), so the new deck file is typed from the start
and ``deckpress check`` catches a mistyped cell later on.

The deck file is loaded through the deck model before it is written, with every
card pointing back at its spreadsheet row, so a sheet that would give a deck
``check`` refuses (a repeated id, a negative count) is refused at import, naming
the row and column to fix.

A linked import writes only the fields and ``cards: {from: <spreadsheet>}``: the
cards stay in the spreadsheet, which the designer goes on editing.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from generator.deck.model import absolute_folder, build_deck
from generator.deck.spreadsheet import FALSE_WORDS, TRUE_WORDS, CardKeys, Sheet, check_columns, sheet_to_cards
from generator.errors import InputError, Position
from generator.loading import parse_yaml

RESERVED_COLUMNS = {"id"}  # and the column of copies (Sheet.copies)
MAX_CHOICES = 8
"""A column with at most this many distinct words, each used more than once, is a choice."""


def infer_field_types(sheet: Sheet) -> dict[str, dict[str, Any]]:
    """A ``fields:`` section for the sheet's columns, by looking at their cells."""
    fields: dict[str, dict[str, Any]] = {}
    copies = sheet.copies  # the count column's name, looked up in the header once
    for column, name in enumerate(sheet.header):
        field_name = name.removeprefix("back.")
        if not name or name in RESERVED_COLUMNS or name == copies or field_name in fields:
            continue
        cells = [row[column].strip() for _, row in sheet.rows if column < len(row) and row[column].strip()]
        fields[field_name] = _infer(field_name, cells)
    return fields


def _infer(name: str, cells: list[str]) -> dict[str, Any]:
    if cells and all(_is_int(cell) for cell in cells):
        return {"type": "int"}
    if cells and all(_is_number(cell) for cell in cells):
        return {"type": "number"}
    words = {cell.lower() for cell in cells}
    if cells and words <= (TRUE_WORDS | FALSE_WORDS) - {""} and words & {"true", "false", "yes", "no"}:
        return {"type": "bool"}
    distinct = sorted(set(cells))
    if name not in ("name", "title", "text") and 1 < len(distinct) <= MAX_CHOICES \
            and len(cells) > len(distinct):
        return {"type": "choice", "choices": distinct}
    return {"type": "text"}


def _is_int(text: str) -> bool:
    try:
        int(text)
    except ValueError:
        return False
    return True


def _is_number(text: str) -> bool:
    """Finite numbers only: a column of 'nan' or 'inf' is words, not numbers."""
    try:
        return math.isfinite(float(text))
    except ValueError:
        return False


@dataclass(frozen=True)
class Imported:
    """A deck file's text made from a spreadsheet, and what it holds."""

    text: str
    cards: int
    """Distinct cards (rows)."""
    copies: int
    """Physical cards: every row's copies added up."""


def deck_yaml_from_sheet(sheet: Sheet, deck_name: str, target: Path, link: bool = False) -> Imported:
    """The deck file for ``target`` holding the sheet's cards (or, with ``link``, reading them
    from the sheet), fields typed by inference; raises :class:`InputError` at the sheet's
    row and column if that deck would not load."""
    check_columns(sheet)
    declared = infer_field_types(sheet)

    class Spec:  # the shape sheet_to_cards reads: .type and .choices
        def __init__(self, spec: dict[str, Any]):
            self.type = spec["type"]
            self.choices = tuple(spec.get("choices", ()))

    cards, positions = sheet_to_cards(sheet, {name: Spec(spec) for name, spec in declared.items()})
    title = "name" if "name" in declared else next(iter(declared), "name")
    source = _linked_source(sheet, target) if link else cards
    sections = [
        f"# {deck_name}: {'cards read from' if link else 'imported from'} {sheet.path.name}.\n"
        "# Add composition rules under 'rules:' and run `deckpress check`.\n",
        _block("deck", {"name": deck_name, "title_field": title}),
        _block("fields", {name: (spec if len(spec) > 1 else spec["type"]) for name, spec in declared.items()}),
        _block("cards", source),
    ]
    text = "\n".join(sections)
    if link:
        build_deck(parse_yaml(text, target))  # reads the spreadsheet itself, errors and all
    else:
        _load_as_deck(text, target, sheet, positions)
    return Imported(text=text, cards=len(cards), copies=sum(card.get("count", 1) for card in cards))


def _linked_source(sheet: Sheet, target: Path) -> dict[str, str]:
    """``{from: cards.xlsx, sheet: Cards}`` as the deck file ``target`` names the spreadsheet,
    which must lie in (or below) the deck's folder, as every file a deck reads must."""
    folder = absolute_folder(target)
    reference = Path(os.path.relpath(os.path.abspath(sheet.path), folder))
    if reference.parts[:1] == ("..",):
        raise InputError(f"to link it, the spreadsheet must be in the deck's folder ({folder}) or below it",
                         Position(sheet.path), field="link")
    source = {"from": reference.as_posix()}
    if sheet.name is not None:
        source["sheet"] = sheet.name
    return source


def _load_as_deck(text: str, target: Path, sheet: Sheet, positions: dict[CardKeys, Position]) -> None:
    """Load ``text`` as the deck file ``target`` would be, errors pointing into the sheet.

    The card entries' YAML positions are replaced by their cells' positions (a card
    without a cell for some key falls back to its row), because the designer fixes
    the spreadsheet, not the generated file.
    """
    document = parse_yaml(text, target)
    for keys in [keys for keys in document.positions if keys[:1] == ("cards",)]:
        del document.positions[keys]
    document.positions[("cards",)] = Position(sheet.path, sheet.header_line)
    document.positions.update({("cards",) + keys: position for keys, position in positions.items()})
    build_deck(document)


def _block(key: str, value: Any) -> str:
    """One top-level section in block style, its leaves in flow style (one card a line)."""
    return yaml.safe_dump({key: value}, sort_keys=False, allow_unicode=True,
                          default_flow_style=None, width=120)
