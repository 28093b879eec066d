"""``deckpress booklet``: each deck's rules as a reading PDF and a fold-and-staple booklet."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from generator.booklet import PAPERS, RULES_FILENAME, has_rules, write_booklet
from generator.cli.common import claim_output_name, find_decks, lang_option, reports_errors, say
from generator.deck.model import Deck
from generator.deck.translation import load_translated_deck, require_translated


@click.command()
@click.argument("decks", nargs=-1, type=click.Path())
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=Path("build"),
              show_default=True, help="Folder for the PDFs.")
@click.option("--paper", type=click.Choice(PAPERS), default="a4", show_default=True,
              help="a4: A5 pages, imposed on A4. letter: half-letter pages, imposed on Letter.")
@lang_option
@click.option("--quiet", "-q", is_flag=True, help="No progress bar or summary.")
@reports_errors
def booklet(decks: tuple[str, ...], out_dir: Path, paper: str, lang: str | None, quiet: bool) -> None:
    """Write each deck's rules booklet from the rules.md beside its deck file.

    DECKS are deck files or folders; by default every deck under cards/.
    For each deck, two files in --out:

    \b
      <deck>-rules.pdf          pages in reading order, for screens and
                                single-sided printing
      <deck>-rules-booklet.pdf  two pages a side in saddle-stitch order:
                                print double-sided, flip on the short edge,
                                fold the stack in half and staple the fold

    With --lang CODE the text comes from rules.CODE.md beside rules.md and
    the cards from the translation lang/CODE.yaml; the files are named
    <deck>-rules.CODE.pdf and <deck>-rules-booklet.CODE.pdf.

    A deck with no rules.md is passed over with a note: it has no booklet
    to make, as `check` agrees.

    Exit status: 0 written, 1 a card cannot be drawn, 2 a deck or rules
    file is unreadable or malformed (the error names file and line).

    \b
    Examples:
      deckpress booklet
      deckpress booklet cards/goblins --paper letter --out print/
      deckpress booklet cards/tiki --lang fr
    """
    passed_over: list[Deck] = []
    with_rules: list[Deck] = []
    claimed: dict[str, Path] = {}
    for path in find_decks(decks):  # every deck read before the progress bar, as build does
        deck = require_translated(load_translated_deck(path, lang))
        claim_output_name(deck, claimed)
        if has_rules(deck):
            with_rules.append(deck)
        else:
            passed_over.append(deck)
    written = []
    with click.progressbar(with_rules, label="Rules booklets", hidden=quiet, file=sys.stderr,
                           item_show_func=lambda deck: deck.output_name if deck else "") as bar:
        for deck in bar:
            result, reading, imposed = write_booklet(deck, out_dir, paper)
            written.append((deck, result, reading, imposed))
    if not quiet:
        for deck in passed_over:
            say(f"{deck.output_name}: no {RULES_FILENAME} beside the deck, so no booklet")
        for deck, result, reading, imposed in written:
            say(f"{deck.output_name}: {result.pages} pages -> {reading}, "
                       f"{result.sheets} sheet(s) -> {imposed}")
