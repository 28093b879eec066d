"""What a face draws, written down so that two iterations of a deck can be compared.

Two faces print the same when their plans (generator.render.plan) draw the same
things: the same shapes, text lines and glyphs in the same places and colours, from
font, art and icon files with the same bytes. A :class:`FaceDrawing` holds exactly
that, element by element, with each file and icon a drawing depends on set apart as a
:class:`Resource` (its name and a digest of its contents), so a change can be put down
to the element that draws differently or to the file that changed under it. Dates
and paths play no part: a deck copied elsewhere, or read from a git revision, draws
the same faces as long as what they draw is the same.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reportlab.lib.colors import CMYKColor, Color

from generator.deck.model import Card, absolute_folder
from generator.errors import DeckpressError, Position
from generator.render.fonts import FontRegistry
from generator.render.icons import Icon
from generator.render.layout import Layout
from generator.render.plan import Glyphs, Op, TextOp
from generator.render.renderer import Renderer
from generator.render.svg import SvgArt
from generator.revisions import FileSource, without_crlf

MAX_DIGESTED_BYTES = 64 * 1024 * 1024
"""Bytes of one file read to tell whether it changed. Every file a face draws from is
smaller (art, fonts and SVG each have their own, lower, limits in generator.render)."""

PLACES = 4
"""Decimal places of a length in points that count: a ten-thousandth of a point is far
below anything a printer shows, and above the noise of adding millimetres in floats."""


@dataclass(frozen=True, repr=False)
class Resource:
    """A file or icon an element draws from: what it is, what it is called, its contents."""

    kind: str
    """"file" (art, an SVG), "font" or "icon"."""
    name: str
    """How a designer knows it: ``art/mask.png``, the font's name, the icon's name."""
    digest: str
    """What it holds, hashed: equal digests, equal drawings."""
    position: Position | None = field(default=None, compare=False)
    """Where it is kept or defined, for the report: a file's path (``HEAD:cards/x/art.png`` at
    a revision), an icon's line in its layout. Not part of what is drawn."""
    file: str | None = field(default=None, compare=False)
    """For an icon drawn from an SVG file, that file's name (``icons/coin.svg``)."""


@dataclass(frozen=True, repr=False)
class ElementDrawing:
    """What one layout element draws on one face."""

    element: str
    shape: Any
    """The operation as nested tuples of plain values, each resource stood for by its kind
    and name (so a file that changed leaves the shape alone)."""
    resources: tuple[Resource, ...]


@dataclass(frozen=True, repr=False)
class FaceDrawing:
    """Everything one face prints, or why it cannot be laid out."""

    layout: str
    size: tuple[float, float, float]
    """The layout's width, height and bleed, in points."""
    elements: tuple[ElementDrawing, ...] = ()
    problem: str | None = None
    """Why the face cannot be laid out (its error), when it cannot."""


