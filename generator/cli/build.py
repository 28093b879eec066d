"""``deckpress build``: print-ready PDF sheets and a layout manifest for each deck."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from generator.cli.common import (
    claim_output_name,
    counted,
    echo_error,
    echo_error_lines,
    find_decks,
    lang_option,
    print_problems,
    reports_errors,
    say,
)
from generator.cli.runs import (
    check_revision,
    instruction_lines,
    print_run,
    printed_copy,
    run_request,
    say_nothing_to_reprint,
    warn_if_printed_otherwise,
)
from generator.cli.sheet_options import (
    CutterChoice,
    cutter_options,
    paper_options,
    parse_distance,
    parse_offset,
    resolve_paper,
)
from generator.cli.shop import build_for_shop, shop_option
from generator.deck import Deck
from generator.errors import EXIT_OK, DeckpressError, page_ranges, plural
from generator.findings import Finding
from generator.iterations.fingerprints import deck_record
from generator.render import Renderer, load_renderer
from generator.sheets.geometry import (
    DUPLEX_MODES,
    MAX_BACK_OFFSET_MM,
    SheetLayout,
    SheetSettings,
    SheetSettingsError,
    sheet_layout,
)
from generator.sheets.manifest import DeckRecord
from generator.sheets.press import output_files, press_deck
from generator.sheets.renderer import CardRenderer
from generator.sheets.style import MM, load_style
from generator.verdict import verdict
from generator.verdict.checks import DRAFT_CHECKS, PRINT_CHECKS, check_rules

DUPLEX_HELP = ("long: backs follow each front page, mirrored across the long edge (columns on a "
               "portrait page, rows on a landscape one; flip on long edge); short: mirrored across "
               "the short edge (flip on short edge); fold: fronts and backs on one page, "
               "fold and glue (backs below a fold across the page print upside down, so they read "
               "upright once folded); none: fronts only, backs on pages at the end.")


@click.command()
@click.argument("decks", nargs=-1, type=click.Path())
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=Path("build"),
              show_default=True, help="Folder for <deck>.pdf and its manifest <deck>.json.")
@paper_options
@click.option("--duplex", type=click.Choice(DUPLEX_MODES), default="long", show_default=True,
              help=DUPLEX_HELP)
@click.option("--back-offset", default="0,0", callback=parse_offset, metavar="X,Y",
              help="Shift every back by X,Y mm to correct a printer that misaligns the two sides. "
                   "Positive X moves backs right, positive Y moves them up, as seen looking at "
                   f"the back page. Each part at most {MAX_BACK_OFFSET_MM:g} mm either way, and "
                   "no back may leave its page (or, folding, its half). `deckpress calibrate` "
                   "measures it.")
@click.option("--margin", type=float, default=None, metavar="MM", callback=parse_distance,
              help="Least distance from the paper edge to any card [default: 5].")
@click.option("--gutter", type=float, default=None, metavar="MM", callback=parse_distance,
              help="Space between neighbouring cards [default: 0]; with --bleed, widened to at "
                   "least twice the bleed so no card's bleed prints over its neighbour.")
@click.option("--bleed/--no-bleed", default=False, show_default=True,
              help="Print each card's artwork past its cut edge, so a slightly-off cut shows no white. "
                   "The gutter grows to twice the bleed if it is narrower.")
@click.option("--crop-marks/--no-crop-marks", default=True, show_default=True,
              help="Short guide lines in the margins, in line with every cut.")
@click.option("--cut-lines/--no-cut-lines", default=False, show_default=True,
              help="Thin lines along every card edge, for cutting with scissors.")
@click.option("--no-check", is_flag=True, help="Skip the deck's rules check (the layout is still validated).")
@click.option("--draft", is_flag=True,
              help="Print for playtesting even when rules break or text does not fit: such text is "
                   "printed at its smallest size, cut off at its box and marked in red, every page "
                   "says DRAFT, the manifest says \"draft\": true, and the problems are listed "
                   "(exit 0). A file that cannot be read still stops it.")
@click.option("--only", "only", multiple=True, metavar="FIELD=VALUE",
              help="Print only the cards this selector picks, in the where: words of rules: type=monster, "
                   "id=imp,ember-imp (several values: any of them). Repeatable: all must hold. Written to "
                   "OUT/<deck>.only.pdf.")
@click.option("--changed-since", "changed_since", metavar="REV",
              help="Print only what a copy printed at the git revision REV lacks: every copy of a card that "
                   "is new or prints differently, the added copies of a card whose count went up; first "
                   "pages say what to take out of the printed deck. Written to OUT/<deck>.reprint.pdf.")
@click.option("--changed-from", "changed_from", metavar="OLD.json",
              type=click.Path(dir_okay=False, path_type=Path),
              help="As --changed-since, for a deck not in git: the printed copy is the one whose build "
                   "wrote the manifest OLD.json.")
@lang_option
@shop_option()
@click.option("--quiet", "-q", is_flag=True, help="No progress bar and no summary.")
@reports_errors
@cutter_options
def build(decks: tuple[str, ...], out_dir: Path, paper: str | None, orientation: str, duplex: str,
          back_offset: tuple[float, float], margin: float | None, gutter: float | None, bleed: bool,
          crop_marks: bool, cut_lines: bool, no_check: bool, draft: bool, only: tuple[str, ...],
          changed_since: str | None, changed_from: Path | None, lang: str | None,
          shop: str | None, quiet: bool, cutting: CutterChoice) -> None:
    """Write print-ready PDF sheets and a layout manifest for each deck.

    DECKS are deck files or folders; by default every deck under cards/.
    Each deck becomes OUT/<deck>.pdf and OUT/<deck>.json; with --duplex
    short, fold or none, OUT/<deck>.short.pdf and so on, so one deck built
    for several printers keeps every file. Every deck is checked against its
    rules and every face laid out before anything is written: if one fails,
    the build prints every problem, stops with exit status 1 and writes
    nothing (unless --draft).

    \b
    Examples:
      deckpress build
      deckpress build cards/tiki --paper letter --duplex short
      deckpress build --duplex fold --cut-lines
      deckpress build --back-offset 0.5,-1.2
      deckpress build cards/tiki --lang fr
      deckpress build cards/tiki --draft
      deckpress build cards/tiki --cutter silhouette --cut-file svg
      deckpress build cards/tiki --for drivethrucards
      deckpress build cards/tiki --only type=monster
      deckpress build cards/tiki --changed-since HEAD
      deckpress build my-deck --changed-from printed/my-deck.json
    """
    request = run_request(only, changed_since, changed_from, decks, lang, shop)
    if shop is not None:  # a print shop's file instead of sheets (cli/shop.py)
        return build_for_shop(decks, shop, out_dir, no_check, lang, quiet)
    style = load_style()
    settings = SheetSettings(
        paper=resolve_paper(style, paper, orientation),
        duplex=duplex,
        margin=style.default_margin if margin is None else margin * MM,
        gutter=style.default_gutter if gutter is None else gutter * MM,
        bleed=bleed,
        back_offset=back_offset,
        crop_marks=crop_marks,
        cut_lines=cut_lines,
        draft=draft,
    )
    settings = cutting.applied_to(settings)  # --cutter, --cut-file and their options
    printed = printed_copy(request, style)
    paths = find_decks(decks)
    check_revision(request, paths)
    ready, exit_code = prepare_decks(paths, settings, check=not no_check, lang=lang)
    if exit_code != EXIT_OK:
        sys.exit(exit_code)
    if printed is not None and ready:  # one deck, laid out: its paper is the one a cutter chose
        warn_if_printed_otherwise(printed, ready[0][2])
    runs = {deck.id: print_run(request, printed, deck, renderer, quiet) for deck, renderer, _ in ready}
    pressed = []
    for deck, renderer, layout in ready:
        run = runs[deck.id]
        if run is not None and run.instructions is not None and not run.cards:
            if not quiet:
                say_nothing_to_reprint(deck, run.instructions)
            # An earlier reprint's sheets would tell of changes the printed copy now has; unless
            # it is the reprint whose manifest was given, which is the printed copy's record.
            stale_files = output_files(deck, out_dir, settings.duplex, run.part)
            if request.manifest is not None and _same_file(request.manifest, stale_files):
                continue
            for stale in stale_files:
                if stale.is_file():
                    stale.unlink()
                    if not quiet:
                        say(f"  removed {stale}, an earlier reprint's")
            continue
        pressed.append((deck, renderer, layout, run))
    total_pages = sum(layout.page_count(deck.total if run is None else run.cards) for deck, _, layout, run in pressed)
    results = []
    with counted(total_pages, "Building sheets", quiet or not pressed) as advance:
        for deck, renderer, _, run in pressed:
            results.append((deck, run, press_deck(deck, renderer, settings, out_dir, style,
                                                  on_page=lambda page: advance(), run=run,
                                                  record=_record(deck, renderer))))
    if not quiet:
        for deck, run, result in results:
            if run is not None and run.instructions is not None:
                say(f"deck '{deck.id}': reprint {run.instructions.basis_text()}, "
                    f"{plural(result.instruction_pages, 'page')} of instructions first")
                for line in instruction_lines(run.instructions):
                    say(line)
            say(f"wrote {result.pdf} ({plural(result.pages, 'page')}, {plural(result.cards, 'card')}) "
                f"and {result.manifest}" + (f" and {result.cut_file}" if result.cut_file else ""))
            if result.pages_without_footer:
                say(f"note: no footer (page number, how to flip) on {page_ranges(result.pages_without_footer)}: "
                    "the cards leave it no room; a larger --margin keeps it")


def _same_file(path: Path, files: list[Path]) -> bool:
    """Whether ``path`` names one of ``files`` (through any link or relative path)."""
    return any(file.is_file() and path.is_file() and file.samefile(path) for file in files)


def prepare_decks(paths: list[Path], settings: SheetSettings, check: bool,
                  lang: str | None = None) -> tuple[list[tuple[Deck, Renderer, SheetLayout]], int]:
    """Load, check and lay out every deck (every face of it, in translation ``lang``) before
    any file is written. A draft (``settings.draft``) goes ahead despite broken rules, text
    that does not fit and untranslated texts, listing them.

    Returns the decks ready to build and the exit status: anything but 0
    means at least one deck failed and all its problems were printed.
    """
    checks = [each for each in (DRAFT_CHECKS if settings.draft else PRINT_CHECKS) if check or each is not check_rules]
    ready = []
    exit_code = EXIT_OK
    claimed: dict[str, Path] = {}
    for path in paths:
        # The sheets draw each face once: forget_drawn lets each plan go once it is drawn.
        outcome = verdict(path, lang=lang, checks=checks,
                          load_renderer=lambda deck: load_renderer(deck, draft=settings.draft, stamp_version=True,
                                                                   forget_drawn=True))
        if outcome.errors and not (settings.draft and all(map(drafts_despite, outcome.errors))):
            print_problems(outcome, "nothing was built")
            exit_code = max(exit_code, outcome.exit_code)
            continue
        deck, renderer = outcome.deck, outcome.renderer
        assert deck is not None and renderer is not None, "a deck whose checks let it print is loaded and laid out"
        if outcome.errors:
            echo_error(f"note: deck '{deck.id}' has {plural(len(outcome.errors), 'problem')}; "
                       "printing a draft all the same")
            for finding in outcome.findings:
                echo_error(finding.line())
        claim_output_name(deck, claimed)
        try:
            ready.append((deck, renderer, sheet_layout(deck, renderer, settings)))
        except SheetSettingsError:
            raise  # the options are wrong, not this deck: say it once, not once a deck
        except DeckpressError as error:
            echo_error_lines(error)
            exit_code = max(exit_code, error.exit_code)
    return ready, exit_code


def _record(deck: Deck, renderer: CardRenderer) -> DeckRecord | None:
    """Every card's face fingerprints for the manifest, from a renderer that can say what each face
    draws (a layouts' :class:`Renderer`; the sheets draw with any card renderer, which has no record)."""
    return deck_record(deck, renderer) if isinstance(renderer, Renderer) else None


def drafts_despite(finding: Finding) -> bool:
    """Whether a draft prints in spite of this problem: a broken rule, an untranslated text,
    or text that does not fit (printed small, cut off and marked)."""
    return finding.kind in ("rule", "translation") or bool(finding.details.get("drafted"))

