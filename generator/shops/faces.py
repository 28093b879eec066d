"""What a shop would reject in a deck, found from its laid-out faces before anything is drawn.

The deck's side of :mod:`~generator.shops.rules`: the card size against the sizes the
shop prints; every text, icon and image whose box reaches into the unsafe margin
(closer to the cut than the preset's ``safe``); raster art with fewer pixels than the
shop's resolution asks for at its printed size; and, for a CMYK preset, transparency
where the standard forbids it and any colour or image over the ink limit once
converted. Each distinct face is looked at once (its plan, as ``build`` draws it);
the same problem on many faces (the same element, file and value: the same reach,
colour, resolution or ink) is one finding, naming the first card and counting the
rest, and any difference is a finding of its own. A background image that runs into
the bleed (``bleed: true``) is meant to reach the cut and is not held to the safe zone.

The ink of raster art is measured on the pixels the shop's file embeds: resampled for
the preset's bleed and converted exactly as ``build --for`` does it
(:meth:`~generator.shops.inks.PressInks.conversion`), so a deck that passes here is
never refused by the file's own preflight.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from PIL import Image
from reportlab.lib.colors import Color

from generator.boxes import Box, union
from generator.deck.model import Card
from generator.errors import EXIT_RULES, Position, plural
from generator.findings import Finding
from generator.render import Renderer
from generator.render.draw import image_placement
from generator.render.icons import Icon
from generator.render.images import Resampling, drawn_rectangle
from generator.render.layout import Layout
from generator.render.paint import Gradient
from generator.render.plan import (
    ArtOp,
    Glyphs,
    IconOp,
    ImageOp,
    InlineIcon,
    LineOp,
    Op,
    ShapeOp,
    TextOp,
    TextRule,
    outline_of,
)
from generator.render.svg import SvgArt, leaf_shapes
from generator.render.units import MM, mm_text, size_text
from generator.shops.inks import PressInks
from generator.shops.presets import Preset
from generator.shops.rules import standard_of

KIND = "shop"
"""The kind of every finding about a shop (``--format json`` shows it)."""
TOLERANCE = 0.01
"""Points: a box this close to the safe line is inside it (lengths in mm never add up exactly)."""


@dataclass(repr=False, eq=False)
class _Found:
    """One problem an element has, gathered over every face that shows it."""

    rule: str
    message: str
    position: Position | None
    card: str | None
    side: str | None
    element: str | None
    details: dict[str, object] = field(default_factory=dict)
    faces: set[tuple[str, str]] = field(default_factory=set)
    """(card, side) of every face it was found on."""


Face = tuple[Card, str]
"""A card and one of its sides."""
Key = tuple[str, ...]
"""What makes two findings the same problem: the rule, the layout and element, and the value."""


def deck_findings(renderer: Renderer, preset: Preset, inks: PressInks | None) -> list[Finding]:
    """Everything ``preset``'s shop would reject in the deck ``renderer`` draws (see the module
    docstring); ``inks`` for a CMYK preset."""
    found: dict[Key, _Found] = {}
    front = renderer.layouts["front"]
    size_problem = _card_size(renderer, preset, front)
    if size_problem is not None:
        found[("card-size",)] = size_problem
    forbid_transparency = preset.is_cmyk and not standard_of(preset).transparency
    colours: dict[tuple[str, str, str], tuple[Color, Card, set[tuple[str, str]]]] = {}
    images: dict[tuple[Path, Resampling | None], list[tuple[ImageOp, Face]]] = {}
    soft_images: dict[Path, bool] = {}
    for card, side, plan in renderer.distinct_plans(printed_only=True):
        layout = renderer.layouts[side]
        for op in plan:
            _safe_zone(op, layout, preset, card, side, found)
            if isinstance(op, ImageOp):
                _resolution(op, layout, preset, card, side, found)
            if forbid_transparency:
                _transparency(op, layout, preset, card, side, found, soft_images)
            if inks is not None:
                if isinstance(op, ImageOp):
                    _, resample = image_placement(op, layout.trim, preset.bleed)  # as build --for draws it
                    images.setdefault((op.path, resample), []).append((op, (card, side)))
                for colour in _colours(op):
                    colours.setdefault((colour.hexval(), side, op.element), (colour, card, set()))[2].add(
                        (card.id, side))
    if inks is not None:
        _ink(colours, renderer, preset, inks, found)
        _image_ink(images, renderer, preset, inks, found)
    return [_finding(each, preset) for each in found.values()]


def _finding(found: _Found, preset: Preset) -> Finding:
    message = found.message
    if len(found.faces) > 1:
        message += f" (and on {plural(len(found.faces) - 1, 'more face')})"
    return Finding(kind=KIND, message=message, position=found.position, exit_code=EXIT_RULES, card=found.card,
                   side=found.side, element=found.element,
                   details={"rule": found.rule, "shop": preset.id, **found.details})


def _count(found: dict[Key, _Found], key: Key, face: tuple[str, str], problem: Callable[[], _Found]) -> None:
    """The ``problem`` made and recorded under ``key``, or one more face counted for the problem
    found there first (made only once: a repeat is counted, not worded again). ``key`` holds
    everything the message tells, so problems told differently are never merged."""
    if key not in found:
        found[key] = problem()
    found[key].faces.add(face)


def _hex(colour: Color) -> str:
    """``#rrggbb``, as layouts write colours."""
    return "#" + colour.hexval()[2:]


