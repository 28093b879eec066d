"""``deckpress check``: prove each deck's composition matches its game's rules."""

from __future__ import annotations

import json
import sys

import click

from generator.cli.common import echo_error, error_line, find_decks, lang_option, reports_errors
from generator.deck import check_deck
from generator.deck.translation import ALL_LANGUAGES, languages, load_translated_deck, untranslated_lines
from generator.errors import EXIT_OK, EXIT_RULES, DeckpressError, LayoutError


@click.command()
@click.argument("decks", nargs=-1, type=click.Path())
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="json prints one object for tools to read.")
@lang_option(allow_all=True)
@reports_errors
def check(decks: tuple[str, ...], output_format: str, lang: str | None) -> None:
    """Check decks against the rules written in their deck files.

    DECKS are deck files or folders; by default every deck under cards/.
    Exit status: 0 all rules hold, 1 a deck breaks a rule, 2 a file is
    unreadable or malformed.

    With --lang CODE the deck's translation is checked instead: its rules,
    every text it has not translated yet (exit 1), and every translated
    face, which must fit its layout as the original does.

    \b
    Examples:
      deckpress check
      deckpress check cards/gold-rush --format json
      deckpress check cards/tiki --lang fr
      deckpress check --lang all
    """
    results = []
    exit_code = EXIT_OK
    for path in find_decks(decks, distinct_names=False):  # check writes no files
        for code in _languages(path, lang):
            try:
                deck = load_translated_deck(path, code)
                report = check_deck(deck)
                problems = _translation_problems(deck)
            except DeckpressError as error:
                exit_code = max(exit_code, error.exit_code)
                results.append({"file": str(path), **({"lang": code} if code else {}), "error": str(error),
                                "passed": False})
                if output_format == "text":
                    echo_error(error_line(error))
                continue
            if not report.passed or problems:
                exit_code = max(exit_code, EXIT_RULES)
            results.append(_as_dict(report, problems))
            if output_format == "text":
                _print_report(report, problems)
    if output_format == "json":
        click.echo(json.dumps({"decks": results, "passed": exit_code == EXIT_OK}, indent=2))
    sys.exit(exit_code)


def _languages(path, lang: str | None) -> list[str | None]:
    """What to check of one deck: as written (None), one translation, or all of them."""
    if lang == ALL_LANGUAGES:
        return [None, *languages(path.parent)]
    return [lang]


def _translation_problems(deck) -> list[str]:
    """Every untranslated text, then the first translated face that does not fit its layout."""
    if deck.translation is None:
        return []
    from generator.render import load_renderer  # layouts load only for translations

    problems = [f"{position}: {message}" for position, message in untranslated_lines(deck)]
    try:
        load_renderer(deck).validate()
    except LayoutError as error:
        problems.append(str(error))
    return problems


def _print_report(report, problems: list[str]) -> None:
    deck = report.deck
    summary = f"{deck.output_name}: {deck.name}, {deck.total} cards, {report.rules_checked} rules checked"
    if report.passed and not problems:
        click.echo(f"ok    {summary}")
        return
    broken = [f"{len(report.findings)} broken"] if report.findings else []
    broken += [f"{len(problems)} translation problem{'s' if len(problems) > 1 else ''}"] if problems else []
    click.echo(f"FAIL  {summary}, {', '.join(broken)}")
    for finding in report.findings:
        click.echo(finding.line())
    for problem in problems:
        click.echo(problem)


def _as_dict(report, problems: list[str]) -> dict:
    deck = report.deck
    return {
        "file": str(deck.path),
        "deck": deck.id,
        **({"lang": deck.lang} if deck.lang else {}),
        "name": deck.name,
        "cards": deck.total,
        "rules_checked": report.rules_checked,
        "passed": report.passed and not problems,
        "findings": [finding.as_dict() for finding in report.findings],
        **({"translation": problems} if deck.lang else {}),
    }
