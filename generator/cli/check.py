"""``deckpress check``: the whole verdict on each deck, every problem in one run."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from generator.cli.common import echo_error, find_decks, lang_option, reports_errors, say, say_json
from generator.cli.sheet_options import check_sheet_options
from generator.cli.shop import CHECK_FOR_HELP, refuse_sheet_options, shop_option
from generator.deck.model import Deck
from generator.errors import EXIT_INPUT, EXIT_OK, plural
from generator.sheets.geometry import SheetSettings
from generator.verdict import Check, Verdict, verdict
from generator.verdict.complete import CHECKS, STREAMING_CHECKS


@click.command()
@click.argument("decks", nargs=-1, type=click.Path())
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="json prints one object for tools to read: every finding "
                                      "with its kind, file, line, column and card.")
@click.option("--strict", is_flag=True,
              help="Warnings (contrast, colour-blind ...) fail the check too, with exit 1, unless "
                   "the deck accepts them in its accept: section.")
@lang_option(allow_all=True)
@check_sheet_options
@shop_option(CHECK_FOR_HELP)
@reports_errors
def check(decks: tuple[str, ...], output_format: str, strict: bool, lang: str | None,
          sheets: SheetSettings, shop: str | None) -> None:
    """Check decks completely, before any paper is spent.

    DECKS are deck files or folders; by default every deck under cards/.
    Runs everything build, booklet, stats and export check before drawing:
    the deck file (and its spreadsheet), its rules, its layouts, every
    distinct card face laid out (text that does not fit, missing glyphs or
    images), the stats: section and the rules booklet's directives. Every
    problem is printed, one a line, in file and line order. If check passes,
    the other commands will not refuse the deck. It writes no files.

    Exit status: 0 all is well (warnings are printed but pass), 1 a deck
    breaks a rule or a face cannot be laid out, 2 a file is unreadable or
    malformed. Warnings include text that is hard to read against what is
    behind it and colours that colour-blind players cannot tell apart; with
    --strict a warning the deck does not accept exits 1.

    With --lang CODE the deck's translation is checked instead: its rules,
    every text it has not translated yet (exit 1), and every translated
    face, which must fit its layout as the original does.

    With --paper, --orientation, --duplex, --cutter and the --mark options,
    the sheets are checked as build would print them with the same options.

    With --for SHOP the deck is also held to that print shop's rules, as
    build --for SHOP holds it (the sheet options above are refused with it,
    as build refuses them): a card size the shop prints, text, icons and
    images clear of its unsafe margin, art at its resolution and, for a
    CMYK shop, no transparency its standard forbids and no colour over its
    ink limit (exit 1).

    \b
    Examples:
      deckpress check
      deckpress check cards/gold-rush --format json
      deckpress check --strict
      deckpress check cards/tiki --lang fr
      deckpress check --lang all
      deckpress check cards/tiki --cutter silhouette --paper letter
      deckpress check cards/tiki --for thegamecrafter
    """
    if shop is not None:
        refuse_sheet_options(click.get_current_context())
    checks = _shop_checks(shop)
    results = []
    exit_code = EXIT_OK
    for path in find_decks(decks, distinct_names=False):  # check writes no files
        for code in _languages(path, lang):
            outcome = verdict(path, lang=code, sheets=sheets, checks=checks)
            exit_code = max(exit_code, outcome.strict_exit_code() if strict else outcome.exit_code)
            if output_format == "json":
                results.append(_as_dict(outcome, strict))
            else:
                _print(outcome, strict)
    if output_format == "json":
        say_json({"decks": results, "passed": exit_code == EXIT_OK})
    sys.exit(exit_code)


def _shop_checks(shop: str | None) -> tuple[Check, ...]:
    """Every check, and the shop's when ``--for`` names one. Without a shop no plan is kept;
    the shop's check reads the plans the face check keeps."""
    if shop is None:
        return STREAMING_CHECKS
    from generator.shops.choice import ShopChoice  # noqa: PLC0415  (brings LittleCMS and the presets: --for only)
    from generator.verdict.shops import shop_check  # noqa: PLC0415  (likewise)

    return (*CHECKS, shop_check(ShopChoice(shop)))


def _languages(path: Path, lang: str | None) -> list[str | None]:
    """What to check of one deck: as written (None), one translation, or all of them."""
    if lang is None:  # as written: the translations' module is not even loaded
        return [None]
    from generator.deck.translation import ALL_LANGUAGES, languages  # noqa: PLC0415  (only --lang reads translations)

    if lang == ALL_LANGUAGES:
        return [None, *languages(path.parent)]
    return [lang]


def _print(outcome: Verdict, strict: bool) -> None:
    """A summary line for each deck that loads (or whose translation cannot be applied), then
    one line a finding: malformed input on stderr as ``error: ...``, the rest on stdout, all in
    file and line order. With ``strict``, a deck with a warning it does not accept FAILs."""
    deck = outcome.deck
    if deck is None and outcome.name is not None:
        say(f"FAIL  {outcome.name}: {plural(len(outcome.errors), 'problem')}")
    elif deck is not None:
        errors, warnings = len(outcome.errors), len(outcome.warnings)
        accepted = sum(1 for finding in outcome.warnings if finding.accepted is not None)
        noted = f", {plural(warnings, 'warning')}" if warnings else ""
        noted += f" ({accepted} accepted)" if accepted else ""
        if errors:
            say(f"FAIL  {_summary(deck, outcome.counts)}: {plural(errors, 'problem')}{noted}")
        elif strict and accepted < warnings:
            say(f"FAIL  {_summary(deck, outcome.counts)}: {plural(warnings - accepted, 'warning')} "
                f"not accepted (--strict){f', {accepted} accepted' if accepted else ''}")
        else:
            say(f"ok    {_summary(deck, outcome.counts)}{noted}")
    for finding in outcome.findings:
        if finding.is_error and finding.exit_code == EXIT_INPUT:
            echo_error(f"error: {finding.line()}")
        else:
            say(finding.line())


def _summary(deck: Deck, counts: dict[str, int]) -> str:
    checked = [f"{plural(counts.get('rules', 0), 'rule')} checked"]
    if "faces" in counts:
        checked.append(f"{plural(counts['faces'], 'face')} laid out")
    if deck.version:
        checked.append(f"version {deck.version}")
    return f"{deck.output_name}: {deck.name}, {plural(deck.total, 'card')}, {', '.join(checked)}"


def _as_dict(outcome: Verdict, strict: bool) -> dict:
    """The deck's entry in ``--format json``; with ``strict``, it passes as ``--strict`` does."""
    deck = outcome.deck
    exit_code = outcome.strict_exit_code() if strict else outcome.exit_code
    return {
        "file": str(outcome.path),
        "deck": deck.id if deck else None,
        **({"lang": outcome.lang} if outcome.lang else {}),
        "name": deck.name if deck else None,
        "version": deck.version if deck else None,
        "cards": deck.total if deck else None,
        "rules_checked": outcome.counts.get("rules", 0),
        "faces_checked": outcome.counts.get("faces", 0),
        "passed": exit_code == EXIT_OK,
        "exit_code": exit_code,
        "findings": [finding.as_dict() for finding in outcome.findings],
    }

