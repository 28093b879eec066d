"""``deckpress import``: a spreadsheet or card file becomes a deck file a designer can edit.

Column types are inferred from the cells (whole numbers, yes/no, a short list of
repeated words becomes a choice), so the new deck file is typed from the start
and ``deckpress check`` catches a mistyped cell later on. A column is a number or
yes/no only when every cell prints back as written: a value prints in its one
form (``7``, ``yes``), so ``007``, ``+5`` or ``TRUE`` would print otherwise, and a
column holding one stays words. A JSON or YAML card file's values have types
already; a key's type is theirs.

Imported text is printed as it was written. Text from elsewhere was not written
for this project's markup, so a text column in which a cell would read otherwise
(``**draw**`` would turn bold, ``:coin:`` an icon, ``\\*`` a star) is declared
``markup: false``, and every cell stays exactly as the spreadsheet has it: an
escaped cell would no longer match its spreadsheet, and a linked spreadsheet
(``--link``) cannot be escaped at all. Columns in which nothing reads otherwise
keep their markup, for the designer to use.

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
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from generator.deck.cardfile import read_card_file
from generator.deck.model import FieldSpec, absolute_folder, build_deck
from generator.deck.spreadsheet import CardKeys, Place, Sheet, cell_value, check_columns, sheet_to_cards
from generator.errors import InputError, Position, value_text
from generator.loading import parse_yaml

RESERVED_COLUMNS = {"id"}  # and the column of copies (Sheet.copies)
MAX_CHOICES = 8
"""A column with at most this many distinct words, each used more than once, is a choice."""
TITLE_COLUMNS = ("name", "title", "text")
"""Columns a card's title is likely in, the likeliest first (any case); they are never choices."""

ReadsAsWritten = Callable[[str], bool]
"""Whether card text prints exactly as written (the renderer's markup tells:
:func:`generator.render.markup.prints_as_written`, handed in by the command)."""


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
    """Whole numbers, numbers or yes/no when every cell prints back as written, else words."""
    for kind in ("int", "number", "bool"):
        if cells and all(_prints_as_written(cell, kind) for cell in cells):
            return {"type": kind}
    return _words(name, cells)


def _prints_as_written(cell: str, kind: str) -> bool:
    """Whether ``cell``, read as a ``kind`` field reads it, prints back exactly as written.

    A number or yes/no prints in its one form (``7``, ``1.5``, ``yes``), so a column
    holding ``007``, ``+5``, ``-0``, ``1_000``, ``1.50`` or ``TRUE`` stays words, which
    print as the designer wrote them (see the module's docstring). Finite numbers only:
    a column of ``nan`` or ``inf`` is words, not numbers.
    """
    try:
        value = cell_value(cell, kind)
    except ValueError:
        return False
    if isinstance(value, float) and not math.isfinite(value):
        return False
    return value_text(value) == cell


def _words(name: str, values: list[Any]) -> dict[str, Any]:
    """A choice for a short list of repeated values (not in a title's column), else text."""
    distinct = sorted(set(values), key=lambda value: (isinstance(value, str), value))
    if name.lower() not in TITLE_COLUMNS and 1 < len(distinct) <= MAX_CHOICES and len(values) > len(distinct):
        return {"type": "choice", "choices": distinct}
    return {"type": "text"}


def infer_value_types(cards: list[Any]) -> dict[str, dict[str, Any]]:
    """A ``fields:`` section for the keys of a card file's cards (and their backs), by the
    types of their values: whole numbers, numbers, yes/no, a choice, else text."""
    values: dict[str, list[Any]] = {}
    for face, front in _faces(cards):
        for name, value in face.items():
            if front and name in ("id", "count", "back"):
                continue
            listed = values.setdefault(str(name), [])
            if value is not None and not (isinstance(value, str) and not value.strip()):
                listed.append(value)
    return {name: _infer_values(name, found) for name, found in values.items()}


def _infer_values(name: str, values: list[Any]) -> dict[str, Any]:
    if values and all(isinstance(value, bool) for value in values):
        return {"type": "bool"}
    if values and all(isinstance(value, int) and not isinstance(value, bool) for value in values):
        return {"type": "int"}
    if values and all(isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
                      for value in values):
        return {"type": "number"}
    if all(isinstance(value, (str, int, float)) and not isinstance(value, bool) for value in values):
        return _words(name, values)
    return {"type": "text"}  # lists, mappings or yes/no among words: the deck's check says which


def title_field(declared: dict[str, dict[str, Any]]) -> str:
    """The field a card's title is likely in: one named name, title or text (in that order,
    any case), else the first text field, else the first choice, else the first field."""
    for wanted in TITLE_COLUMNS:
        for name in declared:
            if name.lower() == wanted:
                return name
    for kind in ("text", "choice"):
        for name, spec in declared.items():
            if spec["type"] == kind:
                return name
    return next(iter(declared), "name")


def mark_plain(declared: dict[str, dict[str, Any]], cards: Iterable[Any], reads_as_written: ReadsAsWritten) -> None:
    """Declare ``markup: false`` on each text or choice field some card's text would not print
    as written in (see the module's docstring)."""
    for face, _ in _faces(cards):
        for name, value in face.items():
            spec = declared.get(name)
            if spec is not None and isinstance(value, str) and "markup" not in spec \
                    and spec["type"] in ("text", "choice") and not reads_as_written(value):
                spec["markup"] = False


