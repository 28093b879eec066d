"""What a check is given and returns: the :class:`Subject` being judged, and :data:`Check`.

Kept apart from the verdict that runs the checks, so that every module of checks
(:mod:`generator.verdict.checks`, :mod:`generator.verdict.access`) can name them
without importing what runs it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from generator.deck.model import Deck
from generator.findings import Finding
from generator.render.renderer import Renderer
from generator.sheets.geometry import SheetSettings

if TYPE_CHECKING:  # the access checks name the subject: only its annotation needs them
    from generator.verdict.access import AccessWatch


@dataclass(repr=False, eq=False)
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
    """How the layout check makes the renderer (a draft one, say); the usual one if None,
    ``load_renderer(deck, stamp_version=True)``. The renderer's deck becomes the subject's, so
    one that prints the deck stamps its version as that does."""
    sheets: SheetSettings | None = None
    """The print settings the sheets check lays the cards out with (a cutter's, a paper);
    build's defaults if None."""
    faces_missed: bool = False
    """Whether a distinct face could not be laid out, so that the checks reading every face's
    plan (contrast, colour-blind) did not see it."""
    judged: set[str] = field(default_factory=set)
    """The kinds of warning whose check looked at the whole deck (``contrast``, ...): only an
    ``accept:`` entry of one of them can be told stale; build, which does not run the access
    checks, and a check stopped short by broken layouts or faces leave the deck's entries unjudged."""
    access_watch: AccessWatch | None = None
    """The contrast and colour-blind checks of every distinct face, when the pass that laid
    the faces out fed them (so that no plan need be kept for them)."""


Check = Callable[[Subject], Iterable[Finding]]
"""One check: reads (and may add to) the subject, and returns what it found."""
