"""``deckpress import``: turn a spreadsheet (or a JSON or YAML card file) into a deck file."""

from __future__ import annotations

from pathlib import Path

import click

from generator.cli.common import reports_errors, say
from generator.deck.cardfile import CARD_FILE_SUFFIXES
from generator.deck.importing import deck_yaml_from_card_file, deck_yaml_from_sheet
from generator.deck.sources import check_source_kind
from generator.deck.spreadsheet import read_sheet
from generator.errors import InputError, Position, plural
from generator.outputs import write_text_atomic
from generator.render.markup import prints_as_written


@click.command(name="import")
@click.argument("spreadsheet", metavar="FILE", type=click.Path(path_type=Path))
@click.option("--out", "out", type=click.Path(path_type=Path),
              help="Deck file to write (default: deck.yaml beside the spreadsheet).")
@click.option("--name", help="The game's name (default: from the file name).")
@click.option("--sheet", metavar="NAME", help="The sheet of an XLSX workbook that holds the cards "
                                              "(needed when it has several).")
@click.option("--link", is_flag=True,
              help="Keep the cards in the spreadsheet: the deck file reads them from it "
                   "(cards: {from: ...}), so editing the spreadsheet edits the deck.")
@click.option("--force", is_flag=True, help="Replace an existing deck file.")
@reports_errors
def import_command(spreadsheet: Path, out: Path | None, name: str | None, sheet: str | None, link: bool,
                   force: bool) -> None:
    """Turn a CSV or XLSX card list (or a JSON or YAML card file) into a deck file.

    The first row names the columns: card fields, plus optional 'id', a
    column of copies ('count', 'qty', 'quantity' or 'copies') and
    'back.<field>' columns. Column types are inferred from the cells. A
    card file is a list of cards, or a mapping of card ids to cards. Text
    prints as written: a column whose text would read as markup is
    declared 'markup: false'.

    \b
    Examples:
      deckpress import cards/mygame/cards.csv
      deckpress import cards/mygame/cards.xlsx --sheet Cards --link
      deckpress import sheet.xlsx --out cards/mygame/deck.yaml --name "My Game"
      deckpress import cards/party/cards.json --link
    """
    check_source_kind(spreadsheet, sheet)
    card_file = spreadsheet.suffix.lower() in CARD_FILE_SUFFIXES
    rows = None if card_file else read_sheet(spreadsheet, sheet)
    target = out or spreadsheet.with_name("deck.yaml")
    if target.exists() and not force:
        raise InputError("already exists; pass --force to replace it", Position(target))
    deck_name = name or _name_from(spreadsheet)
    if rows is None:
        imported = deck_yaml_from_card_file(spreadsheet, deck_name, target, prints_as_written, link=link)
    else:
        imported = deck_yaml_from_sheet(rows, deck_name, target, prints_as_written, link=link)
    write_text_atomic(target, imported.text)
    kept = f", read from {spreadsheet.name}" if link else ""
    plain = f"; {', '.join(imported.plain)} printed as written (markup: false)" if imported.plain else ""
    say(f"wrote {target}: {plural(imported.cards, 'card')}, {plural(imported.copies, 'copy', 'copies')}{kept}"
        f"{plain}; run `deckpress check {target}`")


def _name_from(spreadsheet: Path) -> str:
    """``cards/space-race/cards.csv`` is "Space Race"; ``space_race.csv`` too."""
    stem = spreadsheet.stem
    if stem.lower() in ("cards", "deck") and spreadsheet.resolve().parent.name:
        stem = spreadsheet.resolve().parent.name
    return stem.replace("-", " ").replace("_", " ").title()
