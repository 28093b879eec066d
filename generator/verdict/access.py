"""The access checks as the verdict runs them: contrast and colour-blind findings.

Both are warnings: a deck that breaks them still builds, ``check`` prints them
and exits 0, ``check --strict`` exits 1, and a deck can accept one with a
reason (:mod:`generator.access.accepting`).
"""

from __future__ import annotations

from collections.abc import Iterable

from generator.access.colourblind import colour_pair_problems
from generator.access.colours import hex_of, shown_ratio
from generator.access.contrast import Face, contrast_problems, distinct_plans
from generator.findings import COLOUR_BLIND, CONTRAST, WARNING, Finding
from generator.render.renderer import Renderer
from generator.verdict.subject import Subject


def check_access(subject: Subject) -> Iterable[Finding]:
    """Contrast and colour-blind warnings, from one pass over the distinct faces."""
    if subject.renderer is None:
        return ()
    faces = list(distinct_plans(subject.renderer))
    return contrast_findings(subject.renderer, faces) + colour_blind_findings(subject.renderer, faces)


def contrast_findings(renderer: Renderer, faces: list[Face]) -> list[Finding]:
    """Every text element of every distinct face against the colour painted behind it."""
    return [Finding(kind=CONTRAST, message=problem.describe(), position=problem.position,
                    severity=WARNING, card=problem.card.id, side=problem.side, element=problem.element,
                    details={"text_colour": hex_of(problem.text), "text_opacity": round(problem.alpha, 2),
                             "backdrop_colour": hex_of(problem.backdrop),
                             "ratio": shown_ratio(problem.ratio), "required": problem.required,
                             "size": round(problem.size, 2), "bold": problem.bold})
            for problem in contrast_problems(renderer, faces)]


def colour_blind_findings(renderer: Renderer, faces: list[Face]) -> list[Finding]:
    """Every pair of a field's values whose colours look alike with a colour-vision deficiency."""
    return [Finding(kind=COLOUR_BLIND, message=problem.describe(), position=problem.position,
                    severity=WARNING, element=problem.element,
                    details={"field": problem.field, "values": [list(group) for group in problem.values],
                             "colours": [hex_of(colour) for colour in problem.colours],
                             "colour": problem.colour or None, "deficiency": problem.deficiency,
                             "distance": round(problem.distance, 1),
                             "mitigated": problem.mitigation or None})
            for problem in colour_pair_problems(renderer, faces)]
