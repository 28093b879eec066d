"""The faces the preview shows: each distinct drawing once, with the cards that carry it.

Two faces with the same :meth:`Renderer.face_key` are the same drawing (a
shared back, two cards with equal values), so the page shows it once with the
number of copies that print it. Order follows the deck: each card's front,
its own back beside it, and backs shared by many cards at the end.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from generator.deck.model import Card, Deck
from generator.errors import DeckpressError
from generator.render import Renderer

MAX_PREVIEW_FACES = 5000
"""Distinct faces shown per deck. A browser grid of more is unusable and each one costs
an image; a deck past this shows its first faces and says how many it left out."""


@dataclass(repr=False, eq=False)
class FaceView:
    """One distinct face: how it is drawn (its key), what it shows and who carries it."""

    key: str
    side: str
    title: str
    fields: dict[str, Any]
    cards: tuple[Card, ...]
    problem: str | None = None
    """Why this face cannot be laid out; None when it draws."""

    @property
    def copies(self) -> int:
        return sum(card.count for card in self.cards)

    @property
    def card(self) -> Card:
        """The first card showing this face: the one drawn to make its image."""
        return self.cards[0]


def distinct_faces(deck: Deck, renderer: Renderer) -> tuple[list[FaceView], int]:
    """The faces to show (at most MAX_PREVIEW_FACES) and how many distinct faces the deck has."""
    order: list[tuple[str, str]] = []  # (key, side) in showing order
    shared_backs: list[tuple[str, str]] = []
    carriers: dict[str, list[Card]] = {}  # the first card carrying a face is the one drawn
    for card in deck.cards:
        for side in ("front", "back"):
            key = renderer.face_key(card, side)
            if key not in carriers:
                carriers[key] = []
                target = shared_backs if side == "back" and card.back is None else order
                target.append((key, side))
            carriers[key].append(card)
    keys = (order + shared_backs)[:MAX_PREVIEW_FACES]
    faces = [_face_view(deck, renderer, key, side, tuple(carriers[key])) for key, side in keys]
    return faces, len(carriers)


def _face_view(deck: Deck, renderer: Renderer, key: str, side: str, cards: tuple[Card, ...]) -> FaceView:
    card = cards[0]
    fields = card.face(side, deck.shared_back) or {}
    problem = None
    try:
        renderer.plan(card, side)  # planned now, so drawing its image later costs no fitting
        title = renderer.title(card, side)
    except DeckpressError as error:
        problem = error.message
        title = deck.title(fields)
    return FaceView(key, side, title, dict(fields), cards, problem)
