"""The files a deck's faces are drawn from, and the version they are at.

A printed iteration of a deck is told from the next by its version: the deck's own
``deck: version:``, or else the short id of the last git commit touching the files
its cards are made of, with ``+`` when the working tree has changed them since
(see :meth:`generator.revisions.FileSource.version`). Those files are the deck's
folder (the deck file, its spreadsheet, art, icons and fonts), the layout files it
names and every layout they extend, the SVG icons those layouts draw from beside
them, and the project's ``fonts/``. The layouts and fonts deckpress comes with are
not among them: they are deckpress's, not the deck's.

Nothing here fails: a layout that cannot be found or read stops only the search
along its ``extends``, since the layout check reports it with its line.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from generator.deck.model import Deck
from generator.errors import InputError
from generator.loading import load_yaml
from generator.render.fonts import find_fonts_dir
from generator.render.layout import find_layout
from generator.render.renderer import BUILTIN_LAYOUTS_DIR, GENERIC_LAYOUT, SIDES, layout_search_path
from generator.revisions import current_source

MAX_EXTENDS = 32
"""Layouts followed along one ``extends`` chain. A chain that long is a loop the layout
check refuses with its line; the files found so far stand for the deck's."""


def deck_files(deck: Deck, layouts_dir: Path | None = None) -> list[Path]:
    """Every file or folder the deck's faces are drawn from (see the module docstring), the
    deck's folder first."""
    files = [deck.folder]
    search = layout_search_path(deck, layouts_dir)
    for name in dict.fromkeys(deck.layout.get(side, GENERIC_LAYOUT) for side in SIDES):
        files.extend(_layout_chain(name, search, deck.folder))
    fonts = find_fonts_dir(deck.folder)
    if fonts is not None:
        files.append(fonts)
    builtin = BUILTIN_LAYOUTS_DIR.resolve()
    return list(dict.fromkeys(path for path in files if builtin not in path.resolve().parents))


def _layout_chain(name: str, search: list[Path], deck_folder: Path) -> list[Path]:
    """The file of layout ``name``, the files it extends, and the SVG icons they name."""
    found: list[Path] = []
    folders = search
    for _ in range(MAX_EXTENDS):
        try:
            path = find_layout(name, folders, confined=(deck_folder,))
            data = load_yaml(path).data
        except InputError:
            break
        if path in found:
            break
        found.append(path)
        found.extend(_icon_files(data, path.parent))
        parent = data.get("extends") if isinstance(data, dict) else None
        if not isinstance(parent, str):
            break
        name, folders = parent, [path.parent, *search]
    return found


def _icon_files(data: Any, folder: Path) -> list[Path]:
    """The SVG files a layout's ``icons:`` names (``{svg: icons/coin.svg}``), beside the layout."""
    icons = data.get("icons") if isinstance(data, dict) else None
    if not isinstance(icons, dict):
        return []
    return [folder / entry["svg"] for entry in icons.values()
            if isinstance(entry, dict) and isinstance(entry.get("svg"), str) and entry["svg"].strip()]


def with_version(deck: Deck, layouts_dir: Path | None = None) -> Deck:
    """The deck with its version: its own ``deck: version:`` when it has one, else what git
    says of its files (:func:`deck_files`) where they are read from now; the deck as it is
    when neither says."""
    if deck.version is not None:
        return deck
    version = current_source().version(deck_files(deck, layouts_dir))
    return dataclasses.replace(deck, version=version) if version else deck