def _card_size(renderer: Renderer, preset: Preset, front: Layout) -> _Found | None:
    if preset.fits_card(renderer.card_size) is not None:
        return None
    width, height = renderer.card_size
    sizes = ", ".join(f"{name} ({size_text(w, h)})" for name, (w, h) in preset.cards.items())
    return _Found("card-size", f"{preset.name} prints {sizes} cards; deck '{renderer.deck.id}' has "
                               f"{size_text(width, height)} cards (layout '{front.name}'); give the shop a "
                               "preset of its own for this size if it prints it",
                  Position(front.path), None, None, None)


def _element_position(layout: Layout, name: str) -> Position:
    element = layout.element_named(name)
    return element.position if element is not None else Position(layout.path)


def _extent(op: Op, layout: Layout) -> tuple[str, Box] | None:
    """What the op draws that the safe zone holds, and its box (turned as it is drawn)."""
    box: Box | None
    if isinstance(op, TextOp):
        kind, box = "text", op.overflow or getattr(layout.element_named(op.element), "box", None)
    elif isinstance(op, IconOp):
        kind, box = "icon", union(Box(x, y, size, size) for x, y, size in op.squares)
    elif isinstance(op, (ImageOp, ArtOp)):
        if op.bleed:
            return None
        kind = "image"
        pixels = op.pixels if isinstance(op, ImageOp) else (op.art.width, op.art.height)
        box = op.box if op.fit == "cover" else drawn_rectangle(op.box, pixels, op.fit)
    else:
        return None
    if box is None:
        return None
    return kind, outline_of(box, op.frame)


def _safe_zone(op: Op, layout: Layout, preset: Preset, card: Card, side: str,
               found: dict[tuple[str, ...], _Found]) -> None:
    extent = _extent(op, layout)
    if extent is None:
        return
    kind, box = extent
    safe = layout.trim.grown(-preset.safe)
    reach = max(safe.x - box.x, safe.y - box.y, box.right - safe.right, box.top - safe.top)
    if reach <= TOLERANCE:
        return
    _count(found, ("safe-zone", layout.name, op.element, kind, mm_text(reach)), (card.id, side), lambda: _Found(
        "safe-zone", f"{kind} '{op.element}' on card '{card.id}' ({side}) reaches {mm_text(reach)} into "
                     f"{preset.owner} unsafe margin: keep it {mm_text(preset.safe)} inside the cut "
                     f"(layout '{layout.name}')",
        _element_position(layout, op.element), card.id, side, op.element, details={"reach_mm": round(reach / MM, 2)}))


