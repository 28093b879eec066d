"""Reading card fields by name, the way selectors and stats questions name them.

A field name is a front field (``type``), a field of the card's own back
(``back.symbol``) or the card's ``id``. These helpers give the value a name
stands for and the set of names a deck knows, for checking what a designer
wrote in the ``stats:`` section.
"""

from __future__ import annotations

import difflib
from typing import Any, Iterable

from generator.deck.model import Card, Deck

BACK_PREFIX = "back."


def field_value(card: Card, name: str) -> Any:
    """The value ``name`` has on ``card`` (None when the card lacks it)."""
    if name == "id":
        return card.id
    if name.startswith(BACK_PREFIX):
        return (card.back or {}).get(name[len(BACK_PREFIX):])
    return card.fields.get(name)


def known_fields(deck: Deck) -> set[str]:
    """Every field name a question may use: declared or in use, front and back, and ``id``."""
    names = set(deck.fields)
    for card in deck.cards:
        names.update(card.fields)
    back_names = set(deck.fields) if any(card.back for card in deck.cards) else set()
    for card in deck.cards:
        back_names.update(card.back or {})
    return names | {BACK_PREFIX + name for name in back_names} | {"id"}


def suggestion(word: str, choices: Iterable[str]) -> str:
    """'; did you mean X?' for a near miss, else the list of choices."""
    choices = sorted(map(str, choices))
    close = difflib.get_close_matches(word, choices, n=1)
    if close:
        return f"; did you mean '{close[0]}'?"
    return f"; expected one of: {', '.join(choices)}"
