"""The checks a verdict runs, in order, each a function ``Subject -> findings``.

To add a check (contrast, translations ...), write a function that takes the
:class:`~generator.verdict.subject.Subject` and returns findings, and add it to the
tuple where it belongs:

- :data:`MODEL_CHECKS` build or change the model (loading; a translation
  applied to it), so every later check sees the deck as it will be printed;
- :data:`DRAWING_CHECKS` add what ``build`` and ``export`` need before they
  draw (rules, layouts, every distinct face);
- :data:`generator.verdict.complete.CHECKS` is everything ``deckpress check`` runs:
  these and the checks of what only ``check`` looks at (sheets, stats, booklet,
  access), kept in their own module so that ``build`` does not load them.

A check that needs the model (``subject.deck``) or the card renderer
(``subject.renderer``) finds nothing when an earlier check could not make it:
its problems are already reported.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial

from generator.deck.model import RULES_FILENAME, Deck, DeckProblems, has_rules_file, load_deck, rules_path
from generator.deck.rules import check_deck, rule_problems
from generator.deck.translation import mark_untranslated, require_translated, translate_deck
from generator.errors import DeckpressError, InputError, Position
from generator.findings import Finding, findings_from
from generator.render import Renderer, load_renderer
from generator.verdict.subject import Subject


def check_model(subject: Subject) -> Iterable[Finding]:
    """The deck file (and its spreadsheet) read and validated: every bad card, field,
    decklist and rule at once; then its translation ``subject.lang``, if one is asked for."""
    try:
        deck = load_deck(subject.path)
    except DeckProblems as error:  # the rules as written are judged beside the rest
        return findings_from(error, "input") + (rule_problems(error.partial) if error.partial else [])
    except InputError as error:
        return findings_from(error, "input")
    subject.name = f"{deck.output_name}.{subject.lang}" if subject.lang else deck.output_name
    try:
        subject.deck = translate_deck(deck, subject.lang)  # the deck as written when lang is None
    except InputError as error:
        return findings_from(error, "translation")
    return ()


def check_translation(subject: Subject) -> Iterable[Finding]:
    """Every text a translated deck prints that its translation leaves out, and its
    booklet's rules file when the deck has rules."""
    deck = subject.deck
    if deck is None or deck.translation is None:
        return ()
    found = [Finding(kind="translation", message=entry.message(deck.translation.path), position=entry.position,
                     card=entry.card, side=entry.side)
             for entry in deck.translation.untranslated]
    rules = missing_rules(deck)
    if rules is not None:
        found.append(Finding(kind="translation", position=rules,
                             message=f"the deck has {RULES_FILENAME} but no {rules.path.name}: "
                                     "write the rules booklet in this language there"))
    return found


def missing_rules(deck: Deck) -> Position | None:
    """Where ``rules.<lang>.md`` should be, when the deck has rules but its translation has none.

    A booklet of a translated deck reads ``rules.<lang>.md``; building a deck's sheets
    does not, so this is for ``check``, not a reason to refuse a build.
    """
    if deck.translation is None:
        return None
    if (deck.folder / RULES_FILENAME).is_file() and not has_rules_file(deck):
        return Position(rules_path(deck))
    return None


def mark_untranslated_texts(subject: Subject) -> Iterable[Finding]:
    """A draft prints each text its translation leaves out in the source wording, marked
    ("[à traduire] ..."); ``check_translation`` lists them."""
    if subject.deck is not None:
        subject.deck = mark_untranslated(subject.deck)
    return ()


def check_translation_complete(subject: Subject) -> Iterable[Finding]:
    """A translation is printed only when complete: one finding saying how much is missing."""
    if subject.deck is None:
        return ()
    try:
        require_translated(subject.deck)
    except DeckpressError as error:
        return findings_from(error, "translation")
    return ()


def check_rules(subject: Subject) -> Iterable[Finding]:
    """The deck's composition rules (a malformed rule is a finding too)."""
    if subject.deck is None:
        return ()
    report = check_deck(subject.deck)
    subject.counts["rules"] = report.rules_checked
    return report.findings


def check_layouts(subject: Subject) -> Iterable[Finding]:
    """The layouts the deck names: keys, types, units, fonts, icons and the fields they read.
    From here on the subject's deck is the renderer's, with the version its faces print (its
    own, else its files' last commit, the layouts' files as they were read)."""
    if subject.deck is None:
        return ()
    try:
        subject.renderer = (subject.load_renderer or partial(load_renderer, stamp_version=True))(subject.deck)
    except DeckpressError as error:  # malformed layouts, and text outside the safe zone
        return findings_from(error, "layout")
    subject.deck = subject.renderer.deck
    return ()


def check_faces(subject: Subject) -> Iterable[Finding]:
    """Every distinct face laid out: text that does not fit, missing glyphs and images. The
    plans are kept, for the command that draws the faces next."""
    if subject.renderer is None:
        return ()
    return face_findings(subject, subject.renderer, subject.renderer.problems())


def face_findings(subject: Subject, renderer: Renderer, problems: list[DeckpressError]) -> list[Finding]:
    """The findings of ``renderer``'s pass over the distinct faces that met ``problems``, the
    faces it tried counted on ``subject``."""
    subject.counts["faces"] = renderer.tried_faces
    # A draft renderer draws text that does not fit, marked, and says so with "drafted".
    subject.faces_missed = any(not getattr(error, "drafted", False) for error in problems)  # a drafted face is laid out
    return [Finding.from_error(error, "layout", details={"drafted": True} if getattr(error, "drafted", False) else {})
            for error in problems]


MODEL_CHECKS = (check_model,)
"""Checks that make (or change) the deck model every later check reads."""

DRAWING_CHECKS = (check_rules, check_layouts, check_faces)
"""What every command that draws cards must know first."""

PRINT_CHECKS = MODEL_CHECKS + (check_translation_complete,) + DRAWING_CHECKS
"""What ``build`` (and ``build --for``) runs before drawing: a translation must be complete to be printed."""

DRAFT_CHECKS = MODEL_CHECKS + (check_translation, mark_untranslated_texts) + DRAWING_CHECKS
"""What ``build --draft`` runs: untranslated texts are listed and printed marked."""
