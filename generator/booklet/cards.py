"""The card reference: each distinct card face drawn small, with the game's own layout.

The drawing itself belongs to the card renderer (``generator.render``), which
draws one face with its trim box at (0, 0)-(w, h). Here it is only wrapped as
a platypus Flowable that scales the face down to booklet size, and laid out
in a grid with a caption under each card.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, Protocol

from reportlab.lib.colors import Color
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Flowable, KeepTogether, Table

from generator.booklet.directives import caption_words
from generator.booklet.paragraphs import Paragraph, table_style
from generator.booklet.style import paragraph_text
from generator.deck.model import Card, Deck
from generator.errors import DeckpressError
from generator.render.icons import Icon


class Renderer(Protocol):
    """What the booklet needs from the card renderer."""

    @property
    def card_size(self) -> tuple[float, float]: ...

    @property
    def icons(self) -> Mapping[str, Icon]: ...

    def face_key(self, card: Card, side: str) -> Any: ...

    def draw(self, canvas: Any, card: Card, side: str) -> None: ...


RendererFactory = Callable[[Deck], Renderer]


def load_default_renderer(deck: Deck) -> Renderer:
    """The project's card renderer for ``deck``."""
    from generator.render import load_renderer  # noqa: PLC0415  (65 ms to import; only a card reference needs it)

    return load_renderer(deck)


class CardFace(Flowable):
    """One card face, scaled to ``width`` points wide, with a hairline at its trim edge."""

    def __init__(self, renderer: Renderer, card: Card, side: str, width: float, edge_colour: Color):
        super().__init__()
        self.renderer = renderer
        self.card = card
        self.side = side
        card_width, card_height = renderer.card_size
        self.scale = width / card_width
        self.width = width
        self.height = card_height * self.scale
        self.edge_colour = edge_colour

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        return self.width, self.height

    def draw(self) -> None:
        canvas = self.canv
        canvas.saveState()
        # Clip to the trim box so bleed drawn past the edge stays off the page.
        clip = canvas.beginPath()
        clip.rect(0, 0, self.width, self.height)
        canvas.clipPath(clip, stroke=0, fill=0)
        canvas.scale(self.scale, self.scale)
        self.renderer.draw(canvas, self.card, self.side)
        canvas.restoreState()
        canvas.saveState()
        canvas.setStrokeColor(self.edge_colour)
        canvas.setLineWidth(0.4)
        canvas.rect(0, 0, self.width, self.height, stroke=1, fill=0)
        canvas.restoreState()


def distinct_faces(deck: Deck, cards: Iterable[Card], sides: tuple[str, ...],
                   renderer: Renderer) -> list[tuple[Card, str]]:
    """Each (card, side) whose face differs from every face already listed.

    A shared card back is shown once, however many cards carry it; two cards
    that print identically (same face key) are shown once.
    """
    faces: dict[Any, tuple[Card, str]] = {}  # by face key, the first card and side showing it
    for card in cards:
        if card.count:
            for side in sides:
                faces.setdefault(renderer.face_key(card, side), (card, side))
    return list(faces.values())


def face_problems(renderer: Renderer, deck: Deck, faces: list[tuple[Card, str]]) -> list[DeckpressError]:
    """Every one of ``faces`` that the renderer cannot lay out, when it can say (the project's
    renderer lists each distinct face that does not fit), so all are reported at once rather
    than the first one drawn."""
    problems = getattr(renderer, "problems", None)
    if problems is None:
        return []
    shown = {renderer.face_key(card, side) for card, side in faces}
    return [error for error in problems()
            if getattr(error, "card", None) is None
            or renderer.face_key(deck.card(error.card), error.side or "front") in shown]


def caption_text(deck: Deck, card: Card, side: str) -> str:
    """"Frankenflakes ×9" under a front, its words (:func:`caption_words`) and its copies."""
    words = caption_words(deck, card, side)
    copies = f"×{card.count}" if side == "front" and card.count > 1 else ""
    return " ".join(part for part in (words, copies) if part)


def card_grid(faces: list[tuple[Card, str]], deck: Deck, renderer: Renderer, frame_width: float,
              card_width: float, gap: float, caption_style: ParagraphStyle, edge_colour: Color) -> list[Flowable]:
    """The faces in rows, as many per row as fit the frame, each with its caption.

    Each row is its own table, so a page can end between any two rows and a
    heading above the grid stays with the first row only.
    """
    per_row = max(1, int((frame_width + gap) // (card_width + gap)))
    # Spread spare width evenly between the columns so rows fill the text width.
    column_width = frame_width / per_row
    cells: list[list[Flowable] | str] = [[CardFace(renderer, card, side, card_width, edge_colour),
                                          Paragraph(paragraph_text(caption_text(deck, card, side)), caption_style)]
                                         for card, side in faces]
    rows = [cells[start:start + per_row] for start in range(0, len(cells), per_row)]
    if rows and len(rows[-1]) < per_row:
        rows[-1] = rows[-1] + [""] * (per_row - len(rows[-1]))
    style = table_style(
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("ALIGN", (0, 0), (-1, -1), "CENTER"),
        ("LEFTPADDING", (0, 0), (-1, -1), (column_width - card_width) / 2),
        ("RIGHTPADDING", (0, 0), (-1, -1), (column_width - card_width) / 2),
        ("TOPPADDING", (0, 0), (-1, -1), 0),
        ("BOTTOMPADDING", (0, 0), (-1, -1), gap),
    )
    tables: list[Flowable] = [Table([row], colWidths=[column_width] * per_row, hAlign="LEFT", style=style)
                              for row in rows]
    if len(tables) >= 2:
        # The last row never starts a page alone: a lone card at the top of a page
        # reads like a stray. The page breaks a row earlier instead.
        tables[-2:] = [KeepTogether(tables[-2:])]
    return tables
