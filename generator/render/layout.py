"""Layout templates: YAML files that describe one card face, loaded and compiled.

A layout names a card size, a bleed and a safe zone, then lists the elements
drawn on the face, bottom first. Coordinates are measured from the card's
top-left corner, in real units (see :mod:`generator.render.units`)::

    extends: frame                 # start from layouts/frame.yaml, then change it
    size: poker                    # or [63.5mm, 88.9mm]; see data/card_sizes.yaml
    units: mm                      # bare numbers below are millimetres
    bleed: 3mm                     # how far background art runs past the cut (at most 10mm)
    safe: 3mm                      # text stays this far inside the cut
    corner_radius: 3mm             # how round the cut card's corners are (0: square), for exports
    title: "{{ name }}"            # the face's title in manifests (default: the title field)
    defaults: {font: Vera, size: 9, colour: ink}   # for text elements
    colours:
      accent: {field: category, map: {Shelf: brown}, default: grey}
    icons: {}                      # extra icons, as in data/icons.yaml
    fonts: {system: true}          # fonts installed on the computer may be named (see render/fonts.py)
    styles:                        # named text styles: "[Burn]{.burn} a monster"
      burn: {colour: "#e0601e", bold: true}
    elements:
      - name: title
        text: "{{ name }}"
        box: [5, 5, 53.5, 8]       # x, y, width, height from the top-left corner
        font: Vera-Bold
        size: 14                   # points; shrinks to fit on one line
      - name: roll
        when: "type == 'monster'"  # drawn only when this holds
        icon: "die-{{ roll }}"
        box: [5, 20, 10, 10]

Element kinds and their settings (lengths in the layout's units unless marked):

- ``text: "<template>"``, ``box``, ``font`` (DejaVuSans unless named; a list such
  as ``[Vera, DejaVuSans]`` draws each character in the first font that has it),
  ``size`` and ``min_size`` (points),
  ``fit: line`` (no wrapping, shrinks to fit) or ``wrap`` (wraps, then shrinks),
  ``align: left|center|right|justify``, ``valign: top|middle|bottom``, ``colour``,
  ``leading`` (line spacing as a multiple of the size), ``icon_scale`` (inline
  icons' size as a multiple of the cap height, 1 by default). The text, from
  the template and the card's fields alike, is markup (see
  :mod:`generator.render.markup`): ``**bold**``, ``*italic*``, ``:coin:`` for
  an icon, ``[word]{.style}``, and newlines for line breaks.
- ``rect: [x, y, w, h]`` or ``rect: card``, ``radius``, ``fill``, ``stroke``,
  ``width``, ``dash: [on, off]``, ``bleed: true`` (runs into the bleed)
- ``ellipse: [x, y, w, h]``, ``fill``, ``stroke``, ``width``, ``dash``
- ``line: [x1, y1, x2, y2]``, ``stroke``, ``width``, ``dash``
- ``icon: "<name or template>"``, ``box``, ``colour``, ``accent`` (cut-out
  details), ``repeat`` (a count, may be a template), ``direction: row|column``,
  ``gap``, ``align``
- ``image: "<path in the deck folder>"``, ``box``, ``fit: contain|cover|stretch``,
  ``bleed``, ``dpi`` (300 to 600: larger raster images are downsampled to it);
  an ``.svg`` file is drawn as vector paths

A ``styles:`` entry takes ``font`` (a family, or a list of them, from ``fonts/``),
``bold``, ``italic`` and ``colour``.

Any element may also have ``rotate`` (degrees about the centre of its box,
clockwise as seen on the card) and ``opacity`` (0 to 1). A ``fill`` may be a
gradient (see :mod:`generator.render.paint`).

Templates see every field of the face (None when a card leaves it out), and
``card.id``, ``card.count``, ``side`` ("front" or "back"), ``title``,
``fields`` (the face's other fields as (name, value) pairs), ``deck.name``,
``deck.designer``, ``deck.total``, ``deck.players``, ``deck.version`` (None when
the deck has none; ``version`` alone is the same); filters for dice odds are
listed in :mod:`generator.render.templating`. Any element may have ``when:``,
an expression (``"roll > 6"``) or a mapping of fields to wanted values
(``{type: monster}``, ``{roll: [2, 12]}``).

A layout that ``extends`` another inherits everything; an element with the
same ``name`` as an inherited one changes just the keys it gives, others are
added on top. ``when: false`` hides an inherited element.

Loading compiles every template once; the result is a :class:`Layout` in PDF
points with the origin at the bottom-left corner of the trim box.

Loading finds every mistake in one pass: reading and compiling take a
:class:`~generator.reading.Problems` collector, give it each mistake
(an unknown top-level setting, a section that is not a mapping, an element, icon
or style that cannot be read) and carry on without the part at fault, each
element on its own. Only a mistake that leaves nothing sound to read on from (a
file that is not YAML or not a mapping, ``extends`` of a layout that is missing,
or of itself) is raised at once. The caller raises what was collected.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from reportlab.lib.colors import Color

from generator.boxes import Box, region_bounds
from generator.errors import InputError, LayoutError, Position, did_you_mean, not_text
from generator.loading import Document, KeyPath, load_yaml
from generator.paths import resolve_inside
from generator.reading import Problems
from generator.render.fonts import DEFAULT_FONT, FontRegistry, system_fonts_wanted
from generator.render.icons import Icon, parse_icons
from generator.render.images import DEFAULT_DPI, MAX_DPI, MIN_DPI
from generator.render.paint import Gradient, Paint, PaintCompiler, PaintError
from generator.render.runs import NamedStyle
from generator.render.templating import Template, TemplateError, TemplateMemo
from generator.render.units import POINTS_PER_UNIT, UnitError, check_unit, read_length
from generator.revisions import current_source

K = TypeVar("K")
T = TypeVar("T")

LAYOUT_SUFFIX = ".yaml"
MAX_EXTENDS = 32
"""Layouts one ``extends`` chain may go through. A real design extends two or three; a longer
chain, from a mistake or a hostile deck folder of layouts each extending the next, is
refused at the ``extends`` that goes too far instead of nesting reading without end."""
BUILTIN_LAYOUTS_DIR = Path(__file__).parent / "layouts"
"""The layouts deckpress comes with (``generic``), found after the deck's and the project's."""
NAME_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]*$")
TOP_KEYS = {"extends", "size", "units", "bleed", "safe", "corner_radius", "title", "defaults", "colours", "icons",
            "styles", "elements", "description", "fonts"}
KINDS = ("text", "rect", "ellipse", "line", "icon", "image")
COMMON_KEYS = {"name", "when", "rotate", "opacity"}
KIND_KEYS = {
    "text": {"box", "font", "size", "min_size", "fit", "align", "valign", "colour", "leading",
             "icon_scale"},
    "rect": {"radius", "fill", "stroke", "width", "dash", "bleed"},
    "ellipse": {"fill", "stroke", "width", "dash"},
    "line": {"stroke", "width", "dash"},
    "icon": {"box", "colour", "accent", "repeat", "direction", "gap", "align"},
    "image": {"box", "fit", "bleed", "dpi"},
}
BOXED_KINDS = ("text", "icon", "image")
TEXT_DEFAULT_KEYS = KIND_KEYS["text"] - {"box"}
TEXT_DEFAULTS: dict[str, Any] = {"font": DEFAULT_FONT, "size": 9, "min_size": 6, "fit": "line", "align": "left",
                 "valign": "middle", "colour": "ink", "leading": 1.2, "icon_scale": 1.0}
STYLE_KEYS = {"font", "bold", "italic", "colour"}
MAX_FALLBACK_FONTS = 8
"""Fonts in one ``font: [A, B, ...]`` list. Each character is looked up in each font in
turn; a handful covers any script mix, and a long list is a mistake."""
CHOICES = {
    "fit": ("line", "wrap"),
    "align": ("left", "center", "right", "justify"),
    "icon_align": ("left", "center", "right"),
    "valign": ("top", "middle", "bottom"),
    "direction": ("row", "column"),
    "image_fit": ("contain", "cover", "stretch"),
}
WHOLE_CARD = "card"
"""``rect: card`` covers the whole card (with ``bleed: true``, the bleed too)."""
DEFAULT_BLEED = "3mm"
MAX_BLEED_MM = 10.0
"""The widest bleed (mm): print shops ask for 3 mm, a few for 5. Art run further past the cut
is never seen, and a larger bleed only crowds the sheet until no card fits on it."""
DEFAULT_SAFE = "3mm"
DEFAULT_CORNER_RADIUS = "3mm"
"""The cut card's corner radius when a layout does not say: the rounded corners print shops cut.
Nothing is drawn from it; exports that know a card's shape (Tabletop Simulator's square or
rounded cards) read it."""
DEFAULT_SIZE = "poker"
MAX_FONT_SIZE = 1000.0
"""The largest type size (points): a letter 35 cm tall, more than any card holds. Past it the
fitting steps (a quarter point at a time) would take too long to reach a size that fits."""
MAX_FACTOR = 100.0
"""The largest ``leading`` and ``icon_scale`` (multiples of the type size); a hundred lines'
worth of spacing is already off any card."""
MAX_DASH_LENGTHS = 16
"""Lengths in a ``dash`` pattern; a few make any pattern, and PDF readers have small limits."""


# Elements are told apart by identity (plans are keyed by id()), never by value: eq=False
# spares each class the __eq__ and __hash__ that dataclass would generate at every start.
@dataclass(repr=False, eq=False, kw_only=True)
class Element:
    """What every element has: a name for errors and overrides, and a condition."""

    name: str
    kind: str
    position: Position
    when: Template | None
    rotate: float = 0.0  # degrees about the centre of its box, clockwise as seen on the card
    opacity: float = 1.0

    @property
    def frame(self) -> Box:
        """The box the element turns about (its own box; a line's bounding box)."""
        raise NotImplementedError

    def templates(self) -> Iterable[Template]:
        return [self.when] if self.when else []

    def paints(self) -> Iterable[Paint]:
        return []

    @property
    def names(self) -> frozenset[str]:
        """Every field or special name this element reads."""
        return frozenset().union(*(template.names for template in self.templates()),
                                 *(paint.names for paint in self.paints()))


@dataclass(repr=False, eq=False, kw_only=True)
class BoxedElement(Element):
    """An element drawn in a box of its own (every kind but a line)."""

    box: Box

    @property
    def frame(self) -> Box:
        return self.box


@dataclass(repr=False, eq=False, kw_only=True)
class TextElement(BoxedElement):
    """Text in a box: a template, its font and size, and how it fits and aligns."""

    text: Template
    font: str
    size: float
    min_size: float
    fit: str
    align: str
    valign: str
    colour: Paint
    leading: float
    icon_scale: float
    fallback: tuple[str, ...] = ()  # fonts for characters ``font`` lacks, in order

    def templates(self) -> Iterable[Template]:
        return [*super().templates(), self.text]

    def paints(self) -> Iterable[Paint]:
        return [self.colour]


@dataclass(repr=False, eq=False, kw_only=True)
class ShapeElement(BoxedElement):
    """A rectangle (optionally rounded: a frame) or an ellipse."""

    radius: float
    fill: Paint
    stroke: Paint
    width: float
    dash: tuple[float, ...]
    bleed: bool

    def paints(self) -> Iterable[Paint]:
        return [self.fill, self.stroke]


@dataclass(repr=False, eq=False, kw_only=True)
class LineElement(Element):
    """A straight line from ``start`` to ``end``, stroked."""

    start: tuple[float, float]
    end: tuple[float, float]
    stroke: Paint
    width: float
    dash: tuple[float, ...]

    def paints(self) -> Iterable[Paint]:
        return [self.stroke]

    @property
    def frame(self) -> Box:
        return region_bounds((self.start, self.end))


@dataclass(repr=False, eq=False, kw_only=True)
class IconElement(BoxedElement):
    """An icon, or a row/column of ``repeat`` icons, fitted into ``box``."""

    icon: Template
    colour: Paint
    accent: Paint
    repeat: Template | None
    direction: str
    gap: float
    align: str

    def templates(self) -> Iterable[Template]:
        return [*super().templates(), self.icon] + ([self.repeat] if self.repeat else [])

    def paints(self) -> Iterable[Paint]:
        return [self.colour, self.accent]


@dataclass(repr=False, eq=False, kw_only=True)
class ImageElement(BoxedElement):
    """A raster image (downsampled to ``dpi`` at its drawn size) or SVG art (drawn as paths)."""

    path: Template
    fit: str
    bleed: bool
    dpi: int

    def templates(self) -> Iterable[Template]:
        return [*super().templates(), self.path]


@dataclass(repr=False, eq=False)
class Layout:
    """A loaded, compiled layout: everything in points, ready to plan faces with."""

    name: str
    path: Path
    width: float
    height: float
    bleed: float
    safe: float
    title: Template | None
    elements: list[Element]
    icons: dict[str, Icon]
    fonts: list[str]
    styles: dict[str, NamedStyle]
    title_position: Position | None
    """Where ``title:`` is written (in this file or one it extends), for errors making a title."""
    corner_radius: float
    """Points: how round the cut card's corners are (0 for square corners)."""
    files: tuple[Path, ...]
    """Every file the layout is drawn from (see :attr:`RawLayout.files`)."""
    size_position: Position | None = None
    """Where the card's size is written (``size:`` here or in a layout it extends, or the
    deck's ``card_size``); None for the default size."""

    @property
    def trim(self) -> Box:
        return Box(0.0, 0.0, self.width, self.height)

    @property
    def safe_box(self) -> Box:
        return Box(self.safe, self.safe, self.width - 2 * self.safe, self.height - 2 * self.safe)

    @property
    def names(self) -> frozenset[str]:
        """Every name any element (or the title) reads: what makes two faces differ."""
        return frozenset().union(self.title.names if self.title else (),
                                 *(element.names for element in self.elements),
                                 *(style.colour.names for style in self.styles.values() if style.colour))

    def element_named(self, name: str) -> Element | None:
        """The (first) element called ``name``, None when there is none."""
        return next((element for element in self.elements if element.name == name), None)


# --- finding and merging layout files -------------------------------------------------


@dataclass(repr=False, eq=False)
class Value:
    """A raw value from a layout file, with where it was written and that file's units."""

    data: Any
    position: Position
    units: str


@dataclass(repr=False, eq=False)
class RawElement:
    """One element of a layout file as written, its values not yet compiled."""

    name: str | None
    values: dict[str, Value]
    position: Position


@dataclass(repr=False, eq=False)
class RawLayout:
    """A layout file merged with everything it extends, before compiling."""

    name: str
    path: Path
    settings: dict[str, Value] = field(default_factory=dict)
    defaults: dict[str, Value] = field(default_factory=dict)
    colours: dict[str, Value] = field(default_factory=dict)
    styles: dict[str, Value] = field(default_factory=dict)
    icons: dict[str, Icon] = field(default_factory=dict)
    elements: list[RawElement] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)
    """The files it was read from: those it extends, itself, and the SVG icons they name
    beside them (whether or not they could be read): what a deck's version is taken from."""


