"""Selectors: the ``where:`` mappings that pick cards in rules, stats and layouts.

A selector is a mapping of field to wanted value::

    where: {type: monster}                 # field equals a value
    where: {roll: [2, 12]}                 # field is any of these values
    where: {type: spill, back.symbol: moon} # 'back.' looks at the card's own back face
    where: {id: shelf-repair}              # the card id

All entries must hold. An empty or missing selector picks every card. A selector
matches the values the deck file gives, in every language: on a translated deck
``{name: Knight}`` still picks the Knight, whatever name it prints (:func:`field_value`).

On the command line (``stats --where``, ``build --only``) the same selector is written
``FIELD=VALUE``, one entry an option, several values separated by ``|`` or ``,``
(``--only id=imp,ember-imp``); :func:`command_line_selector` reads it into the same
mapping and checks it with :func:`parse_selector`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator.deck.model import BACK_PREFIX, Card, Deck
from generator.errors import InputError, Position, describe_value, did_you_mean, printable


@dataclass(repr=False, eq=False)
class Selector:
    """A checked ``where:`` mapping, ready to test cards against."""

    wanted: tuple[tuple[str, tuple[Any, ...]], ...]
    shared_back: dict[str, Any] | None = None
    """The deck's back as written, which ``back.`` entries read on a card without its own."""

    def matches(self, card: Card) -> bool:
        return all(field_value(card, key, self.shared_back) in values for key, values in self.wanted)

    def describe(self) -> str:
        if not self.wanted:
            return "all cards"
        return ", ".join(f"{key}={'|'.join(map(str, values))}" for key, values in self.wanted)


def parse_selector(raw: Any, deck: Deck, position: Position,
                   key_position: Callable[[Any], Position] | None = None) -> Selector:
    """Check a raw ``where:`` value against the deck's fields and build a :class:`Selector`.

    Errors point at ``position`` (the selector), or at each entry when ``key_position``
    gives entries their own positions. A field name or a choice value that can never
    match is refused with the nearest correct spelling, because a typo would otherwise
    select no cards and pass or fail for the wrong reason.
    """
    if raw is None:
        return Selector(())
    if not isinstance(raw, dict):
        raise InputError(f"'where' must be a mapping of field: value, found {describe_value(raw)}",
                         position, field="where")
    known = known_fields(deck)
    wanted = []
    for key, value in raw.items():
        where = key_position(key) if key_position else position
        field_name = str(key) if key_position else "where"
        if str(key) not in known:
            raise InputError(f"selector names unknown field '{key}'{did_you_mean(str(key), known)}",
                             where, field=field_name)
        values = tuple(value) if isinstance(value, list) else (value,)
        problem = choice_problem(deck, str(key), values) or type_problem(deck, str(key), values)
        if problem:
            raise InputError(problem, where, field=field_name)
        wanted.append((str(key), values))
    return Selector(tuple(wanted), written_back(deck))


VALUE_SEPARATORS = ("|", ",")
"""What separates the values of one command-line entry: ``roll=2|12``, ``id=imp,ember-imp``."""


def command_line_selector(items: Iterable[str], deck: Deck, option: str) -> Selector:
    """``FIELD=VALUE`` entries given to ``option`` (``--only``) as a checked :class:`Selector`:
    all entries must hold, values typed like their field (``roll=7`` matches the number 7).
    Raises InputError (exit 2) naming ``option`` for an entry that is not ``FIELD=VALUE``, an
    unknown field or a value that can never match."""
    raw: dict[str, Any] = {}
    known = known_fields(deck)
    for name, text in command_line_entries(items, option):
        if name not in known:
            raise InputError(f"{option} names unknown field '{printable(name)}'{did_you_mean(name, known)}",
                             field=printable(name))
        values = [_typed(deck, name, part.strip()) for part in _split_values(text)]
        problem = choice_problem(deck, name, values) or type_problem(deck, name, values)
        if problem:
            raise InputError(f"{option}: {printable(problem)}", field=printable(name))
        raw[name] = values if len(values) > 1 else values[0]
    return parse_selector(raw, deck, Position(Path(option)))


