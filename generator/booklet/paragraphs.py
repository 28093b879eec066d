"""The booklet's paragraphs: reportlab's, with fallback runs in the right face and layout icons.

:func:`generator.booklet.style.paragraph_text` wraps characters Vera lacks in
``<font name="DejaVuSans">``. reportlab resets bold and italic to the face such a
tag names, so a fallback run inside ``<b>`` (or in a bold heading) would print
regular; :class:`Paragraph` names the bold, italic or bold-italic face instead.
Kept apart from the style module so ``check`` can ask what prints without loading
platypus.

A layout icon in a paragraph (:func:`icon_markup`) takes the room reportlab gives an
inline picture, sized as card text sizes it: the cap height of the font around it, with
the cards' margin either side, in the colour of that text; one showing a label is
:data:`LABELLED_ICON_SCALE` times larger, centred on the capitals, its label as on cards.
:class:`BookletCanvas` draws it there as vector paths, with the cards' own icon drawing.
reportlab may end a line on either side of a picture; an icon written against a word or a
stop (``1 :vp:-token``, ``3 :vp:.``) stays on one line with it, as on the cards: see
:func:`icon_markup`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from html import escape
from typing import Any

from reportlab.lib.colors import Color, white
from reportlab.lib.fonts import ps2tt
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph as _Paragraph
from reportlab.platypus import TableStyle
from reportlab.platypus.paragraph import _getFragWords, _HSFrag

from generator.booklet.style import booklet_fonts, bundled_fonts, fallback_face, load_style
from generator.render.icons import Icon, draw_icon, draw_label, label_colour, label_place
from generator.render.runs import ICON_MARGIN, SpanFonts, icon_label, icon_side

ICON_TAG = "deckpress-icon"
"""The name of the paragraph markup's ``<onDraw>`` that stands for a layout icon."""

LABELLED_ICON_SCALE = 1.4
"""How much larger than the capitals an icon showing a label (``:coin{2}:``) is drawn in a booklet,
centred on them: a figure in a capital-high coin would print at half a capital's height. (On a
card the layout's ``icon_scale`` decides.)"""

ICON_SPACER = '<font size="0.01">\u00a0</font>'
"""An invisible word before each icon. reportlab ends a line before a picture only when the
line holds a word already, so a row of icons alone would run past the edge (and take time
growing with the square of its length to lay out); after this, a line may end before any icon."""

GLUE_TAG = "deckpress-glue"
"""The ``<onDraw>`` between an icon and a word written against it: a picture of no width that
tells :class:`Paragraph` to join the two into one word (reportlab makes every picture a word of
its own, and may end a line between any two words)."""

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


def table_style(*commands: tuple[Any, ...]) -> TableStyle:
    """A booklet table's style: ``commands`` after one setting every cell's font to the body font.
    reportlab sets each cell's font before drawing it, Helvetica unless told, and would name that
    unembedded font in the PDF although no cell prints in it (print shops' preflight refuses
    unembedded fonts)."""
    return TableStyle([("FONTNAME", (0, 0), (-1, -1), booklet_fonts()["body"]), *commands])


def icon_markup(name: str, label: str, before: str, after: str) -> str:
    """Paragraph markup for the layout icon ``name`` (a name of letters, digits, - and _), showing
    ``label`` (after the first space of the markup's label).

    ``before`` and ``after`` are the texts written just before and after it: one that touches it,
    with no space between (``x:coin:``, ``:coin:.``), keeps the icon on its line. Anywhere else a
    line may end before and after it."""
    shown = f"{name} {escape(label, quote=True)}" if label else name
    glue = f'<onDraw name="{GLUE_TAG}"/>'
    after_word = bool(before) and not before[-1].isspace()
    before_word = bool(after) and not after[0].isspace()
    return (glue if after_word else ICON_SPACER) + f'<onDraw name="{ICON_TAG}" label="{shown}"/>' \
        + (glue if before_word else "")


GLUE = object()
"""What a glue's picture draws: nothing."""


@dataclass(repr=False, eq=False)
class InlineIcon:
    """A layout icon where a paragraph places a picture: its name, its colour, the room left
    either side of its square, and its label with the font of the text around it (its name in
    the bundled fonts' registry)."""

    name: str
    ink: Color
    margin: float
    label: str = ""
    font: str = ""


