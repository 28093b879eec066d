"""Pieces every command shares: finding decks, reporting errors, exit codes."""

from __future__ import annotations

import contextlib
import functools
import json
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import click
from click.core import ParameterSource

from generator.deck.model import DECK_FILENAME, deck_id
from generator.errors import EXIT_INPUT, DeckpressError, InputError, Position, each_error, printable, printable_json

DEFAULT_DECKS_DIR = Path("cards")


def find_decks(targets: Iterable[str], distinct_names: bool = True) -> list[Path]:
    """Deck files named on the command line; a folder of decks means every deck in it.

    With no targets, every deck under ``cards/`` in the current directory. A deck
    named twice is read once. Outputs are named after the deck (``OUT/game.pdf``
    for ``a/x/game/``), so two different decks with one name would overwrite each
    other's files: unless ``distinct_names`` is False (for commands that write
    nothing), that is refused before any work starts.
    """
    targets = list(targets) or [str(DEFAULT_DECKS_DIR)]
    found: list[Path] = []
    for target in map(Path, targets):
        if target.is_file():
            found.append(target)
        elif (target / DECK_FILENAME).is_file():
            found.append(target / DECK_FILENAME)
        elif target.is_dir():
            decks = sorted(target.glob(f"*/{DECK_FILENAME}"))
            if not decks:
                raise InputError(f"no {DECK_FILENAME} in this folder or its subfolders", Position(target))
            found.extend(decks)
        elif target.exists():
            raise InputError("is not a deck file or folder (a device, pipe or socket)", Position(target))
        else:
            raise InputError("no such deck file or folder", Position(target))
    unique: dict[Path, Path] = {}
    for path in found:
        unique.setdefault(path.resolve(), path)  # a deck named twice is read once, in first place
    found = list(unique.values())
    if distinct_names:
        _refuse_shared_names(found)
    return found


def _refuse_shared_names(paths: list[Path]) -> None:
    first_with: dict[str, Path] = {}
    for path in paths:
        name = deck_id(path)
        if name in first_with:
            raise InputError(f"deck '{name}' has the same name as {first_with[name]}, so their output "
                             "files would overwrite each other; name them in separate runs or rename "
                             "one folder", Position(path))
        first_with[name] = path


def claim_output_name(deck, claimed: dict[str, Path]) -> None:
    """Refuse ``deck`` when an earlier deck of this run writes files of the same name.

    :func:`find_decks` refuses two folders of one name before any work; a deck's own
    ``deck: id:`` is known only once it is read, so each command claims the names as it
    reads its decks, before writing.
    """
    first = claimed.setdefault(deck.output_name, deck.source.path)
    if first != deck.source.path:
        raise InputError(f"deck id '{deck.id}' is also the id of {first}, so their output files would "
                         "overwrite each other; give one of them another deck: id:",
                         deck.source.at("deck", "id"), field="id")


def lang_option(command: Callable | None = None, *, allow_all: bool = False) -> Callable:
    """``--lang CODE``: work on the deck's translation ``lang/CODE.yaml`` (``all`` too, if allowed)."""
    extra = " 'all' checks the deck as written and then every translation it has." if allow_all else ""

    def check(context: click.Context, parameter: click.Parameter, value: str | None) -> str | None:
        if value is None:  # no --lang: the translations' module is not even loaded
            return None
        from generator.deck.translation import ALL_LANGUAGES, CODE_PATTERN  # noqa: PLC0415  (only --lang needs it)

        if value == ALL_LANGUAGES and not allow_all:
            raise click.BadParameter("--lang all is for check only; name one language here")
        if value == ALL_LANGUAGES or CODE_PATTERN.match(value):
            return value
        raise click.BadParameter(f"'{printable(value)}' is not a language code such as fr, de or pt-BR")

    # --lang all is check's, which writes no files
    named = "" if allow_all else "; files written are named <deck>.CODE.pdf and so on"
    help_text = f"Use the deck's translation lang/CODE.yaml (its texts in that language){named}.{extra}"

    def decorate(function: Callable) -> Callable:
        return click.option("--lang", metavar="CODE", callback=check, help=help_text)(function)

    return decorate(command) if command is not None else decorate


def given(context: click.Context, name: str) -> bool:
    """Whether the command line gave the option ``name`` rather than leaving it at its default."""
    return name in context.params and context.get_parameter_source(name) not in (
        ParameterSource.DEFAULT, ParameterSource.DEFAULT_MAP)


def echo_error_lines(error: DeckpressError) -> None:
    """``error: path:line:column: message`` on stderr; a group of problems gives one such line each."""
    for each in each_error(error):
        echo_error(f"error: {each}")


def print_problems(outcome, not_done: str) -> None:
    """A verdict's problems on stderr, one line each (``error: path:line:column: ...``),
    after a line saying what was not done when there are several."""
    errors = outcome.errors
    if len(errors) > 1:
        name = f"deck '{outcome.deck.id}'" if outcome.deck is not None else str(outcome.path)
        echo_error(f"error: {name} has {len(errors)} problems; {not_done}")
    for finding in outcome.findings:
        echo_error(f"error: {finding.line()}" if finding.is_error else finding.line())


KEPT_CONTROLS = "\t"
"""What a line of a command's output keeps of the control characters: tabs. A line break in
it is written as ``\n``: a deck's name, a preset's or a PDF's may hold one, and printed as it
is it would start a line of its own (``error: ...``) that the tool never wrote."""


def echo_error(message: str) -> None:
    """One line on stderr, in red on a terminal and plain in a pipe (control characters
    escaped, as :func:`say` does)."""
    click.secho(printable(message, keep=KEPT_CONTROLS), fg="red", err=True)


def say(message: str = "", err: bool = False, nl: bool = True) -> None:
    """Print one line of a command's output (click.echo) with every control character but tabs
    escaped, line breaks too: summaries and reports name decks and cards, whose text is input.
    Several lines are several calls."""
    click.echo(printable(message, keep=KEPT_CONTROLS), err=err, nl=nl)


def say_json(data: object) -> None:
    """Print ``data`` as indented JSON, non-ASCII kept as it is, with the controls JSON leaves raw in
    strings escaped as ``\\u`` (same data)."""
    click.echo(printable_json(json.dumps(data, indent=2, ensure_ascii=False)))


def reports_errors(command: Callable) -> Callable:
    """Turn a stage's :class:`DeckpressError` into one line on stderr and its exit code."""

    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except DeckpressError as error:
            echo_error_lines(error)
            sys.exit(error.exit_code)
        except BrokenPipeError:
            raise  # the reader of the output went away: the command group ends it (SIGPIPE's status)
        except OSError as error:
            name = f"{error.filename}: " if error.filename else ""
            echo_error(f"error: {name}{error.strerror or error}")
            sys.exit(EXIT_INPUT)

    return wrapper


@contextlib.contextmanager
def counted(steps: int, label: str, quiet: bool) -> Iterator[Callable[[], None]]:
    """A progress bar on stderr counting ``steps`` under ``label`` (nothing at all when quiet);
    yields what counts one step."""
    with click.progressbar(length=steps, label=label, file=sys.stderr, show_pos=True, hidden=quiet) as bar:
        yield lambda: bar.update(1)
