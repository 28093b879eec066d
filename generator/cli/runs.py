"""``build --only``, ``--changed-since`` and ``--changed-from``: which copies a build prints.

Each deck's :class:`~generator.sheets.instructions.PrintRun` is worked out after every deck
is checked and laid out and before any file is written, so a bad revision, a manifest that
cannot be compared or a selector that picks nothing stops the build with nothing half-done.
A reprint's comparison is :mod:`generator.cli.reprinting`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import click

from generator.cli.common import echo_error, say
from generator.deck import Deck
from generator.deck.selectors import command_line_entries, command_line_selector
from generator.errors import InputError, Position, plural, printable
from generator.iterations.fingerprints import PrintedCopy, read_manifest_record
from generator.iterations.revision import revision_of
from generator.render import Renderer
from generator.sheets.geometry import SheetLayout
from generator.sheets.instructions import Entry, Instructions, PrintRun
from generator.sheets.manifest import back_offset_mm
from generator.sheets.style import SheetStyle


@dataclass(frozen=True, eq=False, repr=False)
class RunRequest:
    """What the command line asked to print, when not every copy."""

    only: tuple[str, ...] = ()
    since: str | None = None
    manifest: Path | None = None


def run_request(only: tuple[str, ...], since: str | None, manifest: Path | None, decks: tuple[str, ...],
                lang: str | None, shop: str | None) -> RunRequest:
    """The options checked together; combinations that cannot work are usage errors (exit 2)."""
    request = RunRequest(only, since, manifest)
    asked = [name for name, given in (("--only", only), ("--changed-since", since is not None),
                                      ("--changed-from", manifest is not None)) if given]
    if len(asked) > 1:
        raise click.UsageError(f"{' and '.join(asked)} choose the copies to print in two ways; give one")
    if asked and shop is not None:
        raise click.UsageError(f"{asked[0]} prints sheets; a print shop's file (--for) holds the whole deck")
    if since is not None and lang is not None:
        raise click.UsageError("--changed-since compares the deck as written, not a translation; build the "
                               "translation with --changed-from and the manifest of its last build")
    if manifest is not None and len(decks) != 1:
        raise click.UsageError("--changed-from compares one deck with the manifest of its last build: name one deck")
    command_line_entries(only, "--only")  # a selector that is not FIELD=VALUE is said before any deck is read
    return request


def check_revision(request: RunRequest, paths: list[Path]) -> None:
    """A revision that is not there, said before any deck is checked (InputError, exit 2)."""
    if request.since is not None:
        for path in paths:
            revision_of(path, request.since)


def printed_copy(request: RunRequest, style: SheetStyle) -> PrintedCopy | None:
    """The manifest ``--changed-from`` names, read before any deck is (its errors come first);
    its paper must be one of ``style``'s or a size, as ``--paper`` takes."""
    return read_manifest_record(request.manifest, style) if request.manifest is not None else None


def warn_if_printed_otherwise(printed: PrintedCopy, layout: SheetLayout) -> None:
    """A note on stderr when the manifest's copy was printed otherwise than this reprint's
    sheets are laid out (``layout``, after a cutter has chosen its orientation): other paper,
    orientation, duplex, bleed or back offset. Its cards would not match the printed ones,
    or its backs would not line up as theirs did; the note gives the options that match."""
    settings = layout.settings
    differs = [option for option, was, now in (
        (f"--paper {printable(printed.paper or '')}", printed.paper, settings.paper.name),
        (f"--orientation {printed.orientation}", printed.orientation, settings.paper.orientation),
        (f"--duplex {printable(printed.duplex or '')}", printed.duplex, settings.duplex),
        ("--bleed" if printed.bleed else "--no-bleed", printed.bleed, layout.bleed > 0),
        ("--back-offset {:g},{:g}".format(*(printed.back_offset_mm or (0, 0))), printed.back_offset_mm,
         back_offset_mm(layout)),
    ) if was is not None and was != now]
    if differs:
        echo_error(f"note: the printed copy was built with {' '.join(differs)}; give the same for sheets "
                   "that match it")


def print_run(request: RunRequest, printed: PrintedCopy | None, deck: Deck, renderer: Renderer,
              quiet: bool) -> PrintRun | None:
    """The copies of ``deck`` to print (None: every copy). Raises InputError when the copies
    cannot be chosen; returns a run of no copies when there is nothing to reprint."""
    if request.only:
        selector = command_line_selector(request.only, deck, "--only")
        copies = {card.id: tuple(range(1, card.count + 1)) for card in deck.cards
                  if card.count and selector.matches(card)}
        if not copies:
            raise InputError(f"--only {printable(' '.join(request.only))} matches no card of deck '{deck.id}'; "
                             "nothing was built", Position(deck.path), field="only")
        return PrintRun(copies, "only", only=request.only)
    if request.since is not None or printed is not None:
        # Only a reprint compares two decks; the comparison (and the deck's statistics it
        # answers again) would otherwise load at the start of every build.
        from generator.cli.reprinting import reprint_run  # noqa: PLC0415
        return reprint_run(request, printed, deck, renderer, quiet)
    return None


def instruction_lines(instructions: Instructions) -> list[str]:
    """What the reprint's first page says, in a few lines of the build's summary."""
    lines = []
    if instructions.take_out:
        lines.append(_entries_line("take out", instructions.cards_taken_out, instructions.take_out))
    if instructions.add:
        lines.append(_entries_line("the new sheets add", instructions.cards_added, instructions.add))
    return lines


def _entries_line(what: str, cards: int, entries: Sequence[Entry]) -> str:
    listed = ", ".join(f"{entry.title} x{entry.copies} ({entry.why})" for entry in entries)
    return f"  {what} {plural(cards, 'card')}: {listed}"


def say_nothing_to_reprint(deck: Deck, instructions: Instructions) -> None:
    """The summary of a reprint with no card to print: no PDF, and what to take out if anything."""
    say(f"deck '{deck.id}': nothing to reprint {instructions.basis_text()}: the printed copy has every card "
        f"as it now prints; no PDF written")
    for line in instruction_lines(instructions):
        say(line)
