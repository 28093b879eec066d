"""Everything ``deckpress check`` runs: the checks every drawing command runs first
(:mod:`generator.verdict.checks`), then those of what only ``check`` and the live preview
look at before any paper is spent: the sheets with the given options, the ``stats:``
section, the rules booklet and what is hard to read or to tell apart.

They live apart from the drawing commands' checks so that ``build`` does not load the
statistics, booklet and accessibility modules it never runs. The statistics and the
booklet are parts a deck may not have: their checks load them only for a deck with a
``stats:`` section or a rules file, so checking a deck of cards alone never imports them.
"""

from __future__ import annotations

from collections.abc import Iterable

from generator.deck.model import has_rules_file
from generator.errors import InputError, Position
from generator.findings import Finding, findings_from
from generator.render import Renderer
from generator.sheets.geometry import SheetSettings, sheet_layout
from generator.sheets.style import load_style
from generator.verdict.access import check_access, check_faces_once
from generator.verdict.checks import DRAWING_CHECKS, MODEL_CHECKS, check_faces, check_translation
from generator.verdict.subject import Subject


def check_sheets(subject: Subject) -> Iterable[Finding]:
    """What ``build`` asks of the deck before it draws a page, with its default options (or the
    subject's ``sheets``): that there is something to print, and that a card fits the paper
    (between a cutter's marks, when printing for one). A card too large for the paper is
    told where its size is written (:func:`_at_card_size`)."""
    deck, renderer = subject.deck, subject.renderer
    if deck is None or renderer is None:
        return ()
    try:
        sheet_layout(deck, renderer, subject.sheets or SheetSettings.default(load_style()))
    except InputError as error:
        if error.position is None:
            error = _at_card_size(error, renderer)
        return findings_from(error, "sheets")
    return ()


def _at_card_size(error: InputError, renderer: Renderer) -> InputError:
    """``error`` placed where the card's size is written: the front layout's ``size:`` (the
    deck's ``card_size`` for the generic layout), or the front layout for the default size."""
    front = renderer.layouts["front"]
    if front.size_position is None:
        return InputError(error.message, Position(front.path), field=error.field)
    deck = renderer.deck
    from_deck = "card_size" in deck.info and front.size_position == deck.source.at("deck", "card_size")
    field = "card_size" if from_deck else "size"
    return InputError(error.message, front.size_position, field=field)


def check_stats(subject: Subject) -> Iterable[Finding]:
    """The ``stats:`` section, and every question it asks of every pool (without the
    counting, which ``deckpress stats`` does)."""
    deck = subject.deck
    if deck is None or not deck.stats:
        return ()
    from generator.verdict.stats import stats_findings  # noqa: PLC0415  (the statistics load only for a deck with a stats: section)

    return stats_findings(deck)


def check_booklet(subject: Subject) -> Iterable[Finding]:
    """The rules booklet's directives, images, tables and characters, when the deck has rules."""
    deck = subject.deck
    if deck is None or not has_rules_file(deck):
        return ()
    from generator.verdict.booklet import booklet_findings  # noqa: PLC0415  (the booklet loads only for a deck with a rules file)

    return booklet_findings(deck, subject.renderer)


CHECKS = (MODEL_CHECKS + (check_translation,) + DRAWING_CHECKS
          + (check_sheets, check_stats, check_booklet, check_access))
"""Everything ``deckpress check`` runs, the plans kept for a caller that draws the faces
next (the live preview, and ``check --for``, whose shop check reads the plans again)."""

STREAMING_CHECKS = tuple(check_faces_once if check is check_faces else check for check in CHECKS)
"""The same checks for a caller that draws nothing (``deckpress check``): each distinct face
is laid out once, for the layout and the access checks together, and no plan is kept, so
memory does not grow with the faces of the deck."""
