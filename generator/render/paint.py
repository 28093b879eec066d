"""Colours in layouts: names, hex codes, and colours chosen by a card's fields.

A colour in a layout is one of:

- a hex code: ``"#c62f2a"`` or ``"#c33"``, with an alpha after it for a
  see-through colour: ``"#c62f2a80"`` or ``"#c338"`` (real PDF transparency)
- a name from the layout's ``colours:`` section or the built-in table
  (``generator/render/data/colours.yaml``): ``red``, ``ink``, ``paper`` ...
- ``none``: nothing painted
- a mapping that picks the colour from a field, so one layout serves several
  card types::

      colours:
        accent: {field: category, map: {Shelf: brown, Spilled Milk: blue}, default: grey}

- a template whose result is one of the above: ``"{{ colour }}"``
- for ``fill`` only, a linear gradient from one colour to the next, drawn as a
  PDF shading: ``{linear: [gold, "#fff4c0", gold], angle: 90}`` (stops evenly
  spaced; ``angle`` in degrees, 0 running left to right, 90 top to bottom)

Each colour is compiled once per layout into a :class:`Paint`, a small function
of the face's fields.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from reportlab.lib.colors import Color, HexColor

from generator.errors import Position
from generator.loading import load_yaml
from generator.render.templating import TemplateError, TemplateMemo

COLOURS_FILE = Path(__file__).parent / "data" / "colours.yaml"
HEX_DIGIT_COUNTS = (3, 4, 6, 8)
"""How many hex digits a ``#`` colour has: #rgb, #rgba, #rrggbb, #rrggbbaa (svglib reads the same)."""
HEX_COLOUR = re.compile("#(?:" + "|".join(f"[0-9a-fA-F]{{{count}}}" for count in HEX_DIGIT_COUNTS) + ")")
NO_PAINT = "none"
MAX_GRADIENT_STOPS = 16
"""Colours in one gradient: enough for any sky or sheen, few enough to read at a glance."""


class PaintError(ValueError):
    """A colour that cannot be resolved; the caller adds where it was written."""


@dataclass(repr=False, eq=False)
class Gradient:
    """A linear gradient: colours evenly spaced along a line at ``angle`` degrees (clockwise
    from left-to-right, as seen on the card)."""

    colours: tuple[Color, ...]
    angle: float

    def line(self, x: float, y: float, width: float, height: float) -> tuple[float, float, float, float]:
        """Start and end (x0, y0, x1, y1) of the gradient across a box, corner to corner along
        its direction, so the first and last colours reach the box's extremes."""
        radians = math.radians(self.angle)
        dx, dy = math.cos(radians), -math.sin(radians)  # clockwise on the card: PDF's y grows up
        half = (abs(width * dx) + abs(height * dy)) / 2
        cx, cy = x + width / 2, y + height / 2
        return cx - dx * half, cy - dy * half, cx + dx * half, cy + dy * half


@dataclass(repr=False, eq=False)
class Paint:
    """A colour that may depend on the face: ``resolve(context)`` gives a Color, a Gradient
    (for fills) or None."""

    names: frozenset[str]
    resolve: Callable[[dict[str, Any]], Color | None]
    name: str = ""  # its name in the layout's ``colours:``, when it has one
    position: Position | None = None  # where that name is defined


def load_colour_table() -> dict[str, Color]:
    """The built-in named colours."""
    document = load_yaml(COLOURS_FILE)
    return {str(name): parse_hex(str(value)) for name, value in document.data.items()}


def parse_hex(text: str) -> Color:
    if not HEX_COLOUR.fullmatch(text):
        raise PaintError(f"'{text}' is not a colour: use a name or a hex code like #c62f2a")
    if len(text) in (4, 5):
        text = "#" + "".join(char * 2 for char in text[1:])
    return HexColor(text, hasAlpha=len(text) == 9)


def faded(colour: Color | None, opacity: float) -> Color | None:
    """``colour`` with its alpha multiplied by an element's ``opacity``."""
    if colour is None or opacity >= 1:
        return colour
    return Color(colour.red, colour.green, colour.blue, alpha=getattr(colour, "alpha", 1) * opacity)


def constant(colour: Color | None) -> Paint:
    return Paint(frozenset(), lambda context: colour)


