"""Selectors: the ``where:`` mappings that pick cards in rules, stats and layouts.

A selector is a mapping of field to wanted value::

    where: {type: monster}                 # field equals a value
    where: {roll: [2, 12]}                 # field is any of these values
    where: {type: spill, back.symbol: moon} # 'back.' looks at the card's own back face
    where: {id: shelf-repair}              # the card id

All entries must hold. An empty or missing selector picks every card.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from generator.deck.model import Card, Deck
from generator.errors import InputError, Position, describe_value, did_you_mean


@dataclass(repr=False, eq=False)
class Selector:
    """A checked ``where:`` mapping, ready to test cards against."""

    wanted: tuple[tuple[str, tuple[Any, ...]], ...]

    def matches(self, card: Card) -> bool:
        return all(field_value(card, key) in values for key, values in self.wanted)

    def describe(self) -> str:
        if not self.wanted:
            return "all cards"
        parts = []
        for key, values in self.wanted:
            shown = "|".join(map(str, values))
            parts.append(f"{key}={shown}")
        return ", ".join(parts)


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
    return Selector(tuple(wanted))


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


def select(cards: Iterable[Card], selector: Selector) -> list[Card]:
    return [card for card in cards if selector.matches(card)]


BACK_PREFIX = "back."


def field_value(card: Card, name: str) -> Any:
    """The value ``name`` has on ``card``: a front field, ``back.<field>`` of its own back,
    or ``id``; None when the card lacks it."""
    if name == "id":
        return card.id
    if name.startswith(BACK_PREFIX):
        return (card.back or {}).get(name[len(BACK_PREFIX):])
    return card.fields.get(name)


def known_fields(deck: Deck) -> set[str]:
    """Every name a selector, rule or question may use: declared or in use, front and
    ``back.`` fields (for decks whose cards have their own backs), and ``id``."""
    names = set(deck.fields)
    back_names = set(deck.fields) if any(card.back for card in deck.cards) else set()
    for card in deck.cards:
        names.update(card.fields)
        back_names.update(card.back or {})
    return names | {BACK_PREFIX + name for name in back_names} | {"id"}
