"""Every problem ``check`` and ``build`` would report for a deck, as the preview lists them.

:func:`deck_findings` is the one place the preview learns what is wrong with a
deck. It gathers what the deck, rules, layout and stats stages report, each
stage's problems in full rather than stopping at the first, so a designer sees
on the page exactly what the command line would say. It hands back the
renderer it laid the faces out with, so the preview draws them without
compiling the layouts a second time.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from generator.deck import check_deck, load_deck
from generator.deck.model import Deck
from generator.deck.rules import Finding as RuleFinding
from generator.errors import DeckpressError, LayoutError, Position
from generator.render import Renderer, load_renderer
from generator.render.renderer import SIDES
from generator.stats.spec import read_stats_spec

SEVERITIES = ("error", "warning")


@dataclass(frozen=True)
class Problem:
    """One finding: what is wrong, where, and which card face it concerns (if one)."""

    kind: str                  # "input", "rule", "layout", "fit", "stats", ...
    message: str               # without the position
    position: Position | None
    severity: str = "error"    # "error" or "warning"
    card: str | None = None
    side: str | None = None
    accepted: str | None = None  # why the deck accepts this warning, when it does

    def line(self) -> str:
        """``path:line:column: message``, as ``check`` prints it."""
        return f"{self.position}: {self.message}" if self.position else self.message


@dataclass(frozen=True)
class Findings:
    """A deck as far as it loads, its renderer if its layouts compile, and every problem."""

    deck: Deck | None
    renderer: Renderer | None
    problems: list[Problem]


def deck_findings(deck_path: Path) -> Findings:
    """Load and check the deck at ``deck_path``; problems come sorted by file and line."""
    try:
        deck = load_deck(deck_path)
    except DeckpressError as error:
        return Findings(None, None, [from_error(error, "input")])
    problems: list[Problem] = []
    try:
        problems += [from_rule(finding) for finding in check_deck(deck).findings]
    except DeckpressError as error:
        problems.append(from_error(error, "rule"))
    try:
        renderer = load_renderer(deck)
    except DeckpressError as error:
        renderer = None
        problems.append(from_error(error, "layout"))
    else:
        problems += _fit_problems(deck, renderer)
    try:
        read_stats_spec(deck)
    except DeckpressError as error:
        problems.append(from_error(error, "stats"))
    return Findings(deck, renderer, sorted(problems, key=_reading_order))


def _fit_problems(deck: Deck, renderer: Renderer) -> list[Problem]:
    """Each distinct face that cannot be laid out."""
    problems: list[Problem] = []
    seen: set[str] = set()
    for card in deck.cards:
        for side in SIDES:
            key = renderer.face_key(card, side)
            if key in seen:
                continue
            seen.add(key)
            try:
                renderer.plan(card, side)
                renderer.title(card, side)
            except LayoutError as error:
                problems.append(Problem("fit", error.message, error.position, card=card.id, side=side))
    return problems


def from_error(error: DeckpressError, kind: str) -> Problem:
    """A stage's error as a problem; a field name, if any, ends the message as on the command line."""
    message = error.message + (f" ({error.field})" if error.field else "")
    return Problem(kind, message, error.position)


def from_rule(finding: RuleFinding) -> Problem:
    """A broken composition rule, tied to the first card it names."""
    position = Position(finding.position.path, finding.position.line)
    message = finding.line()[len(f"{position}: "):]  # the rule's own line, less its position
    return Problem("rule", message, position, card=finding.cards[0] if finding.cards else None)


def _reading_order(problem: Problem) -> tuple:
    position = problem.position
    if position is None:
        return ("", 0, 0)
    return (str(position.path), position.line, position.column)
