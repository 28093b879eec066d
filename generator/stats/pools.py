"""The pools a deal comes from: the whole deck, or one of its decklists.

Games like Gold Rush keep a card pool and build decks from it; what a player
draws from is a decklist, not the pool. Every statistic is therefore computed
per pool: the deck itself when it has no decklists, otherwise each decklist.
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.deck.model import Card, Deck
from generator.errors import InputError, Position, did_you_mean


@dataclass(repr=False, eq=False)
class Pool:
    """Physical cards to deal from: each distinct card with its number of copies."""

    label: str
    decklist: str | None
    entries: tuple[tuple[Card, int], ...]

    @property
    def total(self) -> int:
        return sum(copies for _, copies in self.entries)


def deck_pool(deck: Deck) -> Pool:
    """Every card of the deck with its own count."""
    return Pool(label=deck.name, decklist=None,
                entries=tuple((card, card.count) for card in deck.cards if card.count))


def decklist_pool(deck: Deck, decklist_id: str) -> Pool:
    """The cards of one decklist with that list's counts."""
    for decklist in deck.decklists:
        if decklist.id == decklist_id:
            entries = tuple((deck.card(card_id), n) for card_id, n in decklist.counts.items() if n)
            return Pool(label=decklist.name, decklist=decklist.id, entries=entries)
    raise InputError(unknown_decklist(deck, decklist_id), Position(deck.path), field="decklist")


def unknown_decklist(deck: Deck, decklist_id: str) -> str:
    """What is wrong with asking ``deck`` for a decklist it does not have."""
    known = [d.id for d in deck.decklists]
    hint = did_you_mean(decklist_id, known) if known else "; this deck has no decklists"
    return f"no decklist '{decklist_id}'{hint}"


def pools_for(deck: Deck, decklist_id: str | None = None) -> list[Pool]:
    """The pools to analyse: one named decklist, every decklist, or the deck itself."""
    if decklist_id is not None:
        return [decklist_pool(deck, decklist_id)]
    if deck.decklists:
        return [decklist_pool(deck, decklist.id) for decklist in deck.decklists]
    return [deck_pool(deck)]
