"""Planning a face: a layout and one face's fields -> the exact things to draw.

Planning does all the work that can fail (templates, text fitting, glyphs,
icon names, image files) and none of the drawing, so ``validate`` can plan
every face without a canvas and ``draw`` can replay a plan without checks.
A plan is a tuple of small operations in PDF points, origin at the card's
bottom-left corner.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TypeVar

from jinja2 import TemplateError
from reportlab.lib.colors import Color

from generator.boxes import Box, Corners, region_bounds, turn_point
from generator.errors import InputError, Position
from generator.paths import resolve_inside
from generator.render.fonts import FontRegistry
from generator.render.icons import Icon, label_colour, label_place
from generator.render.images import DEFAULT_DPI, ImageProblem, image_pixels
from generator.render.layout import Element, IconElement, ImageElement, Layout, LineElement, ShapeElement, TextElement
from generator.render.markup import Markup, parse_markup, plain_text
from generator.render.paint import Gradient, PaintError
from generator.render.runs import (
    ICON_MARGIN,
    SOFT_HYPHEN,
    MeasuredWords,
    Run,
    ShapeError,
    TextSettings,
    Word,
    icon_side,
    shape_text,
)
from generator.render.svg import SvgArt, SvgError, load_svg
from generator.render.text import (
    FittedText,
    Metrics,
    block_height,
    first_ascent,
    fit_line,
    fit_wrapped,
    line_offsets,
    overflowing,
)
from generator.revisions import current_source
from generator.sandbox import TemplateLimitError

MAX_REPEAT = 50
"""More icons than this in one row is a typo, not a card."""
RULE_THICKNESS = 0.06
"""A rule's thickness (``---`` in text), in ems of the text's size: half a point at 8 pt."""

MAX_MEMO_ENTRIES = 4096
"""Entries each of planning's memos (element operations, parsed strings, measured words)
holds before it starts afresh. Faces share frames, labels and words, so a memo saves
most of the fitting; a deck of 100,000 different cards would otherwise keep every
card's text and operations until the command ends. Starting afresh costs planning each
shared element once more, a few times in a deck of tens of thousands of cards."""

K = TypeVar("K")
V = TypeVar("V")
E = TypeVar("E", bound=Exception)


class BoundedMemo(dict[K, V]):
    """A memo of at most ``limit`` entries: adding one to a full memo empties it first.

    What it remembers can always be worked out again, so forgetting changes no result,
    only how much is worked out twice; emptying the whole memo (rather than dropping the
    oldest entry) keeps a lookup a plain dict's and an insertion cheap."""

    def __init__(self, limit: int = MAX_MEMO_ENTRIES) -> None:
        super().__init__()
        self.limit = limit

    def __setitem__(self, key: K, value: V) -> None:
        if len(self) >= self.limit and key not in self:
            self.clear()
        super().__setitem__(key, value)


class PlanProblem(Exception):
    """Why one element cannot be planned; the renderer adds deck, card and face.

    ``field`` names the face's field whose value is at fault (bad markup typed
    into a card), so the error can point at that line of the deck file;
    ``in_layout`` says the layout's own text is at fault; ``file`` is an image
    file that is broken or too large (an input error rather than a layout one);
    ``kind`` is "fit" when text does not fit its box, else "layout".
    """

    def __init__(self, element: Element, message: str, field: str | None = None,
                 in_layout: bool = False, file: Position | None = None, kind: str = "layout") -> None:
        super().__init__(message)
        self.element = element
        self.message = message
        self.field = field
        self.in_layout = in_layout
        self.file = file
        self.kind = kind


class PlanProblems(Exception):
    """Every element of one face that cannot be planned, each its own :class:`PlanProblem`, in
    the layout's order: a face is planned to its last element, so one pass names them all."""

    def __init__(self, problems: Sequence[PlanProblem]) -> None:
        super().__init__("; ".join(problem.message for problem in problems))
        self.problems = tuple(problems)


@dataclass(repr=False, eq=False)
class Frame:
    """An element's turn (degrees clockwise about ``centre``) and opacity (0 to 1)."""

    rotate: float
    centre: tuple[float, float]
    opacity: float


def corners_of(box: Box, frame: Frame | None = None) -> Corners:
    """The four corners of ``box`` where they land on the page once ``frame`` turns it."""
    points = ((box.x, box.y), (box.right, box.y), (box.right, box.top), (box.x, box.top))
    if frame is None or not frame.rotate:
        return points
    return tuple(turn_point(point, frame.centre, frame.rotate) for point in points)


