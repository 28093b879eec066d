"""What the sheet stage needs from card drawing, written down as a Protocol.

Sheets never draw a card themselves. The drawing stage (``generator.render``)
lays out each face from the deck's layout templates; sheets only ask it these
questions, so either side can change inside without the other noticing.
"""

from __future__ import annotations

from typing import Protocol, Sequence, runtime_checkable

from reportlab.pdfgen.canvas import Canvas

from generator.deck.model import Card, Deck
from generator.errors import LayoutError
from generator.render import load_renderer as load_layout_renderer


@runtime_checkable
class CardRenderer(Protocol):
    """Draws the faces of one deck's cards."""

    card_size: tuple[float, float]
    """Trim size of one card, (width, height) in points."""

    bleed: float
    """How far, in points, a face's artwork runs past its trim edge when drawn with bleed."""

    fonts: Sequence[str]
    """Names of the (embedded TrueType) fonts the faces use."""

    def face_key(self, card: Card, side: str) -> str:
        """Equal keys mean identical drawings: such faces are drawn once and placed many times."""

    def title(self, card: Card, side: str) -> str:
        """The title printed on that face of the card."""

    def draw(self, canvas: Canvas, card: Card, side: str, bleed: bool = False) -> None:
        """Draw one face with its trim box at (0, 0)-(width, height) in the current coordinates."""

    def validate(self) -> None:
        """Raise :class:`generator.errors.LayoutError` if any face cannot be laid out."""

    def problems(self) -> list[LayoutError]:
        """Every distinct face that cannot be laid out, each once (empty when all can)."""

    tried_faces: int
    """How many distinct faces the last ``problems()`` laid out or tried to."""


def load_renderer(deck: Deck, draft: bool = False) -> CardRenderer:
    """The drawing stage's renderer for ``deck``, from its layout templates; a ``draft`` one
    prints text that does not fit (clipped and marked) instead of refusing it."""
    return load_layout_renderer(deck, draft=draft)
