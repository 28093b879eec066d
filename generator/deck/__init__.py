"""Deck stage: YAML file -> validated model -> rules check.

The public surface is small: :func:`load_deck` gives a :class:`Deck`,
:func:`check_deck` gives a :class:`Report` of findings.
"""

from generator.deck.model import Card, Deck, Decklist, FieldSpec, RuleSpec, load_deck
from generator.deck.rules import Report, check_deck
from generator.findings import Finding

__all__ = ["Card", "Deck", "Decklist", "FieldSpec", "Finding", "Report", "RuleSpec",
           "check_deck", "load_deck"]