def outline_of(box: Box, frame: Frame | None = None) -> Box:
    """The upright box around ``box`` as ``frame`` turns it onto the page (``box`` itself upright)."""
    return region_bounds(corners_of(box, frame)) if frame is not None and frame.rotate else box


@dataclass(repr=False, eq=False)
class ShapeOp:
    """A rectangle (rounded by ``radius``) or an ellipse filling ``box``."""

    box: Box
    ellipse: bool
    radius: float
    fill: Color | Gradient | None
    stroke: Color | None
    width: float
    dash: tuple[float, ...]
    bleed: bool
    element: str = ""  # the layout element that drew it, for checks that name it
    frame: Frame | None = None  # its turn and opacity, when it has either


@dataclass(repr=False, eq=False)
class LineOp:
    """A straight line from ``start`` to ``end``."""

    start: tuple[float, float]
    end: tuple[float, float]
    stroke: Color | None
    width: float
    dash: tuple[float, ...]
    element: str = ""  # the layout element that drew it, for checks that name it
    frame: Frame | None = None  # its turn and opacity, when it has either


@dataclass(repr=False, eq=False)
class Glyphs:
    """Text in one font and colour, its baseline starting at (x, y)."""

    x: float
    y: float
    text: str
    font: str  # the name the font is registered under with reportlab
    colour: Color | None


@dataclass(repr=False, eq=False)
class IconLabel:
    """The text an inline icon shows, its baseline starting at (x, y), at ``size``: pieces of
    (font as registered with reportlab, text, width at 1 pt)."""

    x: float
    y: float
    size: float
    pieces: tuple[tuple[str, str, float], ...]
    colour: Color

    @property
    def text(self) -> str:
        return "".join(text for _, text, _ in self.pieces)


@dataclass(repr=False, eq=False)
class InlineIcon:
    """An icon set in a line of text, in the square (x, y, side), with its label if it shows one."""

    icon: Icon
    x: float
    y: float
    side: float
    ink: Color | None
    accent: Color | None
    label: IconLabel | None = None


@dataclass(repr=False, eq=False)
class TextRule:
    """A rule across the text box: from ``x`` to ``x + width`` at height ``y``, ``thickness``
    thick, in the text's colour."""

    x: float
    y: float
    width: float
    thickness: float


@dataclass(repr=False, eq=False)
class TextLine:
    """One printed line of a text: where its baseline starts and its pieces in order (a rule's
    line holds its :class:`TextRule` alone)."""

    x: float
    baseline: float
    text: str  # what a reader sees on the line: no markup, no icons, icons' labels
    pieces: tuple[Glyphs | InlineIcon | TextRule, ...]


@dataclass(repr=False, eq=False)
class TextOp:
    """A text element laid out: its lines, at the size it fits."""

    font: str  # the element's own font, as registered with reportlab
    size: float
    colour: Color | None
    text_lines: tuple[TextLine, ...]
    element: str = ""  # the layout element that drew it, for checks that name it
    frame: Frame | None = None  # its turn and opacity, when it has either
    overflow: Box | None = None  # in a draft, the box this text overflows: clipped to it, marked

    @property
    def lines(self) -> tuple[tuple[float, float, str], ...]:
        """(x, baseline y, text) of each line."""
        return tuple((line.x, line.baseline, line.text) for line in self.text_lines)


@dataclass(repr=False, eq=False)
class IconOp:
    """An icon drawn at each of ``squares`` (repeated icons have several)."""

    icon: Icon
    squares: tuple[tuple[float, float, float], ...]  # (x, y, size) of each copy
    ink: Color
    accent: Color
    element: str = ""  # the layout element that drew it, for checks that name it
    frame: Frame | None = None  # its turn and opacity, when it has either


@dataclass(repr=False, eq=False)
class ImageOp:
    """A raster image placed in ``box`` as ``fit`` says."""

    path: Path
    pixels: tuple[int, int]
    box: Box
    fit: str
    bleed: bool
    element: str = ""  # the layout element that drew it, for checks that name it
    frame: Frame | None = None  # its turn and opacity, when it has either
    dpi: int = DEFAULT_DPI  # larger images are downsampled to this resolution at their drawn size


