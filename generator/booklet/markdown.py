"""Markdown -> platypus flowables: the body of a rules booklet.

The rules file is read into typed blocks by :mod:`generator.booklet.blocks` (which also
checks its texts and pictures); this draws them: headings, paragraphs, nested lists,
tables, block quotes (printed as shaded example boxes), images and rules. A block
directive (``{{ components }}``, ``{{ cards }}`` ...) becomes the block it describes,
built from the deck.

Every error names the rules file and the line it comes from.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from html import escape
from pathlib import Path

from reportlab.lib.enums import TA_CENTER, TA_LEFT, TA_RIGHT
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import (
    CondPageBreak,
    Flowable,
    HRFlowable,
    Image,
    KeepTogether,
    ListFlowable,
    ListItem,
    PageBreak,
    Spacer,
    Table,
    XPreformatted,
)

from generator.booklet import blocks
from generator.booklet.blocks import Reader
from generator.booklet.cards import Renderer, card_grid, distinct_faces, face_problems
from generator.booklet.components import Components
from generator.booklet.directives import (
    Cell,
    Directive,
    ExpandedSource,
    captions_words,
    card_reference,
    components_of,
    directive_table,
)
from generator.booklet.limits import CELL_PADDING, MIN_COLUMN_WIDTH, check_columns, check_table_rows, column_need
from generator.booklet.paragraphs import ICON_SPACER, Paragraph, icon_markup, table_style
from generator.booklet.style import EXAMPLE_BOX_RULE, BookletStyle, derive, font_has_glyph, paragraph_text
from generator.deck.model import Deck
from generator.errors import InputError, Position, printable, together
from generator.render.icons import Icon
from generator.render.markup import Span, parse_markup

IMAGE_DPI = 150
"""Pixels per inch an image is printed at when it fits; larger images shrink to the text width."""

MAX_IMAGE_HEIGHT_SHARE = 0.6
"""A block image takes at most this share of the page's text height."""

KEEP_TABLE_ROWS = 16
"""Tables up to this many rows move whole to the next page instead of splitting..."""

KEEP_TABLE_PAGE_SHARE = 0.5
"""...unless they are taller than this share of the page: moving a tall table whole
would leave most of a page empty, so it splits (its header row repeats)."""

MIN_LINES_UNDER_HEADING = 3
"""A heading above a list or other long block needs room for about this many lines of it."""

LINE_HEIGHT_GUESS = 14
"""Points per line when a block cannot be measured in advance (a body line is ~12.6)."""

TABLE_ROWS_UNDER_HEADING = 3
"""A heading above a long table needs room for at least this many rows below it."""

ALIGNMENTS = {"left": TA_LEFT, "center": TA_CENTER, "right": TA_RIGHT}

STYLE_TAGS = {"strong": "b", "em": "i", "link": "u"}
"""The paragraph markup of each inline style: links print underlined."""


def unkept(flowables: Iterable[Flowable]) -> list[Flowable]:
    """``flowables`` with each :class:`KeepTogether` replaced by what it keeps together."""
    return [part for flowable in flowables
            for part in (flowable._content if isinstance(flowable, KeepTogether) else [flowable])]


class Heading(Paragraph):
    """A heading paragraph that the document lists in its contents and PDF outline."""

    def __init__(self, text: str, style: ParagraphStyle, level: int = 0, plain: str = "", key: str = "",
                 contents: str = "", **paragraph_options: object):
        # reportlab makes the halves of a split paragraph with Paragraph's own arguments;
        # a half has level 0 and so stays out of the contents.
        super().__init__(text, style, **paragraph_options)
        self.toc_level = level
        self.toc_text = plain
        """The heading's words for the PDF outline, which prints no pictures (an icon by its name)."""
        self.toc_key = key
        self.toc_markup = contents
        """The heading's markup for the contents page when it has icons, drawn there as in the
        heading; else empty, and the contents print ``toc_text``."""


