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
from collections.abc import Callable, Iterable
from operator import itemgetter
from typing import Any, TypeAlias, TypeVar

from reportlab.pdfgen.canvas import Canvas

GRAPHICS_STATE = tuple(name for name in Canvas.STATE_ATTRIBUTES if name != "_extgstate")
"""What reportlab saves and restores as the graphics state, besides the transparency
states (``_extgstate``), which are compared by their current values."""
_graphics_state = itemgetter(*GRAPHICS_STATE)
"""The graphics state's values as one tuple, read in one call (after every drawing that is not a replay)."""
FORM_RESOURCES = ("_formsinuse", "_annotationrefs", "_colorsUsed", "_shadingUsed")
"""What reportlab collects for the resources of the page or form being drawn."""
TRANSPARENCY = re.compile(r"/gRLs\d+ gs")
"""reportlab's operator setting a transparency state (named anew in each form)."""
MAX_REMEMBERED = 10_000
"""Drawings remembered per canvas: a few hundred bytes of operators each, and the
operation itself, so some ten megabytes. Past this, what is remembered is forgotten and
remembered afresh: what faces share (a frame, a label) is drawn and remembered again at
once, while the text of a card that no other card shows goes."""

DRAW_AGAIN = "draw again"
"""Remembered for an operation that must be drawn every time."""

T = TypeVar("T")
Transparency: TypeAlias = tuple[tuple[str, Any], ...]
"""The transparency states' current values, as (name, value) pairs."""
State: TypeAlias = tuple[tuple[Any, ...], Transparency]
"""A canvas's graphics state (the values of :data:`GRAPHICS_STATE`, in order) and transparency."""
Changes: TypeAlias = tuple[tuple[str, Any], ...]
"""Graphics state attributes a drawing changed, as (name, value left) pairs."""


class Replay:
    """The operations drawn on one canvas, each with what drawing it wrote there."""

    def __init__(self) -> None:
        self._drawn: dict[tuple[int, int], tuple[object, Any]] = {}
        """By the ids of an operation and of the remembered state it was drawn in: the operation,
        and its operators with the state it left and what changed (see :func:`_changes`), or
        DRAW_AGAIN."""
        self._states: dict[State, State] = {}
        """Each distinct state remembered once: a deck's faces pass through the same few states,
        so the thousands of drawings remembered share them, and a state is known by its id."""

    def draw(self, canvas: Canvas, operations: Iterable[T], draw: Callable[[T], None],
             replayable: Callable[[T], bool]) -> None:
        """Draw each of ``operations`` in turn by calling ``draw`` on it, or, when it is
        ``replayable``, by replaying its first drawing in the state the canvas is in."""
        # The state the canvas is in is read and looked up once, then followed from drawing to
        # drawing: a replay leaves the canvas in a remembered state, so the next lookup is by two
        # ids instead of by the values of the whole graphics state (some of them colours that
        # reportlab hashes in Python).
        state = None  # the remembered state the canvas is in, None while not known
        for operation in operations:
            if state is None:
                state = self._state(canvas)
                if state is None:  # a state holding unhashable values: draw as usual
                    draw(operation)
                    continue
            found = self._drawn.get((id(operation), id(state)))
            if found is not None and found[0] is operation and found[1] is not DRAW_AGAIN:
                code, state, changed, transparency = found[1]
                canvas._code.extend(code)
                canvas.__dict__.update(changed)
                if transparency is not None:
                    canvas._extgstate._d = dict(transparency)
            elif found is None and replayable(operation):
                state = self._record(canvas, operation, state, draw)
            else:
                draw(operation)
                state = None

    def _record(self, canvas: Canvas, operation: T, before: State, draw: Callable[[T], None]) -> State | None:
        """Draw ``operation`` in the remembered state ``before`` and remember what it wrote;
        the remembered state it leaves (None if it cannot be remembered)."""
        start, resources = len(canvas._code), _resources(canvas)
        draw(operation)
        if len(self._drawn) >= MAX_REMEMBERED:
            self._drawn.clear()  # nothing remembered is kept alive by a drawing left to come
        after = self._state(canvas)
        # The operation is kept with its drawing, so its id cannot pass to another object.
        key = (id(operation), id(before))
        code = canvas._code[start:]
        if after is None or _resources(canvas) != resources or any(TRANSPARENCY.search(part) for part in code):
            self._drawn[key] = (operation, DRAW_AGAIN)
            return None
        self._drawn[key] = (operation, (code, after, *_changes(before, after)))
        return after

    def _state(self, canvas: Canvas) -> State | None:
        """The remembered state equal to the canvas's graphics state and transparency, remembering
        it if new (None: it holds a value that cannot be hashed)."""
        values: State = (_graphics_state(canvas.__dict__), tuple(canvas._extgstate._d.items()))
        try:
            return self._states.setdefault(values, values)
        except TypeError:
            return None


def _changes(before: State, after: State) -> tuple[Changes, Transparency | None]:
    """What a replay sets to take the canvas from state ``before`` to ``after``: the graphics
    state's values that the drawing changed (most change a colour or two of some twenty), and the
    transparency states if they changed (else None)."""
    changed = tuple((name, value) for name, old, value in zip(GRAPHICS_STATE, before[0], after[0], strict=True)
                    if value is not old)
    return changed, (after[1] if after[1] != before[1] else None)


def _resources(canvas: Canvas) -> tuple[int, ...]:
    return tuple(len(getattr(canvas, name, ())) for name in FORM_RESOURCES)
