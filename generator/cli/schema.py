"""``deckpress schema``: print the JSON Schema of deck (or layout) files for editors."""

from __future__ import annotations

import click

from generator.schema import SCHEMA_NAMES, schema_text


@click.command()
@click.argument("kind", type=click.Choice(SCHEMA_NAMES), default="deck")
def schema(kind: str) -> None:
    """Print the JSON Schema for deck files (or layout files).

    Point your editor's YAML support at it to get completion and checks
    while you type. Bundled decks reference it on their first line.

    \b
    Examples:
      deckpress schema > deck.schema.json
      deckpress schema layout
    """
    click.echo(schema_text(kind), nl=False)
