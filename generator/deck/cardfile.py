"""Cards kept in a JSON or YAML file beside the deck: ``cards: {from: cards.json}``.

Card data exported from another tool or a script is often JSON. A card file holds
either a list of cards or a mapping of card ids to cards::

    [{"name": "Imp", "count": 3, "power": 2}, {"name": "Heal", "text": "Gain 2*"}]
    {"imp": {"name": "Imp", "qty": 3}, "heal": {"name": "Heal", "back": {"name": "Glow"}}}

Each card is what an entry of a deck file's ``cards:`` list is: its fields, ``id``,
``count`` (or ``qty``, ``quantity``, ``copies``, as a spreadsheet's column), and a
``back`` mapping or ``back.<field>`` keys. Values keep the types the file gives
them (``3`` is a number, ``"3"`` text); the deck model checks them against the
deck's ``fields:`` as it checks YAML cards, and every error names the file, line
and column of the value.

A card file has the bounds of a spreadsheet: the rows, columns and filled cells of
:mod:`generator.deck.spreadsheet`, and the size of any file a deck reads. JSON is
read by the json module's own decoder, a card at a time, with the place of every
value kept; YAML by the deck files' own safe loader (:mod:`generator.loading`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from json.decoder import scanstring  # type: ignore[attr-defined]  # the decoder's own string reader (C), untyped
from pathlib import Path
from typing import Any

from generator.deck.spreadsheet import (
    COUNT_COLUMNS,
    MAX_SHEET_CELLS,
    MAX_SHEET_COLUMNS,
    MAX_SHEET_ROWS,
    CardKeys,
    CellPosition,
    Place,
)
from generator.errors import InputError, Position
from generator.loading import MAX_FILE_BYTES, parse_yaml, read_text

CARD_FILE_SUFFIXES = (".json", ".yaml", ".yml")
MAX_CARD_FILE_VALUES = 1_000_000
"""Values, keys included, that a YAML card file may expand to (aliases counted before
anything is built): the most cards and cells a spreadsheet may hold are some 600,000."""
MAX_JSON_NESTING = 20
"""Levels of lists and objects in a JSON card file: a card's back is the third."""
_SPACE = re.compile(r"[ \t\n\r]*")


@dataclass(repr=False, eq=False)
class Record:
    """One card as the file writes it: its value and the place of each of its values."""

    value: Any
    position: CellPosition
    places: dict[tuple[str, ...], CellPosition] = field(default_factory=dict)
    """Where each key stands: ``(key,)`` or ``("back", key)``."""
    id: str | None = None
    """The card's id when the file is a mapping of ids to cards, and where it stands."""
    id_position: CellPosition | None = None


def read_card_file(path: Path) -> tuple[list[dict[str, Any]], dict[CardKeys, Place]]:
    """The cards of a JSON or YAML card file as a deck's ``cards:`` list would hold them, and
    the place of every value, keyed as the deck document keys positions (``(index, key)``)."""
    text = read_text(path, limit=MAX_FILE_BYTES)
    cards = _Cards()
    if path.suffix.lower() == ".json":
        _JsonReader(path, text, cards.add).read()  # each card handed on as it is read
    else:
        for record in _yaml_records(path, text):
            cards.add(record)
    return cards.cards, cards.positions


# --- JSON: the json module's decoder, with the place of every value ---------------------------

