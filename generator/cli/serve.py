"""``deckpress serve``: a live preview of decks in the browser."""

from __future__ import annotations

import click

from generator.cli.common import find_decks, lang_option, reports_errors
from generator.cli.watch import watched_roots
from generator.serve import serve_decks


@click.command()
@click.argument("decks", nargs=-1, type=click.Path())
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="Port to listen on (0: any free port).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on. The default is this computer only; 0.0.0.0 shows the "
                   "preview to every machine on your network.")
@click.option("--open", "open_browser", is_flag=True, help="Open the page in your web browser.")
@click.option("--since", "revision", metavar="REV",
              help="Mark the faces that print differently since the git revision REV (HEAD, a tag, "
                   "HEAD~3, a commit id), the new cards and the changed counts, and list the cards "
                   "removed; the marks follow every save.")
@lang_option
@click.option("--quiet", "-q", is_flag=True, help="No progress bar and no line per reload.")
@reports_errors
def serve(decks: tuple[str, ...], port: int, host: str, open_browser: bool, revision: str | None,
          lang: str | None, quiet: bool) -> None:
    """Show DECKS in the browser and update the page on every save.

    DECKS are deck files or folders; by default every deck under cards/.
    The page shows each distinct card face as it prints, with its copies,
    where it lands on the print sheets, the problems `check` finds (linked
    to their cards) and the deck's statistics. Save a deck, layout, font,
    image or rules file and the page updates by itself; while a file is
    broken the last good cards stay, greyed. Press Ctrl-C to stop.

    With --since REV each deck is also read as its files were at that git
    revision, and the page marks every face that prints differently since
    (and why: a field, a count, a layout element, a file), every new card,
    and lists the cards removed; "Changed only" hides the rest.

    \b
    Examples:
      deckpress serve
      deckpress serve cards/tiki --open
      deckpress serve cards/goblins --port 8080
      deckpress serve cards/tiki --lang fr
      deckpress serve cards/tiki --since HEAD
    """
    if revision is not None and lang is not None:
        raise click.UsageError("--since compares the deck as written with its past: leave out --lang")
    serve_decks(find_decks(decks), host, port, watched_roots, lang=lang, open_browser=open_browser, quiet=quiet,
                since=revision)
