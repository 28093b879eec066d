"""``build --changed-since`` and ``--changed-from``: the copies a reprint prints, from a
comparison of the deck with the printed copy (at a git revision, or as a manifest records it).
"""

from __future__ import annotations

from generator.cli.common import counted, say
from generator.cli.runs import RunRequest
from generator.deck import Deck
from generator.errors import InputError, Position, printable
from generator.iterations.comparison import Reprint, cards_to_compare, compare
from generator.iterations.decks import is_at_revision, sides_since
from generator.iterations.fingerprints import PrintedCopy
from generator.iterations.reprints import instructions_of, reprint_from_manifest
from generator.render import Renderer
from generator.sheets.instructions import PrintRun


def reprint_run(request: RunRequest, printed: PrintedCopy | None, deck: Deck, renderer: Renderer,
                quiet: bool) -> PrintRun | None:
    """The copies of ``deck`` a printed copy lacks (``request.since`` names its revision, or
    ``printed`` is its manifest's record); None, every copy, for a deck made since the revision,
    which was never printed. Raises InputError when they cannot be compared."""
    if request.since is not None:
        if not is_at_revision(deck.path, request.since):
            if not quiet:
                say(f"deck '{deck.id}' is not in {printable(request.since)}: it is printed whole")
            return None
        old, new = sides_since(deck.path, request.since)
        with counted(cards_to_compare(old, new), "Comparing cards", quiet) as advance:
            comparison = compare(old, new, advance)
        return _reprint_run(comparison.reprint, deck, {"since": request.since}, comparison.old.version)
    if printed is not None:
        assert request.manifest is not None  # read from it
        if printed.deck != deck.id:
            raise InputError(f"the manifest is of deck '{printable(printed.deck)}', not '{deck.id}'",
                             Position(request.manifest), field="deck")
        if printed.lang != deck.lang:
            raise InputError(f"the manifest is of the {_language(printed.lang)}, this build of the "
                             f"{_language(deck.lang)}", Position(request.manifest), field="lang")
        drawer = renderer if printed.version == deck.version else renderer.restamped(printed.version)
        reprint = reprint_from_manifest(printed, deck, drawer)
        return _reprint_run(reprint, deck, {"from": request.manifest.name}, printed.version)
    raise AssertionError("a reprint compares with a revision or a manifest")


def _language(lang: str | None) -> str:
    return f"translation '{lang}'" if lang else "deck as written"


def _reprint_run(reprint: Reprint, deck: Deck, basis: dict[str, str], old_version: str | None) -> PrintRun:
    return PrintRun(reprint.copies(), "reprint", instructions_of(reprint, deck, basis, old_version))

