"""One side of a comparison: a deck read from the disk or from a git revision, with what
the comparison asks of it (its faces, its rules' outcomes, its odds).

A side is read by the very loaders ``check`` uses, inside
:func:`~generator.revisions.reading_from` its file source, so a deck at a revision is
refused for the same mistakes, with the same bounds, as the deck on the disk; its
errors name the files as ``REV:path``. A side that cannot be read raises; everything
past reading (a rule that fails, a question that cannot be answered, a face that cannot
be laid out) is part of the comparison instead.
"""

from __future__ import annotations

import copy
import dataclasses
import json
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from generator.deck.model import Deck, RuleSpec, find_deck_file, load_deck
from generator.deck.rules import check_deck
from generator.errors import DeckpressError, InputError, Position, each_error, together
from generator.iterations.drawing import Canon
from generator.reading import Problems
from generator.render.layout import RawLayout, find_layout, read_raw_layout
from generator.render.renderer import Renderer, layout_search_path, load_renderer, side_layouts
from generator.revisions import FileSource, reading_from
from generator.stats.odds import probability
from generator.stats.spec import asked, read_stats_spec

WORKBOOK_SUFFIX = ".xlsx"


@dataclass(repr=False, eq=False)
class RuleOutcome:
    """How one composition rule fares on one side."""

    label: str
    """The rule as a reader knows it: its kind and its message (``total (a full deck)``)."""
    status: str
    """"passes", "fails" or "cannot run" (the rule is malformed for this deck)."""
    detail: str
    """What the first failure says, or why the rule cannot run; empty when it passes."""
    position: Position
    kind: str
    place: int
    """Where the rule stands in the deck's list of rules, counting from 0."""


@dataclass(repr=False, eq=False)
class Answer:
    """One of the deck's own ``stats:`` questions, answered in one pool."""

    question: str
    decklist: str | None
    chance: Fraction | None
    problem: str | None
    """Why the question cannot be answered here (drawing more cards than the pool has)."""
    position: Position | None


@dataclass(repr=False, eq=False)
class Side:
    """A deck as one side of a comparison sees it."""

    name: str
    """What the side is called in a report: the revision (``HEAD``), or the deck's path."""
    source: FileSource
    deck: Deck
    """The deck, its version its own (or its files' commit at that revision)."""
    renderer: Renderer
    """Draws the deck with the comparison's version stamp, the same on both sides, so a new
    version alone changes no face."""
    layouts: dict[str, RawLayout]
    """The layout of each side of a card, as written (merged with what it extends)."""
    rules: dict[str, RuleOutcome]
    """Each rule's outcome, by the rule as written (see :func:`rule_key`)."""
    answers: dict[tuple[str | None, str], Answer]
    """Each question's answer, by (decklist, question)."""
    stats_problem: str | None = None
    """Why the ``stats:`` section cannot be read, when it cannot."""
    canon: Canon = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.canon = Canon(self.renderer, self.source)

    def reading(self) -> AbstractContextManager[FileSource]:
        """Inside: the side's files are read from where it came from (faces are planned lazily)."""
        return reading_from(self.source)

    def where(self, position: Position | None) -> Position | None:
        """``position`` as a report names it: ``REV:path:line`` for a file at a revision."""
        return shown_position(position, self.source)


def shown_position(position: Position | None, source: FileSource) -> Position | None:
    if position is None:
        return None
    return Position(Path(source.label(position.path)), position.line, position.column)


def relabelled(error: DeckpressError, source: FileSource) -> DeckpressError:
    """``error`` with every position naming its file as ``source`` does (``HEAD~1:cards/x/deck.yaml``)."""
    moved = []
    for each in each_error(error):
        if each.position is not None:
            each = copy.copy(each)
            each.position = shown_position(each.position, source)
        moved.append(each)
    return moved[0] if len(moved) == 1 else together(moved)


KEEP_OWN_VERSION = "own"
"""For :func:`read_side`: the side draws its faces with its own version."""