class Paragraph(_Paragraph):
    """reportlab's paragraph, with fallback runs in the face bold and italic ask for, and room
    for its layout icons."""

    frags: list[Any]
    """reportlab's fragments of the text, or its words once glue has joined some (:func:`glued_words`)."""

    def __init__(self, text: str, style: ParagraphStyle, *args: Any, **kwargs: Any):
        super().__init__(fallback_faces(text, style) if isinstance(text, str) else text, style, *args, **kwargs)
        if isinstance(text, str) and ICON_TAG in text:
            for fragment in self.frags:
                _make_room(fragment)
            if GLUE_TAG in text:
                self.frags = glued_words(self.frags)

    def glued_widths(self) -> list[float]:
        """The width of each word an icon is glued into (none unless some is): a line cannot end
        inside one, so a table column must be as wide as the widest."""
        if not (self.frags and isinstance(self.frags[0], list)):
            return []
        return [word[0] for word in self.frags if any(_is_glue(fragment) for fragment, _ in word[1:])]

    def icon_widths(self) -> list[float]:
        """The width each layout icon takes in the paragraph (its text's width leaves them out)."""
        return [fragment.cbDefn.width for fragment in _fragments(self.frags)
                if isinstance(getattr(getattr(fragment, "cbDefn", None), "image", None), InlineIcon)]


def glued_words(fragments: list[Any]) -> list[Any]:
    """The paragraph's words as reportlab's line breaker takes them (``[width, (fragment, text),
    ...]``, the form a paragraph split across pages keeps), each glue joining the words either side
    of it into one: no line ends between an icon and a word written against it."""
    words: list[Any] = []
    for word in _getFragWords(fragments):
        if words and (_is_glue(word[1][0]) or _is_glue(words[-1][-1][0])):
            kind = _HSFrag if isinstance(word, _HSFrag) else list  # a space after it or not
            words[-1] = kind([words[-1][0] + word[0], *words[-1][1:], *word[1:]])
        else:
            words.append(word)
    return words


def _is_glue(fragment: Any) -> bool:
    return getattr(getattr(fragment, "cbDefn", None), "image", None) is GLUE


def _fragments(frags: list[Any]) -> list[Any]:
    """Every fragment of a paragraph, whether it holds fragments or words (see :func:`glued_words`)."""
    if frags and isinstance(frags[0], list):
        return [fragment for word in frags for fragment, _ in word[1:]]
    return frags


def _make_room(fragment: Any) -> None:
    """Turn an icon's ``<onDraw>`` into a picture reportlab lines up and makes room for."""
    place = getattr(fragment, "cbDefn", None)
    if place is None or place.kind != "onDraw" or place.name not in (ICON_TAG, GLUE_TAG):
        return
    if place.name == GLUE_TAG:  # no width: reportlab counts it into the word that follows
        place.kind, place.image, place.width, place.height, place.valign = "img", GLUE, 0, 0, 0
        return
    name, _, label = place.label.partition(" ")
    fonts = bundled_fonts()
    font = fonts.loaded_name(fragment.fontName)  # the paragraph names fonts as reportlab draws them
    caps = icon_side(fonts, font, 1.0) * fragment.fontSize
    side = caps * LABELLED_ICON_SCALE if label else caps
    margin = ICON_MARGIN * fragment.fontSize
    place.kind, place.image = "img", InlineIcon(name, fragment.textColor, margin, label, font)
    # on the baseline, up to the caps; a labelled one larger, centred on them
    place.width, place.height, place.valign = side + 2 * margin, side, (caps - side) / 2


class BookletCanvas(Canvas):
    """reportlab's canvas, which draws each layout icon a paragraph places (``icons``: the deck's,
    asked for when the first is drawn)."""

    def __init__(self, *args: Any, icons: Callable[[], Mapping[str, Icon]], **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.icons = icons

    def drawImage(self, image: Any, x: float, y: float, width: float | None = None,
                  height: float | None = None, *args: Any, **kwargs: Any) -> Any:
        if image is GLUE:
            return 0, 0
        if not isinstance(image, InlineIcon):
            return super().drawImage(image, x, y, width, height, *args, **kwargs)
        side = height or 0.0
        icon = self.icons()[image.name]
        draw_icon(self, icon, x + image.margin, y, side, image.ink, white, labelled=bool(image.label))
        if image.label:
            label = icon_label(image.label, SpanFonts(bundled_fonts(), (image.font, *load_style().fallback_fonts)))
            start, baseline, size = label_place(x + image.margin, y, side, label.width, label.cap_height)
            draw_label(self, label.pieces, start, baseline, size, label_colour(icon))
        return width, height
