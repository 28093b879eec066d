"""Tiny decks with their own layout, written to a temporary folder for the access tests."""

from __future__ import annotations

from pathlib import Path

LAYOUT_HEADER = """\
size: poker
units: mm
safe: 3mm
"""


def write_deck(folder: Path, deck: str, layout: str, name: str = "game") -> Path:
    """``folder/name/deck.yaml`` using the layout ``look`` kept beside it; returns the deck folder."""
    deck_folder = folder / name
    deck_folder.mkdir(parents=True, exist_ok=True)
    (deck_folder / "deck.yaml").write_text(deck)
    (deck_folder / "look.yaml").write_text(LAYOUT_HEADER + layout)
    return deck_folder
