"""``deckpress stats``: how a deck will play, in numbers and charts."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import click

from generator.cli.common import echo_error_lines, find_decks, lang_option, reports_errors, say, say_json
from generator.deck import load_deck
from generator.deck.model import Deck, deck_id
from generator.deck.selectors import command_line_selector, known_fields
from generator.deck.translation import translate_deck
from generator.errors import EXIT_OK, DeckpressError, InputError, Position, did_you_mean, printable
from generator.stats.analysis import DeckStats, Request, analyse, planned_games
from generator.stats.spec import MAX_DRAW, MAX_GAMES, Condition, Question
from generator.stats.tables import as_dict, render_text

REPORT_SUFFIXES = (".pdf", ".png")


@click.command()
@click.argument("decks", nargs=-1, type=click.Path())
@click.option("--by", "fields", multiple=True, metavar="FIELD",
              help="Break the composition down by FIELD (repeatable; back.FIELD for a card's own back). "
                   "Default: the deck's stats.composition, else its choice fields.")
@click.option("--draw", type=click.IntRange(1, MAX_DRAW), metavar="N",
              help="Ask: drawing N cards, how likely are at least K matching --where?")
@click.option("--where", "where", multiple=True, metavar="FIELD=VALUE",
              help="Cards the --draw question counts (repeatable, all must hold; "
                   "VALUE may list alternatives as a|b).")
@click.option("--at-least", "at_least", type=click.IntRange(0, MAX_DRAW), metavar="K",
              help="How many matching cards the --draw question wants (default 1).")
@click.option("--decklist", metavar="ID", help="Analyse this decklist only (decks with decklists).")
@click.option("--simulate", is_flag=True,
              help="Run the game simulation the deck file names. This runs the Python plugin in the "
                   "deck's folder: use it only for decks you trust.")
@click.option("--games", type=click.IntRange(1, MAX_GAMES), metavar="N", help="Games to simulate.")
@click.option("--seed", type=int, help="Seed of the simulation (same seed, same games).")
@click.option("--policy", metavar="NAME", help="How the simulated player plays (see the deck's plugin).")
@click.option("--report", "report", type=click.Path(), metavar="PATH",
              help="Also write a PDF and PNG report with charts: PATH.pdf and PATH.png for one deck "
                   "(PATH may end in .pdf); for several decks, or when PATH is an existing folder, "
                   "the folder PATH receiving DECK-stats.pdf and DECK-stats.png for each deck.")
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="json prints one object for tools to read.")
@lang_option
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@reports_errors
def stats(decks: tuple[str, ...], fields: tuple[str, ...], draw: int | None, where: tuple[str, ...],
          at_least: int | None, decklist: str | None, simulate: bool, games: int | None, seed: int | None,
          policy: str | None, report: str | None, output_format: str, lang: str | None,
          quiet: bool) -> None:
    """Statistics of decks: composition, exact draw odds, dice odds and simulations.

    DECKS are deck files or folders; by default every deck under cards/.
    Exit status: 0 done, 2 a file is unreadable or malformed (the other
    decks are still reported).
    Questions, dice and the simulation plugin are declared in each deck's
    stats: section; --draw/--where asks one more question from here.
    A simulation runs only with --simulate, because it executes the
    deck folder's own Python code.

    \b
    Examples:
      deckpress stats cards/cereal-killer
      deckpress stats cards/cereal-killer --draw 6 --where type=shelf-repair
      deckpress stats cards/goblins --simulate --games 5000 --seed 7
      deckpress stats cards/gold-rush --decklist fire-and-flood --format json
      deckpress stats --simulate --report build/stats
    """
    if draw is None:
        for given, option in ((where, "--where"), (at_least is not None, "--at-least")):
            if given:
                raise click.UsageError(f"{option} needs --draw N (how many cards are drawn)")
    at_least = 1 if at_least is None else at_least
    paths = find_decks(decks)
    targets = _report_targets(report, paths, lang)
    results = []
    exit_code = EXIT_OK
    for path in paths:
        try:
            deck = load_deck(path)
            translated = translate_deck(deck, lang)
            _check_fields(deck, fields)
            request = Request(fields=fields, questions=_command_line_question(deck, draw, where, at_least),
                              decklist=decklist, simulate=simulate, games=games, seed=seed, policy=policy)
            planned = planned_games(deck, request)
            with click.progressbar(length=planned, label=printable(f"simulating {deck.id}"), file=sys.stderr,
                                   hidden=quiet or planned == 0) as bar:
                # The numbers are the deck's as written (a plugin may read its card texts);
                # only the report speaks the translation's language.
                deck_stats = dataclasses.replace(analyse(deck, request, on_game=bar.update), deck=translated)
            if targets:
                _write_report(deck_stats, targets[path])
        except DeckpressError as error:  # report it and go on with the other decks
            exit_code = max(exit_code, error.exit_code)
            results.append({"file": str(path), "error": str(error)})
            echo_error_lines(error)
            continue
        results.append(as_dict(deck_stats))
        if output_format == "text":
            if len(results) > 1:
                say()
            for line in render_text(deck_stats):
                say(line)
    if output_format == "json":
        say_json({"decks": results})
    sys.exit(exit_code)


def _check_fields(deck: Deck, fields: tuple[str, ...]) -> None:
    known = known_fields(deck)
    for name in fields:
        if name not in known:
            raise InputError(f"--by names unknown field '{name}'{did_you_mean(name, known)}",
                             Position(deck.path), field=name)


def _command_line_question(deck: Deck, draw: int | None, where: tuple[str, ...],
                           at_least: int) -> tuple[Question, ...]:
    if draw is None:
        return ()
    selector = command_line_selector(where, deck, "--where")
    condition = Condition(where=selector, at_least=at_least)
    question = Question(name=f"{condition.describe()} in {draw} cards", draw=draw, needs=(condition,),
                        position=Position(Path("--draw")))
    return (question,)


def _report_targets(report: str | None, paths: list[Path], lang: str | None = None) -> dict[Path, Path]:
    """Where each deck's report goes, without suffix: PATH itself for one deck (its .pdf
    or .png dropped), else PATH/<deck>-stats (``<deck>-stats.<lang>`` translated) in the folder PATH."""
    if report is None:
        return {}
    target = Path(report)
    if target.suffix.lower() in REPORT_SUFFIXES:
        if len(paths) > 1:
            raise click.BadParameter("name a folder when reporting on several decks", param_hint="--report")
        return {paths[0]: target.with_suffix("")}
    if len(paths) == 1 and not target.is_dir():
        return {paths[0]: target}
    suffix = f".{lang}" if lang else ""
    return {path: target / f"{deck_id(path)}-stats{suffix}" for path in paths}


def _write_report(deck_stats: DeckStats, stem: Path) -> None:
    from generator.stats.report import write_report  # noqa: PLC0415  (reportlab's charts and pdfium: --report only)

    # Appended, not swapped in: 'stats.v2' gives 'stats.v2.pdf', not 'stats.pdf'.
    write_report(deck_stats, stem.parent / f"{stem.name}.pdf", stem.parent / f"{stem.name}.png")