def find_layout(name: str, search: list[Path], position: Position | None = None,
                confined: tuple[Path, ...] = ()) -> Path:
    """The file for layout ``name``: the first ``<folder>/<name>.yaml`` in ``search``.

    A file found in one of the ``confined`` folders (the deck's own folder, which
    may have been downloaded) must really lie inside it: a symlink pointing
    elsewhere on the disk is refused rather than read.
    """
    if not NAME_PATTERN.match(name):
        raise InputError(f"layout name '{name}' may use only letters, digits, '-' and '_'",
                         position, field="layout")
    source = current_source()
    confined_folders = {source.resolved(folder) for folder in confined}
    for folder in search:
        candidate = folder / f"{name}{LAYOUT_SUFFIX}"
        if source.is_file(candidate):
            if source.resolved(folder) in confined_folders:
                return resolve_inside(folder, candidate.name, position, field="layout")
            return candidate
    looked = ", ".join(str(folder) for folder in search) or "nowhere"
    raise InputError(f"no layout named '{name}' (looked in {looked})", position, field="layout")


def read_raw_layout(path: Path, search: list[Path], problems: Problems, chain: tuple[Path, ...] = (),
                    confined: tuple[Path, ...] = ()) -> RawLayout:
    """Load ``path`` and everything it extends, merged (the file itself wins).

    Each mistake in it or the layouts it extends goes to ``problems``, and reading
    goes on without the setting or element at fault; a file that cannot be read
    at all, or ``extends`` that leads nowhere, is raised. ``confined`` folders are
    those whose layouts must not be symlinks leading out of them (see
    :func:`find_layout`).
    """
    document = load_yaml(path)
    data = document.data
    if not isinstance(data, dict):
        raise InputError("a layout is a mapping of settings and 'elements:'", document.at())
    for key in data:
        if key not in TOP_KEYS:
            problems.add(InputError(f"unknown layout setting '{key}'{did_you_mean(str(key), TOP_KEYS)}",
                                    document.at(key), field=str(key)))
    units = problems.attempt(lambda: _units(document), "mm")
    if "extends" in data:
        parent_name = data["extends"]
        if not isinstance(parent_name, str):
            raise InputError("'extends' names one layout", document.at("extends"), field="extends")
        parent_path = find_layout(parent_name, [path.parent, *search], document.at("extends"), confined)
        resolved = current_source().resolved
        if resolved(parent_path) in chain or resolved(parent_path) == resolved(path):
            raise InputError(f"layout '{parent_name}' extends itself (through {path.stem})",
                             document.at("extends"), field="extends")
        if len(chain) + 1 >= MAX_EXTENDS:
            raise InputError(f"layout '{parent_name}' is more than {MAX_EXTENDS} layouts down one extends chain",
                             document.at("extends"), field="extends")
        raw = read_raw_layout(parent_path, search, problems, chain + (resolved(path),), confined)
    else:
        raw = RawLayout(name=path.stem, path=path)
    raw.name, raw.path = path.stem, path
    raw.files.extend([path, *_icon_files(data, path.parent)])
    for key in ("size", "units", "bleed", "safe", "corner_radius", "title"):
        if key in data:
            raw.settings[key] = Value(data[key], document.at(key), units)
    if "fonts" in data:
        raw.settings["fonts"] = Value(problems.attempt(partial(system_fonts_wanted, document), False),
                                      document.at("fonts"), units)
    for section, target in (("defaults", raw.defaults), ("colours", raw.colours), ("styles", raw.styles)):
        if section in data:
            mapping: dict[Any, Any] = problems.attempt(partial(_mapping, document, section), {})
            for key, value in mapping.items():
                if section == "defaults" and key not in TEXT_DEFAULT_KEYS:
                    problems.add(InputError(f"unknown text default '{key}'"
                                            f"{did_you_mean(str(key), TEXT_DEFAULT_KEYS)}",
                                            document.at(section, key), field=str(key)))
                    continue
                target[str(key)] = Value(value, document.at(section, key), units)
    if "icons" in data:
        raw.icons.update(parse_icons(data["icons"], document, ("icons",), problems, folder=path.parent))
    if "elements" in data:
        _merge_elements(raw, document, units, problems)
    return raw


