"""What is painted behind a rectangle of a card face, read from the face's plan.

The contrast check asks, for each line of text, which colours lie under it.
It walks down the operations drawn before the text, topmost first:

- a filled rectangle, rounded rectangle or ellipse that covers the whole line
  is the backdrop, and hides everything below it;
- one that covers only part of the line adds its colour, and the walk goes on;
- an icon adds every colour it paints (its shapes leave gaps, so the walk goes on);
- an image, or SVG art (rasterised for this), adds its pixels under the line (the
  caller keeps the worst), and hides what is below only where it is opaque over
  the whole line;
- lines, outlines and other text are not backdrops;
- below everything lies the paper, taken as white.

See-through paint (a colour's alpha, an element's ``opacity``) is blended over
what lies beneath it and hides nothing. Shapes are measured exactly (an ellipse
or a rounded corner is not its bounding box), so a figure centred on a disc is
judged against the disc; a turned shape or text is measured in the shape's own
turned frame, exactly for whether it covers the text and by bounding box for
whether it touches it.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass
from pathlib import Path

from PIL import Image
from reportlab.lib.colors import Color, white

from generator.access.colours import RGB, rgb_of
from generator.boxes import EPSILON, Box, Corners, region_bounds, turn_point
from generator.render.images import drawn_rectangle, eight_bit
from generator.render.paint import Gradient
from generator.render.plan import ArtOp, IconOp, ImageOp, Op, ShapeOp, corners_of
from generator.render.svg import SvgArt

PAPER = white
"""The page colour under everything a face paints: home printers print on white paper."""
IMAGE_SAMPLES = 48
"""Pixels sampled along each side of the part of an image under a line of text: enough
to catch a dark or light patch a few points wide without reading a large image whole."""
IMAGE_READ_SIZE = 1024
"""Pixels along an image's longer side when it is read for sampling: a large photograph
is shrunk first, so memory stays small; patches of colour a card's text could sit on
survive it."""
ART_SCALE = 4
"""Pixels per point at most when SVG art is rasterised for sampling."""
OPAQUE = 250
"""Alpha (0-255) from which an image pixel hides what is drawn below it."""
VISIBLE = 16
"""Alpha (0-255) from which an image pixel paints at all: fainter ones are the gap they
almost are (a soft edge's last pixels)."""


@dataclass(repr=False, eq=False)
class Backdrop:
    """One colour found under the text, and which element painted it ('' for the paper)."""

    rgb: RGB
    element: str


PAINTING_OPS = (ShapeOp, IconOp, ImageOp, ArtOp)
"""The operations that can paint behind text."""

def backdrops(region: Corners, bounds: Box, below: tuple[Op, ...], images: ImageSamples) -> list[Backdrop]:
    """Every colour painted under ``region`` (whose upright bounding box is ``bounds``) by the
    operations ``below`` (drawing order).

    A see-through element (a colour's alpha, or the element's ``opacity``) shows its
    colour blended over each colour found beneath it, and hides nothing.
    """
    return _Walk(region, bounds, below, images).under(len(below))


def reaching(below: tuple[Op, ...], area: Box) -> tuple[Op, ...]:
    """The operations of ``below`` (in order) that may paint inside ``area``: what a walk
    for any region whose bounds lie in ``area`` would find is found walking these alone.

    Text, lines, unfilled shapes, and upright shapes and icons wholly outside ``area``
    paint nothing under such a region (:meth:`_Walk._painted` finds nothing for them), so
    leaving them out changes no result; turned operations are judged by their turned view
    of each region, and pictures by their pixels, so they always stay.
    """
    return tuple(op for op in below if _may_reach(op, area))


def sole_cover(below: tuple[Op, ...], area: Box) -> list[Backdrop] | None:
    """What every walk finds under a region lying a margin inside ``area``, when the topmost
    of the operations ``below`` (those :func:`reaching` ``area``) is an upright, opaque,
    one-colour shape covering all of ``area``: that colour alone; None otherwise.

    Such a shape touches and covers each region (it is convex and the region lies inside
    it with room to spare), so each walk would stop at it: one answer serves every run
    of a text sitting on a panel, without walking per run.
    """
    if not below:
        return None
    op = below[-1]
    if not isinstance(op, ShapeOp) or isinstance(op.fill, Gradient) or (op.frame is not None and op.frame.rotate):
        return None
    rgb, alpha = _with_alpha(op.fill)
    opacity = op.frame.opacity if op.frame is not None else 1.0
    if alpha * opacity < OPAQUE / 255 or not _shape_covers(op, corners_of(area)):
        return None
    return [Backdrop(rgb, op.element)]


def _may_reach(op: Op, area: Box) -> bool:
    if not isinstance(op, PAINTING_OPS):
        return False
    if isinstance(op, ShapeOp) and op.fill is None:
        return False
    if op.frame is not None and op.frame.rotate:
        return True
    if isinstance(op, ShapeOp):  # a region inside ``area`` overlaps the box only if ``area`` does
        return op.box.overlaps(area)
    if isinstance(op, IconOp):
        return any(Box(x, y, size, size).overlaps(area) for x, y, size in op.squares)
    return True


class _Walk:
    """One region's walk down a plan, remembering what lies under each level, so a stack
    of see-through elements costs one walk per level, not one per path."""

    def __init__(self, region: Corners, bounds: Box, below: tuple[Op, ...], images: ImageSamples):
        self.region = region
        self.bounds = bounds  # an upright op's view of the region
        self.below = below
        self.images = images
        self.known: dict[int, list[Backdrop]] = {}

    def under(self, level: int) -> list[Backdrop]:
        """The colours under the region from the operations ``below[:level]``."""
        if level not in self.known:
            self.known[level] = self._walk(level)
        return self.known[level]

    def _walk(self, level: int) -> list[Backdrop]:
        found: list[Backdrop] = []
        for index in range(level - 1, -1, -1):
            op = self.below[index]
            painted, covers = self._painted(op)
            if not painted:
                continue
            opacity = op.frame.opacity if op.frame is not None else 1.0
            for rgb, alpha in painted:
                alpha *= opacity
                if alpha >= OPAQUE / 255:
                    found.append(Backdrop(rgb, op.element))
                else:  # seen over whatever is beneath it
                    found.extend(Backdrop(blend(rgb, beneath.rgb, alpha), op.element)
                                 for beneath in self.under(index))
            if covers:  # what lies beneath shows only through it, and is blended in above
                return found
        found.append(Backdrop(rgb_of(PAPER), ""))
        return found

    def _painted(self, op: Op) -> tuple[list[tuple[RGB, float]], bool]:
        """(colour, alpha) of what ``op`` paints under the region, and whether it covers it all."""
        if op.frame is not None and op.frame.rotate:
            # the region as the operation's own upright frame sees it: turned back
            local = tuple(turn_point(point, op.frame.centre, -op.frame.rotate) for point in self.region)
            bounds = region_bounds(local)
        else:
            local, bounds = self.region, self.bounds
        if isinstance(op, ShapeOp):
            if op.fill is None or not _shape_touches(op, bounds):
                return [], False
            stops = op.fill.colours if isinstance(op.fill, Gradient) else (op.fill,)
            return [_with_alpha(colour) for colour in stops], _shape_covers(op, local)
        if isinstance(op, IconOp):
            if not any(Box(x, y, size, size).overlaps(bounds) for x, y, size in op.squares):
                return [], False
            return [_with_alpha(colour) for colour in op.icon.colours(op.ink, op.accent)], False
        if isinstance(op, (ImageOp, ArtOp)):
            return self.images.under(op, bounds)
        return [], False


def blend(colour: RGB, beneath: RGB, alpha: float) -> RGB:
    """``colour`` painted with ``alpha`` over ``beneath``."""
    red, green, blue = (alpha * top + (1 - alpha) * bottom for top, bottom in zip(colour, beneath, strict=True))
    return (red, green, blue)


def _with_alpha(colour: Color) -> tuple[RGB, float]:
    return rgb_of(colour), float(getattr(colour, "alpha", 1.0))


# shapes --------------------------------------------------------------------------------


def _shape_touches(op: ShapeOp, region: Box) -> bool:
    box = op.box
    if not box.overlaps(region):
        return False
    if op.ellipse:
        return _nearest_on_unit_circle(box, region) < 1.0 - EPSILON
    radius = _corner_radius(op)
    if radius <= 0:
        return True
    return _distance_to_box(_inner(box, radius), region) < radius - EPSILON


def _shape_covers(op: ShapeOp, corners: Corners) -> bool:
    box = op.box
    if op.ellipse:
        centre_x, centre_y = box.x + box.width / 2, box.y + box.height / 2
        return all(((x - centre_x) / (box.width / 2)) ** 2 + ((y - centre_y) / (box.height / 2)) ** 2
                   <= 1.0 + EPSILON for x, y in corners)
    radius = _corner_radius(op)
    inner = _inner(box, radius)
    # Both shapes are convex: the region is inside when its four corners are.
    return all(_distance_to_box(inner, Box(x, y, 0.0, 0.0)) <= radius + EPSILON for x, y in corners)


def _corner_radius(op: ShapeOp) -> float:
    """The corner radius drawn: rounded corners are only drawn on boxes not run into the bleed."""
    if op.radius <= 0 or op.bleed:
        return 0.0
    return min(op.radius, op.box.width / 2, op.box.height / 2)


def _inner(box: Box, radius: float) -> Box:
    """The rectangle a rounded rectangle is grown from by a disc of ``radius``."""
    return Box(box.x + radius, box.y + radius, box.width - 2 * radius, box.height - 2 * radius)


def _distance_to_box(box: Box, region: Box) -> float:
    """How far apart two boxes are (0 where they touch); a point is a box of no size."""
    dx = max(box.x - region.right, 0.0, region.x - box.right)
    dy = max(box.y - region.top, 0.0, region.y - box.top)
    return math.hypot(dx, dy)


def _nearest_on_unit_circle(ellipse: Box, region: Box) -> float:
    """Distance from the ellipse's centre to ``region``, in units where the ellipse is a unit circle."""
    centre_x, centre_y = ellipse.x + ellipse.width / 2, ellipse.y + ellipse.height / 2
    scale_x, scale_y = ellipse.width / 2, ellipse.height / 2
    scaled = Box((region.x - centre_x) / scale_x, (region.y - centre_y) / scale_y,
                 region.width / scale_x, region.height / scale_y)
    return _distance_to_box(scaled, Box(0.0, 0.0, 0.0, 0.0))


# images --------------------------------------------------------------------------------


class ImageSamples:
    """Pixels of the images and SVG art a deck draws, read (or rasterised) once each and
    sampled under text."""

    def __init__(self) -> None:
        self._opened: dict[Path, Image.Image] = {}

    def under(self, op: ImageOp | ArtOp, region: Box) -> tuple[list[tuple[RGB, float]], bool]:
        """(colour, alpha) of the picture's pixels under ``region``, and whether the picture
        covers the whole region (opaque pixels only)."""
        size = op.pixels if isinstance(op, ImageOp) else (op.art.width, op.art.height)
        drawn = drawn_rectangle(op.box, size, op.fit)
        visible = _intersection(drawn, op.box) if op.fit == "cover" else drawn
        part = _intersection(visible, region) if visible else None
        if part is None:
            return [], False
        image = self._picture(op)
        width, height = image.size
        # The part of the picture under the region, in pixels (image rows run top down).
        left = (part.x - drawn.x) / drawn.width * width
        right = (part.right - drawn.x) / drawn.width * width
        top = (drawn.top - part.top) / drawn.height * height
        bottom = (drawn.top - part.y) / drawn.height * height
        box = (int(left), int(top), max(int(left) + 1, math.ceil(right)), max(int(top) + 1, math.ceil(bottom)))
        patch = image.crop(box)
        samples = (min(IMAGE_SAMPLES, patch.width), min(IMAGE_SAMPLES, patch.height))
        patch = patch.resize(samples, Image.Resampling.NEAREST)
        raw = patch.tobytes()  # RGBA, four bytes a pixel
        pixels = [tuple(raw[index:index + 4]) for index in range(0, len(raw), 4)]
        colours = sorted({((r / 255, g / 255, b / 255), round(a / 255, 2)) for r, g, b, a in pixels
                          if a >= VISIBLE})
        covers = region.inside(part, tolerance=EPSILON) and all(a >= OPAQUE for *_, a in pixels)
        return colours, covers

    def _picture(self, op: ImageOp | ArtOp) -> Image.Image:
        path = op.path if isinstance(op, ImageOp) else op.art.path
        if path not in self._opened:
            if isinstance(op, ImageOp):
                with Image.open(path) as image:
                    image.thumbnail((IMAGE_READ_SIZE, IMAGE_READ_SIZE))  # keeps the proportions
                    self._opened[path] = eight_bit(image).convert("RGBA")
            else:
                self._opened[path] = rasterise_art(op.art)
        return self._opened[path]


def rasterise_art(art: SvgArt) -> Image.Image:
    """SVG art as pixels on a transparent ground, :data:`IMAGE_READ_SIZE` along its longer side
    at most: drawn into a one-page PDF exactly as on a card, then rendered by PDFium."""
    # Only check needs these, and only for text over SVG art; each takes tenths of a second to import.
    import pypdfium2  # noqa: PLC0415
    from reportlab.graphics import renderPDF  # noqa: PLC0415
    from reportlab.pdfgen.canvas import Canvas  # noqa: PLC0415

    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(art.width, art.height))
    renderPDF.draw(art.drawing, canvas, 0, 0)
    canvas.showPage()
    canvas.save()
    document = pypdfium2.PdfDocument(buffer.getvalue())
    try:
        scale = min(IMAGE_READ_SIZE / max(art.width, art.height), ART_SCALE)
        return document[0].render(scale=scale, fill_color=(255, 255, 255, 0)).to_pil().convert("RGBA")
    finally:
        document.close()


def _intersection(first: Box, second: Box) -> Box | None:
    left, bottom = max(first.x, second.x), max(first.y, second.y)
    right, top = min(first.right, second.right), min(first.top, second.top)
    if right - left <= EPSILON or top - bottom <= EPSILON:
        return None
    return Box(left, bottom, right - left, top - bottom)
