"""The booklet's paragraphs: reportlab's, with fallback runs in the right face and layout icons.

:func:`generator.booklet.style.paragraph_text` wraps characters Vera lacks in
``<font name="DejaVuSans">``. reportlab resets bold and italic to the face such a
tag names, so a fallback run inside ``<b>`` (or in a bold heading) would print
regular; :class:`Paragraph` names the bold, italic or bold-italic face instead.
Kept apart from the style module so ``check`` can ask what prints without loading
platypus.

A layout icon in a paragraph (:func:`icon_markup`) takes the room reportlab gives an
inline picture, sized as card text sizes it: the cap height of the font around it, with
the cards' margin either side, in the colour of that text. :class:`BookletCanvas` draws it
there as vector paths, with the cards' own icon drawing.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from reportlab.lib.colors import Color, white
from reportlab.lib.fonts import ps2tt
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph as _Paragraph

from generator.booklet.style import bundled_fonts, fallback_face, load_style
from generator.render.icons import Icon, draw_icon
from generator.render.runs import ICON_MARGIN, icon_side

ICON_TAG = "deckpress-icon"
"""The name of the paragraph markup's ``<onDraw>`` that stands for a layout icon."""

ICON_SPACER = '<font size="0.01">\u00a0</font>'
"""An invisible word before each icon. reportlab ends a line before a picture only when the
line holds a word already, so a row of icons alone would run past the edge (and take time
growing with the square of its length to lay out); after this, a line may end before any icon."""

_FACE_TAGS = re.compile(r"<(/?)(b|strong|i|em|font)\b([^>]*)>")
_FONT_NAME = re.compile(r'name="([^"]*)"')


def fallback_faces(markup: str, style: ParagraphStyle) -> str:
    """Put each fallback run of ``markup`` in the face its place asks for: follow the
    ``<b>``/``<i>`` nesting (from the style's own face) and name the fallback family's
    matching face."""
    families = load_style().fallback_fonts
    if not families or '<font name="' not in markup:
        return markup
    fallbacks = {fallback_face(family, False, False): family for family in families}
    _, bold, italic = ps2tt(style.fontName)
    depth = {"b": bold, "i": italic}

    def rewrite(match: re.Match[str]) -> str:
        closing, tag, attributes = match.groups()
        kind = {"strong": "b", "em": "i"}.get(tag, tag)
        if kind in depth:
            depth[kind] += -1 if closing else 1
            return match.group(0)
        name = _FONT_NAME.search(attributes)
        if closing or not name or name.group(1) not in fallbacks:
            return match.group(0)
        face = fallback_face(fallbacks[name.group(1)], depth["b"] > 0, depth["i"] > 0)
        return f'<font name="{face}"{attributes.replace(name.group(0), "")}>'

    return _FACE_TAGS.sub(rewrite, markup)


def icon_markup(name: str) -> str:
    """Paragraph markup for the layout icon ``name`` (a name of letters, digits, - and _)."""
    return f'{ICON_SPACER}<onDraw name="{ICON_TAG}" label="{name}"/>'


@dataclass(repr=False, eq=False)
class InlineIcon:
    """A layout icon where a paragraph places a picture: its name, its colour and the room left
    either side of its square."""

    name: str
    ink: Color
    margin: float


class Paragraph(_Paragraph):
    """reportlab's paragraph, with fallback runs in the face bold and italic ask for, and room
    for its layout icons."""

    def __init__(self, text: str, style: ParagraphStyle, *args: Any, **kwargs: Any):
        super().__init__(fallback_faces(text, style) if isinstance(text, str) else text, style, *args, **kwargs)
        if isinstance(text, str) and ICON_TAG in text:
            for fragment in self.frags:
                _make_room(fragment)

    def icon_widths(self) -> list[float]:
        """The width each layout icon takes in the paragraph (its text's width leaves them out)."""
        return [fragment.cbDefn.width for fragment in self.frags
                if isinstance(getattr(getattr(fragment, "cbDefn", None), "image", None), InlineIcon)]


def _make_room(fragment: Any) -> None:
    """Turn an icon's ``<onDraw>`` into a picture reportlab lines up and makes room for."""
    place = getattr(fragment, "cbDefn", None)
    if place is None or place.kind != "onDraw" or place.name != ICON_TAG:
        return
    side = icon_side(bundled_fonts(), fragment.fontName, 1.0) * fragment.fontSize
    margin = ICON_MARGIN * fragment.fontSize
    place.kind, place.image = "img", InlineIcon(place.label, fragment.textColor, margin)
    place.width, place.height, place.valign = side + 2 * margin, side, 0  # on the baseline, up to the caps


class BookletCanvas(Canvas):
    """reportlab's canvas, which draws each layout icon a paragraph places (``icons``: the deck's,
    asked for when the first is drawn)."""

    def __init__(self, *args: Any, icons: Callable[[], Mapping[str, Icon]], **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.icons = icons

    def drawImage(self, image: Any, x: float, y: float, width: float | None = None,
                  height: float | None = None, *args: Any, **kwargs: Any) -> Any:
        if not isinstance(image, InlineIcon):
            return super().drawImage(image, x, y, width, height, *args, **kwargs)
        side = height or 0.0
        draw_icon(self, self.icons()[image.name], x + image.margin, y, side, image.ink, white)
        return width, height