def _icon_files(data: dict[Any, Any], folder: Path) -> list[Path]:
    """The SVG files a layout's ``icons:`` names (``{svg: icons/coin.svg}``), beside the layout."""
    icons = data.get("icons")
    if not isinstance(icons, dict):
        return []
    return [folder / entry["svg"] for entry in icons.values()
            if isinstance(entry, dict) and isinstance(entry.get("svg"), str) and entry["svg"].strip()]


def _merge_elements(raw: RawLayout, document: Document, units: str, problems: Problems) -> None:
    """The file's elements on top of the inherited ones; an element that cannot be read is
    left out, its mistake in ``problems``."""
    elements = document.data["elements"]
    if not isinstance(elements, list):
        problems.add(InputError("'elements' is a list ('- ' items)", document.at("elements"), field="elements"))
        return
    by_name = {element.name: element for element in raw.elements if element.name}
    named_here: set[str] = set()
    for index, entry in enumerate(elements):
        problems.attempt(partial(_merge_element, raw, document, ("elements", index), entry, units, by_name,
                                 named_here), None)


def _merge_element(raw: RawLayout, document: Document, keys: KeyPath, entry: Any, units: str,
                   by_name: dict[str, RawElement], named_here: set[str]) -> None:
    """One element of the file: a new one, or changes to the inherited one of its name."""
    if not isinstance(entry, dict):
        raise InputError("an element is a mapping such as {text: ..., box: ...}", document.at(*keys))
    name = entry.get("name")
    if name is not None and not isinstance(name, str):
        raise InputError("an element's name is text", document.at(*keys, "name"), field="name")
    if name in named_here:
        raise InputError(f"two elements named '{name}' in one layout", document.at(*keys, "name"),
                         field="name")
    if name:
        named_here.add(name)
    values = {str(key): Value(value, document.at(*keys, key), units) for key, value in entry.items()}
    inherited = by_name.get(name) if name else None
    if inherited is None:
        element = RawElement(name, values, document.at(*keys))
        raw.elements.append(element)
        if name:
            by_name[name] = element
        return
    old_kinds = {kind for kind in KINDS if kind in inherited.values}
    new_kinds = {kind for kind in KINDS if kind in values}
    if new_kinds and new_kinds != old_kinds:  # a different kind of element: start afresh
        inherited.values = {key: value for key, value in inherited.values.items()
                            if key in COMMON_KEYS}
    inherited.values.update(values)
    inherited.position = document.at(*keys)


