"""The ``deckpress`` command line: parse options, call the stages, print, pick exit codes.

Each command lives in its own module beside this one and is listed in
:data:`COMMANDS`: its name, where it lives and its one-line summary. A command's
module is imported only when that command runs (or its own ``--help`` is
asked for), so ``deckpress check`` never pays for the PDF and booklet
libraries that only ``build`` and ``booklet`` need. ``deckpress --help``
lists every command from the table alone, without importing any of them.
"""

from __future__ import annotations

import gc
import importlib
import os
import signal
import sys
from typing import NamedTuple

import click

from generator import __version__


class CommandEntry(NamedTuple):
    """One row of the command table."""

    name: str
    """What the user types: ``deckpress <name>``."""
    target: str
    """``module:function`` of the click command."""
    summary: str
    """The first sentence of the command's help, shown by ``deckpress --help``."""
    runs_until_stopped: bool = False
    """True for ``watch`` and ``serve``: they remake their work on every save and let the old
    go, so Python's collector keeps its usual rhythm for them (see :func:`load_command`)."""


# In the order a designer meets them: start, check, print, then the extras.
COMMANDS = (
    CommandEntry("new", "generator.cli.new:new",
                 "Create cards/NAME/ with a deck, a layout and rules that work at once."),
    CommandEntry("check", "generator.cli.check:check",
                 "Check decks completely, before any paper is spent."),
    CommandEntry("build", "generator.cli.build:build",
                 "Write print-ready PDF sheets and a layout manifest for each deck."),
    CommandEntry("preflight", "generator.cli.preflight:preflight_command",
                 "Read PDFs and list, page by page, what a print shop would reject."),
    CommandEntry("booklet", "generator.cli.booklet:booklet",
                 "Write each deck's rules booklet from the rules.md beside its deck file."),
    CommandEntry("calibrate", "generator.cli.calibrate:calibrate",
                 "Write a calibration sheet that measures how far your printer shifts back pages."),
    CommandEntry("diff", "generator.cli.diff:diff",
                 "What changed between two iterations of a deck."),
    CommandEntry("stats", "generator.cli.stats:stats",
                 "Statistics of decks: composition, exact draw odds, dice odds and simulations."),
    CommandEntry("export", "generator.cli.export:export",
                 "Export one deck as card images and/or a Tabletop Simulator deck."),
    CommandEntry("import", "generator.cli.import_cmd:import_command",
                 "Turn a CSV or XLSX card list (or a JSON or YAML card file) into a deck file."),
    CommandEntry("watch", "generator.cli.watch:watch",
                 "Rebuild DECK's print PDF (and rules booklet) whenever its files change.",
                 runs_until_stopped=True),
    CommandEntry("serve", "generator.cli.serve:serve",
                 "Show DECKS in the browser and update the page on every save.", runs_until_stopped=True),
    CommandEntry("schema", "generator.cli.schema:schema",
                 "Print the JSON Schema for deck files (or layout files)."),
)


FULL_COLLECTION_EVERY = 1000
"""Collections of the middle generation between two full ones (Python's default is 10).
A large build otherwise spends a noticeable share of its time in full collections that
free next to nothing."""

YOUNG_COLLECTION_EVERY = 100_000
"""New objects between two collections of the youngest generation (Python's default is 700).
Nearly all of a command's garbage is freed as soon as it is dropped, without the
collector; each young collection walks what has not been, most of it kept to the end,
so collecting rarely leaves almost nothing unfreed that collecting often would free."""


