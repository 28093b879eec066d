"""Drawing a planned face onto a reportlab canvas.

No checks and no templating happen here: the plan already holds every
position, colour and line of text, so drawing the same plan twice gives the
same bytes. Elements marked ``bleed`` grow past the trim box by the bleed on
every side they touch, when the caller asks for bleed.
"""

from __future__ import annotations

from reportlab.lib.colors import white as WHITE

from generator.boxes import Box
from generator.render.icons import draw_icon
from generator.render.images import PreparedImages, drawn_rectangle, resampling
from generator.render.plan import (ArtOp, Glyphs, IconOp, ImageOp, InlineIcon, LineOp, Op, ShapeOp,
                                   TextOp)
from generator.render.svg import draw_svg

EDGE_TOLERANCE = 0.01
"""Points: an edge this close to the trim edge counts as touching it."""


def draw_plan(canvas, ops: tuple[Op, ...], trim: Box, bleed: float, images: PreparedImages) -> None:
    """Draw ``ops`` with the trim box at ``trim``; ``bleed`` > 0 paints past the cut.

    Everything is clipped to the trim box (plus bleed), so a face never paints
    over its neighbours on a sheet.
    """
    canvas.saveState()
    clip = canvas.beginPath()
    clip.rect(trim.x - bleed, trim.y - bleed, trim.width + 2 * bleed, trim.height + 2 * bleed)
    canvas.clipPath(clip, stroke=0, fill=0)
    for op in ops:
        if isinstance(op, ShapeOp):
            _shape(canvas, op, trim, bleed)
        elif isinstance(op, LineOp):
            _line(canvas, op)
        elif isinstance(op, TextOp):
            _text(canvas, op)
        elif isinstance(op, IconOp):
            for x, y, size in op.squares:
                draw_icon(canvas, op.icon, x, y, size, op.ink, op.accent)
        elif isinstance(op, ImageOp):
            _image(canvas, op, trim, bleed, images)
        elif isinstance(op, ArtOp):
            draw_svg(canvas, op.art, grow_into_bleed(op.box, trim, bleed) if op.bleed else op.box, op.fit)
    canvas.restoreState()


def grow_into_bleed(box: Box, trim: Box, bleed: float) -> Box:
    """``box`` with each edge that lies on the trim edge pushed out by ``bleed``."""
    if bleed <= 0:
        return box
    left = bleed if abs(box.x - trim.x) < EDGE_TOLERANCE else 0.0
    bottom = bleed if abs(box.y - trim.y) < EDGE_TOLERANCE else 0.0
    right = bleed if abs(box.x + box.width - trim.x - trim.width) < EDGE_TOLERANCE else 0.0
    top = bleed if abs(box.y + box.height - trim.y - trim.height) < EDGE_TOLERANCE else 0.0
    return Box(box.x - left, box.y - bottom, box.width + left + right, box.height + bottom + top)


def _set_stroke(canvas, colour, width: float, dash: tuple[float, ...]) -> None:
    canvas.setStrokeColor(colour)
    canvas.setLineWidth(width)
    canvas.setDash(list(dash) if dash else [])


def _shape(canvas, op: ShapeOp, trim: Box, bleed: float) -> None:
    box = grow_into_bleed(op.box, trim, bleed) if op.bleed else op.box
    if op.fill is not None:
        canvas.setFillColor(op.fill)
    if op.stroke is not None:
        _set_stroke(canvas, op.stroke, op.width, op.dash)
    fill, stroke = int(op.fill is not None), int(op.stroke is not None)
    if op.ellipse:
        canvas.ellipse(box.x, box.y, box.x + box.width, box.y + box.height, stroke=stroke, fill=fill)
    elif op.radius > 0 and box is op.box:  # a frame: rounded corners only when not bled
        canvas.roundRect(box.x, box.y, box.width, box.height, op.radius, stroke=stroke, fill=fill)
    else:
        canvas.rect(box.x, box.y, box.width, box.height, stroke=stroke, fill=fill)


def _line(canvas, op: LineOp) -> None:
    _set_stroke(canvas, op.stroke, op.width, op.dash)
    canvas.line(*op.start, *op.end)


def _text(canvas, op: TextOp) -> None:
    """Each line as one text object (runs switch font and colour inside it), then its icons."""
    for line in op.text_lines:
        text = canvas.beginText()
        font, colour = None, None
        for piece in line.pieces:
            if not isinstance(piece, Glyphs):
                continue
            if piece.font != font:
                text.setFont(piece.font, op.size)
                font = piece.font
            if piece.colour is not None and piece.colour != colour:
                text.setFillColor(piece.colour)
                colour = piece.colour
            text.setTextOrigin(piece.x, piece.y)
            text.textOut(piece.text)
        canvas.drawText(text)
        for piece in line.pieces:
            if isinstance(piece, InlineIcon):
                draw_icon(canvas, piece.icon, piece.x, piece.y, piece.side, piece.ink,
                          piece.accent or WHITE)


def _image(canvas, op: ImageOp, trim: Box, bleed: float, images: PreparedImages) -> None:
    box = grow_into_bleed(op.box, trim, bleed) if op.bleed else op.box
    resample = resampling(op.pixels, box, op.fit, op.dpi)
    reader = images.reader(op.path, resample)
    drawn = box if resample is not None and op.fit == "cover" else drawn_rectangle(box, op.pixels, op.fit)
    canvas.saveState()
    if op.fit == "cover":
        clip = canvas.beginPath()
        clip.rect(box.x, box.y, box.width, box.height)
        canvas.clipPath(clip, stroke=0, fill=0)
    canvas.drawImage(reader, drawn.x, drawn.y, drawn.width, drawn.height, mask="auto")
    canvas.restoreState()


def image_rectangle(box: Box, pixels: tuple[int, int], fit: str) -> tuple[float, float, float, float]:
    """(x, y, width, height) where an image of ``pixels`` is drawn for ``box`` and ``fit``,
    before a ``cover`` image is clipped to the box."""
    drawn = drawn_rectangle(box, pixels, fit)
    return drawn.x, drawn.y, drawn.width, drawn.height
