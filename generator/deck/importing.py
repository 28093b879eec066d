"""``deckpress import``: a spreadsheet of cards becomes a deck file a designer can edit.

Column types are inferred from the cells (whole numbers, yes/no, a short list of
repeated words becomes a choice), so the new deck file is typed from the start
and ``deckpress check`` catches a mistyped cell later on.
"""

from __future__ import annotations

from typing import Any

import yaml

from generator.deck.spreadsheet import FALSE_WORDS, TRUE_WORDS, Sheet, sheet_to_cards

RESERVED_COLUMNS = {"id", "count"}
MAX_CHOICES = 8
"""A column with at most this many distinct words, each used more than once, is a choice."""


def infer_field_types(sheet: Sheet) -> dict[str, dict[str, Any]]:
    """A ``fields:`` section for the sheet's columns, by looking at their cells."""
    fields: dict[str, dict[str, Any]] = {}
    for column, name in enumerate(sheet.header):
        field_name = name.removeprefix("back.")
        if not name or name in RESERVED_COLUMNS or field_name in fields:
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
    try:
        float(text)
    except ValueError:
        return False
    return True


def deck_yaml_from_sheet(sheet: Sheet, deck_name: str) -> str:
    """The text of a deck file holding the sheet's cards, fields typed by inference."""
    declared = infer_field_types(sheet)

    class Spec:  # the shape sheet_to_cards reads: .type and .choices
        def __init__(self, spec: dict[str, Any]):
            self.type = spec["type"]
            self.choices = tuple(spec.get("choices", ()))

    cards, _ = sheet_to_cards(sheet, {name: Spec(spec) for name, spec in declared.items()})
    title = "name" if "name" in declared else next(iter(declared), "name")
    sections = [
        f"# {deck_name}: imported from {sheet.path.name}.\n"
        "# Add composition rules under 'rules:' and run `deckpress check`.\n",
        _block("deck", {"name": deck_name, "title_field": title}),
        _block("fields", {name: (spec if len(spec) > 1 else spec["type"]) for name, spec in declared.items()}),
        _block("cards", cards),
    ]
    return "\n".join(sections)


def _block(key: str, value: Any) -> str:
    """One top-level section in block style, its leaves in flow style (one card a line)."""
    return yaml.safe_dump({key: value}, sort_keys=False, allow_unicode=True,
                          default_flow_style=None, width=120)