@dataclass(repr=False, eq=False)
class ArtOp:
    """SVG art, drawn as vector paths."""

    art: SvgArt
    box: Box
    fit: str
    bleed: bool
    element: str = ""  # the layout element that drew it, for checks that name it
    frame: Frame | None = None  # its turn and opacity, when it has either


Op = ShapeOp | LineOp | TextOp | IconOp | ImageOp | ArtOp


@dataclass(repr=False, eq=False)
class PlanResources:
    """What planning needs besides the layout: fonts, the deck folder for images, and what
    planning earlier faces learnt (image sizes, each distinct string's markup, each
    element's operation for the values it read)."""

    fonts: FontRegistry
    deck_folder: Path
    draft: bool = False
    """Text that does not fit is drawn anyway (see :func:`_text`), its problem kept in ``overflows``."""
    overflows: list[PlanProblem] = field(default_factory=list)
    image_sizes: dict[Path, tuple[int, int] | ImageProblem] = field(default_factory=dict)
    arts: dict[Path, SvgArt | SvgError] = field(default_factory=dict)
    markup: dict[str, Markup] = field(default_factory=BoundedMemo)
    words: MeasuredWords = field(default_factory=lambda: BoundedMemo(4 * MAX_MEMO_ENTRIES))
    """Each word's measured runs (see :func:`~generator.render.runs.shape_text`)."""
    planned: dict[tuple[Any, ...], tuple[Op | None, tuple[PlanProblem, ...]]] = field(default_factory=BoundedMemo)
    """Each element's operation (and a draft's overflows) by the values it read."""
    reads: dict[int, tuple[tuple[str, ...], ...]] = field(default_factory=dict)

    def pixels(self, path: Path, shown: str) -> tuple[int, int]:
        """An image's size, checked (bounded, whole) once per file."""
        return _remembered(self.image_sizes, path, lambda: image_pixels(path, shown), ImageProblem)

    def art(self, path: Path) -> SvgArt:
        """SVG art, read and checked once per file."""
        return _remembered(self.arts, path, lambda: load_svg(path), SvgError)

    def parse(self, text: str) -> Markup:
        """The markup of ``text``, parsed once per distinct string."""
        markup = self.markup.get(text)
        if markup is None:
            markup = self.markup[text] = parse_markup(text)
        return markup

    def element_reads(self, layout: Layout) -> tuple[tuple[str, ...], ...]:
        """For each element of ``layout``, every name its planning reads: its own, and for text
        the styles' (worked out once a layout)."""
        reads = self.reads.get(id(layout))
        if reads is None:
            styles = frozenset().union(*(style.colour.names for style in layout.styles.values() if style.colour))
            reads = self.reads[id(layout)] = tuple(
                tuple(sorted(element.names | styles if isinstance(element, TextElement) else element.names))
                for element in layout.elements)
        return reads


def _remembered(known: dict[K, V | E], key: K, make: Callable[[], V], failure: type[E]) -> V:
    """``make()`` once per key: its result, or the error it raised, raised again each time."""
    if key not in known:
        try:
            known[key] = make()
        except failure as error:
            known[key] = error
    remembered = known[key]
    if isinstance(remembered, Exception):
        raise remembered
    return remembered


def plan_face(layout: Layout, context: dict[str, Any], resources: PlanResources) -> tuple[Op, ...]:
    """Every operation that draws this face, in drawing order.

    An element planned before with the same values is not planned again: its
    operation is taken from ``resources``, so faces that share a frame, a
    label or an icon row share the very same operation.

    An element that cannot be planned does not stop the face: the others are planned
    all the same, and :class:`PlanProblems` is raised at the end with every element's
    problem, so a face with text that does not fit and a missing image says both.
    """
    ops: list[Op] = []
    failed: list[PlanProblem] = []
    planned, overflows = resources.planned, resources.overflows
    layout_id, value = id(layout), context.get
    key: tuple[Any, ...] | None
    for index, (element, names) in enumerate(zip(layout.elements, resources.element_reads(layout), strict=True)):
        # What planning the element depends on: the layout, the element and the values it reads
        # (read with map: a face reads some twenty elements' values, and a comprehension costs a call).
        key = (layout_id, index, tuple(map(value, names)))
        try:
            known = planned.get(key)  # hashed once, here (a tuple does not keep its hash)
        except TypeError:  # a dict or list value (``card``, ``fields``): planned afresh on every face
            known = key = None
        if known is not None:
            op = known[0]
            if known[1]:
                overflows.extend(known[1])
        else:
            start = len(overflows)
            try:
                op = _plan_element(element, context, resources, layout)
            except PlanProblem as problem:  # not remembered: planned (and reported) again on each face
                del overflows[start:]  # one problem an element: the one that stopped it
                failed.append(problem)
                continue
            if key is not None:
                planned[key] = (op, tuple(overflows[start:]))
        if op is not None:
            ops.append(op)
    if failed:
        raise PlanProblems(failed)
    return tuple(ops)


