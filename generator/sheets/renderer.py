"""What the sheet stage needs from card drawing, written down as a Protocol.

Sheets never draw a card themselves. The drawing stage (``generator.render``)
lays out each face from the deck's layout templates; sheets only ask it these
questions, so either side can change inside without the other noticing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from reportlab.pdfgen.canvas import Canvas

from generator.deck.model import Card


@runtime_checkable
class CardRenderer(Protocol):
    """Draws the faces of one deck's cards."""

    @property
    def card_size(self) -> tuple[float, float]:
        """Trim size of one card, (width, height) in points."""

    @property
    def bleed(self) -> float:
        """How far, in points, a face's artwork runs past its trim edge when drawn with bleed."""

    @property
    def fonts(self) -> Sequence[str]:
        """Names of the (embedded TrueType) fonts the faces use."""

    @property
    def font_files(self) -> dict[str, dict[str, str]]:
        """Each font family the faces use, its faces mapped to where their files came from
        (recorded in the manifest)."""

    def face_key(self, card: Card, side: str) -> str:
        """Equal keys mean identical drawings: such faces are drawn once and placed many times."""

    def title(self, card: Card, side: str) -> str:
        """The title printed on that face of the card."""

    def draw(self, canvas: Canvas, card: Card, side: str, bleed: bool = False) -> None:
        """Draw one face with its trim box at (0, 0)-(width, height) in the current coordinates."""