@dataclass(repr=False, eq=False)
class Converter:
    """Draws one rules file's blocks as flowables.

    ``renderer`` is asked for only when a ``{{ cards }}`` directive needs it, and ``icons``
    when a text has one, so a booklet without either never loads the card layouts.
    """

    deck: Deck
    style: BookletStyle
    path: Path
    source: ExpandedSource
    frame_width: float
    frame_height: float
    renderer: Callable[[], Renderer]
    icons: Callable[[], Mapping[str, Icon]]
    """The deck's layout icons, asked for when a text first has one."""
    cover_components: Components | None = None
    heading_count: int = 0
    check_faces: bool = True
    """Whether a card reference first lays out the faces it shows, to report every one that
    does not fit (``check`` lists the faces itself)."""
    reader: Reader = field(init=False)

    def __post_init__(self) -> None:
        self.reader = Reader(self.deck.folder, self.path, self.source, font_has_glyph, icons=self.icons)

    def convert(self) -> list[Flowable]:
        flowables = self.flowables(self.reader.document(), depth=0)
        self.reader.stranded()
        return flowables

    # --- blocks -------------------------------------------------------------

    def flowables(self, read: Iterable[blocks.Block], depth: int) -> list[Flowable]:
        flowables = [flowable for block in read for flowable in self.draw(block, depth)]
        return _keep_headings_with_blocks(flowables, self.frame_width, self.frame_height)

    def draw(self, block: blocks.Block, depth: int) -> list[Flowable]:
        match block:
            case blocks.Heading():
                return self.heading(block)
            case blocks.Paragraph():
                return [self.paragraph(block, self.style.text["body"])]
            case blocks.Image():
                return [self.picture(block)]
            case Directive():
                return self.directive_block(block)
            case blocks.ListBlock():
                return [self.list_block(block, depth)]
            case blocks.Table():
                return [self.table(block)]
            case blocks.Quote():
                return [self.example_box(block, depth)]
            case blocks.Rule():
                return [HRFlowable(width="60%", thickness=0.5, color=self.style.colours["rule"],
                                   spaceBefore=4, spaceAfter=8)]
            case blocks.CodeBlock():
                return [XPreformatted(paragraph_text(block.text.rstrip("\n")), self.style.text["table"])]
        return []

    def heading(self, block: blocks.Heading) -> list[Flowable]:
        style = self.style.text[f"h{min(block.level, 4)}"]
        self.heading_count += 1
        markup = self.markup(block.pieces)
        iconic = _has_icon(block.pieces)
        heading = Heading(markup, derive(style, keepWithNext=1), block.level,
                          plain=_outline_text(block.pieces) if iconic else block.plain, key=f"h{self.heading_count}",
                          contents=markup if iconic else "")
        if block.level == 1:
            # A level-1 heading never sits alone at the foot of a page.
            underline = HRFlowable(width="100%", thickness=0.6, color=self.style.colours["rule"],
                                   spaceBefore=0, spaceAfter=5)
            underline.keepWithNext = 1
            return [CondPageBreak(style.leading * 5), heading, underline]
        return [heading]

    def paragraph(self, block: blocks.Paragraph, style: ParagraphStyle) -> Paragraph:
        if block.introduces:
            # "...in three strengths:" introduces what follows; never part them.
            style = derive(style, keepWithNext=1)
        return Paragraph(self.markup(block.pieces), style)

    def list_block(self, block: blocks.ListBlock, depth: int) -> Flowable:
        body = derive(self.style.text["body"], spaceAfter=2)
        items = []
        for item in block.items:
            content: list[Flowable] = []
            for child in self.reader.read(item):
                if isinstance(child, blocks.Paragraph):
                    content.append(self.paragraph(child, body))
                else:
                    content.extend(self.draw(child, depth + 1))
            items.append(ListItem(content or [Spacer(0, 0)]))
        bullet = self.style.bullets[depth % len(self.style.bullets)]
        options = dict(bulletType="1", start=str(block.start), bulletFormat="%s.") if block.ordered \
            else dict(bulletType="bullet", start=bullet)
        body_style = self.style.text["body"]
        return ListFlowable(items, leftIndent=self.style.list_indent, bulletFontName=body_style.fontName,
                            bulletFontSize=body_style.fontSize, bulletColor=self.style.colours["accent"],
                            spaceAfter=body_style.spaceAfter if depth == 0 else 0, **options)

    def table(self, table: blocks.Table) -> Flowable:
        rows: list[list[Flowable | str]] = []
        header_rows = 0
        positions = []
        for row in self.reader.rows(table):
            positions.append(row.position)
            style = self.style.text["table_head" if row.head else "table"]
            rows.append([Paragraph(self.markup(cell.pieces), derive(style, alignment=ALIGNMENTS[cell.align]))
                         for cell in row.cells])
            header_rows += row.head
        return self.grid(rows, header_rows, position=table.position, row_positions=positions)

    def grid(self, rows: list[list[Flowable | str]], header_rows: int, widths: list[float] | None = None,
             position: Position | None = None, field: str = "table",
             row_positions: list[Position] | None = None) -> Flowable:
        """A table in the booklet's style: shaded header, hairlines between rows.

        A short table is kept on one page rather than leaving a lone row behind.
        A table with more columns than the page is wide enough for, or whose longest words
        cannot all stand whole side by side, is an error at ``position``, not a squashed
        table that reportlab cannot draw or one that breaks words letter by letter.
        """
        check_table_rows(len(rows) - header_rows, position, field)
        check_columns(max(len(row) for row in rows), self.frame_width, position, field)
        commands = [
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("LINEBELOW", (0, 0), (-1, -1), 0.4, self.style.colours["rule"]),
            ("TOPPADDING", (0, 0), (-1, -1), 2.5),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
            ("LEFTPADDING", (0, 0), (-1, -1), CELL_PADDING),
            ("RIGHTPADDING", (0, 0), (-1, -1), CELL_PADDING),
        ]
        if header_rows:
            commands.append(("BACKGROUND", (0, 0), (-1, header_rows - 1), self.style.colours["shade"]))
        widths = _unbroken_widths(rows, widths, self.frame_width, position, field)
        table = Table(rows, colWidths=widths, repeatRows=header_rows,
                      hAlign="LEFT", style=table_style(*commands), spaceAfter=self.style.text["body"].spaceAfter + 2)
        _, height = table.wrap(self.frame_width, self.frame_height)
        for number, row_height in enumerate(table._rowHeights):
            if row_height > self.frame_height:
                where = row_positions[number] if row_positions else position
                raise InputError(f"row {number + 1} of the table is taller than a page ({row_height:.0f} pt, "
                                 f"the page has {self.frame_height:.0f}); shorten its cells", where, field=field)
        if len(rows) <= KEEP_TABLE_ROWS and height <= self.frame_height * KEEP_TABLE_PAGE_SHARE:
            return KeepTogether([table])
        return table

    def example_box(self, quote: blocks.Quote, depth: int) -> Flowable:
        padding = self.style.box_padding
        inner = dataclasses.replace(self, frame_width=self.frame_width - 2 * padding - EXAMPLE_BOX_RULE)
        # The box is one table cell, never split across pages, so keeping parts together means
        # nothing in it; and reportlab measures a KeepTogether in a cell as 16 million points tall.
        content = unkept(inner.flowables(inner.reader.read(quote.body), depth))
        self.heading_count = inner.heading_count
        if content and isinstance(content[-1], Paragraph):
            content[-1].style = derive(content[-1].style, spaceAfter=0)
        box = Table([[content]], colWidths=[self.frame_width - EXAMPLE_BOX_RULE], hAlign="RIGHT",
                    spaceAfter=self.style.box_space_after, style=table_style(
                        ("BACKGROUND", (0, 0), (-1, -1), self.style.colours["shade"]),
                        ("LINEBEFORE", (0, 0), (0, -1), EXAMPLE_BOX_RULE, self.style.colours["accent"]),
                        ("LEFTPADDING", (0, 0), (-1, -1), padding),
                        ("RIGHTPADDING", (0, 0), (-1, -1), padding),
                        ("TOPPADDING", (0, 0), (-1, -1), padding),
                        ("BOTTOMPADDING", (0, 0), (-1, -1), padding),
                    ))
        _, height = box.wrap(self.frame_width, self.frame_height)
        if height > self.frame_height:
            raise InputError(f"the example box is taller than a page ({height:.0f} pt, the page has "
                             f"{self.frame_height:.0f}); split it into two quotes", quote.position,
                             field="blockquote")
        return box

    # --- images -------------------------------------------------------------

    def picture(self, picture: blocks.Image) -> Flowable:
        pixels_wide, pixels_high = picture.pixels
        width = pixels_wide * 72 / IMAGE_DPI
        height = pixels_high * 72 / IMAGE_DPI
        shrink = min(1.0, self.frame_width / width, self.frame_height * MAX_IMAGE_HEIGHT_SHARE / height)
        image = Image(str(picture.path), width=width * shrink, height=height * shrink)
        image.spaceAfter = self.style.text["body"].spaceAfter
        return image

    def icon(self, icon: blocks.Image) -> str:
        """An image inside a sentence is scaled to the height of a capital letter."""
        pixels_wide, pixels_high = icon.pixels
        height = self.style.text["body"].fontSize * 1.1
        width = height * pixels_wide / pixels_high
        return f'<img src="{escape(str(icon.path))}" width="{width:.2f}" height="{height:.2f}" valign="-2"/>'

    # --- inline text ----------------------------------------------------------

    def markup(self, pieces: tuple[blocks.Inline, ...]) -> str:
        """Paragraph markup for inline pieces: bold, italic, code, links, icons."""
        parts = []
        for index, piece in enumerate(pieces):
            match piece:
                case blocks.Text(code=False):
                    parts.append(paragraph_text(piece.content))
                case blocks.Text():
                    colour = self.style.colours["accent"].hexval()[2:]
                    parts.append(f'<font color="#{colour}">{paragraph_text(piece.content)}</font>')
                case blocks.Break():
                    parts.append("<br/>")
                case blocks.Styled():
                    tag = STYLE_TAGS[piece.style]
                    parts.append(f"<{tag}>{self.markup(piece.pieces)}</{tag}>")
                case blocks.Image():
                    parts.append(self.icon(piece))
                case blocks.Icon():
                    parts.append(icon_markup(piece.name, piece.label, _plain_text(pieces, index - 1),
                                             _plain_text(pieces, index + 1)))
        return "".join(parts)

    def card_markup(self, text: str) -> str:
        """A card's text as the card prints it: bold, italic, line breaks and the layout's icons
        with their labels (a named style's words print plain, a rule's line is left empty)."""
        lines = parse_markup(text)
        return "<br/>".join("".join(self.span(line, index) for index in range(len(line))) for line in lines)

    def span(self, line: tuple[Span, ...], index: int) -> str:
        """Markup for ``line[index]``; an icon is kept on the line of a word written against it."""
        span = line[index]
        if span.fault:  # the card itself refuses it (check says where); the table prints it as written
            return paragraph_text(span.text)
        if span.icon:
            if span.icon not in self.icons():
                return paragraph_text(f":{span.icon}{{{span.label}}}:" if span.label else f":{span.icon}:")
            before = line[index - 1].text if index > 0 else ""
            after = line[index + 1].text if index + 1 < len(line) else ""
            return icon_markup(span.icon, span.label, before, after)
        text = f"<b>{paragraph_text(span.text)}</b>" if span.bold else paragraph_text(span.text)
        return f"<i>{text}</i>" if span.italic else text

    # --- block directives -----------------------------------------------------

    def directive_block(self, directive: Directive) -> list[Flowable]:
        if directive.name == "pagebreak":
            return [PageBreak()]
        if directive.name == "cards":
            return self.cards_block(directive)
        if directive.name == "components" and self.cover_components is None:
            self.cover_components = components_of(directive, self.deck)
        table = directive_table(directive, self.deck)
        for raw in table.printed:
            self.reader.directive_text(raw, directive)
        cell, head = self.style.text["table"], self.style.text["table_head"]
        aligns = [TA_RIGHT if numeric else TA_LEFT for numeric in table.numeric]
        rows: list[list[Flowable | str]] = [[Paragraph(paragraph_text(title), derive(head, alignment=align))
                                             for title, align in zip(table.headers, aligns, strict=True)]]
        for entries in table.rows:
            rows.append([self.cell(entry, derive(cell, alignment=align))
                         for entry, align in zip(entries, aligns, strict=True)])
        widths = [self.frame_width * share for share in table.shares] if table.shares else None
        return [self.grid(rows, header_rows=1, widths=widths, position=directive.position, field=directive.name)]

    def cell(self, entry: Cell | None, style: ParagraphStyle) -> Flowable | str:
        """A directive table's cell (a blank one is empty)."""
        if entry is None:
            return ""
        text = self.card_markup(entry.text) if entry.card else paragraph_text(entry.text)
        text = f"<b>{text}</b>" if entry.bold else text
        if entry.note:
            text += f'<br/><font size="{style.fontSize - 1}">{paragraph_text(entry.note)}</font>'
        return Paragraph(text, style)

    def cards_block(self, directive: Directive) -> list[Flowable]:
        sides, width, cards = card_reference(directive, self.deck, self.frame_width)
        self.reader.directive_text(captions_words(self.deck, cards, sides), directive)
        width = width or self.style.card_width
        renderer = self.renderer()
        faces = distinct_faces(self.deck, cards, sides, renderer)
        caption = derive(self.style.text["caption"], alignment=TA_CENTER)
        rows = card_grid(faces, self.deck, renderer, self.frame_width, width, self.style.card_gap,
                         caption, self.style.colours["rule"])
        # The last two rows are kept together when they fit, so each row is measured alone.
        for row in unkept(rows):
            _, height = row.wrap(self.frame_width, self.frame_height)
            if height > self.frame_height:
                raise directive.fail(f"a row of cards is taller than a page ({height:.0f} pt, the page has "
                                     f"{self.frame_height:.0f}); give the cards a smaller width=")
        broken = face_problems(renderer, self.deck, faces) if self.check_faces else []
        if broken:
            raise together(broken)
        return rows + [Spacer(0, self.style.text["body"].spaceAfter)]


