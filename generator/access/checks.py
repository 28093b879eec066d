"""The access checks as the verdict runs them: contrast and colour-blind findings.

Both are warnings: a deck that breaks them still builds, ``check`` prints them
and exits 0, ``check --strict`` exits 1, and a deck can accept one with a
reason (:mod:`generator.access.accepting`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from generator.access.colours import hex_of
from generator.findings import WARNING, Finding

if TYPE_CHECKING:
    from generator.verdict import Subject

CONTRAST = "contrast"
COLOUR_BLIND = "colour-blind"


def check_contrast(subject: Subject) -> Iterable[Finding]:
    """Every text element of every distinct face against the colour painted behind it."""
    from generator.access.contrast import contrast_problems

    if subject.renderer is None:
        return ()
    return [Finding(kind=CONTRAST, message=problem.describe(), position=problem.position,
                    severity=WARNING, card=problem.card.id, side=problem.side, element=problem.element,
                    details={"text_colour": hex_of(problem.text), "backdrop_colour": hex_of(problem.backdrop),
                             "ratio": round(problem.ratio, 2), "required": problem.required,
                             "size": round(problem.size, 2), "bold": problem.bold})
            for problem in contrast_problems(subject.renderer)]


def check_colour_blind(subject: Subject) -> Iterable[Finding]:
    """Every pair of a field's values whose colours look alike with a colour-vision deficiency."""
    from generator.access.colourblind import colour_pair_problems

    if subject.renderer is None:
        return ()
    return [Finding(kind=COLOUR_BLIND, message=problem.describe(), position=problem.position,
                    severity=WARNING, element=problem.element,
                    details={"field": problem.field, "values": [list(group) for group in problem.values],
                             "colours": [hex_of(colour) for colour in problem.colours],
                             "colour": problem.colour or None, "deficiency": problem.deficiency,
                             "distance": round(problem.distance, 1),
                             "mitigated": problem.mitigation or None})
            for problem in colour_pair_problems(subject.renderer)]


ACCESS_CHECKS = (check_contrast, check_colour_blind)
"""Added to the checks ``deckpress check`` runs (:data:`generator.verdict.checks.CHECKS`)."""