def _plan_element(element: Element, context: dict[str, Any], resources: PlanResources,
                  layout: Layout) -> Op | None:
    try:
        if element.when is not None and not element.when.render(context):
            return None
        op = _PLANNERS[type(element)](element, context, resources, layout)
    except TemplateLimitError as error:  # the layout asks for more work than a card may take
        raise PlanProblem(element, str(error), in_layout=True, file=element.position) from None
    except (TemplateError, PaintError, ValueError, TypeError, ArithmeticError) as error:
        raise PlanProblem(element, str(error)) from None
    return None if op is None else replace(op, element=element.name, frame=_frame(element))


def _frame(element: Element) -> Frame | None:
    if not element.rotate and element.opacity >= 1:
        return None
    box = element.frame
    return Frame(element.rotate, (box.x + box.width / 2, box.y + box.height / 2), element.opacity)


def _shape(element: ShapeElement, context: dict[str, Any], resources: PlanResources, layout: Layout) -> ShapeOp | None:
    fill, stroke = element.fill.resolve(context), element.stroke.resolve(context)
    if fill is None and stroke is None:
        return None
    return ShapeOp(element.box, element.kind == "ellipse", element.radius, fill, stroke,
                   element.width, element.dash, element.bleed)


def _line(element: LineElement, context: dict[str, Any], resources: PlanResources, layout: Layout) -> LineOp | None:
    stroke = element.stroke.resolve(context)
    if stroke is None:
        return None
    return LineOp(element.start, element.end, stroke, element.width, element.dash)


def _text(element: TextElement, context: dict[str, Any], resources: PlanResources,
          layout: Layout) -> TextOp | None:
    rendered = str(element.text.render(context)).replace("\t", " ").replace("\r\n", "\n")
    text = "\n".join(line.rstrip() for line in rendered.strip().split("\n"))
    if not text:
        return None
    try:
        markup = resources.parse(text)
        settings = TextSettings(
            font=element.font, fallback=element.fallback, icon_scale=element.icon_scale, styles=layout.styles,
            style_colours={name: style.colour.resolve(context) for name, style in layout.styles.items()
                           if style.colour is not None},
            icons=layout.icons)
        paragraphs = shape_text(markup, settings, resources.fonts, resources.words)
    except ShapeError as error:
        raise _markup_problem(element, error, text, context) from None
    metrics = _line_metrics(resources.fonts, element, any(run.icon for words in paragraphs
                                                          for word in words for run in word.runs))
    box = element.box
    fit = fit_line if element.fit == "line" else fit_wrapped
    fitted = fit(paragraphs, box.width, box.height, element.size, element.min_size, element.leading, metrics)
    overflow = None
    if fitted is None:
        plain = " ".join(plain_text(markup).replace(SOFT_HYPHEN, "").split())  # as it prints unbroken
        preview = plain if len(plain) <= 40 else plain[:37] + "..."
        problem = PlanProblem(element, f"text \"{preview}\" does not fit its {_mm(box.width)} x "
                                       f"{_mm(box.height)} box even at {element.min_size:g} pt", kind="fit")
        if not resources.draft:
            raise problem
        # A draft prints it anyway: the smallest size, from its start, clipped and marked.
        resources.overflows.append(problem)
        fitted = overflowing(paragraphs, box.width, element.min_size, wrapped=element.fit == "wrap")
        element, overflow = replace(element, valign="top", align="left"), box
    colour = element.colour.resolve(context)
    lines = _set_lines(element, fitted, metrics, resources.fonts, colour)
    return TextOp(resources.fonts.font(element.font).fontName, fitted.size, colour, lines, overflow=overflow)