def _keep_headings_with_blocks(flowables: list[Flowable], frame_width: float,
                               frame_height: float) -> list[Flowable]:
    """Keep a heading (and an introducing line) on the page of what follows it.

    reportlab keeps a flowable marked keep-with-next together with the next
    one, but not when the next one is a container (a short table kept
    together, a list), and with a long table it moves the whole table to a
    new page. So here: a heading before a short table joins its KeepTogether;
    a heading before a picture asks for room for itself and the whole picture;
    a heading before a long table or a list asks for enough room for itself
    and the block's first rows or lines, and lets the block split.
    """
    merged: list[Flowable] = []
    for flowable in flowables:
        leading: list[Flowable] = []
        if not isinstance(flowable, (Paragraph, CondPageBreak, HRFlowable)):
            while merged and merged[-1].getKeepWithNext() and not isinstance(merged[-1], CondPageBreak):
                leading.insert(0, merged.pop())
        if leading and isinstance(flowable, KeepTogether):
            flowable = KeepTogether(leading + list(flowable._content))
        elif leading:
            room = sum(_height(item, frame_width, frame_height) for item in leading)
            room += _opening_height(flowable, frame_width, frame_height)
            for item in leading:
                item.keepWithNext = 0
            merged += [CondPageBreak(room)] + leading
        merged.append(flowable)
    return merged


