"""Playtest iterations: what changed between two versions of a deck.

Either side is a deck read as every command reads it, from the disk or from the
files git holds at a revision (:mod:`generator.revisions`), so a deck at a revision
is just another deck::

    from generator.iterations.comparison import compare
    from generator.iterations.decks import sides_of, sides_since

    comparison = compare(*sides_since(Path("cards/tiki"), "HEAD"))   # the last commit -> now
    comparison = compare(*sides_of(Path("old/tiki"), Path("cards/tiki")))

The :class:`~generator.iterations.comparison.Comparison` says, in card order, which
cards were added, removed or changed (each field with its line), which faces print
differently and why (compared by what they draw, never by file dates), which rules
now pass or fail, how the deck's own odds moved, and what a reprint adds and takes
out. :mod:`generator.iterations.report` writes it as text, JSON or Markdown.

The package's modules are imported by name (``generator.iterations.decks``, ``.comparison``,
``.fingerprints``): every build imports the fingerprints its manifest keeps, and only a
comparison needs the rest.
"""
