"""Composition: how many cards carry each value of a field, and what share of the deck that is."""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from generator.deck.model import BACK_PREFIX, Deck
from generator.deck.selectors import field_value
from generator.stats.pools import Pool
from generator.stats.spec import CountBy

MAX_DEFAULT_VALUES = 12
"""Undeclared fields are broken down by default only if they take this few values."""


@dataclass(repr=False, eq=False)
class Share:
    """One value of a field: its cards (copies), distinct cards and share of the pool."""

    value: Any
    cards: int
    distinct: int
    share: Fraction


@dataclass(repr=False, eq=False)
class Breakdown:
    """A field's values across a pool, in a natural order (declared choices, or numbers ascending)."""

    field: str
    total: int
    rows: tuple[Share, ...]
    among: str = ""  # which cards were counted, when not all of them ("type=monster")


def breakdown(pool: Pool, count_by: CountBy, deck: Deck) -> Breakdown:
    """Count the pool's cards (those ``count_by.where`` selects) by the value of a field.

    Cards without the field count under None.
    """
    field = count_by.field
    cards: dict[Any, int] = defaultdict(int)
    distinct: dict[Any, int] = defaultdict(int)
    total = 0
    for card, copies in pool.entries:
        if not count_by.where.matches(card):
            continue
        value = field_value(card, field)
        cards[value] += copies
        distinct[value] += 1
        total += copies
    order = _value_order(deck, field, list(cards))
    rows = tuple(Share(value=value, cards=cards[value], distinct=distinct[value],
                       share=Fraction(cards[value], total) if total else Fraction(0))
                 for value in order)
    among = count_by.where.describe() if count_by.where.wanted else ""
    return Breakdown(field=field, total=total, rows=rows, among=among)


def _value_order(deck: Deck, field: str, values: list[Any]) -> list[Any]:
    """Declared choices in their declared order; numbers ascending; text by name; None last."""
    spec = deck.fields.get(field.removeprefix(BACK_PREFIX))
    present = [v for v in values if v is not None]
    if spec is not None and spec.choices:
        rank = {choice: index for index, choice in enumerate(spec.choices)}
        present.sort(key=lambda v: (rank.get(v, len(rank)), str(v)))
    elif all(_as_number(v) is not None for v in present):
        present.sort(key=lambda v: (_as_number(v), str(v)))  # "125" after "75", read from a sheet or not
    else:
        present.sort(key=lambda v: (str(type(v)), str(v)))
    return present + ([None] if None in values else [])


def _as_number(value: Any) -> float | None:
    """A number, or text that reads as one (an undeclared spreadsheet column keeps its text)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    try:
        number = float(str(value).strip())
    except ValueError:
        return None
    return number if math.isfinite(number) else None


def default_fields(deck: Deck) -> tuple[CountBy, ...]:
    """Fields worth breaking a deck down by when the deck names none.

    Declared choice fields (and their back-face twins on double-sided decks);
    for a deck without a ``fields:`` section, every field with few values.
    """
    double_sided = any(card.back for card in deck.cards)
    if deck.fields:
        names = [spec.name for spec in deck.fields.values() if spec.type == "choice"]
        if double_sided:
            names += [BACK_PREFIX + name for name in names
                      if any(name in (card.back or {}) for card in deck.cards)]
        return tuple(CountBy(name) for name in names)
    seen: dict[str, set] = defaultdict(set)
    for card in deck.cards:
        for name, value in card.fields.items():
            seen[name].add(repr(value))
    return tuple(CountBy(name) for name, values in seen.items() if 1 < len(values) <= MAX_DEFAULT_VALUES)
