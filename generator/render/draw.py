"""Drawing a planned face onto a reportlab canvas.

No checks and no templating happen here: the plan already holds every
position, colour and line of text, so drawing the same plan twice gives the
same bytes. Elements marked ``bleed`` grow past the trim box by the bleed on
every side they touch, when the caller asks for bleed.

An element's ``rotate`` turns the canvas about its box's centre; its
``opacity`` multiplies the alpha of every colour it paints (and images' and
gradients' constant alpha), so it becomes real PDF transparency.
"""

from __future__ import annotations

from itertools import groupby

from reportlab.lib.colors import Color, HexColor
from reportlab.lib.colors import white as WHITE
from reportlab.pdfgen.canvas import Canvas
from reportlab.pdfgen.pathobject import PDFPathObject

from generator.boxes import Box
from generator.render.icons import draw_icon, draw_label
from generator.render.images import PreparedImages, Resampling, drawn_rectangle, resampling
from generator.render.paint import Gradient, faded
from generator.render.plan import ArtOp, Glyphs, IconOp, ImageOp, InlineIcon, LineOp, Op, ShapeOp, TextOp, TextRule
from generator.render.replay import Replay
from generator.render.svg import draw_svg

EDGE_TOLERANCE = 0.01
"""Points: an edge this close to the trim edge counts as touching it."""
OVERFLOW_RED = HexColor("#e00000")
OVERFLOW_FLAG = 7.0
"""Points: the red triangle in the corner of a draft's overflowing text box."""


def draw_plan(canvas: Canvas, ops: tuple[Op, ...], trim: Box, bleed: float, images: PreparedImages,
              replay: Replay) -> None:
    """Draw ``ops`` with the trim box at ``trim``; ``bleed`` > 0 paints past the cut.

    Everything is clipped to the trim box (plus bleed), so a face never paints
    over its neighbours on a sheet. Through ``replay`` (one per canvas, trim and
    bleed), an operation drawn there before in the same state is replayed
    (see :mod:`~generator.render.replay`); images, SVG art and gradients, which
    name resources of the form they are drawn in, are always drawn.
    """
    canvas.saveState()
    clip = canvas.beginPath()
    clip.rect(trim.x - bleed, trim.y - bleed, trim.width + 2 * bleed, trim.height + 2 * bleed)
    canvas.clipPath(clip, stroke=0, fill=0)
    replay.draw(canvas, ops, lambda op: _draw_op(canvas, op, trim, bleed, images), _replayable)
    canvas.restoreState()


def _replayable(op: Op) -> bool:
    return not isinstance(op, (ImageOp, ArtOp)) and not isinstance(getattr(op, "fill", None), Gradient)


def _draw_op(canvas: Canvas, op: Op, trim: Box, bleed: float, images: PreparedImages) -> None:
    frame = op.frame
    if frame is not None:
        canvas.saveState()
        if frame.rotate:
            cx, cy = frame.centre
            canvas.translate(cx, cy)
            canvas.rotate(-frame.rotate)  # PDF turns anticlockwise; layouts say clockwise
            canvas.translate(-cx, -cy)
    opacity = frame.opacity if frame is not None else 1.0
    if isinstance(op, ShapeOp):
        _shape(canvas, op, trim, bleed, opacity)
    elif isinstance(op, LineOp):
        _set_stroke(canvas, faded(op.stroke, opacity), op.width, op.dash)
        canvas.line(*op.start, *op.end)
    elif isinstance(op, TextOp):
        _text(canvas, op, opacity)
    elif isinstance(op, IconOp):
        for x, y, size in op.squares:
            draw_icon(canvas, op.icon, x, y, size, op.ink, op.accent, opacity)
    elif isinstance(op, ImageOp):
        _image(canvas, op, trim, bleed, images, opacity)
    elif isinstance(op, ArtOp):
        box = grow_into_bleed(op.box, trim, bleed) if op.bleed else op.box
        draw_svg(canvas, op.art, box, op.fit, opacity=opacity)
    if frame is not None:
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


def _set_stroke(canvas: Canvas, colour: Color | None, width: float, dash: tuple[float, ...]) -> None:
    canvas.setStrokeColor(colour)
    canvas.setLineWidth(width)
    canvas.setDash(list(dash) if dash else [])


def _shape(canvas: Canvas, op: ShapeOp, trim: Box, bleed: float, opacity: float) -> None:
    box = grow_into_bleed(op.box, trim, bleed) if op.bleed else op.box
    if isinstance(op.fill, Gradient):
        _gradient(canvas, op, box, op.fill, opacity)
        fill = None
    else:
        fill = faded(op.fill, opacity)
    if fill is None and op.stroke is None:
        return
    if fill is not None:
        canvas.setFillColor(fill)
    if op.stroke is not None:
        _set_stroke(canvas, faded(op.stroke, opacity), op.width, op.dash)
    canvas.drawPath(_outline(canvas, op, box), stroke=int(op.stroke is not None), fill=int(fill is not None))


def _outline(canvas: Canvas, op: ShapeOp, box: Box) -> PDFPathObject:
    path = canvas.beginPath()
    if op.ellipse:
        path.ellipse(box.x, box.y, box.width, box.height)
    elif op.radius > 0 and box is op.box:  # a frame: rounded corners only when not bled
        path.roundRect(box.x, box.y, box.width, box.height, op.radius)
    else:
        path.rect(box.x, box.y, box.width, box.height)
    return path


