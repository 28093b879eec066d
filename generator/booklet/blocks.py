"""A rules file's Markdown read into typed blocks: what the booklet prints and ``check`` measures.

markdown-it-py parses the rules file (CommonMark plus tables; raw HTML is shown as text,
never interpreted); ``:name:`` in its text is one of the deck's layout icons, drawn as on
the cards (``\\:`` writes a colon that starts none). :class:`Reader` is the one place that
interprets its syntax tree: it turns the tree into headings, paragraphs, pictures, block
directives, lists, tables, block quotes (printed as example boxes), rules and code, and
checks every text, picture and icon against the booklet's limits as it reads them. The
booklet draws these blocks (:mod:`generator.booklet.markdown`) and ``check`` measures them
(:mod:`generator.verdict.booklet`); neither reads the tree itself.

The content of a list item, a block quote or a table is read when the reader of the
blocks reaches it, so problems are met in reading order, wherever they are found.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from itertools import groupby
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from generator.booklet.directives import Directive, ExpandedSource
from generator.booklet.limits import check_glyphs, check_heading, check_table_rows, check_words
from generator.booklet.paths import resolve_image
from generator.errors import InputError, Position, did_you_mean
from generator.render.images import ImageProblem, image_pixels
from generator.render.markup import ESCAPABLE, IconMark, read_icon, unescape

if TYPE_CHECKING:
    from markdown_it.tree import SyntaxTreeNode

T = TypeVar("T")

BLOCK_DIRECTIVE_PARAGRAPH = re.compile(r"^\s*\{\{.*\}\}\s*$", re.DOTALL)

TEXT_NODES = ("text", "text_special")
"""Text, and a character written escaped or as a reference (``\\:``, ``&amp;``)."""

Span = tuple[int, int] | None
"""A block's lines in the rules file: [first, end) indexes, as markdown-it maps them."""

Body = Sequence["SyntaxTreeNode"]
"""The Markdown inside a container, not yet read: :meth:`Reader.read` reads it into blocks."""


# --- inline pieces ------------------------------------------------------------


@dataclass(repr=False, eq=False)
class Text:
    """Words as the reader sees them (character references and escapes resolved); ``code``
    inside a sentence when ``code``. A soft line break is a space."""

    content: str
    code: bool = False


@dataclass(repr=False, eq=False)
class Break:
    """A hard line break."""


@dataclass(repr=False, eq=False)
class Styled:
    """Pieces in ``strong``, ``em`` (emphasis) or ``link`` style."""

    style: str
    pieces: tuple[Inline, ...]


@dataclass(repr=False, eq=False)
class Image:
    """An image file in the deck folder, found readable: a block of its own when it is alone
    in its paragraph, else an icon inside a sentence."""

    path: Path
    pixels: tuple[int, int]


@dataclass(repr=False, eq=False)
class Icon:
    """One of the deck's layout icons, written ``:name:``, or ``:name{label}:`` to show a label."""

    name: str
    label: str = ""


Inline = Text | Break | Styled | Image | Icon


# --- blocks -------------------------------------------------------------------


@dataclass(repr=False, eq=False)
class Heading:
    level: int
    pieces: tuple[Inline, ...]
    plain: str
    """Its text without markup, as the contents and the PDF outline list it."""


@dataclass(repr=False, eq=False)
class Paragraph:
    pieces: tuple[Inline, ...]
    introduces: bool
    """It ends with a colon ("...in three strengths:"), so it introduces what follows."""


@dataclass(repr=False, eq=False)
class ListBlock:
    ordered: bool
    start: int
    """The number of the first item of an ordered list."""
    items: tuple[Body, ...]


@dataclass(repr=False, eq=False)
class Cell:
    align: str
    """"left", "center" or "right"."""
    pieces: tuple[Inline, ...]
    source: str
    """The cell as written."""


@dataclass(repr=False, eq=False)
class Row:
    head: bool
    cells: tuple[Cell, ...]
    position: Position


@dataclass(repr=False, eq=False)
class Table:
    """A table; :meth:`Reader.rows` reads its rows."""

    sections: Body
    position: Position


@dataclass(repr=False, eq=False)
class Quote:
    """A block quote, printed as a shaded example box."""

    body: Body
    position: Position
    span: Span


@dataclass(repr=False, eq=False)
class Rule:
    """A horizontal rule."""


@dataclass(repr=False, eq=False)
class CodeBlock:
    text: str


Block = Heading | Paragraph | Image | Directive | ListBlock | Table | Quote | Rule | CodeBlock
"""A :class:`Directive` is a block directive alone in its paragraph (``{{ components }}`` ...)."""


def parse(text: str) -> Body:
    """The top-level nodes of ``text``'s syntax tree: CommonMark with tables; HTML stays text
    so a rules file cannot smuggle in markup."""
    from markdown_it import MarkdownIt  # noqa: PLC0415  (markdown-it takes 25 ms to import; plain rules need no parse)
    from markdown_it.tree import SyntaxTreeNode  # noqa: PLC0415  (likewise: check reads most rules without it)

    # Escaped characters stay nodes of their own (text_join would merge them), so "\\:" is no icon.
    parser = MarkdownIt("commonmark", {"html": False}).enable("table").disable("text_join")
    return SyntaxTreeNode(parser.parse(text)).children


