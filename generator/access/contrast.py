"""Contrast: can every line of text on every distinct face be read against what is behind it?

For each text operation in a face's plan, each run of each line (text in one
font and colour) is checked, by the box its glyphs actually cover (measured
from the font), against every colour painted under it (see :mod:`generator.access.backdrop`); the worst colour
counts. Below 4.5:1, or 3:1 for large text (18 pt, or 14 pt bold), is a
problem, as WCAG 2.x asks. Faces are checked once per distinct drawing, so a
card with nine copies is one check.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from functools import lru_cache

from PIL import ImageFont
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFontFace

from generator.access.backdrop import PAINTING_OPS, Backdrop, ImageSamples, backdrops, blend, reaching, sole_cover
from generator.access.colours import (
    BOLD_WEIGHT,
    RGB,
    contrast_ratio,
    hex_of,
    is_large_text,
    required_contrast,
    rgb_of,
    shown_ratio,
)
from generator.boxes import Box, Corners, region_bounds, union
from generator.deck.model import Card
from generator.errors import Position
from generator.render.plan import Frame, Glyphs, Op, TextOp, corners_of, outline_of
from generator.render.renderer import Renderer

MEASURING_SIZE = 200
"""Pixels per em at which glyph outlines are measured, then scaled to the printed size:
large enough that rounding to whole pixels moves an edge by under a hundredth of the size."""

OVERHANG = 0.25
"""Part of the type size an italic glyph may reach past its advance on either side."""


@dataclass(repr=False, eq=False)
class ContrastProblem:
    """One text element of one face that does not stand out enough from its backdrop."""

    card: Card
    side: str
    element: str
    position: Position
    text: RGB
    backdrop: RGB
    backdrop_element: str  # '' when it is the paper
    ratio: float
    size: float
    bold: bool
    alpha: float = 1.0  # the text's own see-through-ness times its element's opacity

    @property
    def required(self) -> float:
        return required_contrast(self.size, self.bold)

    def describe(self) -> str:
        weight = " bold" if self.bold else ""
        kind = "large text" if is_large_text(self.size, self.bold) else "text"
        under = f"'{self.backdrop_element}'" if self.backdrop_element else "the paper"
        see_through = f" at {self.alpha:.0%} opacity" if self.alpha < 1 else ""
        return (f"text '{self.element}' ({self.size:.3g} pt{weight}) on card '{self.card.id}' "
                f"{self.side}: {hex_of(self.text)}{see_through} on {hex_of(self.backdrop)} ({under}) has contrast "
                f"{shown_ratio(self.ratio):.2f}:1, below the {self.required:g}:1 WCAG 2 asks of {kind}")


def contrast_problems(renderer: Renderer) -> list[ContrastProblem]:
    """Every text element, on every distinct face, that is too faint against its backdrop
    (the worst run of each element, when its runs differ in colour or weight)."""
    watch = ContrastWatch(renderer)
    for card, side, ops in renderer.distinct_plans():
        watch.observe(card, side, ops)
    return watch.problems


class ContrastWatch:
    """The contrast problems of faces handed over one at a time (:meth:`observe`), so that a
    pass over the distinct faces can check them without keeping their plans."""

    def __init__(self, renderer: Renderer) -> None:
        self.renderer = renderer
        self.problems: list[ContrastProblem] = []
        self.images = ImageSamples()
        self.positions = {side: {element.name: element.position for element in layout.elements}
                          for side, layout in renderer.layouts.items()}

    def observe(self, card: Card, side: str, ops: tuple[Op, ...]) -> None:
        """Check each text element of one distinct face."""
        layout = self.renderer.layouts[side]
        positions = self.positions[side]
        painting: list[Op] = []  # only these can lie under text: the rest of a plan is never walked
        for op in ops:
            if isinstance(op, PAINTING_OPS):
                painting.append(op)
            if not isinstance(op, TextOp):
                continue
            worst = _worst_run(op, tuple(painting), self.images)
            if worst is None:
                continue
            run, backdrop, ratio, bold, alpha = worst
            self.problems.append(ContrastProblem(card, side, op.element,
                                                 positions.get(op.element, Position(layout.path)),
                                                 rgb_of(run.colour), backdrop.rgb, backdrop.element, ratio,
                                                 op.size, bold, alpha))


def _worst_run(op: TextOp, below: tuple[Op, ...], images: ImageSamples
               ) -> tuple[Glyphs, Backdrop, float, bool, float] | None:
    """The run of the text that falls furthest short of the contrast it needs, with the
    backdrop it is weakest against; None when every run reads. See-through text (its
    colour's alpha, the element's opacity) is measured as it prints: blended over each
    backdrop. ``below`` holds what was drawn before the text (painting operations alone
    will do)."""
    worst, shortfall = None, 1.0
    opacity = op.frame.opacity if op.frame is not None else 1.0
    runs = [(run, _line_box(run.font, op.size, run.x, run.y, run.text))
            for line in op.text_lines for run in line.pieces
            if isinstance(run, Glyphs) and run.colour is not None and run.text.strip()]
    if not runs:
        return None
    # Most of a face lies nowhere near this text: walk only what may paint under its runs.
    area = union(outline_of(box, op.frame) for _, box in runs).grown(AREA_MARGIN)
    reachable = reaching(below, area)
    on_panel = sole_cover(reachable, area)  # one colour under every run: no walk per run
    for run, box in runs:
        bold = font_is_bold(run.font)
        needed = required_contrast(op.size, bold)
        text, alpha = rgb_of(run.colour), getattr(run.colour, "alpha", 1.0) * opacity
        found = on_panel if on_panel is not None else _behind(run, op, box, below, reachable, area, images)
        for backdrop in found:
            printed = text if alpha >= 1 else blend(text, backdrop.rgb, alpha)
            ratio = contrast_ratio(printed, backdrop.rgb)
            if ratio / needed < shortfall:
                worst, shortfall = (run, backdrop, ratio, bold, alpha), ratio / needed
    return worst


Region = tuple[Corners, Box]
"""A region on the page, and the upright box around it."""

AREA_MARGIN = 1.0
"""Points added around the text's runs before picking what may paint under them: rounding in
the box sums must never leave out a shape that touches a run's edge, and a shape covering
the widened box covers every run with room to spare (see :func:`sole_cover`)."""


def _region(box: Box, frame: Frame | None) -> Region:
    corners = corners_of(box, frame)
    if frame is not None and frame.rotate:
        return corners, region_bounds(corners)
    # Upright: the bounds of its own corners, to the last bit, without the min/max over them.
    return corners, Box(box.x, box.y, box.right - box.x, box.top - box.y)


def _behind(run: Glyphs, op: TextOp, line_box: Box, everything: tuple[Op, ...], reachable: tuple[Op, ...],
            area: Box, images: ImageSamples) -> list[Backdrop]:
    """The colours under a run: under the line's full height, or where that straddles shapes,
    under its glyphs. ``everything`` is what was drawn below the text, ``reachable`` those of
    it that may paint inside ``area``, the box around all the text's runs."""
    corners, bounds = _region(line_box, op.frame)
    found = backdrops(corners, bounds, reachable, images)
    if len(found) > 1:  # the run's full height straddles shapes: measure its glyphs
        ink = ink_box(run.font, op.size, run.x, run.y, run.text)
        if ink is None:
            return []
        corners, bounds = _region(ink, op.frame)
        found = backdrops(corners, bounds, reachable if bounds.inside(area, tolerance=0) else everything, images)
    return found


