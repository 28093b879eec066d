"""The verdict on a deck: every check that ``build``, ``booklet``, ``stats`` and ``export``
run before drawing, in one pass, with every problem found.

``verdict(path, checks=...)`` runs the checks it is given in order (everything
``check`` runs is :data:`generator.verdict.complete.CHECKS`), each a function of
the :class:`Subject` being judged that returns :class:`~generator.findings.Finding`
values. The first check loads the deck model; checks that need the model (or the
card renderer the layout check loads) find nothing more when an earlier one could
not build it. ``deckpress check`` prints
the findings; ``build`` and the other commands run the checks they depend on.

The promise: if ``check`` passes a deck, no other command refuses it with its
default options.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from generator.access.accepting import apply_acceptances
from generator.deck.model import Deck
from generator.errors import DeckpressError
from generator.findings import WARNING, Finding, exit_status, findings_from, in_order
from generator.render.renderer import Renderer
from generator.sheets.geometry import SheetSettings
from generator.verdict.subject import Check, Subject


@dataclass(repr=False, eq=False)
class Verdict:
    """Everything found about one deck, in file and line order."""

    path: Path
    deck: Deck | None
    findings: tuple[Finding, ...]
    counts: dict[str, int]
    renderer: Renderer | None = None
    lang: str | None = None
    name: str | None = None
    """The deck's output name (``tiki.fr``), or None when the deck file cannot be loaded."""

    @property
    def exit_code(self) -> int:
        """0 when nothing but warnings was found, else the highest error's exit code."""
        return exit_status(self.findings)

    def strict_exit_code(self) -> int:
        """The exit code when warnings count as errors (``check --strict``)."""
        return exit_status(self.findings, strict=True)

    @property
    def errors(self) -> tuple[Finding, ...]:
        return tuple(finding for finding in self.findings if finding.is_error)

    @property
    def warnings(self) -> tuple[Finding, ...]:
        return tuple(finding for finding in self.findings if finding.severity == WARNING)


def verdict(deck_path: Path | str, *, checks: Iterable[Check], lang: str | None = None,
            load_renderer: Callable[[Deck], Renderer] | None = None,
            sheets: SheetSettings | None = None) -> Verdict:
    """Run ``checks`` on the deck at ``deck_path``, one after the other; ``load_renderer``
    makes the card renderer the face checks lay out (by default the deck's own); ``sheets``
    are the print settings the sheets are checked for (by default build's defaults)."""
    subject = Subject(path=Path(deck_path), lang=lang, load_renderer=load_renderer, sheets=sheets)
    found = [finding for check in checks for finding in run_check(check, subject)]
    found = apply_acceptances(subject.deck, found, subject.judged)  # the deck's accept: entries mark warnings
    return Verdict(path=subject.path, deck=subject.deck, findings=tuple(in_order(found)),
                   counts=dict(subject.counts), renderer=subject.renderer, lang=lang,
                   name=subject.name)


def run_check(check: Check, subject: Subject) -> list[Finding]:
    """What ``check`` finds; a check that stops short with a ``DeckpressError`` still reports why."""
    try:
        return list(check(subject))
    except DeckpressError as error:
        return findings_from(error)
