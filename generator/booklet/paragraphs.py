"""The booklet's paragraphs: reportlab's, with fallback runs in the right face.

:func:`generator.booklet.style.paragraph_text` wraps characters Vera lacks in
``<font name="DejaVuSans">``. reportlab resets bold and italic to the face such a
tag names, so a fallback run inside ``<b>`` (or in a bold heading) would print
regular; :class:`Paragraph` names the bold, italic or bold-italic face instead.
Kept apart from the style module so ``check`` can ask what prints without loading
platypus.
"""

from __future__ import annotations

import re
from typing import Any

from reportlab.lib.fonts import ps2tt
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Paragraph as _Paragraph

from generator.booklet.style import fallback_face, load_style

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


class Paragraph(_Paragraph):
    """reportlab's paragraph, with fallback runs in the face bold and italic ask for."""

    def __init__(self, text: str, style: ParagraphStyle, *args: Any, **kwargs: Any):
        super().__init__(fallback_faces(text, style) if isinstance(text, str) else text, style, *args, **kwargs)
