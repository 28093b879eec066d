"""Which backs a deck's cards share: what every export draws once and names once.

A back is *shared* when two or more different cards show it, or when it is the
deck's own back (``back:`` at the top of deck.yaml), which every card without
a back of its own shows. A party game of question and answer cards has two
shared backs, written once each. A back only one card shows is that card's
*own* (Goblins' fairy sides): it is drawn and named with its card.

Backs are told apart by face key (:meth:`~generator.render.Renderer.face_key`):
two cards whose backs read the same values through the same layout show the same back.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from generator.deck.model import Card
from generator.paths import MAX_FILE_NAME_BYTES
from generator.render import Renderer


@dataclass(repr=False, eq=False)
class SharedBack:
    """One back that several cards show (or the deck's own back)."""

    key: str                # its face key
    cards: tuple[Card, ...]  # every printed card showing it, in deck order

    @property
    def card(self) -> Card:
        """The card to draw it from."""
        return self.cards[0]


@dataclass(repr=False, eq=False)
class Backs:
    """A deck's printed cards sorted by their backs."""

    shared: tuple[SharedBack, ...]  # in the order of their first card
    own: tuple[Card, ...]           # cards whose back no other card shows, in deck order
    key_of: dict[str, str]          # card id -> its back's face key


def sort_backs(renderer: Renderer, printed: list[Card]) -> Backs:
    """Which of ``printed`` share a back and which have one of their own (see the module docstring)."""
    key_of = {card.id: renderer.face_key(card, "back") for card in printed}
    showing: dict[str, list[Card]] = {}
    for card in printed:
        showing.setdefault(key_of[card.id], []).append(card)
    shared = tuple(SharedBack(key, tuple(cards)) for key, cards in showing.items()
                   if len(cards) > 1 or any(card.back is None for card in cards))
    shared_keys = {back.key for back in shared}
    own = tuple(card for card in printed if key_of[card.id] not in shared_keys)
    return Backs(shared, own, key_of)


def back_file_name(prefix: str, key: str, suffix: str = ".png") -> str:
    """``<prefix><face key><suffix>``, or with a digest of the key if that is too long a file name
    (a face key starts with its layout's name, which may itself be long)."""
    name = f"{prefix}{key}{suffix}"
    if len(name.encode("utf-8")) <= MAX_FILE_NAME_BYTES:
        return name
    return f"{prefix}{hashlib.sha1(key.encode('utf-8')).hexdigest()[:20]}{suffix}"
