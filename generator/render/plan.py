"""Planning a face: a layout and one face's fields -> the exact things to draw.

Planning does all the work that can fail (templates, text fitting, glyphs,
icon names, image files) and none of the drawing, so ``validate`` can plan
every face without a canvas and ``draw`` can replay a plan without checks.
A plan is a tuple of small operations in PDF points, origin at the card's
bottom-left corner.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from jinja2 import TemplateError
from PIL import Image, UnidentifiedImageError
from reportlab.lib.colors import Color

from generator.errors import InputError, Position
from generator.paths import resolve_inside
from generator.render.fonts import FontRegistry
from generator.render.icons import Icon
from generator.boxes import Box
from generator.render.layout import (Element, IconElement, ImageElement, Layout, LineElement,
                                     ShapeElement, TextElement)
from generator.render.paint import PaintError
from generator.render.text import Metrics, fit_line, fit_wrapped, block_height

MAX_REPEAT = 50
"""More icons than this in one row is a typo, not a card."""


class PlanProblem(Exception):
    """Why one element cannot be planned; the renderer adds deck, card and face."""

    def __init__(self, element: Element, message: str):
        super().__init__(message)
        self.element = element
        self.message = message


@dataclass(frozen=True)
class ShapeOp:
    box: Box
    ellipse: bool
    radius: float
    fill: Color | None
    stroke: Color | None
    width: float
    dash: tuple[float, ...]
    bleed: bool
    element: str = ""  # the layout element that drew it, for checks that name it


@dataclass(frozen=True)
class LineOp:
    start: tuple[float, float]
    end: tuple[float, float]
    stroke: Color | None
    width: float
    dash: tuple[float, ...]
    element: str = ""  # the layout element that drew it, for checks that name it


@dataclass(frozen=True)
class TextOp:
    font: str  # the name the font is registered under with reportlab
    size: float
    colour: Color | None
    lines: tuple[tuple[float, float, str], ...]  # (x, baseline y, text)
    element: str = ""  # the layout element that drew it, for checks that name it


@dataclass(frozen=True)
class IconOp:
    icon: Icon
    squares: tuple[tuple[float, float, float], ...]  # (x, y, size) of each copy
    ink: Color
    accent: Color
    element: str = ""  # the layout element that drew it, for checks that name it


@dataclass(frozen=True)
class ImageOp:
    path: Path
    pixels: tuple[int, int]
    box: Box
    fit: str
    bleed: bool
    element: str = ""  # the layout element that drew it, for checks that name it


Op = ShapeOp | LineOp | TextOp | IconOp | ImageOp


@dataclass
class PlanResources:
    """What planning needs besides the layout: fonts, and the deck folder for images."""

    fonts: FontRegistry
    deck_folder: Path
    image_sizes: dict[Path, tuple[int, int]]


def plan_face(layout: Layout, context: dict[str, Any], resources: PlanResources) -> tuple[Op, ...]:
    """Every operation that draws this face, in drawing order."""
    ops: list[Op] = []
    for element in layout.elements:
        try:
            if element.when is not None and not element.when.render(context):
                continue
            op = _PLANNERS[type(element)](element, context, resources, layout)
        except PlanProblem:
            raise
        except (TemplateError, PaintError, ValueError, TypeError, ArithmeticError) as error:
            raise PlanProblem(element, f"{type(error).__name__}: {error}"
                              if isinstance(error, TemplateError) else str(error)) from None
        if op is not None:
            ops.append(replace(op, element=element.name))
    return tuple(ops)


def _shape(element: ShapeElement, context, resources, layout) -> ShapeOp | None:
    fill, stroke = element.fill.resolve(context), element.stroke.resolve(context)
    if fill is None and stroke is None:
        return None
    return ShapeOp(element.box, element.kind == "ellipse", element.radius, fill, stroke,
                   element.width, element.dash, element.bleed)


def _line(element: LineElement, context, resources, layout) -> LineOp | None:
    stroke = element.stroke.resolve(context)
    if stroke is None:
        return None
    return LineOp(element.start, element.end, stroke, element.width, element.dash)


def font_metrics(fonts: FontRegistry, name: str) -> Metrics:
    face = fonts.font(name).face
    return Metrics(ascent=face.ascent / 1000, descent=-face.descent / 1000,
                   cap_height=face.capHeight / 1000)


def _text(element: TextElement, context, resources: PlanResources, layout) -> TextOp | None:
    rendered = str(element.text.render(context)).replace("\t", " ").replace("\r\n", "\n")
    text = "\n".join(line.rstrip() for line in rendered.strip().split("\n"))
    if not text:
        return None
    missing = resources.fonts.missing_characters(element.font, text)
    if missing:
        shown = ", ".join(f"'{char}' (U+{ord(char):04X})" for char in missing)
        raise PlanProblem(element, f"font '{element.font}' has no glyph for {shown}")
    font = resources.fonts.font(element.font)
    metrics = font_metrics(resources.fonts, element.font)
    box = element.box

    def measure(value: str, size: float) -> float:
        return font.stringWidth(value, size)

    if element.fit == "line":
        text = " ".join(text.split())  # one line: template line breaks are just spaces
        fitted = fit_line(text, box.width, box.height, element.size, element.min_size, measure, metrics)
    else:
        fitted = fit_wrapped(text, box.width, box.height, element.size, element.min_size,
                             element.leading, measure, metrics)
    if fitted is None:
        preview = text if len(text) <= 40 else text[:37] + "..."
        raise PlanProblem(element, f"text \"{preview}\" does not fit its "
                                   f"{_mm(box.width)} x {_mm(box.height)} box even at "
                                   f"{element.min_size:g} pt")
    size = fitted.size
    leading = element.leading * size
    if len(fitted.lines) == 1 and element.valign == "middle":
        # Centre capitals and figures on the box's middle: what the eye reads as centred.
        baseline = box.y + box.height / 2 - metrics.cap_height * size / 2
    else:
        height = block_height(len(fitted.lines), size, element.leading, metrics)
        top = {"top": box.y + box.height,
               "middle": box.y + (box.height + height) / 2,
               "bottom": box.y + height}[element.valign]
        baseline = top - metrics.ascent * size
    lines = []
    for index, line in enumerate(fitted.lines):
        width = measure(line, size)
        x = {"left": box.x, "center": box.x + (box.width - width) / 2,
             "right": box.x + box.width - width}[element.align]
        lines.append((x, baseline - index * leading, line))
    return TextOp(font.fontName, size, element.colour.resolve(context), tuple(lines))


def _icon(element: IconElement, context, resources, layout: Layout) -> IconOp | None:
    name = str(element.icon.render(context)).strip()
    if not name:
        return None
    if name not in layout.icons:
        raise PlanProblem(element, f"no icon named '{name}'")
    count = 1
    if element.repeat is not None:
        raw = str(element.repeat.render(context)).strip() or "0"
        try:
            count = int(float(raw))
        except ValueError:
            raise PlanProblem(element, f"repeat gives '{raw}', not a number") from None
        if not 0 <= count <= MAX_REPEAT:
            raise PlanProblem(element, f"repeat gives {count}; 0 to {MAX_REPEAT} icons fit a card")
    if count == 0:
        return None
    ink, accent = element.colour.resolve(context), element.accent.resolve(context)
    return IconOp(layout.icons[name], _icon_squares(element, count), ink, accent)


def _icon_squares(element: IconElement, count: int) -> tuple[tuple[float, float, float], ...]:
    """Squares for ``count`` icons in a row (or column), as large as the box allows."""
    box, gap = element.box, element.gap
    along, across = (box.width, box.height) if element.direction == "row" else (box.height, box.width)
    size = min(across, (along - gap * (count - 1)) / count)
    used = size * count + gap * (count - 1)
    start = {"left": 0.0, "center": (along - used) / 2, "right": along - used}[element.align]
    squares = []
    for index in range(count):
        offset = start + index * (size + gap)
        if element.direction == "row":
            squares.append((box.x + offset, box.y + (box.height - size) / 2, size))
        else:  # columns run top to bottom, as a reader expects
            squares.append((box.x + (box.width - size) / 2, box.y + box.height - offset - size, size))
    return tuple(squares)


def _image(element: ImageElement, context, resources: PlanResources, layout) -> ImageOp | None:
    relative = str(element.path.render(context)).strip()
    if not relative:
        return None
    path = _image_file(resources.deck_folder, relative, element)
    if path not in resources.image_sizes:
        try:
            with Image.open(path) as image:
                resources.image_sizes[path] = image.size
        except (UnidentifiedImageError, OSError) as error:
            raise PlanProblem(element, f"cannot read image '{relative}': {error}") from None
    return ImageOp(path, resources.image_sizes[path], element.box, element.fit, element.bleed)


def _image_file(folder: Path, relative: str, element: Element) -> Path:
    """``relative`` as an existing file inside the deck folder; anything else is refused."""
    try:
        path = resolve_inside(folder, relative, Position(folder), field="image")
    except InputError as error:
        raise PlanProblem(element, f"image path {error.message}") from None
    if not path.is_file():
        raise PlanProblem(element, f"image '{relative}' not found in {folder}")
    return path


def _mm(points: float) -> str:
    return f"{points * 25.4 / 72:.1f} mm"


_PLANNERS = {
    ShapeElement: _shape,
    LineElement: _line,
    TextElement: _text,
    IconElement: _icon,
    ImageElement: _image,
}