def _opening_height(flowable: Flowable, frame_width: float, frame_height: float) -> float:
    """How much of the block after a heading must share a page with it.

    A picture cannot split, so it needs its whole height; a table is measured
    (header and first rows); a list cannot be measured before it is on a page,
    so it is given room for a few body lines.
    """
    if isinstance(flowable, Image):
        return _height(flowable, frame_width, frame_height)
    if isinstance(flowable, Table):
        flowable.wrap(frame_width, frame_height)
        return sum(flowable._rowHeights[:TABLE_ROWS_UNDER_HEADING + 1])
    return MIN_LINES_UNDER_HEADING * LINE_HEIGHT_GUESS


def _height(flowable: Flowable, frame_width: float, frame_height: float) -> float:
    _, height = flowable.wrap(frame_width, frame_height)
    return height + flowable.getSpaceBefore() + flowable.getSpaceAfter()


@dataclass(frozen=True)
class _ColumnMeasures:
    """What each column of a table wants (its longest cell on one line) and needs (its
    longest word whole), the word itself, and which columns hold left-aligned text."""

    wants: list[float]
    needs: list[float]
    words: list[str]
    text_columns: set[int]


def _measure_columns(rows: list[list[Flowable | str]]) -> _ColumnMeasures:
    count = max(len(row) for row in rows)
    wants: list[float] = [MIN_COLUMN_WIDTH] * count
    needs: list[float] = [MIN_COLUMN_WIDTH] * count
    words = [""] * count
    text_columns = set()
    for row in rows:
        for index, cell in enumerate(row):
            if isinstance(cell, Paragraph):
                text = _cell_text(cell)
                font, size = cell.style.fontName, cell.style.fontSize
                icons = cell.icon_widths()
                wants[index] = max(wants[index], column_need(stringWidth(text, font, size) + sum(icons)))
                widths = [(stringWidth(word, font, size), word) for word in text.split()]
                widths += [(width, "") for width in icons + cell.glued_widths()]
                longest, word = max(widths, default=(0.0, ""))
                if column_need(longest) > needs[index]:
                    needs[index], words[index] = column_need(longest), word
                if cell.style.alignment == TA_LEFT:
                    text_columns.add(index)
    return _ColumnMeasures(wants, needs, words, text_columns)


