"""The ``deckpress`` command line: parse options, call the stages, print, pick exit codes.

Each command lives in its own module beside this one and is registered below,
so the stages stay free of printing and exit codes.
"""

from __future__ import annotations

import click

from generator import __version__
from generator.cli.booklet import booklet
from generator.cli.build import build
from generator.cli.calibrate import calibrate
from generator.cli.check import check
from generator.cli.export import export
from generator.cli.import_cmd import import_command
from generator.cli.new import new
from generator.cli.schema import schema
from generator.cli.stats import stats


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="deckpress")
def cli() -> None:
    """Check card decks against their rules and print them as duplex-ready PDFs.

    \b
    Examples:
      deckpress check                 check every deck under cards/
      deckpress check cards/tiki      check one deck
    """


cli.add_command(check)
cli.add_command(build)
cli.add_command(calibrate)
cli.add_command(import_command)
cli.add_command(new)
cli.add_command(schema)
cli.add_command(stats)
cli.add_command(booklet)
cli.add_command(export)


def main() -> None:
    cli(prog_name="deckpress")
