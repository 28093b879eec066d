"""deckpress: check card decks against their rules and print them as duplex-ready PDFs."""

__version__ = "0.1.0"