class _JsonReader:
    """Walks the top levels of a JSON card file (the list or mapping of cards, each card's
    keys and its back's) itself, so it knows where each value starts; every value is
    decoded by the json module (its C decoder)."""

    def __init__(self, path: Path, text: str, found: Callable[[Record], None]):
        self.path = path
        self.text = text
        self.found = found
        self.decoder = json.JSONDecoder(parse_constant=self._refuse_constant)
        self.line, self.line_start, self.counted = 1, 0, 0  # lines are counted as the walk goes on

    def read(self) -> None:
        index = self._skip(0)
        if self.text.startswith("[", index):
            end = self._walk_array(index, self._listed_card)
        elif self.text.startswith("{", index):
            end = self._walk_object(index, self._mapped_card)
        else:
            raise self._fail("a card file holds a list of cards, or a mapping of card ids to cards", index)
        if self._skip(end) < len(self.text):
            raise self._fail("JSON error: more after the cards end", self._skip(end))

    def _listed_card(self, index: int) -> int:
        record, end = self._record(index)
        self.found(record)
        return end

    def _mapped_card(self, key: str, key_index: int, index: int) -> int:
        record, end = self._record(index)
        record.id, record.id_position = key, self._place(key_index)
        self.found(record)
        return end

    def _record(self, index: int) -> tuple[Record, int]:
        """A card: its keys (and its back's) walked one by one when it is an object."""
        record = Record({}, self._place(index))
        if not self.text.startswith("{", index):
            record.value, end = self._value(index, 1)
            return record, end

        def member(key: str, key_index: int, value_index: int) -> int:
            if key in record.value:
                raise self._fail(f"duplicate key '{key}'", key_index)
            record.places[(key,)] = self._place(key_index)
            if key == "back" and self.text.startswith("{", value_index):
                back: dict[str, Any] = {}
                record.value[key] = back
                return self._walk_object(value_index, lambda name, at, start: self._back(record, back, name, at, start))
            record.value[key], end = self._value(value_index, 2)
            return end

        return record, self._walk_object(index, member)

    def _back(self, record: Record, back: dict[str, Any], key: str, key_index: int, index: int) -> int:
        if key in back:
            raise self._fail(f"duplicate key '{key}'", key_index)
        record.places[("back", key)] = self._place(key_index)
        back[key], end = self._value(index, 3)
        return end

    def _walk_array(self, index: int, read: Callable[[int], int]) -> int:
        """Each item of the list at ``index`` given to ``read`` (which returns where it ends);
        returns where the list ends."""
        index = self._skip(index + 1)
        if self.text.startswith("]", index):
            return index + 1
        while True:
            index = self._after(read(index), "]")
            if index < 0:
                return -index

    def _walk_object(self, index: int, read: Callable[[str, int, int], int]) -> int:
        """Each ``"key": value`` of the object at ``index`` given to ``read`` (the key, where it
        and its value start; it returns where the value ends); returns where the object ends."""
        index = self._skip(index + 1)
        if self.text.startswith("}", index):
            return index + 1
        while True:
            if not self.text.startswith('"', index):
                raise self._fail("JSON error: expected a key in double quotes", index)
            key_index = index
            try:
                key, index = scanstring(self.text, index + 1, True)
            except json.JSONDecodeError as error:
                raise self._fail(f"JSON error: {error.msg}", error.pos) from None
            index = self._skip(index)
            if not self.text.startswith(":", index):
                raise self._fail("JSON error: expected ':' after a key", index)
            index = self._after(read(key, key_index, self._skip(index + 1)), "}")
            if index < 0:
                return -index

    def _after(self, index: int, closing: str) -> int:
        """Past the ``,`` after an item (where the next starts), or minus the index past the
        closing bracket."""
        index = self._skip(index)
        if self.text.startswith(",", index):
            return self._skip(index + 1)
        if self.text.startswith(closing, index):
            return -(index + 1)
        raise self._fail(f"JSON error: expected ',' or '{closing}'", index)

    def _value(self, index: int, depth: int) -> tuple[Any, int]:
        try:
            value, end = self.decoder.raw_decode(self.text, index)
        except json.JSONDecodeError as error:
            raise self._fail(f"JSON error: {error.msg}", error.pos) from None
        except RecursionError:
            raise self._fail(f"nested more than {MAX_JSON_NESTING} levels deep", index) from None
        except ValueError as error:  # NaN or Infinity, or a number of thousands of digits
            raise self._fail(f"invalid value: {str(error).split(';')[0]}", index) from None
        if isinstance(value, (list, dict)) and _depth(value) + depth > MAX_JSON_NESTING:
            raise self._fail(f"nested more than {MAX_JSON_NESTING} levels deep", index)
        return value, end

    def _skip(self, index: int) -> int:
        found = _SPACE.match(self.text, index)
        return found.end() if found else index

    def _place(self, index: int) -> CellPosition:
        """Line and column of ``index``, counting the lines since the last place asked for."""
        if index < self.counted:  # back to an earlier place (only for an error): count afresh
            self.line, self.line_start, self.counted = 1, 0, 0
        newlines = self.text.count("\n", self.counted, index)
        if newlines:
            self.line += newlines
            self.line_start = self.text.rfind("\n", self.counted, index) + 1
        self.counted = index
        return (self.path, self.line, index - self.line_start + 1)

    def _fail(self, message: str, index: int) -> InputError:
        return InputError(message, Position(*self._place(min(index, len(self.text)))))

    @staticmethod
    def _refuse_constant(name: str) -> float:
        raise ValueError(f"'{name}' is no number a card can show")


