"""The access checks as the verdict runs them: contrast and colour-blind findings.

Both are warnings: a deck that breaks them still builds, ``check`` prints them
and exits 0, ``check --strict`` exits 1, and a deck can accept one with a
reason (:mod:`generator.access.accepting`).
"""

from __future__ import annotations

from collections.abc import Iterable

from generator.access.colourblind import ColourPairProblem, ColourWatch
from generator.access.colours import hex_of, shown_ratio
from generator.access.contrast import ContrastProblem, ContrastWatch
from generator.deck.model import Card
from generator.findings import COLOUR_BLIND, CONTRAST, WARNING, Finding
from generator.render.plan import Op
from generator.render.renderer import Renderer
from generator.verdict.checks import face_findings
from generator.verdict.subject import Subject


def check_faces_once(subject: Subject) -> Iterable[Finding]:
    """Every distinct face laid out, as :func:`~generator.verdict.checks.check_faces`, each plan
    handed to the contrast and colour-blind checks and let go: what ``check`` runs, which draws
    nothing, so that its memory does not grow with the faces of the deck. :func:`check_access`
    then reports what they saw."""
    renderer = subject.renderer
    if renderer is None:
        return ()
    watch = AccessWatch(renderer)
    found = face_findings(subject, renderer, renderer.problems(watch.observe, keep=False))
    subject.access_watch = watch  # only once it has seen every face
    return found


def check_access(subject: Subject) -> Iterable[Finding]:
    """Contrast and colour-blind warnings, from one pass over the distinct faces: the one
    :func:`check_faces_once` made, when it ran, else one of its own."""
    renderer = subject.renderer
    if renderer is None:
        return ()
    watch = subject.access_watch
    if watch is None:
        watch = AccessWatch(renderer)
        for card, side, ops in renderer.distinct_plans():
            watch.observe(card, side, ops)
    # faces_missed is the face check's, which runs before this one in every list of checks.
    if not subject.faces_missed:  # an entry for a face never seen is not known to be stale
        subject.judged |= {CONTRAST, COLOUR_BLIND}
    return (contrast_findings(watch.contrast.problems)
            + colour_blind_findings(watch.colours.problems()))


class AccessWatch:
    """The contrast and colour-blind checks of faces handed over one at a time."""

    def __init__(self, renderer: Renderer) -> None:
        self.contrast = ContrastWatch(renderer)
        self.colours = ColourWatch(renderer)

    def observe(self, card: Card, side: str, ops: tuple[Op, ...]) -> None:
        self.contrast.observe(card, side, ops)
        self.colours.observe(card, side, ops)


def contrast_findings(problems: list[ContrastProblem]) -> list[Finding]:
    """Every text element of every distinct face against the colour painted behind it."""
    return [Finding(kind=CONTRAST, message=problem.describe(), position=problem.position,
                    severity=WARNING, card=problem.card.id, side=problem.side, element=problem.element,
                    details={"text_colour": hex_of(problem.text), "text_opacity": round(problem.alpha, 2),
                             "backdrop_colour": hex_of(problem.backdrop),
                             "ratio": shown_ratio(problem.ratio), "required": problem.required,
                             "size": round(problem.size, 2), "bold": problem.bold})
            for problem in problems]


def colour_blind_findings(problems: list[ColourPairProblem]) -> list[Finding]:
    """Every pair of a field's values whose colours look alike with a colour-vision deficiency."""
    return [Finding(kind=COLOUR_BLIND, message=problem.describe(), position=problem.position,
                    severity=WARNING, element=problem.element,
                    details={"field": problem.field, "values": [list(group) for group in problem.values],
                             "colours": [hex_of(colour) for colour in problem.colours],
                             "colour": problem.colour or None, "deficiency": problem.deficiency,
                             "distance": round(problem.distance, 1),
                             "mitigated": problem.mitigation or None})
            for problem in problems]