def _units(document: Document) -> str:
    try:
        return check_unit(document.data.get("units", "mm"))
    except UnitError as error:
        raise InputError(str(error), document.at("units"), field="units") from None


def _mapping(document: Document, section: str) -> dict[Any, Any]:
    node = document.data[section]
    if not isinstance(node, dict):
        raise InputError(f"'{section}' is a mapping of 'name: value' lines", document.at(section), field=section)
    return node


# --- compiling a merged layout ---------------------------------------------------------


@dataclass(repr=False, eq=False)
class LayoutContext:
    """What compiling a layout needs from outside: tables, fonts, icons, and the templates
    compiled so far (with the Jinja environment they are compiled in)."""

    card_sizes: dict[str, tuple[str, str]]
    colour_table: dict[str, Color]
    icons: dict[str, Icon]
    fonts: FontRegistry
    templates: TemplateMemo
    """Every template compiled so far, by all the layouts loaded together."""
    system_fonts: bool = False
    """The deck lets its layouts name fonts installed on the computer (``fonts: {system: true}``)."""


def compile_layout(raw: RawLayout, context: LayoutContext, problems: Problems) -> Layout:
    """``raw`` in points, every template compiled. Each setting, element, icon and style is
    compiled on its own: one with a mistake is left out (an icon kept as it was written, so
    no element is also told the icon is unknown) and its mistake goes to ``problems``."""
    size = problems.attempt(lambda: _card_size(raw.settings.get("size"), raw.path, context), None)
    width, height = size or _card_size(None, raw.path, context)
    compiler = _ElementCompiler(raw, context, width, height)
    bleed = problems.attempt(lambda: compiler.bleed(raw.settings.get("bleed")), 0.0)
    safe = problems.attempt(lambda: compiler.length(raw.settings.get("safe"), DEFAULT_SAFE, "safe"), None)
    corner_radius = problems.attempt(lambda: compiler.corner_radius(raw.settings.get("corner_radius")), None)
    title = raw.settings.get("title")
    layout = Layout(
        name=raw.name,
        path=raw.path,
        width=width,
        height=height,
        bleed=bleed,
        safe=safe or 0.0,
        title=problems.attempt(lambda: compiler.text_template(title, "title", markup=True), None) if title else None,
        title_position=title.position if title else None,
        elements=list(_each_compiled(dict(enumerate(raw.elements)), compiler.element, problems).values()),
        # An icon whose colours fail stays known as written: elements drawing it are not also told
        # that it is unknown.
        icons={**context.icons, **raw.icons, **_each_compiled(raw.icons, compiler.icon_colours, problems)},
        fonts=[],
        styles=_each_compiled(raw.styles, compiler.style, problems),
        corner_radius=compiler.corner_radius(None) if corner_radius is None else corner_radius,
        files=tuple(raw.files),
        size_position=raw.settings["size"].position if "size" in raw.settings else None,
    )
    layout.fonts = sorted({name for element in layout.elements if isinstance(element, TextElement)
                           for name in (element.font, *element.fallback)}
                          | {name for style in layout.styles.values() if style.font
                             for name in (style.font, *style.fallback)})
    _check_constant_icons(layout, problems)
    if size is not None and safe is not None:  # the safe zone is known: not a guess from defaults
        _check_safe_zone(layout, problems)
    return layout


