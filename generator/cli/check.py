"""``deckpress check``: prove each deck's composition matches its game's rules."""

from __future__ import annotations

import json
import sys

import click

from generator.cli.common import echo_error, error_line, find_decks, reports_errors
from generator.deck import check_deck, load_deck
from generator.errors import EXIT_OK, EXIT_RULES, DeckpressError


@click.command()
@click.argument("decks", nargs=-1, type=click.Path())
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="json prints one object for tools to read.")
@reports_errors
def check(decks: tuple[str, ...], output_format: str) -> None:
    """Check decks against the rules written in their deck files.

    DECKS are deck files or folders; by default every deck under cards/.
    Exit status: 0 all rules hold, 1 a deck breaks a rule, 2 a file is
    unreadable or malformed.

    \b
    Examples:
      deckpress check
      deckpress check cards/gold-rush --format json
    """
    results = []
    exit_code = EXIT_OK
    for path in find_decks(decks, distinct_names=False):  # check writes no files
        try:
            report = check_deck(load_deck(path))
        except DeckpressError as error:
            exit_code = max(exit_code, error.exit_code)
            results.append({"file": str(path), "error": str(error), "passed": False})
            if output_format == "text":
                echo_error(error_line(error))
            continue
        if not report.passed:
            exit_code = max(exit_code, EXIT_RULES)
        results.append(_as_dict(report))
        if output_format == "text":
            _print_report(report)
    if output_format == "json":
        click.echo(json.dumps({"decks": results, "passed": exit_code == EXIT_OK}, indent=2))
    sys.exit(exit_code)


def _print_report(report) -> None:
    deck = report.deck
    summary = f"{deck.id}: {deck.name}, {deck.total} cards, {report.rules_checked} rules checked"
    if report.passed:
        click.echo(f"ok    {summary}")
        return
    click.echo(f"FAIL  {summary}, {len(report.findings)} broken")
    for finding in report.findings:
        click.echo(finding.line())


def _as_dict(report) -> dict:
    deck = report.deck
    return {
        "file": str(deck.path),
        "deck": deck.id,
        "name": deck.name,
        "cards": deck.total,
        "rules_checked": report.rules_checked,
        "passed": report.passed,
        "findings": [finding.as_dict() for finding in report.findings],
    }
