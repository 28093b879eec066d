"""A deck's files at a git revision: its folder, and its project's layouts and fonts.

Kept apart from the comparison of two decks, because ``build --changed-since`` asks for the
revision (to refuse one that is not there) before any deck is read or compared.
"""

from __future__ import annotations

from pathlib import Path

from generator.deck.model import absolute_folder, find_deck_file
from generator.errors import InputError, Position
from generator.revisions import GitError, Revision


def revision_of(deck: Path, revision: str) -> Revision:
    """The files of ``deck`` (its folder, its project's layouts and fonts) at ``revision``."""
    folder = absolute_folder(find_deck_file(deck))
    project = folder.parent.parent
    try:
        return Revision.of([folder, project / "layouts", project / "fonts"], revision)
    except GitError as error:
        raise InputError(str(error), Position(deck)) from None
