"""Two decks read for comparing: two folders on the disk, or a deck and its own files at a
git revision (:mod:`generator.iterations.revision`), as two sides for
:func:`~generator.iterations.comparison.compare`. See the package for what a comparison holds."""

from __future__ import annotations

from pathlib import Path

from generator.deck.model import find_deck_file
from generator.errors import InputError, Position, printable
from generator.iterations.revision import revision_of
from generator.iterations.sides import KEEP_OWN_VERSION, Side, read_side
from generator.revisions import DISK, Revision

WORKING_TREE = "working tree"
"""What a report calls the deck as it is on the disk, compared with a revision."""


def sides_of(old: Path, new: Path) -> tuple[Side, Side]:
    """Two decks on the disk (deck files or folders), read for comparing; the older first."""
    newer = read_side(new, DISK, str(new), KEEP_OWN_VERSION)
    return read_side(old, DISK, str(old), newer.deck.version), newer


def sides_since(deck: Path, revision: str) -> tuple[Side, Side]:
    """The deck at ``deck`` as it was at ``revision`` of its git repository, and as it is now.
    Raises InputError when there is no repository or no such revision, or a side cannot be read."""
    older = revision_of(deck, revision)  # a revision that is not there is said before any reading
    deck_file = find_deck_file(deck)
    if not _holds(older, deck_file):
        raise InputError(f"the deck is not in {printable(revision)}: it was made since, so there is nothing "
                         "to compare it with", Position(deck_file))
    newer = read_side(deck, DISK, WORKING_TREE, KEEP_OWN_VERSION)
    return read_side(deck, older, revision, newer.deck.version), newer



def is_at_revision(deck: Path, revision: str) -> bool:
    """Whether the deck file at ``deck`` is in ``revision`` of its repository: a deck made since
    has no printed copy to compare with. Raises InputError as :func:`sides_since` does for a
    revision or a repository that is not there."""
    return _holds(revision_of(deck, revision), find_deck_file(deck))


def _holds(revision: Revision, deck_file: Path) -> bool:
    """Whether ``revision`` has anything at the deck file's path: a link or a folder there is
    the revision's deck, unreadable as it may be, and is said so when it is read."""
    try:
        revision.entry(deck_file.absolute())
    except FileNotFoundError:
        return False
    return True