@dataclass(repr=False, eq=False)
class Reader:
    """Reads one rules file's Markdown into blocks, checking every text and picture on the way.

    With ``problems``, each problem is kept there and reading goes on (``check`` reports
    every one); without, the first raises (the booklet stops at it).
    """

    folder: Path
    """The deck folder, the only place images may come from."""
    path: Path
    source: ExpandedSource
    printable: Callable[[str], bool]
    problems: list[InputError] | None = None
    icons: Callable[[], Collection[str]] | None = None
    """The names of the deck's layout icons, asked for when a text first has one; without, an
    icon is not checked (the layouts could not be read, which is reported)."""
    lines: list[str] = field(init=False)

    def __post_init__(self) -> None:
        self.lines = self.source.text.splitlines()

    def document(self) -> Iterator[Block]:
        """The rules file's blocks, in reading order."""
        return self.read(parse(self.source.text))

    def read(self, body: Body) -> Iterator[Block]:
        return (block for block in map(self.block, body) if block is not None)

    def rows(self, table: Table) -> list[Row]:
        """The rows of ``table``, header rows first, each cell's text checked."""
        rows = []
        for section in table.sections:
            for row in section.children:
                cells = []
                for cell in row.children:
                    inline = cell.children[0] if cell.children else None
                    pieces = self.pieces(inline.children, inline.map) if inline is not None else ()
                    css = str(cell.attrs.get("style", ""))
                    cells.append(Cell(next((side for side in ("right", "center") if side in css), "left"), pieces,
                                      inline.content if inline is not None else ""))
                rows.append(Row(section.type == "thead", tuple(cells),
                                self.position(row.map) if row.map else table.position))
        return rows

    def directive_text(self, raw: str, directive: Directive) -> None:
        """Check a text a block directive prints (an extra, a description, a card's value) as the
        rules file's own text is checked, placed on the directive's line."""
        line = directive.position.line
        self.check_text(raw, (line - 1, line))

    def stranded(self) -> None:
        """Refuse the block directives that do not stand alone in a paragraph of their own."""
        for line in sorted(set(self.source.blocks) - self.source.used):
            directive = self.source.blocks[line]
            self.keep(directive.fail(f"'{{{{ {directive.name} }}}}' makes a whole block: "
                                     "put it on a line of its own, with blank lines around it"))

    # --- problems -------------------------------------------------------------

    def keep(self, error: InputError) -> None:
        if self.problems is None:
            raise error
        self.problems.append(error)

    def attempt(self, check: Callable[..., T], *arguments: object) -> T | None:
        try:
            return check(*arguments)
        except InputError as error:
            self.keep(error)
            return None

    def position(self, span: Span, needle: str | None = None) -> Position:
        """Where the block on ``span`` starts, or where ``needle`` first appears in its lines."""
        start, end = span or (0, 1)
        if needle:
            for index in range(start, min(end, len(self.lines))):
                column = self.lines[index].find(needle)
                if column >= 0:
                    return Position(self.path, index + 1, column + 1)
        return Position(self.path, start + 1, 1)

    def check_text(self, raw: str, span: Span) -> None:
        """An overlong word, and the first character the booklet cannot print, in ``raw``."""
        where = partial(self.position, span)
        self.attempt(check_words, raw, where)
        self.attempt(check_glyphs, raw, self.printable, where)

    # --- blocks -----------------------------------------------------------------

    def block(self, node: SyntaxTreeNode) -> Block | None:
        kind = node.type
        if kind == "heading":
            inline = node.children[0]
            plain = plain_text(inline)
            self.attempt(check_heading, plain, self.position(node.map))
            return Heading(int(node.tag[1]), self.pieces(inline.children, inline.map), plain)
        if kind == "paragraph":
            return self.paragraph(node)
        if kind in ("bullet_list", "ordered_list"):
            return ListBlock(kind == "ordered_list", int(node.attrs.get("start", 1)),
                             tuple(item.children for item in node.children))
        if kind == "table":
            position = self.position(node.map)
            # Counted before any cell is read: thousands of rows are refused at once.
            self.attempt(check_table_rows, sum(len(section.children) for section in node.children
                                               if section.type != "thead"), position)
            return Table(node.children, position)
        if kind == "blockquote":
            return Quote(node.children, self.position(node.map), node.map)
        if kind == "hr":
            return Rule()
        if kind in ("fence", "code_block"):
            self.check_text(node.content, node.map)
            return CodeBlock(node.content)
        return None

    def paragraph(self, node: SyntaxTreeNode) -> Block | None:
        inline = node.children[0]
        if BLOCK_DIRECTIVE_PARAGRAPH.match(inline.content) and node.map:
            directive = self.source.blocks.get(node.map[0] + 1)
            if directive is not None and node.map[1] - node.map[0] == 1:
                self.source.used.add(directive.position.line)
                return directive
        images = [child for child in inline.children if child.type == "image"]
        others = [child for child in inline.children
                  if child.type not in ("image", "softbreak") and not
                  (child.type == "text" and not child.content.strip())]
        if len(images) == 1 and not others:
            return self.image(images[0], inline.map)
        return Paragraph(self.pieces(inline.children, inline.map), plain_text(inline).rstrip().endswith(":"))

    # --- inline text ------------------------------------------------------------

    def pieces(self, nodes: Sequence[SyntaxTreeNode], span: Span) -> tuple[Inline, ...]:
        """The inline pieces of ``nodes``; nested ones carry no line map, so every problem in
        them is placed in the lines of the enclosing block (``span``)."""
        pieces: list[Inline] = []
        for is_text, run in groupby(nodes, key=lambda node: node.type in TEXT_NODES):
            if is_text:
                pieces += self.text(list(run), span)
            else:
                pieces += [piece for piece in (self.piece(node, span) for node in run) if piece is not None]
        return tuple(pieces)

    def piece(self, node: SyntaxTreeNode, span: Span) -> Inline | None:
        kind = node.type
        if kind == "softbreak":
            return Text(" ")
        if kind == "hardbreak":
            return Break()
        if kind in ("strong", "em", "link"):
            return Styled(kind, self.pieces(node.children, span))
        if kind == "image":
            return self.image(node, span)
        self.check_text(node.content, span)
        return Text(node.content, kind == "code_inline")

    def text(self, nodes: list[SyntaxTreeNode], span: Span) -> list[Inline]:
        """A run of text and escaped characters, read as one text, with its icons (read as card
        markup reads them: an escaped character is never part of one, a label may hold one)."""
        self.check_text("".join(node.content for node in nodes), span)
        pieces: list[Inline] = []
        words: list[str] = []  # the text since the last icon
        for piece in _card_markup(nodes):
            if isinstance(piece, str):
                words.append(piece)
                continue
            if piece.fault:
                self.keep(InputError(piece.fault, self.position(span, piece.written.split("\\")[0]), field="icon"))
            if not piece.fault and self.known_icon(piece.name, span):
                pieces += [Text("".join(words)), Icon(piece.name, piece.label)]
                words = []
            else:  # printed as written, when the booklet goes on at all
                words.append(unescape(piece.written))
        pieces.append(Text("".join(words)))
        return [piece for piece in pieces if not isinstance(piece, Text) or piece.content]

    def known_icon(self, name: str, span: Span) -> bool:
        """Whether ``name`` is one of the deck's icons (or the icons are not known); an unknown
        one is a problem."""
        known = self.icons() if self.icons is not None else None
        if known is None or name in known:
            return True
        self.keep(InputError(f"unknown icon ':{name}:'{did_you_mean(name, known)}", self.position(span, f":{name}:"),
                             field="icon"))
        return False

    def image(self, node: SyntaxTreeNode, span: Span) -> Image | None:
        """The image file ``node`` names, checked before it is decoded and then decoded in full."""
        reference = str(node.attrs.get("src", ""))
        position = self.position(span, reference or "![")
        path = self.attempt(resolve_image, self.folder, reference, position)
        try:
            return Image(path, image_pixels(path, reference)) if path is not None else None
        except ImageProblem as problem:
            self.keep(InputError(str(problem), position, field="image"))
            return None


