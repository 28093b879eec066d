"""A rules file's Markdown read into typed blocks: what the booklet prints and ``check`` measures.

markdown-it-py parses the rules file (CommonMark plus tables; raw HTML is shown as text,
never interpreted). :class:`Reader` is the one place that interprets its syntax tree: it
turns the tree into headings, paragraphs, pictures, block directives, lists, tables,
block quotes (printed as example boxes), rules and code, and checks every text and picture
against the booklet's limits as it reads them. The booklet draws these blocks
(:mod:`generator.booklet.markdown`) and ``check`` measures them
(:mod:`generator.verdict.booklet`); neither reads the tree itself.

The content of a list item, a block quote or a table is read when the reader of the
blocks reaches it, so problems are met in reading order, wherever they are found.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from generator.booklet.directives import Directive, ExpandedSource, place_in
from generator.booklet.limits import check_glyphs, check_heading, check_table_rows, check_words
from generator.booklet.paths import resolve_image
from generator.errors import InputError, Position
from generator.render.images import ImageProblem, image_pixels

if TYPE_CHECKING:
    from markdown_it.tree import SyntaxTreeNode

T = TypeVar("T")

BLOCK_DIRECTIVE_PARAGRAPH = re.compile(r"^\s*\{\{.*\}\}\s*$", re.DOTALL)

EXAMPLE_BOX_RULE = 3
"""Points of the coloured rule down the left of an example box, taken from the text width beside
its padding."""

Span = tuple[int, int] | None
"""A block's lines in the rules file: [first, end) indexes, as markdown-it maps them."""

Body = Sequence["SyntaxTreeNode"]
"""The Markdown inside a container, not yet read: :meth:`Reader.read` reads it into blocks."""


# --- inline pieces ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Text:
    """Words as the reader sees them (character references and escapes resolved)."""

    content: str


@dataclass(frozen=True, slots=True)
class CodeSpan:
    """``code`` inside a sentence."""

    content: str


@dataclass(frozen=True, slots=True)
class Break:
    """A line break: a hard one ends the line, a soft one is a space."""

    hard: bool


@dataclass(frozen=True, slots=True)
class Styled:
    """Pieces in ``strong``, ``em`` (emphasis) or ``link`` style."""

    style: str
    pieces: tuple[Inline, ...]


@dataclass(frozen=True, slots=True)
class Image:
    """An image file in the deck folder, found readable: a block of its own when it is alone
    in its paragraph, else an icon inside a sentence."""

    path: Path
    pixels: tuple[int, int]


Inline = Text | CodeSpan | Break | Styled | Image


# --- blocks -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Heading:
    level: int
    pieces: tuple[Inline, ...]
    plain: str
    """Its text without markup, as the contents and the PDF outline list it."""


@dataclass(frozen=True, slots=True)
class Paragraph:
    pieces: tuple[Inline, ...]
    introduces: bool
    """It ends with a colon ("...in three strengths:"), so it introduces what follows."""


@dataclass(frozen=True, slots=True)
class DirectiveBlock:
    """A paragraph that is a block directive alone (``{{ components }}``, ``{{ cards }}`` ...)."""

    directive: Directive


@dataclass(frozen=True, slots=True)
class ListBlock:
    ordered: bool
    start: int
    """The number of the first item of an ordered list."""
    items: tuple[Body, ...]


@dataclass(frozen=True, slots=True)
class Cell:
    align: str
    """"left", "center" or "right"."""
    pieces: tuple[Inline, ...]
    source: str
    """The cell as written."""


@dataclass(frozen=True, slots=True)
class Row:
    head: bool
    cells: tuple[Cell, ...]
    position: Position


@dataclass(frozen=True, slots=True)
class Table:
    """A table; :meth:`Reader.rows` reads its rows."""

    sections: Body
    position: Position


@dataclass(frozen=True, slots=True)
class Quote:
    """A block quote, printed as a shaded example box."""

    body: Body
    position: Position
    span: Span


@dataclass(frozen=True, slots=True)
class Rule:
    """A horizontal rule."""


@dataclass(frozen=True, slots=True)
class CodeBlock:
    text: str


Block = Heading | Paragraph | Image | DirectiveBlock | ListBlock | Table | Quote | Rule | CodeBlock


