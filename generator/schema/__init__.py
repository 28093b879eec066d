"""JSON Schemas for deck and layout files, so editors can autocomplete and flag mistakes.

A deck file opts in with a first-line comment understood by YAML language servers::

    # yaml-language-server: $schema=../../generator/schema/deck.schema.json

and a layout file likewise with ``../generator/schema/layout.schema.json``.

The schemas describe the file formats for editors; deckpress's own loader stays
the authority and gives the precise, positioned error messages.
"""

from __future__ import annotations

from importlib import resources

SCHEMA_NAMES = ("deck", "layout")


def schema_text(name: str) -> str:
    """The schema called ``name`` (see :data:`SCHEMA_NAMES`), as JSON text."""
    return resources.files(__package__).joinpath(f"{name}.schema.json").read_text(encoding="utf-8")
