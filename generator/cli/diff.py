"""``deckpress diff``: what changed between two iterations of a deck."""

from __future__ import annotations

from pathlib import Path

import click

from generator.cli.common import counted, reports_errors, say_json
from generator.iterations.comparison import cards_to_compare, compare
from generator.iterations.decks import sides_of, sides_since
from generator.iterations.report import as_dict, markdown_lines, text_lines


@click.command()
@click.argument("decks", nargs=-1, required=True, type=click.Path(), metavar="OLD NEW | DECK")
@click.option("--since", "revision", metavar="REV",
              help="Compare DECK with its own files at the git revision REV (HEAD, a tag, HEAD~3, a "
                   "commit id): its deck file, layouts, icons, fonts and art as they were then.")
@click.option("--format", "output_format", type=click.Choice(["text", "json", "markdown"]), default="text",
              show_default=True, help="json for tools; markdown for a changelog to paste to playtesters.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@reports_errors
def diff(decks: tuple[str, ...], revision: str | None, output_format: str, quiet: bool) -> None:
    """What changed between two iterations of a deck.

    Either OLD NEW (two deck files or folders), or DECK --since REV to
    compare a deck in a git repository with its files at that revision
    (read with git, so nothing in the working tree is touched).

    Reports, in card order, the cards added and removed, each changed field
    as old -> new at its line in the newer files, count changes, and every
    face that prints differently for more than its card's own fields (its
    count too), with the layout element, icon, font or art file behind it. Faces are compared by what
    they draw, never by file dates, and a new version alone changes none.
    Then the composition rules that now pass or fail, the deck's own stats:
    questions with their old and new answers, and what a reprint adds and
    what to take out of the printed deck.

    Exit status: 0 compared (whether or not anything changed), 2 a side
    cannot be read (no such revision, a malformed file).

    \b
    Examples:
      deckpress diff cards/tiki --since HEAD
      deckpress diff cards/tiki --since v0.3 --format markdown
      deckpress diff old/tiki cards/tiki --format json
    """
    if revision is not None and len(decks) != 1:
        raise click.UsageError("--since REV compares one DECK with its own past: name one deck")
    if revision is None and len(decks) != 2:
        raise click.UsageError("name two decks, OLD NEW, or one DECK with --since REV")
    old, new = sides_since(Path(decks[0]), revision) if revision is not None else \
        sides_of(Path(decks[0]), Path(decks[1]))
    with counted(cards_to_compare(old, new), "Comparing cards", quiet) as advance:
        comparison = compare(old, new, advance)
    if output_format == "json":
        say_json(as_dict(comparison))
    else:
        click.echo("\n".join(markdown_lines(comparison) if output_format == "markdown" else text_lines(comparison)))