class Canon:
    """Writes down the faces one renderer draws, reading files from ``source`` for their digests.

    File names are shown from the renderer's deck folder, then from its project (:attr:`folders`),
    so the same art in two copies of a deck has the same name.
    """

    def __init__(self, renderer: Renderer, source: FileSource) -> None:
        self.renderer = renderer
        self.source = source
        folder = absolute_folder(renderer.deck.path)
        self.folders = (folder, folder.parent.parent)
        self._faces: dict[str, FaceDrawing] = {}
        self._ops: dict[int, ElementDrawing] = {}
        self._digests: dict[str, str] = {}
        self._fonts: dict[str, Resource] = {}
        self._icons: dict[int, str] = {}
        self._icon_resources: dict[int, tuple[Icon, Resource]] = {}
        """Each icon's resource, made once (by the icon object, kept so its id stays its own)."""
        self._converters: dict[type, Callable[[Any, dict[tuple[str, str], Resource]], Any]] = {}
        """How each type of value met is written down (see :meth:`_converter`)."""
        for layout in renderer.layouts.values():
            self._icons.update({id(icon): name for name, icon in layout.icons.items()})

    def face(self, card: Card, side: str) -> FaceDrawing:
        """What the face prints (made once per face key: equal keys draw the same)."""
        key = self.renderer.face_key(card, side)
        known = self._faces.get(key)
        if known is None:
            known = self._faces[key] = self._kept(self._draw(card, side))
        return known

    def _kept(self, drawn: FaceDrawing) -> FaceDrawing:
        """The drawing kept for a face just drawn: itself (:mod:`generator.iterations.following`
        keeps one object for equal drawings instead)."""
        return drawn

    def _draw(self, card: Card, side: str) -> FaceDrawing:
        layout: Layout = self.renderer.layouts[side]
        size = (round(layout.width, PLACES), round(layout.height, PLACES), round(layout.bleed, PLACES))
        try:
            plan = self.renderer.plan(card, side)
        except DeckpressError as error:
            return FaceDrawing(layout.name, size, problem=error.message)
        return FaceDrawing(layout.name, size, tuple(self._element(op) for op in plan))

    def _element(self, op: Op) -> ElementDrawing:
        known = self._ops.get(id(op))  # faces share the operations of what they draw alike
        if known is None:
            resources: dict[tuple[str, str], Resource] = {}
            shape = self._plain(op, resources)
            known = self._ops[id(op)] = ElementDrawing(op.element, shape, tuple(resources.values()))
        return known

    def _plain(self, value: Any, resources: dict[tuple[str, str], Resource]) -> Any:
        """``value`` as nested tuples of plain values; files, fonts and icons go to ``resources``."""
        kind = type(value)
        if kind is str or kind is int or value is None or kind is bool:
            return value
        if kind is float:
            return round(value, PLACES)
        convert = self._converters.get(kind)
        if convert is None:
            convert = self._converters[kind] = self._converter(kind)
        return convert(value, resources)

    def _converter(self, kind: type) -> Callable[[Any, dict[tuple[str, str], Resource]], Any]:
        """How values of ``kind`` are written down (chosen once a type: a face has thousands)."""
        if issubclass(kind, (bool, int, str)):
            return lambda value, resources: value
        if issubclass(kind, float):
            return lambda value, resources: round(value, PLACES)
        if issubclass(kind, CMYKColor):
            return lambda value, resources: ("cmyk", *(round(part, PLACES) for part in (
                value.cyan, value.magenta, value.yellow, value.black, value.alpha)))
        if issubclass(kind, Color):
            return lambda value, resources: ("rgb", *(round(part, PLACES) for part in value.rgba()))
        if issubclass(kind, Path):
            return lambda value, resources: self._keep(self._file(value), resources)
        if issubclass(kind, SvgArt):
            return lambda value, resources: self._keep(self._file(value.path), resources)
        if issubclass(kind, Icon):
            return self._plain_icon
        if issubclass(kind, (Glyphs, TextOp)):
            names = tuple(part.name for part in dataclasses.fields(kind) if part.name not in ("font", "element"))
            return lambda value, resources: (
                kind.__name__, ("font", self._keep(self._font(value.font), resources)),
                *((name, self._plain(getattr(value, name), resources)) for name in names))
        if dataclasses.is_dataclass(kind):
            names = tuple(part.name for part in dataclasses.fields(kind) if part.compare
                          and not part.name.startswith("_") and part.name not in ("element", "position"))
            return lambda value, resources: (
                kind.__name__, *((name, self._plain(getattr(value, name), resources)) for name in names))
        if issubclass(kind, (tuple, list)):
            return lambda value, resources: tuple(self._plain(item, resources) for item in value)
        if issubclass(kind, dict):
            return lambda value, resources: tuple(sorted(
                (str(key), self._plain(item, resources)) for key, item in value.items()))
        return lambda value, resources: repr(value)

    def _plain_icon(self, value: Icon, resources: dict[tuple[str, str], Resource]) -> tuple[str, str]:
        known_icon = self._icon_resources.get(id(value))
        if known_icon is None or known_icon[0] is not value:
            known_icon = self._icon_resources[id(value)] = (value, self._icon(value, resources))
        return self._keep(known_icon[1], resources)

    @staticmethod
    def _keep(resource: Resource, resources: dict[tuple[str, str], Resource]) -> tuple[str, str]:
        resources[resource.kind, resource.name] = resource
        return (resource.kind, resource.name)

    def _file(self, path: Path) -> Resource:
        return Resource("file", self._shown(path), self._digest(path), Position(Path(self.source.label(path))))

    def _icon(self, icon: Icon, resources: dict[tuple[str, str], Resource]) -> Resource:
        """An icon by its name, its digest what it draws (its shapes and colours, or its SVG
        file's bytes)."""
        name = self._icons.get(id(icon), "icon")
        inner: dict[tuple[str, str], Resource] = {}
        drawn = tuple((part.name, self._plain(getattr(icon, part.name), inner))
                      for part in dataclasses.fields(icon) if part.compare and not part.name.startswith("_"))
        files = sorted((resource.kind, resource.name, resource.digest) for resource in inner.values())
        digest = hashlib.sha256(repr((drawn, files)).encode("utf-8")).hexdigest()
        if icon.art is not None:  # an SVG file: that file is what a designer changes
            art = self._file(icon.art.path)
            return Resource("icon", name, digest, art.position, art.name)
        where = icon.position
        position = Position(Path(self.source.label(where.path)), where.line) if where is not None else None
        return Resource("icon", name, digest, position)

    def _font(self, registered: str) -> Resource:
        """A font by the name the layouts give it (``Vera-Bold``, not the name it is registered
        under with reportlab), its digest its file's bytes."""
        known = self._fonts.get(registered)
        if known is None:
            registry: FontRegistry = self.renderer.font_registry
            name = registered
            for candidate in (registered, registered.rpartition("-")[0]):
                try:
                    if candidate in registry and registry.font(candidate).fontName == registered:
                        name = candidate
                        break
                except DeckpressError:  # a font that cannot be loaded draws nothing to compare
                    continue
            path = registry.files.get(name)
            digest = self._digest(path) if path is not None else registered
            position = Position(Path(self.source.label(path))) if path is not None else None
            known = self._fonts[registered] = Resource("font", name, digest, position)
        return known

    def _digest(self, path: Path) -> str:
        key = self.source.identity(path)
        if key not in self._digests:
            try:
                data = self.source.read(path, MAX_DIGESTED_BYTES)
            except OSError as error:  # planning read it a moment ago; say what changed, not crash
                data = f"unreadable: {error}".encode()
            if path.suffix.lower() == ".svg":  # XML reads CRLF as LF: a checkout with CRLF draws the same
                data = without_crlf(data)
            self._digests[key] = hashlib.sha256(data).hexdigest()
        return self._digests[key]

    def _shown(self, path: Path) -> str:
        """``path`` from the first of :attr:`folders` holding it (``art/mask.png``), else its name."""
        real = Path(os.path.abspath(path))
        for folder in self.folders:
            if folder == real or folder in real.parents:
                return real.relative_to(folder).as_posix()
        return real.name