def _line_metrics(fonts: FontRegistry, element: TextElement, has_icons: bool) -> Metrics:
    """The element font's metrics, made tall enough for inline icons (centred on the capitals)."""
    face = fonts.font(element.font).face
    metrics = Metrics(ascent=face.ascent / 1000, descent=-face.descent / 1000, cap_height=face.capHeight / 1000)
    if not has_icons:
        return metrics
    half = metrics.cap_height * element.icon_scale / 2
    middle = metrics.cap_height / 2
    return Metrics(ascent=max(metrics.ascent, middle + half), descent=max(metrics.descent, half - middle),
                   cap_height=metrics.cap_height)


def _set_lines(element: TextElement, fitted: FittedText[Word], metrics: Metrics, fonts: FontRegistry,
               colour: Color | None) -> tuple[TextLine, ...]:
    """Every line of fitted text placed in the box: baselines, alignment, each run's position."""
    box, size = element.box, fitted.size
    leading = element.leading * size
    if len(fitted.lines) == 1 and element.valign == "middle":
        # Centre capitals and figures on the box's middle: what the eye reads as centred.
        baseline = box.y + box.height / 2 - metrics.cap_height * size / 2
        # Moved no further than keeps the line's own ink (an accent, a descender) inside the box.
        line = fitted.lines[0]
        baseline = min(baseline, box.y + box.height - line.top * size)
        baseline = max(baseline, box.y + line.bottom * size)
    else:
        height = block_height(fitted.lines, size, element.leading, metrics)
        top = {"top": box.y + box.height,
               "middle": box.y + (box.height + height) / 2,
               "bottom": box.y + height}[element.valign]
        baseline = top - first_ascent(fitted.lines, metrics) * size
    side = icon_side(fonts, element.font, element.icon_scale)
    offsets = line_offsets(fitted.lines, element.leading)
    lines = []
    for line, offset in zip(fitted.lines, offsets, strict=True):
        y = baseline - offset * leading
        if line.rule:
            # Halfway between the line above's descenders and the line below's ascenders.
            middle = y + (metrics.ascent - metrics.descent) / 2 * size
            lines.append(TextLine(box.x, y, "", (TextRule(box.x, middle, box.width, RULE_THICKNESS * size),)))
            continue
        width = line.width(size)
        gap_extra = 0.0
        align = element.align
        if align == "justify":
            gaps = sum(1 for word in line.words[1:] if word.space)  # none between a word's syllables
            if not line.last and gaps:
                gap_extra = (box.width - width) / gaps
            align = "left"
        x = {"left": box.x, "center": box.x + (box.width - width) / 2,
             "right": box.x + box.width - width}[align]
        lines.append(_place_words(line.words, x, y, size, gap_extra, side, metrics, colour))
    return tuple(lines)


def _place_words(words: Sequence[Word], x: float, y: float, size: float, gap_extra: float, side: float,
                 metrics: Metrics, colour: Color | None) -> TextLine:
    """One line's runs at their positions. A space between two words is printed as part of the
    word before it (when that ends in text), so the PDF's text reads with its spaces; the line's
    last word prints the hyphen of a soft hyphen that ends it (the line breaks there), and the
    syllables of a word inside the line join with nothing between them."""
    pieces: list[Glyphs | InlineIcon | TextRule] = []
    reading: list[str] = []
    cursor = x
    last = len(words) - 1
    for index, word in enumerate(words):
        if index and word.space:
            cursor += word.space * size + gap_extra
        spaced = index < last and words[index + 1].space > 0
        runs = word.runs + word.hyphen_runs if index == last and word.hyphen_runs else word.runs
        for position, run in enumerate(runs):
            space = " " if spaced and position == len(runs) - 1 else ""
            if run.icon is not None:
                icon_size = side * size
                bottom = y + (metrics.cap_height * size - icon_size) / 2
                left = cursor + ICON_MARGIN * size
                label = _icon_label(run, left, bottom, icon_size)
                pieces.append(InlineIcon(run.icon, left, bottom, icon_size, run.colour or colour, None, label))
                if label is not None:
                    reading.append(label.text + space)
            else:
                shown = run.text + space
                pieces.append(Glyphs(cursor, y, shown, run.font, run.colour or colour))
                reading.append(shown)
            cursor += run.width * size
    return TextLine(x, y, "".join(reading).strip(), tuple(pieces))


def _icon_label(run: Run, x: float, y: float, side: float) -> IconLabel | None:
    """The label an icon run shows, placed in its square (x, y, side)."""
    label = run.label
    if label is None:
        return None
    start, baseline, size = label_place(x, y, side, label.width, label.cap_height)
    return IconLabel(start, baseline, size, label.pieces, label_colour(run.icon))


