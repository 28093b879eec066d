"""Printing only what changed: what a printed copy of a deck lacks, and how to tell it.

The printed copy is known in one of two ways:

- as the deck's own files at a git revision (``build --changed-since REV``): the two
  iterations are compared as ``deckpress diff`` compares them
  (:func:`~generator.iterations.comparison.compare`);
- by the manifest the build that printed it wrote (``build --changed-from OLD.json``, for
  a deck that is not in git): :func:`reprint_from_manifest` compares the deck with the
  record every build keeps there (:mod:`generator.iterations.fingerprints`).

Either way the answer is a :class:`~generator.iterations.comparison.Reprint` (which copies
to print, which printed copies to take out), and :func:`instructions_of` puts it in the
words of a reprint's first pages.
"""

from __future__ import annotations

from generator.deck.model import Deck
from generator.errors import printable
from generator.iterations.comparison import CardChange, FaceChange, Reprint, in_card_order, reprint_of
from generator.iterations.fingerprints import PrintedCopy, face_fingerprints
from generator.render.renderer import SIDES, Renderer
from generator.sheets.instructions import Entry, Instructions

TAKE_OUT_NOTES = {
    "removed": "no longer in the deck",
    "stale": "old printing: the new sheets replace it",
    "surplus": "surplus: the deck now has {count}",
}
PUT_IN_NOTES = {
    "new": "new card",
    "redrawn": "replaces the old copies",
    "more copies": "more copies: the deck now has {count}",
}


def reprint_from_manifest(printed: PrintedCopy, deck: Deck, renderer: Renderer) -> Reprint:
    """What the copy a manifest describes lacks to be ``deck``. ``renderer`` must draw the deck
    with the version the manifest recorded (so a new version alone changes no face)."""
    before = {card.card: card for card in printed.cards}
    now = {card.id: card for card in deck.cards}
    prints = face_fingerprints(deck, renderer)
    changes = []
    for card_id in in_card_order(list(before), list(now)):
        was, card = before.get(card_id), now.get(card_id)
        if card is None:
            assert was is not None  # the id came from one of them
            changes.append(CardChange(card_id, was.title, "removed", was.count, 0, None))
            continue
        title = printable(renderer.title(card, "front"))
        if was is None:
            changes.append(CardChange(card_id, title, "added", 0, card.count, None))
            continue
        faces = tuple(FaceChange(side, ()) for side in SIDES
                      if prints[card_id, side] != (was.front if side == "front" else was.back))
        if faces or was.count != card.count:
            changes.append(CardChange(card_id, title, "redrawn" if faces else "changed", was.count, card.count,
                                      None, faces=faces, old_title=was.title if was.title != title else None))
    return reprint_of(tuple(changes))


def instructions_of(reprint: Reprint, deck: Deck, basis: dict[str, str], old_version: str | None) -> Instructions:
    """A reprint in the words of its first pages: what to take out, what the sheets add."""
    counts = {card.id: card.count for card in deck.cards}
    take_out = tuple(Entry(entry.card, printable(entry.title), entry.copies, entry.why,
                           TAKE_OUT_NOTES[entry.why].format(count=counts.get(entry.card, 0)))
                     for entry in reprint.removed)
    put_in = tuple(Entry(entry.card, printable(entry.title), len(entry.copies), entry.why,
                         PUT_IN_NOTES[entry.why].format(count=counts.get(entry.card, 0)), entry.copies)
                   for entry in reprint.printed)
    return Instructions(deck.name, basis, old_version, deck.version, take_out, put_in, deck.total)
