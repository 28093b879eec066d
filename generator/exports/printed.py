"""Which cards an export shows: the printed deck, the same cards ``build`` prints.

A card with a count of 0 stays in the database (a designer may be trying it
out) but is not part of the printed deck, so no export draws it. A deck whose
counts are all 0 has nothing to export; it is refused with the error ``build``
gives, before any file or folder is made.
"""

from __future__ import annotations

from generator.deck.model import Card, Deck
from generator.errors import InputError


def printed_cards(deck: Deck) -> list[Card]:
    """The deck's cards with at least one copy, in deck order; InputError (exit 2) if there are none."""
    printed = [card for card in deck.cards if card.count > 0]
    if not printed:
        raise InputError("nothing to print: every card's count is 0", deck.source.at("cards"), "count")
    return printed