def command_line_entries(items: Iterable[str], option: str) -> list[tuple[str, str]]:
    """``FIELD=VALUE`` entries split into (field, values as written); raises InputError (exit 2)
    for one that is not of that form, before any deck is read."""
    entries = []
    for item in items:
        name, equals, text = item.partition("=")
        if not equals or not name.strip() or not text.strip():
            raise InputError(f"{option}: '{printable(item)}' is not FIELD=VALUE (such as type=monster)",
                             field=option.lstrip("-"))
        entries.append((name.strip(), text))
    return entries


def _split_values(text: str) -> list[str]:
    for separator in VALUE_SEPARATORS[1:]:
        text = text.replace(separator, VALUE_SEPARATORS[0])
    return text.split(VALUE_SEPARATORS[0])


def _typed(deck: Deck, name: str, text: str) -> Any:
    """Command-line text as the field's type, so ``roll=7`` matches the number 7."""
    if name == "id":  # card ids are text, even ids written as digits
        return text
    spec = deck.fields.get(name.removeprefix(BACK_PREFIX))
    kind = spec.type if spec is not None else None
    if kind == "bool" or (kind is None and text.lower() in ("true", "false")):
        return text.lower() in ("true", "yes", "1")
    if kind in ("int", "number", None):
        for convert in (int, float):
            try:
                return convert(text)
            except ValueError:
                pass
    if spec is not None and spec.type == "choice":
        return next((choice for choice in spec.choices if str(choice) == text), text)
    return text


def choice_problem(deck: Deck, name: str, wanted: Iterable[Any]) -> str | None:
    """Why a wanted value can never match a choice field (a typo, usually), or None."""
    spec = deck.fields.get(name.removeprefix(BACK_PREFIX))
    if spec is None or not spec.choices:
        return None
    for value in wanted:
        if value not in spec.choices:
            return f"'{value}' is not a choice of '{name}'{did_you_mean(str(value), spec.choices)}"
    return None


VALUE_TYPES: dict[str, tuple[Callable[[Any], bool], str]] = {
    "int": (lambda v: (isinstance(v, int) and not isinstance(v, bool))
            or (isinstance(v, float) and v.is_integer()), "whole numbers"),
    "number": (lambda v: isinstance(v, (int, float)) and not isinstance(v, bool), "numbers"),
    "bool": (lambda v: isinstance(v, bool), "yes/no values (true or false)"),
}
"""Field types whose cards hold only one kind of value, with a test for that kind."""


def type_problem(deck: Deck, name: str, wanted: Iterable[Any]) -> str | None:
    """Why a wanted value can never match a typed field (``cost: abc`` on an int field), or None.

    ``None`` stays allowed: it picks the cards that leave the field out.
    """
    spec = deck.fields.get(name.removeprefix(BACK_PREFIX))
    if spec is None or spec.type not in VALUE_TYPES:
        return None
    holds, kind = VALUE_TYPES[spec.type]
    for value in wanted:
        if value is not None and not holds(value):
            return f"{describe_value(value)} can never match '{name}', which holds {kind}"
    return None


def field_value(card: Card, name: str, shared_back: dict[str, Any] | None = None) -> Any:
    """The value ``name`` has on ``card`` as the deck file gives it: a front field,
    ``back.<field>`` of the back it prints (its own, else ``shared_back``, the deck's back as
    written: :func:`written_back`), or ``id``; None when the card lacks it. On a translated
    deck it is the deck's own value, not the printed text (:meth:`Card.as_written`), so a
    selector picks the same cards in every language."""
    if name == "id":
        return card.id
    written = card.written or card  # its faces as written; nothing else of it is read here
    if name.startswith(BACK_PREFIX):
        back = written.back if written.back is not None else shared_back
        return (back or {}).get(name[len(BACK_PREFIX):])
    return written.fields.get(name)


def written_back(deck: Deck) -> dict[str, Any] | None:
    """The deck's shared back as its deck file gives it, in every language."""
    return deck.translation.written.shared_back if deck.translation is not None else deck.shared_back


def known_fields(deck: Deck) -> set[str]:
    """Every name a selector, rule or question may use: declared or in use, front and
    ``back.`` fields (for decks with a back: the cards' own, or the deck's shared one),
    and ``id``."""
    names = set(deck.fields)
    shared = written_back(deck)
    back_names = set(deck.fields) if shared is not None or any(card.back for card in deck.cards) else set()
    back_names.update(shared or {})
    for card in deck.cards:
        names.update(card.fields)
        back_names.update(card.back or {})
    return names | {BACK_PREFIX + name for name in back_names} | {"id"}
