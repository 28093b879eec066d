"""Colours in layouts: names, hex codes, and colours chosen by a card's fields.

A colour in a layout is one of:

- a hex code: ``"#c62f2a"`` or ``"#c33"``
- a name from the layout's ``colours:`` section or the built-in table
  (``generator/render/data/colours.yaml``): ``red``, ``ink``, ``paper`` ...
- ``none``: nothing painted
- a mapping that picks the colour from a field, so one layout serves several
  card types::

      colours:
        accent: {field: category, map: {Shelf: brown, Spilled Milk: blue}, default: grey}

- a template whose result is one of the above: ``"{{ colour }}"``

Each colour is compiled once per layout into a :class:`Paint`, a small function
of the face's fields.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable

from reportlab.lib.colors import Color, HexColor

from generator.deck.loading import load_yaml
from generator.errors import Position
from generator.render.templating import TemplateError, compile_text

COLOURS_FILE = Path(__file__).parent / "data" / "colours.yaml"
_HEX = re.compile(r"^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$")
NO_PAINT = "none"


class PaintError(ValueError):
    """A colour that cannot be resolved; the caller adds where it was written."""


@dataclass(frozen=True)
class Paint:
    """A colour that may depend on the face: ``resolve(context)`` gives a Color or None."""

    names: frozenset[str]
    resolve: Callable[[dict[str, Any]], Color | None]
    name: str = ""  # its name in the layout's ``colours:``, when it has one
    position: Position | None = None  # where that name is defined


def load_colour_table(path: Path = COLOURS_FILE) -> dict[str, Color]:
    """The built-in named colours."""
    document = load_yaml(path)
    return {str(name): parse_hex(str(value)) for name, value in document.data.items()}


def parse_hex(text: str) -> Color:
    if not _HEX.match(text):
        raise PaintError(f"'{text}' is not a colour: use a name or a hex code like #c62f2a")
    if len(text) == 4:
        text = "#" + "".join(char * 2 for char in text[1:])
    return HexColor(text)


def constant(colour: Color | None) -> Paint:
    return Paint(frozenset(), lambda context: colour)


class PaintCompiler:
    """Compiles colour values of one layout, resolving its ``colours:`` names once."""

    def __init__(self, layout_colours: dict[str, Any], table: dict[str, Color], environment,
                 positions: dict[str, Position] | None = None):
        self.raw = layout_colours
        self.positions = positions or {}
        self.table = table
        self.environment = environment
        self.compiled: dict[str, Paint] = {}
        self.in_progress: set[str] = set()

    def compile(self, value: Any) -> Paint:
        if value is None or value == NO_PAINT:
            return constant(None)
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

    def _field_map(self, spec: dict) -> Paint:
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

    def _template(self, source: str) -> Paint:
        try:
            template = compile_text(self.environment, source)
        except TemplateError as error:
            raise PaintError(f"template error: {error}") from None

        def resolve(context: dict[str, Any]) -> Color | None:
            paint = self.named(str(template.render(context)).strip())
            if paint.names:  # its fields would be invisible to the face key
                raise PaintError(f"'{source}' must give a fixed colour, not one chosen by a field")
            return paint.resolve(context)

        return Paint(template.names, resolve)