def _unbroken_widths(rows: list[list[Flowable | str]], widths: list[float] | None, frame_width: float,
                     position: Position | None, field: str) -> list[float]:
    """The column widths of a table (``widths`` when the table fixes them, else shared by
    :func:`_column_widths`), refused at ``position`` when a column cannot hold its longest word
    whole: reportlab would break the word letter by letter, without a hyphen."""
    measures = _measure_columns(rows)
    if widths is None:
        if sum(measures.needs) > frame_width:
            widest = max(range(len(measures.needs)), key=lambda index: measures.needs[index])
            raise InputError(
                f"the table does not fit the page: its {len(measures.needs)} columns need "
                f"{sum(measures.needs):.0f} pt side by side to print their longest words whole, the page has "
                f"{frame_width:.0f} (the widest, column {widest + 1}, needs {measures.needs[widest]:.0f} pt"
                f"{_for_word(measures.words[widest])}); use fewer columns or shorter words", position, field=field)
        return _column_widths(measures, frame_width)
    for index, (width, need) in enumerate(zip(widths, measures.needs, strict=False)):
        if need > width:
            raise InputError(f"column {index + 1} of the table is {width:.0f} pt wide and needs {need:.0f} pt"
                             f"{_for_word(measures.words[index])} to print it whole; shorten it", position,
                             field=field)
    return widths


