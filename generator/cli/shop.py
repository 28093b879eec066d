"""``deckpress build DECK --for SHOP``: what a print shop takes, instead of print sheets.

``build`` hands over to :func:`build_for_shop` when ``--for`` is given. Every deck is
checked as ``build`` checks it, and against the shop's rules as ``check --for SHOP``
does (card size, safe zone, resolution, transparency, ink); a deck that fails is
listed with all its problems and nothing is written for it. Options that shape
print sheets (paper, margins, duplex, marks, drafts) mean nothing to a shop's file
and are refused with ``--for``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import click

from generator.cli.common import claim_output_name, counted, echo_error_lines, find_decks, given, print_problems, say
from generator.cli.sheet_options import CUT_FILE_OPTIONS, CUTTER_OPTIONS
from generator.errors import EXIT_OK, DeckpressError, plural
from generator.machine import usable_cores
from generator.verdict import verdict
from generator.verdict.checks import PRINT_CHECKS, check_rules

SHEET_OPTIONS = ("paper", "orientation", "duplex", "back_offset", "margin", "gutter", "bleed", "crop_marks",
                 "cut_lines", "draft", *CUTTER_OPTIONS, *CUT_FILE_OPTIONS)
"""``build`` options for print sheets, which a shop's file has no use for."""
FOR_HELP = ("Write what a print shop takes instead of print sheets: drivethrucards (one CMYK PDF/X-1a "
            "file a deck, OUT/<deck>.drivethrucards.pdf), thegamecrafter (a folder of 825x1125 px "
            "images, one a face), press-3mm (CMYK PDF/X-4 for any offset press, 3 mm bleed), or a "
            "preset of your own in the deck's or project's shops/ folder (or a path to one).")


CHECK_FOR_HELP = ("Also hold the deck to a print shop's rules, as build --for SHOP does: drivethrucards, "
                  "thegamecrafter, press-3mm, or a preset of your own in the deck's or project's shops/ "
                  "folder (or a path to one).")


def shop_option(help_text: str = FOR_HELP) -> Callable[[Callable], Callable]:
    """``--for SHOP``, shared by ``build`` (its default help) and ``check``, which writes nothing."""
    return click.option("--for", "shop", metavar="SHOP", default=None, help=help_text)


def refuse_sheet_options(context: click.Context) -> None:
    """A usage error (exit 2) for the first option given that shapes print sheets: with ``--for``
    it would mean nothing. ``check --for`` refuses them as ``build --for`` does."""
    sheet_options = [name for name in SHEET_OPTIONS if given(context, name)]
    if sheet_options:
        raise click.UsageError(f"--{sheet_options[0].replace('_', '-')} shapes print sheets; a shop's file "
                               "(--for) has its own size, bleed and page order")


def build_for_shop(decks: tuple[str, ...], shop: str, out_dir: Path, no_check: bool, lang: str | None,
                   quiet: bool) -> None:
    """Check every deck against the shop, then write what it takes; exit 1 (or 2) if any deck fails."""
    refuse_sheet_options(click.get_current_context())
    # The shops' modules bring pypdf and LittleCMS's transforms, which a plain build does without.
    from generator.shops.choice import ShopChoice  # noqa: PLC0415
    from generator.shops.press import press_for_shop, steps  # noqa: PLC0415
    from generator.verdict.shops import shop_check  # noqa: PLC0415

    choice = ShopChoice(shop, drawing=True)
    checks = [*(each for each in PRINT_CHECKS if not no_check or each is not check_rules), shop_check(choice)]
    ready = []
    exit_code = EXIT_OK
    claimed: dict[str, Path] = {}
    # The verdict's renderer keeps its plans; the shop's (shops.press.shop_renderer) draws with them.
    for path in find_decks(decks):
        outcome = verdict(path, lang=lang, checks=checks)
        if outcome.errors:
            print_problems(outcome, "nothing was built for it")
            exit_code = max(exit_code, outcome.exit_code)
            continue
        deck, renderer = outcome.deck, outcome.renderer
        assert deck is not None and renderer is not None, "a deck that passed its checks is loaded"
        claim_output_name(deck, claimed)
        preset = choice.preset(deck.folder)
        ready.append((renderer, preset, choice.inks(preset)))
    if exit_code != EXIT_OK:
        sys.exit(exit_code)
    total = sum(steps(renderer, preset) for renderer, preset, _ in ready)
    results = []
    with counted(total, "Building for the shop", quiet) as advance:
        for renderer, preset, inks in ready:
            try:
                results.append((preset, press_for_shop(renderer, preset, inks, out_dir, advance, usable_cores())))
            except DeckpressError as error:
                echo_error_lines(error)
                sys.exit(error.exit_code)
    if not quiet:
        for preset, result in results:
            made = plural(result.files, "page") if result.path.suffix == ".pdf" else plural(result.files, "image")
            say(f"wrote {result.path} ({made}, {plural(result.cards, 'card')}) for {preset.name}")