def _resolution(op: ImageOp, layout: Layout, preset: Preset, card: Card, side: str,
                found: dict[tuple[str, ...], _Found]) -> None:
    drawn = drawn_rectangle(op.box, op.pixels, op.fit)
    dpi = min(op.pixels[0] * 72 / drawn.width, op.pixels[1] * 72 / drawn.height)
    if dpi >= preset.dpi - 0.5:
        return
    needed = (math.ceil(drawn.width / 72 * preset.dpi), math.ceil(drawn.height / 72 * preset.dpi))
    _count(found, ("resolution", layout.name, op.element, str(op.path), f"{dpi:.0f}", str(needed)), (card.id, side),
           lambda: _Found(
        "resolution", f"image '{op.path.name}' of '{op.element}' on card '{card.id}' ({side}) prints at "
                      f"{dpi:.0f} dpi ({op.pixels[0]} x {op.pixels[1]} pixels over "
                      f"{size_text(drawn.width, drawn.height)}); {preset.name} asks for {preset.dpi} dpi: "
                      f"use an image of at least {needed[0]} x {needed[1]} pixels",
        _element_position(layout, op.element), card.id, side, op.element, details={"dpi": round(dpi, 1)}))


def _transparency(op: Op, layout: Layout, preset: Preset, card: Card, side: str,
                  found: dict[tuple[str, ...], _Found], soft_images: dict[Path, bool]) -> None:
    why = _see_through(op, soft_images)
    if why is None:
        return
    _count(found, ("transparency", layout.name, op.element, why), (card.id, side), lambda: _Found(
        "transparency", f"'{op.element}' on card '{card.id}' ({side}) {why}; {preset.standard} ({preset.name}) "
                        "allows no transparency: make it opaque (a solid colour that looks the same on its "
                        "background)",
        _element_position(layout, op.element), card.id, side, op.element))


def _see_through(op: Op, soft_images: dict[Path, bool]) -> str | None:
    """Why ``op`` paints with transparency, or None when it does not."""
    if op.frame is not None and op.frame.opacity < 1:
        return f"has opacity {op.frame.opacity:g}"
    for colour in _colours(op):
        alpha = getattr(colour, "alpha", 1)
        if alpha is not None and alpha < 1:
            paints = f"paints a see-through colour ({_hex(colour)}, alpha {alpha:.2f})"
            return f"draws '{op.art.path.name}', SVG art that {paints}" if isinstance(op, ArtOp) else paints
    if isinstance(op, ImageOp):
        if op.path not in soft_images:
            soft_images[op.path] = _has_alpha(op.path)
        if soft_images[op.path]:
            return f"shows '{op.path.name}', an image with soft (see-through) parts"
    arts = [op.art] if isinstance(op, ArtOp) else [icon.art for icon in _icons(op) if icon.art is not None]
    for art in arts:
        if _art_is_see_through(art):
            return f"draws '{art.path.name}', SVG art with see-through parts"
    return None


def _has_alpha(path: Path) -> bool:
    """Whether a raster image has an alpha channel that is not fully opaque (read once a file)."""
    try:
        with Image.open(path) as image:
            if image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and "transparency" in image.info):
                alpha = image.convert("RGBA").getchannel("A")
                return bool(alpha.getextrema() != (255, 255))
    except (OSError, ValueError):  # a broken image is reported by the face checks
        return False
    return False


def _art_is_see_through(art: SvgArt) -> bool:
    for shape in leaf_shapes(art.drawing):
        for attribute, opacity in (("fillColor", "fillOpacity"), ("strokeColor", "strokeOpacity")):
            colour = getattr(shape, attribute, None)
            if not isinstance(colour, Color):
                continue
            own = getattr(shape, opacity, None)
            if (getattr(colour, "alpha", 1) or 0) < 1 or (own is not None and own < 1):
                return True
    return False