def _each_compiled(written: dict[K, Any], compile_one: Callable[[K, Any], T], problems: Problems) -> dict[K, T]:
    """``compile_one(key, value)`` for each entry on its own: an entry that fails is left out,
    its mistake in ``problems``."""
    compiled: dict[K, T] = {}
    for key, value in written.items():
        result = problems.attempt(partial(compile_one, key, value), None)
        if result is not None:
            compiled[key] = result
    return compiled


def _card_size(value: Value | None, path: Path, context: LayoutContext) -> tuple[float, float]:
    """The card's (width, height) in points, as ``size:`` gives it (poker when it is not given)."""
    value = value or Value(DEFAULT_SIZE, Position(path), "mm")
    size = value.data
    if isinstance(size, str):
        if size not in context.card_sizes:
            raise InputError(f"unknown card size '{size}'{did_you_mean(size, context.card_sizes)}",
                             value.position, field="size")
        size = context.card_sizes[size]
    elif isinstance(size, dict) and set(size) == {"width", "height"}:
        size = [size["width"], size["height"]]
    if not isinstance(size, (list, tuple)) or len(size) != 2:
        raise InputError("size is a name (poker, bridge, tarot, mini, euro, square) or [width, height]",
                         value.position, field="size")
    width, height = (read_length(part, value.units, value.position, "size") for part in size)
    if width <= 0 or height <= 0:
        raise InputError("a card's width and height must be above zero", value.position, field="size")
    return width, height


