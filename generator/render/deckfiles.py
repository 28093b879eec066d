"""The files a deck's faces are drawn from, and the version they are at.

A printed iteration of a deck is told from the next by its version: the deck's own
``deck: version:``, or else the short id of the last git commit touching the files
its cards are made of, with ``+`` when the working tree has changed them since
(see :meth:`generator.revisions.FileSource.version`). Those files are the deck's
folder (the deck file, its spreadsheet, art, icons and fonts), the files of the
layouts its faces are drawn with (:attr:`generator.render.layout.Layout.files`: each
layout, every layout it extends and the SVG icons they draw from beside them), and
the project's ``fonts/``. The layouts and fonts deckpress comes with are not among
them: they are deckpress's, not the deck's.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from pathlib import Path

from generator.deck.model import Deck
from generator.render.layout import BUILTIN_LAYOUTS_DIR
from generator.revisions import current_source


def deck_files(deck: Deck, layout_files: Iterable[Path], fonts_dir: Path | None) -> list[Path]:
    """Every file or folder the deck's faces are drawn from (see the module docstring), given
    the files its layouts were read from and the project's fonts folder, the deck's folder first."""
    files = [deck.folder, *layout_files, *([fonts_dir] if fonts_dir is not None else [])]
    builtin = BUILTIN_LAYOUTS_DIR.resolve()
    return list(dict.fromkeys(path for path in files if builtin not in path.resolve().parents))


def with_version(deck: Deck, layout_files: Iterable[Path], fonts_dir: Path | None) -> Deck:
    """The deck, which has no ``deck: version:`` of its own, with what git says of the files
    its faces are drawn from (:func:`deck_files`) where they are read from now as its version;
    the deck as it is when git says nothing."""
    version = current_source().version(deck_files(deck, layout_files, fonts_dir))
    return dataclasses.replace(deck, version=version) if version else deck