def _gradient(canvas: Canvas, op: ShapeOp, box: Box, gradient: Gradient, opacity: float) -> None:
    """A PDF shading clipped to the shape's outline."""
    canvas.saveState()
    canvas.clipPath(_outline(canvas, op, box), stroke=0, fill=0)
    if opacity < 1:
        canvas.setFillAlpha(opacity)  # the constant alpha applies to shadings too
    canvas.linearGradient(*gradient.line(box.x, box.y, box.width, box.height), list(gradient.colours),
                          extend=True)
    canvas.restoreState()


def _text(canvas: Canvas, op: TextOp, opacity: float) -> None:
    if op.overflow is None:
        _text_lines(canvas, op, opacity)
        return
    box = op.overflow
    canvas.saveState()
    clip = canvas.beginPath()
    clip.rect(box.x, box.y, box.width, box.height)
    canvas.clipPath(clip, stroke=0, fill=0)
    _text_lines(canvas, op, opacity)
    canvas.restoreState()
    _overflow_mark(canvas, box)


def _overflow_mark(canvas: Canvas, box: Box) -> None:
    """A draft's sign that text did not fit: a dashed red frame and a red corner flag."""
    canvas.saveState()
    canvas.setStrokeColor(OVERFLOW_RED)
    canvas.setFillColor(OVERFLOW_RED)
    canvas.setLineWidth(0.8)
    canvas.setDash([2, 1.5])
    canvas.rect(box.x, box.y, box.width, box.height, stroke=1, fill=0)
    flag = canvas.beginPath()
    size = min(OVERFLOW_FLAG, box.width, box.height)
    right = box.x + box.width
    flag.moveTo(right, box.y)
    flag.lineTo(right, box.y + size)
    flag.lineTo(right - size, box.y)
    flag.close()
    canvas.drawPath(flag, stroke=0, fill=1)
    canvas.restoreState()


def _text_lines(canvas: Canvas, op: TextOp, opacity: float) -> None:
    """Each line as text objects (runs switch font and colour inside them), then its icons.

    reportlab's text objects cannot change transparency, so runs of one alpha
    share a text object and the canvas's alpha is set before each.
    """
    for line in op.text_lines:
        glyphs = [piece for piece in line.pieces if isinstance(piece, Glyphs)]
        for alpha, same in groupby(glyphs, key=lambda piece: _alpha(piece.colour or op.colour, opacity)):
            canvas.setFillAlpha(alpha)
            text = canvas.beginText()
            font, colour = None, None
            for piece in same:
                if piece.font != font:
                    text.setFont(piece.font, op.size)
                    font = piece.font
                # "is not" first: a line's runs mostly share one colour object (spares Color.__eq__)
                if piece.colour is not None and piece.colour is not colour and piece.colour != colour:
                    text.setFillColor(piece.colour)
                    colour = piece.colour
                text.setTextOrigin(piece.x, piece.y)
                text.textOut(piece.text)
            canvas.drawText(text)
        for other in line.pieces:
            if isinstance(other, InlineIcon):
                label = other.label
                draw_icon(canvas, other.icon, other.x, other.y, other.side, other.ink, other.accent or WHITE, opacity,
                          labelled=label is not None)
                if label is not None:
                    draw_label(canvas, label.pieces, label.x, label.y, label.size, label.colour, opacity)
            elif isinstance(other, TextRule):
                _rule(canvas, other, op.colour, opacity)
    canvas.setFillAlpha(1)


def _rule(canvas: Canvas, rule: TextRule, colour: Color | None, opacity: float) -> None:
    """A rule in text: a line with square ends, in the text's colour (its state restored after)."""
    canvas.saveState()
    canvas.setLineCap(0)
    if colour is not None:
        canvas.setStrokeColor(faded(colour, opacity))
    canvas.setLineWidth(rule.thickness)
    canvas.setDash([])
    canvas.line(rule.x, rule.y, rule.x + rule.width, rule.y)
    canvas.restoreState()


def _alpha(colour: Color | None, opacity: float) -> float:
    return getattr(colour, "alpha", 1) * opacity if colour is not None else opacity


def image_placement(op: ImageOp, trim: Box, bleed: float) -> tuple[Box, Resampling | None]:
    """The box an image is drawn in on a face with the trim box at ``trim`` drawn with
    ``bleed``, and how it is resampled for it: what a check of the embedded pixels must
    ask for to see what drawing embeds."""
    box = grow_into_bleed(op.box, trim, bleed) if op.bleed else op.box
    return box, resampling(op.pixels, box, op.fit, op.dpi)


def _image(canvas: Canvas, op: ImageOp, trim: Box, bleed: float, images: PreparedImages, opacity: float) -> None:
    box, resample = image_placement(op, trim, bleed)
    reader = images.reader(op.path, resample)
    drawn = box if resample is not None and op.fit == "cover" else drawn_rectangle(box, op.pixels, op.fit)
    canvas.saveState()
    if op.fit == "cover":
        clip = canvas.beginPath()
        clip.rect(box.x, box.y, box.width, box.height)
        canvas.clipPath(clip, stroke=0, fill=0)
    if opacity < 1:
        canvas.setFillAlpha(opacity)
    canvas.drawImage(reader, drawn.x, drawn.y, drawn.width, drawn.height, mask="auto")
    canvas.restoreState()
