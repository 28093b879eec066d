"""Inline markup in card text: bold, italic, icons, named styles and line breaks.

Every text element reads its text (from the layout's template and the card's
fields alike) as light markup, close to what designers already type::

    Pay 2 :coin: to **draw** a card.     bold; an inline icon from the layout's icons
    Pay :coin{2}: to draw.               an icon showing a number or short text (its label)
    *Once per turn*, ***or twice***.     italic; bold and italic together
    [Burn]{.burn} a monster.             a named style from the layout's ``styles:``
    First line                           a newline in the text is a line break
    second line
    ---                                  a line of three or more hyphens alone: a rule
    2 \\* 3, ratio 1\\:2                   a backslash prints the next * : [ ] { } - or \\ itself

An icon's label (``:coin{2}:``, ``:shield{ {{ armour }} }:``: spaces round it are
dropped, so a template's braces can stand apart; a soft hyphen in it is left out) holds at most
:data:`MAX_ICON_LABEL` characters; ``}`` inside it is written ``\\}``. A label
too long, or an opening ``:coin{`` with no ``}:`` closing it on its line, is an
error of the text (a :attr:`Span.fault`, raised where the text is set), never
printed as it stands: a misprinted cost is worse than a refused build.

Stars follow CommonMark's rules for emphasis: a run of stars opens emphasis when
it stands before a word (left-flanking) and closes it after one (right-flanking),
runs pair up inside out (``***a* b**`` is bold over an italic ``a``), and a star
that opens or closes nothing prints as itself: ``Pay 2*``, ``5*``, ``The
NuvaRing™.*`` and ``2 * 3`` are text, never an error. Emphasis inside a named
style pairs within it, as CommonMark pairs it within a link's text. An icon
name the layout does not know is an error (in :mod:`generator.render.runs`): a
misprinted card is worse than a refused build.

A field declared ``markup: false`` (:class:`~generator.deck.plain.PlainText`)
is printed as written: the layout's text templates escape it (see
:func:`escape_markup`) where they print it.

:func:`parse_markup` turns one string into lines of :class:`Span`; the renderer
parses each distinct string once and keeps the result. Nothing here knows
fonts or icons: the text stage (:mod:`generator.render.runs`) gives each span
its face, colour and width.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field

from generator.deck.plain import PlainText

ESCAPABLE = "*:[]{}\\-"
"""Characters a backslash prints literally (``\\-`` keeps a line of hyphens from being a rule)."""
ICON_NAME = r"[A-Za-z][A-Za-z0-9_-]*"
ICON_PATTERN = re.compile(rf":({ICON_NAME})[:{{]")
"""Where an inline icon begins: ``:name:``, or ``:name{`` (a labelled one, or one that is
malformed). Only a parse tells which, and whether an escape or code span hides it."""
PLAIN_ICON = re.compile(rf":({ICON_NAME}):")
LABELLED_ICON = re.compile(rf":({ICON_NAME})\{{((?:\\.|[^{{}}\\\n])*)\}}(:?)")
"""``:name{label}:``: the name, the label as written (escapes allowed, one line, no unescaped
brace) and the closing colon (empty when it is missing, which is an error)."""
ICON_OPENING = re.compile(rf":({ICON_NAME})\{{")
RULE_LINE = re.compile(r"[ ]*-{3,}[ ]*(?=\n|$)")
"""A line of three or more hyphens alone (spaces round them allowed): a horizontal rule."""
MAX_ICON_LABEL = 4
"""Characters in an icon's label (``:coin{12}:``). The label shrinks to fit its icon, which
is a capital letter high: a fifth character would print at under a fifth of the icon's width,
too small to read; a longer text is words, not a label."""
STYLE_PATTERN = re.compile(r"\[((?:\\.|[^\]\\\n])*)\]\{\.([A-Za-z][A-Za-z0-9_-]*)\}")
"""``[text]{.name}``: the text (escapes allowed, one line) and the style's name."""
MARKUP_START = re.compile(r"[\\\n*:\[]")
"""A character that may begin markup; text up to the next one is copied as it is."""


def escape_markup(text: str) -> str:
    """``text`` written so that markup prints it as it is: a backslash before every
    character markup would read (``Cats & *Dogs`` becomes ``Cats & \\*Dogs``), and before
    a line of hyphens that would be a rule (hyphens elsewhere are left as they are)."""
    escaped = "".join("\\" + char if char in ESCAPABLE and char != "-" else char for char in text)
    if "---" not in escaped:
        return escaped
    return "\n".join(line.replace("-", "\\-", 1) if RULE_LINE.fullmatch(line) else line
                     for line in escaped.split("\n"))


@dataclass(frozen=True)
class Span:
    """A stretch of text in one style, or one inline icon (``icon`` set, ``text`` empty), with
    the label it shows (``label``, '' for none); or a rule, alone on its line (``rule``).

    ``fault`` says what is wrong with markup that cannot be printed (an icon's label that is
    too long or not closed); ``text`` then holds that markup as written. Parsing never fails:
    setting the text raises the fault, so every reader of markup sees the same text."""

    text: str
    bold: bool = False
    italic: bool = False
    style: str | None = None
    icon: str | None = None
    label: str = ""
    rule: bool = False
    fault: str = ""


Markup = tuple[tuple[Span, ...], ...]
"""Lines (split at hard line breaks), each a tuple of spans."""


def parse_markup(text: str) -> Markup:
    """The lines and spans of ``text``. Any text can be read: stars that pair with none print."""
    return _Parser(text).parse()


def plain_text(markup: Markup) -> str:
    """The words a reader sees, without markup or icons but with icons' labels (lines joined
    by newlines; a rule's line is empty)."""
    return "\n".join("".join(span.label or span.text for span in line) for line in markup)


def readable(text: str, parse: Callable[[str], Markup] = parse_markup) -> str:
    """What a reader sees of card text outside a card (a rules booklet's table): the words,
    without markup or icons, spaces run together. ``parse`` may be a remembering parser
    (the renderer's, which has parsed a title it printed already). Plain text (a field declared
    ``markup: false``) is read as written."""
    seen = text if isinstance(text, PlainText) else plain_text(parse(text))
    return "\n".join(" ".join(line.split()) for line in seen.split("\n"))


def prints_as_written(text: str) -> bool:
    """Whether markup prints ``text`` exactly as it is written: no emphasis, icon, style or
    escape changes it (``Pay 2*`` does; ``**Pay** 2`` and ``Pay 2 :coin:`` do not)."""
    if not MARKUP_START.search(text.replace("\n", "")):
        return True
    markup = parse_markup(text)
    return plain_text(markup) == text and not any(
        span.bold or span.italic or span.style or span.icon or span.rule or span.fault
        for line in markup for span in line)


@dataclass(frozen=True, eq=False, repr=False)
class IconMark:
    """An inline icon as written at one place of a text (``written``): its name and label, or
    its ``fault``."""

    name: str
    label: str = ""
    fault: str = ""
    written: str = ""


def read_icon(text: str, index: int) -> tuple[IconMark, int] | None:
    """The icon written at ``text[index]`` (a colon) and where it ends; None when none is.

    ``:coin:`` and ``:coin{2}:`` are icons; ``:coin{`` with no ``}:`` after its label on the
    same line (another ``{`` comes first), and a label longer than :data:`MAX_ICON_LABEL`, are
    faults: the label's, up to its ``}``; an unclosed one's, its opening ``:coin{`` alone, so
    the icons after it are read as they are."""
    plain = PLAIN_ICON.match(text, index)
    if plain:
        return IconMark(plain.group(1), written=plain.group(0)), plain.end()
    labelled = LABELLED_ICON.match(text, index)
    if labelled and labelled.group(3):
        name, written = labelled.group(1), labelled.group(0)
        # a label never breaks across lines, so a soft hyphen in it (U+00AD) is only ever invisible
        label = unescape(labelled.group(2)).replace("\u00ad", "").strip(" ")
        if len(label) > MAX_ICON_LABEL:
            shown = label if len(label) <= 20 else label[:17] + "..."
            return IconMark(name, fault=f"the label of ':{name}{{...}}:' is \"{shown}\", {len(label):,} "
                                        f"characters; an icon shows at most {MAX_ICON_LABEL}",
                            written=written), labelled.end()
        return IconMark(name, label, written=written), labelled.end()
    opening = ICON_OPENING.match(text, index)
    if opening is None:
        return None
    name = opening.group(1)
    end = labelled.end() if labelled else opening.end()
    return IconMark(name, fault=f"the label of ':{name}{{' has no '}}:' closing it on its line "
                                f"(write :{name}{{2}}:)", written=text[index:end]), end


def unescape(text: str) -> str:
    """``text`` with each backslash escape (``\\*``, ``\\}``) replaced by the character it prints."""
    if "\\" not in text:
        return text
    return re.sub(r"\\(.)", lambda found: found.group(1) if found.group(1) in ESCAPABLE else found.group(0), text)


def _is_punctuation(char: str) -> bool:
    """CommonMark's Unicode punctuation: the P (punctuation) and S (symbol) categories."""
    return unicodedata.category(char)[0] in "PS"


@dataclass(repr=False, eq=False)
class _Run:
    """A run of stars on the delimiter stack (CommonMark's), linked to its neighbours.

    ``left`` stars are still unpaired; pairing takes them from the inner side, so what
    prints is ``closes`` (ends of emphasis), then the unpaired stars, then ``opens``
    (starts of emphasis, outermost first)."""

    length: int
    can_open: bool
    can_close: bool
    left: int = 0
    opens: list[str] = field(default_factory=list)
    closes: list[str] = field(default_factory=list)
    before: _Run | None = None
    after: _Run | None = None


_BREAK = object()
"""A hard line break among the parsed pieces."""


@dataclass(repr=False, eq=False)
class _Style:
    """Where a named style begins (``name`` set) or ends (``name`` None)."""

    name: str | None


_RULE = object()
"""A rule, alone on its line, among the parsed pieces."""


class _Parser:
    """Two passes, as CommonMark's inline parser: the text is cut into pieces (plain text,
    icons, breaks, style marks and runs of stars, the runs on a delimiter stack), the
    runs are paired, and the pieces become spans."""

    def __init__(self, text: str):
        self.text = text
        self.pieces: list[str | _Run | _Style | IconMark | object] = []
        self.last: _Run | None = None  # the top of the delimiter stack

    def parse(self) -> Markup:
        self._cut()
        self._pair(None)
        return self._spans()

    # --- the first pass: pieces and the delimiter stack -----------------------------------

    def _cut(self) -> None:
        text = self.text
        style_end, style_end_length = -1, 0  # where the "]{.name}" ending the current style starts
        style_bottom: _Run | None = None  # the stack's top when the style began
        index = self._rule(0)
        while index < len(text):
            char = text[index]
            if index == style_end:
                self._pair(style_bottom)  # stars inside a style pair only with each other
                self.pieces.append(_Style(None))
                index += style_end_length
                style_end = -1
            elif char == "\\" and index + 1 < len(text) and text[index + 1] in ESCAPABLE:
                self.pieces.append(text[index + 1])
                index += 2
            elif char == "\n":
                self.pieces.append(_BREAK)
                index = self._rule(index + 1)
            elif char == "*":
                index = self._stars(index)
            elif char == ":" and (icon := read_icon(text, index)):
                self.pieces.append(icon[0])
                index = icon[1]
            elif char == "[" and style_end < 0 and (styled := STYLE_PATTERN.match(text, index)):
                self.pieces.append(_Style(styled.group(2)))
                style_bottom = self.last
                style_end = index + 1 + len(styled.group(1))
                style_end_length = styled.end() - style_end
                index += 1
            else:
                # Copy text up to the next character that may begin markup (or the end of the
                # current style) in one piece: a card's words cost one slice, not a step a letter.
                found = MARKUP_START.search(text, index + 1)
                stop = found.start() if found else len(text)
                if index < style_end < stop:
                    stop = style_end
                self.pieces.append(text[index:stop])
                index = stop

    def _rule(self, index: int) -> int:
        """Where reading goes on from the start of a line at ``index``: past the line, when
        it is a rule (its piece added), else at ``index``."""
        rule = RULE_LINE.match(self.text, index)
        if rule is None:
            return index
        self.pieces.append(_RULE)
        return rule.end()

    def _stars(self, index: int) -> int:
        """A run of stars: CommonMark's flanking rules say whether it may open or close."""
        text = self.text
        end = index
        while end < len(text) and text[end] == "*":
            end += 1
        before = text[index - 1] if index > 0 else " "  # the text's ends count as spaces
        after = text[end] if end < len(text) else " "
        left_flanking = not after.isspace() and (
            not _is_punctuation(after) or before.isspace() or _is_punctuation(before))
        right_flanking = not before.isspace() and (
            not _is_punctuation(before) or after.isspace() or _is_punctuation(after))
        run = _Run(end - index, left_flanking, right_flanking, left=end - index)
        self.pieces.append(run)
        if left_flanking or right_flanking:  # a run that can do neither pairs with nothing
            run.before = self.last
            if self.last is not None:
                self.last.after = run
            self.last = run
        return end

    # --- the second pass: pairing runs (CommonMark's "process emphasis") ------------------

    def _pair(self, bottom: _Run | None) -> None:
        """Pair the runs above ``bottom`` on the stack, then take them off it."""
        closer = bottom.after if bottom is not None else self._first()
        floors: dict[tuple[bool, int], _Run | None] = {}  # no opener for such a closer lies below
        while closer is not None:
            if not closer.can_close:
                closer = closer.after
                continue
            kind = (closer.can_open, closer.length % 3)
            floor = floors.get(kind, bottom)
            opener = closer.before
            while opener is not None and opener is not bottom and opener is not floor:
                odd = (opener.can_close or closer.can_open) and closer.length % 3 != 0 \
                    and (opener.length + closer.length) % 3 == 0
                if opener.can_open and not odd:
                    break
                opener = opener.before
            else:
                opener = None
            if opener is None:
                floors[kind] = closer.before
                following = closer.after
                if not closer.can_open:  # it can close nothing, and opens nothing either
                    self._unlink(closer)
                closer = following
                continue
            used = 2 if opener.left >= 2 and closer.left >= 2 else 1
            emphasis = "bold" if used == 2 else "italic"
            opener.left -= used
            closer.left -= used
            opener.opens.insert(0, emphasis)  # pairs are found inside out
            closer.closes.append(emphasis)
            opener.after, closer.before = closer, opener  # the runs between them print as text
            if opener.left == 0:
                self._unlink(opener)
            if closer.left == 0:
                following = closer.after
                self._unlink(closer)
                closer = following
        if bottom is not None:
            bottom.after = None
        self.last = bottom

    def _first(self) -> _Run | None:
        run = self.last
        while run is not None and run.before is not None:
            run = run.before
        return run

    def _unlink(self, run: _Run) -> None:
        if run.before is not None:
            run.before.after = run.after
        if run.after is not None:
            run.after.before = run.before
        if self.last is run:
            self.last = run.before
        run.before = run.after = None

    # --- spans --------------------------------------------------------------------------

    def _spans(self) -> Markup:
        lines: list[tuple[Span, ...]] = []
        spans: list[Span] = []
        buffer: list[str] = []
        depth = {"bold": 0, "italic": 0}
        style: str | None = None
        flags: tuple[bool, bool, str | None] = (False, False, None)

        def flush() -> None:
            if buffer:
                spans.append(Span("".join(buffer), *flags))
                buffer.clear()

        def add(text: str) -> None:
            nonlocal flags
            now = (depth["bold"] > 0, depth["italic"] > 0, style)
            if now != flags:
                flush()
                flags = now
            buffer.append(text)

        for piece in self.pieces:
            if isinstance(piece, str):
                add(piece)
            elif isinstance(piece, _Run):
                for emphasis in piece.closes:
                    depth[emphasis] -= 1
                if piece.left:
                    add("*" * piece.left)
                for emphasis in piece.opens:
                    depth[emphasis] += 1
            elif isinstance(piece, IconMark):
                flush()
                spans.append(Span(piece.written if piece.fault else "", depth["bold"] > 0, depth["italic"] > 0,
                                  style, icon=piece.name, label=piece.label, fault=piece.fault))
            elif piece is _RULE:
                flush()
                spans.append(Span("", rule=True))
            elif isinstance(piece, _Style):
                style = piece.name
            else:  # a line break
                flush()
                lines.append(tuple(spans))
                spans = []
        flush()
        lines.append(tuple(spans))
        return tuple(lines)
