"""Playtest iterations: what changed between two versions of a deck.

Either side is a deck read as every command reads it, from the disk or from the
files git holds at a revision (:mod:`generator.revisions`), so a deck at a revision
is just another deck::

    comparison = compare_since(Path("cards/tiki"), "HEAD")     # the last commit -> now
    comparison = compare_decks(Path("old/tiki"), Path("cards/tiki"))

The :class:`~generator.iterations.comparison.Comparison` says, in card order, which
cards were added, removed or changed (each field with its line), which faces print
differently and why (compared by what they draw, never by file dates), which rules
now pass or fail, how the deck's own odds moved, and what a reprint adds and takes
out. :mod:`generator.iterations.report` writes it as text, JSON or Markdown.
"""

from __future__ import annotations

from pathlib import Path

from generator.deck.model import absolute_folder, find_deck_file
from generator.errors import InputError, Position
from generator.iterations.comparison import Comparison, compare
from generator.iterations.sides import KEEP_OWN_VERSION, Side, read_side
from generator.revisions import DISK, GitError, Revision

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
    newer = read_side(deck, DISK, WORKING_TREE, KEEP_OWN_VERSION)
    return read_side(deck, older, revision, newer.deck.version), newer


def compare_decks(old: Path, new: Path) -> Comparison:
    """What differs from the deck ``old`` to the deck ``new``, both on the disk."""
    return compare(*sides_of(old, new))


def compare_since(deck: Path, revision: str) -> Comparison:
    """What differs from ``deck`` at ``revision`` to the deck as it is now."""
    return compare(*sides_since(deck, revision))


def revision_of(deck: Path, revision: str) -> Revision:
    """The files of ``deck`` (its folder, its project's layouts and fonts) at ``revision``."""
    folder = absolute_folder(find_deck_file(deck))
    project = folder.parent.parent
    try:
        return Revision.of([folder, project / "layouts", project / "fonts"], revision)
    except GitError as error:
        raise InputError(str(error), Position(deck)) from None


__all__ = ["WORKING_TREE", "Comparison", "Side", "compare", "compare_decks", "compare_since", "revision_of",
           "sides_of", "sides_since"]