class PaintCompiler:
    """Compiles colour values of one layout, resolving its ``colours:`` names once."""

    def __init__(self, layout_colours: dict[str, Any], table: dict[str, Color], templates: TemplateMemo,
                 positions: dict[str, Position] | None = None) -> None:
        self.raw = layout_colours
        self.positions = positions or {}
        self.table = table
        self.templates = templates
        self.compiled: dict[str, Paint] = {}
        self.in_progress: set[str] = set()

    def compile(self, value: Any) -> Paint:
        if value is None or value == NO_PAINT:
            return constant(None)
        if isinstance(value, dict) and "linear" in value:
            return self._gradient(value)
        if isinstance(value, dict):
            return self._field_map(value)
        if not isinstance(value, str):
            raise PaintError(f"expected a colour name or hex code, found {value!r}")
        if "{" in value:
            return self._template(value)
        return self.named(value)

    def named(self, name: str) -> Paint:
        if name in self.raw:
            if name not in self.compiled:
                if name in self.in_progress:
                    raise PaintError(f"colour '{name}' is defined in terms of itself")
                self.in_progress.add(name)
                try:
                    self.compiled[name] = replace(self.compile(self.raw[name]), name=name,
                                                  position=self.positions.get(name))
                finally:
                    self.in_progress.discard(name)
            return self.compiled[name]
        if name == NO_PAINT:
            return constant(None)
        if name in self.table:
            return constant(self.table[name])
        if name.startswith("#"):
            return constant(parse_hex(name))
        known = ", ".join(sorted(set(self.raw) | set(self.table)))
        raise PaintError(f"unknown colour '{name}' (known: {known}; or a hex code like #c62f2a)")

    def _field_map(self, spec: dict[Any, Any]) -> Paint:
        unknown = set(spec) - {"field", "map", "default"}
        if unknown or "field" not in spec or not isinstance(spec.get("map"), dict):
            raise PaintError("a colour chosen by a field reads {field: name, map: {value: colour}, "
                             "default: colour}")
        field_name = str(spec["field"])
        choices = {str(key): self.compile(colour) for key, colour in spec["map"].items()}
        default = self.compile(spec["default"]) if "default" in spec else None
        names = frozenset({field_name}).union(*(paint.names for paint in choices.values()))
        if default is not None:
            names |= default.names

        def resolve(context: dict[str, Any]) -> Color | None:
            value = context.get(field_name)
            paint = choices.get(str(value), default)
            if paint is None:
                raise PaintError(f"no colour for {field_name} '{value}' and no default")
            return paint.resolve(context)

        return Paint(names, resolve)

    def _gradient(self, spec: dict[Any, Any]) -> Paint:
        unknown = set(spec) - {"linear", "angle"}
        stops = spec.get("linear")
        angle = spec.get("angle", 0)
        if unknown or not isinstance(stops, list) or not 2 <= len(stops) <= MAX_GRADIENT_STOPS:
            raise PaintError(f"a gradient reads {{linear: [from, to], angle: degrees}}, with 2 to "
                             f"{MAX_GRADIENT_STOPS} colours")
        if isinstance(angle, bool) or not isinstance(angle, (int, float)) or not math.isfinite(angle):
            raise PaintError(f"a gradient's angle is a number of degrees, found {angle!r}")
        paints = [self.compile(stop) for stop in stops]
        names = frozenset().union(*(paint.names for paint in paints))

        def resolve(context: dict[str, Any]) -> Gradient:
            colours = tuple(paint.resolve(context) for paint in paints)
            if any(colour is None or isinstance(colour, Gradient) for colour in colours):
                raise PaintError("a gradient's stops are colours, not 'none' or another gradient")
            if any(getattr(colour, "alpha", 1) < 1 for colour in colours):
                raise PaintError("a gradient's colours cannot be see-through; give the element an opacity")
            return Gradient(colours, float(angle) % 360)

        return Paint(names, resolve)

    def _template(self, source: str) -> Paint:
        try:
            template = self.templates.text(source)
        except TemplateError as error:
            raise PaintError(f"template error: {error}") from None
        if template.is_constant:
            # Its colour is known now; naming it here also catches one that names itself
            # (``panel: "{{ 'panel' }}"``), as a plain name does, instead of looping at draw time.
            try:
                name = str(template.render({})).strip()
            except TemplateError as error:
                raise PaintError(f"template error: {error}") from None
            return self.named(name)

        def resolve(context: dict[str, Any]) -> Color | None:
            paint = self.named(str(template.render(context)).strip())
            if paint.names:  # its fields would be invisible to the face key
                raise PaintError(f"'{source}' must give a fixed colour, not one chosen by a field")
            return paint.resolve(context)

        return Paint(template.names, resolve)