def _line_box(font: str, size: float, x: float, baseline: float, text: str) -> Box:
    """A box every glyph of the line lies in: the font's lowest to highest outline point,
    along the line's advance widened by the overhang slanted letters may have. One
    colour behind all of it is the colour behind the text."""
    face = pdfmetrics.getFont(font).face
    bottom, top = baseline + face.bbox[1] * size / 1000, baseline + face.bbox[3] * size / 1000
    overhang = OVERHANG * size
    return Box(x - overhang, bottom, pdfmetrics.stringWidth(text, font, size) + 2 * overhang, top - bottom)


def ink_box(font: str, size: float, x: float, baseline: float, text: str) -> Box | None:
    """The box a line's glyphs cover when drawn at (x, baseline), or None for a blank line."""
    left, top, right, bottom = _ink_extent(font, text)
    if right <= left or bottom <= top:
        return None
    scale = size / MEASURING_SIZE
    return Box(x + left * scale, baseline - bottom * scale, (right - left) * scale, (bottom - top) * scale)


@lru_cache(maxsize=4096)
def _ink_extent(font: str, text: str) -> tuple[float, float, float, float]:
    """Glyph extent of ``text`` in pixels at :data:`MEASURING_SIZE`, from the baseline's
    left end (y grows downwards); the font's ascent and descent when FreeType cannot
    read the font."""
    face = pdfmetrics.getFont(font).face
    try:
        return _measuring_font(face).getbbox(text, anchor="ls")
    except OSError:
        width = pdfmetrics.stringWidth(text, font, MEASURING_SIZE)
        return (0, round(-face.ascent * MEASURING_SIZE / 1000), round(width),
                round(-face.descent * MEASURING_SIZE / 1000))


@lru_cache(maxsize=64)
def _measuring_font(face: TTFontFace) -> ImageFont.FreeTypeFont:
    """FreeType's reading of the file reportlab's ``face`` came from, once for each face: a
    font file saved again while the preview runs is registered as a face of its own."""
    return ImageFont.truetype(face.filename, MEASURING_SIZE)


@lru_cache(maxsize=64)
def font_is_bold(font: str) -> bool:
    """True for a font whose weight class is bold (700) or heavier."""
    face = pdfmetrics.getFont(font).face
    try:
        (weight,) = struct.unpack(">H", face.get_table("OS/2")[4:6])
    except (KeyError, struct.error, OSError):
        return "bold" in str(getattr(face, "name", b"")).lower()
    return weight >= BOLD_WEIGHT