def _for_word(word: str) -> str:
    """`` for 'Incomprehensibilities'``, naming a word quoted from the input (an icon: nothing)."""
    return f" for '{printable(word[:40])}'" if word else ""


def _column_widths(measures: _ColumnMeasures, frame_width: float) -> list[float]:
    """Share the text width between columns by how much text each holds.

    Each column wants its longest cell on one line, and needs at least its
    longest word (so no word is ever broken: the caller refuses a table whose
    needs do not fit). Spare width goes to the widest left-aligned (text)
    column, so number columns stay snug; a table of numbers only keeps its
    natural width. When the wants do not fit, every column gets its need plus
    the same share of what it wanted beyond it.
    """
    wants, needs = list(measures.wants), measures.needs
    if sum(wants) <= frame_width:
        if measures.text_columns:
            widest = max(measures.text_columns, key=lambda index: wants[index])
            wants[widest] += frame_width - sum(wants)
        return wants
    share = (frame_width - sum(needs)) / (sum(wants) - sum(needs))
    return [need + (want - need) * share for want, need in zip(wants, needs, strict=True)]


def _cell_text(paragraph: Paragraph) -> str:
    """A cell's text without markup, as printed (an icon's width is counted apart)."""
    text = re.sub(r"<[^>]+>", "", paragraph.text.replace(ICON_SPACER, ""))
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def _plain_text(pieces: tuple[blocks.Inline, ...], index: int) -> str:
    """The words of ``pieces[index]`` when it is plain text, else nothing (what an icon beside
    it is kept with)."""
    if 0 <= index < len(pieces):
        piece = pieces[index]
        if isinstance(piece, blocks.Text):
            return piece.content
    return ""


def _has_icon(pieces: tuple[blocks.Inline, ...]) -> bool:
    return any(isinstance(piece, blocks.Icon)
               or (isinstance(piece, blocks.Styled) and _has_icon(piece.pieces)) for piece in pieces)


def _outline_text(pieces: tuple[blocks.Inline, ...]) -> str:
    """A heading's words with each icon by its label or name (``Heroes hero and their sword``):
    the PDF outline prints text only, and a heading of icons alone would be an empty entry."""
    parts = []
    for piece in pieces:
        match piece:
            case blocks.Text():
                parts.append(piece.content)
            case blocks.Break():
                parts.append(" ")
            case blocks.Styled():
                parts.append(_outline_text(piece.pieces))
            case blocks.Icon():
                parts.append(piece.label or piece.name)
    return re.sub(r"\s+", " ", "".join(parts)).strip()
