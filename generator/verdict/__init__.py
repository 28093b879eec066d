"""The verdict on a deck: every check that ``build``, ``booklet``, ``stats`` and ``export``
run before drawing, in one pass, with every problem found.

``verdict(path)`` runs the checks listed in :data:`generator.verdict.checks.CHECKS`
in order, each a function of the :class:`Subject` being judged that returns
:class:`~generator.findings.Finding` values. The first check loads the deck model;
checks that need the model (or the card renderer the layout check loads) find
nothing more when an earlier one could not build it. ``deckpress check`` prints
the findings; ``build`` and the other commands run the checks they depend on.

The promise: if ``check`` passes a deck, no other command refuses it with its
default options.
"""

from __future__ import annotations

from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable

from generator.findings import WARNING, Finding, exit_status, in_order

if TYPE_CHECKING:
    from generator.deck.model import Deck
    from generator.render.renderer import Renderer
    from generator.verdict.beside import Outcome


@dataclass(eq=False)
class Subject:
    """The deck being judged, and what the checks build on the way for later ones."""

    path: Path
    lang: str | None = None
    deck: Deck | None = None
    """The validated model; None until the model check loads it (or when it cannot)."""
    name: str | None = None
    """What the deck's outputs are named after (``tiki.fr``), known once the deck file loads,
    even when its translation cannot be applied."""
    renderer: Renderer | None = None
    """The card renderer; None until the layout check loads the deck's layouts."""
    counts: dict[str, int] = field(default_factory=dict)
    """What was checked, for the summary line: "rules", "faces"."""
    load_renderer: Callable[[Deck], Renderer] | None = None
    """How the layout check makes the renderer (a draft one, say); the usual one if None."""


Check = Callable[[Subject], Iterable[Finding]]


@dataclass(eq=False)
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


def verdict(deck_path: Path | str, *, lang: str | None = None, checks: Iterable[Check] | None = None,
            load_renderer: Callable[[Deck], Renderer] | None = None) -> Verdict:
    """Run ``checks`` (every check by default) on the deck at ``deck_path``; ``load_renderer``
    makes the card renderer the face checks lay out (by default the deck's own).

    The checks that may run beside the others (:data:`~generator.verdict.checks.BESIDE_FACES`)
    wait for the layouts and run in a forked copy of this process where that can help
    (:mod:`generator.verdict.beside`); their findings keep their places all the same."""
    from generator.access.accepting import apply_acceptances
    from generator.verdict.beside import Beside, can_fork, outcome_of
    from generator.verdict.checks import BESIDE_FACES, CHECKS, check_layouts

    subject = Subject(path=Path(deck_path), lang=lang, load_renderer=load_renderer)
    chosen = tuple(CHECKS if checks is None else checks)
    waiting = [index for index, check in enumerate(chosen) if check in BESIDE_FACES] \
        if check_layouts in chosen and can_fork() else []
    outcomes: dict[int, Outcome] = {}
    with ExitStack() as stack:
        beside = None
        for index, check in enumerate(chosen):
            if index in waiting:
                continue
            outcomes[index] = outcome_of(check, subject)
            if check is check_layouts and waiting and subject.deck is not None:
                beside = stack.enter_context(Beside([chosen[later] for later in waiting], subject))
        late = beside.outcomes() if beside else [outcome_of(chosen[later], subject) for later in waiting]
        outcomes.update(zip(waiting, late))
    found = [finding for index in range(len(chosen)) for finding in outcomes[index].findings]
    found = apply_acceptances(subject.deck, found)  # the deck's accept: entries mark warnings
    return Verdict(path=subject.path, deck=subject.deck, findings=tuple(in_order(found)),
                   counts=dict(subject.counts), renderer=subject.renderer, lang=lang,
                   name=subject.name)


__all__ = ["Check", "Subject", "Verdict", "verdict"]
