"""``deckpress new``: a fresh deck folder that checks, builds and prints at once.

The starting files live beside this module as plain files (a deck, a layout
and a rules text), so changing what new games start from means editing those
files, not this code. Markers like ``@@TITLE@@`` are filled in; nothing else is
templated, because the rules text has booklet directives of its own.
"""

from __future__ import annotations

import os
import re
from importlib import resources
from pathlib import Path

from generator.errors import InputError, Position
from generator.outputs import write_text_atomic

SCAFFOLD_FILES = ("deck.yaml", "layout.yaml", "rules.md")
NAME_PATTERN = re.compile(r"^[a-z0-9][a-z0-9-]*$")


def create_deck(cards_dir: Path, name: str, title: str | None = None) -> Path:
    """Create ``cards_dir/name`` with a deck, a layout and rules; return the folder.

    ``name`` is the folder name (lower case, digits and hyphens, as in ``space-race``);
    ``title`` is the game's name as printed, by default made from ``name``.
    """
    if not NAME_PATTERN.match(name):
        raise InputError(f"deck name '{name}' may use only a-z, 0-9 and '-' (it names the folder)",
                         Position(cards_dir / name))
    folder = cards_dir / name
    if folder.exists():
        raise InputError("already exists; choose another name or remove it first", Position(folder))
    title = title or name.replace("-", " ").title()
    schema_dir = Path(str(resources.files("generator.schema")))
    markers = {
        "@@TITLE@@": title.replace('"', "'"),
        "@@FOLDER@@": str(folder),
        "@@DECK_SCHEMA@@": _relative(schema_dir / "deck.schema.json", folder),
        "@@LAYOUT_SCHEMA@@": _relative(schema_dir / "layout.schema.json", folder),
    }
    scaffold = resources.files(__package__)
    for file_name in SCAFFOLD_FILES:
        text = scaffold.joinpath(file_name).read_text(encoding="utf-8")
        for marker, value in markers.items():
            text = text.replace(marker, value)
        write_text_atomic(folder / file_name, text)
    return folder


def _relative(target: Path, folder: Path) -> str:
    """A path editors can follow from the new deck folder to a schema file."""
    return Path(os.path.relpath(target.resolve(), folder.resolve())).as_posix()