def plain_text(node: SyntaxTreeNode) -> str:
    """The text of an inline syntax-tree node without its markup, as the reader sees it: icons
    left out, their labels kept, a faulty one (a label too long or not closed) as written, as
    :meth:`Reader.text` prints it."""
    parts: list[str] = []
    for is_text, run in groupby(node.children, key=lambda child: child.type in TEXT_NODES):
        if is_text:
            parts += (piece if isinstance(piece, str) else unescape(piece.written) if piece.fault else piece.label
                      for piece in _card_markup(list(run)))
        else:
            parts += (child.content if child.type == "code_inline" else " " if child.type == "softbreak"
                      else plain_text(child) for child in run)
    return "".join(parts)


MAY_BE_MARKUP = re.compile(r"[:\\]")
"""What may begin an icon or an escape in a text read as card markup."""


def _card_markup(nodes: Sequence[SyntaxTreeNode]) -> Iterator[str | IconMark]:
    """A run of text and escaped characters read as card markup reads it (:func:`read_icon`):
    its words and its icons, in order. An escaped character is never part of an icon; a label
    may hold one."""
    text = "".join(map(_as_card_markup, nodes))
    index = 0
    while index < len(text):
        found = read_icon(text, index) if text[index] == ":" else None
        if text[index] == "\\" and index + 1 < len(text):
            yield text[index + 1]
            index += 2
        elif found is None:
            next_mark = MAY_BE_MARKUP.search(text, index + 1)
            stop = next_mark.start() if next_mark else len(text)
            yield text[index:stop]
            index = stop
        else:
            yield found[0]
            index = found[1]


def _as_card_markup(node: SyntaxTreeNode) -> str:
    """A text node as card markup would read it: its backslashes are characters, and an escaped
    character (a ``text_special`` node) stays escaped."""
    if node.type == "text":
        return node.content.replace("\\", "\\\\")
    return "".join("\\" + char if char in ESCAPABLE else char for char in node.content)

