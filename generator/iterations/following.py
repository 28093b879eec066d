"""A deck at a git revision compared again and again with the deck as it is being edited.

``deckpress serve --since REV`` marks the faces that changed since ``REV`` and keeps the
marks up to date as the designer saves. The older side is read once, through the same
loaders as ``diff`` (:func:`~generator.iterations.sides.read_side`); the newer side is
made on each save from the renderer the caller has already laid the deck out with, so
no face is laid out a second time for the comparison::

    baseline = Baseline(Path("cards/tiki"), revision_of(Path("cards/tiki"), "HEAD"))  # once
    followed = baseline.follow(deck, renderer)              # after the first load
    followed = baseline.follow(deck, renderer, followed)    # after a save that kept the layouts

Between two saves that leave the layouts, fonts and art alone, what each face draws is
known by its face key, so only the faces a save changed are written down again
(:class:`~generator.iterations.drawing.Canon`); and a face that draws as it did at the
revision is kept as the very object the older side made, so telling that it did not
change is a glance rather than a walk through everything it draws.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

from generator.deck.model import Deck
from generator.iterations.comparison import Comparison, compare
from generator.iterations.decks import WORKING_TREE
from generator.iterations.drawing import Canon, FaceDrawing
from generator.iterations.sides import KEEP_OWN_VERSION, Side, raw_layouts, read_side
from generator.render.layout import RawLayout
from generator.render.renderer import SIDES, Renderer
from generator.revisions import DISK, FileSource, Revision

Drawings = dict[FaceDrawing, FaceDrawing]
"""Each drawing the older side made, by itself: a newer drawing equal to one is swapped for it."""


class _Canon(Canon):
    """A :class:`Canon` that can take over the drawings of an earlier one and that keeps one
    object for equal drawings of the two sides (see the module docstring)."""

    def __init__(self, renderer: Renderer, source: FileSource, drawings: Drawings, older: bool) -> None:
        super().__init__(renderer, source)
        self._drawings = drawings
        self._older = older

    def _kept(self, drawn: FaceDrawing) -> FaceDrawing:
        if self._older:
            return self._drawings.setdefault(drawn, drawn)
        return self._drawings.get(drawn, drawn)

    def take_over(self, earlier: Canon) -> None:
        """Keep what ``earlier`` wrote down: only for a renderer that took over the plans of
        ``earlier``'s (the same layouts, fonts and files), so equal keys draw the same.

        The plans taken over name the icons of the earlier renderer's layouts: each of
        their faces is among the drawings taken over (:meth:`Baseline.follow` writes down
        every face), so no icon is ever looked up by an object this renderer does not know.
        """
        self._faces.update(earlier._faces)
        self._digests.update(earlier._digests)
        self._fonts.update(earlier._fonts)


@dataclass(frozen=True)
class Followed:
    """One comparison of the newer deck with the revision, and what the next one may keep."""

    comparison: Comparison
    canon: Canon
    """What each face of the newer deck draws, for the next save's comparison."""
    layouts: dict[str, RawLayout]
    """The newer deck's layouts as written, for the next save's comparison."""


class Baseline:
    """The deck at ``deck`` as it was at ``revision``, read once, to compare newer decks with.

    ``source`` is the revision as :func:`~generator.iterations.revision.revision_of` finds it
    (which raises InputError, as ``diff --since`` does, when git is missing, the deck is not in
    a repository or there is no such revision); InputError too when the deck cannot be read at it.
    """

    def __init__(self, deck: Path, source: Revision) -> None:
        self.revision = source.name
        # The preview shows faces; the rules' outcomes and the odds are diff's to report.
        side = read_side(deck, source, source.name, KEEP_OWN_VERSION, judged=False)
        self._side = self._with_canon(side)
        self._stamp = side.deck.version

    def follow(self, deck: Deck, renderer: Renderer, earlier: Followed | None = None) -> Followed:
        """``deck`` (laid out by ``renderer``) compared with the revision.

        ``earlier``: the last comparison's, when ``renderer`` took over the plans of the
        renderer it was made with (:meth:`Renderer.reuse_plans`: the same layouts, fonts
        and files). Raises a DeckpressError when the older side cannot be drawn with the
        newer deck's version (its faces are drawn with it, so a new version alone
        changes no face).
        """
        older = self._stamped(deck.version)
        with older.reading():  # first, so that the newer faces drawn alike are kept as these objects
            for card in older.deck.cards:
                for side in SIDES:
                    older.canon.face(card, side)
        layouts = earlier.layouts if earlier is not None else raw_layouts(deck)
        newer = Side(name=WORKING_TREE, source=DISK, deck=deck, renderer=renderer, layouts=layouts, rules={},
                     answers={})
        canon = _Canon(renderer, DISK, self._drawings, older=False)
        if earlier is not None:
            canon.take_over(earlier.canon)
        newer.canon = canon
        for card in deck.cards:  # every face, so the next save may take them all over
            for side in SIDES:
                canon.face(card, side)
        return Followed(compare(older, newer), canon, layouts)

    def _stamped(self, version: str | None) -> Side:
        """The older side drawing its faces with ``version``: made again when the newer
        deck's version changes (its first save after a commit adds the ``+``)."""
        if version != self._stamp:
            side = self._side
            self._side = self._with_canon(dataclasses.replace(side, renderer=side.renderer.restamped(version)))
            self._stamp = version
        return self._side

    def _with_canon(self, side: Side) -> Side:
        self._drawings: Drawings = {}  # the older side's, which the newer side's equal drawings are swapped for
        side.canon = _Canon(side.renderer, side.source, self._drawings, older=True)
        return side