def _faces(cards: Iterable[Any]) -> Iterator[tuple[dict[Any, Any], bool]]:
    """Each card of a card file that is a mapping, then its back when that is one too, with
    whether it is the front (anything else is no card: the deck's check says so)."""
    for card in cards:
        if isinstance(card, dict):
            yield card, True
            if isinstance(card.get("back"), dict):
                yield card["back"], False


@dataclass(repr=False, eq=False)
class Imported:
    """A deck file's text made from a spreadsheet or card file, and what it holds."""

    text: str
    cards: int
    """Distinct cards (rows)."""
    copies: int
    """Physical cards: every row's copies added up."""
    plain: tuple[str, ...] = ()
    """Fields declared ``markup: false``, their text printed as written."""


def deck_yaml_from_sheet(sheet: Sheet, deck_name: str, target: Path, reads_as_written: ReadsAsWritten,
                         link: bool = False) -> Imported:
    """The deck file for ``target`` holding the sheet's cards (or, with ``link``, reading them
    from the sheet), fields typed by inference; raises :class:`InputError` at the sheet's
    row and column if that deck would not load."""
    check_columns(sheet)
    declared = infer_field_types(sheet)
    fields = {name: FieldSpec(name, spec["type"], choices=tuple(spec.get("choices", ())))
              for name, spec in declared.items()}
    cards, positions = sheet_to_cards(sheet, fields)
    return _imported(deck_name, target, sheet.path, declared, cards, positions, reads_as_written,
                     _linked_source(sheet.path, sheet.name, target) if link else None,
                     Position(sheet.path, sheet.header_line))


def deck_yaml_from_card_file(path: Path, deck_name: str, target: Path, reads_as_written: ReadsAsWritten,
                             link: bool = False) -> Imported:
    """The deck file for ``target`` holding a JSON or YAML card file's cards (or, with ``link``,
    reading them from it), each key a field typed by its values."""
    cards, positions = read_card_file(path)
    declared = infer_value_types(cards)
    return _imported(deck_name, target, path, declared, cards, positions, reads_as_written,
                     _linked_source(path, None, target) if link else None, Position(path, 1))


def _imported(deck_name: str, target: Path, source_path: Path, declared: dict[str, dict[str, Any]],
              cards: list[Any], positions: dict[CardKeys, Place], reads_as_written: ReadsAsWritten,
              linked: dict[str, str] | None, starts_at: Position) -> Imported:
    """The deck file's text, loaded as the deck it would be before it is handed back."""
    mark_plain(declared, cards, reads_as_written)
    plain = tuple(name for name, spec in declared.items() if spec.get("markup") is False)
    kept = f"cards read from {source_path.name}" if linked is not None else f"imported from {source_path.name}"
    note = f"# {', '.join(plain)}: printed as written (markup: false); set markup: true to use **bold** " \
           "and :icons:.\n" if plain else ""
    sections = [
        f"# {deck_name}: {kept}.\n{note}"
        "# Add composition rules under 'rules:' and run `deckpress check`.\n",
        _block("deck", {"name": deck_name, "title_field": title_field(declared)}),
        _block("fields", {name: (spec if len(spec) > 1 else spec["type"]) for name, spec in declared.items()}),
        _block("cards", linked if linked is not None else cards),
    ]
    text = "\n".join(sections)
    if linked is not None:
        build_deck(parse_yaml(text, target))  # reads the spreadsheet itself, errors and all
    else:
        _load_as_deck(text, target, starts_at, positions)
    copies = sum(card.get("count", 1) if isinstance(card, dict) and isinstance(card.get("count", 1), int) else 1
                 for card in cards)
    return Imported(text=text, cards=len(cards), copies=copies, plain=plain)


def _linked_source(path: Path, sheet: str | None, target: Path) -> dict[str, str]:
    """``{from: cards.xlsx, sheet: Cards}`` as the deck file ``target`` names the spreadsheet,
    which must lie in (or below) the deck's folder, as every file a deck reads must."""
    folder = absolute_folder(target)
    reference = Path(os.path.relpath(os.path.abspath(path), folder))
    if reference.parts[:1] == ("..",):
        raise InputError(f"to link it, the spreadsheet must be in the deck's folder ({folder}) or below it",
                         Position(path), field="link")
    source = {"from": reference.as_posix()}
    if sheet is not None:
        source["sheet"] = sheet
    return source


def _load_as_deck(text: str, target: Path, starts_at: Position, positions: dict[CardKeys, Place]) -> None:
    """Load ``text`` as the deck file ``target`` would be, errors pointing into the sheet.

    The card entries' YAML positions are replaced by their cells' positions (a card
    without a cell for some key falls back to its row), because the designer fixes
    the spreadsheet, not the generated file.
    """
    document = parse_yaml(text, target)
    for keys in [keys for keys in document.positions if keys[:1] == ("cards",)]:
        del document.positions[keys]
    document.positions[("cards",)] = starts_at
    document.positions.update({("cards",) + keys: position for keys, position in positions.items()})
    build_deck(document)


def _block(key: str, value: Any) -> str:
    """One top-level section in block style, its leaves in flow style (one card a line)."""
    return yaml.safe_dump({key: value}, sort_keys=False, allow_unicode=True,
                          default_flow_style=None, width=120)