def _markup_problem(element: TextElement, error: ShapeError, text: str, context: dict[str, Any]) -> PlanProblem:
    """The problem, blaming the card's field that holds the bad markup when one does, else the
    layout's template."""
    if not error.token:  # a missing face or glyph: the element's font is at fault, not the text
        return PlanProblem(element, error.message + error.hint)
    preview = text if len(text) <= 60 else text[:57] + "..."
    message = f"{error.message} in \"{preview}\"{error.hint}"
    for name in sorted(element.text.names):
        value = context.get(name)
        if isinstance(value, str) and error.token in value:
            return PlanProblem(element, message, field=name)
    return PlanProblem(element, message, in_layout=True)


def _icon(element: IconElement, context: dict[str, Any], resources: PlanResources, layout: Layout) -> IconOp | None:
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
    _check_crowding(element, count)
    ink, accent = element.colour.resolve(context), element.accent.resolve(context)
    return IconOp(layout.icons[name], _icon_squares(element, count), ink, accent)


def _row_lengths(element: IconElement) -> tuple[float, float]:
    """The box's length along the row (or column) and across it."""
    box = element.box
    return (box.width, box.height) if element.direction == "row" else (box.height, box.width)


def _check_crowding(element: IconElement, count: int) -> None:
    """Refuses ``count`` icons whose gaps leave them smaller than a gap (or no room at all): they
    would print as a dotted line, or run past the box. Fewer icons than that shrink to fit."""
    along, across = _row_lengths(element)
    gap = element.gap
    if count < 2 or gap <= 0 or min(across, (along - gap * (count - 1)) / count) >= gap:
        return
    # n icons as large as their gaps are (2n - 1) gaps long; none is when the box is narrower than a gap
    most = 1 if across < gap else max(1, int((along / gap + 1) / 2 + 1e-9))
    size = max(0.0, (along - gap * (count - 1)) / count)
    raise PlanProblem(element, f"repeat gives {count} icons with a {_mm(gap)} gap: in its {_mm(along)} "
                               f"{element.direction} they would be {_mm(size)}, smaller than their gaps; "
                               f"at most {most} fit: make the box longer, the gap smaller or the count lower (repeat)")


def _icon_squares(element: IconElement, count: int) -> tuple[tuple[float, float, float], ...]:
    """Squares for ``count`` icons in a row (or column), as large as the box allows: the gaps
    keep their size and the icons shrink (:func:`_check_crowding` refuses a count too crowded)."""
    box, gap = element.box, element.gap
    along, across = _row_lengths(element)
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


def _image(element: ImageElement, context: dict[str, Any], resources: PlanResources,
           layout: Layout) -> ImageOp | ArtOp | None:
    relative = str(element.path.render(context)).strip()
    if not relative:
        return None
    path = _image_file(resources.deck_folder, relative, element)
    try:
        if path.suffix.lower() == ".svg":
            return ArtOp(resources.art(path), element.box, element.fit, element.bleed)
        pixels = resources.pixels(path, relative)
    except SvgError as error:
        raise PlanProblem(element, f"SVG image '{relative}' {error}",
                          file=Position(path, error.line)) from None
    except ImageProblem as error:
        raise PlanProblem(element, str(error), file=Position(path)) from None
    return ImageOp(path, pixels, element.box, element.fit, element.bleed, dpi=element.dpi)


def _image_file(folder: Path, relative: str, element: Element) -> Path:
    """``relative`` as an existing file inside the deck folder; anything else is refused."""
    try:
        path = resolve_inside(folder, relative, Position(folder), field="image")
    except InputError as error:
        raise PlanProblem(element, f"image path {error.message}") from None
    if not current_source().is_file(path):
        raise PlanProblem(element, f"image '{relative}' not found in {folder}")
    return path


def _mm(points: float) -> str:
    return f"{points * 25.4 / 72:.1f} mm"


Planner = Callable[[Any, dict[str, Any], PlanResources, Layout], Op | None]
"""Plans one kind of element (the first argument is an element of that kind)."""

_PLANNERS: dict[type[Element], Planner] = {
    ShapeElement: _shape,
    LineElement: _line,
    TextElement: _text,
    IconElement: _icon,
    ImageElement: _image,
}
