"""Inline markup in card text: bold, italic, icons, named styles and line breaks.

Every text element reads its text (from the layout's template and the card's
fields alike) as light markup, close to what designers already type::

    Pay 2 :coin: to **draw** a card.     bold; an inline icon from the layout's icons
    *Once per turn*, ***or twice***.     italic; bold and italic together
    [Burn]{.burn} a monster.             a named style from the layout's ``styles:``
    First line                           a newline in the text is a line break
    second line
    2 \\* 3, ratio 1\\:2                   a backslash prints the next * : [ ] { } or \\ itself

A star run opens when a letter follows it and closes when a letter precedes it,
so ``2 * 3`` (spaces either side) prints its star; ``2*3`` or an emphasis that
is never closed is an error, as is an icon name the layout does not know: a
misprinted card is worse than a refused build.

:func:`parse_markup` turns one string into lines of :class:`Span`; the renderer
parses each distinct string once and keeps the result. Nothing here knows
fonts or icons: the text stage (:mod:`generator.render.runs`) gives each span
its face, colour and width.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

ESCAPABLE = "*:[]{}\\"
"""Characters a backslash prints literally."""
ICON_PATTERN = re.compile(r":([A-Za-z][A-Za-z0-9_-]*):")
STYLE_PATTERN = re.compile(r"\[((?:\\.|[^\]\\\n])*)\]\{\.([A-Za-z][A-Za-z0-9_-]*)\}")
"""``[text]{.name}``: the text (escapes allowed, one line) and the style's name."""
STARS = {1: ("italic",), 2: ("bold",), 3: ("bold", "italic")}
MARKUP_START = re.compile(r"[\\\n*:\[]")
"""A character that may begin markup; text up to the next one is copied as it is."""
WORDS = {("italic",): "italic ('*')", ("bold",): "bold ('**')", ("bold", "italic"): "bold italic ('***')"}


STAR_HINT = " (write \\* for a star)"


def escape_markup(text: str) -> str:
    """``text`` written so that markup prints it as it is: a backslash before every
    character markup would read (``Cats & *Dogs`` becomes ``Cats & \\*Dogs``)."""
    return "".join("\\" + char if char in ESCAPABLE else char for char in text)


class MarkupError(ValueError):
    """Markup that cannot be read; ``token`` is the offending text, ``offset`` where it starts,
    ``hint`` how to mend it."""

    def __init__(self, message: str, token: str, offset: int, hint: str = STAR_HINT):
        super().__init__(message + hint)
        self.message = message
        self.token = token
        self.offset = offset
        self.hint = hint


@dataclass(frozen=True)
class Span:
    """A stretch of text in one style, or one inline icon (``icon`` set, ``text`` empty)."""

    text: str
    bold: bool = False
    italic: bool = False
    style: str | None = None
    icon: str | None = None


Markup = tuple[tuple[Span, ...], ...]
"""Lines (split at hard line breaks), each a tuple of spans."""


def parse_markup(text: str) -> Markup:
    """The lines and spans of ``text``; raises :class:`MarkupError` on unbalanced stars."""
    return _Parser(text).parse()


def plain_text(markup: Markup) -> str:
    """The words a reader sees, without markup or icons (lines joined by newlines)."""
    return "\n".join("".join(span.text for span in line) for line in markup)


def readable(text: str, parse: Callable[[str], Markup] = parse_markup) -> str:
    """What a reader sees of card text outside a card (a rules booklet's table): the words,
    without markup or icons. Text whose markup cannot be read is returned as it is (the
    card itself is refused with the reason). ``parse`` may be a remembering parser (the
    renderer's, which has parsed a title it printed already)."""
    try:
        markup = parse(text)
    except MarkupError:
        return text
    return "\n".join(" ".join(line.split()) for line in plain_text(markup).split("\n"))


def icon_names(markup: Markup) -> list[str]:
    return [span.icon for line in markup for span in line if span.icon]


def style_names(markup: Markup) -> list[str]:
    return [span.style for line in markup for span in line if span.style]


class _Parser:
    def __init__(self, text: str):
        self.text = text
        self.lines: list[tuple[Span, ...]] = []
        self.spans: list[Span] = []
        self.buffer: list[str] = []
        self.open: dict[str, int] = {}  # "bold"/"italic" -> offset of the stars that opened it
        self.style: str | None = None
        self.style_end = -1  # offset of the "]{.name}" that ends the current style
        self.style_end_length = 0

    def parse(self) -> Markup:
        text, index = self.text, 0
        while index < len(text):
            char = text[index]
            if index == self.style_end:
                self._flush()
                index += self.style_end_length
                self.style, self.style_end = None, -1
            elif char == "\\" and index + 1 < len(text) and text[index + 1] in ESCAPABLE:
                self.buffer.append(text[index + 1])
                index += 2
            elif char == "\n":
                self._flush()
                self.lines.append(tuple(self.spans))
                self.spans = []
                index += 1
            elif char == "*":
                index = self._stars(index)
            elif char == ":" and (icon := ICON_PATTERN.match(text, index)):
                self._flush()
                self.spans.append(Span("", *self._flags(), icon=icon.group(1)))
                index = icon.end()
            elif char == "[" and self.style is None and (styled := STYLE_PATTERN.match(text, index)):
                self._flush()
                self.style = styled.group(2)
                self.style_end = index + 1 + len(styled.group(1))
                self.style_end_length = styled.end() - self.style_end
                index += 1
            else:
                index = self._plain(index)
        self._flush()
        self.lines.append(tuple(self.spans))
        if self.open:
            what, offset = min(self.open.items(), key=lambda item: item[1])
            stars = "**" if what == "bold" else "*"
            raise MarkupError(f"unbalanced '{stars}': {what} opened at character {offset + 1} is never "
                              "closed", stars, offset)
        return tuple(self.lines)

    def _plain(self, index: int) -> int:
        """Copy text from ``index`` up to the next character that may begin markup (or the end
        of the current style) in one piece: a card's words cost one slice, not a step a letter."""
        found = MARKUP_START.search(self.text, index + 1)
        stop = found.start() if found else len(self.text)
        if index < self.style_end < stop:
            stop = self.style_end
        self.buffer.append(self.text[index:stop])
        return stop

    def _flags(self) -> tuple[bool, bool, str | None]:
        return "bold" in self.open, "italic" in self.open, self.style

    def _flush(self) -> None:
        if self.buffer:
            self.spans.append(Span("".join(self.buffer), *self._flags()))
            self.buffer = []

    def _stars(self, index: int) -> int:
        text = self.text
        end = index
        while end < len(text) and text[end] == "*":
            end += 1
        count = end - index
        before = text[index - 1] if index > 0 else " "
        after = text[end] if end < len(text) else " "
        can_open, can_close = not after.isspace(), not before.isspace()
        if not can_open and not can_close:  # "2 * 3": a star standing alone prints
            self.buffer.append("*" * count)
            return end
        token = "*" * count
        if count > 3:
            raise MarkupError(f"'{token}' is not markup: use * for italic, ** for bold, *** for both",
                              token, index)
        kinds = STARS[count]
        self._flush()
        if can_close and all(kind in self.open for kind in kinds):
            for kind in kinds:
                del self.open[kind]
        elif can_open and not any(kind in self.open for kind in kinds):
            for kind in kinds:
                self.open[kind] = index
        else:
            what = WORDS[kinds]
            raise MarkupError(f"unbalanced '{token}' at character {index + 1}: it closes {what} that "
                              "was not opened", token, index)
        return end
