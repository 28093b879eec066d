"""Selectors: the ``where:`` mappings that pick cards in rules, stats and layouts.

A selector is a mapping of field to wanted value::

    where: {type: monster}                 # field equals a value
    where: {roll: [2, 12]}                 # field is any of these values
    where: {type: spill, back.symbol: moon} # 'back.' looks at the card's own back face
    where: {id: shelf-repair}              # the card id

All entries must hold. An empty or missing selector picks every card.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from generator.deck.model import Card, Deck
from generator.errors import InputError, Position


@dataclass(frozen=True)
class Selector:
    """A checked ``where:`` mapping, ready to test cards against."""

    wanted: tuple[tuple[str, tuple], ...]

    def matches(self, card: Card) -> bool:
        return all(_value(card, key) in values for key, values in self.wanted)

    def describe(self) -> str:
        if not self.wanted:
            return "all cards"
        parts = []
        for key, values in self.wanted:
            shown = "|".join(map(str, values))
            parts.append(f"{key}={shown}")
        return ", ".join(parts)


def parse_selector(raw: Any, deck: Deck, position: Position) -> Selector:
    """Check a raw ``where:`` value against the deck's fields and build a :class:`Selector`."""
    if raw is None:
        return Selector(())
    if not isinstance(raw, dict):
        raise InputError("'where' must be a mapping of field: value", position, field="where")
    known = known_fields(deck)
    wanted = []
    for key, value in raw.items():
        name = str(key).removeprefix("back.")
        if key != "id" and name not in known:
            raise InputError(f"selector names unknown field '{key}'", position, field="where")
        values = tuple(value) if isinstance(value, list) else (value,)
        wanted.append((str(key), values))
    return Selector(tuple(wanted))


def select(cards: Iterable[Card], selector: Selector) -> list[Card]:
    return [card for card in cards if selector.matches(card)]


def _value(card: Card, key: str) -> Any:
    if key == "id":
        return card.id
    if key.startswith("back."):
        return (card.back or {}).get(key[5:])
    return card.fields.get(key)


def known_fields(deck: Deck) -> set[str]:
    """Field names a rule may mention: the declared ones, or those the cards use."""
    return set(deck.fields) | _fields_in_use(deck)


def _fields_in_use(deck: Deck) -> set[str]:
    """Fields present on cards, for decks that do not declare a ``fields:`` section."""
    names: set[str] = set()
    for card in deck.cards:
        names.update(card.fields)
        names.update(card.back or {})
    return names