def _depth(value: Any) -> int:
    """Levels of lists and dicts in ``value``, counted without recursion."""
    deepest, pending = 0, [(value, 1)]
    while pending:
        item, level = pending.pop()
        if isinstance(item, (list, dict)):
            deepest = max(deepest, level)
            if level <= MAX_JSON_NESTING:
                pending.extend((child, level + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


# --- YAML: the deck files' own loader ------------------------------------------------------

def _yaml_records(path: Path, text: str) -> list[Record]:
    document = parse_yaml(text, path, max_nodes=MAX_CARD_FILE_VALUES)
    data = document.data

    def place(*keys: Any) -> CellPosition:
        where = document.at(*keys)
        return (path, where.line, where.column)

    if isinstance(data, list):
        items: Iterable[tuple[Any, Any]] = enumerate(data)
    elif isinstance(data, dict) and data:
        items = data.items()
    else:
        raise InputError("a card file holds a list of cards, or a mapping of card ids to cards", document.at())
    records = []
    for key, value in items:
        record = Record(value, place(key))
        if isinstance(data, dict):
            record.id, record.id_position = str(key), place(key)
        if isinstance(value, dict):
            for name, inner in value.items():
                record.places[(str(name),)] = place(key, name)
                if name == "back" and isinstance(inner, dict):
                    for back_name in inner:
                        record.places[("back", str(back_name))] = place(key, name, back_name)
        records.append(record)
    return records


# --- from records to a deck's cards --------------------------------------------------------

class _Cards:
    """The records as a deck's ``cards:`` entries, one by one: copies under ``count``,
    ``back.<field>`` keys in the ``back`` mapping, a mapping's keys as ids; bounded as a
    spreadsheet is."""

    def __init__(self) -> None:
        self.cards: list[Any] = []
        self.positions: dict[CardKeys, Place] = {}
        self.filled = 0

    def add(self, record: Record) -> None:
        index = len(self.cards)
        if index >= MAX_SHEET_ROWS:
            raise InputError(f"more than {MAX_SHEET_ROWS:,} cards; a deck of more distinct cards takes too "
                             "long to lay out", Position(*record.position))
        self.positions[(index,)] = record.position
        if not isinstance(record.value, dict):
            self.cards.append(record.value)  # the deck model says what a card must be, at its place
            return
        card, self.filled = _card(record, index, self.positions, self.filled)
        self.cards.append(card)


def _card(record: Record, index: int, positions: dict[CardKeys, Place], filled: int
          ) -> tuple[dict[str, Any], int]:
    value: dict[str, Any] = record.value
    back = value.get("back")
    keys = len(value) + (len(back) - 1 if isinstance(back, dict) else 0)
    if keys > MAX_SHEET_COLUMNS:
        raise InputError(f"a card of {keys:,} keys; a card has at most {MAX_SHEET_COLUMNS} (its fields, id, "
                         "count and back)", Position(*record.position))
    card: dict[str, Any] = {}
    copies: str | None = None
    for name, item in value.items():
        place = record.places.get((name,), record.position)
        key = name
        if name.lower() in COUNT_COLUMNS:
            if copies is not None:
                raise InputError(f"'{copies}' and '{name}' both give the number of copies; keep one",
                                 Position(*place), field=name)
            copies, key = name, "count"
        if key.startswith("back."):
            card.setdefault("back", {})[key.removeprefix("back.")] = item
            positions[(index, "back", key.removeprefix("back."))] = place
        elif key == "back" and isinstance(item, dict):
            card.setdefault("back", {}).update(item)
            positions[(index, "back")] = place
            for back_name in item:
                positions[(index, "back", back_name)] = record.places.get(("back", back_name), place)
        else:
            card[key] = item
            positions[(index, key)] = place
        filled += _filled(item)
    if record.id is not None:
        written = card.get("id")
        if written is not None and written != record.id:
            raise InputError(f"card '{record.id}' names another id, '{written}'; leave one out",
                             Position(*record.places.get(("id",), record.position)), field="id")
        card["id"] = record.id
        positions[(index, "id")] = record.id_position or record.position
    if filled > MAX_SHEET_CELLS:
        raise InputError(f"more than {MAX_SHEET_CELLS:,} filled values", Position(*record.position))
    return card, filled


def _filled(value: Any) -> int:
    """Cells a value fills, as a spreadsheet would count them (a back's values each count)."""
    if isinstance(value, dict):
        return sum(_filled(item) for item in value.values())
    return 0 if value is None or isinstance(value, str) and not value.strip() else 1
