"""Drawing an operation again by replaying what reportlab wrote for it the first time.

A layout draws the same things on face after face: the frame, the labels, the
icons of a stat line. reportlab turns each drawing call into content-stream
operators through many small Python calls, and what it writes depends only on
the call and on the canvas's graphics state before it (what reportlab itself
saves with ``saveState``). So the first time an operation is drawn in a given
state, :class:`Replay` keeps the operators it wrote and the state it left;
when the same operation comes again in the same state, those operators are
appended as they are and the state is set as it was left. The bytes are the
same as drawing it again.

Names reportlab hands out on first use (fonts, glyph subsets) belong to one
document, so a replay serves one canvas only. What a drawing adds to the
resources of the page or form it is drawn in (images, shadings, separation
colours, links) would be missing from a replay in another form, and
transparency states are named form by form, so an operation whose first
drawing used any of those is never replayed.
Operations are known by identity: planning gives the same operation object to
every face that draws the same thing (see ``PlanResources.planned``).
"""

from __future__ import annotations

import re
from operator import itemgetter
from typing import Any, Callable

from reportlab.pdfgen.canvas import Canvas

GRAPHICS_STATE = tuple(name for name in Canvas.STATE_ATTRIBUTES if name != "_extgstate")
"""What reportlab saves and restores as the graphics state, besides the transparency
states (``_extgstate``), which are compared by their current values."""
_graphics_state = itemgetter(*GRAPHICS_STATE)
"""The graphics state's values as one tuple, read at C speed (it is read before every operation)."""
FORM_RESOURCES = ("_formsinuse", "_annotationrefs", "_colorsUsed", "_shadingUsed")
"""What reportlab collects for the resources of the page or form being drawn."""
TRANSPARENCY = re.compile(r"/gRLs\d+ gs")
"""reportlab's operator setting a transparency state (named anew in each form)."""
MAX_REMEMBERED = 50_000
"""Drawings remembered per canvas: a few hundred bytes of operators each, so at most
tens of megabytes; past this, operations are drawn afresh."""

DRAW_AGAIN = None
"""Remembered for an operation that must be drawn every time."""


class Replay:
    """The operations drawn on one canvas, each with what drawing it wrote there."""

    def __init__(self) -> None:
        self._drawn: dict[tuple, tuple[object, Any]] = {}
        self._states: dict[tuple, tuple] = {}
        """Each distinct graphics state remembered once: a deck's faces pass through the same few
        states, so the thousands of drawings remembered share them instead of each keeping a copy."""

    def draw(self, canvas: Canvas, operation: object, draw: Callable[[], None]) -> None:
        """Draw ``operation`` by calling ``draw``, or by replaying its first drawing in this state."""
        state = canvas.__dict__
        before = _graphics_state(state)
        key = (id(operation), before, tuple(sorted(canvas._extgstate._d.items())))
        try:
            found = self._drawn.get(key)
        except TypeError:  # a state holding unhashable values: draw as usual
            draw()
            return
        if found is not None and found[0] is operation:
            if found[1] is DRAW_AGAIN:
                draw()
                return
            code, after, transparency = found[1]
            canvas._code.extend(code)
            state.update(zip(GRAPHICS_STATE, after))
            canvas._extgstate._d = dict(transparency)
            return
        start, resources = len(canvas._code), _resources(canvas)
        draw()
        if len(self._drawn) >= MAX_REMEMBERED:
            return
        # The operation is kept with its drawing, so its id cannot pass to another object.
        code = canvas._code[start:]
        key = (key[0], self._shared(before), key[2])
        if _resources(canvas) != resources or any(TRANSPARENCY.search(part) for part in code):
            self._drawn[key] = (operation, DRAW_AGAIN)
        else:
            self._drawn[key] = (operation, (code, self._shared(_graphics_state(state)),
                                            tuple(canvas._extgstate._d.items())))

    def _shared(self, values: tuple) -> tuple:
        """The remembered state equal to ``values`` (a state's values), remembering it if new."""
        try:
            return self._states.setdefault(values, values)
        except TypeError:  # a value that cannot be hashed: kept as it is
            return values


def _resources(canvas: Canvas) -> tuple[int, ...]:
    return tuple(len(getattr(canvas, name, ())) for name in FORM_RESOURCES)
