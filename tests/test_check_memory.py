"""``deckpress check`` keeps no face's plan: what it holds grows with the deck model alone.

A check lays out every distinct face. Kept, the plans (with each face's key, title and
context) cost several times what the cards themselves do, and a check of a 100,000-row
spreadsheet ran out of memory long before its cards did. Measured with tracemalloc over
two sizes of a deck of all-different text cards: each card more may cost the check at
most a small multiple of what it adds to the loaded deck.
"""

from __future__ import annotations

import gc
import tracemalloc
from collections.abc import Callable
from pathlib import Path

from generator.deck import load_deck
from generator.verdict import verdict
from generator.verdict.complete import STREAMING_CHECKS

SMALL, LARGE = 400, 2000
WORDS = ("alpha", "beta", "gamma", "delta", "river", "stone", "fire", "night", "moon", "star", "glass", "paper")
DECK = """deck: {name: Party, title_field: text}
fields:
  text: {type: text, required: true}
  colour: {choices: [white, black]}
cards: {from: cards.csv}
"""
MODEL_MULTIPLE = 3.0
"""How many times a card's share of the loaded deck the check may hold for it at its
peak. Checking with every plan kept took over five times; keeping none, under two."""


def party_deck(folder: Path, rows: int) -> Path:
    """A spreadsheet deck of ``rows`` different prompts, every tenth with a star in it."""
    folder.mkdir(parents=True)
    lines = ["text,colour"]
    for n in range(rows):
        words = " ".join(WORDS[(n * 7 + k) % len(WORDS)] for k in range(3))
        lines.append(f"{words} {n}{' 2*' if n % 10 == 0 else ''},{'white' if n % 4 == 1 else 'black'}")
    (folder / "cards.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (folder / "deck.yaml").write_text(DECK, encoding="utf-8")
    return folder


def traced(work: Callable[[], object], peak: bool) -> int:
    """Bytes ``work`` allocates: at its peak, or still held once it returns (what it made kept alive)."""
    gc.collect()
    tracemalloc.start()
    try:
        kept = work()
        current, highest = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    del kept
    return highest if peak else current


def per_card(measure: Callable[[Path], int], tmp_path: Path, name: str) -> float:
    small, large = (measure(party_deck(tmp_path / f"{name}-{rows}", rows)) for rows in (SMALL, LARGE))
    return (large - small) / (LARGE - SMALL)


def test_a_check_holds_little_more_per_card_than_the_deck_itself(tmp_path):
    warm = party_deck(tmp_path / "warm", 50)
    outcome = verdict(warm, checks=STREAMING_CHECKS)  # imports, fonts and tables, read once per process
    assert outcome.exit_code == 0 and outcome.counts["faces"] == 51, outcome.findings

    def checked(deck: Path) -> int:
        return traced(lambda: verdict(deck, checks=STREAMING_CHECKS), peak=True)

    def loaded(deck: Path) -> int:
        return traced(lambda: load_deck(deck), peak=False)

    model = per_card(loaded, tmp_path, "model")
    check = per_card(checked, tmp_path, "check")
    assert model > 0
    assert check < MODEL_MULTIPLE * model, f"check holds {check:.0f} B a card, the deck {model:.0f} B"