def load_command(entry: CommandEntry) -> click.Command:
    """Import the command's module and return its click command.

    Importing a command makes tens of thousands of objects that live as long as the
    process. The garbage collector is paused while they are made, then told to leave
    them be (``gc.freeze``), so that no later collection walks them again.

    A command's own work then keeps most of what it makes to its end (the deck, its
    plans, the PDF's forms), so collections, which walk what is kept, are made rarely
    (:data:`YOUNG_COLLECTION_EVERY`, :data:`FULL_COLLECTION_EVERY`). Commands that run
    until stopped (``watch``, ``serve``) drop what each save made when the next one
    comes, and keep Python's usual collections.
    """
    module_name, attribute = entry.target.split(":")
    if module_name in sys.modules:  # imported before: nothing new to leave be
        return getattr(sys.modules[module_name], attribute)
    collecting = gc.isenabled()
    gc.disable()
    try:
        module = importlib.import_module(module_name)
    finally:
        if collecting:
            gc.enable()
    gc.freeze()
    if not entry.runs_until_stopped:
        _, middle, _ = gc.get_threshold()
        gc.set_threshold(YOUNG_COLLECTION_EVERY, middle, FULL_COLLECTION_EVERY)
    return getattr(module, attribute)


def stopped_exit_code(stop: KeyboardInterrupt) -> int:
    """128 plus the number of the signal that stopped the command: SIGINT (Ctrl-C) unless
    the interrupt names another, as ``generator.__main__`` raises it for SIGTERM and SIGHUP."""
    name = stop.args[0] if stop.args and isinstance(stop.args[0], str) else "SIGINT"
    number = getattr(signal.Signals, name, signal.SIGINT)
    return 128 + int(number)


class LazyGroup(click.Group):
    """Commands from :data:`COMMANDS`, in its order, each imported when first used."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._entries = {entry.name: entry for entry in COMMANDS}

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(self._entries)

    def invoke(self, ctx: click.Context) -> object:
        """Run the command; one stopped by Ctrl-C or a signal exits as a shell reports it,
        128 plus the signal's number (130 for Ctrl-C), never 1, which means the deck broke
        its rules."""
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt as stop:
            click.echo(err=True)  # closes the terminal's ^C echo, as click does
            click.echo("Aborted!", err=True)
            raise click.exceptions.Exit(stopped_exit_code(stop)) from None
        except BrokenPipeError:
            # `deckpress check | head -1`: the reader has what it wanted. Nothing more can be said
            # on stdout (Python would complain as it flushes it at exit), and the status is what a
            # shell reports for a program SIGPIPE stopped, never 2, which means a malformed file.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            raise click.exceptions.Exit(128 + int(signal.SIGPIPE)) from None

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in self.commands and name in self._entries:
            self.add_command(load_command(self._entries[name]), name)
        return self.commands.get(name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The command list of ``--help``, from the table's summaries (nothing imported).

        Each summary is shortened to the width left, as click shortens a command's own help.
        """
        names = self.list_commands(ctx)
        limit = formatter.width - 6 - max(map(len, names))
        rows = [(name, click.Command(name, help=self._entries[name].summary).get_short_help_str(limit))
                for name in names]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="deckpress")
def cli() -> None:
    """Check card decks against their rules and print them as duplex-ready PDFs.

    \b
    Examples:
      deckpress new space-race        start a new game in cards/space-race/
      deckpress check                 check every deck under cards/ against its rules
      deckpress build                 print sheets and manifests into build/
      deckpress build cards/tiki --for drivethrucards   the file a print shop takes
      deckpress booklet cards/tiki    the Tiki rules booklet, to read and to fold
      deckpress calibrate             measure your printer's front/back offset
      deckpress watch cards/tiki      rebuild on every save
      deckpress serve --open          see every card in the browser as you edit

    Each command has its own --help with examples. Exit status: 0 success,
    1 a deck breaks its rules or a card cannot be laid out, 2 unreadable or
    malformed input, 130 stopped by Ctrl-C (128 plus the signal's number for
    another signal that stops it; 141 when the program reading the output quits).
    """


def main() -> None:
    try:
        cli(prog_name="deckpress")
    finally:
        # Python's last collection as it exits walks everything still alive, all of it
        # about to be freed anyway. Frozen objects are not walked.
        gc.freeze()