def _icons(op: Op) -> list[Icon]:
    if isinstance(op, IconOp):
        return [op.icon]
    if isinstance(op, TextOp):
        return [piece.icon for line in op.text_lines for piece in line.pieces if isinstance(piece, InlineIcon)]
    return []


def _colours(op: Op) -> Iterable[Color]:
    """The flat colours ``op`` paints (a gradient's stops among them)."""
    if isinstance(op, ShapeOp):
        fills = list(op.fill.colours) if isinstance(op.fill, Gradient) else [op.fill]
        yield from (colour for colour in (*fills, op.stroke) if colour is not None)
    elif isinstance(op, LineOp):
        if op.stroke is not None:
            yield op.stroke
    elif isinstance(op, TextOp):
        for line in op.text_lines:
            for piece in line.pieces:
                if isinstance(piece, Glyphs):
                    colour = piece.colour or op.colour
                    if colour is not None:
                        yield colour
                elif isinstance(piece, TextRule):
                    if op.colour is not None:
                        yield op.colour
                else:
                    if piece.ink is not None:
                        yield from piece.icon.colours(piece.ink, piece.accent)
                    if piece.label is not None:
                        yield piece.label.colour
    elif isinstance(op, IconOp):
        yield from op.icon.colours(op.ink, op.accent)
    elif isinstance(op, ArtOp):
        yield from op.art.colours


def _ink(colours: dict[tuple[str, str, str], tuple[Color, Card, set[tuple[str, str]]]], renderer: Renderer,
         preset: Preset, inks: PressInks, found: dict[Key, _Found]) -> None:
    """Each colour converted (once: :meth:`PressInks.colour` keeps what it converted); those
    over the ink limit are findings, one for each element that paints them."""
    for (hex_value, side, element), (colour, first, faces) in colours.items():
        total = inks.total(inks.colour(colour))
        if not inks.over_limit(total):
            continue
        layout = renderer.layouts[side]
        key = ("ink-limit", layout.name, element, hex_value)
        if key not in found:
            card = first.id
            found[key] = _Found(
                "ink-limit", f"{_hex(colour)} of '{element}' on card '{card}' ({side}) prints with {total:.0f}% ink, "
                             f"more than {preset.owner} {preset.ink_limit:g}%",
                _element_position(layout, element), card, side, element, details={"ink": round(total, 1)})
        found[key].faces.update(faces)


def _image_ink(images: dict[tuple[Path, Resampling | None], list[tuple[ImageOp, Face]]], renderer: Renderer,
               preset: Preset, inks: PressInks, found: dict[Key, _Found]) -> None:
    """Each raster image measured once for each way it is resampled, on the pixels the shop's
    file embeds (:meth:`PressInks.art`, which ``build --for`` then embeds);
    one over the ink limit is a finding for each element that shows it."""
    for (path, resample), uses in images.items():
        try:
            total = inks.art(path, resample).total()
        except (OSError, ValueError):  # a broken image is reported by the face checks
            continue
        if not inks.over_limit(total):
            continue
        downsampled = "" if resample is None else f" once downsampled to {resample.size[0]} x {resample.size[1]} pixels"
        for op, (card, side) in uses:
            layout = renderer.layouts[side]
            key = ("ink-limit", layout.name, op.element, str(path), f"{total:.0f}")
            if key not in found:
                found[key] = _Found(
                    "ink-limit", f"image '{path.name}' of '{op.element}' on card '{card.id}' ({side}) prints with "
                                 f"up to {total:.0f}% ink{downsampled}, more than {preset.owner} "
                                 f"{preset.ink_limit:g}%",
                    _element_position(layout, op.element), card.id, side, op.element,
                    details={"ink": round(total, 1)})
            found[key].faces.add((card.id, side))