def parse(text: str) -> Body:
    """The top-level nodes of ``text``'s syntax tree: CommonMark with tables; HTML stays text
    so a rules file cannot smuggle in markup."""
    from markdown_it import MarkdownIt  # noqa: PLC0415  (markdown-it takes 25 ms to import; plain rules need no parse)
    from markdown_it.tree import SyntaxTreeNode  # noqa: PLC0415  (likewise: check reads most rules without it)

    return SyntaxTreeNode(MarkdownIt("commonmark", {"html": False}).enable("table").parse(text)).children


@dataclass(eq=False)
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
    lines: list[str] = field(init=False)

    def __post_init__(self) -> None:
        self.lines = self.source.text.splitlines()

    def document(self) -> Iterator[Block]:
        """The rules file's blocks, in reading order."""
        return self.read(parse(self.source.text))

    def read(self, body: Body) -> Iterator[Block]:
        for node in body:
            block = self.block(node)
            if block is not None:
                yield block

    def rows(self, table: Table) -> list[Row]:
        """The rows of ``table``, header rows first, each cell's text checked."""
        rows = []
        for section in table.sections:
            for row in section.children:
                cells = []
                for cell in row.children:
                    inline = cell.children[0] if cell.children else None
                    pieces = self.pieces(inline.children, inline.map) if inline is not None else ()
                    cells.append(Cell(_alignment(str(cell.attrs.get("style", ""))), pieces,
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
        for directive in self.source.unplaced():
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
        return place_in(self.path, self.lines, span, needle)

    def check_text(self, raw: str, span: Span) -> None:
        """An overlong word, and the first character the booklet cannot print, in ``raw``."""
        def where(needle: str) -> Position:
            return self.position(span, needle)

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
            return self.table(node)
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
                return DirectiveBlock(directive)
        images = [child for child in inline.children if child.type == "image"]
        others = [child for child in inline.children
                  if child.type not in ("image", "softbreak") and not
                  (child.type == "text" and not child.content.strip())]
        if len(images) == 1 and not others:
            return self.image(images[0], inline.map)
        return Paragraph(self.pieces(inline.children, inline.map), plain_text(inline).rstrip().endswith(":"))

    def table(self, node: SyntaxTreeNode) -> Table:
        position = self.position(node.map)
        # Counted before any cell is read: thousands of rows are refused at once.
        self.attempt(check_table_rows, sum(len(section.children) for section in node.children
                                           if section.type != "thead"), position)
        return Table(node.children, position)

    # --- inline text ------------------------------------------------------------

    def pieces(self, nodes: Sequence[SyntaxTreeNode], span: Span) -> tuple[Inline, ...]:
        """The inline pieces of ``nodes``; nested ones carry no line map, so every problem in
        them is placed in the lines of the enclosing block (``span``)."""
        pieces: list[Inline] = []
        for node in nodes:
            kind = node.type
            if kind in ("softbreak", "hardbreak"):
                pieces.append(Break(kind == "hardbreak"))
            elif kind in ("strong", "em", "link"):
                pieces.append(Styled(kind, self.pieces(node.children, span)))
            elif kind == "image":
                image = self.image(node, span)
                if image is not None:
                    pieces.append(image)
            else:
                self.check_text(node.content, span)
                pieces.append(CodeSpan(node.content) if kind == "code_inline" else Text(node.content))
        return tuple(pieces)

    def image(self, node: SyntaxTreeNode, span: Span) -> Image | None:
        reference = str(node.attrs.get("src", ""))
        return self.attempt(_image_file, self.folder, reference, self.position(span, reference or "!["))


def _image_file(folder: Path, reference: str, position: Position) -> Image:
    """The image file ``reference`` names, checked before it is decoded and then decoded in full."""
    path = resolve_image(folder, reference, position)
    try:
        return Image(path, image_pixels(path, reference))
    except ImageProblem as problem:
        raise InputError(str(problem), position, field="image") from None


def plain_text(node: SyntaxTreeNode) -> str:
    """The text of an inline syntax-tree node without its markup, as the reader sees it."""
    parts = []
    for child in node.children:
        if child.type in ("text", "code_inline"):
            parts.append(child.content)
        elif child.type == "softbreak":
            parts.append(" ")
        elif child.children:
            parts.append(plain_text(child))
    return "".join(parts)


def _alignment(css: str) -> str:
    if "right" in css:
        return "right"
    if "center" in css:
        return "center"
    return "left"
