"""``deckpress new``: start a new game from a deck that already works."""

from __future__ import annotations

from pathlib import Path

import click

from generator.cli.common import DEFAULT_DECKS_DIR, reports_errors, say
from generator.scaffold import create_deck


@click.command()
@click.argument("name")
@click.option("--title", help="The game's name as printed (default: from NAME).")
@click.option("--dir", "cards_dir", type=click.Path(path_type=Path), default=DEFAULT_DECKS_DIR,
              show_default=True, help="Folder that holds the decks.")
@reports_errors
def new(name: str, title: str | None, cards_dir: Path) -> None:
    """Create cards/NAME/ with a deck, a layout and rules that work at once.

    The new deck passes `deckpress check`, builds its print sheets and its
    rules booklet, so you change a working game instead of starting blank.

    \b
    Examples:
      deckpress new space-race
      deckpress new space-race --title "Space Race!"
    """
    folder = create_deck(cards_dir, name, title)
    say(f"created {folder}/ with deck.yaml, layout.yaml (and its icons/) and rules.md")
    say(f"next: deckpress check {folder} && deckpress build {folder}")
