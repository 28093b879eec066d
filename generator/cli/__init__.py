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
from generator.cli.serve import serve
from generator.cli.stats import stats
from generator.cli.watch import watch

# In the order a designer meets them: start, check, print, then the extras.
COMMANDS = (new, check, build, booklet, calibrate, stats, export, import_command, watch, serve, schema)


class InOrderGroup(click.Group):
    """Lists commands in the order above in --help, not alphabetically."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(self.commands)


@click.group(cls=InOrderGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="deckpress")
def cli() -> None:
    """Check card decks against their rules and print them as duplex-ready PDFs.

    \b
    Examples:
      deckpress new space-race        start a new game in cards/space-race/
      deckpress check                 check every deck under cards/ against its rules
      deckpress build                 print sheets and manifests into build/
      deckpress booklet cards/tiki    the Tiki rules booklet, to read and to fold
      deckpress calibrate             measure your printer's front/back offset
      deckpress watch cards/tiki      rebuild on every save
      deckpress serve --open          see every card in the browser as you edit

    Each command has its own --help with examples. Exit status: 0 success,
    1 a deck breaks its rules or a card cannot be laid out, 2 unreadable or
    malformed input.
    """


for command in COMMANDS:
    cli.add_command(command)


def main() -> None:
    cli(prog_name="deckpress")