def read_side(target: Path, source: FileSource, name: str, stamp: str | None = KEEP_OWN_VERSION,
              judged: bool = True) -> Side:
    """The deck at ``target`` (a deck file or folder) read from ``source``; its faces drawn with
    ``stamp`` as their version (:data:`KEEP_OWN_VERSION`: the deck's own); with its rules'
    outcomes and its stats questions' answers when ``judged`` (the faces alone otherwise).
    Raises the deck's errors (with positions as ``source`` names them) when it cannot be read."""
    with reading_from(source):
        try:
            deck = load_deck(find_deck_file(target))
            _refuse_workbook_at_revision(deck, source)
            renderer = load_renderer(deck, stamp_version=True)
            deck = renderer.deck
            if stamp != KEEP_OWN_VERSION:  # the faces print the stamp
                renderer = renderer.restamped(stamp)
            layouts = raw_layouts(deck)
        except DeckpressError as error:
            raise relabelled(error, source) from None
        answers, problem = stats_answers(deck) if judged else ({}, None)
        return Side(name=name, source=source, deck=deck, renderer=renderer, layouts=layouts,
                    rules=rule_outcomes(deck) if judged else {}, answers=answers,
                    stats_problem=str(relabelled(problem, source)) if problem is not None else None)


def _refuse_workbook_at_revision(deck: Deck, source: FileSource) -> None:
    """Cards from an ``.xlsx`` workbook are read from the disk only (the workbook library
    opens files by name): at a revision they would silently be today's cards."""
    if source.local(deck.folder) is not None:
        return
    if any(card.position.path.suffix.lower() == WORKBOOK_SUFFIX for card in deck.cards):
        raise InputError("cards from an .xlsx workbook cannot be read at a git revision; keep them in a "
                         ".csv file to compare iterations", deck.source.at("cards", "from"), field="from")


def raw_layouts(deck: Deck) -> dict[str, RawLayout]:
    """The layout of each side of the deck's cards as written, merged with what it extends."""
    search = layout_search_path(deck)
    found: dict[str, RawLayout] = {}
    for side, name in side_layouts(deck).items():
        path = find_layout(name, search, deck.source.at("deck", "layout"), confined=(deck.folder,))
        found[side] = read_raw_layout(path, search, Problems(), confined=(deck.folder,))
    return found


def rule_key(rule: RuleSpec) -> str:
    """A rule as written, to find it again in another iteration wherever it moved."""
    return json.dumps([rule.kind, rule.params, rule.scope, rule.message], sort_keys=True, default=str)


def rule_outcomes(deck: Deck) -> dict[str, RuleOutcome]:
    """Each rule of the deck checked on its own, by :func:`rule_key` (a second rule written
    the same way gets ``#2``)."""
    outcomes: dict[str, RuleOutcome] = {}
    for place, rule in enumerate(deck.rules):
        report = check_deck(dataclasses.replace(deck, rules=[rule]))
        malformed = [finding for finding in report.findings if finding.kind != "rule"]
        label = rule.label
        if malformed:
            status, detail = "cannot run", malformed[0].message
        elif report.findings:
            status, detail = "fails", report.findings[0].message
        else:
            status, detail = "passes", ""
        detail = detail.removeprefix(f"{label}: ")
        key = rule_key(rule)
        count = 1
        while (key + ("" if count == 1 else f"#{count}")) in outcomes:
            count += 1
        outcomes[key + ("" if count == 1 else f"#{count}")] = RuleOutcome(label, status, detail, rule.position,
                                                                       rule.kind, place)
    return outcomes


def stats_answers(deck: Deck) -> tuple[dict[tuple[str | None, str], Answer], InputError | None]:
    """Every question of the deck's ``stats:`` in every pool it asks of (each decklist, or the
    deck), with its exact chance; and why the section cannot be read, when it cannot."""
    try:
        spec = read_stats_spec(deck)
    except InputError as error:
        return {}, error
    answers: dict[tuple[str | None, str], Answer] = {}
    for pool, question in asked(deck, spec):
        try:
            chance, problem = probability(question, pool), None
        except InputError as error:
            chance, problem = None, error.message
        answers[pool.decklist, question.name] = Answer(question.name, pool.decklist, chance, problem,
                                                       question.position)
    return answers, None