class _ElementCompiler:
    """Turns raw element mappings into compiled elements, in points, bottom-left origin."""

    def __init__(self, raw: RawLayout, context: LayoutContext, width: float, height: float) -> None:
        self.raw = raw
        self.context = context
        self.width = width
        self.height = height
        self.paints = PaintCompiler({key: value.data for key, value in raw.colours.items()},
                                    context.colour_table, context.templates,
                                    {key: value.position for key, value in raw.colours.items()})
        own = raw.settings.get("fonts")  # fonts installed on the computer, as the deck or this layout allows
        self.system_fonts = context.system_fonts or bool(own and own.data)

    # values -----------------------------------------------------------------------------

    def length(self, value: Value | None, default: Any, what: str) -> float:
        """A distance (bleed, safe zone, radius, line width, gap, dash): zero or more."""
        data = value.data if value else default
        position = value.position if value else Position(self.raw.path)
        points = read_length(data, value.units if value else "mm", position, what)
        if points < 0:
            raise InputError(f"{what} cannot be negative, found {data!r}", position, field=what)
        return points

    def bleed(self, value: Value | None) -> float:
        """The layout's bleed in points, at most :data:`MAX_BLEED_MM`."""
        points = self.length(value, DEFAULT_BLEED, "bleed")
        if value is not None and points > MAX_BLEED_MM * POINTS_PER_UNIT["mm"] + 1e-9:  # 10mm itself, however rounded
            raise InputError(f"bleed must be at most {MAX_BLEED_MM:g} mm, found {value.data!r}",
                             value.position, field="bleed")
        return points

    def corner_radius(self, value: Value | None) -> float:
        """The cut card's corner radius in points: at most half the card's shorter side."""
        points = self.length(value, DEFAULT_CORNER_RADIUS, "corner_radius")
        if value is not None and points > min(self.width, self.height) / 2 + 1e-9:
            raise InputError(f"corner_radius must be at most half the card's shorter side, found {value.data!r}",
                             value.position, field="corner_radius")
        return points

    def font_size(self, value: Value | None, default: Any, what: str) -> float:
        # Type is measured in points whatever the layout's units: "size: 9" is 9 pt.
        data = value.data if value else default
        size = read_length(data, "pt", value.position if value else Position(self.raw.path), what)
        if not 0 < size <= MAX_FONT_SIZE:
            raise InputError(f"{what} must be above zero and at most {MAX_FONT_SIZE:g} pt, found {data!r}",
                             value.position if value else None, field=what)
        return size

    def box(self, value: Value | None, what: str = "box") -> Box:
        if value is None:
            return Box(0.0, 0.0, self.width, self.height)
        x, y, width, height = self._corner_numbers(value, what, "[x, y, width, height]")
        if width <= 0 or height <= 0:
            raise InputError(f"{what} needs a width and height above zero", value.position, field=what)
        return Box(x, self.height - y - height, width, height)

    def _corner_numbers(self, value: Value, what: str, shape: str) -> tuple[float, ...]:
        """Four lengths written as ``shape`` from the card's top-left corner, in points;
        percentages are of the card's width for the first and third, of its height for the others."""
        if not isinstance(value.data, list) or len(value.data) != 4:
            raise InputError(f"{what} is {shape} from the card's top-left corner", value.position, field=what)
        references = (self.width, self.height, self.width, self.height)
        return tuple(read_length(part, value.units, value.position, what, reference)
                     for part, reference in zip(value.data, references, strict=True))

    def text_template(self, value: Value, what: str, markup: bool = False) -> Template:
        """A template of ``value``; with ``markup``, for text read as markup once printed
        (a plain field is escaped where it prints)."""
        if not isinstance(value.data, (str, int, float)) or isinstance(value.data, bool):
            raise InputError(not_text(value.data), value.position, field=what)
        templates = self.context.templates
        try:
            return (templates.markup_text if markup else templates.text)(str(value.data))
        except TemplateError as error:
            raise InputError(f"template error: {error}", value.position, field=what) from None

    def condition(self, value: Value | None) -> Template | None:
        if value is None:
            return None
        data = value.data
        if isinstance(data, bool):
            return Template(str(data), frozenset(), lambda context: data)
        if isinstance(data, dict):  # {field: value or [values]}: all must hold
            return self._equalities(data, value)
        if not isinstance(data, str):
            raise InputError("'when' is an expression such as \"type == 'monster'\"",
                             value.position, field="when")
        try:
            return self.context.templates.condition(data)
        except TemplateError as error:
            raise InputError(f"expression error: {error}", value.position, field="when") from None

    @staticmethod
    def _equalities(data: dict[Any, Any], value: Value) -> Template:
        wanted = {str(key): tuple(v) if isinstance(v, list) else (v,) for key, v in data.items()}

        def holds(context: dict[str, Any]) -> bool:
            return all(context.get(key) in values for key, values in wanted.items())

        return Template(repr(data), frozenset(wanted), holds)

    def paint(self, value: Value | None, default: Any, what: str, gradient: bool = False) -> Paint:
        """A colour setting; only a fill (``gradient=True``) may be a gradient."""
        position = value.position if value else Position(self.raw.path)
        try:
            paint = self.paints.compile(value.data if value else default)
            if not gradient:
                paint = _flat(paint, what)
            if not paint.names:
                paint.resolve({})  # a fixed colour that cannot be drawn: say so at load time
        except PaintError as error:
            raise InputError(str(error), position, field=what) from None
        return paint

    def choice(self, value: Value | None, default: str, what: str, choices: tuple[str, ...]) -> str:
        data = value.data if value else default
        if data not in choices:
            raise InputError(f"{what} is one of {', '.join(choices)}, found {data!r}",
                             value.position if value else None, field=what)
        return data

    def number(self, value: Value | None, default: float, what: str) -> float:
        data = value.data if value else default
        if isinstance(data, bool) or not isinstance(data, (int, float)) or not 0 < data <= MAX_FACTOR:
            raise InputError(f"{what} is a number above zero and at most {MAX_FACTOR:g}, found {data!r}"[:200],
                             value.position if value else None, field=what)
        return float(data)

    def angle(self, value: Value | None) -> float:
        """Degrees, as written (any finite number; 90, 180, -45 ...)."""
        if value is None:
            return 0.0
        data = value.data
        if isinstance(data, bool) or not isinstance(data, (int, float)) \
                or (isinstance(data, float) and not math.isfinite(data)):
            raise InputError(f"rotate is a number of degrees (clockwise), found {data!r}"[:200], value.position,
                             field="rotate")
        return float(data % 360)  # a whole number of any length turns exactly

    def opacity(self, value: Value | None) -> float:
        """A number from 0 (invisible) to 1 (solid)."""
        if value is None:
            return 1.0
        data = value.data
        if isinstance(data, bool) or not isinstance(data, (int, float)) or not 0 <= data <= 1:
            raise InputError(f"opacity is a number from 0 (invisible) to 1 (solid), found {data!r}",
                             value.position, field="opacity")
        return float(data)

    def dash(self, value: Value | None) -> tuple[float, ...]:
        if value is None:
            return ()
        if not isinstance(value.data, list) or not 0 < len(value.data) <= MAX_DASH_LENGTHS:
            raise InputError(f"dash is [on, off] lengths, e.g. [1mm, 1mm] (at most {MAX_DASH_LENGTHS})",
                             value.position, field="dash")
        dash = tuple(self.length(Value(part, value.position, value.units), 0, "dash") for part in value.data)
        if sum(dash) <= 0:  # reportlab (and PDF) need a pattern that moves along the line
            raise InputError("dash needs a length above zero (a line of gaps and dots of no length "
                             "draws nothing)", value.position, field="dash")
        return dash

    # elements ---------------------------------------------------------------------------

    def element(self, index: int, raw: RawElement) -> Element:
        kinds = [kind for kind in KINDS if kind in raw.values]
        if len(kinds) != 1:
            found = ", ".join(kinds) or "none"
            raise InputError(f"an element has exactly one of {', '.join(KINDS)} (found {found})",
                             raw.position)
        kind = kinds[0]
        allowed = COMMON_KEYS | KIND_KEYS[kind] | {kind}
        for key, value in raw.values.items():
            if key not in allowed:
                raise InputError(f"unknown {kind} setting '{key}'{did_you_mean(key, allowed)}",
                                 value.position, field=key)
        if kind in BOXED_KINDS and "box" not in raw.values:
            raise InputError(f"a {kind} element needs a box: [x, y, width, height]", raw.position,
                             field="box")
        common = dict(name=raw.name or f"{kind}-{index + 1}", kind=kind, position=raw.position,
                      when=self.condition(raw.values.get("when")),
                      rotate=self.angle(raw.values.get("rotate")),
                      opacity=self.opacity(raw.values.get("opacity")))
        if kind in ("rect", "ellipse"):
            return self._shape(raw.values, common, kind)
        compile_kind: Callable[[dict[str, Value], dict[str, Any]], Element] = getattr(self, f"_{kind}")
        return compile_kind(raw.values, common)

    def font(self, value: Value | None, position: Position) -> tuple[str, ...]:
        """``font: Vera`` or a fallback list ``font: [Vera, DejaVuSans]``: the names, in order."""
        data = value.data if value else TEXT_DEFAULTS["font"]
        where = value.position if value else position
        names = data if isinstance(data, list) else [data]
        if not names or len(names) > MAX_FALLBACK_FONTS:
            raise InputError(f"a font list names 1 to {MAX_FALLBACK_FONTS} fonts, found {len(names)}",
                             where, field="font")
        fonts = self.context.fonts
        for font in names:
            if isinstance(font, str) and font not in fonts and self.system_fonts:
                fonts.add_system_family(font, where)  # found through fontconfig, or an error naming it
            if not isinstance(font, str) or font not in fonts or (font in fonts.system and not self.system_fonts):
                looked = ", ".join(map(str, fonts.searched))
                raise InputError(f"unknown font '{font}'{did_you_mean(str(font), fonts.files)} "
                                 f"(looked in {looked}; add a .ttf file to one of them, or allow fonts "
                                 "installed on this computer with fonts: {system: true})", where, field="font")
            fonts.font(font)  # a broken file is said once, here, not once for every face it would draw
        return tuple(dict.fromkeys(names))

    def style(self, name: str, value: Value) -> NamedStyle:
        """A ``styles:`` entry: {font, bold, italic, colour}, used in text as ``[word]{.name}``."""
        data = value.data
        if not isinstance(data, dict) or not data:
            raise InputError(f"style '{name}' is a mapping such as {{colour: red, bold: true}}",
                             value.position, field=name)
        for key in data:
            if key not in STYLE_KEYS:
                raise InputError(f"unknown style setting '{key}'{did_you_mean(str(key), STYLE_KEYS)}",
                                 value.position, field=str(key))
        for key in ("bold", "italic"):
            if key in data and not isinstance(data[key], bool):
                raise InputError(f"{key} is true or false, found {data[key]!r}", value.position, field=key)
        colour = data.get("colour")
        fonts = self.font(Value(data["font"], value.position, value.units), value.position) \
            if "font" in data else (None,)
        return NamedStyle(
            font=fonts[0],
            fallback=fonts[1:],
            bold=data.get("bold", False),
            italic=data.get("italic", False),
            colour=self.paint(Value(colour, value.position, value.units), None, "colour")
            if colour is not None else None,
        )

    def icon_colours(self, name: str, icon: Icon) -> Icon:
        """The icon with its own colours (if it names any) resolved; they must not depend on a field."""
        resolved: dict[str, Color] = {}
        for key, written in (("ink", icon.colour), ("accent_ink", icon.accent)):
            if written is None:
                continue
            position = icon.position or Position(self.raw.path)
            paint = self.paint(Value(written, position, "mm"), None, "colour")
            if paint.names:
                raise InputError(f"icon '{name}' needs a fixed colour, not one chosen by a field",
                                 position, field="colour")
            resolved[key] = paint.resolve({})
        return replace(icon, **resolved) if resolved else icon

    def _text(self, values: dict[str, Value], common: dict[str, Any]) -> TextElement:
        setting = {**self.raw.defaults, **values}.get  # the element's own settings over the layout's defaults
        font, *fallback = self.font(setting("font"), common["position"])
        size = self.font_size(setting("size"), TEXT_DEFAULTS["size"], "size")
        min_size = min(size, self.font_size(setting("min_size"), TEXT_DEFAULTS["min_size"], "min_size"))
        return TextElement(
            **common,
            text=self.text_template(values["text"], "text", markup=True),
            box=self.box(values.get("box")),
            font=font,
            fallback=tuple(fallback),
            size=size,
            min_size=min_size,
            fit=self.choice(setting("fit"), TEXT_DEFAULTS["fit"], "fit", CHOICES["fit"]),
            align=self.choice(setting("align"), TEXT_DEFAULTS["align"], "align", CHOICES["align"]),
            valign=self.choice(setting("valign"), TEXT_DEFAULTS["valign"], "valign", CHOICES["valign"]),
            colour=self.paint(setting("colour"), TEXT_DEFAULTS["colour"], "colour"),
            leading=self.number(setting("leading"), TEXT_DEFAULTS["leading"], "leading"),
            icon_scale=self.number(setting("icon_scale"), TEXT_DEFAULTS["icon_scale"], "icon_scale"),
        )

    def _shape(self, values: dict[str, Value], common: dict[str, Any], shape: str) -> ShapeElement:
        return ShapeElement(
            **common,
            box=self.box(None if values[shape].data == WHOLE_CARD else values[shape], shape),
            radius=self.length(values.get("radius"), 0, "radius"),
            fill=self.paint(values.get("fill"), "none", "fill", gradient=True),
            stroke=self.paint(values.get("stroke"), "none", "stroke"),
            width=self.length(values.get("width"), "0.5pt", "width"),
            dash=self.dash(values.get("dash")),
            bleed=bool(values["bleed"].data) if "bleed" in values else False,
        )

    def _line(self, values: dict[str, Value], common: dict[str, Any]) -> LineElement:
        x1, y1, x2, y2 = self._corner_numbers(values["line"], "line", "[x1, y1, x2, y2]")
        return LineElement(**common, start=(x1, self.height - y1), end=(x2, self.height - y2),
                           stroke=self.paint(values.get("stroke"), "ink", "stroke"),
                           width=self.length(values.get("width"), "0.5pt", "width"),
                           dash=self.dash(values.get("dash")))

    def _icon(self, values: dict[str, Value], common: dict[str, Any]) -> IconElement:
        repeat = values.get("repeat")
        return IconElement(
            **common,
            icon=self.text_template(values["icon"], "icon"),
            box=self.box(values.get("box")),
            colour=self.paint(values.get("colour"), "ink", "colour"),
            accent=self.paint(values.get("accent"), "white", "accent"),
            repeat=self.text_template(repeat, "repeat") if repeat else None,
            direction=self.choice(values.get("direction"), "row", "direction", CHOICES["direction"]),
            gap=self.length(values.get("gap"), 0, "gap"),
            align=self.choice(values.get("align"), "center", "align", CHOICES["icon_align"]),
        )

    def _image(self, values: dict[str, Value], common: dict[str, Any]) -> ImageElement:
        return ImageElement(
            **common,
            path=self.text_template(values["image"], "image"),
            box=self.box(values.get("box")),
            fit=self.choice(values.get("fit"), "contain", "fit", CHOICES["image_fit"]),
            bleed=bool(values["bleed"].data) if "bleed" in values else False,
            dpi=self.dpi(values.get("dpi")),
        )

    @staticmethod
    def dpi(value: Value | None) -> int:
        if value is None:
            return DEFAULT_DPI
        if isinstance(value.data, bool) or not isinstance(value.data, int) or not MIN_DPI <= value.data <= MAX_DPI:
            raise InputError(f"dpi is a whole number from {MIN_DPI} to {MAX_DPI}, found {value.data!r}",
                             value.position, field="dpi")
        return value.data


