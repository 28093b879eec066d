"""Built-in vector icons: drawn from shape data, so they stay sharp at any size.

Each icon lives in ``data/icons.yaml`` as a list of shapes in a 100 x 100 box
(y grows downwards, as in SVG, so simple SVG path data can be pasted in)::

    sun:
      - circle: [50, 50, 22]
      - path: "M 50 4 L 57 20 L 43 20 Z"
        repeat: 8            # eight copies turned about the centre

Shapes: ``circle: [cx, cy, r]``, ``ellipse: [cx, cy, rx, ry]``,
``rect: [x, y, w, h]`` or ``[x, y, w, h, corner radius]``, ``path: "<SVG path
data>"`` (M L H V C S Q T A Z, absolute or relative). Options per shape:

- ``fill``: ``ink`` (the element's colour, the default), ``accent`` (its second
  colour, paper white unless set) or ``none``
- ``stroke`` and ``width``: an outline in ``ink`` or ``accent``, ``width`` in box units
- ``repeat: n`` copies turned about the centre; ``rotate: degrees`` turns the shape
- ``evenodd: true`` makes overlapping sub-paths cut holes
- ``unlabelled: true`` draws the shape only where the icon shows no label (the
  built-in coin's sparkle makes way for the 2 of ``:coin{2}:``)

An icon in text may show a label (``:coin{2}:``): its text is centred in the icon's
square, its capitals :data:`LABEL_HEIGHT` of the square high, shrunk to
:data:`LABEL_WIDTH` of it when wider (see :func:`label_place`), in the icon's accent (its
own ``accent`` when the layout gives it one, else paper white): the colour that stands out
on the icon's ink, as its cut-out details do.

Layouts may add or replace icons in their own ``icons:`` section, as shape
lists or as SVG files (see :mod:`generator.render.svg`), and may give an icon
colours of its own, which it keeps wherever it is drawn::

    icons:
      coin: {svg: icons/coin.svg}                # beside the layout file, never outside its folder
      gem: {svg: icons/gem.svg, colour: "#2d63b3"}
      spark: {shapes: [{circle: [50, 50, 30]}], colour: gold}

A one-colour SVG icon (the usual game-icons.net download) takes the colour of
the element or text that draws it, as shape icons take ``ink``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from reportlab.lib.colors import Color, white

from generator.boxes import Box
from generator.errors import InputError, Position
from generator.loading import Document, load_yaml
from generator.paths import resolve_inside
from generator.reading import Problems
from generator.render.paint import faded
from generator.render.svg import SvgArt, SvgError, draw_svg, load_svg
from generator.revisions import current_source

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

ICONS_FILE = Path(__file__).parent / "data" / "icons.yaml"
ICON_BOX = 100.0
SHAPE_KINDS = ("circle", "ellipse", "rect", "path")
SHAPE_OPTIONS = {"fill", "stroke", "width", "repeat", "rotate", "evenodd", "unlabelled"}
PAINT_CHOICES = ("ink", "accent", "none")
ICON_KEYS = {"svg", "shapes", "colour", "accent"}
MAX_ICON_NUMBER = 10_000.0
"""The largest coordinate, size, width or angle in an icon's shapes (the icon box is 100
units across): a hundred boxes off is already invisible, and ``1.0e+308`` overflows the
drawing arithmetic to infinity."""
MAX_SHAPE_REPEAT = 360
"""Copies of one shape turned about the centre (``repeat: 8`` for a sun's rays): one a degree
is already a solid disc; a billion would take hours to draw."""
LABEL_HEIGHT = 0.55
"""How high an icon's label's capitals (and figures) stand, as a share of the icon's side."""
LABEL_WIDTH = 0.7
"""The widest an icon's label may be, as a share of the icon's side: a wider one is set smaller (a round
coin's rim leaves no more room for two figures)."""
MAX_PATH_NUMBERS = 20_000
"""Numbers in one shape's path data. A detailed icon path has a few hundred; ten thousand
points in one icon, drawn on every card that shows it, is not an icon."""

KeyPath = tuple[str | int, ...]
"""Where in a YAML document a part of an icon is (as :meth:`Document.at` takes it)."""


class Segment(NamedTuple):
    """One piece of a path, in absolute icon box units: a move or a line to a point (``M``,
    ``L``: x, y), a cubic curve (``C``: two control points, then its end) or a close (``Z``)."""

    kind: str
    numbers: tuple[float, ...] = ()


@dataclass(repr=False, eq=False)
class Shape:
    """One shape of an icon, in icon box units."""

    kind: str
    numbers: tuple[float, ...]
    segments: tuple[Segment, ...]
    fill: str
    stroke: str
    width: float
    repeat: int
    rotate: float
    evenodd: bool
    unlabelled: bool = False


@dataclass(repr=False, eq=False)
class Icon:
    """An icon: shapes drawn from data, or SVG art; with colours of its own when the layout
    gives them (``colour``/``accent`` as written; ``ink``/``accent_ink`` once resolved)."""

    shapes: tuple[Shape, ...] = ()
    art: SvgArt | None = None
    colour: str | None = None
    accent: str | None = None
    ink: Color | None = None
    accent_ink: Color | None = None
    position: Position | None = field(default=None, compare=False)

    def colours(self, ink: Color | None, accent: Color | None) -> list[Color]:
        """The colours drawing the icon paints, given the ink and accent of what draws it."""
        ink, accent = self.ink or ink, self.accent_ink or accent
        if self.art is not None:
            return [ink] if self.art.one_colour and ink is not None else list(self.art.colours)
        used = {paint for shape in self.shapes for paint in (shape.fill, shape.stroke)}
        return [colour for name, colour in (("ink", ink), ("accent", accent))
                if name in used and colour is not None]


def load_icons() -> dict[str, Icon]:
    """The built-in icons."""
    document = load_yaml(ICONS_FILE)
    problems = Problems()
    icons = parse_icons(document.data, document, (), problems)
    problems.raise_any()
    return icons


def parse_icons(data: Any, document: Document, keys: KeyPath, problems: Problems,
                folder: Path | None = None) -> dict[str, Icon]:
    """Icon definitions (name -> list of shapes, or {svg|shapes, colour, accent}), checked and
    parsed. SVG files are looked up in ``folder`` and may not lead out of it.

    Each icon is read on its own: one with a mistake gives ``problems`` that mistake and
    stays known as an empty icon, so elements drawing it are not also told it is unknown.
    """
    if not isinstance(data, dict):
        problems.add(InputError("icons must map icon names to lists of shapes", document.at(*keys)))
        return {}
    return {str(name): problems.attempt(partial(_parse_icon, str(name), entry, document, (*keys, name), folder),
                                        Icon())
            for name, entry in data.items()}


def _parse_icon(name: str, entry: Any, document: Document, keys: KeyPath, folder: Path | None) -> Icon:
    if isinstance(entry, dict):
        return _parse_entry(name, entry, document, keys, folder)
    return Icon(_parse_shapes(name, entry, document, keys))


def _parse_shapes(name: str, shapes: Any, document: Document, keys: KeyPath) -> tuple[Shape, ...]:
    if not isinstance(shapes, list) or not shapes:
        raise InputError(f"icon '{name}' needs a list of shapes, or {{svg: file.svg}}", document.at(*keys))
    return tuple(_parse_shape(shape, document, (*keys, index)) for index, shape in enumerate(shapes))


def _parse_entry(name: str, entry: dict[Any, Any], document: Document, keys: KeyPath, folder: Path | None) -> Icon:
    unknown = sorted(str(key) for key in entry if key not in ICON_KEYS)
    kinds = [key for key in ("svg", "shapes") if key in entry]
    if unknown or len(kinds) != 1:
        raise InputError(f"icon '{name}' has svg (a file) or shapes (a list), and may have colour and "
                         "accent", document.at(*keys, *unknown[:1]), field=name)
    for key in ("colour", "accent"):
        value = entry.get(key)
        if value is not None and not isinstance(value, str):
            raise InputError(f"icon '{name}' {key} is a colour name or hex code", document.at(*keys, key),
                             field=key)
    colour, accent = entry.get("colour"), entry.get("accent")
    if "shapes" in entry:
        return Icon(_parse_shapes(name, entry["shapes"], document, (*keys, "shapes")), colour=colour, accent=accent,
                    position=document.at(*keys))
    position = document.at(*keys, "svg")
    if folder is None:
        raise InputError(f"icon '{name}': SVG icons belong in a layout", position, field="svg")
    reference = entry["svg"]
    path = resolve_inside(folder, reference, position, field="svg")
    if not current_source().is_file(path):
        raise InputError(f"icon '{name}': '{reference}' not found in {folder}", position, field="svg")
    try:
        return Icon(art=load_svg(path), colour=colour, accent=accent, position=document.at(*keys))
    except SvgError as error:
        where = f" (line {error.line})" if error.line else ""
        raise InputError(f"icon '{name}': '{reference}'{where} {error}", position, field="svg") from None


def _parse_shape(raw: Any, document: Document, keys: KeyPath) -> Shape:
    where = document.at(*keys)
    if not isinstance(raw, dict):
        raise InputError("an icon shape is a mapping such as {circle: [50, 50, 20]}", where)
    kinds = [key for key in raw if key in SHAPE_KINDS]
    unknown = set(raw) - set(SHAPE_KINDS) - SHAPE_OPTIONS
    if len(kinds) != 1 or unknown:
        raise InputError(f"an icon shape has one of {', '.join(SHAPE_KINDS)} and options "
                         f"{', '.join(sorted(SHAPE_OPTIONS))}", where)
    kind = kinds[0]
    numbers: tuple[float, ...] = ()
    segments: tuple[Segment, ...] = ()
    try:
        if kind == "path":
            segments = tuple(parse_path(str(raw[kind])))
        else:
            if not isinstance(raw[kind], list):
                raise ValueError(f"{kind} is a list of numbers")
            numbers = tuple(_icon_number(n) for n in raw[kind])
            wanted = {"circle": (3,), "ellipse": (4,), "rect": (4, 5)}[kind]
            if len(numbers) not in wanted:
                raise ValueError(f"{kind} takes {' or '.join(map(str, wanted))} numbers")
    except (TypeError, ValueError) as error:
        raise InputError(f"bad {kind}: {error}", document.at(*keys, kind)) from None
    fill = raw.get("fill", "ink" if "stroke" not in raw else "none")
    stroke = raw.get("stroke", "none")
    for option, value in (("fill", fill), ("stroke", stroke)):
        if value not in PAINT_CHOICES:
            raise InputError(f"{option} is one of {', '.join(PAINT_CHOICES)}", document.at(*keys, option))
    options: dict[str, float] = {}
    for option, default in (("width", 4.0), ("rotate", 0.0)):
        value = raw.get(option, default)
        try:
            options[option] = _icon_number(value)
        except ValueError as error:
            raise InputError(f"bad {option}: {error}", document.at(*keys, option)) from None
    repeat = raw.get("repeat", 1)
    if isinstance(repeat, bool) or not isinstance(repeat, int) or not 1 <= repeat <= MAX_SHAPE_REPEAT:
        raise InputError(f"repeat is a whole number of copies from 1 to {MAX_SHAPE_REPEAT}, "
                         f"found {repeat!r}"[:200], document.at(*keys, "repeat"))
    if options["width"] < 0:
        raise InputError("width cannot be negative", document.at(*keys, "width"))
    if not isinstance(raw.get("unlabelled", False), bool):
        raise InputError("unlabelled is true or false", document.at(*keys, "unlabelled"))
    return Shape(kind=kind, numbers=numbers, segments=segments, fill=fill, stroke=stroke,
                 width=options["width"], repeat=repeat, rotate=options["rotate"],
                 evenodd=bool(raw.get("evenodd", False)), unlabelled=bool(raw.get("unlabelled", False)))


def _icon_number(value: Any) -> float:
    """A number of an icon shape, finite and within MAX_ICON_NUMBER of the origin."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise ValueError(f"expected a number, found {value!r}"[:80])
    try:
        number = float(value)
    except OverflowError:
        number = math.inf
    except ValueError:
        raise ValueError(f"expected a number, found '{value}'"[:80]) from None
    if not abs(number) <= MAX_ICON_NUMBER:  # also false for nan
        raise ValueError(f"{str(value)[:20]} is not a number from -{MAX_ICON_NUMBER:,.0f} to "
                         f"{MAX_ICON_NUMBER:,.0f}")
    return number


_TOKEN = re.compile(r"[MmLlHhVvCcSsQqTtAaZz]|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_ARGUMENTS = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Q": 4, "T": 2, "A": 7, "Z": 0}
_ARC_FLAGS = (3, 4)
"""Which of an arc's numbers are its large-arc and sweep flags: one digit each, which SVG
lets run on into what follows ("a5 5 0 0110 10" is flags 0 and 1, then 10 10)."""


def parse_path(data: str) -> list[Segment]:
    """SVG path data -> absolute segments of moves, lines, cubic curves and closes, as svglib
    draws the same data in an SVG file (quadratic curves raised to cubic ones, arcs cut into
    curves of at most a quarter turn). Read here rather than by svglib because every ``check``
    and ``build`` reads the built-in icons, and svglib brings reportlab's graphics and
    platypus with it, which neither command otherwise loads."""
    tokens = _TOKEN.findall(data)
    if not tokens or tokens[0] not in "Mm":
        raise ValueError("path data starts with M")
    if len(tokens) > MAX_PATH_NUMBERS:
        raise ValueError(f"path data has {len(tokens):,} commands and numbers, more than {MAX_PATH_NUMBERS:,}")
    segments: list[Segment] = []
    x = y = start_x = start_y = 0.0
    last_control: tuple[float, float] | None = None
    last_quad: tuple[float, float] | None = None
    command = ""
    index = 0
    while index < len(tokens):
        if tokens[index].isalpha():
            command = tokens[index]
            index += 1
        elif command in "Zz":  # a close takes no numbers: repeating it would read none, for ever
            raise ValueError(f"'{command}' takes no numbers; begin what follows it with M or L")
        upper, relative = command.upper(), command.islower()
        count = _ARGUMENTS[upper]
        args: list[float] = []
        while len(args) < count and index < len(tokens) and not tokens[index].isalpha():
            token = tokens[index]
            if upper == "A" and len(args) in _ARC_FLAGS and len(token) > 1 and token[0] in "01":
                args.append(float(token[0]))
                tokens[index] = token[1:]  # the rest is the next number
                continue
            args.append(_icon_number(token))
            index += 1
        if len(args) < count:
            raise ValueError(f"'{command}' needs {count} numbers")
        base_x, base_y = (x, y) if relative else (0.0, 0.0)
        control, quad = None, None
        if upper == "Z":
            segments.append(Segment("Z"))
            x, y = start_x, start_y
        elif upper == "M":
            x, y = base_x + args[0], base_y + args[1]
            start_x, start_y = x, y
            segments.append(Segment("M", (x, y)))
            command = "l" if relative else "L"  # further pairs are lines, as SVG says
        elif upper in "LHV":
            if upper == "H":
                x = base_x + args[0]
            elif upper == "V":
                y = base_y + args[0]
            else:
                x, y = base_x + args[0], base_y + args[1]
            segments.append(Segment("L", (x, y)))
        elif upper in "CS":
            if upper == "C":
                x1, y1 = base_x + args[0], base_y + args[1]
                rest = args[2:]
            else:
                x1, y1 = (2 * x - last_control[0], 2 * y - last_control[1]) if last_control else (x, y)
                rest = args
            x2, y2 = base_x + rest[0], base_y + rest[1]
            x, y = base_x + rest[2], base_y + rest[3]
            segments.append(Segment("C", (x1, y1, x2, y2, x, y)))
            control = (x2, y2)
        elif upper in "QT":
            if upper == "Q":
                qx, qy = base_x + args[0], base_y + args[1]
                end_x, end_y = base_x + args[2], base_y + args[3]
            else:
                qx, qy = (2 * x - last_quad[0], 2 * y - last_quad[1]) if last_quad else (x, y)
                end_x, end_y = base_x + args[0], base_y + args[1]
            segments.append(Segment("C", (x + 2 / 3 * (qx - x), y + 2 / 3 * (qy - y),
                                          end_x + 2 / 3 * (qx - end_x), end_y + 2 / 3 * (qy - end_y), end_x, end_y)))
            x, y = end_x, end_y
            quad = (qx, qy)
        elif upper == "A":
            end_x, end_y = base_x + args[5], base_y + args[6]
            segments.extend(_arc(x, y, args[0], args[1], args[2], bool(args[3]), bool(args[4]),
                                 end_x, end_y))
            x, y = end_x, end_y
        last_control, last_quad = control, quad
    return segments


def _arc(x1: float, y1: float, rx: float, ry: float, angle: float, large: bool, sweep: bool,
         x2: float, y2: float) -> list[Segment]:
    """An SVG elliptical arc as cubic curves (the SVG specification's endpoint conversion)."""
    if (x1, y1) == (x2, y2):  # SVG leaves such an arc out
        return []
    if rx == 0 or ry == 0:
        return [Segment("L", (x2, y2))]
    rx, ry = abs(rx), abs(ry)
    phi = math.radians(angle)
    cos_phi, sin_phi = math.cos(phi), math.sin(phi)
    dx, dy = (x1 - x2) / 2, (y1 - y2) / 2
    x1p = cos_phi * dx + sin_phi * dy
    y1p = -sin_phi * dx + cos_phi * dy
    scale = (x1p / rx) ** 2 + (y1p / ry) ** 2
    if scale > 1:  # radii too small to reach: grow them, as SVG does
        rx, ry = rx * math.sqrt(scale), ry * math.sqrt(scale)
    numerator = rx * rx * ry * ry - rx * rx * y1p * y1p - ry * ry * x1p * x1p
    denominator = rx * rx * y1p * y1p + ry * ry * x1p * x1p
    factor = math.sqrt(max(0.0, numerator / denominator))
    if large == sweep:
        factor = -factor
    cxp, cyp = factor * rx * y1p / ry, -factor * ry * x1p / rx
    cx = cos_phi * cxp - sin_phi * cyp + (x1 + x2) / 2
    cy = sin_phi * cxp + cos_phi * cyp + (y1 + y2) / 2
    theta1 = math.atan2((y1p - cyp) / ry, (x1p - cxp) / rx)
    delta = math.atan2((-y1p - cyp) / ry, (-x1p - cxp) / rx) - theta1
    if sweep and delta < 0:
        delta += 2 * math.pi
    elif not sweep and delta > 0:
        delta -= 2 * math.pi
    pieces = max(1, math.ceil(abs(delta) / (math.pi / 2)))
    step = delta / pieces
    handle = 4 / 3 * math.tan(step / 4)

    def point(theta: float) -> tuple[float, float]:
        px, py = rx * math.cos(theta), ry * math.sin(theta)
        return cx + cos_phi * px - sin_phi * py, cy + sin_phi * px + cos_phi * py

    def tangent(theta: float) -> tuple[float, float]:
        tx, ty = -rx * math.sin(theta), ry * math.cos(theta)
        return cos_phi * tx - sin_phi * ty, sin_phi * tx + cos_phi * ty

    segments: list[Segment] = []
    for piece in range(pieces):
        a, b = theta1 + piece * step, theta1 + (piece + 1) * step
        (ax, ay), (bx, by) = point(a), point(b)
        (tax, tay), (tbx, tby) = tangent(a), tangent(b)
        segments.append(Segment("C", (ax + handle * tax, ay + handle * tay,
                                      bx - handle * tbx, by - handle * tby, bx, by)))
    return segments


def label_place(x: float, y: float, side: float, width: float, cap_height: float) -> tuple[float, float, float]:
    """Where a label sits in the icon square (x, y, side): the x its text starts at, its
    baseline and its type size, given its width and cap height at 1 pt. Centred both ways (the
    capitals' middle on the square's), :data:`LABEL_HEIGHT` high, narrowed to :data:`LABEL_WIDTH`."""
    size = LABEL_HEIGHT * side / cap_height if cap_height > 0 else side
    if width * size > LABEL_WIDTH * side:
        size = LABEL_WIDTH * side / width
    return x + (side - width * size) / 2, y + (side - cap_height * size) / 2, size


def label_colour(icon: Icon) -> Color:
    """The colour of an icon's label: the icon's own accent, else paper white."""
    return icon.accent_ink or white


def draw_label(canvas: Canvas, pieces: Sequence[tuple[str, str, float]], x: float, y: float, size: float,
               colour: Color, opacity: float = 1.0) -> None:
    """An icon's label: its (font, text, width at 1 pt) pieces from (x, baseline y), at ``size``."""
    canvas.setFillAlpha(getattr(colour, "alpha", 1) * opacity)
    text = canvas.beginText()
    text.setFillColor(colour)
    cursor = x
    for font, part, width in pieces:
        text.setFont(font, size)
        text.setTextOrigin(cursor, y)
        text.textOut(part)
        cursor += width * size
    canvas.drawText(text)
    canvas.setFillAlpha(1)


def draw_icon(canvas: Canvas, icon: Icon, x: float, y: float, size: float, ink: Color, accent: Color,
              opacity: float = 1.0, labelled: bool = False) -> None:
    """Draw ``icon`` in the square (x, y, size, size), in PDF coordinates; its own colours,
    when it has them, win over ``ink`` and ``accent``. A ``labelled`` icon leaves out its
    ``unlabelled`` shapes."""
    ink, accent = icon.ink or ink, icon.accent_ink or accent
    if icon.art is not None:
        draw_svg(canvas, icon.art, Box(x, y, size, size), "contain", ink, opacity)
        return
    ink, accent = faded(ink, opacity), faded(accent, opacity)
    canvas.saveState()
    canvas.translate(x, y + size)
    canvas.scale(size / ICON_BOX, -size / ICON_BOX)  # icon data runs y-down, like SVG
    colours = {"ink": ink, "accent": accent}
    for shape in icon.shapes:
        if labelled and shape.unlabelled:
            continue
        for copy in range(shape.repeat):
            turn = shape.rotate + copy * 360.0 / shape.repeat
            canvas.saveState()
            if turn:
                canvas.translate(ICON_BOX / 2, ICON_BOX / 2)
                canvas.rotate(turn)
                canvas.translate(-ICON_BOX / 2, -ICON_BOX / 2)
            _draw_shape(canvas, shape, colours)
            canvas.restoreState()
    canvas.restoreState()


def _draw_shape(canvas: Canvas, shape: Shape, colours: dict[str, Color]) -> None:
    # check lays faces out without reportlab's canvas; whatever draws has it loaded already
    from reportlab.pdfgen.canvas import FILL_EVEN_ODD, FILL_NON_ZERO  # noqa: PLC0415

    path = canvas.beginPath()
    numbers = shape.numbers
    if shape.kind == "circle":
        path.circle(*numbers)
    elif shape.kind == "ellipse":
        cx, cy, rx, ry = numbers
        path.ellipse(cx - rx, cy - ry, 2 * rx, 2 * ry)
    elif shape.kind == "rect":
        if len(numbers) == 5 and numbers[4] > 0:
            path.roundRect(*numbers)
        else:
            path.rect(*numbers[:4])
    else:
        for segment in shape.segments:
            if segment.kind == "M":
                path.moveTo(*segment.numbers)
            elif segment.kind == "L":
                path.lineTo(*segment.numbers)
            elif segment.kind == "C":
                path.curveTo(*segment.numbers)
            else:
                path.close()
    fill = shape.fill != "none"
    stroke = shape.stroke != "none"
    if fill:
        canvas.setFillColor(colours[shape.fill])
    if stroke:
        canvas.setStrokeColor(colours[shape.stroke])
        canvas.setLineWidth(shape.width)
        canvas.setLineJoin(1)
        canvas.setLineCap(1)
    mode = FILL_EVEN_ODD if shape.evenodd else FILL_NON_ZERO
    canvas.drawPath(path, fill=int(fill), stroke=int(stroke), fillMode=mode)