def _flat(paint: Paint, what: str) -> Paint:
    """``paint``, refusing a gradient when it resolves to one: only fills take gradients."""
    def resolve(context: dict[str, Any]) -> Color | None:
        colour = paint.resolve(context)
        if isinstance(colour, Gradient):
            raise PaintError(f"{what} cannot be a gradient: only a fill can")
        return colour

    return replace(paint, resolve=resolve)


def _check_constant_icons(layout: Layout, problems: Problems) -> None:
    for element in layout.elements:
        if isinstance(element, IconElement) and element.icon.is_constant:
            name = element.icon.source
            if name not in layout.icons:
                problems.add(InputError(f"unknown icon '{name}'{did_you_mean(name, layout.icons)}",
                                        element.position, field="icon"))


def _check_safe_zone(layout: Layout, problems: Problems) -> None:
    """Text must stay inside the safe zone, or a slightly off cut eats it.

    Shapes, icons and images may run to the edge: they are often decoration
    (a coloured edge, a border of stars) that a millimetre of cut does not spoil.
    """
    safe = layout.safe_box
    for element in layout.elements:
        if isinstance(element, TextElement) and not turned(element.box, element.rotate).inside(safe):
            turning = f" when turned {element.rotate:g} degrees" if element.rotate else ""
            problems.add(LayoutError(f"{element.kind} '{element.name}' of layout '{layout.name}' reaches "
                                     f"outside the safe zone ({_mm(layout.safe)} inside the cut){turning}",
                                     element.position, field="box"))


def turned(box: Box, degrees: float) -> Box:
    """The smallest upright box around ``box`` turned ``degrees`` about its centre."""
    if not degrees % 360:
        return box
    radians = math.radians(degrees)
    cos, sin = abs(math.cos(radians)), abs(math.sin(radians))
    width = box.width * cos + box.height * sin
    height = box.width * sin + box.height * cos
    cx, cy = box.x + box.width / 2, box.y + box.height / 2
    return Box(cx - width / 2, cy - height / 2, width, height)


def _mm(points: float) -> str:
    return f"{points * 25.4 / 72:.3g} mm"
